"""An organising committee sets up its Games in the screens: a new Games (blank, or a copy
of an earlier edition with every date moved on), each change checked whole as it is saved,
publication, then amendments (补充通知) kept as versions with their number and reason.
Every write is one transaction under the Games' row lock, and audited."""
from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any

from dateutil.relativedelta import relativedelta
from pydantic import ValidationError
from sqlalchemy import func, select

from ..audit.services import Actor, record
from ..clock import now
from ..db_tx import lock_row, transactional, write_transaction
from ..extensions import db
from ..games.models import Games, GamesStatus, GamesVersion
from ..games.services import _fixture_problems, definition_of, store_definition
from ..outcome import Outcome, Refusal, RefusalCode
from ..rules.definition import GamesDefinition
from ..rules.readback import read_back
from .labels import field_label

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{2,59}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)$")


class DefinitionRefusal(Refusal):
    """The definition as changed does not hold: every problem, each with the field named
    as the screens name it (problems: [(field zh, field en, problem zh, problem en)])."""

    def __init__(self, problems: list[tuple[str, str, str, str]]):
        first = problems[0]
        super().__init__(RefusalCode.INPUT, f"{first[0]}：{first[2]}", f"{first[1]}: {first[3]}", field="definition",
                         details={"problems": problems})


def validate(data: dict) -> GamesDefinition:
    """The definition `data` says, or DefinitionRefusal naming each field that is wrong."""
    try:
        return GamesDefinition.model_validate(data)
    except ValidationError as exc:
        problems = []
        for loc, text in _fixture_problems(exc, data)[:20]:
            label = field_label(loc)
            problems.append((label[0], label[1], text.zh, text.en))
        raise DefinitionRefusal(problems) from None


def shifted(data: Any, years: int) -> Any:
    """Every date and instant of a definition moved on by `years` (29 February becomes 28)."""
    if isinstance(data, dict):
        return {k: shifted(v, years) for k, v in data.items()}
    if isinstance(data, list):
        return [shifted(v, years) for v in data]
    if isinstance(data, str) and _DATE.match(data):
        return (dt.date.fromisoformat(data) + relativedelta(years=years)).isoformat()
    if isinstance(data, str) and _INSTANT.match(data):
        return (dt.datetime.fromisoformat(data) + relativedelta(years=years)).isoformat()
    return data


def blank_definition(slug: str, name_zh: str, name_en: str, start: dt.date, end: dt.date) -> dict:
    """The least a Games is: its name and dates; who enters, events and rules come next."""
    return {"slug": slug, "series": slug.rsplit("-", 1)[0], "edition": 1, "name": {"zh": name_zh, "en": name_en},
            "dates": {"start": start.isoformat(), "end": end.isoformat()},
            # Nothing the regulation did not say (issue 37, 5): no kind of unit ticked, changes
            # after the deadline not taken to need approval until the committee says so.
            "participation": {"unit_kinds": []}, "stages": {"changes_need_approval": False}, "sports": [], "events": []}


def create_games(slug: str, name_zh: str, name_en: str, actor: Actor, *, copy_of: Games | None = None,
                 years_later: int = 1, start: dt.date | None = None, end: dt.date | None = None) -> Games:
    """A new Games, a draft that leaders do not see. Refusals carry the field as their code."""
    with write_transaction():
        slug, name_zh, name_en = (slug or "").strip().lower(), (name_zh or "").strip(), (name_en or "").strip()
        if not SLUG.match(slug):
            raise Refusal.of_field("slug", "网址代码只能用小写字母、数字和“-”，3 至 60 个字符，如 zj-mind-2027",
                          "The slug is 3 to 60 lower-case letters, digits and '-', such as zj-mind-2027")
        if db.session.scalar(select(Games.id).where(Games.slug == slug)):
            raise Refusal.of_field("slug", "这个网址代码已有比赛使用", "Another Games has this slug")
        if not name_zh or len(name_zh) > 200:
            raise Refusal.of_field("name_zh", "请填写比赛名称（不超过 200 字）", "Give the Games' name (at most 200 characters)")
        if copy_of is not None:
            data = shifted(copy.deepcopy(copy_of.definition), years_later)
            data.update(slug=slug, name={"zh": name_zh, "en": name_en or name_zh},
                        edition=int(data.get("edition") or 0) + years_later)
            data.pop("units", None)  # a copy adds no units of its own: the first Games already did
            data.pop("regulation", None)  # a new edition has its own regulation
        else:
            if start is None or end is None:
                raise Refusal.of_field("start", "请填写比赛的开始和结束日期", "Give the first and last day of play")
            if end < start:
                raise Refusal.of_field("end", "结束日期早于开始日期", "The last day is before the first")
            data = blank_definition(slug, name_zh, name_en or name_zh, start, end)
        definition = validate(data)
        games = Games(slug=slug, status=GamesStatus.DRAFT)
        db.session.add(games)
        store_definition(games, definition)
        db.session.flush()
        record(actor, "games.create", "games", slug,
               after={"copy_of": copy_of.slug if copy_of else None, "name": name_zh}).games_slug = slug
        return games


def readback_diff(before: GamesDefinition, after: GamesDefinition) -> dict[str, list]:
    """What an amendment changes, in the read-back's sentences: those gone and those new."""
    old = [(x.zh, x.en, x.clause) for x in read_back(before)]
    new = [(x.zh, x.en, x.clause) for x in read_back(after)]
    return {"removed": [x for x in old if x not in new], "added": [x for x in new if x not in old]}


