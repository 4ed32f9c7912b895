"""After the entries close, as a committee runs it (issue 21): the draw, the results and the
pairing exports read one list of the players who will play; a results sheet is matched line
by line to them, every bad line listed at once; teams are computed from individual results;
rounds and absences; medals won elsewhere."""
from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from builders import account, csrf_token as token_in, logged_in
from sqlalchemy import func, select

CHINA = dt.timezone(dt.timedelta(hours=8))


def csrf_token(client, url: str) -> str:
    return token_in(client.get(url).get_data(as_text=True))
JULY = dt.datetime(2015, 7, 5, 10, tzinfo=CHINA)


def _club(rng_seed: int, name: str, boys: list[str], girls: list[str]) -> dict:
    from portal.rules.idnumber import make
    people, entries = [], []
    for i, (gender, who) in enumerate([("M", n) for n in boys] + [("F", n) for n in girls]):
        born = dt.date(2000, 1 + i % 12, 1 + rng_seed)
        people.append({"ref": f"k{i + 1}", "name": who, "gender": gender, "birth_date": born.isoformat(),
                       "id_type": "resident_id", "id_number": make(f"{120101 + rng_seed:06d}", born, 2 * i + 3 - (gender == "F")),
                       "documents": ["photo", "id_copy"]})
    boys_refs = [p["ref"] for p in people if p["gender"] == "M"]
    girls_refs = [p["ref"] for p in people if p["gender"] == "F"]
    if boys_refs:
        entries.append({"event": "gomoku.MJA", "people": boys_refs})
    if girls_refs:
        entries.append({"event": "gomoku.WJA", "people": girls_refs})
    if boys_refs and girls_refs:
        entries.append({"event": "gomoku.TJA", "team": "A", "lineup": [{"person": r} for r in boys_refs + girls_refs]})
    return {"format": "delegation/1", "games": "youth-gomoku-2015", "unit": {"name": name, "kind": "club"},
            "declarations": [], "people": people, "entries": entries, "officials": [], "staff": [], "companions": []}


