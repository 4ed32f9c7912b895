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
