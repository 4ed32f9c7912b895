"""Entering an event's results and reading the standings. Results come from the event's
players (entrants.py), never from free text: a line is matched to a player by his drawn
number or his name (and unit), and every line that matches no player, matches one twice,
is someone who does not play, or is out of range, is listed at once, storing nothing until
all are right. Points, medals, prizes and derived standings come from the fixture's awards
(portal/rules/standings.py), computed exactly."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from sqlalchemy import delete, select

from ..audit.services import Actor, record
from ..db_tx import write_transaction
from ..delegations.models import Delegation, Entry, EntryMember, Person
from ..extensions import db
from ..games.services import definition_of
from ..outcome import Outcome, Status
from ..register.earned import Placed, carry, wins_missing
from ..rules.awards import AgeStanding, GroupStanding, MedalsAward, OutsideMedals, TeamFromIndividuals, of_kind
from ..rules.definition import TeamMakeupRule
from ..rules.standings import (
    MEDALS,
    OutsideMedal,
    Placing,
    Result,
    ResultsError,
    Team,
    age_standing,
    check_ranking,
    group_standing,
    has_points,
    score_event,
    standing_prizes,
    standings,
    team_from_individuals,
)
from ..sheets import decode_text
from ..spreadsheet_formats import uploaded_rows
from ..text import Text
from ..upload_checks import UploadRefused
from ..workflow.models import Withdrawal
from .entrants import Player, players
from .models import EventResult, OutsideMedal as OutsideMedalRow

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..games.models import Games
    from ..rules.definition import GamesDefinition

MAX_ROWS = 2000

# Column headings as Chinese pairing (编排) programs and FIDE's exports write them.
HEADINGS = {
    "place": ("名次", "排名", "最终名次", "rank", "place", "pos", "no.", "rk"),
    "number": ("序号", "编号", "号码", "抽签号", "棋手序号", "start no", "startno", "snr", "id"),
    "name": ("姓名", "棋手", "选手", "运动员", "队名", "队伍", "name", "player", "team"),
    "unit": ("单位", "代表队", "代表单位", "俱乐部", "club", "unit", "fed", "federation"),
    "score": ("积分", "得分", "总分", "分数", "pts", "points", "score"),
    "buchholz": ("对手分", "对手积分", "buchholz", "bh", "opp"),
    "median": ("中间对手分", "中间分", "median", "median buchholz", "bh-1", "mbh"),
    "wins": ("胜局", "胜局数", "胜", "wins", "won"),
    "sonneborn": ("小分", "sb", "sonneborn", "sonneborn-berger"),
}
TIE_BREAK_NAMES = {"buchholz": ("对手分", "Buchholz"), "median": ("中间对手分", "median Buchholz"),
                   "wins": ("胜局", "wins"), "sonneborn": ("小分", "Sonneborn-Berger")}


@dataclass
class Line:
    """A line of a results sheet, as read (`key`: the player, when chosen on the form)."""
    row: int
    key: str | None = None
    place: int | None = None
    number: int | None = None
    name: str = ""
    unit: str = ""
    score: Fraction | None = None
    tie_breaks: dict = field(default_factory=dict)


def _header_map(cells: list[str]) -> dict[str, int] | None:
    found = {}
    for i, cell in enumerate(cells):
        c = cell.strip().lower().replace("（", "(").split("(")[0].strip()
        for key, names in HEADINGS.items():
            if key not in found and c in names:
                found[key] = i
    return found if "place" in found and ("name" in found or "number" in found) else None


def _exact(text: str) -> Fraction | None:
    text = (text or "").strip().replace(",", ".").replace("½", ".5")
    if not text:
        return None
    try:
        return Fraction(Decimal(text))
    except (InvalidOperation, ValueError):
        raise ValueError(text)


def _place(text: str) -> int | None:
    t = (text or "").strip().replace("第", "").replace("名", "").rstrip(".").strip()
    if t.startswith("=") or t.endswith("="):  # "=3": a shared place
        t = t.strip("=")
    return int(t) if t.isdigit() else None


def read_sheet(data: bytes, filename: str) -> tuple[list[Line], list[Text]]:
    """Lines of a CSV or Excel results sheet with a heading row (名次, 序号, 姓名, 单位, 积分,
    对手分...: the columns in any order), FIDE's TRF-16, or headingless "名次, 单位, 姓名"
    lines. Every problem names its row."""
    text = None
    try:
        rows = uploaded_rows(data, filename)
    except UploadRefused as exc:
        return [], [exc.as_text()]
    if rows is None:
        text = decode_text(data)
        if re.search(r"^001 ", text, re.M):
            return read_trf(text)
        rows = list(csv.reader(io.StringIO(text)))
    rows = [[("" if c is None else str(c)).strip() for c in r] for r in rows]
    lines, problems = [], []
    header = None
    for i, r in enumerate(rows[:MAX_ROWS + 5], start=1):
        if not any(r):
            continue
        if header is None:
            header = _header_map(r)
            if header is not None:
                continue
            if _place(r[0]) is None and len(lines) == 0:
                continue  # a title or a heading we do not know: the legacy lines follow
            header = {"place": 0, "unit": 1, "name": 2}
        def cell(key, r=r, header=header):
            j = header.get(key)
            return r[j] if j is not None and j < len(r) else ""
        line = Line(i, name=cell("name"), unit=cell("unit"))
        line.place = _place(cell("place"))
        if line.place is None:
            problems.append(Text(f"第 {i} 行：名次“{cell('place')}”应为正整数", f"row {i}: place {cell('place')!r} must be a whole number"))
            continue
        number = cell("number")
        if number:
            if not number.isdigit():
                problems.append(Text(f"第 {i} 行：序号“{number}”应为整数", f"row {i}: number {number!r} must be a whole number"))
                continue
            line.number = int(number)
        try:
            line.score = _exact(cell("score"))
            for key in TIE_BREAK_NAMES:
                value = _exact(cell(key))
                if value is not None:
                    line.tie_breaks[key] = decimal_text(value)
        except ValueError as exc:
            problems.append(Text(f"第 {i} 行：“{exc}”不是数字", f"row {i}: {exc} is not a number"))
            continue
        if not line.name and line.number is None:
            problems.append(Text(f"第 {i} 行：缺少姓名或序号", f"row {i}: no name or number"))
            continue
        lines.append(line)
    if len(rows) > MAX_ROWS + 5:
        problems.append(Text(f"最多 {MAX_ROWS} 行", f"at most {MAX_ROWS} rows"))
    return lines, problems


def read_trf(text: str) -> tuple[list[Line], list[Text]]:
    """FIDE's TRF-16 (the exchange format of chess pairing programs): each "001" line is a
    player: start number at columns 5-8, name 15-47, federation 54-56, points 81-84, rank
    86-89."""
    lines, problems = [], []
    for i, raw in enumerate(text.splitlines(), start=1):
        if not raw.startswith("001"):
            continue
        raw = raw.ljust(90)
        number, name, fed = raw[4:8].strip(), raw[14:47].strip(), raw[53:56].strip()
        points, rank = raw[80:84].strip(), raw[85:89].strip()
        if not number.isdigit() or not rank.isdigit():
            problems.append(Text(f"第 {i} 行：TRF 序号或名次无法识别", f"line {i}: TRF start number or rank unreadable"))
            continue
        try:
            score = _exact(points)
        except ValueError:
            problems.append(Text(f"第 {i} 行：TRF 积分“{points}”不是数字", f"line {i}: TRF points {points!r} not a number"))
            continue
        line = Line(i, place=int(rank), number=int(number), name=name, unit=fed, score=score)
        # Each round is 10 columns from 92 (opponent, colour, result): 1, + and W are games won.
        rounds = [raw[j:j + 10] for j in range(91, len(raw.rstrip()), 10)]
        if rounds:
            line.tie_breaks["wins"] = str(sum(1 for r in rounds if r[7:8] in ("1", "+", "W")))
        lines.append(line)
    if not lines and not problems:
        problems.append(Text("TRF 文件中没有棋手行（001）", "no player lines (001) in the TRF file"))
    return lines, problems


def _norm(text: str) -> str:
    return re.sub(r"[\s·・.,，]", "", (text or "")).lower()


def _unit_is(typed: str, p) -> bool:
    """Whether a unit as typed on a results line is the player's: its name in either
    language, the start of it ("苏州" for 苏州少儿棋院), or his club."""
    unit = _norm(typed)
    return (unit in (_norm(p.unit), _norm(getattr(p, "unit_en", "") or "")) or _norm(p.unit).startswith(unit)
            or bool(getattr(p, "club", None) and unit == _norm(p.club)))


def match_lines(games: Games, event_code: str, lines: list[Line]) -> tuple[list[tuple[Line, Player]], list[str]]:
    """Each line's player, or every problem at once: no such player, one player twice, a
    person of these Games who does not play the event (and why), a unit that is not his."""
    listed, left_out = players(games, event_code)
    by_number = {p.number: p for p in listed if p.number is not None}
    by_name: dict[str, list[Player]] = {}
    for p in listed:
        by_name.setdefault(_norm(p.name), []).append(p)
    left_by_name: dict[str, list] = {}
    for x in left_out:
        left_by_name.setdefault(_norm(x.name), []).append(x)
    problems, matched, seen = [], [], {}
    by_key = {p.key: p for p in listed}
    for line in lines:
        where = Text(f"第 {line.row} 行（{line.name or line.number or line.key or ''}）", f"row {line.row}")
        player = None
        if line.key is not None:
            player = by_key.get(line.key)
            if player is None:
                problems.append(Text("该选手已不在本项目的参赛名单中", "no longer a player of this event").prefixed(where))
                continue
        elif line.number is not None and by_number:
            player = by_number.get(line.number)
            if player is None:
                problems.append(Text(f"序号 {line.number} 不是本项目抽签的序号", f"number {line.number} was not drawn").prefixed(where))
                continue
            if line.name and _norm(line.name) != _norm(player.name) and _norm(line.name) not in _norm(player.name):
                problems.append(Text(f"序号 {line.number} 是 {player.name}，不是 {line.name}",
                                     f"number {line.number} is {player.name}, not {line.name}").prefixed(where))
                continue
        elif not (line.name or "").strip():
            problems.append(Text("没有姓名，也没有序号", "neither a name nor a number").prefixed(where))
            continue
        else:
            candidates = by_name.get(_norm(line.name), [])
            if len(candidates) > 1 and line.unit:
                candidates = [p for p in candidates if _unit_is(line.unit, p)]
            if not candidates:
                # One who does not play, by name and, where the line gives it, by unit: another
                # unit's namesake who was left out is not this line's player.
                gone = [x for x in left_by_name.get(_norm(line.name), []) if not line.unit or _unit_is(line.unit, x)]
                if len(gone) == 1:
                    problems.append(Text(f"{gone[0].name}（{gone[0].unit}）不参加本项目的比赛：{gone[0].why[0]}",
                                         f"{gone[0].name} does not play: {gone[0].why[1]}").prefixed(where))
                elif line.unit:
                    problems.append(Text(f"本项目的参赛者中没有{line.unit}的“{line.name}”",
                                         f"no player of this event from {line.unit} is called {line.name!r}").prefixed(where))
                else:
                    problems.append(Text(f"本项目的参赛者中没有“{line.name}”",
                                         f"no player of this event is called {line.name!r}").prefixed(where))
                continue
            if len(candidates) > 1:
                problems.append(Text(f"有 {len(candidates)} 名“{line.name}”，请写上单位或序号",
                                     f"{len(candidates)} players share this name: give the unit or the number")
                                .prefixed(where))
                continue
            player = candidates[0]
        if line.unit and line.number is None and line.key is None and not _unit_is(line.unit, player):
            problems.append(Text(f"{player.name} 的单位是 {player.unit}，不是 {line.unit}",
                                 f"{player.name} plays for {player.unit}, not {line.unit}").prefixed(where))
            continue
        if player.key in seen:
            problems.append(Text(f"{player.name} 已在第 {seen[player.key]} 行出现",
                                 f"{player.name} is already on row {seen[player.key]}").prefixed(where))
            continue
        seen[player.key] = line.row
        matched.append((line, player))
    return matched, problems


def lines_from_items(items: list[dict]) -> tuple[list[Line], list[Text]]:
    """Result lines sent as data (the API): each a place with the player's key, drawn number
    or name (and unit), and its score and tie-breaks as decimal text. Every problem names
    its line."""
    lines, problems = [], []
    for i, item in enumerate(items[:MAX_ROWS], start=1):
        line = Line(i, key=item.get("player"), place=item.get("place"), number=item.get("number"),
                    name=(item.get("name") or "").strip(), unit=(item.get("unit") or "").strip())
        try:
            line.score = _exact(str(item["score"])) if item.get("score") not in (None, "") else None
            for key, value in (item.get("tie_breaks") or {}).items():
                if key not in TIE_BREAK_NAMES:
                    raise KeyError(key)
                exact = _exact(str(value))
                if exact is not None:
                    line.tie_breaks[key] = decimal_text(exact)
        except ValueError as exc:
            problems.append(Text(f"第 {i} 行：“{exc}”不是数字", f"line {i}: {exc} is not a number"))
            continue
        except KeyError as exc:
            known = "、".join(zh for zh, _en in TIE_BREAK_NAMES.values())
            problems.append(Text(f"第 {i} 行：没有“{exc.args[0]}”这种小分（可用：{known}）",
                                 f"line {i}: {exc.args[0]!r} is not a tie-break ({', '.join(TIE_BREAK_NAMES)})"))
            continue
        if line.key is None and line.number is None and not line.name:
            problems.append(Text(f"第 {i} 行：缺少选手、序号或姓名", f"line {i}: no player, number or name"))
            continue
        lines.append(line)
    if len(items) > MAX_ROWS:
        problems.append(Text(f"最多 {MAX_ROWS} 行", f"at most {MAX_ROWS} lines"))
    return lines, problems


def lines_from_form(form: Mapping, listed: list[Player]) -> tuple[list[Line], list[Text]]:
    """The results form: a place (and points, and games won where a promotion reads them)
    typed beside each player."""
    lines, problems = [], []
    for i, p in enumerate(listed, start=1):
        place, score = (form.get(f"place-{p.key}") or "").strip(), (form.get(f"score-{p.key}") or "").strip()
        wins = (form.get(f"wins-{p.key}") or "").strip()
        if not place and not score:
            continue
        line = Line(i, key=p.key, name=p.name, number=p.number)
        line.place = _place(place)
        if line.place is None:
            problems.append(Text(f"{p.name}：名次“{place}”应为正整数", f"{p.name}: place {place!r} must be a whole number"))
            continue
        try:
            line.score = _exact(score)
        except ValueError:
            problems.append(Text(f"{p.name}：积分“{score}”不是数字", f"{p.name}: points {score!r} is not a number"))
            continue
        if wins:
            if not wins.isdigit():
                problems.append(Text(f"{p.name}：胜局“{wins}”应为整数", f"{p.name}: wins {wins!r} must be a whole number"))
                continue
            line.tie_breaks["wins"] = str(int(wins))
        lines.append(line)
    if not lines and not problems:
        problems.append(Text("请为选手填写名次，或上传成绩表", "type the places, or upload the results sheet"))
    return lines, problems


def entrants_count(games: Games, event_code: str) -> int:
    listed, _left = players(games, event_code)
    return len(listed)


def computed_from_individuals(definition: GamesDefinition, event_code: str) -> TeamFromIndividuals | None:
    return next((a for a in of_kind(definition.awards, TeamFromIndividuals) if event_code in a.events), None)


def _problems_before_entering(games: Games, event_code: str, lines: list[Line], read_problems) -> list[Text]:
    definition = definition_of(games)
    event = next((e for e in definition.events if e.code == event_code), None)
    if event is None:
        return [Text(f"“{event_code}”不是本届比赛的项目", "not an event of these Games")]
    if computed_from_individuals(definition, event_code) is not None:
        return [Text("该团体项目的成绩由个人赛成绩计算，无须录入", "this team event is computed from the individual results")]
    if not lines and not read_problems:
        return [Text("没有成绩行", "no result lines")]
    return []


def _refused(problems: list[Text]) -> Outcome:
    """Results refused: every problem at once, in details["problems"]; the message joins them."""
    return Outcome(False, status=Status.INVALID, code="input", details={"problems": problems},
                   message=("；".join(p.zh for p in problems[:20]), "; ".join(p.en for p in problems[:20])))


def enter_results(games: Games, event_code: str, lines: list[Line], actor: Actor,
                  entrants: int | None = None, read_problems: list[Text] = ()) -> Outcome:
    """Replace the event's results with these lines (all or nothing). A refusal's
    details["problems"] lists every problem (Text), those met reading the sheet
    (`read_problems`) with the rest."""
    problems = _problems_before_entering(games, event_code, lines, read_problems)
    if problems:
        return _refused(problems)
    definition = definition_of(games)
    matched, problems = match_lines(games, event_code, lines)
    problems = list(read_problems) + problems
    listed, _left = players(games, event_code)
    n = entrants if entrants else len(listed)
    results = [Result(line.place, str(p.delegation_id), p.name, p.key, line.score) for line, p in matched]
    event_name = next(e.name for e in definition.events if e.code == event_code)
    problems += [Text(*x).prefixed(Text(event_name.zh, event_name.en))
                 for x in check_ranking(event_code, n, results)]
    if matched and (missing := wins_missing(definition, event_code, [_wins(line) for line, _p in matched])):
        problems.append(missing)
    if problems:
        return _refused(problems)
    try:
        score_event(definition, event_code, n, results)
    except ResultsError as exc:
        return _refused([exc.text])
    with write_transaction():
        before = [(r.place, r.label, r.score) for r in db.session.scalars(
            select(EventResult).where(EventResult.games_id == games.id, EventResult.event_code == event_code))]
        db.session.execute(delete(EventResult).where(EventResult.games_id == games.id,
                                                     EventResult.event_code == event_code))
        db.session.add_all([EventResult(
            games_id=games.id, event_code=event_code, place=line.place, delegation_id=p.delegation_id,
            label=p.name[:200], entrants=n, entered_by=actor.label, entrant_key=p.key, number=p.number,
            score=decimal_text(line.score), tie_breaks=line.tie_breaks or None) for line, p in matched])
        record(actor, "results.enter", "event", event_code, before={"results": before} if before else None,
               after={"results": [(line.place, p.name, decimal_text(line.score)) for line, p in matched], "entrants": n,
                      "games": games.slug})
        # What the places earn beyond these Games (a qualification, a grade, points), in the
        # same transaction: the register never disagrees with the results.
        carry(games, definition, event_code, [
            Placed(line.place, [p.person_id] if p.person_id is not None else
                   [int(k[1:]) for k, _g in p.members if k.startswith("p")], line.score, _wins(line))
            for line, p in matched], actor)
    return Outcome(True, status=Status.SAVED)


def _wins(line: Line) -> int | None:
    value = line.tie_breaks.get("wins")
    return int(Fraction(value)) if value not in (None, "") else None


def stored_wins(games: Games, event_code: str) -> dict[str, str]:
    """Entrant key -> the games won as stored with the event's results."""
    return {key: (tb or {}).get("wins") for key, tb in db.session.execute(
        select(EventResult.entrant_key, EventResult.tie_breaks).where(
            EventResult.games_id == games.id, EventResult.event_code == event_code)) if (tb or {}).get("wins")}


