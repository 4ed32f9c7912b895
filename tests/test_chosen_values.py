"""Values the engine compares are chosen, not typed (issue 37, 1): a university rule's
ownership is a set of checkboxes in the regulation's words; a value that is not one of them
is refused, naming the accepted ones, and nothing is saved."""
from __future__ import annotations

from builders import account, logged_in


def test_ownership_is_chosen_in_words_and_a_typed_value_is_refused(app, db, no_csrf):
    from portal.extensions import db as _db
    from portal.games.models import Games
    account("own-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "own-admin")
    url = "/org/games/nmsg-2019/setup/rules/15"
    with app.app_context():
        form = admin.get(url).get_data(as_text=True)
    assert 'name="p_ownership" value="public"' in form and 'name="p_ownership" value="private"' in form
    assert "公办" in form and "民办" in form and "中外合作办学" in form
    before = _db.session.query(Games).filter_by(slug="nmsg-2019").one().definition["rules"][15]
    with app.app_context():
        r = admin.post(url, data={"op": "save", "p_events": ["chess.UT"], "p_ownership": ["公办、民办"],
                                  "p_full_time": "on", "p_clause": "四(四)"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "公办、民办" in page and "public" in page, page[-3000:]
    _db.session.rollback()
    assert _db.session.query(Games).filter_by(slug="nmsg-2019").one().definition["rules"][15] == before
