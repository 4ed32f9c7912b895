"""The audit log reads as sentences in the reader's language, filterable by delegation,
person, action and date, timed on the portal's clock (issue 10)."""
import datetime as dt

from builders import account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_the_audit_log_reads_as_sentences(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, 10, 0, tzinfo=CHINA))
    d = svc.save(svc.new_delegation(find_games("nmsg-2019"), "zhejiang"),
                 doc("nmsg-2019", unit="zhejiang", people=[person("p1", name="陈立", year=2019)],
                     entries=[individual("chess.MI", "p1")]),
                 Actor("浙江领队"), dt.datetime(2019, 5, 20, tzinfo=CHINA)).delegation
    assert svc.submit(d, Actor("浙江领队"), dt.datetime(2019, 5, 20, tzinfo=CHINA)).ok
    assert svc.approve(d, Actor("王老师"), dt.datetime(2019, 5, 21, tzinfo=CHINA)).ok
    db.session.commit()
    account("audit-org", "organiser", name="王老师")
    client = app.test_client()
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    logged_in(app, "audit-org", client=client)
    with app.app_context():
        page = client.get(f"/org/audit?delegation={d.id}").get_data(as_text=True)
    assert "王老师 批准了浙江省的报名" in page
    assert "浙江领队 提交了浙江省的报名" in page
    assert "2019-05-20 10:00:00" in page  # the portal's clock, China time
    with app.app_context():  # the review page: the roster and the history in sentences
        page = client.get(f"/org/d/{d.id}").get_data(as_text=True)
    roster = page[page.find('id="roster"'):]
    assert "国际象棋 男子个人" in roster[:2000] and "陈立" in roster[:2000]
    assert "王老师 批准了浙江省的报名" in page
    with app.app_context():
        page = client.get(f"/org/audit?delegation={d.id}&action=delegation.approve").get_data(as_text=True)
    assert "批准了浙江省的报名" in page and "提交了" not in page
    with app.app_context():
        page = client.get(f"/org/audit?delegation={d.id}&from=2019-05-21&to=2019-05-21").get_data(as_text=True)
    assert "没有符合条件的记录" in page  # everything happened on the 20th by the portal's clock
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    with app.app_context():
        client.post("/lang", data={"lang": "en"})
        page = client.get(f"/org/audit?delegation={d.id}").get_data(as_text=True)
    assert "王老师 approved Zhejiang" in page, page[page.find("<table"):][:800]


def test_the_dashboard_says_what_is_left_to_do(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, 10, 0, tzinfo=CHINA))
    d = svc.save(svc.new_delegation(find_games("nmsg-2019"), "anhui"),
                 doc("nmsg-2019", unit="anhui", people=[person("p1", name="陈立", year=2019, unit="anhui")],
                     entries=[individual("chess.MI", "p1")]),
                 Actor("t"), dt.datetime(2019, 5, 20, tzinfo=CHINA)).delegation
    db.session.commit()
    account("todo-l", "leader", delegation=d, name="领队")
    client = app.test_client()
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    logged_in(app, "todo-l", client=client)
    with app.app_context():
        page = client.get(f"/d/{d.id}").get_data(as_text=True)
    box = page[page.find('id="checklist"'):]
    box = box[:box.find("</ol>")]
    assert 'class="done" data-step="declare"' in box and "已申报 1 个项目" in box
    assert 'class="todo" data-step="submit"' in box and "尚未提交" in box
