"""Screenshots of the demo's pages for docs/screenshots/ (1366 and 390 px), taken in
Debian's Chromium through Playwright. Start the demo first (`make run`, with the
PORTAL_CLOCK the set needs), then: python scripts/screenshots.py SET [BASE_URL].

Sets: names (PORTAL_CLOCK=2019-08-20T10:00:00+08:00), changes (2015-07-10T10:00:00+08:00),
closed (2019-09-20T10:00:00+08:00)."""
from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
PASSWORDS = {"zhejiang": "leader-demo-2026", "jiangsu": "leader-demo-2026", "nankai": "leader-demo-2026",
             "caiwu": "accountant-demo-2026", "zuweihui": "organiser-demo-2026"}
CMB = """招商银行交易流水
户名：南开区少儿棋校 账号：6214 8300 1234 5678
交易日期,交易时间,交易金额,联机余额,交易摘要,对手信息,客户摘要
20150709,10:22:11,600.00,51200.00,转账汇入,李家长 6214830011112222,报名费
20150709,11:00:00,-300.00,50900.00,转账汇出,某某印刷厂 6214830099998888,印刷费
"""


def login(page, base, username):
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORDS[username])
    page.click("#login")
    page.wait_for_load_state("networkidle")


def shot(page, name, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.screenshot(path=str(OUT / name), full_page=True)


def delegation_url(page, base, username):
    login(page, base, username)
    return page.url.split("?")[0].rstrip("/")


def names_set(browser, base):
    """Two leaders of Zhejiang change the same person at once: both versions side by side."""
    a, b = browser.new_context(), browser.new_context()
    pa, pb = a.new_page(), b.new_page()
    home = delegation_url(pa, base, "zhejiang")
    delegation_url(pb, base, "zhejiang")
    pa.goto(f"{home}/people")
    person = pa.locator("a[href*='/people/p']").first.get_attribute("href")
    pa.goto(f"{base}{person}")
    pb.goto(f"{base}{person}")
    pa.fill("input[name=name]", "陈明远")
    pa.click("form[novalidate] button[type=submit]")
    pb.fill("input[name=name]", "陈明达")
    pb.click("form[novalidate] button[type=submit]")
    pb.wait_for_selector("#conflict")
    shot(pb, "conflict.png", 1366)
    shot(pb, "conflict-phone.png", 390)


def changes_set(browser, base):
    """youth-gomoku-2015 after the names deadline: a substitute comes with his documents;
    the accountant imports a CMB export and the money overview on a phone."""
    page = browser.new_context().new_page()
    home = delegation_url(page, base, "nankai")
    page.goto(f"{home}/substitutions")
    shot(page, "substitution-documents.png", 1366)
    acc = browser.new_context().new_page()
    login(acc, base, "caiwu")
    acc.goto(f"{base}/money/import")
    acc.select_option("select[name=games]", "youth-gomoku-2015")
    path = OUT.parent / "cmb-sample.csv"
    path.write_text(CMB, encoding="utf-8")
    try:
        acc.set_input_files("input[name=file]", str(path))
        acc.click("#import-statement")
        acc.wait_for_load_state("networkidle")
    finally:
        path.unlink()
    shot(acc, "bank-import-layout.png", 1366)
    acc.goto(f"{base}/money/?games=youth-gomoku-2015")
    shot(acc, "money-phone.png", 390)


def closed_set(browser, base):
    """A unit that declared nothing, after the names deadline: the dashboard says so and
    offers to ask the organisers for more time."""
    page = browser.new_context().new_page()
    delegation_url(page, base, "jiangsu")
    shot(page, "dashboard-closed-stage.png", 1366)
    shot(page, "dashboard-closed-stage-phone.png", 390)


if __name__ == "__main__":
    which, base = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:5000")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        {"names": names_set, "changes": changes_set, "closed": closed_set}[which](browser, base)
        browser.close()