def wins_read(definition: GamesDefinition, event_code: str) -> bool:
    """Whether the event's results must give each player's games won (a promotion by wins)."""
    return wins_missing(definition, event_code, [None]) is not None


def decimal_text(value: Fraction | None) -> str | None:
    if value is None:
        return None
    return str(Decimal(value.numerator) / Decimal(value.denominator)) if value.denominator != 1 else str(value.numerator)


def _event_label(definition, code: str) -> str:
    event = next((e for e in definition.events if e.code == code), None)
    return event.name.zh if event else code


# --- reading the standings -------------------------------------------------------------------

@dataclass
class DerivedStanding:
    code: str
    name: tuple[str, str]
    clause: str | None
    reading: tuple[str, str] | None
    rows: list
    by: str  # "club", "unit" or "person"
    score: str  # "points" or "places"


@dataclass
class GamesStandings:
    entrants: dict[str, int]
    placings: dict[str, list[Placing]]
    table: list
    derived: list[DerivedStanding]
    outside: list[OutsideMedal]
    points: bool
    medal_table: bool
    computed: set[str]


def _rows_by_event(games) -> tuple[dict[str, list[EventResult]], dict[str, int]]:
    by_event: dict[str, list[EventResult]] = {}
    entrants: dict[str, int] = {}
    for r in db.session.scalars(select(EventResult).where(EventResult.games_id == games.id)
                                .order_by(EventResult.event_code, EventResult.place, EventResult.id)):
        by_event.setdefault(r.event_code, []).append(r)
        entrants[r.event_code] = r.entrants
    return by_event, entrants


