"""What every page of a delegation's workspace shows: the document (stored, or as the leader
typed it when a save was refused), the stage, the violations, and the helpers its views
share. The money and organiser pages show a delegation through it too."""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import cached_property

from flask import abort, flash, render_template, request
from flask_login import current_user
from markupsafe import Markup, escape
from sqlalchemy import select

from ..audit.current import actor
from ..clock import now
from ..extensions import db
from ..form_choices import options
from ..games.services import definition_of
from ..outcome import Outcome, Status
from ..roles import ORGANISERS, Role
from ..rules import parse_document
from ..rules.checks.entries import declared_max
from ..rules.definition import BoardRule, QuotaRule, TeamMakeupRule
from ..rules.engine import format_deadline
from ..rules.stages import NAMES, closes_at, may_edit_declarations, may_edit_names, stage_name
from ..rules.violations import dedupe
from ..translation import gettext as _
from ..web import is_en, outcome_text
from ..workflow.models import ExtensionRequest, RequestStatus, ReviewNote
from . import edit, picker
from .forms import PersonForm, UploadForm, offer_regulation_id_types
from .judged import Outside, outside_of, stored_document, stored_violations
from .merge import Key, describe, digest, field_digests, fingerprint
from .models import Delegation, DelegationStatus
from .names import NOTE_ITEMS, ROLE_NAMES, document_names_of
from .saving import save_change
from .services import judge
from .stage import extensions_of, stage_of

EDITORS = ORGANISERS  # organisers may enter on a unit's behalf (paper forms)


def sees_other_delegations() -> bool:
    """Only the organisers learn which delegation already holds an identity number."""
    return current_user.is_authenticated and current_user.role in EDITORS


