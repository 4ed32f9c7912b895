"""Writing the player register: a rating list imported as the federation publishes it, a grade
recorded or corrected with its reason, a player put on a Games' list of qualifiers. Each
write is one transaction, audited, and counts one revision (career.py names it to the
judgements remembered across nodes)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import re

from sqlalchemy import insert, select, update

from ..audit.services import Actor, record
from ..bulk_insert import insert_rows
from ..db_tx import transactional
from ..extensions import db
from ..games.models import utcnow
from ..games.services import unit_name_pairs
from ..outcome import Outcome, Refusal, Status
from ..privacy import mask_id
from ..rules.idnumber import REASONS, normalise, parse
from ..sheets import decode_text
from ..spreadsheet_formats import uploaded_rows
from ..text import Text
from ..upload_checks import UploadRefused, check_size
from .models import NamedRating, PlayerGrade, PlayerRating, Qualification, RatingList, RegisteredPlayer, RegisterRevision

MAX_LIST_BYTES = 20 * 1024 * 1024
MAX_LIST_ROWS = 200_000
HEADINGS = {
    "id_number": ("证件号码", "身份证号", "身份证号码", "身份证", "证件号", "id number", "id_number"),
    "name": ("姓名", "棋手", "选手", "name", "player"),
    "value": ("等级分", "积分", "分数", "rating", "elo"),
    "gender": ("性别", "gender", "sex"),
    "unit": ("单位", "代表单位", "所属单位", "省市", "unit", "federation"),
}


def unit_key(name: str) -> str:
    """A unit's name as lists write it: 浙江, 浙江省 and "Zhejiang" alike."""
    return re.sub(r"(省|市|(壮族|回族|维吾尔)?自治区|特别行政区)$", "", "".join(name.split())).lower()


def bump_revision() -> None:
    """Count one change (inside the writing transaction)."""
    if db.session.execute(update(RegisterRevision).where(RegisterRevision.id == 1)
                          .values(revision=RegisterRevision.revision + 1)).rowcount == 0:
        db.session.add(RegisterRevision(id=1, revision=1))


def player_for(id_number: str, name: str, gender: str | None = None, birth: dt.date | None = None,
               unit: str | None = None) -> RegisteredPlayer:
    """The register's player of an identity number, made when first met; `unit`: the unit he
    represents here, added to those he has represented (under the player's row lock)."""
    return players_for([(id_number, name, gender, birth, unit)])[normalise(id_number)]


def players_for(people: list[tuple[str, str, str | None, dt.date | None, str | None]]) -> dict[str, RegisteredPlayer]:
    """player_for() of many people at once, (identity number, name, gender, birth, unit) each:
    their rows read and locked in one statement, in the numbers' order (two writers lock
    alike), those first met made, one flush. Keyed by the normalised number."""
    wanted: dict[str, tuple] = {}
    for number, name, gender, birth, unit in people:
        wanted.setdefault(normalise(number), (name, gender, birth, []))[3].append(unit)
    found: dict[str, RegisteredPlayer] = {}
    numbers = sorted(wanted)
    for start in range(0, len(numbers), 5000):
        for player in db.session.scalars(select(RegisteredPlayer).where(RegisteredPlayer.id_number.in_(numbers[start:start + 5000]))
                                         .order_by(RegisteredPlayer.id_number).with_for_update()
                                         .execution_options(populate_existing=True)):
            found[player.id_number] = player
    new = []
    for number, (name, gender, birth, units) in wanted.items():
        player = found.get(number)
        if player is None:
            if birth is None or gender is None:
                parsed, _problem = parse(number)
                if parsed is not None:
                    birth, gender = birth or parsed.birth_date, gender or parsed.gender
            new.append({"id_number": number, "name": name[:100], "gender": gender, "birth_date": birth,
                        "units": sorted({u for u in units if u}) or None})
            continue
        for unit in units:
            player.represented(unit)
    db.session.flush()
    if new:  # one multi-row insert (COPY on PostgreSQL), then the new rows read back at once
        insert_rows(RegisteredPlayer.__table__, new)
        made = [row["id_number"] for row in new]
        for start in range(0, len(made), 5000):
            for player in db.session.scalars(select(RegisteredPlayer).where(
                    RegisteredPlayer.id_number.in_(made[start:start + 5000]))):
                found[player.id_number] = player
    return found


