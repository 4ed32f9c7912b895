"""A season-sized demo: youth-gomoku-2015 as a real July would leave it. 37 clubs and
cities with 2 to 24 children each, received between 1 and 8 July, most approved, some
waiting or returned, a few still drafts; then the bank's July statements (the files in
fixtures/bank, and one made from the delegations' references) imported and matched, so
that the organiser's overview and the accountant's bank lines have something to show.
Idempotent: skipped when the Games already have delegations."""
from __future__ import annotations

import datetime as dt
import os
import random

from sqlalchemy import func, select
from stdnum import luhn

from .accounts.models import User
from .accounts.services import create_account, hash_password
from .audit.services import Actor
from .config import FIXTURES
from .delegations.edit import athletes
from .delegations.models import Delegation, DelegationStatus
from .delegations.services import export_document
from .extensions import db
from .games.services import find_games
from .money.services import import_statement, payment_reference_of, totals
from .results.draws import make_draw
from .rules.idnumber import make
from .venue.checkin import check_in
from .venue.meeting import confirm
from .workflow import services as workflow

CHINA = dt.timezone(dt.timedelta(hours=8))
SLUG = "youth-gomoku-2015"
SEASON = FIXTURES / "bank" / "icbc-2015-07-season.csv"
# The clubs that the statements in fixtures/bank pay for, with the references they quote.
KNOWN = [("南开区少儿棋校", "ZY03000011"), ("河西棋院", None), ("红桥棋社", "ZY03000029"), ("和平棋友会", "ZY03000037")]
PLACES = ["北京", "上海", "天津", "重庆", "杭州", "宁波", "温州", "南京", "苏州", "无锡", "合肥", "福州", "厦门", "南昌",
          "济南", "青岛", "郑州", "武汉", "长沙", "广州", "深圳", "南宁", "海口", "成都", "贵阳", "昆明", "西安",
          "兰州", "西宁", "银川", "太原", "石家庄", "沈阳", "大连"]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘"
GIVEN = ["子涵", "欣怡", "梓轩", "浩然", "雨桐", "一诺", "宇航", "思琪", "俊熙", "若汐", "博文", "佳怡", "明轩", "诗涵",
         "天佑", "可馨", "嘉懿", "铭泽", "语嫣", "皓轩"]
# Birth years per group (七): junior A 1998-2003, junior B 2004-05, children A 2006-07, B 2008+.
GROUPS = [("JA", 1998, 2003), ("JB", 2004, 2005), ("CA", 2006, 2007), ("CB", 2008, 2009)]


def _document(rng: random.Random, name: str, index: int, size: int) -> dict:
    people, entries, by_group = [], [], {}
    area = f"{120101 + index:06d}"
    for k in range(size):
        gender = "M" if k % 2 == 0 else "F"
        group, first, last = GROUPS[rng.randrange(len(GROUPS))]
        born = dt.date(rng.randint(first, last), rng.randint(1, 12), rng.randint(1, 28))
        ref = f"k{k + 1}"
        people.append({"ref": ref, "name": rng.choice(SURNAMES) + rng.choice(GIVEN), "gender": gender,
                       "birth_date": born.isoformat(), "id_type": "resident_id",
                       "id_number": make(area, born, k * 2 + (1 if gender == "M" else 0) + 2),
                       "documents": ["photo", "id_copy"]})
        event = f"gomoku.{'M' if gender == 'M' else 'W'}{group}"
        by_group.setdefault(group, {}).setdefault(gender, []).append(ref)
        entries.append({"event": event, "people": [ref]})
    merged: dict[str, list] = {}
    for e in entries:
        merged.setdefault(e["event"], []).extend(e["people"])
    entries = [{"event": code, "people": refs} for code, refs in merged.items()]
    for group, genders in by_group.items():
        if genders.get("M") and genders.get("F"):
            entries.append({"event": f"gomoku.T{group}", "team": "A",
                            "lineup": [{"person": r} for r in genders["M"] + genders["F"]]})
    for ref, role, gender, born in (("l1", "leader", "M", dt.date(1978, 3, 3)), ("c1", "coach", "F", dt.date(1985, 5, 5))):
        people.append({"ref": ref, "name": rng.choice(SURNAMES) + rng.choice(GIVEN), "gender": gender,
                       "birth_date": born.isoformat(), "id_type": "resident_id",
                       "id_number": make(area, born, 900 + (1 if gender == "M" else 0) + (2 if role == "coach" else 0)),
                       "documents": []})
    return {"format": "delegation/1", "games": SLUG, "unit": {"name": name, "kind": "club"}, "declarations": [],
            "people": people, "entries": entries,
            "officials": [{"person": "l1", "role": "leader", "sport": "gomoku"},
                          {"person": "c1", "role": "coach", "sport": "gomoku"}], "staff": [], "companions": []}