@pytest.fixture
def season(app, db):
    """Four clubs of youth-gomoku-2015: 南开 and 和平 approved and paid, 河西 approved but its
    fee never came (十一(四): void, 不予编排), 红桥 still waiting for approval."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import post
    from portal.workflow.services import approve, import_document
    games = find_games("youth-gomoku-2015")
    clubs = {"南开": (["甲", "丙"], ["丑"]), "和平": (["乙", "戊"], ["寅"]), "河西": (["丁"], ["子", "卯"]),
             "红桥": (["辰"], ["巳"])}
    out = {}
    for i, (name, (boys, girls)) in enumerate(clubs.items()):
        r = import_document(games, _club(i + 1, name, boys, girls), JULY, Actor("t"))
        assert r.ok, r.violations
        out[name] = r.delegation
        if name != "红桥":
            assert approve(r.delegation, Actor("组委会"), JULY + dt.timedelta(hours=1)).ok
        if name in ("南开", "和平"):
            post(r.delegation, "payment", Decimal("5000"), "报名费", Actor("t"), value_date=dt.date(2015, 7, 6))
    account("yg-org", "organiser", name="组委会")
    db.session.commit()
    return games, out


def test_the_players_are_the_approved_valid_entries_and_the_rest_are_told_why(app, season):
    from portal.results.entrants import players
    games, _clubs = season
    listed, left = players(games, "gomoku.MJA")
    assert sorted(p.name for p in listed) == ["丙", "乙", "戊", "甲"]
    why = {x.name: x.why[0] for x in left}
    assert "不予编排" in why["丁"] and "等待" in why["辰"]


def test_the_draw_numbers_only_the_players_after_a_confirmation_and_the_book_agrees(app, season, db):
    from portal.results.draws import current_draw
    from portal.results.programme import book
    games, _clubs = season
    client = logged_in(app, "yg-org", "password-123")
    with app.app_context():
        page = client.get("/org/games/youth-gomoku-2015/draw?event=gomoku.MJA").get_data(as_text=True)
    assert "不参加抽签" in page and "丁" in page and "不予编排" in page
    with app.app_context():
        token = csrf_token(client, "/org/games/youth-gomoku-2015/draw?event=gomoku.MJA")
        refused = client.post("/org/games/youth-gomoku-2015/draw", data={"csrf_token": token, "event": "gomoku.MJA"})
        assert refused.status_code == 422
        r = client.post("/org/games/youth-gomoku-2015/draw", data={"csrf_token": token, "event": "gomoku.MJA",
                                                                  "confirmed": "yes"})
    assert r.status_code == 302
    db.session.rollback()
    draw = current_draw(games, "gomoku.MJA")
    assert sorted(name for _n, _pid, name, _u in draw.numbers) == ["丙", "乙", "戊", "甲"]
    with app.app_context():
        listed = book(games)["per_event"]["gomoku.MJA"]
    assert sorted((n, name) for n, name, *_ in listed) == sorted((n, name) for n, _pid, name, _u in draw.numbers)


def _results_page(app, client, sheet: bytes, name="results.csv"):
    with app.app_context():
        token = csrf_token(client, "/org/games/youth-gomoku-2015/results/gomoku.MJA")
        return client.post("/org/games/youth-gomoku-2015/results/gomoku.MJA",
                           data={"csrf_token": token, "file": (io.BytesIO(sheet), name)},
                           content_type="multipart/form-data")


def test_a_results_sheet_with_every_kind_of_bad_line_is_refused_whole(app, season, db):
    from portal.results.models import EventResult
    client = logged_in(app, "yg-org", "password-123")
    sheet = ("名次,姓名,单位,积分\n"
             "1,甲,南开,7\n"
             "2,不存在的人,南开,6\n"        # no such player
             "2,丁,河西,6\n"                # a child of these Games who does not play: fee never came
             "3,辰,红桥,5\n"                # his club is still waiting for approval
             "4,乙,南开,5\n"                # not his club
             "5,甲,南开,4\n"                # twice
             "9,戊,和平,3\n"                # beyond the four players
             "x,丙,南开,1\n").encode()      # not a place
    r = _results_page(app, client, sheet)
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    for expected in ("不存在的人", "不予编排", "等待组委会审核", "乙 的单位是 和平", "已在第 2 行出现", "名次“x”", "只有 4 人"):
        assert expected in page, expected
    db.session.rollback()
    assert db.session.scalar(select(func.count(EventResult.id))) == 0


def test_results_from_the_players_then_the_team_is_computed_from_them(app, season, db):
    """八(六)2, with the season's players: boys 甲 7 (1), 乙 6 (2), 丙 5.5 (3), 戊 4 (4); girls
    丑 6 (1), 寅 5.5 (2). 南开: 甲 7 + 丑 6 = 13; 和平: 乙 6 + 寅 5.5 = 11.5. 河西 did not pay: its
    children do not play, and its team has no result."""
    from portal.results.entrants import players
    from portal.results.services import games_standings
    games, _clubs = season
    client = logged_in(app, "yg-org", "password-123")
    boys = {p.name: p.key for p in players(games, "gomoku.MJA")[0]}
    girls = {p.name: p.key for p in players(games, "gomoku.WJA")[0]}
    with app.app_context():
        token = csrf_token(client, "/org/games/youth-gomoku-2015/results/gomoku.MJA")
        form = {"csrf_token": token}
        for name, place, score in (("甲", 1, "7"), ("乙", 2, "6"), ("丙", 3, "5.5"), ("戊", 4, "4")):
            form[f"place-{boys[name]}"], form[f"score-{boys[name]}"] = str(place), score
        assert client.post("/org/games/youth-gomoku-2015/results/gomoku.MJA", data=form).status_code == 302
        form = {"csrf_token": token}
        for name, place, score in (("丑", 1, "6"), ("寅", 2, "5.5")):
            form[f"place-{girls[name]}"], form[f"score-{girls[name]}"] = str(place), score
        assert client.post("/org/games/youth-gomoku-2015/results/gomoku.WJA", data=form).status_code == 302
        team_page = client.get("/org/games/youth-gomoku-2015/results/gomoku.TJA").get_data(as_text=True)
    db.session.rollback()  # a fresh snapshot: the requests committed in their own sessions
    st = games_standings(games)
    team = [(p.place, p.label, p.score) for p in st.placings["gomoku.TJA"]]
    assert team == [(1, "南开A队", 13), (2, "和平A队", Decimal("11.5"))]
    # 4 boys: N-1 = 3 places awarded; 2 teams: 1 place
    assert [p.awarded for p in st.placings["gomoku.MJA"]] == [True, True, True, False]
    assert [p.awarded for p in st.placings["gomoku.TJA"]] == [True, False]
    assert "由各队队员的个人赛成绩计算" in team_page and "南开A队" in team_page
    assert not st.points  # no points table in this regulation: no column, no "0.00 分"
    with app.app_context():
        overview = client.get("/org/games/youth-gomoku-2015/results").get_data(as_text=True)
    assert "总分榜" not in overview and "0.00" not in overview


@pytest.fixture
def shaanxi(app, db):
    """Six entrants of shaanxi-mind-2025 who registered alone, three of 安康棋院."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.rules.idnumber import make
    from portal.workflow.services import approve, import_document
    games = find_games("shaanxi-mind-2025")
    at = dt.datetime(2025, 9, 1, 10, tzinfo=CHINA)
    for i, (name, club, born) in enumerate([("赵一", "安康棋院", "2012-03-01"), ("钱二", "安康棋院", "1990-01-01"),
                                            ("孙三", "安康棋院", "2011-01-01"), ("李四", "西安棋社", "1985-05-05"),
                                            ("周五", None, "2010-02-02"), ("吴六", "西安棋社", "1970-07-07")]):
        b = dt.date.fromisoformat(born)
        person = {"ref": "p1", "name": name, "gender": "M", "birth_date": born, "id_type": "resident_id",
                  "id_number": make("610102", b, 2 * i + 3), "documents": [], "club": club}
        r = import_document(games, {"format": "delegation/1", "games": "shaanxi-mind-2025", "unit": None,
                                    "declarations": [], "people": [person],
                                    "entries": [{"event": "gomoku.OPEN", "people": ["p1"]}],
                                    "officials": [], "staff": [], "companions": []}, at, Actor(name))
        assert r.status == "submitted", r.violations
        assert approve(r.delegation, Actor("组委会"), at).ok
    account("sx-org", "organiser", name="组委会")
    db.session.commit()
    return games


