"""Teams: how many per unit, their make-up by gender, reserves, and board order."""
from __future__ import annotations

from collections import Counter

from ..check_context import CheckContext, names, rule_check
from ..document import Slot
from ..violations import Violation

G = {"M": ("男", "men"), "F": ("女", "women")}
ONE = {"M": "man", "F": "woman"}


def _of_gender(n: int, g: str) -> str:
    """English count of a gender: "1 man", "3 women"."""
    return f"{n} {ONE[g] if n == 1 else G[g][1]}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _team_id(ctx, entry, lang="zh"):
    label = ctx.team_label(entry)
    return (f"{ctx.event_name(entry.event)} {label} 队" if lang == "zh"
            else f"team {label} of {ctx.event_name(entry.event, 'en')}")


def _slots(entry):
    if entry.lineup is not None:
        return entry.lineup
    return [Slot(ref) for ref in entry.people]


def own_unit(ctx: CheckContext, named: str | None) -> bool:
    """Whether a unit a person names (by code or name) is the delegation's own, or one the
    organisers admitted into it as a joint team."""
    return bool(named) and (named in ctx.joint_with or unit_itself(ctx, named))


def unit_itself(ctx: CheckContext, named: str | None) -> bool:
    """Whether a unit a person names (by code or name) is the delegation's own."""
    if not named:
        return False
    d, named = ctx.delegation, named.strip().lower()
    own = {d.unit_code} if d.unit_code else set()
    if ctx.unit is not None:
        own |= {ctx.unit.name.zh.lower(), ctx.unit.name.en.lower()}
    if isinstance(d.unit, dict) and d.unit.get("name"):
        own.add(d.unit["name"].strip().lower())
    return named in own


def from_outside(ctx: CheckContext, ref: str) -> bool:
    """A player registered with, or employed by, another unit than the delegation's."""
    p = ctx.people[ref]
    return any(named and not own_unit(ctx, named) for named in (p.registration_unit, p.employment_unit))


