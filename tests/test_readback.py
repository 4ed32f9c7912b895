"""The regulation read back (issue 26, 2): every rule of a Games in a sentence, with the
clause it comes from, generated from the definition; for organisers and for leaders."""
import datetime as dt
import html
import json
import re
import typing

import pytest
import yaml
from builders import csrf_token, doc, logged_in, stored

from portal.config import FIXTURES
from portal.rules import definition as d
from portal.rules.idnumber import make
from portal.rules.readback import SENTENCES, read_back

WHEN = dt.datetime(2019, 5, 1, tzinfo=dt.UTC)


def _definition(slug):
    return d.GamesDefinition.model_validate(yaml.safe_load((FIXTURES / "games" / f"{slug}.yaml").read_text("utf-8")))


def test_every_rule_kind_has_its_sentence():
    kinds = typing.get_args(typing.get_args(d.Rule)[0])
    assert set(kinds) == set(SENTENCES)


def test_the_chess_regulation_read_back_with_its_clauses():
    lines = read_back(_definition("nmsg-2019"))
    rules = {line.zh: line.clause for line in lines if line.section == "rules"}
    assert rules["每单位国际象棋男子个人限报 4 人"] == "五(二)"
    assert rules["国际象棋少年男子团体快棋、国际象棋少年女子团体快棋、国际象棋少年男子个人、国际象棋少年女子个人、"
                 "国际象棋少年混合团体：须在 2003年11月1日 至 2009年10月31日 之间出生（含当日）"] == "四(三)"
    assert rules["国际象棋大学生团体：每单位限报 1 队，上场队员男 2 人、女 1 人，替补至多男 1 人、女 1 人"] == "五(六)"
    stages = [line.zh for line in lines if line.section == "stages"]
    # as the regulation says it ("8月31日 24:00"), not "9月1日 00:00之前" (issue 37, 6)
    assert "报名（姓名）截止：2019年8月31日 24:00（北京时间）" in stages
    english = [line.en for line in lines]
    assert "At most 4 entrants per unit in Chess Men's individual" in english


def test_every_fixture_reads_back_in_both_languages_and_names_its_clauses():
    for path in sorted((FIXTURES / "games").glob("*.yaml")):
        definition = _definition(path.stem)
        lines = read_back(definition)
        assert len([x for x in lines if x.section == "rules"]) == len(definition.rules)
        for line in lines:
            assert line.zh and line.en and "None" not in line.zh + line.en, (path.stem, line)
            assert not any("\u4e00" <= ch <= "\u9fff" for ch in line.en) or line.section != "stages", line


# One rule of each kind the fixtures do not use, and what its sentence must say.
KINDS = [
    ({"kind": "team_size", "events": ["chess.MTR"], "min": 4, "max": 6}, "国际象棋男子团体快棋：每队队员 4 至 6 人", "4 to 6 players"),
    ({"kind": "entry_minimum", "per": "unit", "min": 3}, "每单位至少报名运动员 3 人", "at least 3 athletes"),
    ({"kind": "entry_requires", "events": ["chess.MI"], "requires": ["chess.MTR"], "beyond": 2},
     "国际象棋男子个人报名超过 2 人时，须同时报名国际象棋男子团体快棋", "More than 2 entrants"),
    ({"kind": "compulsory", "events": ["chess.MI", "chess.WI"], "any_of": True}, "至少报名国际象棋男子个人、国际象棋女子个人中的一项",
     "at least one of"),
    ({"kind": "officials_ratio", "roles": ["leader", "coach"], "per_athletes": 6}, "领队、教练：每 6 名运动员至多 1 人",
     "at most one per 6 athletes"),
    ({"kind": "cross_gender", "gender": "F", "events": ["chess.MI"]}, "女选手可报名国际象棋男子个人", "Women may enter"),
    ({"kind": "companion_required", "min_age": 70}, "年满 70 周岁（按比赛首日计算）的运动员须由本代表团随队人员陪同", "aged 70 or more"),
    ({"kind": "event_units", "events": ["chess.UT"], "unit_kinds": ["university"], "individuals": True},
     "国际象棋大学生团体仅限高校、个人报名", "Only universities, individuals"),
    ({"kind": "registration", "year": 2025, "registered_by": "2025-02-28"}, "注册时间截至 2025年2月28日", "2025-02-28"),
]