def _result(r: EventResult) -> Result:
    return Result(r.place, str(r.delegation_id), r.label, r.entrant_key or f"r{r.id}",
                  Fraction(Decimal(r.score)) if r.score not in (None, "") else None, r.tie_breaks or {})


def games_standings(games: Games) -> GamesStandings:
    """Every event's ranking with its awards, the units' tables, the derived standings and
    the medals won elsewhere, from a fixed number of queries."""
    definition = definition_of(games)
    by_event, entrants = _rows_by_event(games)
    placings: dict[str, list[Placing]] = {}
    for event, rows in by_event.items():
        try:
            placings[event] = score_event(definition, event, entrants[event], [_result(r) for r in rows])
        except ResultsError:
            placings[event] = []
    computed = set()
    for rule in of_kind(definition.awards, TeamFromIndividuals):
        for code in rule.events:
            computed.add(code)
            derived = _team_event(games, definition, rule, code, placings)
            if derived is not None:
                placings[code] = derived
    derived_standings = _derived(games, definition, placings)
    outside = [OutsideMedal(str(m.delegation_id), m.medal, f"{m.athlete} · {m.event_name}", m.source)
               for m in db.session.scalars(select(OutsideMedalRow).where(OutsideMedalRow.games_id == games.id)
                                           .order_by(OutsideMedalRow.id))]
    # A unit that withdrew without excuse, where the regulation says so, has no place in the
    # units' tables (its players keep their own places and medals).
    barred = _without_award_eligibility(games, definition)
    table = standings([p for ps in placings.values() for p in ps if p.unit not in barred],
                      [m for m in outside if m.unit not in barred])
    medal_table = any(a.table for a in of_kind(definition.awards, MedalsAward)) or bool(outside)
    for code in computed:
        if placings.get(code):
            entrants[code] = len({p.key for p in placings[code]})
    return GamesStandings(entrants, placings, table, derived_standings, outside, has_points(definition), medal_table,
                          computed)


