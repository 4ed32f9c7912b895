"""An event played only with enough entrants (报名不足6人（队）的项目不设比赛; 报名单位不足4个的项目
取消): read back to the leaders, proposed from the text, never a delegation's violation, and
counted over the submitted entries on the organisers' overview."""
import datetime as dt

from builders import account, logged_in, person
from conftest import codes
from test_browser import browser, server  # noqa: F401  (fixtures)
from test_rule_kinds import d, games, judge, players

from portal.rules.proposals import propose
from portal.rules.readback import read_back

AT = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
RULE = {"kind": "event_minimum", "events": ["xiangqi.MI"], "min": 3, "clause": "五(四)",
        "says": {"zh": "与女子个人合并", "en": "is merged with the women's"}}


def test_read_back_proposed_and_never_a_delegations_violation():
    g = games([RULE, {"kind": "event_minimum", "events": ["bridge.MT"], "min": 4, "count": "units"}])
    lines = [x.zh for x in read_back(g) if x.section == "rules"]
    assert "象棋男子个人：报名不足 3 人（队）的项目与女子个人合并" in lines
    assert "桥牌男子团体：报名单位不足 4 个的项目不设比赛" in lines
    assert codes(judge(g, d(players(1), [{"event": "xiangqi.MI", "people": ["p1"]}]))) == []
    [p] = [p for p in propose("（四）报名不足6人（队）的项目不设比赛。") if p.kind == "event_minimum"]
    assert p.values == {"min": 6, "count": "entrants"}
    [p] = [p for p in propose("报名单位不足4个的项目取消。") if p.kind == "event_minimum"]
    assert p.values == {"min": 4, "count": "units"}
    assert not [p for p in propose("参赛人数不足录取名次时，减一录取。") if p.kind == "event_minimum"]


def test_the_overview_counts_the_submitted_entries_against_it(app, db, tmp_path):
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.workflow.services import import_document, new_delegation, save
    g = _games(tmp_path, "few-2026", "few", rules=[RULE])
    db.session.commit()
    for unit, area, born in (("zhejiang", "330102", "1990-01-01"), ("jiangsu", "320102", "1991-01-01")):
        out = import_document(g, _doc("few-2026", [person(f"{unit}1", "M", born, area=area)], unit=unit), AT, Actor("t"))
        assert out.ok, out.violations
    draft = new_delegation(g, "shanghai")  # a draft is not an entry yet
    assert save(draft, _doc("few-2026", [person("s1", "M", "1992-01-01", area="310101")], unit="shanghai"), Actor("t"), AT).ok
    account("few-org", "organiser", games=["few-2026"])
    db.session.commit()
    client = logged_in(app, "few-org")
    page = client.get("/org/games/few-2026").get_data(as_text=True)
    short = page[page.index('id="events-short"'):page.index('id="per-event"')]
    assert "这些项目已提交的报名不足规程规定的开赛人数" in short
    assert "象棋个人：2 人（队），规程规定至少 3，与女子个人合并" in short and "规程 五(四)" in short
    assert '<span class="badge err">2 / 3</span>' in page and "<details class=\"card\" id=\"per-event\" open>" in page
    third = import_document(g, _doc("few-2026", [person("a1", "M", "1993-01-01", area="110101")], unit="beijing"), AT,
                            Actor("t"))
    assert third.ok, third.violations
    db.session.commit()
    page = client.get("/org/games/few-2026").get_data(as_text=True)
    assert 'id="events-short"' not in page and '<span class="badge ok">3 / 3</span>' in page


def test_the_overview_with_an_event_short_reads_well_at_both_widths(server, browser, app, db, tmp_path):  # noqa: F811
    from test_accessibility import _violations
    from test_browser import login
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.workflow.services import import_document
    g = _games(tmp_path, "few-2026", "few", rules=[RULE, {**RULE, "events": ["xiangqi.MI"], "min": 2, "count": "units",
                                                         "says": None, "clause": "五(五)"}])
    db.session.commit()
    out = import_document(g, _doc("few-2026", [person("z1", "M", "1990-01-01")]), AT, Actor("t"))
    assert out.ok, out.violations
    account("few-org", "organiser", games=["few-2026"], password="quiet-river-stone-42")
    db.session.commit()
    page = browser.new_page(viewport={"width": 1366, "height": 900}, bypass_csp=True)
    login(page, server, "few-org", "quiet-river-stone-42")
    problems = {}
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(server + "/org/games/few-2026")
        assert "与女子个人合并" in page.locator("#events-short").inner_text()
        page.screenshot(path=str(tmp_path / f"overview-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        found = _violations(page)
        if found or overflow > 1:
            problems[width] = (found, overflow)
    page.close()
    assert problems == {}
