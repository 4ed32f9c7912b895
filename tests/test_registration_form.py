"""Public registration shows every problem at once, on its field, in words (issue 10)."""
import datetime as dt

import pytest


def test_a_password_mismatch_does_not_hide_the_id_number_error(app, db, monkeypatch):
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    with app.app_context():
        r = client.post("/register/shaanxi-mind-2025", data={
            "name": "王小明", "id_type": "resident_id", "id_number": "610102201204041234", "gender": "M",
            "birth_date": "2012-04-04", "event": "gomoku.OPEN", "username": "xiaoming",
            "password": "amber-river-stone-77", "confirm": "amber-river-stone-78"})
    page = r.get_data(as_text=True)
    assert "两次输入的密码不一致" in page
    import re
    errors = re.findall(r'<div class="err">([^<]+)</div>', page)
    assert any("两次输入的密码不一致" in e for e in errors) and any("校验位" in e for e in errors), errors
    assert "SCHEMA_INVALID" not in page and "people[0]" not in page


def _open_with(app, tmp_path, slug, rules, **more):
    """A copy of shaanxi-mind-2025 (individuals register themselves) with `rules` added."""
    from pathlib import Path

    import yaml

    from portal.games.services import load_games
    data = yaml.safe_load((Path(app.root_path).parent / "fixtures/games/shaanxi-mind-2025.yaml").read_text(encoding="utf-8"))
    data.update(slug=slug, name={"zh": "2025年公开赛", "en": "2025 Open"}, **more)
    data["rules"].extend(rules)
    path = tmp_path / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with app.app_context():
        load_games(str(path))
    return data


ENTRANT = {"name": "王小明", "id_type": "resident_id", "id_number": "610102201204041238", "gender": "M",
           "birth_date": "2012-04-04", "event": "gomoku.OPEN", "username": "xiaoming",
           "password": "amber-river-stone-77", "confirm": "amber-river-stone-77"}
PAGE_FIELDS = {"id_type", "id_number", "name", "gender", "birth_date", "club", "event", "username", "password",
               "confirm", "email"}


def _asked(page: str) -> set:
    import re
    form = page[page.index('<form method="post" novalidate>'):]
    return set(re.findall(r'name="([a-z_]+)"', form[:form.index("</form>")]))


def _field_errors(page: str, name: str) -> list:
    """The errors shown under the field `name`."""
    import re
    at = page.index(f'name="{name}"')
    block = page[at:page.index('<div class="field', at) if '<div class="field' in page[at:] else len(page)]
    return re.findall(r'<div class="err">([^<]+)</div>', block)


def test_the_form_asks_what_the_rules_read_and_builds_nothing_else(app, db, monkeypatch, tmp_path):
    """An open for full-time university students: the page asks for the university (it did
    not, and the refusal sat on a hidden field), and his refusal is on that field with its
    clause. A field nobody reads is neither shown nor built (each costs the rush)."""
    from portal.accounts.registration_form import registration_form_for
    from portal.games.services import definition_of, find_games
    data = _open_with(app, tmp_path, "rated-open-2025", [{"kind": "university", "clause": "五(二)", "events": ["gomoku.OPEN"]}],
                      id_types=[{"code": "officer_card", "name": {"zh": "军官证", "en": "officer's card"}}])
    for rule in data["rules"]:  # the regulation's own identity document, offered on the form
        if rule["kind"] == "accepted_id_types":
            rule["types"] = ["resident_id", "officer_card"]
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    page = client.get("/register/rated-open-2025").get_data(as_text=True)
    with app.test_request_context("/register/rated-open-2025"):
        built = {f.name for f in registration_form_for(definition_of(find_games("rated-open-2025")))}
        plain = {f.name for f in registration_form_for(definition_of(find_games("shaanxi-mind-2025")))}
    assert '<option value="officer_card">军官证</option>' in page
    university = {"university_code", "full_time", "graduation_date"}
    assert built == _asked(page) == PAGE_FIELDS | university, (built, _asked(page))
    assert plain == PAGE_FIELDS == _asked(client.get("/register/shaanxi-mind-2025").get_data(as_text=True))
    page = client.post("/register/rated-open-2025", data=ENTRANT).get_data(as_text=True)
    assert 'id="arrival"' not in page
    errors = _field_errors(page, "university_code")
    assert any("高校" in e and "五(二)" in e for e in errors), errors


