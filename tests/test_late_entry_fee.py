"""A surcharge for entries that came late (逾期报名每人加收报名费100元): a fee per athlete of a
delegation whose entry first arrived after the names deadline, under an extension granted;
a return for corrections and a second submission never makes an entry late."""
import datetime as dt
from decimal import Decimal

import pytest
from builders import person
from test_rule_kinds import games

from portal.rules.proposals import propose
from portal.rules.readback import read_back

CHINA = dt.timezone(dt.timedelta(hours=8))
FEES = [{"code": "entry", "name": {"zh": "报名费", "en": "Entry fee"}, "amount": "200", "per": "athlete"},
        {"code": "late", "name": {"zh": "逾期报名费", "en": "Late entry fee"}, "amount": "100", "per": "late_athlete"}]
CLOSES = "2026-06-01T00:00:00+08:00"


def _doc(unit, people):
    return {"format": "delegation/1", "games": "late-2026", "unit": unit, "declarations": [], "people": people,
            "entries": [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}],
            "officials": [], "staff": [], "companions": []}


def test_the_fee_reads_back_is_proposed_and_needs_a_names_deadline():
    g = games([], money={"fees": FEES}, stages={"names_closes": CLOSES})
    assert "逾期报名费：逾期报名的每名运动员 100 元" in [x.zh for x in read_back(g) if x.section == "money"]
    [p] = [p for p in propose("（五）逾期报名每人加收报名费100元。") if p.kind == "fee"]
    assert p.values["per"] == "late_athlete" and p.values["amount"] == "100.00"
    [p] = [p for p in propose("（五）报名费每人200元。") if p.kind == "fee"]
    assert p.values["per"] == "athlete"
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="names deadline"):
        games([], money={"fees": FEES})


def test_only_an_entry_that_first_came_after_the_deadline_pays_it(app, db, tmp_path):
    from test_player_register import _games

    from portal.audit.services import Actor
    from portal.money.services import expected_fees
    from portal.workflow.services import (
        grant_extension,
        import_document,
        new_delegation,
        return_for_changes,
        save,
        submit,
    )
    g = _games(tmp_path, "late-2026", "late", money={"fees": FEES}, stages={"names_closes": CLOSES})
    before, after = dt.datetime(2026, 5, 20, 10, tzinfo=CHINA), dt.datetime(2026, 6, 3, 10, tzinfo=CHINA)
    on_time = import_document(g, _doc("zhejiang", [person("a", "M", "1990-01-01", name="甲")]), before, Actor("t"))
    assert on_time.ok, on_time.violations
    db.session.commit()
    late = new_delegation(g, "jiangsu")
    two = [person("b", "M", "1991-01-01", name="乙", area="320102"), person("c", "M", "1992-01-01", name="丙", area="320102")]
    assert save(late, _doc("jiangsu", two), Actor("t"), before).ok
    db.session.commit()
    assert not submit(late, Actor("领队"), after).ok  # the deadline has passed
    assert grant_extension(late, "names", dt.datetime(2026, 6, 5, tzinfo=CHINA), "材料邮寄延误", Actor("组委会")).ok
    assert submit(late, Actor("领队"), after).ok
    db.session.commit()
    fees = expected_fees(late)
    assert fees["entry"][:2] == (2, Decimal("200")) and fees["late"][:2] == (2, Decimal("100"))
    assert expected_fees(on_time.delegation)["late"][0] == 0
    # Returned after the deadline and submitted again under an extension: still on time.
    d = on_time.delegation
    assert return_for_changes(d, Actor("组委会"), [("delegation", None, "请补充照片")]).ok
    assert grant_extension(d, "names", dt.datetime(2026, 6, 5, tzinfo=CHINA), "补充材料", Actor("组委会")).ok
    assert submit(d, Actor("领队"), after).ok
    db.session.commit()
    assert expected_fees(d)["late"][0] == 0 and expected_fees(late)["late"][0] == 2
    # What the ledger charges at submission: the late one owes 2 × 100 more.
    from portal.money.services import posted_by_fee
    assert posted_by_fee(late).get("late") == Decimal("200") and not posted_by_fee(d).get("late")