def _without_award_eligibility(games, definition) -> set[str]:
    if not definition.sanctions.loses_award_eligibility:
        return set()
    return {str(did) for did in db.session.scalars(
        select(Withdrawal.delegation_id).join(Delegation, Delegation.id == Withdrawal.delegation_id)
        .where(Delegation.games_id == games.id, Withdrawal.excused.is_(False)))}


def _team_event(games, definition, rule, code, placings) -> list[Placing] | None:
    """A team event computed from its members' individual placings."""
    makeup = next(r for r in definition.rules_of(TeamMakeupRule) if code in r.events)
    individual: dict[str, Placing] = {}
    for event in (makeup.members_entered_in or {}).values():
        for p in placings.get(event, []):
            individual[p.key] = p
    if not individual:
        return None
    listed, _left = players(games, code)
    teams = [Team(p.key, str(p.delegation_id), p.name, p.members) for p in listed]
    results = team_from_individuals(definition, rule, code, teams, individual)
    if not results:
        return None
    return score_event(definition, code, len(teams), results)


def _derived(games, definition, placings) -> list[DerivedStanding]:
    out = []
    keys = {p.key for ps in placings.values() for p in ps if p.key.startswith("p")}
    people = {}
    if keys:
        people = {f"p{pid}": (club, born) for pid, club, born in db.session.execute(
            select(Person.id, Person.club, Person.birth_date).where(Person.id.in_([int(k[1:]) for k in keys])))}
    for rule in of_kind(definition.awards, GroupStanding):
        pool = [p for e in definition.events if rule.applies_to(e) and not e.is_team for p in placings.get(e.code, [])]
        if rule.group_by == "club":
            groups = {k: (club or "").strip() for k, (club, _b) in people.items() if (club or "").strip()}
        else:
            groups = {p.key: p.unit for p in pool}
        rows = group_standing(rule, pool, groups)
        standing_prizes(definition, rule.code, rows)
        out.append(DerivedStanding(rule.code, (rule.name.zh, rule.name.en), rule.clause,
                                   (rule.reading.zh, rule.reading.en) if rule.reading else None, rows,
                                   rule.group_by, rule.score))
    for rule in of_kind(definition.awards, AgeStanding):
        pool = [p for e in definition.events if rule.applies_to(e) and not e.is_team for p in placings.get(e.code, [])]
        born = {k: b for k, (_c, b) in people.items() if b}
        rows = age_standing(rule, pool, born)
        standing_prizes(definition, rule.code, rows)
        out.append(DerivedStanding(rule.code, (rule.name.zh, rule.name.en), rule.clause, None, rows, "person", "places"))
    return out


