"""The player across Games: grade, title and rating, residence and nationality, employment,
qualification by an earlier competition, required officials, and the entry window's opening."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ..check_context import CHINA, CheckContext, builtin_check, rule_check
from ..grades import NATIONALITIES, in_region, region_name
from ..idnumber import normalise
from ..violations import Violation
from .teams import own_unit

# Identity documents of PRC nationals (a resident of Hong Kong, Macao or Taiwan included).
PRC_DOCUMENTS = ("resident_id", "household_register", "hk_macau_permit", "taiwan_permit")
ROLE_NAMES = {"leader": ("领队", "leader"), "coach": ("教练", "coach"), "leader_coach": ("领队兼教练", "leader-coach")}
EMPLOYMENT_NAMES = {"staff": ("教职工", "staff"), "student": ("学生", "students"), "graduate": ("毕业生", "graduates")}


def _day(value: dt.date) -> tuple[str, str]:
    return f"{value.year}年{value.month}月{value.day}日", f"{value:%-d %B %Y}"


def _people_of(ctx: CheckContext, rule) -> list[tuple[str, str | None]]:
    """(person, event) pairs a rule with `events` (or, without, its `who`) applies to."""
    if getattr(rule, "events", None):
        return [(ref, event) for event in rule.events for ref in ctx.entrants.get(event, [])]
    return [(ref, None) for ref in ctx.who(getattr(rule, "who", "athletes"))]


def _where(ctx: CheckContext, event: str | None) -> tuple[str, str]:
    return (ctx.event_name(event), ctx.event_name(event, "en")) if event else (ctx.games.name.zh, ctx.games.name.en)


def _source(grade) -> tuple[str, str]:
    """Where a grade is known from, and since when: "（棋手档案：…，2024年8月1日授予）"."""
    zh, en = [], []
    if grade.source:
        zh.append(f"来源：{grade.source}")
        en.append(f"source: {grade.source.replace('棋手档案：', 'the player register, ')}")
    if grade.awarded_on:
        day = _day(grade.awarded_on)
        zh.append(f"{day[0]}授予")
        en.append(f"awarded {day[1]}")
    return ("（" + "，".join(zh) + "）", " (" + "; ".join(en) + ")") if zh else ("", "")


def grade_span(system, rule) -> tuple[str, str]:
    """What a grade rule admits, in words: "业余1级至业余5段", "尚未获得象棋大师称号"."""
    lo = (system.word(rule.lowest), system.word(rule.lowest, "en")) if rule.lowest else None
    hi = (system.word(rule.highest), system.word(rule.highest, "en")) if rule.highest else None
    parts_zh, parts_en = [], []
    if lo and hi:
        parts_zh.append(f"{lo[0]}至{hi[0]}")
        parts_en.append(f"{lo[1]} to {hi[1]}")
    elif lo:
        parts_zh.append(f"{lo[0]}及以上")
        parts_en.append(f"{lo[1]} or higher")
    elif hi:
        parts_zh.append(f"{hi[0]}及以下")
        parts_en.append(f"{hi[1]} or lower")
    if rule.below:
        parts_zh.append(f"尚未获得{system.word(rule.below)}")
        parts_en.append(f"not yet {system.word(rule.below, 'en')}")
    return "、".join(parts_zh), ", ".join(parts_en)


@rule_check("grade")
def grade(ctx: CheckContext, rule) -> list[Violation]:
    system = ctx.grade_systems[rule.system]
    lo = system.rank(rule.lowest) if rule.lowest else None
    hi = system.rank(rule.highest) if rule.highest else None
    ceiling = system.rank(rule.below) if rule.below else None
    span = grade_span(system, rule)
    held_on = ""
    if rule.held_on:
        day = _day(rule.held_on)
        held_on = (f"（以{day[0]}前获得的为准）", f" (as held on {day[1]})")
    if rule.awarded_by:
        bodies = "、".join(rule.awarded_by)
        held_on = (held_on[0] if held_on else "") + f"（只计{bodies}授予的）", \
            (held_on[1] if held_on else "") + f" (awarded by {', '.join(rule.awarded_by)} only)"
    refuses_ungraded = rule.ungraded == "refused" and lo is not None
    out = []
    for ref, event in _people_of(ctx, rule):
        p = ctx.people[ref]
        held = [g for g in p.grades if g.system == rule.system
                and (rule.held_on is None or (g.awarded_on is not None and g.awarded_on <= rule.held_on))
                and (not rule.awarded_by or any(body in (g.awarded_by or "") for body in rule.awarded_by))]
        ranked = sorted(((system.rank(g.grade), g) for g in held if system.rank(g.grade) is not None),
                        key=lambda x: x[0])
        where = _where(ctx, event)
        if not ranked:
            unknown = [g.grade for g in held if system.rank(g.grade) is None]
            if unknown:
                out.append(Violation(
                    "GRADE_NOT_ELIGIBLE",
                    f"{p.label} 的“{unknown[0]}”不是{system.name[0]}中的等级，请按“{system.ladder[0]}”“{system.ladder[-1]}”"
                    f"这样的写法填写。{where[0]}须{span[0]}。",
                    f"{p.label}'s “{unknown[0]}” is not a grade of the {system.name[1]}; write it as the federation "
                    f"does (“{system.ladder[0]}”, “{system.ladder[-1]}”). {where[1]} needs {span[1]}.",
                    event=event, people=(ref,)))
            elif refuses_ungraded:
                out.append(Violation(
                    "GRADE_NOT_ELIGIBLE",
                    f"{p.label} 没有{system.name[0]}的记录{held_on[0] if held_on else ''}，{where[0]}须{span[0]}。"
                    f"请填写其段级位或称号及授予日期。",
                    f"{p.label} holds no grade of the {system.name[1]}{held_on[1] if held_on else ''}; {where[1]} "
                    f"needs {span[1]}. Give the grade or title and the day it was awarded.",
                    event=event, people=(ref,)))
            continue
        rank, best = ranked[-1]
        if (lo is None or rank >= lo) and (hi is None or rank <= hi) and (ceiling is None or rank < ceiling):
            continue
        source = _source(best)
        out.append(Violation(
            "GRADE_NOT_ELIGIBLE",
            f"{p.label} 持有{system.word(best.grade)}{source[0]}，{where[0]}只限{span[0]}的选手{held_on[0] if held_on else ''}。",
            f"{p.label} holds {system.word(best.grade, 'en')}{source[1]}; {where[1]} is only for players of "
            f"{span[1]}{held_on[1] if held_on else ''}.",
            event=event, people=(ref,)))
    return out


def rating_band(rule) -> tuple[str, str]:
    if rule.min_rating is not None and rule.max_rating is not None:
        return f"{rule.min_rating} 至 {rule.max_rating} 分", f"{rule.min_rating} to {rule.max_rating}"
    if rule.min_rating is not None:
        return f"{rule.min_rating} 分及以上", f"{rule.min_rating} or more"
    return f"{rule.max_rating} 分及以下", f"{rule.max_rating} or less"


@rule_check("rating")
def rating(ctx: CheckContext, rule) -> list[Violation]:
    name = ctx.rating_lists.get(rule.list, (rule.list, rule.list))
    band = rating_band(rule)
    edition = ""
    if rule.list_on:
        day = _day(rule.list_on)
        edition = (f"（以{day[0]}公布的名单为准）", f" (the list of {day[1]})")
    out = []
    for ref, event in _people_of(ctx, rule):
        p = ctx.people[ref]
        held = [r for r in p.rating_on(rule.list)
                if rule.list_on is None or r.list_date is None or r.list_date <= rule.list_on]
        # The latest edition counts (the one in force on the rule's day).
        held.sort(key=lambda r: r.list_date or dt.date.min)
        where = _where(ctx, event)
        if not held:
            if rule.unrated == "refused":
                out.append(Violation(
                    "GRADE_NOT_ELIGIBLE",
                    f"{p.label} 没有{name[0]}{edition[0] if edition else ''}，{where[0]}须{name[0]}{band[0]}。",
                    f"{p.label} has no {name[1]}{edition[1] if edition else ''}; {where[1]} needs a {name[1]} of {band[1]}.",
                    event=event, people=(ref,)))
            continue
        value = held[-1].value
        if (rule.min_rating is None or value >= rule.min_rating) and (rule.max_rating is None or value <= rule.max_rating):
            continue
        out.append(Violation(
            "GRADE_NOT_ELIGIBLE",
            f"{p.label} 的{name[0]}为 {value}{edition[0] if edition else ''}，{where[0]}须{band[0]}。",
            f"{p.label}'s {name[1]} is {value}{edition[1] if edition else ''}; {where[1]} needs {band[1]}.",
            event=event, people=(ref,)))
    return out


@rule_check("residence")
def residence(ctx: CheckContext, rule) -> list[Violation]:
    regions = [region_name(code) for code in rule.regions]
    allowed = (rule.name.zh, rule.name.en) if rule.name else (
        "、".join(r[0] for r in regions), ", ".join(r[1] for r in regions))
    since = _day(rule.since_by) if rule.since_by else None
    out = []
    for ref, event in _people_of(ctx, rule):
        p = ctx.people[ref]
        where = _where(ctx, event)
        if not p.residence_region:
            zh, en = (f"没有填写户籍（常住地），{where[0]}只限{allowed[0]}的选手。",
                      f"gives no residence; {where[1]} is only for players of {allowed[1]}.")
        elif not in_region(p.residence_region, rule.regions):
            lives = region_name(p.residence_region)
            zh, en = (f"户籍（常住地）为{lives[0]}，{where[0]}只限{allowed[0]}的选手。",
                      f"lives in {lives[1]}; {where[1]} is only for players of {allowed[1]}.")
        elif since and (p.residence_since is None or p.residence_since > rule.since_by):
            given = _day(p.residence_since) if p.residence_since else None
            zh = (f"须于{since[0]}前落户（居住）于{allowed[0]}，"
                  + (f"现填写的日期为{given[0]}。" if given else "没有填写落户（居住）日期。"))
            en = (f"must have lived in {allowed[1]} since {since[1]} or earlier; "
                  + (f"the date given is {given[1]}." if given else "no date is given."))
        else:
            continue
        out.append(Violation("RESIDENCE_NOT_ELIGIBLE", f"{p.label} {zh}", f"{p.label} {en}", event=event, people=(ref,)))
    return out


@rule_check("nationality")
def nationality(ctx: CheckContext, rule) -> list[Violation]:
    allowed = [NATIONALITIES.get(c, (c, c)) for c in rule.nationalities]
    allowed_zh, allowed_en = "、".join(a[0] for a in allowed), ", ".join(a[1] for a in allowed)
    out = []
    for ref, event in _people_of(ctx, rule):
        p = ctx.people[ref]
        held = p.nationality or ("CHN" if p.id_type in PRC_DOCUMENTS else None)
        if held in rule.nationalities:
            continue
        where = _where(ctx, event)
        if held is None:
            zh, en = f"没有填写国籍，{where[0]}只限{allowed_zh}国籍的选手。", f"gives no nationality; {where[1]} is for nationals of {allowed_en} only."
        else:
            name = NATIONALITIES.get(held, (held, held))
            zh, en = (f"国籍为{name[0]}，{where[0]}只限{allowed_zh}国籍的选手。",
                      f"is a national of {name[1]}; {where[1]} is for nationals of {allowed_en} only.")
        out.append(Violation("RESIDENCE_NOT_ELIGIBLE", f"{p.label} {zh}", f"{p.label} {en}", event=event, people=(ref,)))
    return out


@rule_check("qualified")
def qualified(ctx: CheckContext, rule) -> list[Violation]:
    eligible = ctx.qualified_refs(rule.by)
    if eligible is None:  # judged alone: who qualified is the register's to say
        return []
    by = (rule.name.zh, rule.name.en) if rule.name else ("资格赛", "the qualifying competition")
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            p = ctx.people[ref]
            if ref in eligible:
                continue
            if not p.id_number:
                zh = f"{p.label} 没有填写证件号码，无法与{by[0]}的晋级名单核对；{ctx.event_name(event)}只限晋级选手参加。"
                en = (f"{p.label} has no identity number to be matched with the qualifiers of {by[1]}; "
                      f"{ctx.event_name(event, 'en')} is for qualified players only.")
            else:
                zh = f"{p.label} 不在{by[0]}的晋级名单中，不能报名{ctx.event_name(event)}。"
                en = f"{p.label} is not among the qualifiers of {by[1]}, and may not enter {ctx.event_name(event, 'en')}."
            out.append(Violation("NOT_QUALIFIED", zh, en, event=event, people=(ref,)))
    return out


@rule_check("points")
def points(ctx: CheckContext, rule) -> list[Violation]:
    """A band of a federation's points, on the register's totals (a player it does not know
    holds none: refused where points are needed, admitted where too many bar)."""
    name = rule.name.zh, rule.name.en
    need = []
    if rule.min_points is not None:
        need.append((f"{_amount(rule.min_points)}分以上", f"at least {_amount(rule.min_points)}"))
    if rule.below_points is not None:
        need.append((f"未满{_amount(rule.below_points)}分", f"fewer than {_amount(rule.below_points)}"))
    band = "、".join(x[0] for x in need), " and ".join(x[1] for x in need)
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            p = ctx.people[ref]
            held = p.points.get(rule.points, Decimal(0))
            if (rule.min_points is None or held >= rule.min_points) and (rule.below_points is None or held < rule.below_points):
                continue
            has = (f"棋手档案中{name[0]}共 {_amount(held)} 分", f"holds {_amount(held)} {name[1]} in the player register") \
                if held else (f"棋手档案中没有{name[0]}", f"holds no {name[1]} in the player register")
            out.append(Violation(
                "GRADE_NOT_ELIGIBLE",
                f"{p.label} {has[0]}；{ctx.event_name(event)}须{name[0]}{band[0]}。",
                f"{p.label} {has[1]}; {ctx.event_name(event, 'en')} needs {band[1]} {name[1]}.",
                event=event, people=(ref,)))
    return out


def _amount(value: Decimal) -> str:
    return f"{value.normalize():f}"


@rule_check("placed_before")
def placed_before(ctx: CheckContext, rule) -> list[Violation]:
    """Earlier placers kept out of an event. Only the register's places count, matched as its
    grades are (number, name and a unit the player represented): a document judged alone
    knows none, and a stranger's number tells nothing."""
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            p = ctx.people[ref]
            held = sorted((x for x in p.places if rule.bars(x)), key=lambda x: (x.place, -x.edition))
            if not held:
                continue
            best = held[0]
            words = rule.name.zh, rule.name.en
            out.append(Violation(
                "GRADE_NOT_ELIGIBLE",
                f"{p.label} 曾获{best.source[0]}（棋手档案）；{words[0]}不得参加{ctx.event_name(event)}，请改报其他项目或组别。",
                f"{p.label} took {best.source[1]} (player register); {words[1]} may not enter "
                f"{ctx.event_name(event, 'en')}: enter another event or group.",
                event=event, people=(ref,)))
    return out


