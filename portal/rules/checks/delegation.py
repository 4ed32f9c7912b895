"""The delegation as a whole: officials, delegation staff, documents."""
from __future__ import annotations

from ..check_context import CheckContext, builtin_check, names, rule_check
from ..definition import StaffRatioRule, document_names
from ..violations import WARNING, Violation


@rule_check("officials")
def officials(ctx: CheckContext, rule) -> list[Violation]:
    # An official without a sport counts against every sport's allowance: the allowance
    # cannot be escaped by leaving the sport blank (officials_name_their_sport reports it).
    mine = [o for o in ctx.delegation.officials
            if o.sport == rule.sport or rule.sport is None or o.sport is None]
    if not mine:
        return []
    entered = {e for e in ctx.entries_by_event
               if rule.sport is None or ctx.events[e].sport == rule.sport}
    if not entered:
        entered = {e for e, n in ctx.delegation.declarations if n > 0 and e in ctx.events
                   and (rule.sport is None or ctx.events[e].sport == rule.sport)}
    n = len(entered)
    tier = next((t for t in rule.tiers if n >= t.min_events), None)
    if tier is None:
        return []
    leaders = [o.person for o in mine if o.role == "leader"]
    coaches = [o.person for o in mine if o.role == "coach"]
    combined = [o.person for o in mine if o.role == "leader_coach"]
    everyone = [o.person for o in mine]
    sport_zh = next((s.name.zh for s in ctx.games.sports if s.code == rule.sport), "")
    sport_en = next((s.name.en for s in ctx.games.sports if s.code == rule.sport), "")
    allowed_zh = "、".join(x for x in (
        tier.leaders and f"领队 {tier.leaders} 名", tier.coaches and f"教练 {tier.coaches} 名",
        tier.leader_coaches and f"领队兼教练 {tier.leader_coaches} 名") if x) or "无"
    allowed_en = ", ".join(x for x in (
        tier.leaders and f"{tier.leaders} leader{'s' if tier.leaders != 1 else ''}",
        tier.coaches and f"{tier.coaches} coach{'es' if tier.coaches != 1 else ''}",
        tier.leader_coaches and f"{tier.leader_coaches} leader-coach{'es' if tier.leader_coaches != 1 else ''}") if x) \
        or "none"
    problem = None
    if tier.leaders == 0 and tier.coaches == 0:
        if leaders and coaches:
            problem = ("只能报一名领队兼教练，不能分设领队和教练", "one leader-coach only, not a separate leader and coach")
        elif len(everyone) > tier.leader_coaches:
            problem = (f"最多 {tier.leader_coaches} 人", f"at most {tier.leader_coaches}")
    else:
        if len(leaders) + len(combined) > tier.leaders + tier.leader_coaches:
            problem = ("领队人数超出", "too many leaders")
        elif len(coaches) + len(combined) > tier.coaches + tier.leader_coaches:
            problem = ("教练人数超出", "too many coaches")
    if problem is None:
        return []
    return [Violation(
        "OFFICIALS_LIMIT",
        f"本单位{sport_zh}参加 {n} 个小项，可报{allowed_zh}；现报 {len(everyone)} 人（{names(ctx, everyone)}）："
        f"{problem[0]}。",
        f"With {n} {sport_en} event{'s' if n != 1 else ''} the unit may name {allowed_en}; it names {len(everyone)} "
        f"({names(ctx, everyone, 'en')}): {problem[1]}.",
        people=tuple(everyone))]