class Workspace:
    """What every workspace page shows: the document, the stage, the violations."""

    def __init__(self, d, at=None, doc=None, judged: bool = True, only_event: str | None = None):
        """`doc`: what the leader typed, when a save was refused, so that the page shows it
        (and what would be wrong with it) instead of losing it. A conflict's page is not
        `judged` (the two versions are the point; the problems come with the save) and
        shows `only_event`, the event both changed: a small page, however large the entry."""
        self.d = d
        self.judged, self.only_event = judged, only_event
        self.at = at or now()
        self.definition = definition_of(d.games)
        self.stored = doc is None  # the stored delegation: its judgement may come from memory
        self.doc = doc if doc is not None else stored_document(d)
        self.stage = stage_of(d, self.at)
        self.people = {p["ref"]: p for p in self.doc["people"]}
        self.events = {e.code: e for e in self.definition.events}
        self.sports = {s.code: s for s in self.definition.sports}

    @cached_property
    def notes(self) -> list:
        """The organisers' open review notes: read by the page that shows them (the overview), not by every page."""
        return db.session.scalars(select(ReviewNote).where(ReviewNote.delegation_id == self.d.id,
                                                           ReviewNote.resolved.is_(False))).all()

    @cached_property
    def base_doc(self) -> dict:
        """The stored document, that the forms' fingerprints are of (`doc` may be what was typed)."""
        return self.doc if self.stored else stored_document(self.d)

    def fingerprint(self, *key: str) -> str:
        """The stored state of the part a form changes, sent back with the form (merge.py)."""
        if key[0] == "person":  # a page of people asks for every row: found by ref, not by a scan
            return digest(self._base_people.get(key[1]))
        return fingerprint(self.base_doc, tuple(key))

    def person_fields(self, ref: str) -> str:
        """Each field of the stored person, digested, for the person form (merge.field_digests)."""
        return json.dumps(field_digests(self._base_people.get(ref)), separators=(",", ":"))

    @cached_property
    def _base_people(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for p in self.base_doc.get("people", []):
            out.setdefault(p.get("ref"), p)  # the first of a ref, as merge.part finds it
        return out

    @cached_property
    def violations(self) -> list:
        """Judged when a page shows them (a save that redirects never needs them)."""
        if not self.judged:
            return []
        if self.stored:
            same_unit = self.doc.get("unit") == self.d.unit_code
            return stored_violations(self.d, self.doc, self.at, reveal=sees_other_delegations(),
                                     outside=self.outside if same_unit else None)
        parsed, problems = parse_document(self.doc)
        return dedupe(problems + judge(self.d.games, parsed, self.at, exclude_delegation_id=self.d.id,
                                        reveal=sees_other_delegations()))

    @cached_property
    def outside(self) -> Outside:
        """What the delegation's judgement reads beyond its rows (judged.outside_facts), read
        once for the page: its unit's name heads every page."""
        return outside_of(self.d, self.d.unit_code)

    @cached_property
    def unit_title(self) -> str:
        """The unit's name in the reader's language (its code, where no unit of that code is known)."""
        unit = self.outside.unit if self.d.unit_code else None
        if unit is None:
            return self.d.unit_name or self.d.unit_code or ""
        return unit.name.en if self.en else unit.name.zh

    @cached_property
    def errors(self) -> list:
        return [v for v in self.violations if v.is_error]

    @cached_property
    def warnings(self) -> list:
        return [v for v in self.violations if not v.is_error]

    @cached_property
    def editable(self) -> bool:
        # An approved entry stays editable until the names close: a change submits it again.
        # Read once per page: the people page asks for every row.
        return (may_edit_names(self.stage) and self.d.status != DelegationStatus.WITHDRAWN
                and (current_user.role == Role.LEADER or current_user.role in EDITORS))

    def approved_notice(self) -> str | None:
        """What an approved entry still allows before the names close, as the stage says."""
        if self.d.status != DelegationStatus.APPROVED or not self.editable:
            return None
        when = deadline_text(closes_at(self.definition.stages, NAMES, extensions_of(self.d)))
        if self.definition.stages.replacing_after_submission_needs_approval:
            return _("报名已获组委会批准。%(when)s（北京时间）名单截止前仍可修改资料和报项，保存后须重新提交、再经审核；"
                     "按规程，更换运动员须在“更换运动员”中申请，经组委会同意。", when=when)
        return _("报名已获组委会批准。%(when)s（北京时间）名单截止前仍可直接修改，保存后须重新提交、再经组委会审核。",
                 when=when)

    @property
    def documents_editable(self) -> bool:
        """Documents due at check-in may be added whatever the stage."""
        return self.d.status != DelegationStatus.WITHDRAWN and (current_user.role == Role.LEADER or current_user.role in EDITORS)

    @property
    def declarations_editable(self) -> bool:
        return self.editable and may_edit_declarations(self.stage, self.definition.stages)

    def locked_reason(self) -> str | None:
        """Why the names cannot be edited now, and what to do instead."""
        if self.editable or self.d.status == DelegationStatus.WITHDRAWN or current_user.role == Role.ACCOUNTANT:
            return None
        if self.d.status == DelegationStatus.APPROVED and self.stage.stage == "substitutions":
            return _("报名已经组委会批准，名单已截止。如需更换运动员，请在“更换运动员”中提出申请。")
        closes = closes_at(self.definition.stages, NAMES, extensions_of(self.d))
        when = deadline_text(closes)
        if self.stage.stage == "substitutions":
            return _("名单已于 %(when)s（北京时间）截止，不能直接修改。如需更换运动员，请在“更换运动员”中提出申请，经组委会同意后生效。",
                     when=when)
        return _("报名已于 %(when)s（北京时间）截止。如有特殊情况，请联系组委会申请延期。", when=when)

    def stage_name(self):
        zh, en = stage_name(self.definition.stages, self.stage.stage)
        return en if is_en() else zh

    @cached_property
    def sport_options(self) -> list[tuple[str, str]]:
        """(code, name in the reader's language) of each sport, for a select of every row."""
        en = is_en()
        return [(s.code, s.name.en if en else s.name.zh) for s in self.definition.sports]

    @cached_property
    def en(self) -> bool:
        """Read once per page: a page of hundreds of rows asks for every row."""
        return is_en()

    def label(self, ref) -> str:
        p = self.people.get(ref)
        return picker.label(p, self.en) if p else ""

    @cached_property
    def _by_person(self) -> dict[str, list]:
        """Each person's violations, indexed once: the people page asks for every row."""
        out: dict[str, list] = {}
        for v in self.violations:
            for ref in dict.fromkeys(v.people):
                out.setdefault(ref, []).append(v)
        return out

    @cached_property
    def _by_event(self) -> dict[str, list]:
        out: dict[str, list] = {}
        for v in self.violations:
            out.setdefault(v.event, []).append(v)
        return out

    def by_person(self, ref):
        return list(self._by_person.get(ref, ()))

    def by_event(self, code):
        return list(self._by_event.get(code, ()))

    def event_label(self, code):
        e = self.events.get(code)
        if e is None:
            return code
        sport = self.sports.get(e.sport)
        lang_en = self.en
        return f"{sport.name.en if lang_en else sport.name.zh} {e.name.en if lang_en else e.name.zh}"

    @cached_property
    def extension_request(self):
        """The latest request for more time, when the names cannot be edited now."""
        return db.session.scalar(select(ExtensionRequest).where(ExtensionRequest.delegation_id == self.d.id)
                                 .order_by(ExtensionRequest.id.desc()).limit(1))

    def may_ask_for_time(self) -> bool:
        """A closed stage with nothing approved yet: the leader can ask for more time."""
        return (not self.editable and self.d.status in (DelegationStatus.DRAFT, DelegationStatus.RETURNED)
                and self.stage.stage in ("substitutions", "closed")
                and (self.extension_request is None or self.extension_request.status != RequestStatus.PENDING))

    def note_subject(self, note) -> str:
        """What a review note is about, by name: the person, the event, the delegation."""
        en = is_en()
        if note.item_type in self.people and not note.item_key:  # a note on a person by his ref alone
            note_type, key = "person", note.item_type
        else:
            note_type, key = note.item_type, note.item_key
        kind = NOTE_ITEMS.get(note_type, (note_type, note_type))[1 if en else 0]
        if note_type == "person" and key in self.people:
            return f"{kind} {self.people[key]['name']}" if en else f"{kind}{self.people[key]['name']}"
        if key and key.split("#")[0] in self.events:
            label = self.event_label(key.split("#")[0])
            team = key.split("#", 1)[1] if "#" in key else ""
            return f"{kind} {label}{(' ' + team) if team else ''}"
        return kind if not key else f"{kind} {key}"

    def declared(self, code) -> int | None:
        """The number the delegation declared for the event, once the declaration binds."""
        count = next((x["count"] for x in self.doc["declarations"] if x["event"] == code), None)
        return count if count and not self.declarations_editable else None

    @property
    def unit_code(self) -> str | None:
        return self.doc["unit"] if isinstance(self.doc.get("unit"), str) else None

    @cached_property
    def placed_before(self) -> dict[str, int] | None:
        """The unit's best places at the series' previous edition, where a rule gives more
        for them (the checks read the same facts)."""
        return dict(self.outside.placed) if self.unit_code and self.unit_code == self.d.unit_code else None

    @staticmethod
    def _bonus(rule, placed_before) -> int:
        return rule.placed_bonus.for_unit(placed_before, rule.events) if rule.placed_bonus is not None else 0

    def quota(self, code) -> int | None:
        """The event's quota for this unit, as the quota check counts it (its bonus included)."""
        unit = self.unit_code
        caps = [(r.max_by_unit.get(unit, r.max) if unit else r.max) + self._bonus(r, self.placed_before)
                for r in self.definition.rules_of(QuotaRule) if r.per == "event" and code in r.events]
        return min(caps) if caps else None

    def most_athletes(self, code) -> int | None:
        """The most athletes the unit may enter in the event (its quota, or teams × team size)."""
        return declared_max(self.definition, code, self.unit_code, self.placed_before)

    def team_rule(self, code) -> TeamMakeupRule | None:
        return next((r for r in self.definition.rules_of(TeamMakeupRule) if code in r.events), None)

    def boards(self, code) -> int | None:
        rule = next((r for r in self.definition.rules_of(BoardRule) if code in r.events), None)
        return rule.boards if rule else None

    def entrants(self, code) -> list[str]:
        refs = []
        for e in self.doc["entries"]:
            if e["event"] == code:
                for r in edit.entry_people(e):
                    if r not in refs:
                        refs.append(r)
        return refs

    def teams(self, code) -> list[dict]:
        """The event's teams as {team, slots, new}, plus an empty new team when one may be added."""
        out = []
        for e in self.doc["entries"]:
            if e["event"] == code:
                slots = e["lineup"] if e.get("lineup") is not None else [{"person": r} for r in e.get("people") or []]
                out.append({"team": e.get("team") or "A", "slots": slots, "new": False})
        rule = self.team_rule(code)
        teams = (rule.max_teams_by_unit.get(self.unit_code, rule.max_teams) if self.unit_code else rule.max_teams) \
            if rule else None
        if teams is not None:
            teams += self._bonus(rule, self.placed_before)
        max_teams = teams or 9
        if self.editable and len(out) < max_teams:
            used = {t["team"] for t in out}
            label = next(c for c in "ABCDEFGHIJ" if c not in used)
            out.append({"team": label, "slots": [], "new": True})
        return out

    def team_chips(self, slots: list[dict], reserve_word: str) -> Markup:
        """A listed team's members as chips (board, name, reserve), made here rather than
        in the template: a 2,000-person delegation lists hundreds of teams."""
        chips = []
        for sl in slots:
            p = self.people.get(sl.get("person"))
            chips.append('<span class="chip">' + (f"{escape(sl['board'])}. " if sl.get("board") else "")
                         + str(escape(p["name"] if p else sl.get("person")))
                         + (f" ({escape(reserve_word)})" if sl.get("reserve") else "") + "</span>")
        return Markup("".join(chips))

    def team_rows(self, code, team) -> int:
        rule = self.team_rule(code)
        size = len(team["slots"]) + 1
        if rule and rule.starters:
            reserves = rule.max_reserves if rule.max_reserves is not None else sum((rule.max_reserves_by_gender or {}).values())
            size = max(size, sum(rule.starters.values()) + reserves)
        return size

    def shown_events(self) -> list[str]:
        if self.only_event in self.events:
            return [self.only_event]
        declared = [x["event"] for x in self.doc["declarations"] if x["count"]]
        entered = [e["event"] for e in self.doc["entries"]]
        if self.definition.stages.declaration_closes is None or self.stage.stage == "declaration":
            codes = [e.code for e in self.definition.events]
            return codes if not declared or self.stage.stage != "declaration" else \
                list(dict.fromkeys(declared + entered)) or codes
        return [c for c in self.events if c in set(declared) | set(entered)]

    @property
    def athlete_count(self) -> int:
        return len(edit.athletes(self.doc))

    def missing_documents(self) -> list[str]:
        """The people (refs) who still lack a document: a person missing two counts once."""
        return list(dict.fromkeys(ref for v in self.violations if v.code == "DOCUMENT_MISSING" for ref in v.people))


def deadline_text(closes) -> str:
    return format_deadline(closes) if closes else ""


def render(template: str, ws: Workspace, **kw):
    return render_template(template, ws=ws, d=ws.d, doc=ws.doc, **kw)


def save_edit(d: Delegation, change: Callable[[dict], dict], form_version, success: str,
              key: Key | None = None) -> Outcome | None:
    """Save an edit made on a page (`change`: the stored document -> the new one), as the
    logged-in actor, now, merged with what co-leaders saved meanwhile unless they changed
    the same part (`key`; the form carries the part's fingerprint as `base`). Flashes how
    it went: None when saved, else the refused outcome for the page to show."""
    try:
        version = int(form_version) if form_version not in (None, "") else None
    except ValueError:
        version = None
    base = (request.form.get("base") or "")[:40] or None
    was = d.status
    out = save_change(d, change, key, base, actor(), now(), expected_version=version)
    if out.ok:
        errors = [v for v in out.violations if v.is_error]
        flash(success + (" " + _("还有 %(n)d 个问题待解决，见右侧。", n=len(errors)) if errors else ""),
              "success" if not errors else "warning")
        if out.message:  # e.g. the daily allowance of ID numbers compared was reached
            flash(outcome_text(out), "info")
        if was in ("submitted", "returned") and d.status == DelegationStatus.DRAFT:
            flash(_("修改后报名回到草稿状态，请改完后重新提交。"), "info")
        return None
    return out


def conflict_page(d: Delegation, out: Outcome, change: Callable[[dict], dict]) -> tuple[Workspace, dict] | None:
    """When a co-leader saved the same part first: the workspace showing one's own change
    on top of theirs (the form keeps what was typed), and both versions of the part in words."""
    if out.status != Status.STALE or not out.details:
        return None
    current, key = out.details["current"], out.details["key"]
    mine = change(current)
    ws = Workspace(d, doc=mine, judged=False, only_event=key[1] if key[0] in ("event", "team") else None)
    names = {p["ref"]: p.get("name") or "" for doc in (current, mine) for p in doc["people"]}
    theirs = describe(current, key, names, ws.event_label, ws.en)
    ours = describe(mine, key, names, ws.event_label, ws.en)
    # What differs, marked on both sides: the field the two saves disagree on is the point.
    return ws, {"theirs": theirs, "mine": ours, "differs": sorted(set(theirs) ^ set(ours))}


def refusal_text(out: Outcome) -> str:
    return outcome_text(out) or _("保存失败。")


def role_name(ws: Workspace, role: str) -> str:
    """An event's name or a role's, never the code, where a person reads."""
    if role in ws.events:
        return ws.event_label(role)
    zh, en = ROLE_NAMES.get(role, (role, role))
    return en if ws.en else zh


def unknown_people_text(texts) -> str:
    return _("找不到这些人员（或有同名的人，请从提示中选择）：%(names)s", names="、".join(t for t in texts if t))


def career_fields(definition) -> dict:
    """What of a player's career the regulation reads: the grade systems and rating lists
    its rules name, and whether residence, nationality or employment matter."""
    from ..rules import definition as rd
    rules = definition.rules
    return {
        "grade_systems": list(dict.fromkeys(r.system for r in rules if isinstance(r, rd.GradeRule))),
        "rating_lists": list(dict.fromkeys(r.list for r in rules if isinstance(r, rd.RatingRule) and r.list != "fide")),
        "residence": any(isinstance(r, rd.ResidenceRule) for r in rules),
        "nationality": any(isinstance(r, rd.NationalityRule) for r in rules),
        "employment": any(isinstance(r, rd.EmploymentRule) or (isinstance(r, rd.OfficialsRequiredRule) and r.employed_as)
                          for r in rules),
    }


def person_form(definition, **kw) -> PersonForm:
    """The person form, its identity documents the portal's and those the regulation adds,
    and the career fields its rules read."""
    form = PersonForm(**kw)
    fit_person_form(form, definition)
    return form


def fit_person_form(form: PersonForm, definition) -> None:
    """A person form (the workspace's, or self-registration's narrower one) made to the
    regulation: the identity documents it adds, and the career fields its rules read shown,
    with their systems and lists to choose from."""
    from ..rules.grades import grade_systems, rating_lists
    offer_regulation_id_types(form, definition, is_en())
    needs = career_fields(definition)
    shown = {"grade_system": bool(needs["grade_systems"]), "rating_list": bool(needs["rating_lists"]),
             "residence_region": needs["residence"], "nationality": needs["nationality"],
             "employment_kind": needs["employment"]}
    if form.grade_system is not None:
        systems = grade_systems(definition)
        form.grade_system.choices = [(c, systems[c].name[1] if is_en() else systems[c].name[0])
                                     for c in needs["grade_systems"]]
    if form.rating_list is not None:
        lists = rating_lists(definition)
        form.rating_list.choices = [(c, lists[c][1] if is_en() else lists[c][0]) for c in needs["rating_lists"]]
    for name, on in shown.items():
        if (field := getattr(form, name)) is not None:
            field.shown = on
    form.career_shown = any(shown.values())


def upload_form(ws: Workspace) -> UploadForm:
    """The document upload, its kinds the portal's and those the regulation adds."""
    form = UploadForm()
    form.kind.choices = options((k, en if is_en() else zh) for k, (zh, en) in document_names_of(ws.definition).items())
    return form


def row_count(field: str, most: int) -> int:
    """How many rows a form says it sends: a whole number up to `most`, else a 400 that
    names the field (the loop it sizes stays bounded)."""
    raw = (request.form.get(field) or "0").strip()
    if not raw.isdigit() or int(raw) > most:
        abort(400, description=_("表单字段 %(field)s 无效：应为 0 到 %(most)d 之间的整数。", field=field, most=most))
    return int(raw)