def _officials_of(ctx: CheckContext, roles: list[str]):
    wanted = set(roles)
    return [o for o in ctx.delegation.officials
            if o.role in wanted or (o.role == "leader_coach" and wanted & {"leader", "coach"})]


def _roles_text(roles: list[str]) -> tuple[str, str]:
    return "或".join(ROLE_NAMES[r][0] for r in roles), " or ".join(ROLE_NAMES[r][1] for r in roles)


@rule_check("officials_required")
def officials_required(ctx: CheckContext, rule) -> list[Violation]:
    if not ctx.athletes:
        return []
    officials = _officials_of(ctx, rule.roles)
    roles = _roles_text(rule.roles)
    out = []
    if rule.per == "unit":
        if len(officials) < rule.count:
            out.append(Violation(
                "OFFICIAL_REQUIRED",
                f"每单位须报{roles[0]} {rule.count} 名，现报了 {len(officials)} 名。",
                f"Each unit names {rule.count} {roles[1]}{'s' if rule.count != 1 else ''}; {len(officials)} named."))
    elif rule.per == "team":
        events = rule.events or [e.code for e in ctx.games.events if e.is_team]
        teams = [e for code in events for e in ctx.entries_by_event.get(code, [])]
        if len(officials) < rule.count * len(teams):
            out.append(Violation(
                "OFFICIAL_REQUIRED",
                f"每队须报{roles[0]} {rule.count} 名：本单位报了 {len(teams)} 支队，须 {rule.count * len(teams)} 名，"
                f"现报了 {len(officials)} 名。",
                f"Each team names {rule.count} {roles[1]}{'s' if rule.count != 1 else ''}: {len(teams)} "
                f"team{'s' if len(teams) != 1 else ''} need {rule.count * len(teams)}; {len(officials)} named."))
    else:
        sports = []
        for ref in ctx.athletes:
            for code in ctx.events_of[ref]:
                if ctx.events[code].sport not in sports:
                    sports.append(ctx.events[code].sport)
        for sport in sports:
            mine = [o for o in officials if o.sport == sport]
            if len(mine) < rule.count:
                s = next(x for x in ctx.games.sports if x.code == sport)
                out.append(Violation(
                    "OFFICIAL_REQUIRED",
                    f"{s.name.zh}须报{roles[0]} {rule.count} 名，现报了 {len(mine)} 名。",
                    f"{s.name.en} needs {rule.count} {roles[1]}{'s' if rule.count != 1 else ''}; {len(mine)} named."))
    if rule.employed_as:
        kinds = ("或".join(EMPLOYMENT_NAMES[k][0] for k in rule.employed_as),
                 " or ".join(EMPLOYMENT_NAMES[k][1] for k in rule.employed_as))
        for o in officials:
            p = ctx.people[o.person]
            if p.employment_kind in rule.employed_as and own_unit(ctx, p.employment_unit):
                continue
            role = ROLE_NAMES[o.role]
            out.append(Violation(
                "OFFICIAL_REQUIRED",
                f"{role[0]} {p.label} 须为本单位的{kinds[0]}" + ("，没有填写工作单位和身份。" if not p.employment_kind else "。"),
                f"The {role[1]} {p.label} must be {kinds[1]} of the unit"
                + ("; no employment is given." if not p.employment_kind else "."),
                people=(o.person,)))
    return out


