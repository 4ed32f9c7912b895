"""Fees per team entered (issue 36, 6): "每队报名费500元" charges a unit's second team too,
where a fee per team group charges each team event once."""
from decimal import Decimal

from builders import person
from test_rule_kinds import d, games, team_of


def test_a_fee_per_team_entered_counts_each_team_and_a_team_group_fee_each_event_once(app):
    from portal.money.services import fees_under
    definition = games([], money={"fees": [
        {"code": "team", "name": {"zh": "团体报名费", "en": "Team entry fee"}, "amount": "500", "per": "team_entry"},
        {"code": "group", "name": {"zh": "团体组别费", "en": "Team group fee"}, "amount": "100", "per": "team_group"}]})
    people = [person(f"p{i}") for i in range(6)]
    doc = d(people, [team_of("bridge.MT", ["p0", "p1", "p2"], "A"), team_of("bridge.MT", ["p3", "p4", "p5"], "B")])
    with app.app_context():
        fees = fees_under(definition, doc, True, [])
    assert fees["team"][:2] == (2, Decimal("500"))
    assert fees["group"][:2] == (1, Decimal("100"))
