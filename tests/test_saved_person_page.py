"""A person's save is answered with the people page itself, not a redirect to it (issue 41,
1: a redirect made each deadline-night cycle three requests): the page that holds him, the
save's message on it, and the page's own address given to the browser, so that reloading
shows the list instead of saving again."""
import datetime as dt
import re

import pytest
from builders import account, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))
MAY = dt.datetime(2019, 5, 20, tzinfo=CHINA)

pytestmark = pytest.mark.usefixtures("no_csrf")


def _leader_of(app, d, name):
    account(name, "leader", delegation=d, name="l")
    return logged_in(app, name)


def _save(app, client, d, ref, name, monkeypatch):
    monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
    with app.app_context():
        form = client.get(f"/d/{d.id}/people/{ref}").get_data(as_text=True)
        number = re.search(r'name="id_number" type="text" value="([^"]*)"', form).group(1)
        version = re.search(r'name="version" type="hidden" value="(\d+)"', form).group(1)
        return client.post(f"/d/{d.id}/people/{ref}", data={"version": version, "name": name,
                                                           "id_type": "resident_id", "id_number": number})


def test_the_save_answers_with_the_people_page_and_its_address(app, db, monkeypatch):
    d = stored("nmsg-2019", doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan"),
                                                                  person("p2", "F", year=2019, unit="hunan")],
                                 entries=[individual("chess.MI", "p1")]), MAY)
    client = _leader_of(app, d, "hunan-saver")
    r = _save(app, client, d, "p2", "刘新名", monkeypatch)
    page = r.get_data(as_text=True)
    assert r.status_code == 200, page[:300]
    assert f'<main data-page-address="/d/{d.id}/people#person-p2">' in page
    assert "已保存 刘新名" in page  # the save's message, on the page it answers with
    assert 'id="person-p2"' in page and "刘新名" in page  # the list, with the change
    assert "address.js" in page
    # Switching language from here goes to the list, not back to the form.
    assert f'name="next" value="/d/{d.id}/people#person-p2"' in page
    # The message was shown once: the list opened next has none.
    with app.app_context():
        again = client.get(f"/d/{d.id}/people").get_data(as_text=True)
    assert "已保存 刘新名" not in again and "data-page-address" not in again and "address.js" not in again


def test_the_answer_is_the_page_that_holds_him(app, db, monkeypatch):
    """A delegation of 130: the 121st person is on the second page of a hundred."""
    people = [person(f"p{i}", "M" if i % 2 else "F", f"19{60 + i % 40}-0{1 + i % 9}-1{i % 9}", year=2019, unit="hubei")
              for i in range(1, 131)]
    d = stored("nmsg-2019", doc("nmsg-2019", unit="hubei", people=people, entries=[individual("chess.MI", "p1")]), MAY)
    client = _leader_of(app, d, "hubei-saver")
    r = _save(app, client, d, "p121", "页二人", monkeypatch)
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert f'data-page-address="/d/{d.id}/people?page=2#person-p121"' in page
    assert 'id="person-p121"' in page and 'id="person-p1"' not in page
    assert "第 2 / 2 页" in page


def test_a_refused_save_still_shows_the_form(app, db, monkeypatch):
    """Only a save that stood is answered with the list: a stale form shows the form again,
    with what was typed, and no address of another page."""
    d = stored("nmsg-2019", doc("nmsg-2019", unit="henan", people=[person("p1", year=2019, unit="henan")],
                                 entries=[individual("chess.MI", "p1")]), MAY)
    client = _leader_of(app, d, "henan-saver")
    monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
    with app.app_context():
        version = d.version
        assert _save(app, client, d, "p1", "第一次", monkeypatch).status_code == 200
        r = client.post(f"/d/{d.id}/people/p1", data={"version": version, "name": "第二次", "id_type": "resident_id",
                                                    "id_number": ""})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "其他窗口" in page and 'value="第二次"' in page
    assert "data-page-address" not in page


def test_the_outside_facts_are_read_once_for_the_save_and_its_page(app, db, monkeypatch):
    """The save reads the delegation's outside facts after its write, for its judgement; the
    page it answers with reads the same state, and does not read them again. The next
    request reads them afresh (nothing is kept between requests)."""
    import sqlalchemy as sa

    from portal.extensions import db as _db
    d = stored("nmsg-2019", doc("nmsg-2019", unit="hebei", people=[person("p1", year=2019, unit="hebei")],
                                 entries=[individual("chess.MI", "p1")]), MAY)
    client = _leader_of(app, d, "hebei-saver")
    seen = []

    def count(conn, cursor, statement, *args):
        seen.append(" AS fact" in statement)
    with app.app_context():
        sa.event.listen(_db.engine, "before_cursor_execute", count)
    try:
        monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
        with app.app_context():
            form = client.get(f"/d/{d.id}/people/p1").get_data(as_text=True)
        assert sum(seen) == 1
        seen.clear()
        version = re.search(r'name="version" type="hidden" value="(\d+)"', form).group(1)
        with app.app_context():
            r = client.post(f"/d/{d.id}/people/p1", data={"version": version, "name": "冀新名", "id_type": "resident_id",
                                                        "id_number": ""})
        assert r.status_code == 200 and "冀新名" in r.get_data(as_text=True)
        assert sum(seen) == 1
        seen.clear()
        with app.app_context():
            client.get(f"/d/{d.id}/people")
        assert sum(seen) == 1
    finally:
        with app.app_context():
            sa.event.remove(_db.engine, "before_cursor_execute", count)