def _heading(cells: list[str]) -> dict[str, int] | None:
    found = {}
    for j, cell in enumerate(cells):
        text = (cell or "").strip().lower()
        for key, words in HEADINGS.items():
            if key not in found and text in words:
                found[key] = j
    keys = set(found)
    return found if "value" in keys and ("id_number" in keys or {"name", "unit"} <= keys) else None


def read_rating_list(data: bytes, filename: str, unit_codes: dict[str, str] | None = None):
    """(identity number or None, name, rating, gender, unit code) of each row of a list as a
    federation publishes it (Excel or CSV; the headings 证件号码 or 姓名 and 单位, and 等级分, in
    any order; 单位 read against `unit_codes`, a unit's name -> its code), every problem by
    row, and the rows without a number whose unit the portal does not know (not read)."""
    try:
        check_size(data, MAX_LIST_BYTES)
        rows = uploaded_rows(data, filename)
    except UploadRefused as exc:
        return [], [exc.as_text()], []
    if rows is None:
        rows = list(csv.reader(io.StringIO(decode_text(data))))
    header, out, problems, unplaced = None, [], [], []
    for i, r in enumerate(rows[:MAX_LIST_ROWS + 10], start=1):
        cells = [("" if c is None else str(c)).strip() for c in r]
        if not any(cells):
            continue
        if header is None:
            header = _heading(cells)
            continue
        def cell(key, cells=cells, header=header):
            j = header.get(key)
            return cells[j] if j is not None and j < len(cells) else ""
        number, value = cell("id_number"), cell("value")
        unit = (unit_codes or {}).get(unit_key(cell("unit"))) if cell("unit") else None
        if not number:
            # As federations publish them: a name and a unit, no identity number.
            if not cell("name") or not cell("unit"):
                problems.append(Text(f"第 {i} 行：没有证件号码，也没有姓名和单位，无法与棋手对应",
                                     f"row {i}: no identity number, nor a name and a unit, to match"))
                continue
            if unit is None:
                unplaced.append(i)
                continue
        else:
            parsed, problem = parse(normalise(number))
            if parsed is None:
                zh, en = REASONS[problem]
                problems.append(Text(f"第 {i} 行：证件号码 {mask_id(number)} {zh}", f"row {i}: identity number {mask_id(number)} {en}"))
                continue
        try:
            points = int(float(value))
        except ValueError:
            problems.append(Text(f"第 {i} 行：等级分“{value}”应为整数", f"row {i}: rating {value!r} must be a whole number"))
            continue
        if points < 0 or points > 4000:
            problems.append(Text(f"第 {i} 行：等级分 {points} 不在 0 至 4000 之间", f"row {i}: rating {points} is outside 0-4000"))
            continue
        gender = {"男": "M", "女": "F", "m": "M", "f": "F"}.get(cell("gender").lower() if cell("gender") else "")
        out.append((normalise(number) if number else None, cell("name") or "", points, gender, unit))
    if header is None:
        problems.append(Text("没有找到标题行：须有“等级分”列，以及“证件号码”列或“姓名”和“单位”两列",
                             "no heading row: the list needs a 等级分 (rating) column and either 证件号码 (identity "
                             "number) or 姓名 (name) and 单位 (unit)"))
    if len(rows) > MAX_LIST_ROWS + 10:
        problems.append(Text(f"最多 {MAX_LIST_ROWS} 行", f"at most {MAX_LIST_ROWS} rows"))
    return out, problems, unplaced


