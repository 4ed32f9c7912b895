"""The delegation workspace: dashboard, declarations, people, entries and teams, roles,
documents, submission, JSON and Excel round trips, substitutions.

Views are thin: load (the access decorator), build the new document with `edit`, call the
workflow service, redirect or re-render with what was typed."""
from __future__ import annotations

import datetime as dt
import json
import os
import secrets
from functools import cached_property
from collections import Counter

from .names import document_names_of
from .models import DelegationStatus
from ..web import is_en, outcome_text
from flask import (Blueprint, abort, current_app, flash, redirect, render_template, request, send_file,
                   session, url_for)
from flask_wtf import FlaskForm
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from ..accounts.access import delegation_view
from ..accounts.views import actor
from ..clock import now
from ..extensions import db
from ..games.services import definition_of
from ..rules import idnumber, parse_document
from ..rules.jsontext import JsonTextError, load_json
from ..rules.definition import BoardRule, QuotaRule, TeamMakeupRule
from ..workflow import services as workflow
from ..workflow.models import ReviewNote, Substitution
from ..workflow.stages import may_edit_declarations, may_edit_names, stage_name
from . import edit
from . import diff, picker
from .names import ROLE_NAMES
from .files import UploadedFile, check_upload, store, write_private
from .forms import ConfirmForm, FileUploadForm, PersonForm, SubstitutionForm, UploadForm, VersionedForm
from ..privacy import mask_id, masked_document, record_access, sees_full_ids
from .judged import stored_document, stored_violations
from .services import _dedupe, export_document, judge

bp = Blueprint("workspace", __name__, url_prefix="/d")
STAFF = ("organiser", "admin", "accountant")
EDITORS = ("organiser", "admin")  # organisers may enter on a unit's behalf (paper forms)


def sees_other_delegations() -> bool:
    """Only the organisers learn which delegation already holds an identity number."""
    return current_user.is_authenticated and current_user.role in EDITORS


# --- shared context --------------------------------------------------------------------------

