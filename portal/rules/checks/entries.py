"""Entries: known and declared events, gender, age brackets, quotas, double entries,
schedule clashes."""
from __future__ import annotations

from ..check_context import CheckContext, builtin_check, format_deadline, names, rule_check
from ..definition import QuotaRule, TeamMakeupRule
from ..violations import Violation

GENDER = {"M": ("男子", "men's"), "F": ("女子", "women's")}


@builtin_check
def events_known(ctx: CheckContext) -> list[Violation]:
    out, seen = [], set()
    items = [(e, f"declarations[{i}]") for i, (e, _) in enumerate(ctx.delegation.declarations)]
    items += [(e.event, f"entries[{e.index}]") for e in ctx.delegation.entries]
    for code, path in items:
        if code in ctx.events or code in seen:
            continue
        seen.add(code)
        out.append(Violation(
            "EVENT_UNKNOWN",
            f"{ctx.games.name.zh}没有项目“{code}”（见 {path}）。请从本届比赛的项目列表中选择。",
            f"{ctx.games.name.en} has no event {code!r} (at {path}). Choose one of the Games' events.",
            event=code, path=path))
    return out


@builtin_check
def events_declared(ctx: CheckContext) -> list[Violation]:
    closes = ctx.games.stages.declaration_closes
    if closes is None or ctx.at < closes:
        return []
    declared = {e for e, count in ctx.delegation.declarations if count > 0}
    out = []
    for event in ctx.entries_by_event:
        if event in declared:
            continue
        shown = format_deadline(closes)
        out.append(Violation(
            "EVENT_NOT_DECLARED",
            f"本单位未在第一次报名（截止 {shown} 北京时间）中报{ctx.event_name(event)}，"
            f"现在不能再报此项目。请删除该项目的报名。",
            f"The unit did not declare {ctx.event_name(event, 'en')} by the declaration deadline "
            f"({shown} China time); it can no longer be entered. Remove these entries.",
            event=event, people=tuple(ctx.entrants[event])))
    return out


@builtin_check
def names_within_declaration(ctx: CheckContext) -> list[Violation]:
    """Once the declaration deadline has passed, the numbers declared bind the names:
    more names than declared is DECLARATION_EXCEEDED, fewer DECLARATION_UNFILLED (a
    warning: the organisers planned draws and rooms on the declared numbers). nmsg-2009
    总则十(一)-(二): 第一次报名……参加的具体项目(包括小项)及参赛人数; 第二次报名……运动员名单."""
    closes = ctx.games.stages.declaration_closes
    if closes is None or ctx.at < closes:
        return []
    shown = format_deadline(closes)
    out = []
    for event, count in ctx.delegation.declarations:
        if event not in ctx.events or count <= 0:
            continue
        named = len(ctx.entrants.get(event, []))
        cap = declared_max(ctx.games, event, ctx.delegation.unit_code, ctx.placed_before)
        if named > count and (cap is None or count < cap):  # at the cap, QUOTA_EXCEEDED says it
            out.append(Violation(
                "DECLARATION_EXCEEDED",
                f"{ctx.event_name(event)}在第一次报名（截止 {shown} 北京时间）中报了 {count} 人，现在填了 {named} 人。"
                f"名单人数不能超过报项人数，请删去 {named - count} 人。",
                f"{ctx.event_name(event, 'en')}: {count} declared by the declaration deadline ({shown} China time), "
                f"{named} named. Names may not exceed the declared number: remove {named - count}.",
                event=event, people=tuple(ctx.entrants.get(event, []))))
        elif named < count:
            out.append(Violation(
                "DECLARATION_UNFILLED",
                f"{ctx.event_name(event)}报项 {count} 人，名单只有 {named} 人。组委会按报项人数安排编排和住宿，"
                f"如确定不足请及时告知组委会。",
                f"{ctx.event_name(event, 'en')}: {count} declared, {named} named. The organisers plan draws and "
                f"rooms on the declared numbers; tell them if fewer will come.",
                severity="warning", event=event))
    return out


