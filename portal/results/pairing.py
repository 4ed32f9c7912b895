"""The bridge to pairing programs and the rounds: absences per round (shaanxi-mind-2025
六(一)2: 两轮未到者不再编排), and each event's players exported as pairing programs read
them, those no longer paired left out: FIDE's TRF-16 for chess programs, an Excel sheet of
序号, 姓名, 性别, 单位, 组别 for Chinese 编排 programs. Their final standings come back
through the results import (services.read_sheet reads TRF-16 and their sheets)."""
from __future__ import annotations

from sqlalchemy import delete, select

from ..audit.services import Actor, record
from ..db_tx import transactional
from ..delegations.models import Person
from ..extensions import db
from ..games.services import definition_of
from ..outcome import Outcome, Refusal, Status
from ..register.forfeits import carry_forfeits
from ..rules.awards import Rounds, of_kind
from ..sheets import to_xlsx
from ..text import Text
from .entrants import Player, players
from .models import RoundAbsence

GENDER = {"M": ("男", "m"), "F": ("女", "w")}


def rounds_rule(definition, event) -> Rounds | None:
    return next((r for r in of_kind(definition.competition, Rounds) if r.applies_to(event)), None)


def absences(games, event_code: str) -> dict[str, set[int]]:
    """Player key -> the rounds he missed."""
    out: dict[str, set[int]] = {}
    for key, round_no in db.session.execute(select(RoundAbsence.entrant_key, RoundAbsence.round_no).where(
            RoundAbsence.games_id == games.id, RoundAbsence.event_code == event_code)):
        out.setdefault(key, set()).add(round_no)
    return out


def unpaired(rule: Rounds | None, missed: dict[str, set[int]]) -> set[str]:
    """Players no longer paired: absent from `unpaired_after_absences` rounds."""
    if rule is None or not rule.unpaired_after_absences:
        return set()
    return {key for key, rounds in missed.items() if len(rounds) >= rule.unpaired_after_absences}


@transactional
def record_absences(games, event_code: str, rule: Rounds, listed: list[Player], marked: set[str],
                    actor: Actor) -> Outcome:
    """Replace the event's absences with the boxes ticked ("<key>:<round>")."""
    keys = {p.key for p in listed}
    count = rule.count or 0
    rows = []
    for item in marked:
        key, _sep, round_text = item.partition(":")
        if key not in keys or not round_text.isdigit() or not 1 <= int(round_text) <= count:
            raise Refusal("input", "出勤记录中有不属于本项目的选手或轮次", "a player or round not of this event")
        rows.append((key, int(round_text)))
    db.session.execute(delete(RoundAbsence).where(RoundAbsence.games_id == games.id,
                                                  RoundAbsence.event_code == event_code))
    db.session.add_all([RoundAbsence(games_id=games.id, event_code=event_code, entrant_key=key, round_no=n,
                                     recorded_by=actor.label) for key, n in sorted(rows)])
    names = {p.key: p.name for p in listed}
    record(actor, "results.absences", "event", event_code,
           after={"absent": sorted(f"{names[k]} R{n}" for k, n in rows), "games": games.slug})
    # Each round missed counts in the series' ladder of forfeits (the player register).
    missed: dict[int, set[int]] = {}
    for key, n in rows:
        if key.startswith("p"):
            missed.setdefault(int(key[1:]), set()).add(n)
    carry_forfeits(games, definition_of(games), event_code, missed, actor)
    return Outcome(True, status=Status.SAVED)