class Workspace:
    """What every workspace page shows: the document, the stage, the violations."""

    def __init__(self, d, at=None, doc=None):
        """`doc`: what the leader typed, when a save was refused, so that the page shows it
        (and what would be wrong with it) instead of losing it."""
        self.d = d
        self.at = at or now()
        self.definition = definition_of(d.games)
        self.stored = doc is None  # the stored delegation: its judgement may come from memory
        self.doc = doc if doc is not None else stored_document(d)
        self.stage = workflow.stage_of(d, self.at)
        self.people = {p["ref"]: p for p in self.doc["people"]}
        self.events = {e.code: e for e in self.definition.events}
        self.sports = {s.code: s for s in self.definition.sports}
        self.notes = db.session.scalars(select(ReviewNote).where(ReviewNote.delegation_id == d.id,
                                                                 ReviewNote.resolved.is_(False))).all()

    @cached_property
    def violations(self) -> list:
        """Judged when a page shows them (a save that redirects never needs them)."""
        if self.stored:
            return stored_violations(self.d, self.doc, self.at, reveal=sees_other_delegations())
        parsed, problems = parse_document(self.doc)
        return _dedupe(problems + judge(self.d.games, parsed, self.at, exclude_delegation_id=self.d.id,
                                        reveal=sees_other_delegations()))

    @cached_property
    def errors(self) -> list:
        return [v for v in self.violations if v.is_error]

    @cached_property
    def warnings(self) -> list:
        return [v for v in self.violations if not v.is_error]

    @property
    def editable(self) -> bool:
        return (may_edit_names(self.stage) and self.d.status not in (DelegationStatus.APPROVED, DelegationStatus.WITHDRAWN)
                and (current_user.role == "leader" or current_user.role in EDITORS))

    @property
    def documents_editable(self) -> bool:
        """Documents due at check-in may be added whatever the stage."""
        return self.d.status != DelegationStatus.WITHDRAWN and (current_user.role == "leader" or current_user.role in EDITORS)

    @property
    def declarations_editable(self) -> bool:
        return self.editable and may_edit_declarations(self.stage, self.definition.stages)

    def locked_reason(self) -> str | None:
        """Why the names cannot be edited now, and what to do instead."""
        if self.editable or self.d.status == DelegationStatus.WITHDRAWN or current_user.role == "accountant":
            return None
        if self.d.status == DelegationStatus.APPROVED:
            return _("报名已经组委会批准并锁定。如需更换运动员，请在“更换运动员”中提出申请。")
        from ..workflow.stages import NAMES, closes_at
        closes = closes_at(self.definition.stages, NAMES, workflow.extensions_of(self.d))
        when = _deadline_text(closes)
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

    def by_person(self, ref):
        return [v for v in self.violations if ref in v.people]

    def by_event(self, code):
        return [v for v in self.violations if v.event == code]

    def event_label(self, code):
        e = self.events.get(code)
        if e is None:
            return code
        sport = self.sports.get(e.sport)
        lang_en = is_en()
        return f"{sport.name.en if lang_en else sport.name.zh} {e.name.en if lang_en else e.name.zh}"

    @cached_property
    def extension_request(self):
        """The latest request for more time, when the names cannot be edited now."""
        from ..workflow.models import ExtensionRequest
        return db.session.scalar(select(ExtensionRequest).where(ExtensionRequest.delegation_id == self.d.id)
                                 .order_by(ExtensionRequest.id.desc()).limit(1))

    def may_ask_for_time(self) -> bool:
        """A closed stage with nothing approved yet: the leader can ask for more time."""
        return (not self.editable and self.d.status in (DelegationStatus.DRAFT, DelegationStatus.RETURNED)
                and self.stage.stage in ("substitutions", "closed")
                and (self.extension_request is None or self.extension_request.status != "pending"))

    def note_subject(self, note) -> str:
        """What a review note is about, by name: the person, the event, the delegation."""
        from .names import NOTE_ITEMS
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

    def quota(self, code) -> int | None:
        caps = [r.max for r in self.definition.rules_of(QuotaRule) if code in r.events]
        return min(caps) if caps else None

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
        max_teams = rule.max_teams if rule and rule.max_teams else 9
        if self.editable and len(out) < max_teams:
            used = {t["team"] for t in out}
            label = next(c for c in "ABCDEFGHIJ" if c not in used)
            out.append({"team": label, "slots": [], "new": True})
        return out

    def team_rows(self, code, team) -> int:
        rule = self.team_rule(code)
        size = len(team["slots"]) + 1
        if rule and rule.starters:
            reserves = rule.max_reserves if rule.max_reserves is not None else sum((rule.max_reserves_by_gender or {}).values())
            size = max(size, sum(rule.starters.values()) + reserves)
        return size

    def shown_events(self) -> list[str]:
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

    def missing_documents(self) -> list:
        return [v for v in self.violations if v.code == "DOCUMENT_MISSING"]


def _deadline_text(closes) -> str:
    from ..rules.engine import format_deadline
    return format_deadline(closes) if closes else ""


def _render(template, ws: Workspace, **kw):
    return render_template(template, ws=ws, d=ws.d, doc=ws.doc, **kw)


def _save(d, new_doc, form_version, success):
    try:
        version = int(form_version) if form_version not in (None, "") else None
    except ValueError:
        version = None
    was = d.status
    out = workflow.save(d, new_doc, actor(), now(), expected_version=version)
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


def _refusal_text(out) -> str:
    return outcome_text(out) or _("保存失败。")


# --- dashboard --------------------------------------------------------------------------------

@bp.get("/<int:delegation_id>")
@delegation_view(*STAFF)
def dashboard(d):
    ws = Workspace(d)
    rows = []
    for code in ws.shown_events():
        declared = next((x["count"] for x in ws.doc["declarations"] if x["event"] == code), 0)
        entered = len(ws.entrants(code))
        team_rule = ws.team_rule(code)
        cap = ws.quota(code)
        if cap is None and team_rule and team_rule.starters and team_rule.max_teams:
            reserves = team_rule.max_reserves if team_rule.max_reserves is not None else \
                sum((team_rule.max_reserves_by_gender or {}).values())
            cap = team_rule.max_teams * (sum(team_rule.starters.values()) + reserves)
        rows.append({"code": code, "declared": declared, "entered": entered, "cap": cap,
                     "problems": len([v for v in ws.by_event(code) if v.is_error])})
    counts = Counter(v.code for v in ws.violations)
    from ..workflow.models import Place
    place = db.session.scalar(select(Place).where(Place.delegation_id == d.id))
    position = None
    if place is not None and place.status == "waitlisted":
        position = 1 + len(db.session.scalars(select(Place.id).where(
            Place.games_id == place.games_id, Place.status == "waitlisted", Place.seq < place.seq)).all())
    from ..money.services import entry_valid, totals
    return _render("workspace/dashboard.html", ws, rows=rows, counts=counts, submit_form=VersionedForm(),
                   time_left=_time_left(ws), money=totals(d), valid=entry_valid(d), place=place, position=position)