@rule_check("team_makeup")
def team_makeup(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    for event in rule.events:
        teams = ctx.entries_by_event.get(event, [])
        if not teams:
            continue
        if rule.requires_unit and ctx.delegation.unit is None:
            out.append(Violation(
                "UNIT_NOT_ELIGIBLE",
                f"{ctx.event_name(event)}以单位组队参加，个人报名不能报团体赛。",
                f"{ctx.event_name(event, 'en')} is for teams of a unit; an individual entry cannot enter it.",
                event=event))
        unit = ctx.delegation.unit_code
        cap = rule.max_teams_by_unit.get(unit, rule.max_teams) if unit else rule.max_teams
        extra = ctx.placed_extra(rule.placed_bonus, rule.events) if cap is not None else 0
        if cap is not None and len(teams) > cap + extra:
            # A number of its own for a named unit reads as that unit's ("北京只能报 3 支队").
            who = ((ctx.unit.name.zh if ctx.unit else unit), (ctx.unit.name.en if ctx.unit else unit)) \
                if unit in rule.max_teams_by_unit else ("每单位", "per unit")
            why = (f"（其中 {extra} 支因上届名次增报）" if extra else "", f" ({extra} for last edition's place)" if extra else "")
            cap += extra
            out.append(Violation(
                "TEAM_LIMIT",
                f"{ctx.event_name(event)}{who[0]}只能报 {cap} 支队{why[0]}，现报了 {len(teams)} 支。",
                f"{ctx.event_name(event, 'en')} takes {_count(cap, 'team', 'teams')} "
                f"{'from ' + who[1] if who[1] != 'per unit' else 'per unit'}{why[1]}; {len(teams)} are entered.",
                event=event, people=tuple(ctx.entrants[event])))
        for entry in teams:
            out.extend(_one_team(ctx, rule, entry))
    return out


def _one_team(ctx: CheckContext, rule, entry) -> list[Violation]:
    out = []
    event, team = entry.event, ctx.team_label(entry)
    slots = _slots(entry)
    tzh, ten = _team_id(ctx, entry), _team_id(ctx, entry, "en")

    def bad(zh, en, refs):
        out.append(Violation("TEAM_COMPOSITION", f"{tzh}：{zh}", f"{ten[0].upper()}{ten[1:]}: {en}",
                             event=event, team=team, people=tuple(refs)))

    refs = [s.person for s in slots]
    twice = [r for r, n in Counter(refs).items() if n > 1]
    if twice:
        bad(f"{names(ctx, twice)} 在队中出现了两次。", f"{names(ctx, twice, 'en')} appears twice.", twice)
    starters = [s.person for s in slots if not s.reserve]
    reserves = [s.person for s in slots if s.reserve]
    gender = {r: ctx.gender_in(r, event) for r in refs}

    if rule.starters is not None:
        counts = Counter(gender[r] for r in starters)
        want_zh = "、".join(f"{G[g][0]} {n} 人" for g, n in rule.starters.items())
        want_en = ", ".join(_of_gender(n, g) for g, n in rule.starters.items())
        have_zh = "、".join(f"{G[g][0]} {counts.get(g, 0)} 人" for g in ("M", "F") if counts.get(g)) or "0 人"
        have_en = ", ".join(_of_gender(counts.get(g, 0), g) for g in ("M", "F") if counts.get(g)) or "none"
        if any(counts.get(g, 0) != rule.starters.get(g, 0) for g in ("M", "F")):
            bad(f"上场队员应为{want_zh}，现为{have_zh}。", f"starters must be {want_en}; they are {have_en}.",
                starters)
    if rule.max_reserves is not None and len(reserves) > rule.max_reserves:
        bad(f"替补最多 {rule.max_reserves} 人，现有 {len(reserves)} 人。" if rule.max_reserves
            else f"本项目不设替补，现有替补 {len(reserves)} 人。",
            f"at most {_count(rule.max_reserves, 'reserve', 'reserves')}; there are {len(reserves)}." if rule.max_reserves
            else f"this event takes no reserves; there {'is' if len(reserves) == 1 else 'are'} {len(reserves)}.", reserves)
    if rule.max_reserves_by_gender is not None:
        counts = Counter(gender[r] for r in reserves)
        for g, n in counts.items():
            cap = rule.max_reserves_by_gender.get(g, 0)
            if g is not None and n > cap:
                over = [r for r in reserves if gender[r] == g]
                bad(f"{G[g][0]}替补最多 {cap} 人，现有 {n} 人。" if cap else f"不设{G[g][0]}替补，现有 {n} 人。",
                    f"at most {_count(cap, 'reserve', 'reserves')} among the {G[g][1]}; there are {n}." if cap
                    else f"no reserves among the {G[g][1]}; there {'is' if n == 1 else 'are'} {n}.", over)
    if rule.min_by_gender is not None:
        counts = Counter(gender[r] for r in refs)
        for g, n in rule.min_by_gender.items():
            if counts.get(g, 0) < n:
                bad(f"须由男女选手共同组成，至少需要 {n} 名{G[g][0]}选手。",
                    f"must include both genders: at least {_of_gender(n, g)}.", refs)
    if rule.max_by_gender is not None:
        counts = Counter(gender[r] for r in refs)
        for g, n in rule.max_by_gender.items():
            if counts.get(g, 0) > n:
                over = [r for r in refs if gender[r] == g]
                bad(f"{G[g][0]}选手最多 {n} 人，现有 {counts[g]} 人。",
                    f"at most {_of_gender(n, g)}; there are {counts[g]}.", over)
    if rule.max_from_outside is not None:
        outside = [r for r in refs if from_outside(ctx, r)]
        if len(outside) > rule.max_from_outside:
            bad(f"本单位以外的选手（外援）最多 {rule.max_from_outside} 人，现有 {len(outside)} 人：{names(ctx, outside)}。",
                f"at most {_count(rule.max_from_outside, 'player', 'players')} from outside the unit; there are "
                f"{len(outside)}: {names(ctx, outside, 'en')}.", outside)
    if rule.members_entered_in is not None:
        for r in refs:
            individual = rule.members_entered_in.get(gender[r]) if gender[r] else None
            if individual is None or r in ctx.entrants.get(individual, []):
                continue
            label = ctx.people[r].label
            bad(f"{label} 没有报名对应的个人赛{ctx.event_name(individual)}；团体队员须从本单位该组个人赛选手中产生。",
                f"{label} is not entered in the matching individual event {ctx.event_name(individual, 'en')}; "
                f"team members come from the unit's individual entrants of that group.", [r])
    return out


@rule_check("boards")
def boards(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    for event in rule.events:
        for entry in ctx.entries_by_event.get(event, []):
            out.extend(_board_order(ctx, rule, entry))
    return out


def _board_order(ctx: CheckContext, rule, entry) -> list[Violation]:
    out = []
    event, team = entry.event, ctx.team_label(entry)
    tzh, ten = _team_id(ctx, entry), _team_id(ctx, entry, "en")

    def bad(zh, en, refs):
        out.append(Violation("BOARD_ORDER", f"{tzh}：{zh}", f"{ten[0].upper()}{ten[1:]}: {en}",
                             event=event, team=team, people=tuple(refs)))

    starters = [s for s in _slots(entry) if not s.reserve]
    no_board = [s.person for s in starters if s.board is None]
    if no_board:
        bad(f"{names(ctx, no_board)} 没有台次，上场队员须排定 1–{rule.boards} 台。",
            f"{names(ctx, no_board, 'en')} has no board; starters play boards 1-{rule.boards}.", no_board)
    outside = [s.person for s in starters if s.board is not None and not 1 <= s.board <= rule.boards]
    if outside:
        bad(f"{names(ctx, outside)} 的台次超出 1–{rule.boards}。",
            f"{names(ctx, outside, 'en')} has a board outside 1-{rule.boards}.", outside)
    by_board = {}
    for s in starters:
        if s.board is not None:
            by_board.setdefault(s.board, []).append(s.person)
    for board, refs in sorted(by_board.items()):
        if len(refs) > 1:
            bad(f"第 {board} 台排了 {len(refs)} 人（{names(ctx, refs)}）。",
                f"board {board} is given to {len(refs)} players ({names(ctx, refs, 'en')}).", refs)
    missing = [b for b in range(1, rule.boards + 1) if b not in by_board]
    if missing and not no_board:
        bad(f"缺少第 {'、'.join(map(str, missing))} 台。",
            f"{'board' if len(missing) == 1 else 'boards'} {', '.join(map(str, missing))} missing.", [])
    # A pinned board is played by that gender, and that gender plays only its pinned boards
    # (gomoku.XT: "女子选手均为第4台").
    for board, g in rule.board_gender.items():
        for ref in by_board.get(board, []):
            if ctx.gender.get(ref) not in (None, g):
                bad(f"第 {board} 台须由{G[g][0]}选手担任，{ctx.people[ref].label} 不符合。",
                    f"board {board} must be played by one of the {G[g][1]}; {ctx.people[ref].label} cannot.",
                    [ref])
    for s in starters:
        g = ctx.gender.get(s.person)
        pinned = [b for b, pg in rule.board_gender.items() if pg == g]
        if pinned and s.board is not None and s.board not in pinned and 1 <= s.board <= rule.boards:
            where = "、".join(map(str, pinned))
            bad(f"{G[g][0]}选手须排在第 {where} 台，{ctx.people[s.person].label} 排在第 {s.board} 台。",
                f"the {G[g][1]} play board {where}; {ctx.people[s.person].label} is on board {s.board}.",
                [s.person])
    return out