def _years_before(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def employment_admits(ctx: CheckContext, rule, ref: str) -> tuple[str, str] | None:
    """None when the athlete is the unit's own as the rule allows; else why not."""
    p = ctx.people[ref]
    kind = p.employment_kind or ("student" if p.has_university else None)
    if kind is None:
        return "没有填写与本单位的关系（学生、教职工或毕业生）", "gives no tie to the unit (student, staff or graduate)"
    if kind not in rule.kinds:
        return f"身份为{EMPLOYMENT_NAMES[kind][0]}", f"is one of its {EMPLOYMENT_NAMES[kind][1]}"
    if p.employment_unit and not own_unit(ctx, p.employment_unit):
        return f"所在单位为{p.employment_unit}，不是本单位", f"belongs to {p.employment_unit}, not to the unit"
    if kind in ("staff", "graduate") and not p.employment_unit:
        return "没有填写所在单位", "gives no unit"
    if kind == "graduate" and rule.graduated_within_years:
        earliest = _years_before(ctx.games.dates.start, rule.graduated_within_years)
        if p.employment_since is None:
            return "没有填写毕业日期", "gives no graduation date"
        if p.employment_since < earliest:
            day = _day(p.employment_since)
            return (f"毕业于{day[0]}，已超过 {rule.graduated_within_years} 年",
                    f"graduated on {day[1]}, more than {rule.graduated_within_years} years ago")
    return None


@rule_check("employment")
def employment(ctx: CheckContext, rule) -> list[Violation]:
    kinds = ("、".join(EMPLOYMENT_NAMES[k][0] for k in rule.kinds), ", ".join(EMPLOYMENT_NAMES[k][1] for k in rule.kinds))
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            why = employment_admits(ctx, rule, ref)
            if why is None:
                continue
            label = ctx.people[ref].label
            out.append(Violation(
                "UNIVERSITY_INELIGIBLE",
                f"{label} {why[0]}；{ctx.event_name(event)}只限本单位的{kinds[0]}参加。",
                f"{label} {why[1]}; {ctx.event_name(event, 'en')} is only for the unit's own {kinds[1]}.",
                event=event, people=(ref,)))
    return out


@builtin_check
def players_barred(ctx: CheckContext) -> list[Violation]:
    """A player the series barred for his forfeits (the register's ladder) may not enter."""
    if not ctx.barred_people:
        return []
    out = []
    for ref in ctx.athletes:
        p = ctx.people[ref]
        why = ctx.barred_people.get(normalise(p.id_number)) if p.id_number else None
        if why:
            out.append(Violation(
                "SANCTIONED",
                f"{p.label} {why[0]}，取消{ctx.games.name.zh}的参赛资格。",
                f"{p.label} may not enter {ctx.games.name.en}: {why[1]}.", people=(ref,)))
    return out


@builtin_check
def entries_open(ctx: CheckContext) -> list[Violation]:
    opens = ctx.games.stages.entries_open
    if opens is None or ctx.at >= opens or not (ctx.delegation.entries or ctx.delegation.declarations):
        return []
    shown = f"{opens.astimezone(CHINA):%Y-%m-%d %H:%M}"  # an opening instant as typed, never "24:00"
    return [Violation(
        "ENTRY_NOT_OPEN",
        f"{ctx.games.name.zh}的报名于 {shown}（北京时间）开始，此前不能提交。",
        f"Entries for {ctx.games.name.en} open at {shown} China time; nothing can be submitted before.")]