def _time_left(ws):
    from ..web import time_left
    return time_left(ws.stage.closes, ws.at)


# --- declarations -----------------------------------------------------------------------------

@bp.route("/<int:delegation_id>/declarations", methods=["GET", "POST"])
@delegation_view(*STAFF)
def declarations(d):
    ws = Workspace(d)
    form = VersionedForm()
    typed = {}
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        counts, bad = {}, []
        for e in ws.definition.events:
            raw = (request.form.get(f"count-{e.code}") or "").strip()
            typed[e.code] = raw
            if raw == "":
                continue
            if not raw.isdigit() or int(raw) > 999:
                bad.append(e.code)
            else:
                counts[e.code] = int(raw)
        if bad:
            flash(_("人数须为 0 或正整数：") + "、".join(bad), "error")
        else:
            out = _save(d, edit.set_declarations(ws.doc, counts), form.version.data, _("已保存报项。"))
            if out is None:
                return redirect(url_for(".declarations", delegation_id=d.id))
            flash(_refusal_text(out), "error")
        ws = Workspace(d)
    else:
        typed = {x["event"]: str(x["count"]) for x in ws.doc["declarations"]}
    return _render("workspace/declarations.html", ws, form=form, typed=typed)


# --- people -------------------------------------------------------------------------------------

def role_name(ws, role: str) -> str:
    """An event's name or a role's, never the code, where a person reads."""
    if role in ws.events:
        return ws.event_label(role)
    zh, en = ROLE_NAMES.get(role, (role, role))
    return en if is_en() else zh


PEOPLE_PAGE = 100
PEOPLE_SORTS = {"": None, "name": "name", "gender": "gender", "birth": "birth_date", "event": "event"}


def _pinyin_key(name: str | None) -> list[str]:
    """Chinese names in the order people look them up: by pinyin (陈 before 李 before 王)."""
    from pypinyin import lazy_pinyin
    return lazy_pinyin(name or "")


