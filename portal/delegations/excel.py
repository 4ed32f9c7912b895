"""The Excel entry form (报名表): written pre-filled with drop-down lists, read back into a
delegation/1 document. Bad cells are named by sheet, row and column; a file that is not a
real, reasonably sized xlsx is refused before anything is parsed."""
from __future__ import annotations

import datetime as dt
import io

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from ..rules.definition import GamesDefinition, document_names, id_type_names
from ..rules.document import FORMAT, OFFICIAL_ROLES, STAFF_ROLES
from ..sheets import workbook_bytes
from ..spreadsheet_formats import SpreadsheetError, as_xlsx, kind_of
from ..text import InputProblems, Text
from ..upload_checks import UploadRefused, check_archive, check_size

NOT_A_SPREADSHEET = Text("不是 Excel（.xlsx、.xls）或 LibreOffice（.ods）表格文件",
                         "not an Excel (.xlsx, .xls) or LibreOffice (.ods) spreadsheet")
FILE = Text("文件", "file")
MAX_BYTES = 5 * 1024 * 1024
MAX_UNPACKED = 60 * 1024 * 1024
MAX_RATIO = 150
MAX_ROWS = 5000

T = Text
# Each sheet's title and columns in both languages: a form is written in its reader's
# language; one written in either, or in the bilingual form of earlier years ("姓名 name"),
# reads back (a column is found by its whole label in either language, or by the first
# word of its Chinese one).
PEOPLE = (T("人员", "People"), [
    ("ref", T("编号", "ref")), ("name", T("姓名", "name")), ("gender", T("性别 (M/F)", "gender (M/F)")),
    ("birth_date", T("出生日期", "birth date")), ("id_type", T("证件类型", "ID type")),
    ("id_number", T("证件号码", "ID number")), ("reg_unit", T("注册单位", "registration unit")),
    ("reg_year", T("注册年度", "registration year")), ("reg_date", T("注册日期", "registration date")),
    ("uni_code", T("高校代码", "university code")),
    ("full_time", T("全日制 (是/否)", "full time (yes/no)")), ("graduation", T("毕业日期", "graduation date")),
    ("rating", T("等级分", "FIDE rating")), ("rating_list", T("等级分日期", "rating list")),
    ("club", T("俱乐部", "club")), ("documents", T("材料", "documents")),
    # The player's career, where the regulation reads it (issue 36): last, optional.
    ("grade_system", T("段级位体系", "grade system")), ("grade", T("段级位或称号", "grade")),
    ("grade_on", T("授予日期", "awarded on")), ("residence", T("户籍区划代码", "residence")),
    ("residence_since", T("落户日期", "resident since")), ("nationality", T("国籍", "nationality")),
    ("job_kind", T("身份 (学生/教职工/毕业生)", "employment (student/staff/graduate)")),
    ("job_unit", T("所在单位", "employment unit")), ("job_since", T("入职或毕业日期", "since"))])
DECLARATIONS = (T("报项", "Declarations"), [("event", T("项目代码", "event")),
                                          ("event_name", T("项目 (仅供参考)", "event name (for reference)")),
                                          ("count", T("人数", "count"))])
INDIVIDUAL = (T("个人项目", "Individual events"), [("event", T("项目代码", "event")), ("person", T("人员编号", "person ref"))])
TEAMS = (T("团体", "Teams"), [("event", T("项目代码", "event")), ("team", T("队名", "team")),
                              ("person", T("人员编号", "person ref")), ("board", T("台次", "board")),
                              ("reserve", T("替补 (是/否)", "reserve (yes/no)"))])
ROLES = (T("官员与随队", "Officials and companions"), [
    ("section", T("类别", "section")), ("person", T("人员编号", "person ref")), ("role", T("职务", "role")),
    ("sport", T("大项", "sport")), ("accompanies", T("陪同对象", "accompanies"))])
INSTRUCTIONS, CODES = T("说明", "Instructions"), T("代码", "Codes")
SECTIONS = {"官员": "officials", "officials": "officials", "团部": "staff", "staff": "staff",
            "随队": "companions", "companions": "companions"}
SECTION_NAMES = {"officials": T("官员", "officials"), "staff": T("团部", "staff"), "companions": T("随队", "companions")}
# Columns added after forms were already out: a form without them still reads.
OPTIONAL_COLUMNS = {"reg_date", "grade_system", "grade", "grade_on", "residence", "residence_since", "nationality",
                    "job_kind", "job_unit", "job_since"}