def test_a_grade_rule_is_asked_judged_and_passed_on_the_registration_form(app, db, monkeypatch, tmp_path):
    """"持有业余 1 段及以上段位者方可报名": the entrant gives his grade on the form; a grade
    below is refused on the grade's field with the clause, the grade asked for is taken."""
    from portal.accounts.arrivals import ticket_of
    _open_with(app, tmp_path, "dan-open-2025",
               [{"kind": "grade", "clause": "四(三)", "events": ["gomoku.OPEN"], "system": "gomoku", "lowest": "1段"}],
               grade_systems=[{"code": "gomoku", "name": {"zh": "五子棋段级位", "en": "gomoku grades"},
                               "ladder": ["3级", "2级", "1级", "1段", "2段", "3段"]}])
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    page = client.get("/register/dan-open-2025").get_data(as_text=True)
    assert _asked(page) == PAGE_FIELDS | {"grade_system", "grade", "grade_awarded_on"}, _asked(page)
    assert '<option value="gomoku">五子棋段级位</option>' in page
    low = dict(ENTRANT, grade_system="gomoku", grade="2级", grade_awarded_on="2024-05-01")
    page = client.post("/register/dan-open-2025", data=low).get_data(as_text=True)
    assert 'id="arrival"' not in page
    errors = _field_errors(page, "grade")
    assert any("四(三)" in e for e in errors), errors
    page = client.post("/register/dan-open-2025", data=dict(low, grade="业余二段")).get_data(as_text=True)
    assert 'id="arrival"' in page, page
    with client.session_transaction() as s:
        ticket_id = s["arrival_ticket"]
    with app.app_context():
        from portal.games.services import find_games
        ticket = ticket_of(find_games("dan-open-2025"), ticket_id, dt.datetime.now(dt.UTC))
        assert ticket is not None
        assert ticket.document["people"][0]["grades"] == [{"system": "gomoku", "grade": "业余二段",
                                                           "awarded_on": "2024-05-01"}]


@pytest.mark.parametrize("rule, asked, field", [
    ({"kind": "rating", "events": ["gomoku.OPEN"], "list": "fide", "min_rating": 1800},
     {"fide_rating", "fide_list"}, "fide_rating"),
    ({"kind": "rating", "events": ["gomoku.OPEN"], "list": "cca", "max_rating": 2200},
     {"rating_list", "rating_value", "rating_list_date"}, "rating_value"),
    ({"kind": "residence", "regions": ["610000"], "name": {"zh": "陕西省户籍", "en": "registered in Shaanxi"}},
     {"residence_region", "residence_since"}, "residence_region"),
    ({"kind": "nationality", "nationalities": ["KOR"]}, {"nationality"}, "nationality"),
    ({"kind": "employment", "events": ["gomoku.OPEN"], "kinds": ["staff"]},
     {"employment_kind", "employment_unit", "employment_since"}, "employment_kind"),
])
def test_each_thing_a_rule_reads_is_asked_and_its_refusal_is_on_it(app, db, monkeypatch, tmp_path, rule, asked, field):
    """A rating (FIDE's or a national list's), a residence, a nationality, an employment: asked when a rule
    reads it, and an entrant who leaves it out is refused on that field with the clause."""
    slug = f"open-{rule['kind']}-{rule.get('list', 'x')}"
    _open_with(app, tmp_path, slug, [{**rule, "clause": "六"}])
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    page = client.get(f"/register/{slug}").get_data(as_text=True)
    assert _asked(page) == PAGE_FIELDS | asked, _asked(page)
    r = client.post(f"/register/{slug}", data=ENTRANT)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="arrival"' not in page
    errors = _field_errors(page, field)
    assert any("六" in e for e in errors), (errors, page[page.index("<main"):][:3000])