@bp.get("/<int:delegation_id>/people")
@delegation_view(*STAFF)
def people(d):
    """The people, a page at a time: search by name or the last ID digits, filter by event
    or by "has problems", sort by name, gender or birth date (stable: then by entry order)."""
    ws = Workspace(d)
    q = (request.args.get("q") or "").strip()[:50]
    event = request.args.get("event") or ""
    problems_only = request.args.get("problems") == "1"
    sort = request.args.get("sort") if request.args.get("sort") in PEOPLE_SORTS else ""
    page = max(1, min(request.args.get("page", 1, type=int) or 1, 10_000))
    rows = ws.doc["people"]
    if q:
        rows = [p for p in rows if q in (p.get("name") or "") or q == p["ref"]
                or (len(q) >= 4 and (p.get("id_number") or "").endswith(q))]
    if event in ws.events:
        entered = set(ws.entrants(event))
        rows = [p for p in rows if p["ref"] in entered]
    if problems_only:
        rows = [p for p in rows if ws.by_person(p["ref"])]
    if sort == "name":
        rows = sorted(rows, key=lambda p: _pinyin_key(p.get("name")))
    elif sort == "event":  # by the first event entered, in the regulation's order; no event last
        order = {code: i for i, code in enumerate(ws.events)}
        first: dict[str, int] = {}
        for e in ws.doc["entries"]:
            for ref in edit.entry_people(e):
                first[ref] = min(first.get(ref, len(order)), order.get(e["event"], len(order)))
        rows = sorted(rows, key=lambda p: first.get(p["ref"], len(order) + 1))
    elif PEOPLE_SORTS[sort]:
        key = PEOPLE_SORTS[sort]
        rows = sorted(rows, key=lambda p: p.get(key) or "")
    total = len(rows)
    shown = rows[(page - 1) * PEOPLE_PAGE: page * PEOPLE_PAGE]
    refs = [p["ref"] for p in shown]
    files = db.session.scalars(select(UploadedFile).where(UploadedFile.delegation_id == d.id,
                                                          UploadedFile.person_ref.in_(refs))
                               .order_by(UploadedFile.id)).all() if refs else []
    by_ref = {}
    for f in files:
        by_ref.setdefault(f.person_ref, []).append(f)
    pages = max(1, (total + PEOPLE_PAGE - 1) // PEOPLE_PAGE)
    roles = edit.roles_by_person(ws.doc)
    from .names import VIOLATION_LABELS
    return _render("workspace/people.html", ws, files=by_ref, delete_form=VersionedForm(),
                   violation_labels=VIOLATION_LABELS,
                   roles_of=lambda ref: [role_name(ws, r) for r in roles.get(ref, [])], shown=shown,
                   total=total, page=page,
                   pages=pages, filters={"q": q, "event": event, "problems": "1" if problems_only else "",
                                         "sort": sort})


def _fill_form(form: PersonForm, p: dict):
    import datetime as _dt
    form.name.data, form.id_type.data, form.id_number.data = p.get("name"), p.get("id_type") or "resident_id", p.get("id_number")
    form.gender.data = p.get("gender") or ""
    form.birth_date.data = _dt.date.fromisoformat(p["birth_date"]) if p.get("birth_date") else None
    reg = p.get("registration") or {}
    form.registration_unit.data, form.registration_year.data = reg.get("unit"), reg.get("year")
    form.registration_date.data = dt.date.fromisoformat(reg["date"]) if reg.get("date") else None
    uni = p.get("university") or {}
    form.university_code.data, form.full_time.data = uni.get("code"), bool(uni.get("full_time"))
    form.graduation_date.data = _dt.date.fromisoformat(uni["graduation_date"]) if uni.get("graduation_date") else None
    rating = p.get("fide_rating") or {}
    form.fide_rating.data = rating.get("value")
    form.fide_list.data = _dt.date.fromisoformat(rating["list"]) if rating.get("list") else None
    form.club.data = p.get("club")


@bp.route("/<int:delegation_id>/people/new", methods=["GET", "POST"], defaults={"ref": None})
@bp.route("/<int:delegation_id>/people/<ref>", methods=["GET", "POST"])
@delegation_view(*STAFF)
def person(d, ref):
    ws = Workspace(d)
    existing = ws.people.get(ref) if ref else None
    if ref and existing is None:
        abort(404)
    form = _person_form(ws.definition)
    if request.method == "GET":
        form.version.data = d.version
        if existing:
            _fill_form(form, existing)
            if sees_full_ids():
                record_access("personal_data.view", [(ref, existing["name"])], delegation=d, what="person")
            else:
                form.id_number.data = mask_id(existing.get("id_number"))
        elif d.unit_code:
            # A new person: registered to this unit for the year the regulation asks for.
            from ..rules.definition import RegistrationRule
            form.registration_unit.data = d.unit_code
            rule = next(iter(ws.definition.rules_of(RegistrationRule)), None)
            if rule is not None:
                form.registration_year.data = rule.year
    elif form.validate_on_submit():
        if not ws.editable:
            flash(ws.locked_reason() or _("当前阶段不能修改名单。"), "error")
        else:
            problem = None
            number = idnumber.normalise(form.id_number.data or "")
            if number and form.id_type.data in ("resident_id", "household_register"):
                _parsed, reason = idnumber.parse(number)
                if reason:
                    zh, en = idnumber.REASONS[reason]
                    problem = en if is_en() else zh
                    form.id_number.errors.append(problem)
            if problem is None:
                new_ref = ref or edit.next_ref(ws.doc)
                p = form.to_person(new_ref, existing)
                out = _save(d, edit.upsert_person(ws.doc, p), form.version.data,
                            _("已保存 %(name)s。", name=p["name"]))
                if out is None:
                    return redirect(url_for(".people", delegation_id=d.id) + f"#person-{new_ref}")
                flash(_refusal_text(out), "error")
                for v in out.violations:
                    if v.path and ".birth_date" in v.path:
                        form.birth_date.errors.append(v.zh)
    files = db.session.scalars(select(UploadedFile).where(UploadedFile.delegation_id == d.id,
                                                          UploadedFile.person_ref == ref)).all() if ref else []
    upload = _upload_form(ws)
    upload.version.data = d.version
    names = document_names_of(ws.definition)
    return _render("workspace/person.html", ws, form=form, ref=ref, existing=existing, files=files,
                   upload=upload, document_names={k: (en if is_en() else zh) for k, (zh, en) in names.items()})


def _person_form(definition, **kw) -> PersonForm:
    """The person form, its identity documents the portal's and those the regulation adds."""
    form = PersonForm(**kw)
    extra = [(k.code, k.name.en if is_en() else k.name.zh) for k in definition.id_types]
    if extra:
        form.id_type.choices = list(form.id_type.choices) + extra
    return form


def _upload_form(ws) -> UploadForm:
    """The document upload, its kinds the portal's and those the regulation adds."""
    form = UploadForm()
    form.kind.choices = [(k, en if is_en() else zh) for k, (zh, en) in document_names_of(ws.definition).items()]
    return form


@bp.post("/<int:delegation_id>/people/<ref>/delete")
@delegation_view(*EDITORS)
def delete_person(d, ref):
    ws = Workspace(d)
    form = VersionedForm()
    if not form.validate_on_submit():
        abort(400)
    if ref not in ws.people:
        abort(404)
    out = _save(d, edit.delete_person(ws.doc, ref), form.version.data,
                _("已删除 %(name)s。", name=ws.people[ref]["name"]))
    if out is not None:
        flash(_refusal_text(out), "error")
    return redirect(url_for(".people", delegation_id=d.id))


@bp.post("/<int:delegation_id>/people/<ref>/documents")
@delegation_view(*EDITORS)
def upload_document(d, ref):
    ws = Workspace(d)
    if ref not in ws.people:
        abort(404)
    form = _upload_form(ws)
    if not form.validate_on_submit():
        flash("；".join(str(e) for errs in form.errors.values() for e in errs), "error")
        return redirect(url_for(".person", delegation_id=d.id, ref=ref))
    data = form.file.data.read()
    checked = check_upload(data)
    if checked[0] is None:
        zh, en = checked[1]
        flash((en if is_en() else zh), "error")
        return redirect(url_for(".person", delegation_id=d.id, ref=ref))
    content_type, ext = checked
    digest = store(current_app.config["UPLOAD_FOLDER"], d.id, data, ext)
    out = workflow.save(d, edit.add_document_kind(ws.doc, ref, form.kind.data), actor(), now())
    if not out.ok:
        flash(_refusal_text(out), "error")
        return redirect(url_for(".person", delegation_id=d.id, ref=ref))
    name = os.path.basename(form.file.data.filename or f"{form.kind.data}.{ext}")[:200]
    db.session.add(UploadedFile(delegation_id=d.id, person_ref=ref, kind=form.kind.data, filename=name,
                                content_type=content_type, size=len(data), sha256=digest,
                                uploaded_by=actor().label))
    db.session.commit()
    flash(_("材料已上传。"), "success")
    return redirect(url_for(".person", delegation_id=d.id, ref=ref))


@bp.get("/<int:delegation_id>/files/<int:file_id>")
@delegation_view(*STAFF)
def file(d, file_id):
    f = db.session.get(UploadedFile, file_id)
    if f is None or f.delegation_id != d.id:
        abort(404)
    ext = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}[f.content_type]
    path = os.path.join(current_app.config["UPLOAD_FOLDER"], str(d.id), f"{f.sha256}.{ext}")
    if not os.path.exists(path):
        abort(404)
    name = next((p.name for p in d.people if p.ref == f.person_ref), f.person_ref)
    record_access("personal_data.download", [(f.person_ref, name)], delegation=d, what=f.kind)
    return send_file(path, mimetype=f.content_type, download_name=f.filename,
                     as_attachment=f.content_type == "application/pdf")


