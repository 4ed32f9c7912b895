"""A rule of any kind as a form: its parameters read off the kind's own model (so a new
kind has its form without a new template), each with its name in words, and the form's
values back into the rule's definition. Structured parameters (an officials rule's tiers)
are typed as a few lines of YAML beside an example."""
from __future__ import annotations

import datetime as dt
import types
import typing
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import yaml

from ..rules import definition as d
from ..rules.kind_names import RULE_KIND_NAMES
from ..rules.readback import OWNERSHIP, WHO
from ..text import InputProblems, Text
from ..upload_checks import load_yaml
from .labels import FIELDS

CHINA = dt.timezone(dt.timedelta(hours=8))

KIND_NAMES = RULE_KIND_NAMES
CHOICE_NAMES = {
    "M": ("男", "men"), "F": ("女", "women"), "X": ("混合", "mixed"), "entry": ("报名时", "with the entry"),
    "checkin": ("报到时", "at check-in"), "event": ("每个项目", "each event"), "team": ("每队", "each team"),
    "unit": ("整个单位", "the whole unit"), "all": ("全部队员", "all players"), "starters": ("上场队员", "starters"),
    "up": ("不足部分按 1 人计", "round up"), "down": ("不足部分不计", "round down"), "leader": ("领队", "leader"),
    "coach": ("教练", "coach"), "leader_coach": ("领队兼教练", "leader-coach"), **WHO, **OWNERSHIP,
    "names_closes": ("报名（姓名）截止之后", "after the names close"),
    "event_next_edition": ("下一届取消该单位该项目的参赛资格", "the unit loses that event at the next edition"),
    "warning": ("警告", "a warning"), "barred_next_edition": ("取消下一届参赛资格", "barred from the next edition"),
    "refused": ("不能报名", "refused"), "admitted": ("可以报名", "admitted"), "sport": ("每个大项", "each sport"),
    "staff": ("教职工", "staff"), "student": ("学生", "students"), "graduate": ("毕业生（校友）", "graduates"),
    "entrants": ("参赛人数（团体项目按队数）", "entrants (teams in a team event)"), "units": ("报名的单位数", "units entering"),
}
EXAMPLES = {
    "tiers": {"officials": "- {min_events: 6, leaders: 1, coaches: 1}\n- {min_events: 0, leader_coaches: 1}",
              "staff_ratio": "- {max_athletes: 30, head: 1, staff: 2}\n- {head: 1, deputy_head: 1, staff_per_athletes: 10}"},
    "board_gender": "4: F",
    "by_entrants": "- {min_entrants: 30, places: 12}\n- {min_entrants: 10, places: 8}\n- {min_entrants: 0, places: n-1}",
    "team": "{min_on_board: 3, table: [17, 11, 7, 4, 3, 2]}",
    "few_entrants": "{below: 6, places: 3, table: [7, 5, 3]}",
    "payee": "{name: 某某体育局, bank: 工商银行某某支行, account: '6222020302059638775'}",
    "max_teams_by_unit": "beijing: 3\ntianjin: 3\nhebei: 6", "max_by_unit": "beijing: 3\nhebei: 6",
    "max_by_gender": "M: 3\nF: 3", "placed_bonus": "{top: 3, extra: 1}",
}


# Lists of codes the engine compares, whose values a Games may extend (its document kinds,
# identity documents, kinds of unit): checkboxes of the Games' own values, never typed.
CHOSEN_FROM_THE_GAMES = ("documents", "types", "unit_kinds")
# One value chosen from the Games' own: a grade system, a rating list.
ONE_FROM_THE_GAMES = ("system", "list", "explanation")


def named_choices(definition) -> dict[str, dict[str, tuple[str, str]]]:
    """For each list chosen from the Games' own values: code -> (zh, en)."""
    from ..rules.checks.eligibility import UNIT_KIND_NAMES
    from ..rules.grades import grade_systems, rating_lists
    unit_kinds = dict(UNIT_KIND_NAMES) | {k.code: (k.name.zh, k.name.en) for k in definition.unit_kind_names}
    return {"documents": d.document_names(definition), "types": d.id_type_names(definition), "unit_kinds": unit_kinds,
            "system": {code: s.name for code, s in grade_systems(definition).items()},
            "list": rating_lists(definition), "explanation": d.document_names(definition)}


def with_choices(ps: list[Param], definition) -> list[Param]:
    """The params with the Games' own values as the choices of those chosen from them."""
    named = named_choices(definition)
    for p in ps:
        if p.name in named and p.widget in ("choices", "choice"):
            p.choices, p.choice_names = list(named[p.name]), named[p.name]
    return ps


