"""The leader's person form asks first what his Games' regulation reads: a group of fields
that only some regulations read (a registration, a university, a FIDE rating, a club) is
folded away where this one reads none of it, still sent with the form, and shown unfolded
where the person holds something there."""
import datetime as dt
import re

import pytest
from builders import account, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))
MAY = dt.datetime(2019, 5, 20, tzinfo=CHINA)

pytestmark = pytest.mark.usefixtures("no_csrf")


def _folded(page: str) -> tuple[str, str]:
    """The form's fields outside the fold, and the fold itself (with its opening tag)."""
    start = page.index('<details class="unread" id="unread-fields"')
    end = page.index("</details>", start)
    return page[:start] + page[end:], page[start:end]


def test_a_field_no_rule_reads_is_folded_away_and_kept_and_unfolded_where_the_person_has_it(app, db, monkeypatch):
    from portal.delegations.services import export_document
    from portal.games.services import definition_of, find_games
    monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
    clubbed = dict(person("p2", "F", year=2019, unit="hunan"), club="湖南棋院")
    d = stored("nmsg-2019", doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan"), clubbed],
                                 entries=[individual("chess.MI", "p1")]), MAY)
    account("hunan-fields", "leader", delegation=d, name="l")
    client = logged_in(app, "hunan-fields")
    with app.app_context():
        from portal.delegations.person_page import groups_read
        read = groups_read(definition_of(find_games("nmsg-2019")))
    # nmsg-2019 reads a registration (四(一)) and a university; its chess is paired by rating; no standing by club.
    assert read == {"registration": True, "university": True, "fide": True, "club": False}
    with app.app_context():
        page = client.get(f"/d/{d.id}/people/p1").get_data(as_text=True)
    outside, fold = _folded(page)
    assert 'name="club"' in fold and 'name="club"' not in outside
    assert "本比赛规程未要求的信息（可不填）" in fold and " open>" not in fold.split(">", 1)[0] + ">"
    assert 'name="registration_unit"' in outside and 'name="university_code"' in outside and "代表资格" in outside
    with app.app_context():
        page = client.get(f"/d/{d.id}/people/p2").get_data(as_text=True)
    _outside, fold = _folded(page)
    assert fold.startswith('<details class="unread" id="unread-fields" open>') and 'value="湖南棋院"' in fold
    # Saved from the form, the folded club is sent and kept.
    number = re.search(r'name="id_number" type="text" value="([^"]*)"', page).group(1)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page).group(1)
    with app.app_context():
        r = client.post(f"/d/{d.id}/people/p2", data={"version": version, "name": "刘新名", "id_type": "resident_id",
                                                      "id_number": number, "club": "湖南棋院",
                                                      "registration_unit": "hunan", "registration_year": "2019"})
        assert r.status_code == 200
        from portal.delegations.models import Delegation
        saved = {p["ref"]: p for p in export_document(db.session.get(Delegation, d.id))["people"]}
    assert saved["p2"]["name"] == "刘新名" and saved["p2"]["club"] == "湖南棋院"


def test_a_games_of_individuals_asks_for_the_club_and_folds_what_it_does_not_read(app, db):
    from portal.games.services import definition_of, find_games
    with app.app_context():
        from portal.delegations.person_page import groups_read
        read = groups_read(definition_of(find_games("youth-gomoku-2015")))
    assert read == {"registration": False, "university": False, "fide": False, "club": True}