def _unknown_people_text(texts) -> str:
    return _("找不到这些人员（或有同名的人，请从提示中选择）：%(names)s", names="、".join(t for t in texts if t))


@bp.get("/<int:delegation_id>/people/search")
@delegation_view(*STAFF)
def people_search(d):
    """Suggestions for a person field: this delegation's people whose name, reference or
    last ID digits match, among those who may enter the event (gender, age bracket, the
    matching individual event for a team: rules/eligibility.py)."""
    from ..rules.eligibility import eligible
    if len(request.args.get("q") or "") > 50:
        return []
    doc = export_document(d)
    event = request.args.get("event")
    only = eligible(definition_of(d.games), doc, event) if event else None
    return picker.search({p["ref"]: p for p in doc["people"]}, request.args.get("q") or "", only, is_en())


MAX_TEAM_ROWS = 50  # a team is at most a dozen players; the form adds a few empty rows


def _row_count(field: str, most: int) -> int:
    """How many rows a form says it sends: a whole number up to `most`, else a 400 that
    names the field (the loop it sizes stays bounded)."""
    raw = (request.form.get(field) or "0").strip()
    if not raw.isdigit() or int(raw) > most:
        abort(400, description=_("表单字段 %(field)s 无效：应为 0 到 %(most)d 之间的整数。", field=field, most=most))
    return int(raw)


