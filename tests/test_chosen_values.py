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


def test_documents_are_ticked_in_the_regulations_words(app, db, no_csrf):
    from portal.extensions import db as _db
    from portal.games.models import Games
    account("doc-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "doc-admin")
    index = next(i for i, r in enumerate(_db.session.query(Games).filter_by(slug="nmsg-2019").one().definition["rules"])
                 if r["kind"] == "documents")
    url = f"/org/games/nmsg-2019/setup/rules/{index}"
    with app.app_context():
        form = admin.get(url).get_data(as_text=True)
        assert 'type="checkbox"' in form and 'name="p_documents" value="id_copy" checked' in form
        assert "身份证或户口簿复印件" in form and "健康证明" in form
        r = admin.post(url, data={"op": "save", "p_documents": ["身份证复印件"], "p_who": "athletes", "p_due": "entry",
                                  "p_clause": "五(三)至(五)"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "“身份证复印件”不是可选的值" in page and "一寸免冠照片" in page
