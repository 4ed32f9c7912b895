"""Every main page of every role passes axe-core (run in Debian's Chromium) with no serious
or critical violation, at desktop and phone width (issue 10)."""
import datetime as dt
from pathlib import Path

import pytest
from builders import account
from test_browser import CHROMIUM, browser, login, server  # noqa: F401  (fixtures)

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
CHINA = dt.timezone(dt.timedelta(hours=8))
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def _violations(page):
    page.add_script_tag(content=AXE)
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
    }""")
    return result


@pytest.fixture
def people(app, db):
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    # A team with a wrong board order too: the entries page in its fullest state (teams,
    # boards, reserves, problems).
    team = [person(f"t{i}", year=2019, unit="hainan", name=f"队员{i}") for i in range(1, 5)]
    d = save(new_delegation(find_games("nmsg-2019"), "hainan"),
             doc("nmsg-2019", unit="hainan", people=[person("p1", year=2019, unit="hainan", name="林峰")] + team,
                 entries=[individual("chess.MI", "p1"),
                          {"event": "chess.MTR", "team": "A", "lineup": [
                              {"person": "t1", "board": 1}, {"person": "t2", "board": 1}, {"person": "t3", "board": 3},
                              {"person": "t4", "reserve": True}]}]),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    db.session.commit()
    # An approved delegation with results entered: the results pages in their fullest state.
    from portal.results.entrants import players
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    out = import_document(find_games("nmsg-2019"), doc(
        "nmsg-2019", unit="guangdong", people=[person("p1", year=2019, unit="guangdong", name="黄一"),
                                               person("p2", year=2019, unit="guangdong", name="黄二")],
        entries=[individual("chess.MI", "p1", "p2")]), dt.datetime(2019, 5, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    assert approve(out.delegation, Actor("t"), dt.datetime(2019, 8, 2, tzinfo=CHINA)).ok
    db.session.commit()
    # Its leader's dashboard with steps done and a payment: the steps' done state and the
    # statement link in their fullest state (issue 39, 10).
    from decimal import Decimal

    from portal.money.services import post
    post(out.delegation, "payment", Decimal("48350.00"), "报名费", Actor("t"), value_date=dt.date(2019, 8, 3))
    account("a11y-g", "leader", delegation=out.delegation, password="yellow-mountain-pine-19", name="广东领队")
    db.session.commit()
    listed, _left = players(find_games("nmsg-2019"), "chess.MI")
    assert enter_results(find_games("nmsg-2019"), "chess.MI",
                         [Line(i, key=p.key, place=i, name=p.name) for i, p in enumerate(listed, start=1)], Actor("t")).ok
    # The player register with a title earned and a rating held: its page in its fullest state.
    from portal.register.services import record_grade
    champion = next(p for p in out.delegation.people if p.name == "黄一")
    assert record_grade(Actor("t"), champion.id_number, "黄一", "cca", "国家大师", dt.date(2019, 8, 20),
                        "2019年全国智力运动会 国际象棋男子个人 第1名", awarded_by="中国国际象棋协会").ok
    db.session.commit()
    leader = account("a11y-l", "leader", delegation=d, password="yellow-mountain-pine-19", name="领队")
    organiser = account("a11y-o", "organiser", password="yellow-mountain-pine-19", name="组委会")
    account("a11y-a", "accountant", password="yellow-mountain-pine-19", name="财务")
    account("a11y-adm", "admin", password="yellow-mountain-pine-19", name="管理员")
    from portal.notify.models import OutboxMessage
    db.session.add_all([OutboxMessage(kind="approved", to_address="lingdui@example.cn", to_name="林领队", subject="报名已批准：浙江省",
                                      body="…", status=status, attempts=n, last_error=error, delegation_id=d.id,
                                      games_id=d.games_id)
                        for status, n, error in (("sent", 1, None), ("failed", 6, "ConnectionRefusedError: [Errno 111]"),
                                                 ("pending", 0, None))])
    db.session.commit()
    # Tokens and a webhook: their pages listed, not empty.
    from portal.accounts.api_tokens import create_token
    from portal.notify.services import add_webhook
    for user in (leader, organiser):
        assert create_token(user, "省体育局报名系统", "write", 30, Actor("t")).ok
        assert create_token(user, "成绩公告屏", "read", 7, Actor("t")).ok
    add_webhook(find_games("nmsg-2019").id, "nmsg-2019", "https://results.example.cn/hooks/portal", Actor("t"))
    from portal.games.models import GamesVersion
    games = find_games("nmsg-2019")
    db.session.add(GamesVersion(games_id=games.id, number=1, definition=games.definition, created_by="组委会"))
    db.session.commit()
    return d


PAGES = {
    "a11y-l": ["/d/{d}", "/d/{d}/declarations", "/d/{d}/people", "/d/{d}/entries", "/d/{d}/roles",
               "/d/{d}/people/p1", "/d/{d}/upload", "/d/{d}/substitutions", "/d/{d}/statement", "/d/{d}/regulation",
               "/account/notifications", "/account/tokens"],
    "a11y-o": ["/org/", "/org/games/nmsg-2019", "/org/queue", "/org/d/{d}", "/org/audit", "/org/accounts",
               "/org/accounts/bulk", "/org/games/nmsg-2019/results", "/org/games/nmsg-2019/draw",
               "/org/games/nmsg-2019/cards", "/org/scan", "/org/scan?code=hainan", "/org/games/nmsg-2019/checkin",
               "/org/games/youth-gomoku-2015/meeting", "/org/games/nmsg-2019/results/chess.MI",
               "/org/games/nmsg-2019/draw?event=chess.MI", "/org/units", "/org/games/nmsg-2019/regulation",
               "/org/games/nmsg-2019/setup", "/org/games/nmsg-2019/setup/rules/10",
               "/org/games/nmsg-2019/setup/rules/new?kind=officials", "/org/games/nmsg-2019/try", "/org/outbox",
               "/org/games/nmsg-2019/webhooks", "/account/tokens", "/org/games/nmsg-2019/setup/list/fees/0",
               "/org/games/nmsg-2019/setup/list/awards/0", "/org/games/nmsg-2019/setup/settings/meeting",
               "/org/games/nmsg-2019/versions/1", "/org/queue", "/org/games/nmsg-2019/register",
               "/org/games/nmsg-2019/setup/rules/new?kind=grade"],
    "a11y-adm": ["/org/staff", "/org/games/new"],
    "a11y-a": ["/money/?games=nmsg-2019", "/money/lines?games=nmsg-2019", "/money/import"],
    "a11y-g": ["/"],  # the approved, paid delegation's dashboard
}


@pytest.mark.parametrize("width", [1366, 390])
def test_no_serious_accessibility_violations(server, browser, people, width, tmp_path):  # noqa: F811
    """And at phone width nothing makes the page itself scroll sideways (wide tables scroll
    inside their card); a screenshot of each page is kept in the test's folder."""
    found = {}
    for user, urls in PAGES.items():
        page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
        login(page, server, user, "yellow-mountain-pine-19")
        for url in urls:
            page.goto(server + url.format(d=people.id))
            problems = _violations(page)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 1:
                widest = page.evaluate("""() => [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                                 && !e.closest('.table-wrap'))
                    .slice(0, 3).map(e => e.tagName + '.' + e.className).join(', ')""")
                problems.append(f"page scrolls sideways by {overflow}px at {width}px ({widest})")
            page.screenshot(path=str(tmp_path / f"{user}-{width}-{url.strip('/').replace('/', '_') or 'home'}.png"))
            if problems:
                found[url] = problems
        page.close()
    assert found == {}, "\n".join(f"{u}: {p}" for u, p in found.items())


