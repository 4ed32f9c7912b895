"""Issue 40 (2): every parser says no one way, InputProblems: each problem located and in
both languages, each reader then reading his own."""
from __future__ import annotations

import pytest

from portal.text import InputProblems


def _refused(call) -> InputProblems:
    with pytest.raises(InputProblems) as caught:
        call()
    return caught.value


def test_a_workbook_a_statement_a_json_text_and_a_fixture_that_cannot_be_read_say_so_one_way(tmp_path):
    from portal.config import FIXTURES
    from portal.delegations.excel import ExcelError, read_workbook
    from portal.games.services import FixtureError, read_fixture
    from portal.money.bank import StatementError, read_statement
    from portal.rules.definition import GamesDefinition
    from portal.rules.jsontext import JsonTextError, load_json
    from portal.upload_checks import load_yaml
    definition = GamesDefinition.model_validate(load_yaml((FIXTURES / "games" / "nmsg-2019.yaml").read_text("utf-8")))
    workbook = _refused(lambda: read_workbook(b"not a workbook", definition, {"people": [], "entries": []}))
    statement = _refused(lambda: read_statement(b"\x00\x01 not a statement", "流水.xlsx"))
    text = _refused(lambda: load_json("{\"people\": [1, 2"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("slug: bad\nrules: [{kind: levitation}]\n", encoding="utf-8")
    fixture = _refused(lambda: read_fixture(bad))
    for refusal, kind in ((workbook, ExcelError), (statement, StatementError), (text, JsonTextError),
                          (fixture, FixtureError)):
        assert isinstance(refusal, kind) and refusal.problems, refusal
        english, chinese = refusal.in_words(True), refusal.in_words(False)
        assert len(english) == len(chinese) == len(refusal.problems)
        assert all(" / " not in line for line in english + chinese), (english, chinese)
    assert any("levitation" in line and "未知的种类" not in line for line in fixture.in_words(True))
    assert any("未知的种类" in line for line in fixture.in_words(False))
