"""联队: players of other institutions joining a delegation as one joint team, admitted by
the organisers where the regulation says so, within the number and the region it sets."""
from __future__ import annotations

from ..check_context import CheckContext, names, rule_check
from ..violations import Violation
from .eligibility import university_inside
from .teams import unit_itself


def _institution(ctx: CheckContext, ref: str) -> tuple[str, str, str] | None:
    """(key, zh name, en name) of a player's institution: his university, else the unit he
    is registered with; None where he names neither, or it is the delegation's own."""
    p = ctx.people[ref]
    if p.university_code:
        uni = ctx.universities.get(p.university_code)
        if uni is None or (ctx.unit is not None and university_inside(ctx.unit, uni)):
            return None  # an unknown code is the university rule's to say
        return uni.code, uni.name, uni.name
    if p.registration_unit and not unit_itself(ctx, p.registration_unit):
        zh, en = ctx.unit_names.get(p.registration_unit, (p.registration_unit, p.registration_unit))
        return p.registration_unit, zh, en
    return None


def _region(ctx: CheckContext, key: str, within: str) -> str | None:
    uni = ctx.universities.get(key)
    if uni is None:
        return None
    return uni.province_code if within == "province" else uni.city


@rule_check("joint_team")
def joint_team(ctx: CheckContext, rule) -> list[Violation]:
    refs = ctx.athletes if not rule.events else list(dict.fromkeys(r for e in rule.events for r in ctx.entrants.get(e, [])))
    joined: dict[str, tuple[str, str, list[str]]] = {}
    for ref in refs:
        found = _institution(ctx, ref)
        if found is not None:
            joined.setdefault(found[0], (found[1], found[2], []))[2].append(ref)
    out = []
    if rule.needs_approval:
        for key, (zh, en, who) in joined.items():
            if key in ctx.joint_with:
                continue
            out.append(Violation(
                "TEAM_COMPOSITION",
                f"{names(ctx, who)} 来自{zh}，不是本单位的运动员：与{zh}组成联队须经组委会批准，批准后方可提交。",
                f"{names(ctx, who, 'en')} {'is' if len(who) == 1 else 'are'} of {en}, not of the unit: a joint team "
                f"with {en} needs the organisers' approval before the entry can be submitted.",
                people=tuple(who), extra={"institution": key}))
    if rule.max_institutions is not None and 1 + len(joined) > rule.max_institutions:
        listed = [zh for zh, _en, _who in joined.values()]
        out.append(Violation(
            "TEAM_COMPOSITION",
            f"联队至多由 {rule.max_institutions} 所学校（单位，含本单位）组成，现有 {1 + len(joined)} 所：本单位及{'、'.join(listed)}。",
            f"A joint team joins at most {rule.max_institutions} institutions, the unit's own included; this one "
            f"joins {1 + len(joined)}: the unit and {', '.join(en for _zh, en, _who in joined.values())}.",
            people=tuple(r for _zh, _en, who in joined.values() for r in who)))
    if rule.within and ctx.unit is not None:
        home = ctx.unit.province_code if rule.within == "province" else ctx.unit.city
        where = {"province": ("省（区、市）", "province"), "city": ("城市", "city")}[rule.within]
        for key, (zh, en, who) in joined.items():
            region = _region(ctx, key, rule.within)
            if home and region is not None and region != home:
                out.append(Violation(
                    "TEAM_COMPOSITION",
                    f"{zh}不在本单位所在的{where[0]}：联队只能由同一{where[0]}的高校组成。",
                    f"{en} is not in the unit's {where[1]}: a joint team joins universities of one {where[1]} only.",
                    people=tuple(who)))
    return out
