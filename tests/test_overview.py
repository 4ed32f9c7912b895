"""The organisers' overview (issue 10): every delegation's errors judged in one pass with
the same result as its own page, payments and entries by day as charts."""
import datetime as dt
import re

from builders import account, logged_in

UTC = dt.UTC
CHINA = dt.timezone(dt.timedelta(hours=8))


def test_judging_every_delegation_at_once_says_what_each_page_says(app, db):
    """Including an identity number held by two delegations, named to the organisers only."""
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.delegations.services import export_document, judge, judge_many
    from portal.games.services import find_games
    from portal.rules import parse_document
    from portal.rules.violations import dedupe
    from portal.workflow import services as svc
    games = find_games("nmsg-2019")
    twin = person("p1", "M", "1990-01-01", unit="zhejiang", name="双号")
    a = svc.save(svc.new_delegation(games, "zhejiang"), doc("nmsg-2019", "zhejiang", [twin, person("p2", "F", "1991-01-01")],
                 [individual("chess.MI", "p1"), individual("chess.WI", "p2")]), Actor("t"),
                 dt.datetime(2019, 8, 1, tzinfo=CHINA)).delegation
    b = svc.save(svc.new_delegation(games, "jiangsu"), doc("nmsg-2019", "jiangsu", [{**twin, "name": "另一人"}],
                 [individual("chess.WI", "p1")]), Actor("t"), dt.datetime(2019, 8, 1, tzinfo=CHINA)).delegation
    db.session.commit()
    at = dt.datetime(2019, 8, 2, tzinfo=CHINA)
    for reveal in (False, True):
        many = judge_many(games, [a, b], at, reveal=reveal)
        for d in (a, b):
            parsed, problems = parse_document(export_document(d))
            one = dedupe(problems + judge(games, parsed, at, exclude_delegation_id=d.id, reveal=reveal))
            assert [(v.code, v.zh) for v in many[d.id]] == [(v.code, v.zh) for v in one]
        codes = {v.code for v in many[a.id]}
        assert "DUPLICATE_PERSON" in codes, (codes, {v.code for v in many[b.id]}, b.id, a.id, b.status)


def test_the_games_page_reads_at_a_glance(app, db, monkeypatch):
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import post, sync_charges
    from portal.workflow import services as svc
    games = find_games("nmsg-2019")
    out = svc.import_document(games, doc("nmsg-2019", "zhejiang", [person("p1", "M", "1990-01-01", unit="zhejiang", year=2019)],
                                         [individual("chess.MI", "p1")]),
                              dt.datetime(2019, 8, 10, tzinfo=CHINA), Actor("t"))
    assert out.ok, [v.code for v in out.violations]
    good = out.delegation
    sync_charges(good, Actor("t"))
    post(good, "payment", "300.00", "到账", Actor("财务"), value_date=dt.date(2019, 8, 12))
    svc.save(svc.new_delegation(games, "jiangsu"), doc("nmsg-2019", "jiangsu", [person("p1", "F", "1990-01-01", unit="jiangsu", year=2019)],
                   [individual("chess.MI", "p1")]), Actor("t"), dt.datetime(2019, 8, 11, tzinfo=CHINA))
    db.session.commit()
    account("ov-org", "organiser", name="组委会")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 8, 20, tzinfo=UTC))
    client = logged_in(app, "ov-org", "password-123")
    with app.app_context():
        html = client.get("/org/games/nmsg-2019").get_data(as_text=True)
    assert 'id="overview"' in html and "有错误的代表团" in html
    rows = re.findall(r"<tr><td>(.*?)</tr>", html, re.S)
    jiangsu = next(r for r in rows if "jiangsu" in r)
    zhejiang = next(r for r in rows if "zhejiang" in r)
    errors = int(re.search(r'badge err">(\d+)<', jiangsu).group(1))
    assert errors == 1  # a woman in the men's event
    # nmsg-2019 charges no entry fee: a payment received is owed back
    assert 'badge ok">0<' in zhejiang and "应退款" in zhejiang and "无应付款" in jiangsu
    assert html.count("<rect") >= 2 and "到账金额" in html and "300" in html
