"""shaanxi-mind-2025 (2025陕西省第二届智力运动会五子棋)."""
import pytest
from builders import doc, individual, person
from conftest import codes

G = "shaanxi-mind-2025"
DOCS = ("id_copy", "health_certificate", "insurance_proof", "safety_pledge")


def entrant(**kw):
    return person("p1", "M", "1988-08-08", unit="shaanxi", docs=DOCS, **kw)


def test_an_individual_with_a_resident_id(judge):
    assert judge(doc(G, unit=None, people=[entrant(club="安康棋院")], entries=[individual("gomoku.OPEN", "p1")])) == []


@pytest.mark.parametrize("unit", ["shaanxi", {"name": "安康棋院", "kind": "club"}])
def test_units_cannot_register(judge, unit):
    d = doc(G, unit=unit, people=[entrant()], entries=[individual("gomoku.OPEN", "p1")])
    assert codes(judge(d)) == ["UNIT_NOT_ELIGIBLE"]


@pytest.mark.parametrize("id_type", ["passport", "hk_macau_permit", "taiwan_permit", "foreign_permanent_id",
                                     "household_register"])
def test_only_the_resident_id_card(judge, id_type):
    p = entrant()
    p["id_type"] = id_type
    if id_type != "household_register":
        p["id_number"] = "E12345678"
    found = judge(doc(G, unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")]))
    assert codes(found) == ["ID_TYPE_NOT_ACCEPTED"]


def test_id_number_required(judge):
    p = entrant()
    del p["id_number"]
    assert codes(judge(doc(G, unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")]))) == [
        "ID_NUMBER_REQUIRED"]


def test_documents_at_check_in_are_warnings(judge):
    p = entrant()
    p["documents"] = ["id_copy"]
    found = judge(doc(G, unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")]))
    assert codes(found) == ["DOCUMENT_MISSING"]
    assert found[0].severity == "warning"
    assert set(found[0].extra["documents"]) == {"health_certificate", "insurance_proof", "safety_pledge"}


def test_open_to_both_genders_and_all_ages(judge):
    for gender, born in (("F", "2015-01-01"), ("M", "1940-01-01")):
        p = person("p1", gender, born, docs=DOCS)
        assert judge(doc(G, unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")])) == []


def test_capacity_is_data(definitions):
    assert definitions[G].capacity == 160
