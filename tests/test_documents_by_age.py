"""Documents asked of people of an age only (未满18周岁的运动员须提交监护人签字的参赛同意书;
60岁以上的须提交县级以上医院的体检证明): the entry's check, check-in, the read-back and the
self-registration page ask them of those ages and no one else."""
import datetime as dt

import pytest
from builders import person
from test_rule_kinds import d, games

from portal.rules.readback import read_back

KINDS = [{"code": "guardian_consent", "name": {"zh": "监护人同意书", "en": "guardian's consent"}},
         {"code": "medical", "name": {"zh": "体检证明", "en": "medical certificate"}}]


def _games(*rules):
    return games(list(rules), document_kinds=KINDS)


def _judge(definition, people):
    from portal.rules import check_delegation, parse_document
    parsed, problems = parse_document(d(people, [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}]))
    assert parsed is not None, problems
    return [v for v in check_delegation(definition, parsed, at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))
            if v.code == "DOCUMENT_MISSING"]


def test_a_guardians_consent_from_those_under_18_on_the_first_day():
    """The Games begin on 20 August 2026: born 21 August 2008 is still 17 then."""
    definition = _games({"kind": "documents", "documents": ["guardian_consent"], "under_age": 18, "clause": "五(四)"})
    people = [person("young", born="2008-08-21"), person("adult", born="2008-08-20"), person("old", born="1950-01-01")]
    [v] = _judge(definition, people)
    assert v.people == ("young",) and "缺少监护人同意书（报名时须提交，未满18周岁者）" in v.zh and "under 18" in v.en
    consent = dict(people[0], documents=["guardian_consent"])
    assert _judge(definition, [consent, *people[1:]]) == []


def test_a_medical_certificate_from_those_60_or_older_on_the_day_the_rule_names():
    definition = _games({"kind": "documents", "documents": ["medical"], "min_age": 60, "age_on": "2026-12-31"})
    people = [person("sixty", born="1966-12-31"), person("fifty-nine", born="1967-01-01")]
    [v] = _judge(definition, people)
    assert v.people == ("sixty",) and "年满60周岁（以2026年12月31日计）者" in v.zh


def test_the_read_back_says_the_age_and_nonsense_is_refused_in_words():
    definition = _games({"kind": "documents", "documents": ["guardian_consent"], "under_age": 18})
    lines = [x.zh for x in read_back(definition) if x.section == "rules"]
    assert "未满18周岁的运动员须报名时提交：监护人同意书" in lines, lines
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="applies to no one"):
        _games({"kind": "documents", "documents": ["medical"], "min_age": 60, "under_age": 18})
    with pytest.raises(ValidationError, match="a day to count ages on without an age"):
        _games({"kind": "documents", "documents": ["medical"], "age_on": "2026-12-31"})


def test_check_in_asks_the_certificate_of_those_of_the_age_only():
    from portal.venue.checkin import documents_due
    definition = _games({"kind": "documents", "documents": ["medical"], "min_age": 60, "due": "checkin"})
    doc = d([person("old", born="1950-01-01"), person("young", born="2000-01-01")],
            [{"event": "xiangqi.MI", "people": ["old", "young"]}])
    assert documents_due(definition, doc, "old") == ["medical"] and documents_due(definition, doc, "young") == []


def test_the_registration_page_names_whom_a_document_is_asked_of():
    from portal.accounts.registration_form import documents_due_with_entry
    definition = _games({"kind": "documents", "documents": ["guardian_consent"], "under_age": 18},
                        {"kind": "documents", "documents": ["medical"]})
    assert documents_due_with_entry(definition, en=False) == "监护人同意书（未满18周岁者）、体检证明"
    assert documents_due_with_entry(definition, en=True) == "guardian's consent (under 18), medical certificate"


@pytest.mark.parametrize("sentence, values", [("未满18周岁的运动员须提交监护人签字的参赛同意书。", {"under_age": 18}),
                                              ("60岁以上的参赛者须提供县级以上医院的体检证明。", {"min_age": 60})])
def test_the_regulations_words_open_the_documents_form_with_the_age(sentence, values):
    from portal.rules.proposals import propose
    from portal.setup.proposals import _link
    [p] = propose("五、参赛资格\n（四）" + sentence)
    assert (p.kind, p.values, p.ref) == ("documents_by_age", values, "五(四)")
    link = _link("g", p)
    assert link.startswith("/org/games/g/setup/rules/new?kind=documents&") and "p_clause=" in link
    assert all(f"p_{k}={v}" in link for k, v in values.items())
    assert propose("未满18周岁的选手由家长陪同。") == []  # no document asked