@transactional
def import_rating_list(actor: Actor, list_code: str, published_on: dt.date, filename: str, data: bytes,
                       games_slug: str | None = None) -> Outcome:
    """One edition of a rating list, all rows or none; an edition imported again replaces
    the earlier import of it."""
    unit_codes = {unit_key(name): code for code, names in unit_name_pairs().items() for name in names if name}
    rows, problems, skipped = read_rating_list(data, filename, unit_codes)
    if problems:
        raise Refusal("input", "；".join(p.zh for p in problems[:20]), "; ".join(p.en for p in problems[:20]),
                      details={"problems": problems})
    if not rows:
        raise Refusal("input", "名单中没有等级分行", "the list holds no ratings")
    numbered = [r for r in rows if r[0] is not None]
    named = [r for r in rows if r[0] is None]
    seen = set()
    for number, *_rest in numbered:
        if number in seen:
            raise Refusal("input", f"证件号码 {mask_id(number)} 在名单中出现了两次",
                          f"identity number {mask_id(number)} appears twice in the list")
        seen.add(number)
    old = db.session.scalar(select(RatingList).where(RatingList.list_code == list_code,
                                                     RatingList.published_on == published_on))
    before = {"rows": old.rows, "filename": old.filename} if old else None
    if old is not None:
        db.session.delete(old)
        db.session.flush()
    edition = RatingList(list_code=list_code, published_on=published_on, filename=filename[:200], rows=len(rows),
                         imported_by=actor.label, imported_at=utcnow())
    db.session.add(edition)
    db.session.flush()
    numbers = [r[0] for r in numbered]
    known: dict[str, RegisteredPlayer] = {}
    for start in range(0, len(numbers), 5000):
        known.update({p.id_number: p for p in db.session.scalars(
            select(RegisteredPlayer).where(RegisteredPlayer.id_number.in_(numbers[start:start + 5000])))})
    new = []
    for number, name, _value, gender, unit in numbered:
        if number not in known:
            parsed, _problem = parse(number)
            known[number] = RegisteredPlayer(id_number=number, name=(name or "")[:100], created_at=utcnow(),
                                             gender=gender or (parsed.gender if parsed else None),
                                             birth_date=parsed.birth_date if parsed else None)
            new.append(known[number])
        known[number].represented(unit)
    db.session.add_all(new)
    db.session.flush()
    if numbered:
        db.session.execute(insert(PlayerRating), [{"list_id": edition.id, "player_id": known[n].id, "value": v}
                                                  for n, _name, v, _g, _u in numbered])
    if named:
        db.session.execute(insert(NamedRating), [
            {"list_id": edition.id, "name": "".join(name.split())[:100], "unit_code": unit, "gender": g, "value": v}
            for _n, name, v, g, unit in named])
    unplaced = sum(1 for n, *_rest in numbered if not known[n].units)
    bump_revision()
    entry = record(actor, "register.rating_list", "rating_list", f"{list_code}:{published_on.isoformat()}", before=before,
                   after={"rows": len(rows), "filename": filename, "by_name": len(named), "unit_unknown": len(skipped)})
    entry.games_slug = games_slug
    zh, en = f"已导入 {len(rows)} 名棋手的等级分", f"{len(rows)} ratings imported"
    if named:
        zh += f"（其中 {len(named)} 名没有证件号码，按姓名和单位对应）"
        en += f" ({len(named)} without an identity number, matched by name and unit)"
    # Without a unit the register tells no delegation of him (career.py) until one is known.
    if unplaced:
        zh += f"；{unplaced} 名有证件号码的棋手没有可识别的“单位”，在其代表单位参赛或录入成绩前，报名时不会读取其等级分"
        en += (f"; {unplaced} with an identity number have no unit the portal knows, and their ratings are not read "
               "for an entry until they have played for a unit")
    if skipped:
        rows_zh = "、".join(str(i) for i in skipped[:20]) + ("等" if len(skipped) > 20 else "")
        zh += f"；第 {rows_zh} 行没有证件号码，单位也无法识别，未导入"
        en += f"; rows {', '.join(str(i) for i in skipped[:20])} have no identity number and no unit the portal knows, not imported"
    return Outcome(True, status=Status.SAVED, message=(zh, en))