JOB_KINDS = {"学生": "student", "教职工": "staff", "毕业生": "graduate", "校友": "graduate", "student": "student",
             "staff": "staff", "graduate": "graduate"}
YES = {"是", "y", "yes", "true", "1", "√", "x"}
NO = {"否", "n", "no", "false", "0", ""}
HEAD = Font(bold=True, color="FFFFFF")
HEAD_FILL = PatternFill("solid", fgColor="9E1B32")


class ExcelError(InputProblems):
    """The workbook's problems, each (where, what): the sheet and cell (or FILE) and the
    problem in both languages; each reader sees his own."""

    def __init__(self, problems: list[tuple[Text | str, Text]]):  # where: a cell "人员!D2", or FILE
        super().__init__(problems, "; ".join(f"{w}: {m}" for w, m in problems))


# --- writing -------------------------------------------------------------------------------------

def _sheet(wb, title, columns, rows, en: bool, widths=None):
    ws = wb.create_sheet(title.read(en))
    ws.append([label.read(en) for _, label in columns])
    for c in range(1, len(columns) + 1):
        cell = ws.cell(row=1, column=c)
        cell.font, cell.fill = HEAD, HEAD_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="center")
        ws.column_dimensions[get_column_letter(c)].width = (widths or {}).get(columns[c - 1][0], 16)
    for row in rows:
        ws.append(row)
    ws.freeze_panes = "A2"
    return ws


def _list_validation(ws, formula, col, prompt: Text, en: bool):
    dv = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True,
                        errorTitle=T("无效的值", "Invalid value").read(en), error=prompt.read(en))
    ws.add_data_validation(dv)
    letter = get_column_letter(col)
    dv.add(f"{letter}2:{letter}{MAX_ROWS}")


def _instructions(definition: GamesDefinition, doc: dict, en: bool) -> list[str]:
    unit = doc.get("unit") if isinstance(doc.get("unit"), str) else ""
    if en:
        return [f"{definition.name.en}: entry form", "", "How to fill in:",
                "1. One row per person on People: the ref is unique in this file; the other sheets refer to people "
                "by their ref. Type ID numbers as text.",
                "2. Declarations: athletes per event; Individual events: one athlete per row; Teams: one member per "
                "row (board or reserve).",
                "3. Officials and companions: the section is officials, staff (delegation staff) or companions; the "
                "roles are in the drop-down list.",
                "4. Dates as 2005-03-02. Keep the codes of the drop-down lists.",
                "5. After the upload you see the differences against what is stored; nothing is saved until you confirm.",
                "", f"Games: {definition.slug}", f"Unit: {unit}"]
    return [f"{definition.name.zh} 报名表", "", "填写说明：",
            "1. 在“人员”表中每人一行：编号在本表内唯一，其他表用编号引用人员。证件号码按文本填写。",
            "2. “报项”填写各项目人数；“个人项目”每行一名运动员；“团体”每行一名队员（台次或替补）。",
            "3. “官员与随队”：类别填 官员 / 团部 / 随队；职务见下拉列表。",
            "4. 日期写成 2005-03-02。下拉列表中的代码不要改写。",
            "5. 上传后系统会列出与已保存内容的差异，确认后才会保存。",
            "", f"比赛：{definition.slug}", f"单位：{unit}"]


