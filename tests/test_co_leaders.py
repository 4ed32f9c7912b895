"""Two or three people of one unit typing at once on deadline night (issue 25, 2): saves of
different people, events, teams or new people merge; the same part changed by both is
shown side by side, and saving again keeps what was typed, nothing retyped."""
import datetime as dt
import re

import pytest
from builders import account, doc, id_for, individual, logged_in, person, saved_to_people_page

pytestmark = pytest.mark.usefixtures("no_csrf")
CHINA = dt.timezone(dt.timedelta(hours=8))


@pytest.fixture
def unit(app, db, monkeypatch):
    """A delegation of three people, its leader and a co-leader, in the names stage."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    people = [person(f"p{i}", g, year=2019, unit="hainan", name=n) for i, g, n in ((1, "M", "王一"), (2, "M", "李二"),
                                                                                 (3, "F", "张三"))]
    d = save(new_delegation(find_games("nmsg-2019"), "hainan"),
             doc("nmsg-2019", unit="hainan", people=people, entries=[individual("chess.MI", "p1")],
                 declarations=[{"event": "chess.MI", "count": 2}, {"event": "chess.WI", "count": 1}]),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    account("hn-a", "leader", delegation=d)
    account("hn-b", "leader", delegation=d)
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, 21, 0, tzinfo=CHINA))
    return d.id, logged_in(app, "hn-a"), logged_in(app, "hn-b")


def _form(app, client, path, event=None):
    """The hidden version and base of the page's form (of the event's form, on the entries page)."""
    with app.app_context():
        page = client.get(path).get_data(as_text=True)
    if event:
        page = page[page.index(f'name="event" value="{event}"') - 300:]
    version = re.search(r'name="version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="version"', page)
    base = re.search(r'name="base" value="([0-9a-f]+)"', page)
    shown = re.search(r'name="base_people" value="([^"]*)"', page) if event else None
    return {"version": next(g for g in version.groups() if g), "base": base.group(1) if base else "",
            **({"base_people": shown.group(1)} if shown else {})}


def _person(name, born="1995-05-05", gender="M"):
    return {"name": name, "id_type": "resident_id", "id_number": id_for(born, gender, "460100"), "gender": gender,
            "birth_date": born, "registration_unit": "hainan", "registration_year": "2019"}


def _stored(db, delegation_id):
    from portal.delegations.models import Delegation
    from portal.delegations.services import export_document
    db.session.rollback()  # a fresh snapshot
    return export_document(db.session.get(Delegation, delegation_id))


def test_two_leaders_editing_different_people_both_keep_their_change(app, db, unit):
    did, a, b = unit
    form_a, form_b = _form(app, a, f"/d/{did}/people/p1"), _form(app, b, f"/d/{did}/people/p2")
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/p1", data={**form_a, **_person("王一新")}))
        r = b.post(f"/d/{did}/people/p2", data={**form_b, **_person("李二新", "1996-06-06")})
    assert saved_to_people_page(r), r.get_data(as_text=True)[:400]
    names = {p["ref"]: p["name"] for p in _stored(db, did)["people"]}
    assert names == {"p1": "王一新", "p2": "李二新", "p3": "张三"}


def test_two_new_people_at_once_get_references_of_their_own(app, db, unit):
    did, a, b = unit
    form_a, form_b = _form(app, a, f"/d/{did}/people/new"), _form(app, b, f"/d/{did}/people/new")
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/new", data={**form_a, **_person("赵四", "1997-01-01")}))
        assert saved_to_people_page(b.post(f"/d/{did}/people/new", data={**form_b, **_person("钱五", "1998-02-02")}))
    people = _stored(db, did)["people"]
    assert sorted(p["name"] for p in people) == ["张三", "李二", "王一", "赵四", "钱五"]
    assert len({p["ref"] for p in people}) == 5


def test_entries_of_different_events_merge(app, db, unit):
    did, a, b = unit
    form_a = _form(app, a, f"/d/{did}/entries", event="chess.MI")
    form_b = _form(app, b, f"/d/{did}/entries", event="chess.WI")
    with app.app_context():
        assert a.post(f"/d/{did}/entries", data={**form_a, "event": "chess.MI", "people": ["p1"],
                                                 "add": ["李二"]}).status_code == 302
        r = b.post(f"/d/{did}/entries", data={**form_b, "event": "chess.WI", "add": ["张三"]})
    assert r.status_code == 302, r.get_data(as_text=True)[:400]
    entries = {e["event"]: e["people"] for e in _stored(db, did)["entries"]}
    assert entries["chess.MI"] == ["p1", "p2"] and entries["chess.WI"] == ["p3"]


def test_co_leaders_entering_their_own_players_in_one_event_all_stand(app, db, unit):
    """Issue 41, 3: both forms were shown with 王一 entered; one leader adds 李二, the other
    takes 王一 off and adds 张三: the event holds 李二 and 张三, nobody refused as stale."""
    did, a, b = unit
    form_a = _form(app, a, f"/d/{did}/entries", event="chess.MI")
    form_b = _form(app, b, f"/d/{did}/entries", event="chess.MI")
    assert form_a["base_people"] == "p1"
    with app.app_context():
        assert a.post(f"/d/{did}/entries", data={**form_a, "event": "chess.MI", "people": ["p1"],
                                                 "add": ["李二"]}).status_code == 302
        r = b.post(f"/d/{did}/entries", data={**form_b, "event": "chess.MI", "add": ["张三"]})
    assert r.status_code == 302, r.get_data(as_text=True)[:400]
    entries = {e["event"]: e["people"] for e in _stored(db, did)["entries"]}
    assert entries["chess.MI"] == ["p2", "p3"]


def test_the_same_person_changed_by_both_shows_both_and_saving_again_keeps_mine(app, db, unit):
    did, a, b = unit
    form_a, form_b = _form(app, a, f"/d/{did}/people/p1"), _form(app, b, f"/d/{did}/people/p1")
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/p1", data={**form_a, **_person("王甲")}))
        r = b.post(f"/d/{did}/people/p1", data={**form_b, **_person("王乙")})
    page = r.get_data(as_text=True)
    assert 'id="conflict"' in page, page[:600]
    theirs, mine = page.split("对方已保存的", 1)[1].split("您填写的", 1)
    assert "王甲" in theirs and "王乙" in mine.split("</ul>", 1)[0]
    assert 'value="王乙"' in page  # what B typed is still in the form
    assert _stored(db, did)["people"][0]["name"] == "王甲"  # nothing was overwritten yet
    again = _form_from(page)
    with app.app_context():
        assert saved_to_people_page(b.post(f"/d/{did}/people/p1", data={**again, **_person("王乙")}))
    assert _stored(db, did)["people"][0]["name"] == "王乙"


def _form_from(page):
    version = re.search(r'name="version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="version"', page)
    return {"version": next(g for g in version.groups() if g),
            "base": re.search(r'name="base" value="([0-9a-f]+)"', page).group(1)}


def test_the_conflict_shows_every_field_that_differs_not_only_the_name(app, db, unit):
    """Issue 39, 9: the two saves differ in the club only; the page names that field on
    both sides and marks it."""
    did, a, b = unit
    form_a, form_b = _form(app, a, f"/d/{did}/people/p1"), _form(app, b, f"/d/{did}/people/p1")
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/p1", data={**form_a, **_person("王一"), "club": "海口棋院"}))
        r = b.post(f"/d/{did}/people/p1", data={**form_b, **_person("王一"), "club": "三亚棋社"})
    page = r.get_data(as_text=True)
    theirs, mine = page.split("对方已保存的", 1)[1].split("您填写的", 1)
    mine = mine.split("</ul>", 1)[0]
    assert "<strong>俱乐部：海口棋院</strong>" in theirs and "<strong>俱乐部：三亚棋社</strong>" in mine
    assert "姓名：王一" in theirs and "<strong>姓名：王一</strong>" not in theirs  # the same on both: not marked
    assert "出生日期：1995-05-05" in mine


def _person_form(app, client, path):
    """Every field of the person form as the page shows it (inputs, chosen options, hidden)."""
    import html
    with app.app_context():
        page = client.get(path).get_data(as_text=True)
    form = page[page.index("<form method=\"post\" novalidate>"):]
    form = form[:form.index("</form>")]
    data = {}
    for m in re.finditer(r'<input([^>]*)>', form):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if "name" in attrs and attrs.get("type") not in ("checkbox", "submit"):
            data[attrs["name"]] = html.unescape(attrs.get("value", ""))
    for m in re.finditer(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', m.group(2))
        data[m.group(1)] = next((g for g in chosen.groups() if g is not None), "") if chosen else ""
    return data


def test_two_leaders_correcting_different_fields_of_one_person_both_keep_theirs(app, db, unit):
    """Issue 41, 3: one corrects 王一's club, the other his birth date, from the same page:
    both corrections stand; only the same field changed differently is a conflict."""
    did, a, b = unit
    form_a, form_b = _person_form(app, a, f"/d/{did}/people/p1"), _person_form(app, b, f"/d/{did}/people/p1")
    assert form_a["base_fields"] and form_a["name"] == "王一"
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/p1", data={**form_a, "club": "海口棋院"}))
        r = b.post(f"/d/{did}/people/p1", data={**form_b, "registration_year": "2019", "club": ""})
    assert saved_to_people_page(r), r.get_data(as_text=True)[:600]
    stored = _stored(db, did)["people"][0]
    assert stored["club"] == "海口棋院" and stored["name"] == "王一"
    # the same field changed differently by both: shown side by side, nothing overwritten
    form_a, form_b = _person_form(app, a, f"/d/{did}/people/p1"), _person_form(app, b, f"/d/{did}/people/p1")
    with app.app_context():
        assert saved_to_people_page(a.post(f"/d/{did}/people/p1", data={**form_a, "club": "三亚棋社"}))
        r = b.post(f"/d/{did}/people/p1", data={**form_b, "club": "儋州棋社"})
    assert 'id="conflict"' in r.get_data(as_text=True) and _stored(db, did)["people"][0]["club"] == "三亚棋社"


def test_a_team_lineup_changed_by_both_is_a_small_page_with_that_team_only(app, db, unit):
    """Issue 41, 3: both reorder the same team from the same page; the second is refused
    with a page of that event alone (not every event, not the whole judgement), what was
    typed still in its rows, and saving again from it keeps it."""
    from builders import team

    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.workflow.services import save
    did, a, b = unit
    stored = _stored(db, did)
    stored["declarations"].append({"event": "chess.MTR", "count": 1})
    stored["entries"].append(team("chess.MTR", ("p1", 1), ("p2", 2)))
    save(db.session.get(Delegation, did), stored, Actor("t"), dt.datetime(2019, 5, 2, tzinfo=CHINA))
    db.session.commit()
    form_a = _form(app, a, f"/d/{did}/entries?event=chess.MTR&team=A", event="chess.MTR")
    form_b = _form(app, b, f"/d/{did}/entries?event=chess.MTR&team=A", event="chess.MTR")
    rows = lambda first, second: {"event": "chess.MTR", "team": "A", "person-0": first, "board-0": "1",
                                  "person-1": second, "board-1": "2", "rows": "2"}
    with app.app_context():
        assert a.post(f"/d/{did}/entries", data={**form_a, **rows("王一", "李二"), "board-0": "2",
                                                 "board-1": "1"}).status_code == 302
        r = b.post(f"/d/{did}/entries", data={**form_b, **rows("李二", "王一")})
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and 'id="conflict"' in page
    assert 'value="chess.MTR"' in page and 'value="chess.MI"' not in page  # that event alone
    assert 'class="problems"' not in page  # not judged: the two versions are the point
    lineup = lambda: [(s["person"], s.get("board")) for s in _stored(db, did)["entries"][-1]["lineup"]]
    assert lineup() == [("p1", 2), ("p2", 1)]  # A's, nothing overwritten
    again = _form_from(page[page.index('name="event" value="chess.MTR"') - 300:])
    with app.app_context():
        assert b.post(f"/d/{did}/entries", data={**again, **rows("李二", "王一")}).status_code == 302
    assert lineup() == [("p2", 1), ("p1", 2)]
