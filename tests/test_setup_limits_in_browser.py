"""This turn's set-up screens in Chromium, in their fullest state: the set-up page of a copied
Games whose dates contradict each other and whose rule bars earlier placers of a series
without results, the form of that rule, the quota form with a unit's total and qualified
players not counted, and the fee form by event, each at 1366 and 390 px, with axe finding
no serious problem and nothing wider than the screen."""
from pathlib import Path

import pytest
from builders import account
from test_accessibility import _violations
from test_browser import CHROMIUM, browser, login, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
PASSWORD = "quiet-river-stone-42"


def _looked_at(page, url, tmp_path, name):
    problems = {}
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        page.screenshot(path=str(tmp_path / f"{name}-{width}.png"), full_page=True)
        found = _violations(page)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if found or overflow > 1:
            problems[width] = (found, overflow)
    return problems


def test_the_new_limits_and_the_calendar_note_read_well_at_both_widths(server, browser, app, db, tmp_path):  # noqa: F811
    account("limits-setup", "admin", password=PASSWORD, name="竞赛部")
    db.session.commit()
    page = browser.new_page(viewport={"width": 1366, "height": 900}, bypass_csp=True)
    login(page, server, "limits-setup", PASSWORD)
    page.goto(server + "/org/games/new")
    page.fill("[name=slug]", "gomoku-2016-limits")
    page.fill("[name=name_zh]", "2016年全国少年儿童五子棋锦标赛")
    page.fill("[name=name_en]", "2016 National Youth Gomoku Championships")
    page.select_option("[name=copy_of]", "youth-gomoku-2015")
    page.fill("[name=years_later]", "1")
    page.click("button:has-text('创建草稿')")
    page.wait_for_url("**/org/games/gomoku-2016-limits/setup")
    setup = server + "/org/games/gomoku-2016-limits/setup"
    # Names typed to close after play begins: saved, and named above the publish button.
    page.fill("[name=names_closes_day]", "2016-07-20")
    page.click("form[action$='/setup/stages'] button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#calendar-note").is_visible()
    assert "晚于比赛开始" in page.locator("#calendar-traps").inner_text()
    # Earlier placers barred by a series the portal has no results of: named beside the rules.
    problems = {"placed_before form": _looked_at(page, setup + "/rules/new?kind=placed_before", tmp_path, "placed-before")}
    page.fill("[name=p_top]", "3")
    page.check("[name=p_events][value='gomoku.MJA']")
    page.fill("[name=p_series]", "youth-gomoku")
    page.fill("[name=p_name_zh]", "历届本赛事前三名获得者")
    page.fill("[name=p_name_en]", "earlier editions' first three")
    page.click("button[name=op][value=save]")
    page.wait_for_url("**/org/games/gomoku-2016-limits/setup**")
    page.goto(setup)
    assert "拦不住任何人" in page.locator("#history-traps").inner_text()
    problems["setup"] = _looked_at(page, setup, tmp_path, "setup")
    # The quota form: a unit's total, last year's first eight not counted.
    page.goto(setup + "/rules/new?kind=quota")
    page.select_option("[name=p_per]", "unit")
    page.fill("[name=p_max]", "12")
    page.check("[name=p_qualified_exempt]")
    page.fill("[name=p_qualified_name_zh]", "上届个人赛前8名")
    page.fill("[name=p_qualified_name_en]", "last year's first eight")
    page.fill("[name=p_clause]", "四(一)")
    page.click("button[name=op][value=save]")
    page.wait_for_load_state()
    page.goto(server + "/org/games/gomoku-2016-limits/regulation")
    assert "每单位限报运动员 12 人（各项目合计）；上届个人赛前8名晋级的选手不占名额" in page.inner_text("body")
    problems["quota form"] = _looked_at(page, setup + "/rules/new?kind=quota", tmp_path, "quota")
    problems["fee form"] = _looked_at(page, setup + "/list/fees/new", tmp_path, "fee")
    page.close()
    assert {k: v for k, v in problems.items() if v} == {}