def test_two_absences_and_a_player_is_no_longer_paired_nor_exported(app, shaanxi, db):
    """六(一)2: 两轮未到者不再编排."""
    from portal.results.entrants import players
    listed = {p.name: p.key for p in players(shaanxi, "gomoku.OPEN")[0]}
    client = logged_in(app, "sx-org", "password-123")
    url = "/org/games/shaanxi-mind-2025/results/gomoku.OPEN"
    with app.app_context():
        token = csrf_token(client, url)
        r = client.post(url + "/absences", data={"csrf_token": token,
                                                 "absent": [f"{listed['周五']}:1", f"{listed['周五']}:2",
                                                            f"{listed['吴六']}:3"]})
        assert r.status_code == 302
        page = client.get(url).get_data(as_text=True)
        trf = client.get(url + "/players.trf").get_data(as_text=True)
        xlsx = client.get(url + "/players.xlsx").get_data()
    assert page.count("不再编排") >= 2  # the heading, and 周五's badge
    assert "周五" not in trf and "吴六" in trf and trf.count("\n001 ") == 5
    # a pairing program's two lines: the fixture's nine rounds, the first colour (issue 39, 12)
    assert "\nXXR 9\n" in trf and "\nXXC white1\n" in trf
    from openpyxl import load_workbook
    names = [row[1] for row in load_workbook(io.BytesIO(xlsx)).active.iter_rows(min_row=2, values_only=True)]
    assert "周五" not in names and len(names) == 5


