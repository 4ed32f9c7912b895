"""Ledger notes read in English by an English reader (issue 25, 16): the Games' fee and room
names and the portal's own phrases, never a line left in Chinese but a payer's name."""
from portal.money.statement import english_note


def test_ledger_notes_in_english(definitions):
    d = definitions["youth-gomoku-2015"]
    assert english_note("报名费 × 15", d) == "Entry fee × 15"
    assert english_note("团体赛报名费：减至 2", d) == "Team entry fee: reduced to 2"
    assert english_note("银行到账 2015-07-05 南开区少儿棋校", d) == "Bank credit 2015-07-05 南开区少儿棋校"
    assert "：" not in english_note("人员变更手续费：钱新", d)
