"""The parts of a definition that are lists or single settings, each edited in a form read
off its model like a rule (rule_form.py): fees, room types, who must stay, contacts, kinds
of document, awards (typed kinds, like rules), and the money settings and the leaders'
meeting. No YAML for a committee's staff."""
from __future__ import annotations

import typing
from dataclasses import dataclass

from ..rules import definition as d
from ..rules.awards import Award
from ..rules.kind_names import AWARD_KIND_NAMES
from .rule_form import Param, params_of

CHOICE_NAMES = {
    "athlete": ("每名运动员", "per athlete"), "individual_entry": ("每人每项", "per athlete per event"),
    "late_athlete": ("逾期报名的每名运动员", "per athlete entered late"), "team_group": ("每个团体组别", "per team group"), "team_entry": ("每支参赛队", "per team entered"),
    "person_changed": ("每更换一人", "per person changed"), "entrant": ("每名参赛者", "per entrant"),
    "appeal": ("每次申诉", "per appeal"), "delegation": ("每个代表团", "per delegation"),
    "participant_day": ("每人每天", "per person a day"), "never": ("不退", "never"),
    "after_checkin": ("报到后退还", "after check-in"), "if_upheld": ("申诉成立退还", "if the appeal is upheld"),
    "after_event": ("比赛结束后退还", "after play"), "withdrawal": ("退赛", "a withdrawal"),
    "unfinished": ("未下完全部轮次", "not finishing every round"), "misconduct": ("违反赛风赛纪", "misconduct"),
    "person_night": ("每人每晚", "per person a night"), "room_night": ("每间每晚", "per room a night"),
    "delegation_head": ("团长", "head of delegation"), "athletes": ("运动员", "athletes"),
    "all": ("全体人员", "everyone"), "team": ("运动队", "the teams"),
    "opening": ("开幕", "the opening"), "event_start": ("项目开赛", "the event's start"),
    "competition_start": ("比赛开始", "the first day of play"), "closing": ("闭幕", "the closing"),
    "event_end": ("项目结束", "the event's end"), "competition_end": ("比赛结束", "the last day of play"),
    "CNY": ("人民币", "CNY"), "organiser_buys": ("组委会统一购买", "the committee buys it"),
    "each_participant": ("各单位自行购买", "each participant's own"), "none": ("不要求", "not required"),
    "individual": ("个人项目", "individual events"), "club": ("俱乐部", "club"), "points": ("积分", "points"),
    "places": ("名次", "places"), "individual_places": ("个人名次", "individual places"),
    "gender_place": ("按性别名次", "place by gender"),
}
AWARD_NAMES = AWARD_KIND_NAMES


def award_kinds() -> dict[str, type]:
    return {typing.get_args(c.model_fields["kind"].annotation)[0]: c for c in typing.get_args(typing.get_args(Award)[0])}


@dataclass(frozen=True)
class ListPart:
    path: tuple[str, ...]       # where the list is in the definition
    model: type | None          # None: typed kinds (awards)
    label: tuple[str, str]
    item: tuple[str, str]       # what one of them is called

    def params(self, kind: str | None = None) -> list[Param]:
        model = self.model or award_kinds()[kind]
        return params_of(model)


LISTS = {
    "fees": ListPart(("money", "fees"), d.Fee, ("费用项目", "Fees"), ("费用", "fee")),
    "rooms": ListPart(("rooms",), d.RoomType, ("房型和价格", "Room types and rates"), ("房型", "room type")),
    "stay": ListPart(("stay",), d.StayRule, ("住宿期限", "Who stays when"), ("住宿期限", "stay rule")),
    "contacts": ListPart(("contacts",), d.Contact, ("联系方式", "Contacts"), ("联系人", "contact")),
    "document_kinds": ListPart(("document_kinds",), d.DocumentKindDef, ("本届另需的材料", "Documents this regulation adds"),
                               ("材料", "document")),
    "awards": ListPart(("awards",), None, ("录取与奖励", "Awards"), ("奖励", "award")),
}
# Single settings: (where, model, label, fields left to their own forms).
OBJECTS = {
    "money": (("money",), d.Money, ("收费设置", "Money settings"), ("fees",)),
    "meeting": (("leaders_meeting",), d.LeadersMeeting, ("领队会议", "Leaders' meeting"), ()),
    "sanctions": (("sanctions",), d.Sanctions, ("无故退出的处罚", "Sanctions for unexcused withdrawals"), ()),
}
# What the YAML box still holds: the rarely used rest.
REST_KEYS = ("rooms_required_for", "id_types", "unit_kind_names", "competition", "sanctions", "companions_per_athlete")


