"""What the set-up page proposes from the regulation's text (rules/proposals.py), each
proposal with whether the definition already says it and how the committee takes it: a
date or deadline accepted as it is (shown first, saved as any section is), a rule, a fee
or a place count opened in its form, filled in, for the committee to complete and save."""
from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass
from urllib.parse import urlencode

from ..rules.proposals import Proposal, holds, propose
from ..rules.readback import day_in_words, deadline_in_words

# Accepted as they are: the section of the definition each sets.
DIRECT = {"dates": "basics", "report": "basics", "capacity": "participation", "declaration_closes": "stages", "names_closes": "stages",
          "substitutions_closes": "stages"}
FEE_NAMES = {"报名费": "Entry fee", "参赛费": "Entry fee", "保证金": "Deposit", "手续费": "Change fee",
             "仲裁费": "Appeal fee", "申诉费": "Appeal fee", "食宿费": "Board and lodging", "服务费": "Service fee"}


@dataclass
class Shown:
    proposal: Proposal
    held: bool  # the definition already says it
    zh: str
    en: str
    link: str | None = None  # the form it opens in, filled in (rules, fees, places)


def _day(iso: str) -> tuple[str, str]:
    return day_in_words(dt.date.fromisoformat(iso))


def _instant(iso: str) -> tuple[str, str]:
    """A closing instant as the read-back says it ("8月31日 24:00（北京时间）")."""
    return deadline_in_words(dt.datetime.fromisoformat(iso))


def _words(p: Proposal) -> tuple[str, str]:
    v = p.values
    if p.kind == "dates":
        a, b = _day(v["start"]), _day(v["end"])
        return f"比赛日期：{a[0]} 至 {b[0]}", f"Play: {a[1]} to {b[1]}"
    if p.kind == "report":
        a = _day(v["report"])
        return f"报到日期：{a[0]}", f"Arrival: {a[1]}"
    if p.kind == "capacity":
        return f"名额上限：{v['capacity']} 人（先报先得）", f"Places: {v['capacity']} (first come, first served)"
    if p.kind in ("declaration_closes", "names_closes", "substitutions_closes"):
        what = {"declaration_closes": ("报项截止", "Declaration closes"), "names_closes": ("报名（姓名）截止", "Names close"),
                "substitutions_closes": ("更换人员截止", "Substitutions close")}[p.kind]
        a = _instant(v["at"])
        return f"{what[0]}：{a[0]}", f"{what[1]}: {a[1]}"
    if p.kind == "age_bracket":
        lo = _day(v["born_from"]) if v.get("born_from") else None
        hi = _day(v["born_to"]) if v.get("born_to") else None
        if lo and hi:
            return f"年龄组：{lo[0]} 至 {hi[0]} 出生", f"Age group: born {lo[1]} to {hi[1]}"
        if lo:
            return f"年龄组：{lo[0]}（含）以后出生", f"Age group: born on or after {lo[1]}"
        return f"年龄组：{hi[0]}（含）以前出生", f"Age group: born on or before {hi[1]}"
    if p.kind == "fee":
        per = {"athlete": ("每名运动员", "per athlete"), "individual_entry": ("每人每项", "per athlete per event"),
               "late_athlete": ("逾期报名的每名运动员", "per athlete entered late"),
               "team_entry": ("每支参赛队", "per team entered"),
               "person_changed": ("每更换一人", "per person changed"), "appeal": ("每次申诉", "per appeal"),
               "entrant": ("每名参赛者", "per entrant"), "participant_day": ("每人每天", "per person a day")}[v["per"]]
        return f"{v['name']}：{per[0]} {v['amount']} 元", f"{FEE_NAMES.get(v['name'], v['name'])}: ¥{v['amount']} {per[1]}"
    if p.kind == "quota" and v.get("per") == "unit":
        return f"每单位运动员合计限报 {v['max']} 人", f"At most {v['max']} athletes per unit in all events together"
    if p.kind == "quota":
        return f"每单位限报 {v['max']} 人（请选择项目）", f"At most {v['max']} entrants per unit (choose the events)"
    if p.kind == "documents_by_age":
        if v.get("under_age"):
            return (f"未满 {v['under_age']} 周岁者须交的材料（请选择材料）",
                    f"Documents from those under {v['under_age']} (choose the documents)")
        return (f"{v['min_age']} 周岁及以上者须交的材料（请选择材料）",
                f"Documents from those {v['min_age']} or older (choose the documents)")
    if p.kind == "events_per_player":
        if v["max_events"] == 1:
            return "每名选手只能报一项（请选择项目）", "A player enters one event (choose the events)"
        return (f"每名选手最多报 {v['max_events']} 项（请选择项目）",
                f"A player enters at most {v['max_events']} events (choose the events)")
    if p.kind == "points":
        if v.get("below_points"):
            return (f"{v['name']}满 {v['below_points']} 分者不得参加（请选择项目和积分种类）",
                    f"Players with {v['below_points']} points or more may not enter (choose the events and the points)")
        return (f"{v['name']} {v['min_points']} 分以上方可报名（请选择项目和积分种类）",
                f"Only players with {v['min_points']} points or more (choose the events and the points)")
    if p.kind == "event_minimum":
        what = (f"报名单位不足 {v['min']} 个", f"fewer than {v['min']} units") if v["count"] == "units" else \
            (f"报名不足 {v['min']} 人（队）", f"fewer than {v['min']} entrants")
        return (f"{what[0]}的项目不设比赛（请选择项目）", f"An event with {what[1]} is not played (choose the events)")
    if p.kind == "placed_before":
        return (f"{v['name']}不得参加（请选择项目和往届赛事）",
                f"Players placed in the first {v['top']} before may not enter (choose the events and earlier Games)")
    if p.kind == "team_size":
        n = f"{v['min']}" if v["min"] == v["max"] else f"{v['min']} 至 {v['max']}"
        return f"每队 {n} 人（请选择项目）", f"Teams of {n.replace(' 至 ', ' to ')} (choose the events)"
    return f"录取前 {v['places']} 名", f"The first {v['places']} placed"