def demo_reference(index: int) -> str:
    """The payment reference of the demo's club number `index`: the portal's format (ZY,
    eight digits, a Luhn digit) under the number 90, which no Games of the demo has."""
    digits = f"90{index:05d}"
    return f"ZY{digits}{luhn.calc_check_digit(digits)}"


def _substitutions_and_a_withdrawal(games, delegations, rng, actor) -> None:
    """Two approved clubs ask to replace a child (pending, for the organisers' queue); one
    submitted club withdraws before the deadline."""
    asked = 0
    for d in delegations:
        if d.status == DelegationStatus.APPROVED and asked < 2:
            doc = export_document(d)
            entry = next(e for e in doc["entries"] if e.get("people"))
            out_ref = entry["people"][0]
            out = next(p for p in doc["people"] if p["ref"] == out_ref)
            born = dt.date.fromisoformat(out["birth_date"])
            incoming = {"name": rng.choice(SURNAMES) + rng.choice(GIVEN), "gender": out["gender"],
                        "birth_date": born.isoformat(), "id_type": "resident_id",
                        "id_number": make("120199", born, 700 + asked * 2 + (1 if out["gender"] == "M" else 0)),
                        "documents": ["photo", "id_copy"]}
            workflow.request_substitution(d, entry["event"], out_ref, incoming, "原选手因伤不能参赛。", actor,
                                          dt.datetime(2015, 7, 11, 9, tzinfo=CHINA))
            db.session.commit()
            asked += 1
    waiting = next((d for d in delegations if d.status == DelegationStatus.SUBMITTED), None)
    if waiting is not None:
        workflow.withdraw(waiting, None, True, actor, dt.datetime(2015, 7, 7, 16, tzinfo=CHINA), reason="学校安排期末考试。")
        db.session.commit()


def _the_day_before_play(games, delegations, rng, organiser) -> None:
    """14 July: player numbers drawn for two groups, most approved children checked in by
    the afternoon (the desk has people still to come), the first leaders called at the
    meeting."""
    for event in ("gomoku.MCA", "gomoku.WCA"):
        make_draw(games, event, organiser, seed=f"demo-{event}")
        db.session.commit()
    approved = [d for d in delegations if d.status == DelegationStatus.APPROVED]
    for k, d in enumerate(approved):
        doc = export_document(d)
        for ref in sorted(athletes(doc)):
            if rng.random() < 0.8 or k < 3:
                at = dt.datetime(2015, 7, 14, rng.randint(9, 17), rng.randint(0, 59), tzinfo=CHINA)
                check_in(d, ref, [], organiser, at)
        db.session.commit()
    for d in approved[:3]:
        leader = next((p["name"] for p in export_document(d)["people"] if p["ref"] == "l1"), "")
        confirm(d, leader, organiser, dt.datetime(2015, 7, 14, 19, 45, tzinfo=CHINA))
        db.session.commit()


def _statement(rows: list[tuple[dt.date, str, str, str]]) -> bytes:
    """An ICBC-style July statement (the layout of fixtures/bank/icbc-2015-07.csv)."""
    lines = ["中国工商银行 账户明细", "账号,6222020302059638775", "户名,代丰", "起止日期,2015-07-01,2015-07-31", ",",
             "交易日期,摘要,收入金额,支出金额,余额,对方户名,附言"]
    for day, amount, payer, memo in rows:
        lines.append(f"{day.isoformat()},网银转入,\"{amount}\",,,{payer},{memo}")
    return ("\n".join(lines) + "\n").encode("utf-8")


LEADER = ("nankai", "南开区少儿棋校 领队", "leader-demo-2026")


def leader_account(echo=None) -> list[str]:
    """A leader's account for the first club of the season (its dashboard, fees, cards),
    made if missing; the line that names it among the demo accounts."""
    games = find_games(SLUG)
    d = db.session.scalar(select(Delegation).where(Delegation.games_id == games.id,
                                                   Delegation.unit_name == KNOWN[0][0])) if games else None
    if d is None:
        return []
    username, name, password = LEADER
    user = db.session.scalar(select(User).where(User.username == username))
    if user is None:
        create_account(username, name, "leader", Actor("演示数据"), delegation=d, password=password)
    else:
        user.password_hash, user.active = hash_password(password), True
        db.session.commit()
    return [f"  {'leader':<10} {username:<10} {password:<22} {name}  {SLUG}"]


