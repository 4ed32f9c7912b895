"""Units uploaded by the organisers (issue 22, 2): a sheet of 单位名称, 类别, 所属省份 (and,
optionally, 单位代码, 英文名称, 高校代码 for the institutions of a joint team), checked whole
before anything is stored; a code of the national list is never changed this way."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from sqlalchemy import select

from ..audit.services import Actor, record
from ..db_tx import write_transaction
from ..extensions import db
from ..rules.checks.eligibility import UNIT_KIND_NAMES
from ..sheets import decode_text
from ..spreadsheet_formats import uploaded_rows
from ..text import Text
from ..upload_checks import UploadRefused
from .models import Games, Unit, University
from .services import definition_of, national_units

MAX_ROWS = 2000
HEADINGS = {"code": ("单位代码", "代码", "code"), "name": ("单位名称", "名称", "单位", "name"),
            "name_en": ("英文名称", "英文名", "name_en", "english name"), "kind": ("类别", "单位类别", "kind"),
            "province": ("所属省份", "省份", "所属省", "province"), "universities": ("高校代码", "所含高校", "universities")}


@dataclass
class UnitLine:
    row: int
    code: str
    name: str
    name_en: str
    kind: str
    province_code: str | None
    universities: list[str] = field(default_factory=list)


def known_kinds() -> dict[str, tuple[str, str]]:
    """The portal's kinds of units and every Games' own (unit_kind_names)."""
    out = dict(UNIT_KIND_NAMES)
    for games in db.session.scalars(select(Games)):
        for k in definition_of(games).unit_kind_names:
            out[k.code] = (k.name.zh, k.name.en)
    return out


def _code_for(name: str) -> str:
    from pypinyin import lazy_pinyin
    code = re.sub(r"[^a-z0-9]+", "-", "".join(lazy_pinyin(name)).lower()).strip("-")
    return code[:40] or "unit"


def read_units_sheet(data: bytes, filename: str) -> tuple[list[UnitLine], list[str]]:
    try:
        rows = uploaded_rows(data, filename)
    except UploadRefused as exc:
        return [], [exc.as_text()]
    if rows is None:
        rows = list(csv.reader(io.StringIO(decode_text(data))))
    rows = [[(c or "").strip() for c in r] for r in rows]
    header = None
    lines, problems = [], []
    kinds = known_kinds()
    by_kind_name = {zh: code for code, (zh, _en) in kinds.items()} | {code: code for code in kinds}
    provinces = {u["province_code"]: u for u in national_units() if u["kind"] == "province"}
    by_province_name = {}
    for code, u in provinces.items():
        zh = u["name"]["zh"]
        for key in (zh, zh.rstrip("省市"), re.sub(r"(壮族|回族|维吾尔)?自治区$", "", zh), u["code"], code):
            by_province_name[key] = code
    national = {u["code"] for u in national_units()}
    by_university_code = {u.code: u for u in db.session.scalars(select(University))}
    by_university_name = {u.name: u for u in by_university_code.values()}
    seen: dict[str, int] = {}
    for i, r in enumerate(rows[:MAX_ROWS + 2], start=1):
        if not any(r):
            continue
        if header is None:
            header = {}
            for key, names in HEADINGS.items():
                j = next((k for k, cell in enumerate(r) if cell.lower() in names), None)
                if j is not None:
                    header[key] = j
            if "name" not in header or "kind" not in header:
                return [], [Text(f"第 {i} 行应为表头，至少含“单位名称”和“类别”",
                                 f"row {i} must be the heading row, with at least 单位名称 and 类别")]
            continue
        def cell(key, r=r, header=header):
            j = header.get(key)
            return r[j] if j is not None and j < len(r) else ""
        name, kind_text = cell("name"), cell("kind")
        where = Text(f"第 {i} 行", f"row {i}")
        if not name:
            problems.append(Text("缺少单位名称", "no unit name").prefixed(where))
            continue
        kind = by_kind_name.get(kind_text) or by_kind_name.get(kind_text.lower())
        if kind is None:
            problems.append(Text(f"类别“{kind_text}”无效，可用：{'、'.join(zh for zh, _en in kinds.values())}",
                                 f"unknown kind {kind_text!r}: {', '.join(en for _zh, en in kinds.values())}").prefixed(where))
            continue
        province_text = cell("province")
        province = by_province_name.get(province_text) if province_text else None
        if province_text and province is None:
            problems.append(Text(f"所属省份“{province_text}”无法识别", f"unknown province {province_text!r}").prefixed(where))
            continue
        code = (cell("code") or _code_for(name)).lower()
        if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]{1,39}", code):
            problems.append(Text(f"单位代码“{code}”只能用小写字母、数字和 - _ .", "the code may use a-z, 0-9, - _ .").prefixed(where))
            continue
        if code in national:
            problems.append(Text(f"“{code}”是全国单位名单中的代码，不能修改", f"{code!r} is on the national list").prefixed(where))
            continue
        if code in seen:
            problems.append(Text(f"代码“{code}”与第 {seen[code]} 行重复", f"code {code!r} repeats row {seen[code]}").prefixed(where))
            continue
        universities = [u for u in re.split(r"[,，、\s]+", cell("universities")) if u]
        if kind == "university" and not universities:
            # A university is its own student's unit: found on the national list by its
            # name or its ten-digit code, or refused here (else every student is refused later).
            uni = by_university_name.get(name) or by_university_code.get(cell("code"))
            if uni is None:
                problems.append(Text(f"“{name}”不在教育部高校名单中：请写高校全称，或在“单位代码”一列写 10 位高校代码",
                                     f"{name!r} is not on the Ministry of Education's list: give the full name, or its "
                                     f"ten-digit code in the code column").prefixed(where))
                continue
            universities, province = [uni.code], province or uni.province_code
        seen[code] = i
        lines.append(UnitLine(i, code, name[:100], (cell("name_en") or name)[:200], kind, province, universities))
    if len(rows) > MAX_ROWS + 2:
        problems.append(Text(f"最多 {MAX_ROWS} 行", f"at most {MAX_ROWS} rows"))
    if not lines and not problems:
        problems.append(Text("表中没有单位", "no units in the sheet"))
    return lines, problems


def _sheet_rows(data: bytes, filename: str) -> list[list[str]]:
    rows = uploaded_rows(data, filename)  # UploadRefused: the caller says why
    if rows is None:
        rows = list(csv.reader(io.StringIO(decode_text(data))))
    return [[("" if c is None else str(c)).strip() for c in r] for r in rows]


def read_invitation_sheet(data: bytes, filename: str, known: dict[str, str]) -> tuple[list[str], list[UnitLine], list[str]]:
    """An invitation list (issue 26, 4): the same sheet as the units' (单位名称, 类别, 所属省份
    ...). A row naming a unit already known (`known`: name, short name or code -> code) is
    that unit; any other row is a new unit, read and checked as on the units page, its
    row numbers kept. Returns (the invited codes in the sheet's order, the new units,
    every problem)."""
    try:
        rows = _sheet_rows(data, filename)
    except UploadRefused as exc:
        return [], [], [exc.as_text()]
    if not any(any(r) for r in rows):
        return [], [], [Text("表中没有单位", "no units in the sheet")]
    names_or_codes = HEADINGS["name"] + HEADINGS["code"]
    head = next((i for i, r in enumerate(rows[:10]) if any(c.lower() in names_or_codes for c in r)), None)
    if head is None:  # a title above the heading row is fine; no heading row at all is not
        return [], [], [Text("前 10 行中没有表头“单位名称”", "no heading row with 单位名称 in the first 10 rows")]
    header = {key: next((k for k, cell in enumerate(rows[head]) if cell.lower() in names), None)
              for key, names in HEADINGS.items()}
    codes, rest = [], [[""] for _r in rows]
    rest[head] = rows[head]
    for i, r in enumerate(rows[head + 1:MAX_ROWS + head + 2], start=head + 1):
        def cell(key, r=r):
            j = header[key]
            return r[j] if j is not None and j < len(r) else ""
        found = known.get(cell("code").lower()) or known.get(cell("name"))
        if found:
            codes.append(found)
        elif any(r):
            rest[i] = r
            codes.append(None)  # a new unit: its code once read
    new, problems = [], []
    if any(any(r) for r in rest[head + 1:]):
        if header["kind"] is None:
            names = [r[header["name"]] for r in rest[head + 1:] if any(r) and header["name"] is not None
                     and header["name"] < len(r)]
            return [], [], [Text(f"单位名单中没有这些单位：{'、'.join(names[:5])}；新单位须在“类别”一列写明类别",
                                 f"not on the list of units: {', '.join(names[:5])}; a new unit needs its kind (类别)")]
        text = io.StringIO()
        csv.writer(text).writerows(rest)
        new, problems = read_units_sheet(text.getvalue().encode("utf-8"), "invited.csv")
    fresh = iter(x.code for x in new)
    codes = [c if c is not None else next(fresh, None) for c in codes]
    if len(rows) > MAX_ROWS + head + 2:
        problems.append(Text(f"最多 {MAX_ROWS} 行", f"at most {MAX_ROWS} rows"))
    return list(dict.fromkeys(c for c in codes if c)), new, problems


def save_units(lines: list[UnitLine], actor: Actor) -> tuple[int, int]:
    """Insert or update the units (one transaction); returns (added, changed)."""
    added = changed = 0
    with write_transaction():
        existing = {u.code: u for u in db.session.scalars(select(Unit).where(Unit.code.in_([x.code for x in lines])))}
        for x in lines:
            row = existing.get(x.code)
            before = None
            if row is None:
                row = Unit(code=x.code, governing_bodies=[])
                added += 1
            else:
                before = {"name": row.name_zh, "kind": row.kind, "province": row.province_code}
                changed += 1
            row.kind, row.name_zh, row.name_en, row.province_code = x.kind, x.name, x.name_en, x.province_code
            row.universities = list(x.universities)
            db.session.add(row)
            record(actor, "unit.save", "unit", x.code, before=before,
                   after={"name": x.name, "kind": x.kind, "province": x.province_code, "universities": x.universities})
    return added, changed


def refused_unit_changes(lines) -> list[str]:
    """An organiser adds units and changes those only his Games use; the national list, and
    a unit another Games' delegations use, are the administrators' to change."""
    from flask_login import current_user

    from ..roles import Role
    from ..translation import gettext as _
    from .queries import units_by_code, units_used_elsewhere
    if current_user.role == Role.ADMIN:
        return []
    existing = units_by_code([x.code for x in lines])
    national = {u["code"] for u in national_units()}
    elsewhere = units_used_elsewhere(list(existing))
    out = []
    for x in lines:
        row = existing.get(x.code)
        if row is None or (row.name_zh, row.name_en, row.kind, row.province_code) == (x.name, x.name_en, x.kind, x.province_code):
            continue
        if x.code in national or x.code in elsewhere:
            out.append(_("第 %(row)d 行：“%(name)s”在全国名单中或已有其他比赛使用，只有系统管理员能修改。",
                         row=x.row, name=row.name_zh))
    return out