def test_documents_due_with_the_entry_are_uploaded_in_the_account_and_the_entry_submitted_then(app, db, monkeypatch):
    """youth-gomoku-2015 (十一(三)1: 报名时须提交一寸免冠照片和身份证或户口簿复印件) takes
    individuals, and its form takes no files: every entrant was refused for them. Now the
    page says so before he types, his entry is kept as a draft, and once he has uploaded
    both from his account he submits it."""
    import io
    import re

    from PIL import Image

    from portal.accounts.arrivals import finish
    from portal.delegations.models import Delegation
    from portal.rules.idnumber import make
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    handed = []
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", handed.append)
    client = app.test_client()
    page = client.get("/register/youth-gomoku-2015").get_data(as_text=True)
    assert "本比赛报名时须提交一寸免冠照片、身份证或户口簿复印件" in page
    born = dt.date(2007, 4, 4)
    entrant = {"name": "王小明", "id_type": "resident_id", "id_number": make("120101", born, 3), "gender": "",
               "birth_date": "", "event": "gomoku.MCA", "username": "xiaoming", "password": "amber-river-stone-77",
               "confirm": "amber-river-stone-77"}
    page = client.post("/register/youth-gomoku-2015", data=entrant).get_data(as_text=True)
    assert 'id="arrival"' in page and "请上传一寸免冠照片、身份证或户口簿复印件，然后提交报名" in page, page
    [ticket_id] = handed
    finish(ticket_id)
    with app.app_context():
        r = client.get("/register/youth-gomoku-2015/arrival")
    assert r.status_code == 302 and "/d/" in r.headers["Location"]
    delegation_id = int(re.search(r"/d/(\d+)", r.headers["Location"]).group(1))
    d = db.session.get(Delegation, delegation_id)
    assert d.status == "draft"
    with app.app_context():
        page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "账号已建立，报名表已保存" in page and "请在报名页面上传一寸免冠照片、身份证或户口簿复印件" in page
    buffer = io.BytesIO()
    Image.new("RGB", (300, 400), "white").save(buffer, "PNG")
    for kind in ("photo", "id_copy"):
        db.session.expire_all()
        version = db.session.get(Delegation, delegation_id).version
        with app.app_context():
            r = client.post(f"/d/{delegation_id}/people/p1/documents", content_type="multipart/form-data",
                            data={"version": version, "kind": kind, "file": (io.BytesIO(buffer.getvalue()), f"{kind}.png")})
        assert r.status_code == 302, r.get_data(as_text=True)[:500]
    db.session.expire_all()
    with app.app_context():
        r = client.post(f"/d/{delegation_id}/submit", data={"version": db.session.get(Delegation, delegation_id).version},
                        follow_redirects=True)
    assert "报名已提交，等待组委会审核" in r.get_data(as_text=True)
    db.session.rollback()  # a read begun before the submission sees the delegation as it was
    assert db.session.get(Delegation, delegation_id).status == "submitted"


def test_a_group_his_age_or_gender_does_not_admit_is_refused_on_the_event_naming_the_groups_he_may_enter(app, db,
                                                                                                       monkeypatch):
    """A boy born in 2009, entered by his parent in 女子少年甲组 (七: 1998–2003): the refusal
    is on the group he chose, not on his birth date, and names the group open to him."""
    import re

    from portal.rules.idnumber import make
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    entrant = {"name": "王小明", "id_type": "resident_id", "id_number": make("120101", dt.date(2009, 4, 4), 3),
               "gender": "", "birth_date": "", "event": "gomoku.WJA", "username": "xiaoming",
               "password": "amber-river-stone-77", "confirm": "amber-river-stone-77"}
    page = app.test_client().post("/register/youth-gomoku-2015", data=entrant).get_data(as_text=True)
    errors = _field_errors(page, "event")
    assert any("年龄范围" in e and "七" in e for e in errors) and any("性别" in e for e in errors), errors
    assert errors[-1] == "您可以报：男子儿童乙组", errors
    assert not _field_errors(page, "birth_date") and not _field_errors(page, "gender")
    assert not re.findall(r'<div class="v">', page)  # nothing left above the form


def test_before_the_opening_the_page_says_when_and_its_button_waits_for_it(app, db, monkeypatch, tmp_path):
    """"报名时间：9月1日12:00开始" with the form open before it: the page says when it opens, and
    its button carries the opening and the page's own time (static/opening.js waits by
    them); an early press is refused with the opening named and takes no place; at the
    opening the page is the plain form and the same press is answered."""
    import re

    from sqlalchemy import func, select

    from portal.workflow.models import ArrivalTicket
    china = dt.timezone(dt.timedelta(hours=8))
    _open_with(app, tmp_path, "noon-open-2025", [], stages={
        "entries_open": "2025-09-01T12:00:00+08:00", "names_closes": "2025-09-17T22:00:00+08:00",
        "changes_close": "2025-09-17T22:00:00+08:00", "changes_need_approval": False})
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 11, 59, 30, tzinfo=china))
    page = client.get("/register/noon-open-2025").get_data(as_text=True)
    notice = re.search(r'<p class="flash info" id="opens-at">([^<]+)</p>', page)
    assert notice and "2025-09-01 12:00" in notice.group(1) and "开始前按下不会被受理" in notice.group(1), page
    button = re.search(r'<button type="submit" id="register"([^>]*)>', page).group(1)
    assert 'data-opens="2025-09-01T12:00:00+08:00"' in button and 'data-now="2025-09-01T11:59:30+08:00"' in button
    assert "opening.js" in page
    early = client.post("/register/noon-open-2025", data=dict(ENTRANT, username="early-bird")).get_data(as_text=True)
    assert "12:00（北京时间）开始，此前不能提交" in early and 'id="arrival"' not in early
    with app.app_context():
        assert db.session.scalar(select(func.count(ArrivalTicket.id))) == 0
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 12, 0, tzinfo=china))
    page = client.get("/register/noon-open-2025").get_data(as_text=True)
    assert 'id="opens-at"' not in page and "data-opens" not in page and "opening.js" not in page
    answered = client.post("/register/noon-open-2025", data=dict(ENTRANT, username="on-time")).get_data(as_text=True)
    assert 'id="arrival"' in answered