@pytest.mark.parametrize("width", [1366, 390])
def test_a_conflict_between_two_leaders_is_accessible(server, browser, people, width):  # noqa: F811
    """The page a co-leader meets when someone saved the same person first: both versions
    side by side, the form still filled, at desktop and phone width."""
    pages = []
    for _ in range(2):
        page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
        login(page, server, "a11y-l", "yellow-mountain-pine-19")
        page.goto(f"{server}/d/{people.id}/people/p1")
        pages.append(page)
    first, second = pages
    first.fill("input[name=name]", "林峰一")
    first.click("form[novalidate] button[type=submit]")
    # The first save stood: answered with the list, his row marked, the problems beside it.
    first.wait_for_selector("tr.just-saved")
    saved_problems = _violations(first)
    second.fill("input[name=name]", "林峰二")
    second.click("form[novalidate] button[type=submit]")
    second.wait_for_selector("#conflict")
    assert "林峰一" in second.inner_text("#conflict") and second.input_value("input[name=name]") == "林峰二"
    problems = _violations(second)
    overflow = second.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    for page in pages:
        page.close()
    assert problems == [] and overflow <= 1, (problems, overflow)
    assert saved_problems == [], saved_problems


@pytest.mark.parametrize("width", [1366, 390])
def test_an_amendment_previewed_is_accessible(server, browser, people, width):  # noqa: F811
    """The set-up page at its fullest: an amendment of a published Games previewed, with the
    rules it changes and the delegations it affects, before it is confirmed."""
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    login(page, server, "a11y-o", "yellow-mountain-pine-19")
    page.goto(f"{server}/org/games/nmsg-2019/setup/rules/4")  # at most 3 women in the individual event
    page.fill("input[name=p_max]", "1")
    page.click("button[name=op][value=save]")
    page.wait_for_selector("#preview")
    text = page.inner_text("#preview")
    problems = _violations(page)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    page.close()
    assert "限报 1 人" in text and "限报 3 人" in text
    assert problems == [] and overflow <= 1, (problems, overflow)