def _link(slug: str, p: Proposal) -> str | None:
    v, clause = p.values, {"p_clause": p.ref} if p.ref else {}
    if p.kind == "age_bracket":
        query = {"kind": "age_bracket", **{f"p_{k}": x for k, x in v.items()}, **clause}
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(query)
    if p.kind == "quota":
        per = {"p_per": v["per"]} if v.get("per") else {}
        return f"/org/games/{slug}/setup/rules/new?" + urlencode({"kind": "quota", "p_max": v["max"], **per, **clause})
    if p.kind == "documents_by_age":
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "documents", **{f"p_{k}": x for k, x in v.items()}, **clause})
    if p.kind == "events_per_player":
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "one_of", "p_max_events": v["max_events"], **clause})
    if p.kind == "points":
        band = {f"p_{k}": v[k] for k in ("min_points", "below_points") if v.get(k)}
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "points", "p_name": v["name"], "p_name_en": "federation points", **band, **clause})
    if p.kind == "event_minimum":
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "event_minimum", "p_min": v["min"], "p_count": v["count"], **clause})
    if p.kind == "placed_before":
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "placed_before", "p_top": v["top"], "p_name": v["name"],
             "p_name_en": f"players placed in the first {v['top']} before", **clause})
    if p.kind == "team_size":
        return f"/org/games/{slug}/setup/rules/new?" + urlencode(
            {"kind": "team_size", "p_min": v["min"], "p_max": v["max"], **clause})
    if p.kind == "fee":
        code = {"person_changed": "change", "appeal": "appeal", "entrant": "deposit"}.get(v["per"], "entry")
        return f"/org/games/{slug}/setup/list/fees/new?" + urlencode(
            {"p_code": code, "p_name": v["name"], "p_name_en": FEE_NAMES.get(v["name"], v["name"]),
             "p_amount": v["amount"], "p_per": v["per"]})
    if p.kind == "places":
        return f"/org/games/{slug}/setup/list/awards/new?" + urlencode({"kind": "places", "p_places": v["places"], **clause})
    return None


def shown(games, definition) -> list[Shown]:
    """The proposals of the Games' regulation text, each with whether it is already set."""
    out = []
    for p in propose(games.regulation_text or ""):
        zh, en = _words(p)
        out.append(Shown(p, holds(definition, p), zh, en, None if p.kind in DIRECT else _link(games.slug, p)))
    return out


def accepted(data: dict, p: Proposal) -> tuple[dict, str]:
    """The definition (as stored) with a date, deadline or cap proposal taken, and its section."""
    data = copy.deepcopy(data)
    v = p.values
    if p.kind == "dates":
        data.setdefault("dates", {}).update(start=v["start"], end=v["end"])
    elif p.kind == "report":
        data.setdefault("dates", {})["report"] = v["report"]
    elif p.kind == "capacity":
        data["capacity"] = v["capacity"]
    else:
        data.setdefault("stages", {})[p.kind] = v["at"]
    return data, DIRECT[p.kind]


def find(games, key: str) -> Proposal | None:
    return next((p for p in propose(games.regulation_text or "") if p.key == key), None)