def test_a_trf_file_comes_back_as_the_final_standings_with_the_club_and_youth_rankings(app, shaanxi, db):
    from portal.results.services import games_standings
    client = logged_in(app, "sx-org", "password-123")
    url = "/org/games/shaanxi-mind-2025/results/gomoku.OPEN"
    with app.app_context():
        trf = client.get(url + "/players.trf").get_data(as_text=True)
    lines = []
    points = {"赵一": "7.0", "钱二": "6.5", "孙三": "6.0", "李四": "6.0", "周五": "5.0", "吴六": "2.0"}
    order = ["赵一", "钱二", "孙三", "李四", "周五", "吴六"]
    for line in trf.splitlines():
        if line.startswith("001"):
            name = line[14:47].strip()
            line = line.ljust(89)
            line = line[:80] + points[name].rjust(4) + " " + str(order.index(name) + 1).rjust(4)
        lines.append(line)
    with app.app_context():
        token = csrf_token(client, url)
        r = client.post(url, data={"csrf_token": token, "file": (io.BytesIO("\n".join(lines).encode()), "final.trf")},
                        content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    db.session.rollback()
    st = games_standings(shaanxi)
    open_group = st.placings["gomoku.OPEN"]
    assert [p.label for p in open_group] == order and open_group[0].prize == 5000
    team = next(s for s in st.derived if s.code == "team")
    assert [(r.rank, r.who, r.score) for r in team.rows][:2] == [(1, "安康棋院", Decimal("19.5")), (2, "西安棋社", 8)]
    youth = next(s for s in st.derived if s.code == "youth")
    assert [r.who for r in youth.rows] == ["赵一", "孙三", "周五"] and youth.rows[0].prize == 500
    with app.app_context():
        page = client.get("/org/games/shaanxi-mind-2025/results").get_data(as_text=True)
    assert "团体组" in page and "八3" in page and "青少年组" in page


def test_medals_won_elsewhere_count_apart(app, db):
    """总则 九(八): 运动员在第一届世界智力运动会上获得前3名成绩的，将分别计入本次全国智运会的奖牌榜."""
    from portal.games.services import find_games
    from portal.results.services import games_standings
    from portal.workflow.services import new_delegation
    games = find_games("nmsg-2009")
    d = new_delegation(games, "zhejiang")
    db.session.add(d)
    account("om-org", "organiser", name="组委会")
    db.session.commit()
    client = logged_in(app, "om-org", "password-123")
    with app.app_context():
        token = csrf_token(client, "/org/games/nmsg-2009/results")
        r = client.post("/org/games/nmsg-2009/outside-medals", data={
            "csrf_token": token, "delegation": str(d.id), "medal": "gold", "athlete": "常昊", "event_name": "围棋男子个人"})
        assert r.status_code == 302
        page = client.get("/org/games/nmsg-2009/results").get_data(as_text=True)
    db.session.rollback()
    st = games_standings(games)
    row = next(u for u in st.table if u.unit == str(d.id))
    assert row.gold == 1 and row.outside and row.outside[0].source == "第一届世界智力运动会"
    assert "含其他比赛奖牌 1 枚" in page


def test_absences_read_from_the_pairing_programs_trf(app, shaanxi, db):
    """六(一)2 with the pairing program's file: rounds whose result is "-" or "Z" are missed."""
    from portal.audit.services import Actor
    from portal.results.draws import make_draw
    from portal.results.entrants import players
    assert make_draw(shaanxi, "gomoku.OPEN", Actor("组委会")).ok
    db.session.commit()
    listed = players(shaanxi, "gomoku.OPEN")[0]
    absent = next(p for p in listed if p.name == "李四")
    lines = []
    for p in listed:
        line = f"001 {p.number:>4} m    {p.name:<33}".ljust(91)
        rounds = ["   2 w 1  ", "   3 b 0  ", "   4 w =  "]
        if p is absent:
            rounds = ["0000 - -  ", "0000 - Z  ", "   4 w =  "]
        lines.append(line + "".join(rounds))
    client = logged_in(app, "sx-org", "password-123")
    url = "/org/games/shaanxi-mind-2025/results/gomoku.OPEN"
    with app.app_context():
        token = csrf_token(client, url)
        r = client.post(url + "/absences", data={"csrf_token": token, "file": (io.BytesIO("\n".join(lines).encode()), "r3.trf")},
                        content_type="multipart/form-data")
        assert r.status_code == 302
        trf = client.get(url + "/players.trf").get_data(as_text=True)
    assert "李四" not in trf and trf.count("\n001 ") == 5


def test_a_line_names_the_left_out_player_of_its_own_unit_only(app, season, db):
    """Issue 39, 5: 丁 of 河西 does not play (his fee never came); a line for a 丁 of 南开 is
    about nobody of these Games, not about 河西's; a line without a name says so."""
    client = logged_in(app, "yg-org", "password-123")
    sheet = ("名次,姓名,单位,积分\n"
             "1,丁,南开,7\n"
             "2,,南开,6\n"
             "3,丁,河西,5\n").encode()
    page = _results_page(app, client, sheet).get_data(as_text=True)
    assert "第 2 行（丁）：本项目的参赛者中没有南开的“丁”" in page
    assert "no player of this event" not in page and "row 2" not in page  # one reader, one language
    assert "第 3 行：缺少姓名或序号" in page and "没有“”" not in page
    assert page.count("丁（河西）不参加本项目的比赛") == 1 and "第 4 行（丁）" in page  # 河西's own 丁


def test_the_desk_and_the_cards_judge_who_plays_as_the_draw_does(app, season, db):
    """Issue 39, 4: 河西 is approved but its fee never came (十一(四)): the draw leaves its
    children out, so the desk does not check them in and no card is printed for them."""
    from portal.results.entrants import players
    from portal.venue.cards import card_code, cards_for
    games, clubs = season
    _listed, left = players(games, "gomoku.MJA")
    assert any(x.name == "丁" and "不予编排" in x.why[0] for x in left)
    client = logged_in(app, "yg-org", "password-123")
    with app.app_context():
        void = client.get("/org/scan", query_string={"code": card_code(clubs["河西"].id, "k1")}).get_data(as_text=True)
        valid = client.get("/org/scan", query_string={"code": card_code(clubs["南开"].id, "k1")}).get_data(as_text=True)
    assert "证件作废" in void and "不予编排" in void and 'id="check-in"' not in void
    assert "证件作废" not in valid and 'id="check-in"' in valid
    units = {c.delegation_id for c in cards_for(games)}
    assert clubs["南开"].id in units and clubs["河西"].id not in units