def get_in(data: dict, path: tuple[str, ...], default=None):
    for key in path[:-1]:
        data = data.get(key) or {}
    return data.get(path[-1], default)


def set_in(data: dict, path: tuple[str, ...], value) -> None:
    for key in path[:-1]:
        data = data.setdefault(key, {})
    if value is None:
        data.pop(path[-1], None)
    else:
        data[path[-1]] = value


def _text(value) -> tuple[str, str]:
    if isinstance(value, dict):
        return value.get("zh") or "", value.get("en") or value.get("zh") or ""
    return (str(value), str(value)) if value is not None else ("", "")


def _line(part: str, item: dict, events: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """One item as the list on the set-up page shows it, in words (`events`: code -> names)."""
    pick = lambda code: CHOICE_NAMES.get(code, (code, code))
    if part == "fees":
        zh, en = _text(item.get("name"))
        per = pick(item.get("per"))
        named = [events.get(c, (c, c)) for c in item.get("events") or []]
        if named:  # charged for these events only
            per = (f"{per[0]}：{'、'.join(x[0] for x in named)}", f"{per[1]}: {', '.join(x[1] for x in named)}")
        return f"{zh} {item.get('amount')} 元（{per[0]}）", f"{en} CNY {item.get('amount')} ({per[1]})"
    if part == "rooms":
        zh, en = _text(item.get("name"))
        per = pick(item.get("per") or "person_night")
        return f"{item.get('hotel', '')} {zh} {item.get('rate')} 元（{per[0]}）", f"{item.get('hotel', '')} {en} CNY {item.get('rate')} ({per[1]})"
    if part == "contacts":
        zh, en = _text(item.get("role"))
        rest = " ".join(str(item[k]) for k in ("name", "phone", "email") if item.get(k))
        return f"{zh}：{rest}", f"{en}: {rest}"
    if part == "awards":
        zh, en = AWARD_NAMES.get(item.get("kind"), (item.get("kind"), item.get("kind")))
        clause = f"（{item['clause']}）" if item.get("clause") else ""
        return f"{zh}{clause}", f"{en}{' (' + item['clause'] + ')' if item.get('clause') else ''}"
    if part == "stay":
        who = pick(item.get("who"))
        return f"{who[0]}：提前 {item.get('arrive_days_before')} 天报到", f"{who[1]}: arrive {item.get('arrive_days_before')} days before"
    return _text(item.get("name"))


def listed(definition: dict) -> list[dict]:
    """Each list part with its items in words, for the set-up page."""
    out = []
    sports = {s.get("code"): _text(s.get("name")) for s in definition.get("sports") or [] if isinstance(s, dict)}
    events = {e.get("code"): (sports.get(e.get("sport"), ("", ""))[0] + _text(e.get("name"))[0],
                              " ".join(x for x in (sports.get(e.get("sport"), ("", ""))[1], _text(e.get("name"))[1]) if x))
              for e in definition.get("events") or [] if isinstance(e, dict)}
    for key, spec in LISTS.items():
        entries = get_in(definition, spec.path) or []
        out.append({"key": key, "label": spec.label, "item": spec.item,
                    "entries": [(i, _line(key, x, events)) for i, x in enumerate(entries)],
                    "kinds": AWARD_NAMES if spec.model is None else None})
    return out