def _fill_registration(page, base: str, entrant: dict) -> None:
    """shaanxi-mind-2025's registration form typed in as `entrant` has it, and sent."""
    page.goto(base + "/register/shaanxi-mind-2025")
    for name, value in entrant.items():
        if name in ("id_type", "gender", "event"):
            page.select_option(f"#{name}", value)
        else:
            page.fill(f"#{name}", value)
    page.click("#register")


@pytest.mark.parametrize("width", [1366, 390])
def test_the_answer_to_a_registration_is_accessible(server, browser, app, db, width, monkeypatch, tmp_path):  # noqa: F811
    """The arrival page at its fullest: wait-listed, with tickets ahead still being made into
    accounts; then the same ticket refused afterwards, with its reason."""
    from test_arrivals import OPENS, form

    from portal.accounts.arrivals import finish
    from portal.accounts.models import User
    from portal.games.models import Games
    monkeypatch.setitem(app.config, "FIXED_NOW", OPENS)
    handed = []
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", handed.append)
    games = db.session.query(Games).filter_by(slug="shaanxi-mind-2025").one()
    games.definition = {**games.definition, "capacity": 2}  # the conftest puts the fixture back
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    for i in range(4):  # three ahead, all still waiting for the worker
        _fill_registration(page, server, form(i))
        page.wait_for_selector("#arrival")
    assert "候补名单第 2 位" in page.inner_text("main") and "前面还有 3 份报名" in page.inner_text("main")
    # A reload asks, not registers again: the page's script makes its address the arrival
    # page's (waited for: on a busy machine the script runs after the page is shown).
    page.wait_for_url("**/register/shaanxi-mind-2025/arrival", timeout=5000)
    problems = {"waiting": _violations(page)}
    page.screenshot(path=str(tmp_path / f"arrival-waiting-{width}.png"), full_page=True)
    db.session.add(User(username=form(3)["username"], display_name="别人", role="leader"))
    db.session.commit()
    finish(handed[-1])
    page.goto(server + "/register/shaanxi-mind-2025/arrival")
    assert "报名未能完成" in page.inner_text("main")
    problems["refused"] = _violations(page)
    page.screenshot(path=str(tmp_path / f"arrival-refused-{width}.png"), full_page=True)
    page.close()
    assert problems == {"waiting": [], "refused": []}, problems


@pytest.mark.parametrize("width", [1366, 390])
def test_a_refused_registration_is_accessible(server, browser, app, db, width, monkeypatch, tmp_path):  # noqa: F811
    """The registration form at its fullest: the grade a rule reads asked, and refused on
    its field with the clause; a check digit and a password mismatch on theirs."""
    from test_arrivals import OPENS, form

    from portal.games.models import Games
    monkeypatch.setitem(app.config, "FIXED_NOW", OPENS)
    games = db.session.query(Games).filter_by(slug="shaanxi-mind-2025").one()
    games.definition = {**games.definition,  # the conftest puts the fixture back
                        "grade_systems": [{"code": "gomoku", "name": {"zh": "五子棋段级位", "en": "gomoku grades"},
                                           "ladder": ["3级", "2级", "1级", "1段", "2段", "3段"]}],
                        "rules": games.definition["rules"] + [{"kind": "grade", "clause": "四(三)", "events": ["gomoku.OPEN"],
                                                               "system": "gomoku", "lowest": "1段"}]}
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    entrant = form(1, grade="2级", grade_awarded_on="2024-05-01", confirm="amber-river-xx-stone")
    entrant["id_number"] = entrant["id_number"][:-1] + ("0" if entrant["id_number"][-1] != "0" else "1")
    _fill_registration(page, server, entrant)
    page.wait_for_selector(".err")
    text = page.inner_text("main")
    assert "四(三)" in text and "两次输入的密码不一致" in text and "校验位" in text, text
    assert page.inner_text("#id-note") == ""  # the server's message on the number, not said twice
    problems = _violations(page)
    page.screenshot(path=str(tmp_path / f"register-refused-{width}.png"), full_page=True)
    page.close()
    assert problems == [], problems


