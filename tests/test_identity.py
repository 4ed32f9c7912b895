"""Resident identity numbers (GB 11643) and identity rules common to all Games."""
import datetime as dt

import pytest
from builders import doc, individual, person
from conftest import codes

from portal.rules import idnumber

G = "nmsg-2019"


def test_valid_number_gives_birth_date_and_gender():
    parsed, problem = idnumber.parse("11010519491231002X")
    assert problem is None
    assert parsed.birth_date == dt.date(1949, 12, 31) and parsed.gender == "F"


@pytest.mark.parametrize("number,reason", [
    ("11010519491231002", "length"), ("1101051949123100211", "length"),
    ("11010519491231002Y", "characters"), ("110105194912310021", "check_digit"),
    ("110105194913310027", "birth_date"), ("110105190002290028", "birth_date"),
])
def test_invalid_numbers(number, reason):
    if reason == "birth_date":  # give the impossible date a correct check digit
        number = number[:17] + idnumber.mod_11_2.calc_check_digit(number[:17])
    assert idnumber.parse(number)[1] == reason


def test_area_code_is_information_only():
    # 469027 (乐东黎族自治县 code of Hainan after 1988) for someone born in 1980: real numbers
    # like this exist, and python-stdnum's cn.ric rejects them (its issue 442).
    number = idnumber.make("469027", dt.date(1980, 1, 1), 123)
    assert idnumber.parse(number)[1] is None
    unknown_area = idnumber.make("999999", dt.date(1980, 1, 1), 123)
    assert idnumber.parse(unknown_area)[1] is None


def test_lower_case_x_and_spaces_are_normalised():
    assert idnumber.parse("11010519491231002x")[1] is None
    assert idnumber.parse("110105 19491231 002X")[1] is None


def reg(ref, gender="M", born="1995-05-05", **kw):
    return person(ref, gender, born, year=2019, **kw)


def test_mismatched_birth_date_and_gender(judge):
    p = reg("p1")
    p["birth_date"] = "1995-05-06"
    found = judge(doc(G, people=[p], entries=[individual("chess.MI", "p1")]))
    assert codes(found) == ["ID_MISMATCH"]
    p = reg("p1", "F")
    p["gender"] = "M"
    found = judge(doc(G, people=[p], entries=[individual("chess.MI", "p1")]))
    assert codes(found) == ["ID_MISMATCH"]


def test_invalid_number_is_reported(judge):
    p = reg("p1")
    p["id_number"] = p["id_number"][:-1] + ("1" if p["id_number"][-1] != "1" else "2")
    found = judge(doc(G, people=[p], entries=[individual("chess.MI", "p1")]))
    assert codes(found) == ["ID_NUMBER_INVALID"]
    assert "校验位" in found[0].zh


def test_birth_date_and_gender_may_come_from_the_id_number(judge):
    p = reg("p1", "M", "2006-02-02", docs=("id_copy",))
    del p["birth_date"], p["gender"]
    assert judge(doc(G, people=[p], entries=[individual("chess.BI", "p1")])) == []


def test_passport_numbers_are_not_checked_as_resident_ids(judge):
    p = reg("p1", id_type="passport", id_number="E12345678")
    assert judge(doc(G, people=[p], entries=[individual("chess.MI", "p1")])) == []


def test_duplicate_person_in_one_delegation(judge):
    a, b = reg("p1"), reg("p2")
    b["id_number"] = a["id_number"].lower()
    found = judge(doc(G, people=[a, b], entries=[individual("chess.MI", "p1", "p2")]))
    assert codes(found) == ["DUPLICATE_PERSON"]
    assert found[0].people == ("p1", "p2")


def test_duplicate_person_across_delegations(judge):
    a = reg("p1")
    found = judge(doc(G, people=[a], entries=[individual("chess.MI", "p1")]),
                  others={a["id_number"]: "北京市"})
    assert codes(found) == ["DUPLICATE_PERSON"]
    assert "北京市" in found[0].zh
