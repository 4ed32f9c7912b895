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


def test_the_money_workbooks_speak_their_readers_language_only(app, db, no_csrf):
    """The reconciliation, the insurer's list and a delegation's statement: the header and
    the words in the cells in the reader's language (they said "单位 unit" to everyone)."""
    import io
    import re

    from openpyxl import load_workbook
    d = stored("youth-gomoku-2015", doc("youth-gomoku-2015", unit="zhejiang",
                                        people=[person("p1", "F", "2006-03-01", name="周文")],
                                        entries=[individual("gomoku.GU12", "p1")]),
               dt.datetime(2015, 6, 1, tzinfo=CHINA))
    account("lang-money", "organiser")
    db.session.commit()
    client = logged_in(app, "lang-money")
    chinese = re.compile(r"[\u4e00-\u9fff]")
    books = {}
    for lang in ("zh", "en"):
        with app.app_context():
            client.post("/lang", data={"lang": lang})
            for name, url in (("reconciliation", "/money/report.xlsx?games=youth-gomoku-2015"),
                              ("insurance", "/money/insurance?games=youth-gomoku-2015&format=xlsx"),
                              ("statement", f"/d/{d.id}/statement.xlsx")):
                r = client.get(url)
                assert r.status_code == 200, (name, lang, r.status_code)
                books[lang, name] = load_workbook(io.BytesIO(r.data)).active
    assert [c.value for c in books["zh", "reconciliation"][1]] == ["单位", "参考码", "应付", "已收", "已退", "余额", "状态"]
    assert [c.value for c in books["en", "reconciliation"][1]][:2] == ["unit", "reference"]
    insured = {lang: [[c.value for c in row] for row in books[lang, "insurance"].iter_rows()] for lang in ("zh", "en")}
    assert insured["zh"][0] == ["姓名", "性别", "出生日期", "证件类型", "证件号码", "单位"]
    assert insured["zh"][1][1] == "女" and insured["zh"][1][5] == "浙江省" and insured["zh"][1][3] == "居民身份证"
    assert insured["en"][0] == ["name", "gender", "birth date", "ID type", "ID number", "unit"]
    assert insured["en"][1][1] == "F" and insured["en"][1][5] == "Zhejiang" and not chinese.search(insured["en"][1][3])
    statement = {lang: [[c.value for c in row] for row in books[lang, "statement"].iter_rows()] for lang in ("zh", "en")}
    assert statement["zh"][3] == ["日期", "类别", "说明", "应付（元）", "已付（元）", "待付余额"]
    assert statement["en"][3] == ["date", "kind", "description", "due (CNY)", "paid (CNY)", "balance"]
    words_en = [str(v) for row in statement["en"] for v in row if isinstance(v, str)] + [
        str(c.value) for c in books["en", "reconciliation"][1]]
    assert [w for w in words_en if chinese.search(w) and "周文" not in w] == [], words_en
