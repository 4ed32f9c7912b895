"""The check-in desk shows what it compares with the child in front of it (issue 25, 12):
photo, age on the first day and events by name; with nothing to check, the button to mark
the arrival has the focus, so that the scan and Enter are the whole of it."""
from __future__ import annotations

import datetime as dt

from builders import account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_the_desk_shows_age_and_events(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.venue.cards import card_code
    from portal.workflow import services as svc
    games = find_games("nmsg-2009")
    kid = person("p1", "M", "2000-11-20", year=2009, name="小棋手", docs=("insurance_proof",))
    d = svc.import_document(games, doc("nmsg-2009", people=[kid], entries=[individual("gomoku.MI", "p1")]),
                            dt.datetime(2009, 8, 1, tzinfo=CHINA), Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    account("desk-org", "organiser", name="组委会")
    db.session.commit()
    client = logged_in(app, "desk-org", "password-123")
    with app.app_context():
        page = client.get("/org/scan", query_string={"code": card_code(d.id, "p1")}).get_data(as_text=True)
    assert "小棋手" in page and "男 8 岁" in page and "五子棋男子个人" in page.replace(" ", "")  # 8 on 13 Nov 2009
    assert "没有照片" in page
    # the insurance proof is to be looked at (总则 十一(二)): the boxes first, no button focus
    button = page[page.index('id="check-in"'):page.index('id="check-in"') + 40]
    assert "autofocus" not in button and 'name="documents" value="insurance_proof"' in page