@transactional
def record_grade(actor: Actor, id_number: str, name: str, system: str, grade: str, awarded_on: dt.date | None,
                 source: str, *, awarded_by: str | None = None, reason: str | None = None,
                 replaces: int | None = None, games_slug: str | None = None, unit: str | None = None) -> Outcome:
    """A grade or title the player holds; `replaces`: the grade it corrects, withdrawn with
    `reason` (a correction needs one)."""
    if not grade.strip():
        raise Refusal("input", "请填写段级位或称号", "give the grade or title")
    old = None
    if replaces is not None:
        if not (reason or "").strip():
            raise Refusal("input", "更正段级位须说明理由", "a correction needs its reason")
        old = db.session.get(PlayerGrade, replaces)
        if old is None or old.withdrawn_at is not None:
            raise Refusal("state", "要更正的段级位已不存在", "the grade to correct is no longer there")
        old.withdrawn_at, old.withdrawn_reason = utcnow(), reason.strip()
    player = player_for(id_number, name, unit=unit)
    row = PlayerGrade(player_id=player.id, system=system, grade=grade.strip()[:40], awarded_on=awarded_on,
                      awarded_by=awarded_by, source=source[:300], recorded_by=actor.label, recorded_at=utcnow())
    db.session.add(row)
    bump_revision()
    entry = record(actor, "register.grade", "player", mask_id(player.id_number), reason=reason,
                   before={"system": old.system, "grade": old.grade, "awarded_on": str(old.awarded_on)} if old else None,
                   after={"system": system, "grade": row.grade, "awarded_on": str(awarded_on), "source": source})
    entry.games_slug = games_slug
    return Outcome(True, status=Status.SAVED)


@transactional
def withdraw_qualification(actor: Actor, qualification_id: int, target: tuple[str, str], reason: str) -> Outcome:
    """Take a player off a Games' list of qualified players (`target`: its slug and series),
    with the reason; the row stays, withdrawn, and the audit says who and why."""
    if not reason.strip():
        raise Refusal.of_field("reason", "请说明理由", "give the reason")
    row = db.session.get(Qualification, qualification_id)
    if row is None or row.target not in target or row.withdrawn_at is not None:
        raise Refusal("state", "这条晋级记录已不存在", "this qualification is no longer there")
    row.withdrawn_at, row.withdrawn_reason = utcnow(), reason.strip()[:1000]
    bump_revision()
    player = db.session.get(RegisteredPlayer, row.player_id)
    entry = record(actor, "register.qualification_withdrawn", "player", mask_id(player.id_number),
                   before={"target": row.target, "from": row.from_games, "place": row.place}, reason=reason)
    entry.games_slug = target[0]
    return Outcome(True, status=Status.SAVED)


@transactional
def qualify(actor: Actor, id_number: str, name: str, target: str, from_games: str, from_series: str,
            reason: str, unit: str) -> Outcome:
    """Put a player on the list of those qualified for `target` by hand (a wild card, a
    correction), with the reason and the unit he is to represent (whose delegation may then
    enter him)."""
    if not reason.strip():
        raise Refusal.of_field("reason", "请说明理由", "give the reason")
    parsed, problem = parse(normalise(id_number or ""))
    if parsed is None:
        zh, en = REASONS.get(problem, ("无效", "is not valid"))
        raise Refusal.of_field("id_number", f"证件号码{zh}", f"the identity number {en}")
    if not name.strip():
        raise Refusal.of_field("name", "请填写姓名", "give the name")
    if not unit:
        raise Refusal.of_field("unit", "请选择代表单位", "choose the unit he represents")
    player = player_for(id_number, name.strip(), unit=unit)
    db.session.add(Qualification(player_id=player.id, target=target, from_games=from_games, from_series=from_series,
                                 recorded_by=actor.label, recorded_at=utcnow()))
    bump_revision()
    entry = record(actor, "register.qualify", "player", mask_id(player.id_number), after={"target": target, "unit": unit}, reason=reason)
    entry.games_slug = from_games
    return Outcome(True, status=Status.SAVED)