def write_workbook(definition: GamesDefinition, doc: dict, en: bool = False) -> bytes:
    """The entry form of `doc`, in its reader's language (`en`: English; else Chinese)."""
    wb = Workbook()
    info = wb.active
    info.title = INSTRUCTIONS.read(en)
    for line in _instructions(definition, doc, en):
        info.append([line])
    info.column_dimensions["A"].width = 110
    info["A1"].font = Font(bold=True, size=14)
    yes = T("是", "yes").read(en)

    codes_title = CODES.read(en)
    codes = wb.create_sheet(codes_title)
    codes.append(["event", T("项目", "event name").read(en), "gender", "id_type", "official_role", "staff_role",
                  "section", "document", "sport"])
    events = [e.code for e in definition.events]
    id_types = list(id_type_names(definition))
    columns = [events, [e.name.en if en else e.name.zh for e in definition.events], ["M", "F"], id_types, list(OFFICIAL_ROLES),
               list(STAFF_ROLES), [n.read(en) for n in SECTION_NAMES.values()], list(document_names(definition)),
               [s.code for s in definition.sports]]
    for i in range(max(len(c) for c in columns)):
        codes.append([c[i] if i < len(c) else None for c in columns])
    codes.sheet_state = "hidden"
    n_events = len(events) + 1

    def rng(col, n):
        return f"'{codes_title}'!${col}$2:${col}${n}"

    people = _sheet(wb, PEOPLE[0], PEOPLE[1], [
        [p["ref"], p.get("name"), p.get("gender"), p.get("birth_date"), p.get("id_type"), p.get("id_number"),
         (p.get("registration") or {}).get("unit"), (p.get("registration") or {}).get("year"),
         (p.get("registration") or {}).get("date"), (p.get("university") or {}).get("code"),
         None if not p.get("university") else (yes if p["university"].get("full_time") else T("否", "no").read(en)),
         (p.get("university") or {}).get("graduation_date"), (p.get("fide_rating") or {}).get("value"),
         (p.get("fide_rating") or {}).get("list"), p.get("club"), ",".join(p.get("documents") or []),
         *_career_cells(p, en)]
        for p in doc["people"]], en, widths={"name": 12, "id_number": 22, "documents": 30})
    # ID numbers stay text (a number would lose a trailing X and digits past the 15th).
    people.column_dimensions["F"].number_format = "@"
    for row in range(2, people.max_row + 1):
        people.cell(row=row, column=6).number_format = "@"
    _list_validation(people, rng("C", 3), 3, T("M 或 F", "M or F"), en)
    _list_validation(people, rng("D", len(id_types) + 1), 5, T("见下拉列表", "see the drop-down list"), en)

    pick_event = T("请从下拉列表选择项目代码", "choose the event's code from the drop-down list")
    decl = _sheet(wb, DECLARATIONS[0], DECLARATIONS[1],
                  [[x["event"], next(((e.name.en if en else e.name.zh) for e in definition.events if e.code == x["event"]), ""), x["count"]]
                   for x in doc["declarations"]], en, widths={"event_name": 24})
    _list_validation(decl, rng("A", n_events), 1, pick_event, en)

    ind_rows, team_rows = [], []
    kinds = {e.code: e.kind for e in definition.events}
    for e in doc["entries"]:
        if e.get("lineup") is not None or kinds.get(e["event"]) == "team":
            slots = e.get("lineup") if e.get("lineup") is not None else [{"person": r} for r in e.get("people") or []]
            for s in slots:
                team_rows.append([e["event"], e.get("team") or "A", s["person"], s.get("board"),
                                  yes if s.get("reserve") else None])
        else:
            for ref in e.get("people") or []:
                ind_rows.append([e["event"], ref])
    ind = _sheet(wb, INDIVIDUAL[0], INDIVIDUAL[1], ind_rows, en)
    _list_validation(ind, rng("A", n_events), 1, pick_event, en)
    teams = _sheet(wb, TEAMS[0], TEAMS[1], team_rows, en)
    _list_validation(teams, rng("A", n_events), 1, pick_event, en)

    section = {k: n.read(en) for k, n in SECTION_NAMES.items()}
    role_rows = [[section["officials"], o["person"], o["role"], o.get("sport"), None] for o in doc.get("officials") or []]
    role_rows += [[section["staff"], s["person"], s["role"], None, None] for s in doc.get("staff") or []]
    role_rows += [[section["companions"], c["person"], "companion", None, c.get("accompanies")]
                  for c in doc.get("companions") or []]
    roles = _sheet(wb, ROLES[0], ROLES[1], role_rows, en)
    _list_validation(roles, rng("G", 4), 1, T("官员、团部 或 随队", "officials, staff or companions"), en)
    return workbook_bytes(wb)


# --- reading -------------------------------------------------------------------------------------

def _check_container(raw: bytes) -> None:
    try:
        check_size(raw, MAX_BYTES)
        check_archive(raw, MAX_UNPACKED, required="xl/workbook.xml", max_ratio=MAX_RATIO)
    except UploadRefused as exc:  # a damaged zip or another kind of zip: not a workbook at all
        raise ExcelError([(FILE, NOT_A_SPREADSHEET if exc.unreadable else exc.as_text())]) from None