@transactional
def save_definition(games: Games, data: dict, actor: Actor, *, amendment: str | None = None,
                    reason: str | None = None, at: dt.datetime | None = None) -> Outcome:
    """Save the Games' definition as changed on a set-up screen, checked whole. A published
    Games changes only by an amendment with its number and reason, kept as a new version in
    force from `at` (the portal's now): a delegation judged as it stood before then is
    judged by the version of then."""
    games = lock_row(Games, games.id)
    if data.get("slug") != games.slug:
        raise Refusal.of_field("slug", "网址代码创建后不能修改", "The slug cannot change once the Games exists")
    amendment, reason = (amendment or "").strip()[:100], (reason or "").strip()[:1000]
    if games.status == GamesStatus.PUBLISHED and (not amendment or not reason):
        raise Refusal.of_field("amendment", "比赛已发布：修改须作为补充通知，请填写通知编号和修改理由",
                      "The Games is published: a change is an amendment; give its number and the reason")
    before = definition_of(games)
    after = validate(data)
    diff = readback_diff(before, after)
    if after.model_dump(mode="json") == games.definition:
        return Outcome(ok=True, details={"unchanged": True})
    at = at or now()
    in_force_since = min(at, games.loaded_at) if games.loaded_at else at
    store_definition(games, after)
    if games.status == GamesStatus.PUBLISHED:
        number = 1 + (db.session.scalar(select(func.max(GamesVersion.number)).where(
            GamesVersion.games_id == games.id)) or 0)
        if number == 1:  # published from a fixture: what was in force until now is version 1
            db.session.add(GamesVersion(games_id=games.id, number=1, definition=before.model_dump(mode="json"),
                                        amendment=None, reason=None, created_by="系统",
                                        created_at=in_force_since))
            number = 2
        db.session.add(GamesVersion(games_id=games.id, number=number, definition=games.definition,
                                    amendment=amendment, reason=reason, created_by=actor.label,
                                    created_at=at))
    if games.status == GamesStatus.PUBLISHED:  # every delegation's leaders are told, in their language
        _tell_amendment(games, amendment, reason, diff)
    record(actor, "games.amend" if games.status == GamesStatus.PUBLISHED else "games.edit", "games", games.slug,
           before={"removed": [x[0] for x in diff["removed"]]}, after={"added": [x[0] for x in diff["added"]]},
           reason=" ".join(x for x in (amendment, reason) if x) or None).games_slug = games.slug
    return Outcome(ok=True, details=diff)


def _tell_amendment(games: Games, amendment: str, reason: str, diff: dict) -> None:
    from ..delegations.models import Delegation, DelegationStatus
    from ..notify.services import recipients_of, tell_delegation
    for d in db.session.scalars(select(Delegation).where(Delegation.games_id == games.id,
                                                         Delegation.status != DelegationStatus.WITHDRAWN)):
        if recipients_of(d):
            tell_delegation(d, "amendment", dedupe=f"amendment:{games.id}:{amendment}:{d.id}", amendment=amendment,
                            reason=reason, added=diff["added"], removed=diff["removed"])


@transactional
def publish(games: Games, actor: Actor, at: dt.datetime | None = None) -> Outcome:
    """Open a draft Games to leaders; its definition as it stands is version 1."""
    games = lock_row(Games, games.id)
    if games.status != GamesStatus.DRAFT:
        raise Refusal("state", "这届比赛已经发布", "These Games are already published")
    definition = definition_of(games)
    if not definition.events:
        raise Refusal.of_field("events", "还没有设置任何比赛项目，发布后领队无项可报", "No events yet: leaders would have nothing to enter")
    games.status = GamesStatus.PUBLISHED
    db.session.add(GamesVersion(games_id=games.id, number=1, definition=games.definition, amendment=None,
                                reason=None, created_by=actor.label, created_at=at or now()))
    record(actor, "games.publish", "games", games.slug).games_slug = games.slug
    return Outcome(ok=True)


@transactional
def set_regulation_text(games: Games, text: str, actor: Actor) -> Outcome:
    """The regulation's own text, kept with the Games and shown with its clauses."""
    games = lock_row(Games, games.id)
    text = (text or "").replace("\r\n", "\n").strip()
    if len(text) > MAX_REGULATION:
        raise Refusal.of_field("text", f"规程文本太长（最多 {MAX_REGULATION:,} 字）", f"The text is too long (at most {MAX_REGULATION:,})")
    before = len(games.regulation_text or "")
    games.regulation_text = text or None
    record(actor, "games.regulation", "games", games.slug, before={"characters": before},
           after={"characters": len(text)}).games_slug = games.slug
    return Outcome(ok=True)


MAX_REGULATION = 500_000


def versions(games: Games) -> list[GamesVersion]:
    return list(db.session.scalars(select(GamesVersion).where(GamesVersion.games_id == games.id)
                                   .order_by(GamesVersion.number.desc())))


def version_with_diff(games: Games, number: int) -> tuple[GamesVersion, GamesDefinition, dict] | None:
    """A kept version, its definition, and what it changed from the version before it, in
    the read-back's sentences (version 1: nothing before it)."""
    rows = {v.number: v for v in db.session.scalars(select(GamesVersion).where(
        GamesVersion.games_id == games.id, GamesVersion.number.in_((number - 1, number))))}
    version = rows.get(number)
    if version is None:
        return None
    definition = GamesDefinition.model_validate(version.definition)
    earlier = rows.get(number - 1)
    diff = readback_diff(GamesDefinition.model_validate(earlier.definition), definition) if earlier else None
    return version, definition, diff
