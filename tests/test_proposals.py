"""From the regulation's text to a draft (issue 37, 10): the values its sentences state,
proposed beside their clauses, taken one by one. Scored against the four fixtures written
by hand from their regulations (the README says the same figures)."""
import yaml
from builders import account, logged_in
from test_setup_screens import _games, _get, _post

from portal.config import FIXTURES
from portal.rules.definition import GamesDefinition
from portal.rules.proposals import holds, propose

# fixture -> (proposals that agree with the fixture, proposals made)
SCORES = {"nmsg-2009": (12, 13), "nmsg-2019": (11, 12), "shaanxi-mind-2025": (5, 6), "youth-gomoku-2015": (11, 11)}


def test_the_proposals_of_the_four_regulations_agree_with_the_fixtures_written_by_hand():
    found = {}
    for path in sorted((FIXTURES / "games").glob("*.yaml")):
        definition = GamesDefinition.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        made = propose((FIXTURES / "regulations" / definition.regulation).read_text(encoding="utf-8"))
        found[path.stem] = (sum(1 for p in made if holds(definition, p)), len(made))
    assert found == SCORES


def test_each_sentence_is_read_with_its_clause():
    made = propose("七、参赛年龄\n少年甲组： 1998年1月1日至2003年12月31日出生。\n"
                   "十一、报名\n（四）报名截止日期7月8日17:00，逾期不予受理。\n（七）每改动一人另需缴手续费50元。\n"
                   "五、团体赛\n3.每单位只能报一支代表队，每队由4名选手(3男1女)组成。")
    by = {p.kind: p for p in made}
    assert by["age_bracket"].ref == "七" and by["age_bracket"].values == {"born_from": "1998-01-01", "born_to": "2003-12-31"}
    assert by["names_closes"].ref == "十一(四)" and by["names_closes"].values["at"].endswith("17:00:00+08:00")
    assert by["fee"].values == {"name": "手续费", "amount": "50.00", "per": "person_changed"}
    assert by["team_size"].ref == "五3" and by["team_size"].values == {"min": 4, "max": 4}


TEXT = """2017年全国少年儿童五子棋锦标赛竞赛规程
四、比赛时间和地点：2017年7月15日至18日，天津市
七、参赛资格
少年甲组：2000年1月1日至2005年12月31日出生。
十、录取名次
（一）各组录取前8名。
十一、报名
（四）报名截止日期7月6日，逾期不予受理。
"""


def test_a_committee_takes_the_proposals_one_by_one(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2017", "name_zh": "2017年全国少年儿童五子棋锦标赛",
                                                "name_en": "2017 Youth Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "2"}).status_code == 302
    setup = "/org/games/gomoku-2017/setup"
    assert _post(app, admin, setup + "/regulation-text", {"text": TEXT}, page=setup).status_code == 302
    page = _get(app, admin, setup + "/proposals").get_data(as_text=True)
    assert "报名（姓名）截止：2017年7月6日 24:00（北京时间）" in page and "规程 十一(四)" in page
    assert "比赛日期：2017年7月15日 至 2017年7月18日" in page and "已与设置一致" in page  # the copy moved the days already
    key = next(p.key for p in propose(TEXT) if p.kind == "names_closes")
    assert _post(app, admin, setup + "/proposals", {"key": key}, page=setup + "/proposals").status_code == 302
    with app.app_context():
        import datetime as dt

        from portal.games.services import definition_of
        closes = definition_of(_games("gomoku-2017")).stages.names_closes
        assert closes == dt.datetime(2017, 7, 7, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    # an age group opens its rule's form filled in, the events still to choose
    link = next(p for p in propose(TEXT) if p.kind == "age_bracket")
    form = _get(app, admin, "/org/games/gomoku-2017/setup/rules/new?kind=age_bracket&p_born_from=2000-01-01"
                            "&p_born_to=2005-12-31&p_clause=七").get_data(as_text=True)
    assert 'value="2000-01-01"' in form and 'value="2005-12-31"' in form and 'value="七"' in form and link.ref == "七"


def test_the_places_first_come_first_served_are_proposed_and_taken(app, db):
    """shaanxi-mind-2025 三: 总人数限制160人，按照报名时间顺序，报满即止 (rooms' 额满为止 are not places)."""
    [p] = propose("三、参赛办法\n全国五子棋爱好者均可报名。总人数限制120人，按照报名时间顺序，报满即止。\n"
                  "四、食宿\n大会统一安排食宿（按照报名先后顺序额满为止）。")
    assert (p.kind, p.values, p.ref) == ("capacity", {"capacity": 120}, "三")
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-open-2026", "name_zh": "2026年五子棋公开赛",
                                                "name_en": "2026 Gomoku Open", "copy_of": "shaanxi-mind-2025",
                                                "years_later": "1"}).status_code == 302
    setup = "/org/games/gomoku-open-2026/setup"
    text = "三、参赛办法\n总人数限制120人，按照报名时间顺序，报满即止。\n"
    assert _post(app, admin, setup + "/regulation-text", {"text": text}, page=setup).status_code == 302
    page = _get(app, admin, setup + "/proposals").get_data(as_text=True)
    assert "名额上限：120 人（先报先得）" in page
    assert _post(app, admin, setup + "/proposals", {"key": p.key}, page=setup + "/proposals").status_code == 302
    with app.app_context():
        from portal.games.services import definition_of
        assert definition_of(_games("gomoku-open-2026")).capacity == 120
    assert "已与设置一致" in _get(app, admin, setup + "/proposals").get_data(as_text=True)
