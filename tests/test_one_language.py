"""Codes, refs and English out of Chinese pages (issue 39, 8): event codes are not shown
beside their names, the portal's own actors read in the reader's language, and the outbox
names a webhook delivery in words, with its receiver's host only."""
from __future__ import annotations

import datetime as dt

from builders import account, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_event_codes_stay_off_the_leaders_pages(app, db):
    d = stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", year=2019)], entries=[individual("chess.MI", "p1")]),
               dt.datetime(2019, 5, 1, tzinfo=CHINA))
    account("lang-leader", "leader", delegation=d)
    db.session.commit()
    client = logged_in(app, "lang-leader")
    with app.app_context():
        for page in ("", "/entries", "/declarations"):
            text = client.get(f"/d/{d.id}{page}").get_data(as_text=True)
            visible = text.split("<body", 1)[1]
            for attr in ('value="chess.MI"', 'href="', 'name="', 'id="', "#event-"):
                visible = visible.replace(attr, "")
            assert ">chess.MI<" not in visible and "chess.MI</" not in visible, page


def test_the_portals_own_actors_read_in_the_readers_language():
    from portal.audit.sentences import sentence
    assert sentence("account.locked", "系统 (system)", "", "wang", en=False).startswith("系统 ")
    assert sentence("account.locked", "系统 (system)", "", "wang", en=True).startswith("The system ")
    assert sentence("account.locked", "演示数据", "", "wang", en=True).startswith("The demo ")
    assert sentence("account.locked", "王老师", "", "wang", en=True).startswith("王老师 ")


def test_the_server_shell_and_the_systems_amendments_name_their_actor_in_one_language(app, db):
    """The shell's actor is stored in Chinese (older rows: "服务器命令行 (server shell)") and
    read in the reader's language; a version the system made says so in English too."""
    from builders import account, logged_in

    from portal.accounts.cli import SHELL
    from portal.audit.sentences import actor_name, sentence
    from portal.audit.services import Actor
    assert actor_name("命令行 (cli)", en=True) == "The command line"
    assert SHELL.label == "服务器命令行" and Actor.cli().label == "命令行"
    for label in (SHELL.label, "服务器命令行 (server shell)"):
        assert actor_name(label, en=False) == "服务器命令行"
        assert sentence("account.locked", label, "", "wang", en=True).startswith("The server shell ")
    from portal.games.models import GamesVersion, utcnow
    from portal.games.services import find_games
    games = find_games("nmsg-2019")
    db.session.add(GamesVersion(games_id=games.id, number=1, definition=games.definition, amendment=None, reason=None,
                                created_by="系统", created_at=utcnow()))  # as an amendment's first version is stored
    account("admin-en", "admin")
    db.session.commit()
    client = logged_in(app, "admin-en")
    with client.session_transaction() as s:
        s["lang"] = "en"
    with app.app_context():
        page = client.get("/org/games/nmsg-2019/setup").get_data(as_text=True)
    assert "The system" in page and "系统" not in page.split("<body", 1)[1]


def test_the_outbox_names_a_webhook_delivery_in_words(app, db):
    from portal.games.services import find_games
    from portal.notify.models import OutboxMessage
    games = find_games("nmsg-2019")
    db.session.add(OutboxMessage(kind="webhook", to_address="https://hooks.example.cn/in/secret-path", to_name="1",
                                 lang="", subject="payment.matched", body="{}", games_id=games.id))
    account("lang-org", "organiser", games=["nmsg-2019"])
    db.session.commit()
    with app.app_context():
        page = logged_in(app, "lang-org").get("/org/outbox").get_data(as_text=True)
    assert "系统对接通知" in page and "hooks.example.cn" in page and "款项已匹配" in page
    assert "secret-path" not in page and "payment.matched" not in page


def test_every_uploads_report_speaks_the_readers_language(app, db, no_csrf):
    """The units and bulk-leader uploads report each bad row in Chinese only on a Chinese
    page (they were "第 3 行 / row 3：… / …")."""
    import io
    account("lang-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "lang-admin")
    with app.app_context():
        units = admin.post("/org/units", data={"file": (io.BytesIO("单位名称,类别\n西湖棋社,棋院\n".encode()), "u.csv")},
                           content_type="multipart/form-data").get_data(as_text=True)
        bulk = admin.post("/org/accounts/bulk", data={"games": "nmsg-2019", "lines": "不存在的单位, 王五\n"}).get_data(
            as_text=True)
    assert "第 2 行：类别“棋院”无效" in units and "unknown kind" not in units and "row 2" not in units
    assert "第 1 行：“不存在的单位”不是本届比赛的参赛单位" in bulk and "is not a unit" not in bulk and "line 1" not in bulk


def test_a_workbooks_bad_cells_are_told_in_the_readers_language_only(app, db, no_csrf):
    """A leader's entry form with a wrong date: the cell and its row in words, the problem in
    Chinese only on a Chinese page, in English only on an English one (it was "…无效 / invalid …")."""
    import io

    from openpyxl import load_workbook

    from portal.delegations.excel import write_workbook
    from portal.delegations.services import export_document
    from portal.games.services import definition_of, find_games
    d = stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", year=2019)], entries=[individual("chess.MI", "p1")]),
               dt.datetime(2019, 5, 1, tzinfo=CHINA))
    account("lang-excel", "leader", delegation=d)
    db.session.commit()
    wb = load_workbook(io.BytesIO(write_workbook(definition_of(find_games("nmsg-2019")), export_document(d))))
    wb["人员"].cell(row=2, column=4, value="1990/02/30")
    data = io.BytesIO()
    wb.save(data)
    client = logged_in(app, "lang-excel")
    pages = {}
    for lang in ("zh", "en"):
        with app.app_context():
            client.post("/lang", data={"lang": lang})
            pages[lang] = client.post(f"/d/{d.id}/upload", content_type="multipart/form-data",
                                      data={"file": (io.BytesIO(data.getvalue()), "报名表.xlsx")}).get_data(as_text=True)
    assert "人员!D2（第 2 行）" in pages["zh"] and "日期“1990/02/30”无效" in pages["zh"] and "invalid date" not in pages["zh"]
    assert "人员!D2 (row 2)" in pages["en"] and "invalid date" in pages["en"] and "无效" not in pages["en"]