ROW_FIELDS = {"count": ("第几次无故弃权", "forfeit number"), "sanction": ("处罚", "sanction"),
              "min_events": ("报项数不少于", "events entered, at least"), "leaders": ("领队", "leaders"),
              "coaches": ("教练", "coaches"), "leader_coaches": ("领队兼教练", "leader-coaches"),
              "max_athletes": ("运动员不超过（不限则空）", "athletes, at most (empty: any)"), "head": ("团长", "heads"),
              "deputy_head": ("副团长", "deputy heads"), "staff": ("工作人员", "staff"),
              "staff_per_athletes": ("每多少名运动员加 1 名工作人员", "one more staff per athletes"),
              "min_entrants": ("参赛人（队）数不少于", "entrants, at least"),
              "places": ("录取名次数（或 n-1）", "places (or n-1)"),
              "name": ("收款户名", "account name"), "bank": ("开户行", "bank"), "account": ("账号", "account number")}
ROWS = 12  # rows a table of tiers offers: those stored and the rest blank


def _row_model(a) -> bool:
    """A model all of whose fields are numbers (or "n-1") or choices: a row of a table."""
    if not (isinstance(a, type) and hasattr(a, "model_fields")):
        return False
    for f in a.model_fields.values():
        t = _strip_none(f.annotation)
        if t is not int and typing.get_origin(t) is not typing.Literal and not (
                typing.get_origin(t) in (typing.Union, types.UnionType) and int in typing.get_args(t)):
            return False
    return True


def _cell_choices(a) -> dict[str, list]:
    """The row's fields that are choices (a sanction of a forfeits step): field -> values."""
    return {name: list(typing.get_args(_strip_none(f.annotation))) for name, f in a.model_fields.items()
            if typing.get_origin(_strip_none(f.annotation)) is typing.Literal}


def _cell(text: str, label: tuple[str, str]):
    text = text.strip()
    if text.lower() == "n-1":
        return "n-1"
    try:
        return int(text)
    except ValueError:
        raise FormProblem("rows", f"{label[0]}应为整数，而不是“{text}”", f"{label[1]}: a whole number, not {text!r}") \
            from None


def rule_kinds() -> dict[str, type]:
    """kind -> its model, in the engine's order."""
    return {typing.get_args(c.model_fields["kind"].annotation)[0]: c for c in typing.get_args(typing.get_args(d.Rule)[0])}


@dataclass
class Param:
    name: str
    widget: str  # events, sport, sports, int, date, bool, choice, choices, gender_int, gender_event, text2, str, list, yaml
    label: tuple[str, str]
    choices: list[str] | None = None
    required: bool = False
    example: str | None = None
    choice_names: dict | None = None  # code -> (zh, en) of choices that are the Games' own
    columns: list | None = None  # rows: (field, (zh, en) label) of each row's cells
    cell_choices: dict | None = None  # rows: field -> its values, for the cells that are a choice


def _strip_none(annotation):
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return annotation


def params(kind: str) -> list[Param]:
    return params_of(rule_kinds()[kind], rules=True)


