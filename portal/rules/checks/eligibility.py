"""Who may take part: unit kinds, athlete registration, university eligibility."""
from __future__ import annotations

from ..check_context import CheckContext, builtin_check, rule_check
from ..definition import EmploymentRule, JointTeamRule
from ..violations import Violation, schema_error
from .career import employment_admits

UNIT_KIND_NAMES = {
    "province": ("省、自治区、直辖市", "provinces, autonomous regions and municipalities"),
    "city": ("计划单列市", "cities with separate planning status"),
    "xpcc": ("新疆生产建设兵团", "the XPCC"),
    "pla": ("解放军", "the PLA"),
    "industry": ("行业体协", "industry sports associations"),
    "joint": ("联队（同一省份多个单位联合组队）", "joint teams of several institutions of one province"),
    "university": ("高校", "universities"),
}


def unit_kind_names(definition) -> dict[str, tuple[str, str]]:
    """The portal's kinds of units and those the Games' fixture names."""
    out = dict(UNIT_KIND_NAMES)
    for k in definition.unit_kind_names:
        out[k.code] = (k.name.zh, k.name.en)
    return out


def _allowed_text(ctx: CheckContext) -> tuple[str, str]:
    part = ctx.games.participation
    kinds = unit_kind_names(ctx.games)
    zh = [kinds[k][0] for k in part.unit_kinds]
    en = [kinds[k][1] for k in part.unit_kinds]
    if part.invited:
        name = part.invited_name
        zh.append(name.zh if name else "受邀单位")
        en.append(name.en if name else "the units invited")
    if part.open_units:
        zh.append("俱乐部、学校等单位")
        en.append("clubs, schools and other units")
    if part.individuals:
        zh.append("个人")
        en.append("individuals")
    return "、".join(zh), ", ".join(en)


@builtin_check
def unit_eligible(ctx: CheckContext) -> list[Violation]:
    d, part = ctx.delegation, ctx.games.participation
    allowed_zh, allowed_en = _allowed_text(ctx)
    title = ctx.games.name
    if isinstance(d.unit, str):
        if ctx.unit is None:
            return [schema_error("unit", f"未知的单位代码“{d.unit}”", f"unknown unit code {d.unit!r}")]
        if ctx.unit.kind in part.unit_kinds or d.unit in part.invited:
            return []
        who_zh, who_en = ctx.unit.name.zh, ctx.unit.name.en
        if part.invited and not part.unit_kinds:
            name = part.invited_name
            return [Violation(
                "UNIT_NOT_ELIGIBLE",
                f"{who_zh}不在{title.zh}的{name.zh if name else '受邀单位'}名单中，不能报名。如有疑问，请联系组委会。",
                f"{who_en} is not on the list of {name.en if name else 'units invited'} to {title.en}, and may not "
                f"enter. Ask the organisers if this is unexpected.")]
    elif isinstance(d.unit, dict):
        if part.open_units:
            return []
        who_zh = who_en = d.unit.get("name") or ""
    else:
        if part.individuals:
            return []
        who_zh, who_en = "个人报名", "An individual entry"
    return [Violation(
        "UNIT_NOT_ELIGIBLE",
        f"{who_zh}不能报名{title.zh}：本次比赛的参赛单位为{allowed_zh}。",
        f"{who_en} may not enter {title.en}: it is open to {allowed_en}.")]


@rule_check("registration")
def registration(ctx: CheckContext, rule) -> list[Violation]:
    unit = ctx.delegation.unit_code
    if unit is None:
        return []
    out = []
    for ref in ctx.athletes:
        sports = {ctx.events[e].sport for e in ctx.events_of[ref]}
        if rule.sports is not None and not sports & set(rule.sports):
            continue
        p = ctx.people[ref]
        if p.registration_unit == unit and p.registration_year == rule.year:
            if rule.registered_by is None:
                continue
            if p.registration_date is not None and p.registration_date <= rule.registered_by:
                continue
            if p.registration_date is None:
                zh = (f"{p.label} 没有填写注册日期。参赛运动员须在 {rule.registered_by} 前（含）完成 {rule.year} 年度注册，"
                      f"请填写注册日期。")
                en = (f"{p.label} has no registration date. Athletes must be registered for {rule.year} by "
                      f"{rule.registered_by}; give the date.")
            else:
                zh = (f"{p.label} 的注册日期为 {p.registration_date}，晚于规程规定的 {rule.registered_by}，不能代表本单位参赛。")
                en = (f"{p.label} was registered on {p.registration_date}, after {rule.registered_by}, the last "
                      f"day the regulation allows, and cannot represent this unit.")
            out.append(Violation("REGISTRATION_MISMATCH", zh, en, people=(ref,)))
            continue
        if p.registration_unit is None:
            zh = f"{p.label} 没有填写注册信息。参赛运动员须为 {rule.year} 年度注册于本单位的运动员。"
            en = f"{p.label} has no registration. Athletes must be registered to this unit for {rule.year}."
        else:
            own_zh = ctx.unit.name.zh if ctx.unit else unit
            own_en = ctx.unit.name.en if ctx.unit else unit
            if p.registration_unit == unit:  # the right unit, another year (or none given)
                year_zh = f"{p.registration_year} 年度" if p.registration_year else "未填写注册年度"
                year_en = f"for {p.registration_year}" if p.registration_year else "with no year given"
                zh = (f"{p.label} 注册于本单位（{year_zh}），不是 {rule.year} 年度注册运动员，不能代表本单位参赛。"
                      f"请填写 {rule.year} 年度的注册。")
                en = (f"{p.label} is registered to {own_en} {year_en}, not for {rule.year}, and cannot "
                      f"represent this unit. Give the {rule.year} registration.")
            else:
                year_zh = f"（{p.registration_year} 年度）" if p.registration_year else ""
                year_en = f" for {p.registration_year}" if p.registration_year else ""
                zh = (f"{p.label} 注册于{ctx.unit_name(p.registration_unit)}{year_zh}，不是{own_zh}的 {rule.year} 年度注册运动员，"
                      f"不能代表本单位参赛。")
                en = (f"{p.label} is registered to {ctx.unit_name(p.registration_unit, 'en')}{year_en}, not to {own_en} for {rule.year}, "
                      f"and cannot represent this unit.")
        out.append(Violation("REGISTRATION_MISMATCH", zh, en, people=(ref,)))
    return out