# --- entries and teams -----------------------------------------------------------------------------

@bp.route("/<int:delegation_id>/entries", methods=["GET", "POST"])
@delegation_view(*STAFF)
def entries(d):
    ws = Workspace(d)
    form = VersionedForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        code = request.form.get("event")
        if code not in ws.events:
            abort(400)
        event = ws.events[code]
        unknown = []
        if event.is_team:
            label = (request.form.get("team") or "A").strip()[:20] or "A"
            lineup, problems = [], []
            for i in range(_row_count("rows", MAX_TEAM_ROWS)):
                ref, ok = picker.resolve(ws.people, request.form.get(f"person-{i}"))
                if not ok:
                    unknown.append(request.form.get(f"person-{i}"))
                if not ref:
                    continue
                slot = {"person": ref}
                if request.form.get(f"reserve-{i}"):
                    slot["reserve"] = True
                else:
                    board = (request.form.get(f"board-{i}") or "").strip()
                    if board:
                        if not board.isdigit():
                            problems.append(board)
                        else:
                            slot["board"] = int(board)
                lineup.append(slot)
            if request.form.get("remove"):
                lineup = []
            new_doc = edit.set_team(ws.doc, code, label, lineup)
        else:
            refs = [r for r in request.form.getlist("people") if r in ws.people]
            for text in request.form.getlist("add")[:MAX_TEAM_ROWS]:
                ref, ok = picker.resolve(ws.people, text)
                if not ok:
                    unknown.append(text)
                elif ref and ref not in refs:
                    refs.append(ref)
            new_doc = edit.set_individual(ws.doc, code, refs)
        if unknown:
            flash(_unknown_people_text(unknown), "error")
            return _render("workspace/entries.html", Workspace(d, doc=new_doc), form=form, edit_event=code,
                       edit_team=request.form.get("team") or ""), 409
        done = _("已删除 %(event)s 的 %(team)s 队。", event=ws.event_label(code), team=request.form.get("team") or "A") \
            if event.is_team and request.form.get("remove") else _("已保存 %(event)s 的报名。", event=ws.event_label(code))
        out = _save(d, new_doc, form.version.data, done)
        if out is None:
            return redirect(url_for(".entries", delegation_id=d.id) + f"#event-{code.replace('.', '-')}")
        flash(_refusal_text(out), "error")
        if out.status == "stale":  # show the other tab's version, never silently overwrite it
            return redirect(url_for(".entries", delegation_id=d.id))
        return _render("workspace/entries.html", Workspace(d, doc=new_doc), form=form, edit_event=code,
                       edit_team=request.form.get("team") or ""), 409
    return _render("workspace/entries.html", ws, form=form, edit_event=(request.args.get("event") or "")[:40],
                   edit_team=(request.args.get("team") or "")[:20])


# --- officials, staff, companions ---------------------------------------------------------------

@bp.route("/<int:delegation_id>/roles", methods=["GET", "POST"])
@delegation_view(*STAFF)
def roles(d):
    ws = Workspace(d)
    form = VersionedForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)

        unknown = []

        def rows(prefix, keys):
            out = []
            for i in range(_row_count(f"{prefix}-rows", len(ws.people) + 10)):
                item = {k: (request.form.get(f"{prefix}-{k}-{i}") or None) for k in keys}
                for k in ("person", "accompanies"):
                    if k in item:
                        ref, ok = picker.resolve(ws.people, item[k])
                        if not ok:
                            unknown.append(item[k])
                        item[k] = ref or None
                if item.get("person"):
                    out.append(item)
            return out
        officials = rows("official", ("person", "role", "sport"))
        staff = rows("staff", ("person", "role"))
        companions = rows("companion", ("person", "accompanies"))
        new_doc = edit.set_roles(ws.doc, officials, staff, companions)
        if unknown:
            flash(_unknown_people_text(unknown), "error")
            return _render("workspace/roles.html", Workspace(d, doc=new_doc), form=form), 409
        out = _save(d, new_doc, form.version.data, _("已保存官员和随队人员。"))
        if out is None:
            return redirect(url_for(".roles", delegation_id=d.id))
        flash(_refusal_text(out), "error")
        if out.status == "stale":
            return redirect(url_for(".roles", delegation_id=d.id))
        return _render("workspace/roles.html", Workspace(d, doc=new_doc), form=form), 409
    return _render("workspace/roles.html", ws, form=form)


