"""Loading regulations (fixtures), units and the universities list; reading them back
as the engine's plain definitions."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pandas as pd
import yaml
from pydantic import ValidationError
from sqlalchemy import bindparam, delete, func, select

from ..config import FIXTURES
from ..extensions import db
from ..reference_lock import reference_lock
from ..rules.definition import GamesDefinition, UnitInfo, UniversityInfo
from ..text import InputProblems, Text, TextError
from ..upload_checks import MAX_YAML_BYTES, load_yaml
from .models import Event, Games, Sport, Unit, University, utcnow

UNIVERSITY_COLUMNS = ["code", "name", "province_code", "city", "governing_body", "level", "ownership"]


class FixtureError(InputProblems):
    """A fixture or reference file that cannot be used: names the file, where, and why (in
    Chinese and English where a committee wrote it, English where only the operator reads
    it); `more`: the other problems found, (path, problem) each."""

    def __init__(self, file, path: str, problem: Text | str, more: list[tuple[str, Text | str]] = ()):
        self.file, self.path, self.problem, self.more = str(file), path, problem, list(more)
        super().__init__([(path, problem), *self.more], "\n".join(self._lines(str)))

    def in_words(self, en: bool) -> list[str]:
        """Every problem after its file and place, in one language (the command line's reader's)."""
        return self._lines(lambda text: text.read(en) if isinstance(text, Text) else text)

    def _lines(self, words) -> list[str]:
        return [f"{self.file}: {where or '(top level)'}: {words(problem)}"
                for where, problem in [(self.path, self.problem), *self.more]]


def _loc(loc, data=None) -> str:
    """A pydantic location as the fixture's own path: rules[3].max (the tag of a kind,
    which pydantic puts in the location, is not a key of the file)."""
    out = ""
    node = data
    for part in loc:
        if isinstance(node, dict) and part not in node and node.get("kind") == part:
            continue  # the discriminated union's tag
        if not isinstance(node, (dict, list)) and data is not None:
            break  # past the value itself: pydantic's names of the types it tried
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
        try:
            node = node[part] if node is not None else None
        except (KeyError, IndexError, TypeError):
            node = None
    return out


def _in_words(err: dict) -> Text:
    """pydantic's error in words, in Chinese and in English."""
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    value = err.get("input")
    msg = str(err.get("msg", "")).removeprefix("Value error, ")
    if isinstance(ctx.get("error"), TextError):
        return ctx["error"].text  # a check of the definition that says it in both languages itself
    if kind == "missing":
        return Text("缺少此项", "is required")
    if kind == "extra_forbidden":
        return Text(f"没有这一项：系统不读取“{_key(err)}”，请检查拼写", f"unknown key {_key(err)!r}: nothing reads it (a typo?)")
    if kind == "union_tag_invalid":
        from ..rules.kind_names import kinds_in_words
        tags = re.findall(r"'([a-z_]+)'", str(ctx.get("expected_tags", "")))
        return Text(f"未知的种类“{ctx.get('tag')}”，可用的种类：{kinds_in_words(tags)}",
                    f"unknown kind {ctx.get('tag')!r}; the kinds are {kinds_in_words(tags, 'en')}")
    if kind == "union_tag_not_found":
        return Text("缺少 kind（规则或奖励的种类）", "kind is missing")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return Text(f"应为整数，而不是“{value}”", f"must be a whole number, not {value!r}")
    if kind in ("decimal_parsing", "decimal_type", "float_parsing"):
        return Text(f"应为数字，而不是“{value}”", f"must be a number, not {value!r}")
    if kind in ("date_parsing", "date_type", "date_from_datetime_parsing", "date_from_datetime_inexact"):
        return Text(f"应为日期，如 2026-05-31，而不是“{value}”", f"must be a date such as 2026-05-31, not {value!r}")
    if kind in ("datetime_parsing", "datetime_type", "datetime_from_date_parsing"):
        return Text(f"应为带时区的日期时间，如 2026-05-31T23:59:59+08:00，而不是“{value}”",
                    f"must be a date and time with its offset, such as 2026-05-31T23:59:59+08:00, not {value!r}")
    if kind == "literal_error":
        return Text(f"应为以下之一：{ctx.get('expected')}，而不是“{value}”", f"must be one of {ctx.get('expected')}, not {value!r}")
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return Text(f"应不小于 {bound}，而不是 {value}", f"must be at least {bound}, not {value}")
    if kind in ("less_than_equal", "less_than"):
        bound = ctx.get("le", ctx.get("lt"))
        return Text(f"应不大于 {bound}，而不是 {value}", f"must be at most {bound}, not {value}")
    if kind == "too_short" and ctx.get("min_length") == 1:
        return Text("至少填写一项", "give at least one")
    if kind == "too_short":
        return Text(f"至少填写 {ctx.get('min_length')} 项", f"give at least {ctx.get('min_length')}")
    if kind == "list_type":
        return Text("应为列表（每项一行，以“- ”开头）", "must be a list")
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Text("应为“键: 值”的映射", "must be a mapping of keys and values")
    if kind == "string_type":
        return Text("应为文字", "must be text")
    if kind in ("bool_parsing", "bool_type"):
        return Text("应为 true 或 false", "must be true or false")
    if "UTC offset" in msg:
        return Text("截止时间须写明时区，如 2019-05-31T23:59:59+08:00（北京时间）", msg)
    if "unknown event" in msg:
        return Text(f"本届比赛没有这个项目代码：{msg.split('unknown event', 1)[1].strip()}", msg)
    return Text("取值有误", f"invalid: {msg}")


