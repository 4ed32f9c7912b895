"""Workspace forms: a refused save keeps what was typed; a stale form is refused."""
import datetime as dt
import re

import pytest
from builders import account, doc, id_for, individual, logged_in, person, saved_to_people_page

# These tests post the pages' forms without their CSRF tokens (CSRF: tests/security).
pytestmark = pytest.mark.usefixtures("no_csrf")

CHINA = dt.timezone(dt.timedelta(hours=8))


def setup_leader(app, db, unit="hainan"):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    d = save(new_delegation(find_games("nmsg-2019"), unit),
             doc("nmsg-2019", unit=unit, people=[person("p1", year=2019, unit=unit)], entries=[individual("chess.MI", "p1")]),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    account(f"{unit}-l", "leader", delegation=d, name="l")
    return d, logged_in(app, f"{unit}-l")


def test_stale_person_form_is_refused_and_keeps_the_typing(app, db, monkeypatch):
    d, client = setup_leader(app, db)
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=CHINA))
    old_version = d.version
    with app.app_context():  # tab 1 saves
        r = client.post(f"/d/{d.id}/people/p1", data={"version": old_version, "name": "新名字", "id_type": "resident_id",
                                                    "id_number": id_for("1995-05-05", "M", "460100")})
        assert saved_to_people_page(r), r.get_data(as_text=True)[:300]
    with app.app_context():  # tab 2, built on the old version
        r = client.post(f"/d/{d.id}/people/p1", data={"version": old_version, "name": "另一个名字",
                                                    "id_type": "resident_id", "id_number": ""})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "其他窗口" in page and 'value="另一个名字"' in page
    from portal.delegations.services import export_document
    db.session.rollback()  # end this session's read snapshot
    assert export_document(d)["people"][0]["name"] == "新名字"


def test_refused_declaration_keeps_the_numbers(app, db, monkeypatch):
    d, client = setup_leader(app, db, "guizhou")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 6, 2, tzinfo=CHINA))  # after the declaration deadline
    with app.app_context():
        r = client.post(f"/d/{d.id}/declarations", data={"version": d.version, "count-chess.WI": "2",
                                                         "count-chess.MI": "1"})
    page = r.get_data(as_text=True)
    assert "DEADLINE_PASSED" not in page  # message, not code, for the leader
    assert "截止" in page and re.search(r'name="count-chess.WI" value="2"', page)


def pages_as_leader(app, d, at, *paths) -> list[str]:
    """The pages as the delegation's leader (a new account) sees them at instant `at`."""
    username = f"leader-of-{d.id}"
    account(username, "leader", delegation=d, name="l")
    client = logged_in(app, username, "password-123")
    with pytest.MonkeyPatch.context() as mp, app.app_context():
        mp.setitem(app.config, "FIXED_NOW", at)
        return [client.get(path).get_data(as_text=True) for path in paths]


def test_the_people_list_sorts_names_by_pinyin_and_people_by_event(app, db):
    """A leader with 60 people looks names up as in a class list: 陈 before 李 before 王
    (pinyin), not by character code; or by event, in the regulation's order."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    people = [person("p1", "M", "1990-01-01", year=2019, unit="hunan", name="王强"),
              person("p2", "F", "1991-01-01", year=2019, unit="hunan", name="李娜"),
              person("p3", "M", "1992-01-01", year=2019, unit="hunan", name="陈立"),
              person("p4", "M", "1993-01-01", year=2019, unit="hunan", name="阿杰")]
    d = save(new_delegation(find_games("nmsg-2019"), "hunan"),
             doc("nmsg-2019", unit="hunan", people=people,
                 entries=[individual("chess.WI", "p2"), individual("chess.MI", "p1", "p3")]),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    by_name, by_event = pages_as_leader(app, d, dt.datetime(2019, 5, 20, tzinfo=CHINA),
                                        f"/d/{d.id}/people?sort=name", f"/d/{d.id}/people?sort=event")

    def order(html):
        return list(re.findall(r"(阿杰|陈立|李娜|王强)", html.split("<table", 1)[1]))
    seen = lambda names: list(dict.fromkeys(names))
    assert seen(order(by_name)) == ["阿杰", "陈立", "李娜", "王强"]
    # chess.MI comes before chess.WI in the regulation; 阿杰 is in no event
    assert seen(order(by_event)) == ["王强", "陈立", "李娜", "阿杰"]


def test_a_closed_stage_says_whom_to_ask(app, db):
    """youth-gomoku-2015 closed on 8 July: the page says so and gives the regulation's
    contacts (十一(五): 刘彦艳 010-87559186) for an extension."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    d = save(new_delegation(find_games("youth-gomoku-2015"), {"name": "河东棋院", "kind": "club"}),
             doc("youth-gomoku-2015", unit={"name": "河东棋院", "kind": "club"},
                 people=[person("b", "M", "2006-06-06", docs=("photo", "id_copy"))],
                 entries=[individual("gomoku.MCA", "b")]), Actor("t"), dt.datetime(2015, 7, 1, tzinfo=CHINA)).delegation
    page, = pages_as_leader(app, d, dt.datetime(2015, 7, 10, tzinfo=CHINA), f"/d/{d.id}")
    assert "截止" in page and 'id="organiser-contacts"' in page and "010-87559186" in page
