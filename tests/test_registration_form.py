"""Public registration shows every problem at once, on its field, in words (issue 10)."""
import datetime as dt


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


def test_the_form_builds_only_what_it_asks_and_a_rule_about_the_rest_is_told_above_it(app, db, monkeypatch, tmp_path):
    """An open for full-time university students: the self-registration page does not ask
    for a university, so the refusal cannot sit on a field nobody sees (it did: the
    university's field was built, hidden, and given the error); it is told above the form,
    with its clause."""
    import re
    from pathlib import Path

    import yaml

    from portal.accounts.registration import SelfRegistrationForm
    from portal.games.services import load_games
    data = yaml.safe_load((Path(app.root_path).parent / "fixtures/games/shaanxi-mind-2025.yaml").read_text(encoding="utf-8"))
    data.update(slug="rated-open-2025", name={"zh": "2025年大学生公开赛", "en": "2025 Students' Open"})
    data["rules"].append({"kind": "university", "clause": "五(二)", "events": ["gomoku.OPEN"]})
    # and the regulation's own identity document besides the resident ID card, offered on the form
    data["id_types"] = [{"code": "officer_card", "name": {"zh": "军官证", "en": "officer's card"}}]
    for rule in data["rules"]:
        if rule["kind"] == "accepted_id_types":
            rule["types"] = ["resident_id", "officer_card"]
    path = tmp_path / "rated-open-2025.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with app.app_context():
        load_games(str(path))
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = app.test_client()
    page = client.get("/register/rated-open-2025").get_data(as_text=True)
    with app.test_request_context("/register/rated-open-2025"):
        built = {f.name for f in SelfRegistrationForm()}  # no CSRF field: it is off in this test
    assert '<option value="officer_card">军官证</option>' in page
    form = page[page.index('<form method="post" novalidate>'):]
    asked = set(re.findall(r'name="([a-z_]+)"', form[:form.index("</form>")]))
    assert built == asked == {"id_type", "id_number", "name", "gender", "birth_date", "club", "event",
                              "username", "password", "confirm", "email"}, (built, asked)
    r = client.post("/register/rated-open-2025", data={
        "name": "王小明", "id_type": "resident_id", "id_number": "610102201204041236", "gender": "M",
        "birth_date": "2012-04-04", "event": "gomoku.OPEN", "username": "xiaoming",
        "password": "amber-river-stone-77", "confirm": "amber-river-stone-77"})
    page = r.get_data(as_text=True)
    assert 'id="arrival"' not in page
    above = re.findall(r'<div class="v">(.*?)</div>', page, re.S)
    assert any("五(二)" in v and "高校" in v for v in above), above
