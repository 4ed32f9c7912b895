"""The pages of the player across Games in their fullest state pass axe-core at desktop and
phone width, with nothing scrolling sideways (issue 36): the leader's dashboard with a
unit document due, his person page with career fields and what the register holds, the
organiser's review with a joint team waiting, the register with qualifiers, a player's
whole career, results with games won, the set-up proposals and the deposits to settle."""
import datetime as dt
from pathlib import Path

import pytest
import yaml
from builders import account, person
from test_accessibility import _violations
from test_browser import CHROMIUM, browser, login, server  # noqa: F401  (fixtures)

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 5, 1, 10, tzinfo=CHINA)
PASSWORD = "yellow-mountain-pine-19"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


@pytest.fixture
def career(app, db, tmp_path):
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.games.services import load_games
    from portal.register.services import qualify, record_grade
    from portal.results.entrants import players
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document, new_delegation, save
    data = {"slug": "career-2026", "series": "career", "edition": 1,
            "name": {"zh": "2026年象棋公开赛", "en": "2026 Xiangqi Open"},
            "dates": {"start": "2026-07-01", "end": "2026-07-05"}, "participation": {"unit_kinds": ["province"]},
            "sports": [{"code": "xiangqi", "name": {"zh": "象棋", "en": "Xiangqi"}}],
            "events": [{"code": "xiangqi.MI", "sport": "xiangqi", "gender": "X", "kind": "individual",
                        "name": {"zh": "个人", "en": "Individual"}}],
            "competition": [{"kind": "rounds", "count": 7}],
            "document_kinds": [{"code": "sealed_entry_form", "name": {"zh": "加盖公章的报名表", "en": "sealed entry form"}}],
            "rules": [{"kind": "grade", "events": ["xiangqi.MI"], "system": "cxa", "below": "象棋特级大师", "clause": "四(二)"},
                      {"kind": "qualified", "events": ["xiangqi.MI"], "clause": "四(三)",
                       "name": {"zh": "2026年预选赛", "en": "the 2026 qualifier"}},
                      {"kind": "documents", "who": "delegation", "documents": ["sealed_entry_form"], "clause": "六(二)",
                       "due": "checkin"},
                      {"kind": "joint_team", "clause": "四(四)", "max_institutions": 2}],
            "awards": [{"kind": "promotion_by_record", "system": "cxa", "min_wins": 5, "clause": "八"}],
            "money": {"fees": [{"code": "deposit", "name": {"zh": "保证金", "en": "Deposit"}, "amount": "100.00",
                                "per": "entrant", "refundable": "after_event", "forfeited_on": ["unfinished", "misconduct"]}]}}
    path = tmp_path / "career-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    games = load_games(str(path))
    people = [person("p1", name="林峰", grades=[{"system": "cxa", "grade": "象棋大师", "awarded_on": "2024-05-01"}]),
              person("p2", name="陈晨"), person("p3", name="王越")]

    def document(unit, people):
        return {"format": "delegation/1", "games": "career-2026", "unit": unit, "declarations": [], "people": people,
                "entries": [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}],
                "officials": [], "staff": [], "companions": []}
    for p in people:
        assert qualify(Actor("组委会"), p["id_number"], p["name"], "career-2026", "career-2026", "career", "预选赛前八名",
                       "zhejiang").ok
    db.session.commit()
    out = import_document(games, document("zhejiang", people), AT, Actor("t"))
    assert out.ok, out.violations
    d = out.delegation
    # 江苏's delegation with a player of 上海 waiting for the organisers to admit a joint team
    joint = [person("j1", name="周强", unit="jiangsu", area="320102"),
             person("j2", name="吴迪", year=2026, unit="shanghai", area="310101")]
    save(new_delegation(games, "jiangsu"), document("jiangsu", joint), Actor("t"), AT)
    assert record_grade(Actor("组委会"), people[1]["id_number"], "陈晨", "cxa", "象棋大师", dt.date(2025, 8, 1),
                        "2025年全国象棋锦标赛 第3名", awarded_by="中国象棋协会", unit="zhejiang").ok
    assert approve(d, Actor("组委会"), AT).ok
    db.session.commit()
    d.joint_id = db.session.scalar(select(Delegation.id).where(Delegation.unit_code == "jiangsu",
                                                               Delegation.games_id == games.id))
    listed, _left = players(games, "xiangqi.MI")
    lines = [Line(i, key=p.key, place=i, name=p.name) for i, p in enumerate(listed, start=1)]
    for line, wins in zip(lines, ("6", "4", "3"), strict=False):
        line.tie_breaks["wins"] = wins
    assert enter_results(games, "xiangqi.MI", lines, Actor("裁判长")).ok
    account("cr-l", "leader", delegation=d, password=PASSWORD, name="浙江领队")
    account("cr-o", "organiser", password=PASSWORD, name="组委会", games=["career-2026"])
    account("cr-a", "accountant", password=PASSWORD, name="财务", games=["career-2026"])
    db.session.commit()
    return d


PAGES = {
    "cr-l": ["/d/{d}", "/d/{d}/people/p1"],
    "cr-o": ["/org/d/{j}", "/org/games/career-2026/register", "/org/games/career-2026/register/people/{d}/p2",
             "/org/games/career-2026/results/xiangqi.MI", "/org/games/career-2026/setup/proposals",
             "/org/games/career-2026/setup/rules/new?kind=joint_team"],
    "cr-a": ["/money/?games=career-2026"],
}
SEEN = {"/d/{d}": "加盖公章的报名表", "/d/{d}/people/p1": "棋手档案中的记录", "/org/d/{j}": "批准与上海市组成联队",
        "/org/games/career-2026/register": "本届晋级名单", "/org/games/career-2026/register/people/{d}/p2": "2025年全国象棋锦标赛",
        "/org/games/career-2026/results/xiangqi.MI": "胜局", "/money/?games=career-2026": "结算保证金"}


@pytest.mark.parametrize("width", [1366, 390])
def test_the_career_pages_at_their_fullest_are_accessible(server, browser, career, app, monkeypatch, width, tmp_path):  # noqa: F811
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2026, 7, 6, 10, tzinfo=CHINA))  # the Games are over
    found = {}
    for user, urls in PAGES.items():
        page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
        login(page, server, user, PASSWORD)
        for url in urls:
            response = page.goto(server + url.format(d=career.id, j=career.joint_id))
            text = page.inner_text("main")
            problems = [] if response.status == 200 else [f"status {response.status}"]
            if url in SEEN and SEEN[url] not in text:
                problems.append(f"not in its fullest state: {SEEN[url]!r} missing")
            problems += _violations(page)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 1:
                problems.append(f"page scrolls sideways by {overflow}px at {width}px")
            page.screenshot(path=str(tmp_path / f"{user}-{width}-{url.strip('/').replace('/', '_')}.png"), full_page=True)
            if problems:
                found[url] = problems
        page.close()
    assert found == {}, "\n".join(f"{u}: {p}" for u, p in found.items())