# --- medals won elsewhere (nmsg-2009 总则 九(八)) -----------------------------------------------

def outside_medals_rule(definition: GamesDefinition) -> OutsideMedals | None:
    return next(iter(of_kind(definition.awards, OutsideMedals)), None)


def add_outside_medal(games: Games, delegation_id: int, medal: str, athlete: str, event_name: str,
                      actor: Actor) -> list[str]:
    definition = definition_of(games)
    rule = outside_medals_rule(definition)
    problems = []
    if rule is None:
        return [Text("本届比赛的规程没有把其他比赛的奖牌计入奖牌榜", "the regulation counts no medals won elsewhere")]
    d = db.session.get(Delegation, delegation_id)
    if d is None or d.games_id != games.id:
        problems.append(Text("请选择本届比赛的代表团", "choose a delegation of these Games"))
    if medal not in list(MEDALS.values())[:rule.places]:
        problems.append(Text("请选择金、银或铜牌", "choose gold, silver or bronze"))
    if not (athlete or "").strip():
        problems.append(Text("请填写运动员", "name the athlete"))
    if not (event_name or "").strip():
        problems.append(Text("请填写项目", "name the event"))
    if problems:
        return problems
    with write_transaction():
        row = OutsideMedalRow(games_id=games.id, delegation_id=d.id, medal=medal, athlete=athlete.strip()[:200],
                              event_name=event_name.strip()[:200], source=rule.source.zh, entered_by=actor.label)
        db.session.add(row)
        record(actor, "results.outside_medal", "delegation", str(d.id), delegation=d,
               after={"medal": medal, "athlete": athlete.strip(), "event": event_name.strip(), "source": rule.source.zh})
    return []