@pytest.mark.parametrize(("rule", "zh", "en"), KINDS, ids=[k[0]["kind"] for k in KINDS])
def test_a_rule_of_each_kind_says_its_parameters(rule, zh, en):
    raw = yaml.safe_load((FIXTURES / "games" / "nmsg-2019.yaml").read_text("utf-8"))
    raw["rules"] = [{**rule, "clause": "六(一)"}]
    line = [x for x in read_back(d.GamesDefinition.model_validate(raw)) if x.section == "rules"][0]
    assert zh in line.zh and en in line.en and line.clause == "六(一)", line


def test_organisers_and_leaders_read_the_rules_back(app, db):
    from builders import account
    with app.app_context():
        delegation = stored("nmsg-2019", doc("nmsg-2019"), WHEN)
        account("rb-leader", "leader", delegation=delegation)
        account("rb-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
        delegation_id = delegation.id
    organiser, leader = logged_in(app, "rb-org"), logged_in(app, "rb-leader")
    with app.app_context():
        page = organiser.get("/org/games/nmsg-2019/regulation").get_data(as_text=True)
    assert "每单位国际象棋男子个人限报 4 人" in page and "规程 五(二)" in page
    assert "未注明条款" in page  # the boards rules name no clause: the organiser sees it
    with app.app_context():
        mine = leader.get(f"/d/{delegation_id}/regulation")
    assert mine.status_code == 200 and "每单位国际象棋男子个人限报 4 人" in mine.get_data(as_text=True)


def test_organisers_try_a_sample_delegation_against_the_rules(app, db):
    from builders import account
    with app.app_context():
        account("try-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
    client = logged_in(app, "try-org")
    with app.app_context():
        page = client.get("/org/games/nmsg-2019/try").get_data(as_text=True)
    assert "示例1号" in page and "chess.MI" in page
    token = csrf_token(page)
    sample = json.loads(html.unescape(re.search(r'<textarea id="document" name="document"[^>]*>(.*?)</textarea>', page, re.S).group(1)))
    # Five men in the men's individual event, where four are allowed (五(二)).
    first = sample["people"][0]
    sample["people"] = [{**first, "ref": f"m{i}", "name": f"男{i}",
                         "id_number": make("330102", dt.date(1990, 1, 1), 11 + 2 * i)}
                        for i in range(5)]
    sample["entries"] = [{"event": "chess.MI", "people": [f"m{i}" for i in range(5)]}]
    with app.app_context():
        result = client.post("/org/games/nmsg-2019/try", data={"csrf_token": token,
                                                                "document": json.dumps(sample, ensure_ascii=False)})
    text = result.get_data(as_text=True)
    assert result.status_code == 200 and "QUOTA_EXCEEDED" in text
    with app.app_context():
        bad = client.post("/org/games/nmsg-2019/try", data={"csrf_token": token, "document": "{not json"})
    assert "示例不是有效的 JSON" in bad.get_data(as_text=True)


def test_the_read_back_invents_no_change_fee(definitions):
    """Issue 37, 6: "并交变更费" only where the regulation sets a fee per person changed."""
    from portal.rules.readback import read_back
    youth = definitions["youth-gomoku-2015"]
    assert youth.stages.replacing_after_submission_needs_approval
    with_fee = [x.zh for x in read_back(youth) if x.section == "stages"]
    assert any("须经组委会批准（并交人员变更手续费）" in line for line in with_fee)
    no_fee = youth.model_copy(update={"money": youth.money.model_copy(update={"fees": [
        f for f in youth.money.fees if f.per != "person_changed"]})})
    lines = [x.zh for x in read_back(no_fee) if x.section == "stages"]
    assert any(line == "报名提交后，更换运动员须经组委会批准" for line in lines)
    assert not any("变更" in line and "费" in line for line in lines)


def test_sanctions_are_typed_read_back_and_set_in_a_form(app, db, definitions, no_csrf):
    """Issue 37, 4-5: the sanctions were a free dict (a key nothing read was kept, none was
    read back, only YAML set them); now a form, a sentence with its clause, and a typo refused."""
    import pytest
    from builders import account, logged_in
    from pydantic import ValidationError

    from portal.rules.definition import GamesDefinition
    from portal.rules.readback import read_back
    lines = [x for x in read_back(definitions["nmsg-2019"]) if "无故退出" in x.zh]
    assert [(x.zh, x.clause) for x in lines] == [("报名（姓名）截止后无故退出的项目，该单位下一届不得报名该项目", "总则 十(二)")]
    raw = definitions["nmsg-2019"].model_dump(mode="json")
    raw["sanctions"]["loses_also"] = "deposit"
    with pytest.raises(ValidationError):
        GamesDefinition.model_validate(raw)
    account("sanction-admin", "admin")
    db.session.commit()
    with app.app_context():
        form = logged_in(app, "sanction-admin").get("/org/games/nmsg-2019/setup/settings/sanctions").get_data(as_text=True)
    assert 'name="p_loses"' in form and "下一届取消该单位该项目的参赛资格" in form


def test_an_amendment_names_each_fee_it_changes(definitions):
    """Issue 37, 6-7: a fee changed reads as before → after, not "规则的表述没有变化"."""
    from decimal import Decimal

    from portal.setup.services import readback_diff
    youth = definitions["youth-gomoku-2015"]
    fees = [f.model_copy(update={"amount": Decimal("250.00")}) if f.code == "entry" else f for f in youth.money.fees]
    after = youth.model_copy(update={"money": youth.money.model_copy(update={"fees": fees})})
    diff = readback_diff(youth, after)
    assert [x[0] for x in diff["removed"]] == ["报名费：每名运动员 200.00 元"]
    assert [x[0] for x in diff["added"]] == ["报名费：每名运动员 250.00 元"]


def test_rooms_stays_and_the_meeting_are_read_back(definitions):
    """Issue 37, 6: the read-back is the whole regulation, rooms and the meeting too."""
    from portal.rules.readback import read_back
    lines = [x.zh for x in read_back(definitions["youth-gomoku-2015"]) if x.section == "stay"]
    assert "天保国际酒店 酒店大床房：每人每晚 260.00 元" in lines and "运动员须在指定酒店住宿" in lines
    assert "全体人员最早于比赛开始前 1 天报到，比赛结束当天离会" in lines
    assert any(x.startswith("领队会议：2015年7月14日 19:30（北京时间）") and "各单位领队必须参加" in x for x in lines)


def test_the_awards_are_read_back_with_their_clauses(definitions):
    """Issue 37, 6: places by entrants, medals, points and medals won elsewhere, in words."""
    from portal.rules.readback import read_back
    youth = [(x.zh, x.clause) for x in read_back(definitions["youth-gomoku-2015"]) if x.section == "awards"]
    assert ("各个人项目录取名次：30 人（队）及以上录取前 12 名；10 人（队）及以上录取前 8 名；不足 10 人（队）录取参赛数减一名",
            "十(一)") in youth
    nmsg = [x.zh for x in read_back(definitions["nmsg-2009"]) if x.section == "awards"]
    assert "各项目按名次计分：13、8、5、3、2、1" in nmsg and "各项目前三名获金、银、铜牌，计入奖牌榜" in nmsg


def test_an_events_sessions_are_read_back_in_china_time(definitions):
    import datetime as dt

    from portal.rules.definition import Session
    from portal.rules.readback import read_back
    china = dt.timezone(dt.timedelta(hours=8))
    youth = definitions["youth-gomoku-2015"]
    first = youth.events[0].model_copy(update={"sessions": [Session(start=dt.datetime(2015, 7, 15, 8, 30, tzinfo=china),
                                                                    end=dt.datetime(2015, 7, 15, 12, 0, tzinfo=china))]})
    changed = youth.model_copy(update={"events": [first, *youth.events[1:]]})
    lines = [x.zh for x in read_back(changed) if x.section == "schedule"]
    assert lines == [f"{first.name.zh}：07月15日 08:30-12:00（北京时间）"]
