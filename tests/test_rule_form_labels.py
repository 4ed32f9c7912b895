"""Every field of every kind of rule and award has words on the set-up form: a committee never reads
a field's internal name ("under_age") where it should read 未满几岁."""
import typing

from portal.rules.awards import Award
from portal.rules.definition import Rule
from portal.setup.rule_form import params_of


def _kinds(annotated=Rule):
    union = typing.get_args(typing.get_args(annotated)[0])
    return {typing.get_args(m.model_fields["kind"].annotation)[0]: m for m in union}


def test_every_field_of_every_rule_kind_is_labelled_in_words():
    unlabelled = {kind: [p.name for p in params_of(model, rules=True) if p.label == (p.name, p.name)]
                  for kind, model in _kinds().items()}
    assert {k: v for k, v in unlabelled.items() if v} == {}
    assert len(_kinds()) >= 30  # the union was read, not an empty list


def test_every_field_of_every_award_kind_is_labelled_in_words():
    unlabelled = {kind: [p.name for p in params_of(model) if p.label == (p.name, p.name)]
                  for kind, model in _kinds(Award).items()}
    assert {k: v for k, v in unlabelled.items() if v} == {}
