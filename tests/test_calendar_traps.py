"""Dates and deadlines that contradict each other: each valid alone, so every screen reads
right, yet nobody can enter in time (a copied Games with last year's deadlines, a year typed
wrong). The set-up page names each one; the four regulations' own fixtures have none."""
import datetime as dt
from pathlib import Path

import pytest
import yaml
from builders import account, logged_in
from test_setup_screens import _get, _post

from portal.rules import GamesDefinition
from portal.rules.calendar_traps import calendar_traps

CHINA = dt.timezone(dt.timedelta(hours=8))
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"


def _fixture(slug: str) -> dict:
    return yaml.safe_load((FIXTURES / f"{slug}.yaml").read_text(encoding="utf-8"))


def _gomoku(**stages) -> GamesDefinition:
    data = _fixture("youth-gomoku-2015")
    data["stages"] = {**data["stages"], **stages}
    return GamesDefinition.model_validate(data)


@pytest.mark.parametrize("slug", ["nmsg-2009", "nmsg-2019", "shaanxi-mind-2025", "youth-gomoku-2015"])
def test_the_four_regulations_have_no_contradiction(slug):
    assert calendar_traps(GamesDefinition.model_validate(_fixture(slug))) == []


def test_names_closing_after_play_begins_a_year_typed_wrong():
    """youth-gomoku-2015 plays from 15 July 2015; names typed to close on 8 July 2016."""
    [(zh, en)] = calendar_traps(_gomoku(names_closes="2016-07-09T00:00:00+08:00",
                                        substitutions_closes=None, changes_close=None))
    assert zh == "报名（姓名）截止（2016年7月8日 24:00（北京时间））晚于比赛开始（2015年7月15日）。"
    assert en.startswith("The names close (2016-07-08 24:00 (Beijing time)) after play begins (2015-07-15)")


def test_deadlines_out_of_their_order_and_entries_opening_too_late():
    found = calendar_traps(_gomoku(declaration_closes="2015-07-05T00:00:00+08:00",
                                   names_closes="2015-07-01T00:00:00+08:00",
                                   entries_open="2015-07-02T09:00:00+08:00"))
    zh = [x[0] for x in found]
    assert "报项截止（2015年7月4日 24:00（北京时间））晚于报名（姓名）截止（2015年6月30日 24:00（北京时间））。" in zh
    assert any(z.startswith("报名开始（2015年7月2日 09:00（北京时间））不早于报名（姓名）截止") and "没有人来得及报名" in z
               for z in zh), zh
    assert len(found) == 2


def test_changes_taken_after_the_last_round_and_arrival_after_the_first():
    data = _fixture("youth-gomoku-2015")
    data["stages"]["changes_close"] = "2015-08-01T00:00:00+08:00"
    data["dates"]["report"] = "2015-07-16"
    found = [x[0] for x in calendar_traps(GamesDefinition.model_validate(data))]
    assert any(z.startswith("一切变更截止（2015年7月31日 24:00（北京时间））晚于比赛结束") for z in found), found
    assert "报到日期（2015年7月16日）晚于比赛开始（2015年7月15日）。" in found


def test_entry_deadlines_already_past_are_told_only_when_an_instant_is_given():
    definition = _gomoku()
    assert calendar_traps(definition) == []
    [(zh, en)] = calendar_traps(definition, dt.datetime(2016, 1, 1, tzinfo=CHINA))
    assert "已经过去：现在没有人能报名" in zh and "last edition's dates" in en
    assert calendar_traps(definition, dt.datetime(2015, 7, 1, tzinfo=CHINA)) == []


def test_the_set_up_page_shows_them_in_the_stages_and_says_so_at_the_top(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    # A copy moved one year on: its deadlines are its own, but the portal's clock is years later.
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2016", "name_zh": "2016年五子棋锦标赛",
                                                "name_en": "2016 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "1"}).status_code == 302
    setup = "/org/games/gomoku-2016/setup"
    page = _get(app, admin, setup).get_data(as_text=True)
    assert 'id="calendar-note"' in page and "设置中有 1 处需要核对" in page and 'href="#calendar-traps"' in page
    stages = page.split('id="stages"', 1)[1]
    assert stages.index('id="calendar-traps"') < stages.index("<form")  # above the deadlines it concerns
    assert "报名（姓名）截止（2016年7月8日 24:00（北京时间））已经过去" in stages
    # Names typed to close after play begins: saved (a regulation may be odd), and named.
    r = _post(app, admin, setup + "/stages", {"names_closes_day": "2016-07-20", "names_closes_hour": "24:00",
                                              "substitutions_closes_day": "2016-07-12", "substitutions_closes_hour": "24:00",
                                              "changes_close_day": "2016-07-12", "changes_close_hour": "24:00"},
              page=setup)
    assert r.status_code == 302
    page = _get(app, admin, setup).get_data(as_text=True)
    assert "报名（姓名）截止（2016年7月20日 24:00（北京时间））晚于比赛开始（2016年7月15日）。" in page
    assert "报名（姓名）截止（2016年7月20日 24:00（北京时间））晚于更换人员截止" in page
    with admin.session_transaction() as session:
        session["lang"] = "en"
    english = _get(app, admin, setup).get_data(as_text=True)
    assert "things to check in these settings" in english and "The names close (2016-07-20 24:00 (Beijing time)) after play begins" \
        in english and "报名（姓名）截止（" not in english


def test_a_fixture_loaded_from_the_command_line_is_loaded_with_its_contradictions_named(cli, db, tmp_path):
    data = _fixture("youth-gomoku-2015")
    data["slug"], data["stages"]["names_closes"] = "gomoku-typo", "2016-07-09T00:00:00+08:00"
    path = tmp_path / "gomoku-typo.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = cli.invoke(args=["games", "load", str(path)])
    assert result.exit_code == 0, result.output
    assert "loaded gomoku-typo" in result.output
    assert "warning: gomoku-typo: 报名（姓名）截止（2016年7月8日 24:00（北京时间））晚于比赛开始（2015年7月15日）。" in result.output
    clean = cli.invoke(args=["games", "load", "youth-gomoku-2015"])
    assert clean.exit_code == 0 and "warning" not in clean.output
