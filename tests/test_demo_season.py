"""The demo's season tells the README's story on any database (issue 39, 1): its July
statement pays each club its own fee, by reference for most, by payer and amount for a
few, whatever ids the database gives the delegations."""
import datetime as dt

from builders import doc, person, stored
from sqlalchemy import func, select

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_the_season_statement_pays_the_clubs_that_sent_it(app, db):
    from portal.delegations.models import Delegation
    from portal.demo_season import SEASON, set_up_season
    from portal.money.models import BankLine
    # Other delegations first: the season's get other ids than on a fresh clone.
    for unit in ("zhejiang", "jiangsu", "shanghai"):
        stored("nmsg-2019", doc("nmsg-2019", unit=unit, people=[person("p1", unit=unit, year=2019)]),
               dt.datetime(2019, 5, 1, tzinfo=CHINA))
    db.session.commit()
    set_up_season(lambda *_a: None)
    lines = db.session.execute(
        select(BankLine.payer, BankLine.match_method, Delegation.unit_name)
        .outerjoin(Delegation, BankLine.matched_delegation_id == Delegation.id)
        .where(BankLine.statement_name == SEASON.name)).all()
    assert len(lines) >= 20
    wrong = [(payer, club) for payer, method, club in lines if method in ("reference", "name_amount") and payer != club]
    assert wrong == []
    methods = [method for _p, method, _c in lines]
    by_reference, by_payer, by_hand = methods.count("reference"), methods.count("name_amount"), methods.count(None)
    assert by_reference > len(lines) / 2 and 1 <= by_payer < by_reference and by_hand >= 1
    assert db.session.scalar(select(func.count()).select_from(BankLine).where(
        BankLine.statement_name == SEASON.name, BankLine.match_method == "reference")) == by_reference