@builtin_check
def event_gender(ctx: CheckContext) -> list[Violation]:
    out = []
    for event, refs in ctx.entrants.items():
        target = ctx.events[event].gender
        if target not in ("M", "F"):
            continue
        for ref in refs:
            g = ctx.gender_in(ref, event)
            if g is None or g == target or ctx.rating_claim_without_its_list(ref, event):
                continue  # a rating claimed on the wrong list is RATING_LIST_REQUIRED instead
            p = ctx.people[ref]
            hint_zh = hint_en = ""
            if any(event in r.events for r in ctx._rating_rules):
                rule = next(r for r in ctx._rating_rules if event in r.events)
                hint_zh = f"（只有在 {rule.list} 国际棋联等级分 {rule.min_rating} 分以上的女棋手可参加男子项目）"
                hint_en = (f" (only women rated {rule.min_rating} or more on the FIDE list of "
                           f"{rule.list} may enter men's events)")
            elif any(event in events for events in ctx._crossing.values()):
                crossing = [g for g, events in ctx._crossing.items() if event in events]
                hint_zh = "（本项目另可由" + "、".join(GENDER[g][0] for g in crossing) + "选手报名）"
                hint_en = " (it is also open to " + " and ".join(
                    {"M": "men", "F": "women"}[g] for g in crossing) + ")"
            out.append(Violation(
                "GENDER_NOT_ALLOWED",
                f"{p.label} 的性别不符合{ctx.event_name(event)}的要求{hint_zh}。",
                f"{p.label} cannot enter {ctx.event_name(event, 'en')}, a {GENDER[target][1]} event{hint_en}.",
                event=event, people=(ref,)))
    return out


@rule_check("age_bracket")
def age_bracket(ctx: CheckContext, rule) -> list[Violation]:
    lo, hi = rule.born_from, rule.born_to
    span_zh = f"{lo or '不限'} 至 {hi or '不限'}"
    span_en = f"{lo or 'any time'} to {hi or 'any time'}"
    if lo and not hi:
        span_zh, span_en = f"{lo} 以后", f"on or after {lo}"
    if hi and not lo:
        span_zh, span_en = f"{hi} 及以前", f"on or before {hi}"
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            born = ctx.birth.get(ref)
            if born is None or ((lo is None or born >= lo) and (hi is None or born <= hi)):
                continue
            label = ctx.people[ref].label
            out.append(Violation(
                "AGE_BRACKET",
                f"{label} 出生于 {born}，不在{ctx.event_name(event)}的年龄范围内（{span_zh} 出生）。",
                f"{label} was born on {born}, outside the bracket of {ctx.event_name(event, 'en')} "
                f"(born {span_en}).",
                event=event, people=(ref,)))
    return out


def declared_max(games, event: str, unit: str | None = None, placed_before: dict[str, int] | None = None) -> int | None:
    """The most athletes a unit may declare for an event (quota, or teams × team size),
    a bonus for its places at the previous edition (`placed_before`) included."""
    def extra(rule) -> int:
        return rule.placed_bonus.for_unit(placed_before, rule.events) if rule.placed_bonus is not None else 0
    # A quota its qualified players do not count toward bounds no declared number: they are in it.
    caps = [(r.max_by_unit.get(unit, r.max) if unit else r.max) + extra(r) for r in games.rules_of(QuotaRule)
            if r.per == "event" and event in r.events and not r.qualified_exempt]
    for r in games.rules_of(TeamMakeupRule):
        teams = r.max_teams_by_unit.get(unit, r.max_teams) if unit else r.max_teams
        teams = teams + extra(r) if teams is not None else None
        if event in r.events and teams is not None and r.starters is not None:
            reserves = r.max_reserves
            if r.max_reserves_by_gender is not None:
                by_gender = sum(r.max_reserves_by_gender.values())
                reserves = by_gender if reserves is None else min(reserves, by_gender)
            if reserves is not None:
                caps.append(teams * (sum(r.starters.values()) + reserves))
    return min(caps) if caps else None


