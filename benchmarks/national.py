"""A synthetic national Games: nmsg-2009 with every unit of units.yaml (43), realistic sizes,
valid and unique ID numbers, individual and team entries across six sports, officials
and delegation staff. Shared by the national benchmark, the gunicorn soak run and the
CI-sized tests.

    from benchmarks.national import documents, load
    docs = documents(units=43, sizes=[30, 150], big=[1000, 2000])
"""
from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import yaml

from portal.config import FIXTURES
from portal.rules.idnumber import make

GAMES = "nmsg-2009"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏辉宇浩凯晨思雨欣怡佳琪子涵梓轩"


def _definition() -> dict:
    return yaml.safe_load((FIXTURES / "games" / f"{GAMES}.yaml").read_text(encoding="utf-8"))


def unit_codes(kinds=("province", "city", "xpcc", "industry")) -> list[str]:
    data = yaml.safe_load((FIXTURES / "units.yaml").read_text(encoding="utf-8"))
    return [u["code"] for u in data["units"] if u["kind"] in kinds]


def delegation_document(unit: str, unit_index: int, n_people: int, lacking_documents: int = 0) -> dict:
    """About 85% athletes; the rest officials and delegation staff. Everyone holds a
    valid resident ID (area code by unit), unique within the Games. `lacking_documents`:
    one person in this many has not yet handed in his insurance proof (a warning each,
    as real delegations carry before check-in; 0: everyone has)."""
    definition = _definition()
    events = definition["events"]
    area = f"{110000 + unit_index * 100 + 1:06d}"
    n_staff = max(3, n_people // 8)
    n_athletes = n_people - n_staff
    people, entries, by_event = [], [], {}
    names = itertools.product(SURNAMES, GIVEN, GIVEN)
    for k in range(n_people):
        gender = "M" if k % 2 == 0 else "F"
        born = dt.date(1960, 1, 1) + dt.timedelta(days=k // 400 * 7 + unit_index)
        seq = (k % 400) * 2 + (1 if gender == "M" else 0)
        s, g1, g2 = next(names)
        people.append({"ref": f"p{k + 1}", "name": s + g1 + g2, "gender": gender, "birth_date": born.isoformat(),
                       "id_type": "resident_id", "id_number": make(area, born, seq),
                       "registration": {"unit": unit, "year": 2009},
                       "documents": [] if lacking_documents and k % lacking_documents == lacking_documents - 1
                       else ["insurance_proof"]})
    # Athletes: gomoku within its quotas and one mixed team; the rest spread over the
    # other sports' events, teams of four.
    athletes = people[:n_athletes]
    men = [p["ref"] for p in athletes if p["gender"] == "M"]
    women = [p["ref"] for p in athletes if p["gender"] == "F"]
    gomoku_m, gomoku_w = men[:4], women[:4]
    entries.append({"event": "gomoku.MI", "people": gomoku_m})
    entries.append({"event": "gomoku.WI", "people": gomoku_w})
    entries.append({"event": "gomoku.XT", "team": "A", "lineup": [{"person": r, "board": b} for b, r in
                                                               enumerate(gomoku_m[:3] + gomoku_w[:1], start=1)]})
    rest_m, rest_w = men[4:], women[4:]
    others = [e for e in events if e["sport"] != "gomoku"]
    for i, ref in enumerate(rest_m + rest_w):
        gender = "M" if ref in set(rest_m) else "F"
        fitting = [e for e in others if e["gender"] in (gender, "X")]
        by_event.setdefault(fitting[i % len(fitting)]["code"], []).append(ref)
    kinds = {e["code"]: e["kind"] for e in events}
    for code, refs in by_event.items():
        if kinds[code] == "team":
            for t, start in enumerate(range(0, len(refs), 4)):
                entries.append({"event": code, "team": chr(65 + t % 26) + (str(t // 26) if t >= 26 else ""),
                                "lineup": [{"person": r, "board": b} for b, r in enumerate(refs[start:start + 4], 1)]})
        else:
            entries.append({"event": code, "people": refs})
    staff_people = people[n_athletes:]
    officials = [{"person": staff_people[0]["ref"], "role": "leader", "sport": "gomoku"},
                 {"person": staff_people[1]["ref"], "role": "coach", "sport": "gomoku"}]
    staff = [{"person": staff_people[2]["ref"], "role": "head"}] + \
            [{"person": p["ref"], "role": "staff"} for p in staff_people[3:]]
    declared = {}
    for e in entries:
        declared[e["event"]] = declared.get(e["event"], 0) + len(e.get("people") or e.get("lineup") or [])
    return {"format": "delegation/1", "games": GAMES, "unit": unit,
            "declarations": [{"event": c, "count": n} for c, n in declared.items()],
            "people": people, "entries": entries, "officials": officials, "staff": staff, "companions": []}


def documents(units: int = 43, sizes=(30, 150), big=(), lacking_documents: int = 4) -> list[dict]:
    """`units` delegations sized evenly between sizes[0] and sizes[1] people, the first
    ones replaced by the `big` sizes (e.g. 1,000 and 2,000 people); as real delegations
    are on deadline night, one person in four still lacks a document (a 2,000-person
    delegation carries 500 warnings) and the staff exceed their allowance."""
    codes = unit_codes()[:units]
    lo, hi = sizes
    out = []
    for i, code in enumerate(codes):
        n = big[i] if i < len(big) else lo + (hi - lo) * i // max(1, len(codes) - 1)
        out.append(delegation_document(code, i, n, lacking_documents))
    return out


RECEIVED = dt.datetime(2009, 8, 20, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def load(docs: list[dict], received_at: dt.datetime = RECEIVED, submit_every: int = 2) -> list:
    """Store the documents as the organisers' bulk import would (needs an app context):
    every `submit_every`-th delegation submitted, the others left as drafts."""
    from portal.audit.services import Actor
    from portal.delegations.saving import new_delegation, save
    from portal.games.services import find_or_load_games
    from portal.workflow.services import import_document
    games = find_or_load_games(GAMES)
    actor = Actor("benchmark")
    out = []
    for i, document in enumerate(docs):
        if i % submit_every == 0:
            outcome = import_document(games, document, received_at, actor)
        else:
            outcome = save(new_delegation(games, document["unit"]), document, actor, received_at)
        out.append(outcome)
    return out


ROOT = Path(__file__).resolve().parent.parent