@pytest.mark.parametrize("width", [1366, 390])
def test_an_entry_that_waits_for_its_documents_is_accessible(server, browser, app, db, width, monkeypatch,  # noqa: F811
                                                              tmp_path):
    """youth-gomoku-2015 wants documents with the entry: the form says so, the arrival page
    too, and the entrant lands on his draft, told what to upload before he submits."""
    from portal.accounts.arrivals import finish
    from portal.rules.idnumber import make
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 1, tzinfo=CHINA))
    handed = []
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", handed.append)
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    page.goto(server + "/register/youth-gomoku-2015")
    assert "本比赛报名时须提交一寸免冠照片" in page.inner_text("#documents-after")
    problems = {"form": _violations(page)}
    born = dt.date(2007, 4, 4)
    for name, value in {"id_number": make("120101", born, 3), "name": "王小明", "username": f"docs{width}",
                        "password": "amber-river-stone-77", "confirm": "amber-river-stone-77"}.items():
        page.fill(f"#{name}", value)
    page.select_option("#event", "gomoku.MCA")
    page.click("#register")
    page.wait_for_selector("#arrival")
    assert "然后提交报名" in page.inner_text("main")
    problems["arrival"] = _violations(page)
    finish(handed[-1])
    page.goto(server + "/register/youth-gomoku-2015/arrival")
    page.wait_for_url("**/d/*")
    assert "账号已建立，报名表已保存" in page.inner_text("main")
    problems["draft"] = _violations(page)
    page.screenshot(path=str(tmp_path / f"documents-draft-{width}.png"), full_page=True)
    page.close()
    assert problems == {"form": [], "arrival": [], "draft": []}, problems


@pytest.mark.parametrize("width", [1366, 390])
def test_a_big_delegations_entries_and_a_restarted_jobs_page_are_accessible(server, browser, app, db, width,  # noqa: F811
                                                                            tmp_path):
    """Issue 41 (5, 7): the entries page of a 1,000-person delegation (events of dozens of
    teams listed one line each, as chips, with 250 warnings) and the page of a job whose
    node was lost and that waits to be started again: no serious violation, no sideways
    scroll at phone width."""
    import datetime as dt

    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.jobs.models import Job
    from portal.workflow.services import import_document
    out = import_document(find_games("nmsg-2009"), delegation_document("zhejiang", 0, 1000, lacking_documents=4),
                          dt.datetime(2009, 8, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    leader = account("big-a11y", "leader", delegation=out.delegation, password="yellow-mountain-pine-19")
    long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=11)
    job = Job(kind="games_workbook", params={"games": "nmsg-2009"}, user_id=leader.id, status="running",
              title="全国智力运动会 整届报名表", started_at=long_ago, heartbeat_at=long_ago)
    db.session.add(job)
    db.session.commit()
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    login(page, server, "big-a11y", "yellow-mountain-pine-19")
    found = {}
    for url in (f"/d/{out.delegation.id}/entries", f"/jobs/{job.id}"):
        page.goto(server + url)
        problems = _violations(page)
        if page.evaluate("document.documentElement.scrollWidth - window.innerWidth") > 1:
            problems.append(f"page scrolls sideways at {width}px")
        page.screenshot(path=str(tmp_path / f"{width}-{url.strip('/').replace('/', '_')}.png"), full_page=url.startswith("/jobs"))
        if problems:
            found[url] = problems
        if url.endswith("/entries"):
            assert page.locator(".team-line .chip").count() > 50  # the teams are there, listed
    assert "排队中" in page.inner_text("#job-state")  # the job page: waiting to start again, not failed
    assert page.locator("#job-download").is_hidden()  # nothing to download yet: no button that leads to a 404
    page.close()
    assert found == {}, found
