"""Before the names close an approved delegation can still change (issue 39, 3): the pages
say what the regulation allows (edit, then submit again for approval), the forms save, and
after the deadline the way is a substitution."""
from __future__ import annotations

import datetime as dt

from builders import account, doc, individual, logged_in, person, saved_to_people_page

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_an_approved_entry_is_edited_and_submitted_again_before_the_names_close(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.games.services import find_games
    from portal.workflow.services import approve, import_document
    out = import_document(find_games("nmsg-2019"), doc("nmsg-2019", people=[person("p1", year=2019, name="陈立")],
                                                        entries=[individual("chess.MI", "p1")]),
                          dt.datetime(2019, 8, 1, tzinfo=CHINA), Actor("t"))
    d = out.delegation
    assert approve(d, Actor("组委会"), dt.datetime(2019, 8, 2, tzinfo=CHINA)).ok
    account("appr-leader", "leader", delegation=d)
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 8, 20, 10, tzinfo=CHINA))
    client = logged_in(app, "appr-leader")
    with app.app_context():
        page = client.get(f"/d/{d.id}/people/p1").get_data(as_text=True)
        assert 'id="approved-notice"' in page and "名单截止前仍可直接修改" in page and "重新提交" in page
        subs = client.get(f"/d/{d.id}/substitutions").get_data(as_text=True)
        assert "请直接在" in subs and "已批准的报名修改后须重新提交" in subs
        from builders import csrf_token
        r = client.post(f"/d/{d.id}/people/p1", data={
            "csrf_token": csrf_token(page), "version": str(d.version), "name": "陈力", "id_type": "resident_id",
            "id_number": "", "gender": "M", "birth_date": "1995-05-05", "registration_unit": "zhejiang",
            "registration_year": "2019"})
        assert saved_to_people_page(r), r.get_data(as_text=True)[:1500]
    db.session.rollback()
    d = db.session.get(Delegation, d.id)
    assert d.status == "draft" and any(p.name == "陈力" for p in d.people)
    # Submitted and approved again; after the names close it is locked, a substitution the way.
    from portal.workflow.services import submit
    assert submit(d, Actor("陈领队"), dt.datetime(2019, 8, 21, tzinfo=CHINA)).ok
    assert approve(d, Actor("组委会"), dt.datetime(2019, 8, 22, tzinfo=CHINA)).ok
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 9, 5, 10, tzinfo=CHINA))
    with app.app_context():
        page = client.get(f"/d/{d.id}/people/p1").get_data(as_text=True)
    assert 'id="approved-notice"' not in page and "名单已截止" in page and "更换运动员" in page