def params_of(model: type, rules: bool = False, skip: tuple[str, ...] = ()) -> list[Param]:
    """The form of any part of a definition, read off its model: a rule's kind, a fee, a
    room type, a contact, an award... (`rules`: a gender -> event mapping is a pair of
    event pickers, as a team's members' individual events are)."""
    out = []
    for name, field in model.model_fields.items():
        if name == "kind" or name in skip:
            continue
        a = _strip_none(field.annotation)
        origin, args = typing.get_origin(a), typing.get_args(a)
        # A field some model means otherwise than the others ("Fee.events") has its own words.
        label = FIELDS.get(f"{model.__name__}.{name}") or FIELDS.get(name, (name, name))
        p = Param(name, "str", label, required=field.is_required())
        if name in ("events", "requires"):
            p.widget = "events"
        elif name in CHOSEN_FROM_THE_GAMES:
            p.widget, p.choices = "choices", []  # the Games' own values: named_choices() fills them
        elif name in ONE_FROM_THE_GAMES and a is str:
            p.widget, p.choices = "choice", []
        elif name == "sport":
            p.widget = "sport"
        elif name == "sports":
            p.widget = "sports"
        elif a is int:
            p.widget = "int"
        elif a is Decimal:
            p.widget = "decimal"
        elif a is dt.date:
            p.widget = "date"
        elif a is dt.datetime:
            p.widget = "datetime"
        elif a is bool:
            p.widget = "bool"
        elif origin is typing.Literal:
            p.widget, p.choices = "choice", list(args)
        elif origin is list and args and typing.get_origin(args[0]) is typing.Literal:
            p.widget, p.choices = "choices", list(typing.get_args(args[0]))
        elif origin is dict and args and args[1] is int and typing.get_origin(args[0]) is typing.Literal:
            p.widget = "gender_int"
        elif rules and origin is dict and args and args[1] is str:
            p.widget = "gender_event"
        elif isinstance(a, type) and hasattr(a, "model_fields") and set(a.model_fields) != {"zh", "en"} and all(
                _strip_none(f.annotation) is str for f in a.model_fields.values()):
            # A small record of texts (the payee's name, bank, account): a field each.
            p.widget, p.columns = "fields", [(f, ROW_FIELDS.get(f, FIELDS.get(f, (f, f)))) for f in a.model_fields]
        elif origin is list and args and _row_model(args[0]):
            # Tiers and steps (officials by events, staff by athletes, places by entrants): a
            # table of rows, one input a field, never a YAML text (issue 37, 4).
            p.widget, p.columns = "rows", [(f, ROW_FIELDS.get(f, FIELDS.get(f, (f, f)))) for f in args[0].model_fields]
            p.cell_choices = _cell_choices(args[0])
        elif a is d.Text or (isinstance(a, type) and {"zh", "en"} == set(getattr(a, "model_fields", {}))):
            p.widget = "text2"
        elif origin is list and args and args[0] is str:
            p.widget = "list"
        elif origin is list and args and args[0] is Decimal:
            p.widget = "numbers"
        elif a is str:
            p.widget = "str"
        else:
            p.widget = "yaml"
            example = EXAMPLES.get(name)
            if isinstance(example, dict):  # by the rule's kind (or the model's name)
                kind_field = model.model_fields.get("kind")
                example = example.get(typing.get_args(kind_field.annotation)[0] if kind_field else model.__name__)
            p.example = example
        out.append(p)
    # What the rule says first, where it comes from last.
    return [p for p in out if p.name not in ("clause", "note")] + [p for p in out if p.name in ("clause", "note")]


class FormProblem(InputProblems):
    def __init__(self, name: str, zh: str, en: str):
        super().__init__([(name, Text(zh, en))], en)
        self.name, self.zh, self.en = name, zh, en


def read(kind: str, form, definition=None) -> dict:
    """The rule the form describes, as its definition (checked by the definition itself);
    with `definition`, a list chosen from the Games' own values takes only those."""
    ps = params(kind) if definition is None else with_choices(params(kind), definition)
    return {"kind": kind, **read_params(ps, form)}