def university_inside(unit, uni) -> bool:
    """Whether a university is within a unit's jurisdiction (its own students)."""
    if unit.kind == "province":
        return uni.province_code == unit.province_code
    if unit.kind == "city":
        return uni.city == unit.city
    if unit.kind in ("joint", "university"):  # its member institutions, as the fixture names them
        return uni.code in unit.universities
    # xpcc, pla, an industry association: the universities of its own sector
    return uni.governing_body in unit.governing_bodies or uni.code in unit.universities


def joint_rule_for(ctx: CheckContext, event: str):
    return next((r for r in ctx.games.rules_of(JointTeamRule) if not r.events or event in r.events), None)


def _university_problem(ctx: CheckContext, rule, ref: str, event: str) -> tuple[str, str] | None:
    p = ctx.people[ref]
    unit = ctx.unit
    if not p.has_university or not p.university_code:
        return "没有填写所在高校", "gives no university"
    uni = ctx.universities.get(p.university_code)
    if uni is None:
        return (f"所填高校代码 {p.university_code} 不在教育部高校名单中",
                f"university code {p.university_code} is not on the Ministry of Education's list")
    # A joint_team rule judges the players of other institutions itself (checks/joint.py).
    if unit is not None and not joint_rule_for(ctx, event) and not university_inside(unit, uni):
        return (f"{uni.name} 不在 {unit.name.zh} 的选派范围内（省区市限行政辖区内高校，行业体协限本行业所属部委管辖的高校）",
                f"{uni.name} is outside the jurisdiction of {unit.name.en} (provinces: universities located "
                f"in them; industry associations: the universities of their own sector)")
    if uni.ownership not in rule.ownership:
        kind = {"private": ("民办高校", "a private university"),
                "sino_foreign": ("中外合作办学高校", "a Sino-foreign university")}.get(
            uni.ownership, ("非公立高校", "not a public university"))
        return (f"{uni.name} 是{kind[0]}，只有部属或地方政府所属公立高校的学生可以参赛",
                f"{uni.name} is {kind[1]}; only ministry-run or local-government public universities qualify")
    if rule.full_time and p.full_time is not True:
        return ("不是（或未注明是）全日制在读学生", "is not (or is not stated to be) a full-time student")
    if rule.not_graduated_before:
        if p.graduation_date is None:
            return ("没有填写毕业日期", "gives no graduation date")
        if p.graduation_date < rule.not_graduated_before:
            # The regulation's cut-off as what it is: the day he must not graduate before.
            return (f"将于 {p.graduation_date} 毕业，早于规程规定的毕业截止日期 {rule.not_graduated_before}",
                    f"graduates on {p.graduation_date}, before {rule.not_graduated_before}, the regulation's "
                    f"graduation cut-off")
    return None


@rule_check("university")
def university(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    for event in rule.events:
        # Staff and graduates an employment rule admits to the event are not held to the
        # students' conditions ("在校学生及毕业两年内的校友、教职工").
        others = [r for r in ctx.games.rules_of(EmploymentRule) if event in r.events]
        for ref in ctx.entrants.get(event, []):
            kind = ctx.people[ref].employment_kind
            if kind in ("staff", "graduate") and any(kind in r.kinds and employment_admits(ctx, r, ref) is None
                                                     for r in others):
                continue
            problem = _university_problem(ctx, rule, ref, event)
            if problem:
                label = ctx.people[ref].label
                out.append(Violation(
                    "UNIVERSITY_INELIGIBLE",
                    f"{label} 不符合{ctx.event_name(event)}的大学生参赛条件：{problem[0]}。",
                    f"{label} does not qualify for {ctx.event_name(event, 'en')}: {problem[1]}.",
                    event=event, people=(ref,)))
    return out