# --- submit -----------------------------------------------------------------------------------------

@bp.post("/<int:delegation_id>/extension-request")
@delegation_view(*EDITORS)
def extension_request(d):
    """A leader whose stage has closed asks the organisers for more time."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    ws = Workspace(d)
    out = workflow.request_extension(d, ws.stage.stage if ws.stage.stage != "closed" else "names",
                                     (request.form.get("reason") or "")[:1000], actor())
    flash(_("已向组委会申请延期，答复后会显示在这里。") if out.ok else _refusal_text(out), "success" if out.ok else "error")
    return redirect(url_for(".dashboard", delegation_id=d.id))


@bp.post("/<int:delegation_id>/submit")
@delegation_view(*EDITORS)
def submit(d):
    form = VersionedForm()
    if not form.validate_on_submit():
        abort(400)
    out = workflow.submit(d, actor(), now())
    if out.status == "submitted":
        flash(_("报名已提交，等待组委会审核。"), "success")
    elif out.status == "waitlisted":
        flash(_("名额已满，已列入候补名单。"), "warning")
    else:
        errors = [v for v in out.violations if v.is_error]
        if errors:
            flash(_("还有 %(n)d 个错误，不能提交。请先改正右侧列出的问题。", n=len(errors)), "error")
        else:
            flash(_refusal_text(out), "error")
    return redirect(url_for(".dashboard", delegation_id=d.id))


# --- JSON and Excel round trips ---------------------------------------------------------------------

def _exported(d, doc: dict, what: str) -> dict:
    """The document as this reader may take it away: full identity numbers (and a record of
    the export) for the leader and the organisers, masked for anyone else."""
    if not sees_full_ids():
        return masked_document(doc)
    record_access("personal_data.export", [(p["ref"], p["name"]) for p in doc["people"]], delegation=d, what=what)
    return doc


@bp.get("/<int:delegation_id>/document.json")
@delegation_view(*STAFF)
def download_json(d):
    data = json.dumps(_exported(d, export_document(d), "document.json"), ensure_ascii=False, indent=2).encode("utf-8")
    from io import BytesIO
    name = f"{d.games.slug}-{d.unit_code or d.id}.json"
    return send_file(BytesIO(data), mimetype="application/json", as_attachment=True, download_name=name)


@bp.get("/<int:delegation_id>/entry-form.xlsx")
@delegation_view(*STAFF)
def download_excel(d):
    from .excel import write_workbook
    ws = Workspace(d)
    data = write_workbook(ws.definition, _exported(d, ws.doc, "entry-form.xlsx"))
    name = f"{d.games.slug}-{d.unit_code or d.id}-报名表.xlsx"
    from io import BytesIO
    return send_file(BytesIO(data), as_attachment=True, download_name=name,
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def _pending_path(token: str) -> str:
    folder = os.path.join(current_app.instance_path, "pending")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, f"{token}.json")


@bp.route("/<int:delegation_id>/upload", methods=["GET", "POST"])
@delegation_view(*EDITORS)
def upload(d):
    """Upload the Excel entry form or a JSON document: read, validate, show the differences;
    nothing is written until the leader confirms."""
    from .excel import ExcelError, read_workbook
    ws = Workspace(d)
    form = FileUploadForm()
    if request.method == "GET" or not form.validate_on_submit():
        return _render("workspace/upload.html", ws, form=form, upload_problems=None)
    storage = form.file.data
    raw = storage.read()
    name = storage.filename or ""
    problems = []
    new_doc = None
    if name.lower().endswith(".json") or raw[:1] in (b"{", b"["):
        try:
            new_doc = load_json(raw)
        except JsonTextError as exc:
            problems.append((name, exc.en if is_en() else exc.zh))
    else:
        try:
            new_doc = read_workbook(raw, ws.definition, ws.doc)
        except ExcelError as exc:
            problems = exc.problems
    if not problems and not isinstance(new_doc, dict):
        problems = [(name, _("文件内容应是一份报名文档（JSON 对象），而不是其他内容。"))]
    if not problems:
        parsed, schema = parse_document(new_doc)
        if schema:
            en = is_en()
            problems = [(v.path or name, v.en if en else v.zh) for v in schema]
        elif parsed.games != d.games.slug or (d.unit_code and parsed.unit != d.unit_code):
            problems = [(name, _("文件属于其他比赛或其他单位。"))]
    if problems:
        return _render("workspace/upload.html", ws, form=form, upload_problems=problems), 422
    changes = diff.changes(ws.doc, new_doc, {code: (ws.event_label(code),) * 2 for code in ws.events},
                           en=is_en(), show_id=lambda n: n if sees_full_ids() else mask_id(n))
    if not changes:
        return _render("workspace/upload_review.html", ws, changes=[], preview=[], confirm=None, filename=name)
    token = secrets.token_urlsafe(16)
    write_private(_pending_path(token), json.dumps({"delegation_id": d.id, "document": new_doc, "filename": name},
                                                   ensure_ascii=False).encode("utf-8"))
    session.setdefault("pending_uploads", [])
    session["pending_uploads"] = (session["pending_uploads"] + [token])[-5:]
    parsed, _schema = parse_document(new_doc)
    preview = _dedupe(judge(d.games, parsed, ws.at, exclude_delegation_id=d.id, reveal=sees_other_delegations()))
    confirm = ConfirmForm(formdata=None, token=token, version=d.version)
    return _render("workspace/upload_review.html", ws, changes=changes, preview=preview,
                   confirm=confirm, filename=name, hide_saved_problems=True)


@bp.post("/<int:delegation_id>/upload/confirm")
@delegation_view(*EDITORS)
def confirm_upload(d):
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    token = form.token.data or ""
    known = token in session.get("pending_uploads", []) and token.replace("-", "").replace("_", "").isalnum()
    path = _pending_path(token) if known else ""
    if not known or not os.path.exists(path):
        flash(_("上传已过期，请重新上传。"), "error")
        return redirect(url_for(".upload", delegation_id=d.id))
    with open(path, encoding="utf-8") as f:
        pending = json.load(f)
    if pending["delegation_id"] != d.id:
        abort(404)
    out = _save(d, pending["document"], form.version.data, _("已按上传的文件更新报名。"))
    if out is not None:
        flash(_refusal_text(out), "error")
        return redirect(url_for(".upload", delegation_id=d.id))
    os.remove(path)
    session["pending_uploads"] = [t for t in session.get("pending_uploads", []) if t != token]
    return redirect(url_for(".dashboard", delegation_id=d.id))


# --- substitutions -----------------------------------------------------------------------------------

@bp.route("/<int:delegation_id>/substitutions", methods=["GET", "POST"])
@delegation_view(*STAFF)
def substitutions(d):
    ws = Workspace(d)
    form = SubstitutionForm()
    form.event.choices = [(c, ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"])]
    entered = edit.athletes(ws.doc)
    athletes = [r for r in ws.people if r in entered]
    form.out_ref.choices = [(r, ws.people[r]["name"]) for r in athletes]
    form.in_ref.choices = [("", _("（新人员，填写下方信息）"))] + [(r, p["name"]) for r, p in ws.people.items()]
    person_form = _person_form(ws.definition, prefix="new")
    if request.method == "POST" and current_user.role in ("leader",) + EDITORS:
        if form.validate_on_submit():
            if form.in_ref.data:
                incoming = dict(ws.people[form.in_ref.data])
            elif person_form.name.data:
                incoming = person_form.to_person(edit.next_ref(ws.doc, "s"))
                if d.unit_code and not incoming.get("registration"):
                    incoming["registration"] = None
            else:
                incoming = None
                flash(_("请选择或填写替换人员。"), "error")
            if incoming:
                out = workflow.request_substitution(d, form.event.data, form.out_ref.data, incoming,
                                                    form.reason.data, actor(), now())
                if out.ok:
                    flash(_("更换申请已提交，等待组委会批准。"), "success")
                    return redirect(url_for(".substitutions", delegation_id=d.id))
                flash(_refusal_text(out), "error")
    requests = db.session.scalars(select(Substitution).where(Substitution.delegation_id == d.id)
                                  .order_by(Substitution.id.desc())).all()
    return _render("workspace/substitutions.html", ws, form=form, person_form=person_form, requests=requests)