def _career_cells(p: dict, en: bool) -> list:
    grade = (p.get("grades") or [{}])[0]
    residence, job = p.get("residence") or {}, p.get("employment") or {}
    job_kind = job.get("kind") if en else \
        {v: k for k, v in JOB_KINDS.items() if not k.isascii()}.get(job.get("kind"), job.get("kind"))
    return [grade.get("system"), grade.get("grade"), grade.get("awarded_on"), residence.get("province"),
            residence.get("since"), p.get("nationality"), job_kind, job.get("unit"), job.get("since")]


def _career_of(v: dict, cell, date) -> tuple[dict, list[tuple[str, str]]]:
    """The career columns of a people row as the document writes them, and their problems."""
    out, problems = {}, []
    system, grade = _text(v.get("grade_system")), _text(v.get("grade"))
    if grade:
        out["grades"] = [{"system": (system or "").lower() or None, "grade": grade,
                          "awarded_on": date(v.get("grade_on"), "grade_on")}]
        if not system:
            problems.append((cell("grade_system"), Text("请填写段级位体系（如 cwa、cxa）", "give the grade system (e.g. cwa, cxa)")))
    region = _text(v.get("residence"))
    if region:
        out["residence"] = {"province": region, "since": date(v.get("residence_since"), "residence_since")}
    if _text(v.get("nationality")):
        out["nationality"] = _text(v.get("nationality")).upper()
    kind = _text(v.get("job_kind"))
    if kind:
        if kind.lower() not in JOB_KINDS and kind not in JOB_KINDS:
            problems.append((cell("job_kind"), Text(f"身份“{kind}”应为学生、教职工或毕业生", f"{kind!r} must be 学生 (student), 教职工 (staff) or 毕业生 (graduate)")))
        else:
            out["employment"] = {"kind": JOB_KINDS.get(kind, JOB_KINDS.get(kind.lower())), "unit": _text(v.get("job_unit")),
                                 "since": date(v.get("job_since"), "job_since")}
    return out, problems


def _sheet_title(wb, title: Text) -> str | None:
    """The workbook's name of the sheet: as a form in either language names it."""
    names = {name.strip().lower(): name for name in wb.sheetnames}
    return names.get(title.zh.lower()) or names.get(title.en.lower())


def _column(labels: list[str], label: Text) -> int | None:
    """Where a column is: its whole label in either language (any case), else the first
    word of its Chinese one (the bilingual headers of earlier forms, "姓名 name")."""
    wanted = {label.zh.lower(), label.en.lower()}
    found = next((i for i, lab in enumerate(labels) if lab.lower() in wanted), None)
    if found is None:
        short = label.zh.split(" ")[0]
        found = next((i for i, lab in enumerate(labels) if lab.split(" ")[0] == short), None)
    return found


def _rows(wb, sheet, problems):
    """The sheet's rows, each (row number, values by column key, column letters by key);
    the sheet's name as the workbook gives it (for the cells' places)."""
    title, cols = sheet
    name = _sheet_title(wb, title)
    if name is None:
        return name, []
    ws = wb[name]
    header = None
    out = []
    for r, row in enumerate(ws.iter_rows(values_only=True), start=1):
        if r > MAX_ROWS + 1:
            problems.append((f"{name}", Text(f"行数超过 {MAX_ROWS}", f"more than {MAX_ROWS} rows")))
            break
        if header is None:
            labels = [str(c).strip() if c is not None else "" for c in row]
            header = {}
            for key, label in cols:
                match = _column(labels, label)
                if match is None and key in OPTIONAL_COLUMNS:
                    continue
                if match is None:
                    problems.append((f"{name}!{get_column_letter(len(labels) + 1)}1",
                                     Text(f"缺少列“{label.zh}”", f"missing column {label.en!r}")))
                    return name, []
                header[key] = match
            continue
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in row):
            continue
        values = {k: (row[header[k]] if k in header and header[k] < len(row) else None) for k, _label in cols}
        out.append((r, values, {k: get_column_letter(i + 1) for k, i in header.items()}))
    return name, out


def _text(v):
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    s = str(v).strip()
    return s or None