def read_params(ps: list[Param], form) -> dict:
    """The values the form gives for `ps`, as the definition spells them."""
    rule: dict = {}
    for p in ps:
        key = f"p_{p.name}"
        if p.widget in ("events", "sports", "choices"):
            values = [v for v in form.getlist(key) if v]
            wrong = [v for v in values if p.widget == "choices" and p.choices and v not in p.choices]
            if wrong:  # a value typed or sent that the engine would never match: name the accepted ones
                names = p.choice_names or CHOICE_NAMES
                zh = "、".join(names.get(c, (c, c))[0] for c in p.choices)
                en = ", ".join(names.get(c, (c, c))[1] for c in p.choices)
                raise FormProblem(p.name, f"{p.label[0]}：“{wrong[0]}”不是可选的值；可选：{zh}",
                                  f"{p.label[1]}: {wrong[0]!r} is not one of the values: {en}")
            if values or p.required:
                rule[p.name] = values
        elif p.widget == "bool":
            rule[p.name] = form.get(key) == "on"
        elif p.widget in ("gender_int", "gender_event"):
            pair = {g: (form.get(f"{key}_{g}") or "").strip() for g in ("M", "F")}
            pair = {g: v for g, v in pair.items() if v}
            if pair:
                try:
                    rule[p.name] = {g: int(v) for g, v in pair.items()} if p.widget == "gender_int" else pair
                except ValueError:
                    raise FormProblem(p.name, f"{p.label[0]}应为整数", f"{p.label[1]} must be whole numbers") from None
        elif p.widget == "text2":
            zh, en = (form.get(f"{key}_zh") or "").strip(), (form.get(f"{key}_en") or "").strip()
            if zh or en:
                rule[p.name] = {"zh": zh, "en": en or zh}
        elif p.widget == "list":
            text = (form.get(key) or "").replace("，", ",").replace("、", ",")
            values = [v.strip() for v in text.split(",") if v.strip()]
            if values or p.required:
                rule[p.name] = values
        elif p.widget == "numbers":
            text = (form.get(key) or "").replace("，", ",").replace("、", ",")
            try:
                numbers = [str(Decimal(v.strip())) for v in text.split(",") if v.strip()]
            except InvalidOperation:
                raise FormProblem(p.name, f"{p.label[0]}应为数字，用顿号或逗号分隔", f"{p.label[1]}: numbers separated by commas") \
                    from None
            if numbers or p.required:
                rule[p.name] = numbers
        elif p.widget == "decimal":
            value = (form.get(key) or "").strip().replace(",", "").replace("，", "").removeprefix("¥").removesuffix("元")
            if value:
                try:
                    rule[p.name] = str(Decimal(value).quantize(Decimal("0.01")))
                except InvalidOperation:
                    raise FormProblem(p.name, f"{p.label[0]}应为数字，如 200 或 200.00",
                                      f"{p.label[1]}: an amount such as 200 or 200.00") from None
        elif p.widget == "datetime":
            day, hour = (form.get(f"{key}_day") or "").strip(), (form.get(f"{key}_hour") or "").strip()
            if day:
                try:
                    at = dt.datetime.combine(dt.date.fromisoformat(day), dt.time.fromisoformat(hour or "00:00"), CHINA)
                except ValueError:
                    raise FormProblem(p.name, f"{p.label[0]}：日期如 2027-05-31，时间如 19:30",
                                      f"{p.label[1]}: a date such as 2027-05-31 and an hour such as 19:30") from None
                rule[p.name] = at.isoformat()
        elif p.widget == "fields":
            record = {f: (form.get(f"{key}_{f}") or "").strip() for f, _label in p.columns}
            if any(record.values()):
                rule[p.name] = {f: v for f, v in record.items() if v}
        elif p.widget == "rows":
            rows = []
            for r in range(ROWS):
                cells = {f: (form.get(f"{key}_{r}_{f}") or "") for f, _label in p.columns}
                if any(v.strip() for v in cells.values()):
                    rows.append({f: v.strip() if f in (p.cell_choices or {}) else _cell(v, label)
                                 for (f, label), v in zip(p.columns, cells.values(), strict=True) if v.strip()})
            if rows or p.required:
                rule[p.name] = rows
        elif p.widget == "yaml":
            text = (form.get(key) or "").strip()
            if text:
                try:
                    rule[p.name] = load_yaml(text)
                except yaml.YAMLError:
                    raise FormProblem(p.name, f"{p.label[0]}的格式不对，请参照示例", f"{p.label[1]}: not in the example's form") \
                        from None
        else:
            value = (form.get(key) or "").strip()
            if value:
                rule[p.name] = value
    return rule


def prefilled(ps: list[Param], args) -> dict:
    """What a link from a proposal (rules/proposals.py) fills in a new form: p_<name> for
    each parameter, as typed, for the committee to read, correct and save."""
    out: dict = {}
    for p in ps:
        value = args.get(f"p_{p.name}")
        if value is None:
            continue
        value = value[:200]
        if p.widget == "text2":
            out[p.name] = {"zh": value, "en": (args.get(f"p_{p.name}_en") or value)[:200]}
        elif p.widget == "int":
            if value.isdigit():
                out[p.name] = int(value)
        else:
            out[p.name] = value
    return out


def values(rule: dict) -> dict:
    """A stored rule's parameters as the form shows them."""
    return values_of(params(rule["kind"]), rule)


def values_of(ps: list[Param], item: dict) -> dict:
    """A stored part's values as the form shows them."""
    out = {}
    for p in ps:
        v = item.get(p.name)
        if v is None:
            continue
        if p.widget == "yaml":
            out[p.name] = yaml.safe_dump(v, allow_unicode=True, default_flow_style=None, sort_keys=False).strip()
        elif p.widget in ("list", "numbers"):
            out[p.name] = "、".join(str(x) for x in v)
        elif p.widget == "datetime":
            at = (dt.datetime.fromisoformat(v) if isinstance(v, str) else v).astimezone(CHINA)
            out[p.name] = {"day": at.date().isoformat(), "hour": at.strftime("%H:%M")}
        else:
            out[p.name] = v
    return out