def team_members(games: Games, event_code: str) -> dict[str, list[str]]:
    """Team entry key -> member names, for pages that show who a team is."""
    rows = db.session.execute(
        select(Entry.id, Person.name).join(EntryMember, EntryMember.entry_id == Entry.id)
        .join(Person, EntryMember.person_id == Person.id).join(Delegation, Entry.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Entry.event_code == event_code)
        .order_by(Entry.id, EntryMember.position)).all()
    out: dict[str, list[str]] = {}
    for entry_id, name in rows:
        out.setdefault(f"e{entry_id}", []).append(name)
    return out


def carry_stored_results(games: Games, actor: Actor) -> dict[str, int]:
    """Carry the Games' stored results into the register again, event by event, as entering
    them again would (what they earn replaces what they earned): results stored before the
    register kept places (migration 0048) count for a later Games' placed_before from then on.
    Returns the places carried for each event."""
    definition = definition_of(games)
    rows = db.session.execute(select(EventResult.event_code, EventResult.place, EventResult.entrant_key,
                                     EventResult.score, EventResult.tie_breaks)
                              .where(EventResult.games_id == games.id).order_by(EventResult.event_code, EventResult.place)).all()
    entry_ids = [int(r.entrant_key[1:]) for r in rows if r.entrant_key and r.entrant_key.startswith("e")]
    members: dict[int, list[int]] = {}
    for entry_id, person_id in db.session.execute(select(EntryMember.entry_id, EntryMember.person_id)
                                                  .where(EntryMember.entry_id.in_(entry_ids or [-1]))
                                                  .order_by(EntryMember.position)):
        members.setdefault(entry_id, []).append(person_id)
    by_event: dict[str, list[Placed]] = {}
    known = {e.code for e in definition.events}
    for r in rows:
        if r.event_code not in known or not r.entrant_key:
            continue
        kind, number = r.entrant_key[:1], r.entrant_key[1:]
        people = [int(number)] if kind == "p" and number.isdigit() else members.get(int(number), []) \
            if kind == "e" and number.isdigit() else []
        wins = (r.tie_breaks or {}).get("wins")
        by_event.setdefault(r.event_code, []).append(Placed(
            r.place, people, Fraction(r.score) if r.score else None, int(Fraction(wins)) if wins not in (None, "") else None))
    with write_transaction():
        for event_code, placed in by_event.items():
            carry(games, definition, event_code, placed, actor)
    return {event_code: sum(len(p.person_ids) for p in placed) for event_code, placed in by_event.items()}
