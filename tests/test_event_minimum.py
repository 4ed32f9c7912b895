"""An event played only with enough entrants (报名不足6人（队）的项目不设比赛; 报名单位不足4个的项目
取消): read back to the leaders, proposed from the text, never a delegation's violation, and
counted over the submitted entries on the organisers' overview."""
import datetime as dt

from builders import account, csrf_token, logged_in, person
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


def test_the_organisers_tell_the_delegations_entered_in_a_short_event_once_for_a_count(app, db, tmp_path):
    """From the overview's warning, one press tells every submitted delegation entered in
    the event (its leaders' and its contact's addresses), with the count, the minimum, what
    the regulation says becomes of it and its clause: not a draft's, not another event's.
    Pressed again with the same count, nobody is told twice; once the event has its
    entries, there is nothing to tell. A leader may not press it, nor another Games' staff."""
    from sqlalchemy import select
    from test_player_register import _doc, _games

    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.notify.models import OutboxMessage
    from portal.workflow.contact import set_contact_email
    from portal.workflow.services import import_document, new_delegation, save
    g = _games(tmp_path, "few-2026", "few", rules=[RULE])
    db.session.commit()
    entered = {}
    for unit, area, born in (("zhejiang", "330102", "1990-01-01"), ("jiangsu", "320102", "1991-01-01")):
        out = import_document(g, _doc("few-2026", [person(f"{unit}1", "M", born, area=area)], unit=unit), AT, Actor("t"))
        assert out.ok, out.violations
        entered[unit] = out.delegation
    leader = account("zj-leader", "leader", delegation=entered["zhejiang"])
    leader.email = "zj-leader@example.cn"
    assert set_contact_email(entered["jiangsu"], "js-office@example.cn", Actor("t")).ok
    draft = new_delegation(g, "shanghai")
    assert save(draft, _doc("few-2026", [person("s1", "M", "1992-01-01", area="310101")], unit="shanghai"), Actor("t"), AT).ok
    assert set_contact_email(draft, "sh-office@example.cn", Actor("t")).ok
    account("few-org", "organiser", games=["few-2026"])
    account("other-org", "organiser", games=["nmsg-2019"])
    db.session.commit()

    def told():
        db.session.rollback()  # what the requests committed since
        return {(m.to_address, m.subject) for m in db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "event_short"))}

    def ask(client, method, path, **kw):  # each request in its own app context, as a server runs it
        with app.app_context():
            return getattr(client, method)(path, **kw)

    url = "/org/games/few-2026/events/xiangqi.MI/tell-short"
    client = logged_in(app, "few-org")
    page = ask(client, "get", "/org/games/few-2026").get_data(as_text=True)
    token = {"csrf_token": csrf_token(page)}
    for stranger, status in (("zj-leader", 403), ("other-org", 404)):
        other = logged_in(app, stranger)
        mine = csrf_token(ask(other, "get", "/", follow_redirects=True).get_data(as_text=True))
        assert ask(other, "post", url, data={"csrf_token": mine}).status_code == status and told() == set()
    assert ask(client, "post", url).status_code == 400 and told() == set()  # no token
    assert f'action="{url}"' in page[page.index('id="events-short"'):page.index('id="per-event"')]
    r = ask(client, "post", url, data=token, follow_redirects=True)
    assert "已通知象棋个人的 2 个代表团。" in r.get_data(as_text=True)
    assert {a for a, _s in told()} == {"zj-leader@example.cn", "js-office@example.cn"}
    db.session.rollback()
    body = db.session.scalar(select(OutboxMessage.body).where(OutboxMessage.to_address == "js-office@example.cn"))
    assert "象棋个人" in body and "目前已提交的报名为 2 人（队）；按规程五(四)，报名不足 3 人（队）的项目与女子个人合并。" in body
    assert "名单截止前将运动员改报其他项目" in body
    again = ask(client, "post", url, data=token, follow_redirects=True).get_data(as_text=True)
    assert "已通知象棋个人的 0 个代表团（另 2 个此前已就同样的人数通知过，或没有邮箱）" in again and len(told()) == 2
    db.session.rollback()
    audit = db.session.scalars(select(AuditLog).where(AuditLog.action == "event.short_notice").order_by(AuditLog.id)).all()
    assert [a.after["told"] for a in audit] == [2, 0] and audit[0].games_slug == "few-2026" and audit[0].actor
    third = import_document(g, _doc("few-2026", [person("a1", "M", "1993-01-01", area="110101")], unit="beijing"), AT,
                            Actor("t"))
    assert third.ok, third.violations
    db.session.commit()
    done = ask(client, "post", url, data=token, follow_redirects=True).get_data(as_text=True)
    assert "已达到规程规定的开赛人数，无需通知" in done and len(told()) == 2
    assert "本比赛没有这个项目" in ask(client, "post", "/org/games/few-2026/events/nosuch/tell-short", data=token,
                                       follow_redirects=True).get_data(as_text=True)