def _key(err: dict) -> str:
    loc = err.get("loc") or ()
    return str(loc[-1]) if loc else ""


def _fixture_problems(exc: ValidationError, data) -> list[tuple[str, Text]]:
    out = []
    for err in exc.errors():
        loc = _loc(err["loc"], data)
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        error = (err.get("ctx") or {}).get("error")
        if not loc and isinstance(error, TextError) and error.where:
            loc = error.where
        elif not loc and ": " in msg and msg.split(": ", 1)[0].replace("[", "").replace("]", "").replace(".", "").isalnum():
            loc, msg = msg.split(": ", 1)
            err = {**err, "msg": msg}
        if any(loc == seen for seen, _p in out):
            continue  # one problem a place (a value pydantic tried as several types)
        out.append((loc, _in_words(err)))
    return out


def fixture_path(slug_or_path: str) -> Path:
    p = Path(slug_or_path)
    if p.suffix in (".yaml", ".yml", ".json") or p.exists():
        return p
    return FIXTURES / "games" / f"{slug_or_path}.yaml"


def read_fixture(path: Path) -> GamesDefinition:
    if not path.exists():
        raise FixtureError(path, "", "no such file (give a Games slug or a fixture path)")
    if path.stat().st_size > MAX_YAML_BYTES:  # before reading it, let alone parsing it
        raise FixtureError(path, "", f"larger than {MAX_YAML_BYTES // 1024} KB")
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise FixtureError(path, where, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
    except UnicodeDecodeError:
        raise FixtureError(path, "", "not UTF-8 text") from None
    if not isinstance(data, dict):
        raise FixtureError(path, "", "must be a mapping with slug, events, rules...")
    try:
        return GamesDefinition.model_validate(data)
    except ValidationError as exc:
        problems = _fixture_problems(exc, data)[:20]
        (loc, problem), more = problems[0], problems[1:]
        raise FixtureError(path, loc, problem, more) from None


def definition_yaml(games: Games) -> str:
    """The Games' definition as the fixture format of record (issue 26, 7): what
    `flask games load` reads back into the very same definition."""
    head = f"# {games.name_zh}: exported from the portal's set-up screens; `flask --app app games load` reads it.\n"
    return head + yaml.safe_dump(games.definition, allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)


def load_units(path: Path | None = None) -> int:
    """Insert or update the units (idempotent; one process at a time)."""
    with reference_lock():
        db.session.rollback()  # read what another process may have just written
        return _load_units(path)


def _load_units(path: Path | None = None) -> int:
    path = path or FIXTURES / "units.yaml"
    data = load_yaml(path.read_text(encoding="utf-8"))
    try:
        units = [UnitInfo.model_validate(u) for u in data["units"]]
    except ValidationError as exc:
        err = exc.errors()[0]
        raise FixtureError(path, _loc(("units",) + tuple(err["loc"])), _in_words(err)) from None
    existing = {u.code: u for u in db.session.scalars(select(Unit))}
    for info in units:
        _save_unit(existing.get(info.code), info)
    db.session.commit()
    return len(units)


def _save_unit(row: Unit | None, info: UnitInfo) -> Unit:
    """Insert or update one unit from its definition."""
    row = row or Unit(code=info.code)
    row.kind, row.name_zh, row.name_en = info.kind, info.name.zh, info.name.en
    row.province_code, row.city = info.province_code, info.city
    row.governing_bodies = list(info.governing_bodies)
    row.universities = list(info.universities)
    db.session.add(row)
    return row


def national_units() -> list[dict]:
    """The national list of units as fixtures/units.yaml gives it."""
    return load_yaml((FIXTURES / "units.yaml").read_text(encoding="utf-8"))["units"]


def load_games(slug_or_path: str) -> Games:
    """Load or reload a Games fixture (idempotent; one process at a time). Raises FixtureError."""
    with reference_lock():
        db.session.rollback()  # read what another process may have just written
        return _load_games(slug_or_path)


def _load_games(slug_or_path: str) -> Games:
    path = fixture_path(slug_or_path)
    definition = read_fixture(path)
    if path.parent == FIXTURES / "games" and path.stem != definition.slug:
        raise FixtureError(path, "slug", f"{definition.slug!r} differs from the file name {path.stem!r}")
    if db.session.scalar(select(Unit.id).limit(1)) is None:
        _load_units()
    _load_fixture_units(path, definition)
    games = db.session.scalar(select(Games).where(Games.slug == definition.slug))
    if games is None:
        games = Games(slug=definition.slug)
        db.session.add(games)
    store_definition(games, definition)
    if definition.regulation:  # the regulation's text, beside the fixture, shown with its clauses
        text_path = FIXTURES / "regulations" / definition.regulation
        if not text_path.is_file() or text_path.parent != FIXTURES / "regulations":
            raise FixtureError(path, "regulation", Text(f"fixtures/regulations/ 里没有这个文件：{definition.regulation}",
                                                        f"no such file in fixtures/regulations/: {definition.regulation}"))
        games.regulation_text = text_path.read_text(encoding="utf-8")
    db.session.commit()
    return games


def store_definition(games: Games, definition: GamesDefinition) -> None:
    """Make the Games row say what `definition` says: names, the definition itself, its
    sports and events. A new `loaded_at` tells every process (and the judged cache) that
    the rules changed. The caller commits."""
    games.series, games.edition = definition.series, definition.edition
    games.name_zh, games.name_en = definition.name.zh, definition.name.en
    games.definition = definition.model_dump(mode="json")
    games.loaded_at = utcnow()
    sports = {s.code: s for s in games.sports}
    for s in definition.sports:
        row = sports.pop(s.code, None) or Sport(code=s.code)
        row.name_zh, row.name_en = s.name.zh, s.name.en
        if row not in games.sports:
            games.sports.append(row)
    for row in sports.values():
        games.sports.remove(row)
    events = {e.code: e for e in games.events}
    for i, e in enumerate(definition.events):
        row = events.pop(e.code, None) or Event(code=e.code)
        row.sport_code, row.name_zh, row.name_en = e.sport, e.name.zh, e.name.en
        row.gender, row.kind, row.position = e.gender, e.kind, i
        if row not in games.events:
            games.events.append(row)
    for row in events.values():
        games.events.remove(row)
    _definitions.pop(definition.slug, None)


def _load_fixture_units(path, definition) -> None:
    """The units a Games' fixture adds; a code of the national list is refused (a Games may
    not change another's provinces)."""
    if not definition.units:
        return
    national = {u["code"] for u in national_units()}
    existing = {u.code: u for u in db.session.scalars(select(Unit).where(
        Unit.code.in_([u.code for u in definition.units])))}
    for i, info in enumerate(definition.units):
        if info.code in national:
            raise FixtureError(path, f"units[{i}].code",
                               Text(f"“{info.code}”已是全国单位名单中的代码，请另取一个",
                                    f"{info.code!r} is a code of the national list of units: choose another"))
        _save_unit(existing.get(info.code), info)


def all_fixture_slugs() -> list[str]:
    return sorted(p.stem for p in (FIXTURES / "games").glob("*.yaml"))


_definitions: dict[str, tuple] = {}


def definition_of(games: Games) -> GamesDefinition:
    cached = _definitions.get(games.slug)
    if cached and cached[0] == games.loaded_at:
        return cached[1]
    definition = GamesDefinition.model_validate(games.definition)
    _definitions[games.slug] = (games.loaded_at, definition)
    return definition


_timelines: dict[int, tuple] = {}
_versions: dict[int, GamesDefinition] = {}


def _timeline(games: Games) -> list[tuple[int, dt.datetime, int]]:
    """(number, in force from, version id) of the Games' published versions, oldest first;
    read once per stored definition (an amendment stores a new one)."""
    from .models import GamesVersion
    cached = _timelines.get(games.id)
    if cached and cached[0] == (games.loaded_at, games.status):
        return cached[1]
    rows = [(n, at if at.tzinfo else at.replace(tzinfo=dt.UTC), i) for n, at, i in db.session.execute(
        select(GamesVersion.number, GamesVersion.created_at, GamesVersion.id)
        .where(GamesVersion.games_id == games.id).order_by(GamesVersion.number))]
    _timelines[games.id] = ((games.loaded_at, games.status), rows)
    return rows


def definition_in_force(games: Games, at: dt.datetime | None) -> tuple[int | None, GamesDefinition]:
    """The version of the regulation in force at `at` and its definition (issue 26, 3): an
    amendment applies from the instant it was confirmed, so a delegation judged as it
    stood before it is judged by the rules of then. None: the definition as it stands."""
    timeline = _timeline(games) if at is not None else []
    if not timeline or at >= timeline[-1][1]:
        return None, definition_of(games)
    number, _from, version_id = next((v for v in reversed(timeline) if v[1] <= at), timeline[0])
    definition = _versions.get(version_id)
    if definition is None:
        from .models import GamesVersion
        definition = _versions[version_id] = GamesDefinition.model_validate(
            db.session.get(GamesVersion, version_id).definition)
    return number, definition


def definition_at(games: Games, at: dt.datetime | None) -> GamesDefinition:
    return definition_in_force(games, at)[1]


_BY_SLUG = select(Games).where(Games.slug == bindparam("slug"))  # built once: the rush's first read


def find_games(slug: str) -> Games | None:
    return db.session.scalar(_BY_SLUG, {"slug": slug})


def games_by_id(games_id: int) -> Games | None:
    return db.session.get(Games, games_id)


def find_or_load_games(slug: str) -> Games | None:
    """The Games by slug; loaded from fixtures/ first if it is not in the database."""
    games = find_games(slug)
    if games is None and (FIXTURES / "games" / f"{slug}.yaml").exists():
        with reference_lock():
            db.session.rollback()
            games = find_games(slug) or _load_games(slug)  # another process may have loaded it
    return games


def unit_names(lang: str = "zh") -> dict[str, str]:
    """Unit code -> its name in Chinese (or English, lang="en"), from one query."""
    return dict(db.session.execute(select(Unit.code, Unit.name_en if lang == "en" else Unit.name_zh)).all())


def unit_name_pairs() -> dict[str, tuple[str, str]]:
    """Unit code -> (zh, en) name, from one query (what the rules name other units by)."""
    return {code: (zh, en) for code, zh, en in db.session.execute(select(Unit.code, Unit.name_zh, Unit.name_en))}


def unit_info(code: str) -> UnitInfo | None:
    return units_info({code}).get(code)


def units_info(codes: set[str]) -> dict[str, UnitInfo]:
    """The units of these codes as the engine needs them, from one query."""
    return {row.code: unit_info_of(row) for row in db.session.scalars(select(Unit).where(Unit.code.in_(codes)))} \
        if codes else {}


UNIT_INFO_COLUMNS = ("code", "kind", "name_zh", "name_en", "province_code", "city", "governing_bodies", "universities")


def unit_info_of(row) -> UnitInfo:
    """A unit's row (or a row of UNIT_INFO_COLUMNS) as the engine needs it."""
    return UnitInfo(code=row.code, kind=row.kind, name={"zh": row.name_zh, "en": row.name_en},
                    province_code=row.province_code, city=row.city,
                    governing_bodies=row.governing_bodies or [], universities=row.universities or [])


def read_universities(path: Path) -> pd.DataFrame:
    """Read and validate a universities list; raises FixtureError naming file, row, column."""
    if not Path(path).exists():
        raise FixtureError(path, "", "no such file")
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise FixtureError(path, "", f"not a readable UTF-8 CSV file ({exc})") from None
    missing = [c for c in UNIVERSITY_COLUMNS if c not in frame.columns]
    if missing:
        raise FixtureError(path, "header", f"missing column(s): {', '.join(missing)}")
    frame = frame[UNIVERSITY_COLUMNS].apply(lambda col: col.str.strip())
    for column in ("code", "name", "province_code"):
        empty = frame.index[frame[column] == ""]
        if len(empty):
            raise FixtureError(path, f"row {empty[0] + 2}, column {column}", "is empty")
    bad_code = frame.index[~frame["code"].str.fullmatch(r"\d{10}")]
    if len(bad_code):
        i = bad_code[0]
        raise FixtureError(path, f"row {i + 2}, column code", f"{frame.at[i, 'code']!r} is not a 10-digit code")
    dup = frame.index[frame["code"].duplicated()]
    if len(dup):
        i = dup[0]
        raise FixtureError(path, f"row {i + 2}, column code", f"{frame.at[i, 'code']} appears twice")
    return frame


def import_universities(path: Path) -> int:
    """Replace the universities list with the file's (all or nothing; one process at a time)."""
    frame = read_universities(path)
    with reference_lock():
        return _replace_universities(frame)


def _replace_universities(frame) -> int:
    db.session.execute(delete(University))
    db.session.execute(University.__table__.insert(), frame.to_dict("records"))
    db.session.commit()
    _universities_cache.clear()
    return len(frame)


_universities_cache: dict = {}


def universities_fingerprint():
    """What universities_map() is cached by: the table's count and highest code, as columns
    another statement may select (judged.py reads them with the rest of a judgement's key)."""
    return (select(func.count()).select_from(University).scalar_subquery(),
            select(func.max(University.code)).scalar_subquery())


def universities_map(fallback_csv: Path | None = None, fingerprint: tuple | None = None) -> dict[str, UniversityInfo]:
    """The universities list as the engine needs it; cached per process while the table's
    fingerprint (count and highest code) is unchanged. (`fingerprint`: read already, in the
    same transaction.)"""
    if fingerprint is None:
        fingerprint = tuple(db.session.execute(select(func.count(), func.max(University.code))).one())
    fingerprint = tuple(fingerprint)
    key = (fingerprint, fallback_csv if not fingerprint[0] else None)
    cached = _universities_cache.get("map")
    if cached and cached[0] == key:
        return cached[1]
    rows = db.session.execute(select(University.__table__)).mappings().all()
    if not rows and fallback_csv is not None and Path(fallback_csv).exists():
        rows = read_universities(fallback_csv).to_dict("records")
    result = {r["code"]: UniversityInfo.model_construct(**dict(r)) for r in rows}
    _universities_cache["map"] = (key, result)
    return result


def universities_version() -> tuple:
    """What the universities map last read by universities_map() was read from (the table's
    count and highest code): the same on every node for the same list."""
    cached = _universities_cache.get("map")
    return (cached[0][0], str(cached[0][1]) if cached[0][1] else None) if cached else ()


def ensure_reference_data(universities_path: Path | None = None, sample_games: bool = False) -> list[str]:
    """What a fresh database needs before its first request: units and the universities
    list if empty; with `sample_games`, every Games of fixtures/games not there yet (a
    demonstration: on a real install they would be published Games a stranger could
    register into). Idempotent and safe when several processes start at once; says what
    it did."""
    done = []
    with reference_lock():
        db.session.rollback()
        if db.session.scalar(select(Unit.id).limit(1)) is None:
            done.append(f"units: {_load_units()}")
        for slug in all_fixture_slugs() if sample_games else ():
            if find_games(slug) is None:
                done.append(f"games: {_load_games(slug).slug}")
        if universities_path is not None and Path(universities_path).exists() and \
                db.session.scalar(select(University.code).limit(1)) is None:
            done.append(f"universities: {_replace_universities(read_universities(Path(universities_path)))}")
    return done


def games_names() -> dict[str, tuple[str, str]]:
    """Every Games' slug -> its name, and every series -> its latest Games' name "(any
    edition)", for sentences that lead to another Games (a qualification)."""
    out: dict[str, tuple[str, str]] = {}
    for slug, series, zh, en in db.session.execute(
            select(Games.slug, Games.series, Games.name_zh, Games.name_en).order_by(Games.edition)):
        out[slug] = (zh, en)
        out[series] = (f"{zh}（各届）", f"{en} (any edition)")
    return out


def read_back_of(games: Games) -> dict[str, list]:
    """The Games' rules in sentences (rules/readback.py), by section, with the units of its
    invitation list by name."""
    from ..rules.readback import SECTIONS, read_back
    names = {code: (zh, en) for code, zh, en in db.session.execute(select(Unit.code, Unit.name_zh, Unit.name_en))}
    by_section: dict[str, list] = {key: [] for key in SECTIONS}
    for line in read_back(definition_of(games), names, games_names()):
        by_section[line.section].append(line)
    return by_section


def regulation_clauses(games: Games) -> tuple[list, set[str]]:
    """The regulation's text in its clauses (rules/clauses.py), and the references found."""
    from ..rules.clauses import split
    clauses = split(games.regulation_text or "")
    return clauses, {c.ref for c in clauses if c.ref}