def absences_from_trf(text: str, listed: list[Player]) -> tuple[set[str], list[Text]]:
    """The rounds each player missed, from a TRF-16 file of the pairing program: on each
    "001" line the rounds follow from column 92, ten characters each (opponent, colour,
    result); a result "-" (forfeit) or "Z" (absent, zero) is a round missed. Returns the
    ticks ("<key>:<round>") and the problems."""
    by_number = {p.number: p for p in listed if p.number is not None}
    marked, problems = set(), []
    for i, raw in enumerate(text.splitlines(), start=1):
        if not raw.startswith("001"):
            continue
        number = raw[4:8].strip()
        player = by_number.get(int(number)) if number.isdigit() else None
        if player is None:
            problems.append(Text(f"第 {i} 行：序号 {number} 不是本项目抽签的序号", f"line {i}: number {number} was not drawn"))
            continue
        rounds = raw[91:]
        for r in range(0, len(rounds), 10):
            field = rounds[r:r + 10]
            result = field[7:8]  # opponent 92-95, colour 97, result 99
            if result in ("-", "Z", "z"):
                marked.add(f"{player.key}:{r // 10 + 1}")
    if not by_number:
        problems.append(Text("本项目还没有抽签，TRF 文件按序号对应选手", "no draw yet: TRF lines are matched by number"))
    return marked, problems


def _group(definition, event) -> str:
    sport = next((s for s in definition.sports if s.code == event.sport), None)
    return f"{sport.name.zh if sport else ''}{event.name.zh}"


def export(games, event, fmt: str) -> tuple[bytes, str]:
    definition = definition_of(games)
    listed, _left = players(games, event.code)
    gone = unpaired(rounds_rule(definition, event), absences(games, event.code))
    listed = [p for p in listed if p.key not in gone]
    ratings = _ratings(listed)
    if fmt == "trf":
        return trf16(games, definition, event, listed, ratings).encode("utf-8"), "text/plain; charset=utf-8"
    group = _group(definition, event)
    rows = [[p.number if p.number is not None else i, p.name + p.distinguish, GENDER.get(p.gender, ("", ""))[0],
             p.unit, group, p.birth_date.isoformat() if p.birth_date else "", ratings.get(p.key) or ""]
            for i, p in enumerate(listed, start=1)]
    return (to_xlsx(group[:31], ["序号", "姓名", "性别", "单位", "组别", "出生日期", "等级分"], rows),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def _ratings(listed: list[Player]) -> dict[str, int | None]:
    ids = [p.person_id for p in listed if p.person_id is not None]
    if not ids:
        return {}
    return {f"p{pid}": rating for pid, rating in db.session.execute(
        select(Person.id, Person.fide_rating).where(Person.id.in_(ids)))}


def trf16(games, definition, event, listed: list[Player], ratings: dict) -> str:
    """FIDE Tournament Report File (TRF-16): the header lines, the pairing programs' XXR
    (rounds) and XXC (first colour) lines, and one "001" line a player,
    columns as the format fixes them (start number 5-8, sex 10, name 15-47, rating 49-52,
    federation 54-56, birth date 70-79)."""
    lines = [f"012 {games.name_zh} {event.name.zh}",
             f"022 {definition.venue.zh if definition.venue else ''}",
             f"042 {definition.dates.start:%Y/%m/%d}", f"052 {definition.dates.end:%Y/%m/%d}",
             f"062 {len(listed)}"]
    # What a pairing program needs before it pairs (bbpPairings, JaVaFo refuse a file
    # without them): the number of rounds, as the regulation sets it, and the first colour.
    rule = rounds_rule(definition, event)
    if rule is not None and rule.count:
        lines.append(f"XXR {rule.count}")
    lines.append("XXC white1")
    for i, p in enumerate(listed, start=1):
        number = p.number if p.number is not None else i
        row = [" "] * 89
        def put(col: int, text: str, width: int, right: bool = False, row=row):
            text = str(text)[:width]
            text = text.rjust(width) if right else text.ljust(width)
            row[col - 1:col - 1 + width] = list(text)
        put(1, "001", 3)
        put(5, number, 4, right=True)
        put(10, GENDER.get(p.gender, ("", ""))[1], 1)
        put(15, p.name, 33)
        rating = ratings.get(p.key)
        if rating:
            put(49, rating, 4, right=True)
        put(54, "CHN", 3)
        if p.birth_date:
            put(70, p.birth_date.strftime("%Y/%m/%d"), 10)
        put(81, "0.0", 4, right=True)
        lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"
