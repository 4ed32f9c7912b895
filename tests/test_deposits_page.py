"""Deposits on the money pages (issue 25, 10): held, returned at check-in, kept, per
delegation and in total; the accountant lands on the Games under way."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from builders import account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_deposits_held_returned_and_kept(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import post
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    out = []
    for i, name in enumerate(("到场者", "缺席者")):
        entrant = person("p1", "M", f"198{i}-08-08", unit="shaanxi", name=name, area="610102")
        d = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                           entries=[individual("gomoku.OPEN", "p1")]),
                                dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t")).delegation
        post(d, "charge", Decimal("100"), "参赛保证金", Actor("t"), fee_code="deposit", source_key=f"dep:{d.id}")
        out.append(d)
    post(out[0], "credit", Decimal("100"), "参赛保证金：报到后退还", Actor("t"), fee_code="deposit", source_key="rel")
    post(out[1], "forfeit", Decimal("100"), "参赛保证金：不予退还", Actor("t"), fee_code="deposit", source_key="kept")
    account("dep-acc", "accountant", name="财务")
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 21, 2, 0, tzinfo=dt.UTC))
    client = logged_in(app, "dep-acc", "password-123")
    with app.app_context():
        page = client.get("/money/").get_data(as_text=True)  # no Games asked for: the one under way
    assert "2025陕西省第二届智力运动会" in page[page.index("<h1"):page.index("</h1>")]
    deposits = page[page.index('id="deposits"'):]
    assert "保证金应收" in deposits and "¥200.00" in deposits and "不予退还" in deposits
    assert "已退还 100.00" in page and "不予退还 100.00" in page