@rule_check("quota")
def quota(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    unit = ctx.delegation.unit_code
    cap = rule.max_by_unit.get(unit, rule.max) if unit else rule.max
    who = ((ctx.unit.name.zh if ctx.unit else unit), "from " + (ctx.unit.name.en if ctx.unit else unit)) \
        if unit in rule.max_by_unit else ("每单位", "per unit")
    extra = ctx.placed_extra(rule.placed_bonus, rule.events)
    if extra:  # placed last edition: more for this unit, and the message says why
        cap += extra
        who = (f"本单位（上届名次靠前，多报 {extra} 人）", f"from this unit ({extra} more for last edition's place)")
    free = (ctx.qualified_refs(rule.qualified_by) or set()) if rule.qualified_exempt else set()
    if rule.per == "unit":
        return _unit_quota(ctx, rule, cap, who, free)
    for event in rule.events:
        entered = ctx.entrants.get(event, [])
        refs = [r for r in entered if r not in free]
        out += _gender_caps(ctx, rule, refs, ctx.event_name(event), ctx.event_name(event, "en"), event)
        if len(refs) > cap:
            extra = _not_counted(ctx, rule, [r for r in entered if r in free])
            out.append(Violation(
                "QUOTA_EXCEEDED",
                f"{ctx.event_name(event)}{who[0]}最多报 {cap} 人，现报了 {len(refs)} 人"
                f"（{names(ctx, refs)}）{extra[0]}。请减少 {len(refs) - cap} 人。",
                f"{ctx.event_name(event, 'en')} takes at most {cap} {who[1]}; {len(refs)} are entered "
                f"({names(ctx, refs, 'en')}){extra[1]}. Remove {len(refs) - cap}.",
                event=event, people=tuple(refs)))
    return out


GENDER_WORDS = {"M": ("男子", "men"), "F": ("女子", "women")}
LISTED_AT_MOST = 8  # a unit's total names its athletes only while the list is short enough to read


def _listed(ctx: CheckContext, refs: list[str]) -> tuple[str, str]:
    """(names) of a few people, or nothing for many: the people are on the violation anyway."""
    if len(refs) > LISTED_AT_MOST:
        return "", ""
    return f"（{names(ctx, refs)}）", f" ({names(ctx, refs, 'en')})"


def _gender_caps(ctx: CheckContext, rule, refs: list[str], where_zh: str, where_en: str,
                 event: str | None) -> list[Violation]:
    """More of one gender than the rule's cap for it, among the counted `refs`."""
    out = []
    for gender, most in rule.max_by_gender.items():
        mine = [r for r in refs if (ctx.gender_in(r, event) if event else ctx.gender.get(r)) == gender]
        if len(mine) > most:
            words = GENDER_WORDS[gender]
            if event is None:  # the unit's total: where_zh is "本代表团" and the events counted
                listed = _listed(ctx, mine)
                zh = f"{where_zh}报了{words[0]}运动员 {len(mine)} 人{listed[0]}，每单位{words[0]}最多报 {most} 人"
                en = f"{where_en} has {len(mine)} {words[1]}{listed[1]}; at most {most} {words[1]} per unit"
            else:
                zh = f"{where_zh}每单位{words[0]}最多报 {most} 人，现报了 {len(mine)} 人（{names(ctx, mine)}）"
                en = (f"{where_en} takes at most {most} {words[1]} per unit; {len(mine)} are entered "
                      f"({names(ctx, mine, 'en')})")
            out.append(Violation("QUOTA_EXCEEDED", f"{zh}。请减少 {len(mine) - most} 人。",
                                 f"{en}. Remove {len(mine) - most}.", event=event, people=tuple(mine)))
    return out


def _not_counted(ctx: CheckContext, rule, refs: list[str]) -> tuple[str, str]:
    """The qualified players left out of the count, named, or nothing."""
    if not refs:
        return "", ""
    by = (rule.qualified_name.zh, rule.qualified_name.en) if rule.qualified_name else ("资格赛", "a qualifier")
    return (f"；另有{by[0]}晋级的 {names(ctx, refs)} 不占名额",
            f"; {names(ctx, refs, 'en')}, qualified by {by[1]}, not counted")


def _unit_quota(ctx: CheckContext, rule, cap: int, who: tuple[str, str], free: set[str]) -> list[Violation]:
    """The unit's athletes in all the rule's events together (each counted once however
    many he plays), or in the whole delegation when the rule lists none."""
    if rule.events:
        entered = list(dict.fromkeys(r for e in rule.events for r in ctx.entrants.get(e, [])))
        where = ("、".join(ctx.event_name(e) for e in rule.events) + "合计",
                 " in " + ", ".join(ctx.event_name(e, "en") for e in rule.events) + " together")
    else:
        entered, where = list(ctx.athletes), ("", "")
    refs = [r for r in entered if r not in free]
    by_gender = _gender_caps(ctx, rule, refs, f"本代表团{where[0]}", f"This delegation{where[1]}", None)
    if len(refs) <= cap:
        return by_gender
    extra = _not_counted(ctx, rule, [r for r in entered if r in free])
    listed = _listed(ctx, refs)
    return by_gender + [Violation(
        "QUOTA_EXCEEDED",
        f"本代表团{where[0]}报了运动员 {len(refs)} 人{listed[0]}{extra[0]}，{who[0]}最多报 {cap} 人"
        f"（一人报几项只算一人）。请减少 {len(refs) - cap} 人。",
        f"This delegation has {len(refs)} athletes{where[1]}{listed[1]}{extra[1]}; at most {cap} "
        f"{who[1]} (a player counted once however many events he plays). Remove {len(refs) - cap}.",
        people=tuple(refs))]


@builtin_check
def declared_numbers(ctx: CheckContext) -> list[Violation]:
    """A declaration above what the regulation allows is refused at the first stage."""
    out = []
    for i, (event, count) in enumerate(ctx.delegation.declarations):
        if event not in ctx.events:
            continue
        cap = declared_max(ctx.games, event, ctx.delegation.unit_code, ctx.placed_before)
        if cap is not None and count > cap:
            out.append(Violation(
                "QUOTA_EXCEEDED",
                f"第一次报名中{ctx.event_name(event)}报了 {count} 人，每单位最多 {cap} 人。",
                f"The declaration names {count} athletes for {ctx.event_name(event, 'en')}; "
                f"a unit may enter at most {cap}.",
                event=event, path=f"declarations[{i}].count"))
    return out


def _double(ctx, ref, event, others):
    label = ctx.people[ref].label
    others_zh = "、".join(ctx.event_name(o) for o in others)
    others_en = ", ".join(ctx.event_name(o, "en") for o in others)
    return label, others_zh, others_en


@rule_check("exclusive")
def exclusive(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            others = [e for e in ctx.events_of[ref] if e != event]
            if not others:
                continue
            label, ozh, oen = _double(ctx, ref, event, others)
            said_zh = f"（{rule.says.zh}）" if rule.says else ""
            out.append(Violation(
                "DOUBLE_ENTRY",
                f"{label} 参加{ctx.event_name(event)}，该项目的选手不可兼项{said_zh}，但他还报了{ozh}。请只保留一项。",
                f"{label} plays {ctx.event_name(event, 'en')}, whose players may enter no other event, "
                f"but is also entered in {oen}. Keep one.",
                event=event, people=(ref,)))
    return out


@rule_check("one_of")
def one_of(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    group = set(rule.events)
    for ref in ctx.athletes:
        mine = [e for e in ctx.events_of[ref] if e in group]
        if len(mine) <= rule.max_events:
            continue
        label, ozh, oen = _double(ctx, ref, mine[0], mine)
        said_zh = f"{rule.says.zh}，" if rule.says else ""
        said_en = f"{rule.says.en[0].upper()}{rule.says.en[1:]}: " if rule.says else ""
        if rule.max_events == 1:
            zh = f"{label} 同时报了{ozh}；{said_zh}这些项目每人只能报其中一项。"
            en = f"{label} is entered in {oen}. {said_en}a player may enter only one of these events. Keep one."
        else:
            extra = len(mine) - rule.max_events
            zh = (f"{label} 报了{ozh}，共 {len(mine)} 项；{said_zh}这些项目每人最多报 {rule.max_events} 项。"
                  f"请去掉 {extra} 项。")
            en = (f"{label} is entered in {oen}, {len(mine)} events. {said_en}a player may enter at most "
                  f"{rule.max_events} of these events. Remove {extra}.")
        # On the first event beyond the limit: the one the leader added last, as the list stands.
        out.append(Violation("DOUBLE_ENTRY", zh, en, event=mine[rule.max_events], people=(ref,)))
    return out


@builtin_check
def schedule(ctx: CheckContext) -> list[Violation]:
    out = []
    for ref in ctx.athletes:
        mine = [e for e in ctx.events_of[ref] if ctx.events[e].sessions]
        for i, a in enumerate(mine):
            for b in mine[i + 1:]:
                clash = any(x.start < y.end and y.start < x.end
                            for x in ctx.events[a].sessions for y in ctx.events[b].sessions)
                if clash:
                    label = ctx.people[ref].label
                    out.append(Violation(
                        "SCHEDULE_CONFLICT",
                        f"{label} 报的{ctx.event_name(a)}与{ctx.event_name(b)}比赛时间重叠，不能兼项。",
                        f"{label} is entered in {ctx.event_name(a, 'en')} and {ctx.event_name(b, 'en')}, "
                        f"whose sessions overlap.",
                        event=b, people=(ref,)))
    return out


@builtin_check
def sanctions(ctx: CheckContext) -> list[Violation]:
    out = []
    declared = [e for e, n in ctx.delegation.declarations if n > 0]
    for event in dict.fromkeys(declared + list(ctx.entries_by_event)):
        source = ctx.sanctioned.get(event)
        if source is None:
            continue
        out.append(Violation(
            "SANCTIONED",
            f"本单位因在{source}中无故弃权，失去本届{ctx.event_name(event)}的参赛资格。",
            f"The unit withdrew without excuse from this event at {source} and has lost the right "
            f"to enter {ctx.event_name(event, 'en')} at these Games.",
            event=event, people=tuple(ctx.entrants.get(event, []))))
    return out
