"""The English translation is complete: every string marked in the code and templates has
an English text in translations/en (Chinese is the source language)."""
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent


def source_messages() -> set[str]:
    method_map = [("portal/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "_l": None, "lazy_gettext": None, "ngettext": (1, 2)}
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(str(ROOT), method_map=method_map, keywords=keywords):
        found.add(message if isinstance(message, str) else message[0])
    return {m for m in found if m}


def test_every_message_has_an_english_translation():
    with open(ROOT / "translations/en/LC_MESSAGES/messages.po", "rb") as f:
        catalog = read_po(f)
    translated = {m.id for m in catalog if m.id and m.string}
    missing = sorted(source_messages() - translated)
    assert missing == [], f"add English for: {missing}"


def test_the_compiled_catalog_is_current():
    from babel.messages.mofile import read_mo
    with open(ROOT / "translations/en/LC_MESSAGES/messages.po", "rb") as f:
        po = {m.id: m.string for m in read_po(f) if m.id}
    with open(ROOT / "translations/en/LC_MESSAGES/messages.mo", "rb") as f:
        mo = {m.id: m.string for m in read_mo(f) if m.id}
    assert mo == po, "run: pybabel compile -d translations"


def test_pages_switch_to_english(app, client, db):
    with app.app_context():
        page = client.get("/login").get_data(as_text=True)
    assert "登录" in page
    with client.session_transaction() as s:
        s["lang"] = "en"
    with app.app_context():
        page = client.get("/login").get_data(as_text=True)
    assert "Log in" in page and "登录" not in page


def test_a_label_is_followed_by_the_readers_colon(app, client, db, monkeypatch):
    """"Closes (China time): ", not the Chinese full-width colon after English words."""
    import datetime as dt
    import re
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    with app.app_context():
        page = client.get("/register/shaanxi-mind-2025").get_data(as_text=True)
    assert "截止（北京时间）：2025-09-17" in re.sub(r"<[^>]+>", "", page)
    with client.session_transaction() as s:
        s["lang"] = "en"
    with app.app_context():
        text = re.sub(r"<[^>]+>", "", client.get("/register/shaanxi-mind-2025").get_data(as_text=True))
    assert "Closes (China time): 2025-09-17" in text and "：" not in text, text


def test_service_messages_in_both_languages_show_the_readers_and_typed_words_stay_whole(app):
    """A service's Text shows its reader's language (issue 40, 1: the "中文 / English"
    convention retired); words someone typed are shown as typed, never split at " / "."""
    from flask import session
    from flask_babel import refresh

    from portal.text import Text
    text = Text("已确认 3 名运动员的名单", "3 names confirmed")
    typed = "补充通知（一）第 3 条 / 附件 2"
    pick = app.jinja_env.filters["in_language"]
    with app.test_request_context("/"):
        assert pick(text) == "已确认 3 名运动员的名单" and pick(typed) == typed
        session["lang"] = "en"
        refresh()
        assert pick(text) == "3 names confirmed" and pick(typed) == typed
        assert pick("no slash here") == "no slash here" and pick(None) == ""
