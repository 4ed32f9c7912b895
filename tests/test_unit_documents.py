"""A document of the delegation itself, not of a person (issue 36, 6): "报名表须加盖单位公章后
上传" is a rule with `who: delegation`; the leader uploads it once on the dashboard, and
the problem goes."""
from __future__ import annotations

import datetime as dt
import io

import yaml
from builders import account, csrf_token, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 5, 1, 10, tzinfo=CHINA)


def test_the_sealed_entry_form_is_uploaded_once_for_the_delegation(app, db, tmp_path):
    from portal.delegations.services import check_document, export_document
    from portal.games.services import load_games
    data = {"slug": "sealed-2026", "series": "sealed", "edition": 1, "name": {"zh": "盖章赛", "en": "Sealed Games"},
            "dates": {"start": "2026-07-01", "end": "2026-07-05"}, "participation": {"unit_kinds": ["province"]},
            "sports": [{"code": "go", "name": {"zh": "围棋", "en": "Go"}}],
            "events": [{"code": "go.MI", "sport": "go", "gender": "X", "kind": "individual",
                        "name": {"zh": "个人", "en": "Individual"}}],
            "document_kinds": [{"code": "sealed_entry_form", "name": {"zh": "加盖公章的报名表", "en": "entry form with the unit's seal"}}],
            "rules": [{"kind": "documents", "who": "delegation", "documents": ["sealed_entry_form"], "clause": "六(二)"}]}
    path = tmp_path / "sealed-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    games = load_games(str(path))
    document = {"format": "delegation/1", "games": "sealed-2026", "unit": "zhejiang", "declarations": [],
                "people": [person("a")], "entries": [{"event": "go.MI", "people": ["a"]}],
                "officials": [], "staff": [], "companions": []}
    delegation = stored("sealed-2026", document, AT)
    account("sealed-leader", "leader", delegation=delegation)
    db.session.commit()
    client = logged_in(app, "sealed-leader")
    page = client.get(f"/d/{delegation.id}").get_data(as_text=True)
    assert "单位材料" in page and "未上传" in page and "本单位缺少加盖公章的报名表（报名时须提交）" in page
    # judged alone, the delegation's own files are not known: nothing is claimed missing
    rep, _ = check_document(export_document(delegation), AT, stored=False)
    assert not [v for v in rep["violations"] if v["code"] == "DOCUMENT_MISSING"]
    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    answer = client.post(f"/d/{delegation.id}/documents", content_type="multipart/form-data", follow_redirects=True,
                         data={"csrf_token": csrf_token(page), "kind": "sealed_entry_form",
                               "file": (io.BytesIO(pdf), "报名表.pdf")}).get_data(as_text=True)
    assert "材料已上传" in answer and "已上传" in answer and "本单位缺少加盖公章的报名表" not in answer
    # a kind the Games do not ask of a delegation is refused
    answer = client.post(f"/d/{delegation.id}/documents", content_type="multipart/form-data", follow_redirects=True,
                         data={"csrf_token": csrf_token(page), "kind": "photo",
                               "file": (io.BytesIO(pdf), "x.pdf")}).get_data(as_text=True)
    assert "本次比赛不要求单位提交这种材料" in answer
    db.session.delete(games)
    db.session.commit()
