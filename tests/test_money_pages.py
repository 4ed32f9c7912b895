"""The accountant's pages and the leader's statement, through the web app."""
import datetime as dt

from builders import account, csrf_token, doc, individual, logged_in, person

from portal.config import FIXTURES

CHINA = dt.timezone(dt.timedelta(hours=8))


def csrf(app, client, path):
    with app.app_context():
        page = client.get(path).get_data(as_text=True)
    return csrf_token(page)


def test_import_statement_then_leader_sees_his_statement(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    games = find_games("youth-gomoku-2015")
    kid = person("b", "M", "2006-06-06", docs=("photo", "id_copy"))
    out = import_document(games, doc("youth-gomoku-2015", unit={"name": "河西棋院", "kind": "club"}, people=[kid],
                                     entries=[individual("gomoku.MCA", "b")]),
                          dt.datetime(2015, 7, 1, tzinfo=CHINA), Actor("t"))
    d = out.delegation
    account("cw", "accountant", name="财务")
    account("hx", "leader", delegation=d, name="河西 领队")
    acc = app.test_client()
    logged_in(app, "cw", client=acc)
    token = csrf(app, acc, "/money/import")
    with app.app_context(), open(FIXTURES / "bank" / "ccb-2015-07.xlsx", "rb") as f:
        r = acc.post("/money/import", data={"csrf_token": token, "games": "youth-gomoku-2015", "on_error": "all",
                                           "file": (f, "ccb-2015-07.xlsx")}, content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    with app.app_context():
        overview = acc.get("/money/?games=youth-gomoku-2015").get_data(as_text=True)
    assert "河西棋院" in overview and "已结清" in overview  # matched by payer name and amount
    leader = app.test_client()
    logged_in(app, "hx", client=leader)
    with app.app_context():
        page = leader.get(f"/d/{d.id}/statement").get_data(as_text=True)
    assert d.payment_reference in page and "6222020302059638775" in page and "有效" in page
    with app.app_context():
        pdf = leader.get(f"/d/{d.id}/statement.pdf")
    assert pdf.data.startswith(b"%PDF")
    token = csrf(app, leader, f"/d/{d.id}/rooms")
    with app.app_context():
        r = leader.post(f"/d/{d.id}/rooms", data={"csrf_token": token, "room_type": "hotel_king",
                                                  "first_night": "2015-07-13", "last_night": "2015-07-15",
                                                  "rooms": "1", "people": "2"})
    assert "最早 2015-07-14 入住" in r.get_data(as_text=True)


def test_excess_staff_listed_for_full_rate(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money import statement
    from portal.workflow.services import new_delegation, save
    people = [person(f"a{i}", "M", docs=("insurance_proof",)) for i in range(5)] + \
             [person(f"s{i}", "M", "1970-01-01", name=f"工作人员{i}", docs=("insurance_proof",)) for i in range(4)]
    d = save(new_delegation(find_games("nmsg-2009"), "sichuan"),
             doc("nmsg-2009", unit="sichuan", people=people, entries=[individual("go.AMI", *[f"a{i}" for i in range(5)])],
                 staff=[{"person": "s0", "role": "head"}] + [{"person": f"s{i}", "role": "staff"} for i in (1, 2, 3)]),
             Actor("t"), dt.datetime(2009, 5, 1, tzinfo=CHINA)).delegation
    assert statement.statement(d)["full_rate"] == ["工作人员3"]
