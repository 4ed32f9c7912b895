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


def test_the_officials_tiers_are_a_table_not_yaml(app, db, no_csrf):
    """Issue 37, 4: the tiers of officials by events entered, a row a tier, a cell a number."""
    from portal.extensions import db as _db
    from portal.games.models import Games
    account("tier-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "tier-admin")
    rules = _db.session.query(Games).filter_by(slug="nmsg-2019").one().definition["rules"]
    index = next(i for i, r in enumerate(rules) if r["kind"] == "officials")
    url = f"/org/games/nmsg-2019/setup/rules/{index}"
    with app.app_context():
        form = admin.get(url).get_data(as_text=True)
    assert '<textarea id="p_tiers"' not in form and 'name="p_tiers_0_min_events"' in form
    first = rules[index]["tiers"][0]
    assert f'name="p_tiers_0_min_events" value="{first["min_events"]}"' in form
    with app.app_context():
        r = admin.post(url, data={"op": "save", "p_tiers_0_min_events": "6", "p_tiers_0_leaders": "1",
                                  "p_tiers_0_coaches": "1", "p_tiers_1_min_events": "0", "p_tiers_1_leader_coaches": "1",
                                  "p_clause": "五(八)", "do": "confirm", "amendment": "补充通知（一）",
                                  "reason": "官员名额"})
        assert r.status_code == 302, r.get_data(as_text=True)[-2000:]
        bad = admin.post(url, data={"op": "save", "p_tiers_0_min_events": "六", "p_clause": "五(八)"})
    assert bad.status_code == 422 and "应为整数" in bad.get_data(as_text=True)
    _db.session.rollback()
    saved = _db.session.query(Games).filter_by(slug="nmsg-2019").one().definition["rules"][index]
    assert [(t["min_events"], t.get("leaders", 0), t.get("leader_coaches", 0)) for t in saved["tiers"]] == [(6, 1, 0), (0, 0, 1)]


def test_the_payee_is_three_fields(app, db, no_csrf):
    from portal.extensions import db as _db
    from portal.games.models import Games
    account("payee-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "payee-admin")
    url = "/org/games/youth-gomoku-2015/setup/settings/money"
    with app.app_context():
        form = admin.get(url).get_data(as_text=True)
    assert '<textarea id="p_payee"' not in form and 'name="p_payee_account" value="6222020302059638775"' in form
    assert "收款户名" in form and "开户行" in form
    before = _db.session.query(Games).filter_by(slug="youth-gomoku-2015").one().definition["money"]["payee"]
    assert set(before) == {"name", "bank", "account"}
