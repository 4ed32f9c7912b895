"""联队 (issue 36, 5): "同一城市的高校可组成联队参赛，联队不超过3所高校，须经组委会批准" —
a university's delegation with another university's students is refused, naming them and
the clause, until the organisers admit that university (with the grounds, audited); more
institutions than the regulation allows, or one outside the city, is refused whatever is
approved."""
from __future__ import annotations

import datetime as dt

import pytest
import yaml
from builders import person

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 5, 1, 10, tzinfo=CHINA)
CODES = {"北京大学": "4111010001", "中国人民大学": "4111010002", "清华大学": "4111010003", "复旦大学": "4131010246"}


@pytest.fixture
def games(db, tmp_path):
    from portal.games.services import load_games
    data = {"slug": "uni-go-2026", "series": "uni-go", "edition": 1,
            "name": {"zh": "大学生围棋赛", "en": "University Go"},
            "dates": {"start": "2026-07-01", "end": "2026-07-05"},
            "participation": {"unit_kinds": ["university"]},
            "units": [{"code": "pku", "kind": "university", "name": {"zh": "北京大学", "en": "Peking University"},
                       "province_code": "11", "city": "北京市", "universities": [CODES["北京大学"]]}],
            "sports": [{"code": "go", "name": {"zh": "围棋", "en": "Go"}}],
            "events": [{"code": "go.MI", "sport": "go", "gender": "X", "kind": "individual",
                        "name": {"zh": "个人", "en": "Individual"}}],
            "rules": [{"kind": "university", "events": ["go.MI"], "full_time": True},
                      {"kind": "joint_team", "max_institutions": 3, "within": "city", "clause": "四(三)"}]}
    path = tmp_path / "uni-go-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    yield load_games(str(path))
    from portal.games.models import Unit
    db.session.rollback()
    db.session.query(Unit).filter_by(code="pku").delete()  # the Games' own unit, which outlives it
    db.session.commit()


def _student(ref, university):
    return person(ref, "M", born="2004-03-03", name=f"{university[:2]}{ref}", unit="pku",
                  university={"code": CODES[university], "full_time": True, "graduation_date": "2027-07-01"})


def _doc(people):
    return {"format": "delegation/1", "games": "uni-go-2026", "unit": "pku", "declarations": [], "people": people,
            "entries": [{"event": "go.MI", "people": [p["ref"] for p in people]}],
            "officials": [], "staff": [], "companions": []}


def _problems(delegation):
    from portal.delegations.services import export_document, judge
    from portal.rules import parse_document
    parsed, _ = parse_document(export_document(delegation))
    return [(v.code, v.zh, v.people) for v in judge(delegation.games, parsed, AT, delegation.id)
            if v.code in ("TEAM_COMPOSITION", "UNIVERSITY_INELIGIBLE")]


def test_another_universitys_student_waits_for_the_organisers_approval_then_counts_as_the_units_own(games, db):
    from builders import stored

    from portal.audit.services import Actor
    from portal.workflow.joint import admit_joint_team, withdraw_joint_team
    delegation = stored("uni-go-2026", _doc([_student("a", "北京大学"), _student("b", "中国人民大学")]), AT)
    found = _problems(delegation)
    assert [(c, p) for c, _zh, p in found] == [("TEAM_COMPOSITION", ("b",))]  # not also "outside the jurisdiction"
    assert "来自中国人民大学" in found[0][1] and "须经组委会批准" in found[0][1]
    refused = admit_joint_team(delegation, CODES["中国人民大学"], "", Actor("组委会"))
    assert not refused.ok and refused.field == "reason"
    assert admit_joint_team(delegation, CODES["中国人民大学"], "组委会2026年4月批准函", Actor("组委会")).ok
    db.session.commit()
    assert _problems(delegation) == []
    assert withdraw_joint_team(delegation, CODES["中国人民大学"], "批准函有误", Actor("组委会")).ok
    db.session.commit()
    assert [c for c, _zh, _p in _problems(delegation)] == ["TEAM_COMPOSITION"]


def test_more_institutions_than_allowed_or_one_in_another_city_is_refused_even_when_approved(games, db):
    from builders import stored

    from portal.audit.services import Actor
    from portal.workflow.joint import admit_joint_team
    people = [_student("a", "北京大学"), _student("b", "中国人民大学"), _student("c", "清华大学"), _student("d", "复旦大学")]
    delegation = stored("uni-go-2026", _doc(people), AT)
    for name in ("中国人民大学", "清华大学", "复旦大学"):
        assert admit_joint_team(delegation, CODES[name], "批准函", Actor("组委会")).ok
    db.session.commit()
    found = [zh for _c, zh, _p in _problems(delegation)]
    assert any("至多由 3 所学校" in zh and "现有 4 所" in zh for zh in found)
    assert any(zh.startswith("复旦大学不在本单位所在的城市") for zh in found)
    assert len(found) == 2


def test_the_organiser_admits_the_joint_team_on_the_review_page_with_the_grounds(app, games, db):
    from builders import account, csrf_token, logged_in, stored
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    delegation = stored("uni-go-2026", _doc([_student("a", "北京大学"), _student("b", "中国人民大学")]), AT)
    account("joint-org", "organiser", games=["uni-go-2026"])
    db.session.commit()
    client = logged_in(app, "joint-org")
    page = client.get(f"/org/d/{delegation.id}").get_data(as_text=True)
    assert "批准与中国人民大学组成联队" in page
    answer = client.post(f"/org/d/{delegation.id}/joint", follow_redirects=True,
                         data={"csrf_token": csrf_token(page), "institution": CODES["中国人民大学"],
                               "reason": "组委会批准函"}).get_data(as_text=True)
    assert "已批准组成联队：中国人民大学" in answer and "撤销批准" in answer
    entry = db.session.scalars(select(AuditLog).where(AuditLog.action == "delegation.joint_team")).one()
    assert entry.reason == "组委会批准函" and entry.after["admitted"] == "中国人民大学"
    account("joint-other", "organiser", games=["nmsg-2019"])
    db.session.commit()
    with app.app_context():
        other = logged_in(app, "joint-other")
        token = csrf_token(other.get("/org/games/nmsg-2019/register").get_data(as_text=True))
        assert other.post(f"/org/d/{delegation.id}/joint", data={"csrf_token": token}).status_code == 404