def staff_allowance(rule, athletes: int) -> dict[str, int] | None:
    """How many heads, deputy heads and staff a delegation of this many athletes may name
    (总则 七(二)), or None where no tier applies."""
    tier = next((t for t in rule.tiers if t.max_athletes is None or athletes <= t.max_athletes), None)
    if tier is None:
        return None
    return {"head": tier.head, "deputy_head": tier.deputy_head,
            "staff": tier.staff + (athletes // tier.staff_per_athletes if tier.staff_per_athletes else 0)}


def staff_beyond_allowance(definition, athletes: int, staff: list[tuple[str, str]]) -> list[str]:
    """The refs of the delegation staff ((ref, role) in document order) beyond the allowance."""
    out = []
    for rule in definition.rules_of(StaffRatioRule):
        allowed = staff_allowance(rule, athletes)
        if allowed is None:
            continue
        for role, cap in allowed.items():
            people = [ref for ref, r in staff if r == role]
            out += [ref for ref in people[cap:] if ref not in out]
    return out


@rule_check("staff_ratio")
def staff_ratio(ctx: CheckContext, rule) -> list[Violation]:
    n = len(ctx.athletes)
    allowed = staff_allowance(rule, n)
    if allowed is None:
        return []
    role_names = {"head": ("团长", "head"), "deputy_head": ("副团长", "deputy head"),
                  "staff": ("团部工作人员", "staff")}
    out = []
    for role, cap in allowed.items():
        people = [s.person for s in ctx.delegation.staff if s.role == role]
        if len(people) <= cap:
            continue
        excess = people[cap:]
        zh, en = role_names[role]
        out.append(Violation(
            "STAFF_EXCESS",
            f"代表团运动员 {n} 人，可报{zh} {cap} 名，现报 {len(people)} 名；超出的 {names(ctx, excess)} "
            f"不享受大会优惠政策（按全价收费）。",
            f"With {n} athletes the delegation may name {cap} {en}; it names {len(people)}. "
            f"The excess ({names(ctx, excess, 'en')}) lose the preferential rate.",
            people=tuple(excess)))
    return out


@rule_check("documents")
def documents(ctx: CheckContext, rule) -> list[Violation]:
    if rule.who == "delegation":
        return _delegation_documents(ctx, rule)
    if rule.events is not None:
        refs = []
        for e in rule.events:
            refs += [r for r in ctx.entrants.get(e, []) if r not in refs]
    else:
        refs = ctx.who(rule.who)
    refs = [r for r in refs if rule.of_age(ctx.birth.get(r), ctx.games.dates.start)]
    severity = "error" if rule.due == "entry" else WARNING
    when_zh = "报名时须提交" if rule.due == "entry" else "报到时须提交"
    when_en = "due with the entry" if rule.due == "entry" else "due by check-in"
    out = []
    for ref in refs:
        p = ctx.people.get(ref)
        if p is None:
            continue
        missing = [d for d in rule.documents if d not in p.documents]
        if not missing:
            continue
        doc_names = document_names(ctx.games)
        aged = age_words(rule)
        why = (f"，{aged[0]}者" if aged[0] else "", f"; {aged[1]}" if aged[1] else "")
        out.append(Violation(
            "DOCUMENT_MISSING",
            f"{p.label} 缺少{'、'.join(doc_names[d][0] for d in missing)}（{when_zh}{why[0]}）。",
            f"{p.label} lacks: {', '.join(doc_names[d][1] for d in missing)} ({when_en}{why[1]}).",
            people=(ref,), severity=severity, extra={"documents": missing}))
    return out


def age_words(rule) -> tuple[str, str]:
    """The ages a documents rule asks of, in words ("未满18周岁", "under 18"), or ("", "")."""
    parts = []
    if rule.min_age is not None:
        parts.append((f"年满{rule.min_age}周岁", f"{rule.min_age} or older"))
    if rule.under_age is not None:
        parts.append((f"未满{rule.under_age}周岁", f"under {rule.under_age}"))
    if not parts:
        return "", ""
    on = (f"（以{rule.age_on.year}年{rule.age_on.month}月{rule.age_on.day}日计）", f" on {rule.age_on.isoformat()}") \
        if rule.age_on else ("", "")
    return "、".join(x[0] for x in parts) + on[0], " and ".join(x[1] for x in parts) + on[1]


def _delegation_documents(ctx: CheckContext, rule) -> list[Violation]:
    """The delegation's own documents (the entry form with the unit's seal), once it enters."""
    if ctx.delegation_documents is None or not (ctx.delegation.entries or ctx.delegation.declarations):
        return []
    missing = [d for d in rule.documents if d not in ctx.delegation_documents]
    if not missing:
        return []
    names = document_names(ctx.games)
    due = ("报名时须提交", "due with the entry") if rule.due == "entry" else ("报到时须提交", "due by check-in")
    return [Violation(
        "DOCUMENT_MISSING",
        f"本单位缺少{'、'.join(names[d][0] for d in missing)}（{due[0]}），请在报名首页上传。",
        f"The delegation lacks: {', '.join(names[d][1] for d in missing)} ({due[1]}); upload it on the dashboard.",
        severity="error" if rule.due == "entry" else WARNING, extra={"documents": missing})]


@builtin_check
def companions(ctx: CheckContext) -> list[Violation]:
    """More companions than the regulation advises per athlete: a warning (rooms are short)."""
    cap = ctx.games.companions_per_athlete
    if cap is None:
        return []
    out = []
    by_athlete: dict[str, list[str]] = {}
    for c in ctx.delegation.companions:
        if c.accompanies:
            by_athlete.setdefault(c.accompanies, []).append(c.person)
    for athlete, refs in by_athlete.items():
        if len(refs) > cap:
            label = ctx.people[athlete].label if athlete in ctx.people else athlete
            out.append(Violation(
                "COMPANION_EXCESS",
                f"{label} 有 {len(refs)} 名陪同人员（{names(ctx, refs)}）；赛区房源紧张，建议每名运动员陪同不超过 {cap} 人。",
                f"{label} has {len(refs)} companions ({names(ctx, refs, 'en')}); rooms are short and at most "
                f"{cap} per athlete is advised.", people=tuple(refs)))
    loose = [c.person for c in ctx.delegation.companions if not c.accompanies]
    if len(ctx.delegation.companions) > cap * max(len(ctx.athletes), 0) and loose:
        out.append(Violation(
            "COMPANION_EXCESS",
            f"代表团共有 {len(ctx.delegation.companions)} 名陪同人员、{len(ctx.athletes)} 名运动员；建议每名运动员陪同不超过 {cap} 人。",
            f"The delegation brings {len(ctx.delegation.companions)} companions for {len(ctx.athletes)} athletes; "
            f"at most {cap} per athlete is advised.", people=tuple(loose)))
    return out


@builtin_check
def individual_registration(ctx: CheckContext) -> list[Violation]:
    """A person registering alone (`"unit": null`) is one athlete, with at most the companions
    the regulation allows: never a second athlete under one counted place, never officials
    or delegation staff (youth-gomoku-2015 十一(一), shaanxi-mind-2025 五: 以个人名义报名)."""
    d = ctx.delegation
    if d.unit is not None:
        return []
    out = []
    if len(ctx.athletes) > 1:
        out.append(Violation(
            "QUOTA_EXCEEDED",
            f"个人报名只能报一名运动员，现有 {len(ctx.athletes)} 名（{names(ctx, ctx.athletes)}）。"
            f"其他人请各自报名，或由单位统一报名。",
            f"An individual registration is for one athlete; it has {len(ctx.athletes)} "
            f"({names(ctx, ctx.athletes, 'en')}). Others register on their own, or through a unit.",
            people=tuple(ctx.athletes)))
    extra = [o.person for o in d.officials] + [s.person for s in d.staff]
    if extra:
        out.append(Violation(
            "OFFICIALS_LIMIT",
            f"个人报名不能登记领队、教练或工作人员（{names(ctx, extra)}）；家长等请登记为随队人员。",
            f"An individual registration has no leaders, coaches or staff ({names(ctx, extra, 'en')}); "
            f"register parents as companions.",
            people=tuple(dict.fromkeys(extra))))
    return out


@builtin_check
def officials_name_their_sport(ctx: CheckContext) -> list[Violation]:
    """Where the Games have several sports and officials are allowed per sport (nmsg-2009
    总则六), a leader or coach must say which sport he serves; until he does, he counts
    against every sport's allowance (see `officials`)."""
    if len(ctx.games.sports) < 2 or not any(r.kind == "officials" and r.sport for r in ctx.games.rules):
        return []
    loose = [o.person for o in ctx.delegation.officials if o.sport is None]
    if not loose:
        return []
    return [Violation(
        "OFFICIALS_LIMIT",
        f"{names(ctx, loose)} 没有注明所属大项。本届比赛按大项核定领队、教练人数，请为每位领队、教练选择大项。",
        f"{names(ctx, loose, 'en')}: no sport given. These Games allow leaders and coaches per sport; "
        f"choose the sport of each.",
        people=tuple(dict.fromkeys(loose)))]


@builtin_check
def rooms_required(ctx: CheckContext) -> list[Violation]:
    """youth-gomoku-2015 十二(三): 所有参赛选手均需统一在指定酒店食宿. A player without a room in
    the designated hotel is ROOM_REQUIRED (a warning: rooms are booked after entry)."""
    who = ctx.games.rooms_required_for
    booked = getattr(ctx, "booked_people", None)
    if who is None or booked is None:
        return []
    refs = ctx.athletes if who == "athletes" else [p.ref for p in ctx.delegation.people]
    missing = [r for r in refs if r not in booked]
    if not missing:
        return []
    hotel = ", ".join(dict.fromkeys(r.hotel for r in ctx.games.rooms)) or "指定酒店"
    return [Violation(
        "ROOM_REQUIRED",
        f"规程要求所有参赛选手在指定酒店（{hotel}）食宿；{names(ctx, missing)} 还没有预订房间。请在“住宿”中为其订房。",
        f"The regulation requires every player to stay at the designated hotel ({hotel}); "
        f"{names(ctx, missing, 'en')} have no room yet. Book one under Rooms.",
        people=tuple(missing))]


@builtin_check
def document_kinds_known(ctx: CheckContext) -> list[Violation]:
    """A document the portal does not know is accepted only where the Games' fixture names
    it (document_kinds); anywhere else it is the schema error it always was."""
    known = document_names(ctx.games)
    out = []
    for p in ctx.delegation.people:
        for j, code in p.other_documents:
            if code not in known:
                from ..violations import schema_error
                out.append(schema_error(f"people[{p.index}].documents[{j}]",
                                        f"未知的材料“{code}”（可选：{'、'.join(known)}）",
                                        f"unknown document {code!r} (one of {', '.join(known)})"))
    return out