def set_up_season(echo) -> None:
    from .workflow import services as workflow
    games = find_games(SLUG)
    if games is None or db.session.scalar(select(func.count()).select_from(Delegation).where(
            Delegation.games_id == games.id)):
        return
    rng = random.Random(2015)
    actor, organiser, accountant = Actor("演示数据"), Actor("组委会 王老师", role="organiser"), \
        Actor("财务 李会计", role="accountant")
    names = [n for n, _r in KNOWN] + [f"{p}{rng.choice(['少儿棋院', '五子棋协会', '青少年宫', '棋类俱乐部'])}" for p in PLACES[:33]]
    delegations = []
    for i, name in enumerate(names):
        size = rng.randint(2, 24)
        document = _document(rng, name, i, size)
        day = dt.datetime(2015, 7, 1 + min(7, int(rng.triangular(0, 8, 7))), rng.randint(8, 22), tzinfo=CHINA)
        if i >= len(names) - 3:  # still drafts
            workflow.save(workflow.new_delegation(games, document["unit"]), document, actor, day)
            db.session.commit()
            continue
        out = workflow.import_document(games, document, day, actor)
        if out.ok:
            # References that do not depend on the ids this database happens to give: the
            # season's statement in fixtures/bank quotes them (issue 39, 1).
            out.delegation.payment_reference = KNOWN[i][1] if i < len(KNOWN) and KNOWN[i][1] else demo_reference(i)
            delegations.append(out.delegation)
        db.session.commit()
    for k, d in enumerate(delegations):
        if k % 10 == 9:
            workflow.return_for_changes(d, organiser, [("person", "k1", "请补充一寸照片原件的扫描件。")])
        elif k % 4 != 3:
            workflow.approve(d, organiser, dt.datetime(2015, 7, 10, 15, tzinfo=CHINA))
        db.session.commit()
    _substitutions_and_a_withdrawal(games, delegations[len(KNOWN):], rng, actor)
    for path in sorted((FIXTURES / "bank").glob("*-2015-07*")):
        if "malformed" in path.name or "duplicate" in path.name or path.name == SEASON.name:
            continue  # the bad files stay for the accountant to try
        import_statement(games, path.read_bytes(), path.name, accountant, all_or_nothing=False)
        db.session.commit()
    rows = []
    for k, d in enumerate(delegations[len(KNOWN):]):
        if d.status == DelegationStatus.WITHDRAWN:
            continue
        due = totals(d)["expected"]
        if not due or k % 6 == 5:  # a few have not paid yet
            continue
        day = dt.date(2015, 7, rng.randint(2, 9))
        if k % 6 == 4:  # paid in part, quoting the reference
            rows.append((day, f"{due / 2:,.2f}", d.unit_name, f"{payment_reference_of(d)} 部分报名费"))
        elif k % 7 == 3:  # no reference: matched by payer and amount
            rows.append((day, f"{due:,.2f}", d.unit_name, "报名费"))
        elif k % 11 == 2:  # a parent pays, memo without reference: for the accountant to match by hand
            rows.append((day, f"{due:,.2f}", rng.choice(SURNAMES) + rng.choice(GIVEN), f"{d.unit_name[:2]}报名费"))
        else:
            rows.append((day, f"{due:,.2f}", d.unit_name, f"{payment_reference_of(d)} 报名费"))
    rows.sort()
    # The file in fixtures/bank was written from a demo (DEMO_WRITE_STATEMENT=path); its
    # references are the demo's own (demo_reference), whatever ids the database gives.
    data = SEASON.read_bytes() if SEASON.exists() else _statement(rows)
    if os.environ.get("DEMO_WRITE_STATEMENT"):
        with open(os.environ["DEMO_WRITE_STATEMENT"], "wb") as f:
            f.write(_statement(rows))
    import_statement(games, data, SEASON.name, accountant, all_or_nothing=False)
    db.session.commit()
    _the_day_before_play(games, delegations, rng, organiser)
    echo(f"{SLUG}: {len(names)} delegations and the July bank statements (the season demo)")


def published_passwords() -> list[tuple[str, str]]:
    """(username, password) of this demo's account, as `make run` prints it."""
    return [(LEADER[0], LEADER[2])]