def read_workbook(raw: bytes, definition: GamesDefinition, current: dict) -> dict:
    """Read an uploaded entry form (.xlsx, or the same re-saved as .xls or .ods) into a
    delegation/1 document for the same Games and unit."""
    kind = kind_of(raw)
    if kind in ("xls", "ods"):
        try:
            raw = as_xlsx(raw, kind)
        except SpreadsheetError as exc:
            raise ExcelError([(FILE, Text(exc.zh, exc.en))]) from None
    _check_container(raw)
    try:
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception:
        raise ExcelError([(FILE, Text("无法读取这个 Excel 文件（可能已损坏）", "the workbook cannot be read (damaged?)"))]) from None
    problems: list[tuple[str, str]] = []

    def where(sheet, col, r):
        return f"{sheet}!{col}{r}"  # the upload page adds the row in words (uploads.where_in_words)

    def date(v, sheet, col, r):
        if v is None or (isinstance(v, str) and not v.strip()):
            return None
        if isinstance(v, dt.datetime):
            return v.date().isoformat()
        if isinstance(v, dt.date):
            return v.isoformat()
        s = str(v).strip()
        for fmt in ("%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d"):
            try:
                return dt.datetime.strptime(s, fmt).date().isoformat()
            except ValueError:
                pass
        problems.append((where(sheet, col, r), Text(f"日期“{s}”无效，应写成 2005-03-02", f"invalid date {s!r}, write 2005-03-02")))
        return None

    def integer(v, sheet, col, r):
        if v is None or (isinstance(v, str) and not v.strip()):
            return None
        try:
            f = float(v)
            if f.is_integer():
                return int(f)
        except (TypeError, ValueError):
            pass
        problems.append((where(sheet, col, r), Text(f"“{v}”应为整数", f"{v!r} must be a whole number")))
        return None

    def yesno(v, sheet, col, r):
        s = (_text(v) or "").lower()
        if s in YES:
            return True
        if s in NO:
            return False
        problems.append((where(sheet, col, r), Text(f"“{v}”应填 是 或 否", f"{v!r}: write 是 (yes) or 否 (no)")))
        return None

    people, refs = [], set()
    s, rows = _rows(wb, PEOPLE, problems)
    for r, v, cols in rows:
        ref = _text(v["ref"])
        if not ref:
            problems.append((where(s, cols["ref"], r), Text("缺少编号", "missing ref")))
            continue
        if ref in refs:
            problems.append((where(s, cols["ref"], r), Text(f"编号“{ref}”重复", f"ref {ref!r} used twice")))
            continue
        refs.add(ref)
        number = v["id_number"]
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            problems.append((where(s, cols["id_number"], r),
                             Text("证件号码被 Excel 存成了数字（末位 X 或后几位会丢失），请把该列设为文本后重新输入",
                                  "the ID number was stored as a number; format the column as text and type it again")))
            number = None
        gender = _text(v["gender"])
        gender = {"男": "M", "女": "F", "m": "M", "f": "F"}.get(gender.lower() if gender else gender, gender)
        if gender not in (None, "M", "F"):
            problems.append((where(s, cols["gender"], r), Text(f"性别“{gender}”应为 M 或 F", "gender must be M or F")))
            gender = None
        id_type = _text(v["id_type"])
        if id_type is not None and id_type not in id_type_names(definition):
            problems.append((where(s, cols["id_type"], r), Text(f"证件类型“{id_type}”无效", f"unknown id_type {id_type!r}")))
        docs = [d.strip() for d in (_text(v["documents"]) or "").replace("，", ",").split(",") if d.strip()]
        known = document_names(definition)
        for d in docs:
            if d not in known:
                problems.append((where(s, cols["documents"], r), Text(f"未知的材料“{d}”", f"unknown document {d!r}")))
        p = {"ref": ref, "name": _text(v["name"]), "gender": gender,
             "birth_date": date(v["birth_date"], s, cols["birth_date"], r),
             "id_type": id_type, "id_number": _text(number),
             "club": _text(v["club"]), "documents": [d for d in docs if d in known]}
        if not p["name"]:
            problems.append((where(s, cols["name"], r), Text("缺少姓名", "missing name")))
        reg_unit, reg_year = _text(v["reg_unit"]), integer(v["reg_year"], s, cols["reg_year"], r)
        reg_date = date(v["reg_date"], s, cols.get("reg_date", "?"), r) if v.get("reg_date") is not None else None
        p["registration"] = {"unit": reg_unit.lower() if reg_unit else None, "year": reg_year,
                             **({"date": reg_date} if reg_date else {})} if reg_unit or reg_year or reg_date else None
        if _text(v["uni_code"]):
            p["university"] = {"code": _text(v["uni_code"]),
                               "full_time": yesno(v["full_time"], s, cols["full_time"], r),
                               "graduation_date": date(v["graduation"], s, cols["graduation"], r)}
        rating = integer(v["rating"], s, cols["rating"], r)
        if rating is not None:
            p["fide_rating"] = {"value": rating, "list": date(v["rating_list"], s, cols["rating_list"], r)}
        career, wrong = _career_of(v, lambda key, s=s, r=r, cols=cols: where(s, cols.get(key, "?"), r),
                                   lambda value, key, s=s, r=r, cols=cols: date(value, s, cols.get(key, "?"), r)
                                   if value is not None else None)
        p.update(career)
        problems.extend(wrong)
        people.append(p)

    events = {e.code for e in definition.events}

    def ref_ok(value, sheet, col, r):
        ref = _text(value)
        if ref is None:
            problems.append((where(sheet, col, r), Text("缺少人员编号", "missing person ref")))
        elif ref not in refs:
            problems.append((where(sheet, col, r), Text(f"人员编号“{ref}”不在“人员”表中", f"ref {ref!r} is not on the People sheet")))
            return None
        return ref

    def event_ok(value, sheet, col, r):
        code = _text(value)
        if code not in events:
            problems.append((where(sheet, col, r), Text(f"项目代码“{code}”不是本届比赛的项目", f"{code!r} is not an event of these Games")))
            return None
        return code

    declarations = []
    s, rows = _rows(wb, DECLARATIONS, problems)
    for r, v, cols in rows:
        code = event_ok(v["event"], s, cols["event"], r)
        count = integer(v["count"], s, cols["count"], r)
        if code and count is not None:
            declarations.append({"event": code, "count": count})

    entries: dict[tuple, dict] = {}
    s, rows = _rows(wb, INDIVIDUAL, problems)
    for r, v, cols in rows:
        code = event_ok(v["event"], s, cols["event"], r)
        ref = ref_ok(v["person"], s, cols["person"], r)
        if code and ref:
            entries.setdefault((code, None), {"event": code, "people": []})["people"].append(ref)
    s, rows = _rows(wb, TEAMS, problems)
    for r, v, cols in rows:
        code = event_ok(v["event"], s, cols["event"], r)
        ref = ref_ok(v["person"], s, cols["person"], r)
        board = integer(v["board"], s, cols["board"], r)
        reserve = yesno(v["reserve"], s, cols["reserve"], r)
        if code and ref:
            label = _text(v["team"]) or "A"
            slot = {"person": ref}
            if board is not None:
                slot["board"] = board
            if reserve:
                slot["reserve"] = True
            entries.setdefault((code, label), {"event": code, "team": label, "lineup": []})["lineup"].append(slot)

    officials, staff, companions = [], [], []
    s, rows = _rows(wb, ROLES, problems)
    for r, v, cols in rows:
        section = SECTIONS.get((_text(v["section"]) or "").lower())
        ref = ref_ok(v["person"], s, cols["person"], r)
        role = _text(v["role"])
        if section is None:
            problems.append((where(s, cols["section"], r), Text("类别应为 官员、团部 或 随队", "section must be officials, staff or companions")))
        elif section == "officials":
            if role not in OFFICIAL_ROLES:
                problems.append((where(s, cols["role"], r), Text(f"职务应为 {'/'.join(OFFICIAL_ROLES)}", f"role must be one of {', '.join(OFFICIAL_ROLES)}")))
            elif ref:
                officials.append({"person": ref, "role": role, "sport": _text(v["sport"])})
        elif section == "staff":
            if role not in STAFF_ROLES:
                problems.append((where(s, cols["role"], r), Text(f"职务应为 {'/'.join(STAFF_ROLES)}", f"role must be one of {', '.join(STAFF_ROLES)}")))
            elif ref:
                staff.append({"person": ref, "role": role})
        elif ref:
            acc = _text(v["accompanies"])
            if acc is not None and acc not in refs:
                problems.append((where(s, cols["accompanies"], r), Text(f"陪同对象“{acc}”不在“人员”表中", f"ref {acc!r} is not on the People sheet")))
                acc = None
            companions.append({"person": ref, "accompanies": acc})
    wb.close()
    if problems:
        raise ExcelError(problems)
    return {"format": FORMAT, "games": definition.slug, "unit": current.get("unit"), "declarations": declarations,
            "people": people, "entries": list(entries.values()), "officials": officials, "staff": staff,
            "companions": companions}
