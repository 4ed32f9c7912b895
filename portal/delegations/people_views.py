"""The delegation's people: the list (a page at a time), the person form, documents and
ID copies, and the suggestions of a person field."""
from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from markupsafe import Markup
from pypinyin import lazy_pinyin
from werkzeug.datastructures import MultiDict

from ..access.guards import delegation_view
from ..audit.current import actor
from ..clock import now
from ..file_store import stored_download
from ..games.services import definition_of
from ..outcome import Refusal
from ..privacy import mask_id, may_open_file, record_access, sees_full_ids
from ..roles import STAFF
from ..rules.definition import RegistrationRule
from ..rules.eligibility import eligible
from ..translation import gettext as _
from ..web import is_en
from . import edit, picker, queries
from .blueprint import bp
from .files import stored_key
from .forms import VersionedForm
from .merge import merge_person
from .names import VIOLATION_LABELS, document_names_of
from .people_rows import RowTexts, people_rows
from .person_page import _fill_form, _id_number_problem, _shown_fields, register_lines, unread_fields
from .saving import add_document
from .services import export_document
from .workspace import (
    EDITORS,
    Workspace,
    conflict_page,
    person_form,
    refusal_text,
    render,
    role_name,
    save_edit,
    upload_form,
)

PEOPLE_PAGE = 100
PEOPLE_SORTS = {"": None, "name": "name", "gender": "gender", "birth": "birth_date", "event": "event"}


def _pinyin_key(name: str | None) -> list[str]:
    """Chinese names in the order people look them up: by pinyin (陈 before 李 before 王)."""
    return lazy_pinyin(name or "")


@bp.get("/<int:delegation_id>/people")
@delegation_view(*STAFF)
def people(d):
    """The people, a page at a time: search by name or the last ID digits, filter by event
    or by "has problems", sort by name, gender or birth date (stable: then by entry order)."""
    return _people_page(Workspace(d), request.args)


def _saved_person_page(d, ref: str):
    """The answer to a person's save: the people page, on the page that holds him, in the
    save's own response. A redirect would make each save two requests, each paying again
    for the session, the account, the delegation and its outside facts (on deadline night
    every leader's cycle, issue 41); the page makes its address the people page's, so
    reloading it shows the list instead of saving again (static/address.js)."""
    ws = Workspace(d)
    index = next((i for i, p in enumerate(ws.doc["people"]) if p["ref"] == ref), 0)
    page = index // PEOPLE_PAGE + 1
    address = url_for(".people", delegation_id=d.id, **({"page": page} if page > 1 else {})) + f"#person-{ref}"
    return _people_page(ws, MultiDict({"page": str(page)}), address=address)


def _people_page(ws: Workspace, args, address: str | None = None):
    """`args`: the page's query (a request's, or the page a save answers with); `address`: the
    URL the page stands for, when it answers a form's POST."""
    d = ws.d
    q = (args.get("q") or "").strip()[:50]
    event = args.get("event") or ""
    problems_only = args.get("problems") == "1"
    sort = args.get("sort") if args.get("sort") in PEOPLE_SORTS else ""
    page = max(1, min(args.get("page", 1, type=int) or 1, 10_000))
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
    by_ref = queries.files_by_person(d, refs)
    roles = edit.roles_by_person(ws.doc)
    offset = (page - 1) * PEOPLE_PAGE

    def texts(**words) -> RowTexts:  # the template's words, with what the page knows
        return RowTexts(person_url=url_for(".person", delegation_id=d.id, ref="__REF__"),
                        delete_url=url_for(".delete_person", delegation_id=d.id, ref="__REF__"),
                        file_url=url_for(".file", delegation_id=d.id, file_id=0)[:-1],
                        csrf_field=str(getattr(VersionedForm(), "csrf_token", "")) if ws.editable else "", version=d.version,
                        editable=ws.editable, full_ids=sees_full_ids(), en=ws.en, labels=VIOLATION_LABELS, **words)

    def rows(row_texts: RowTexts) -> Markup:
        return people_rows(ws, shown, offset, by_ref, lambda ref: [role_name(ws, r) for r in roles.get(ref, [])],
                           may_open_file, row_texts)
    return render("workspace/people.html", ws, shown=shown, rows=rows, texts=texts,
                  total=total, page=page, pages=max(1, (total + PEOPLE_PAGE - 1) // PEOPLE_PAGE),
                  filters={"q": q, "event": event, "problems": "1" if problems_only else "", "sort": sort},
                  page_address=address)


STALE_PERSON = ("这名人员的同一项已在其他窗口或由其他人修改并保存。下面并列显示对方保存的和您填写的内容；您填写的仍在表中，"
                "核对后再保存即可（会覆盖对方的修改），或刷新页面保留对方的。",
                "Someone else changed the same field of this person meanwhile. Their version and yours are shown "
                "side by side; yours is still in the form: save again to keep yours (it replaces theirs), or reload "
                "the page to keep theirs.")


@bp.route("/<int:delegation_id>/people/new", methods=["GET", "POST"], defaults={"ref": None})
@bp.route("/<int:delegation_id>/people/<ref>", methods=["GET", "POST"])
@delegation_view(*STAFF)
def person(d, ref):
    ws = Workspace(d)
    existing = ws.people.get(ref) if ref else None
    if ref and existing is None:
        abort(404)
    form = person_form(ws.definition)
    conflict = None
    if request.method == "GET":
        form.version.data = d.version
        if existing:
            _fill_form(form, existing)
            if sees_full_ids():
                record_access("personal_data.view", [(ref, existing["name"])], delegation=d, what="person")
            else:
                form.id_number.data = mask_id(existing.get("id_number"))
                form.birth_date.data = None  # beside a masked number, not the whole date
        elif d.unit_code:
            # A new person: registered to this unit for the year the regulation asks for.
            form.registration_unit.data = d.unit_code
            rule = next(iter(ws.definition.rules_of(RegistrationRule)), None)
            if rule is not None:
                form.registration_year.data = rule.year
    elif form.validate_on_submit():
        problem = _id_number_problem(form)
        if not ws.editable:
            flash(ws.locked_reason() or _("当前阶段不能修改名单。"), "error")
        elif problem:
            form.id_number.errors.append(problem)
        else:
            saved_as = {}

            def change(doc):
                # A new person takes the next free reference of the document saved onto.
                new_ref = ref or edit.next_ref(doc)
                saved_as["ref"] = new_ref
                stored = next((x for x in doc["people"] if x["ref"] == new_ref), None)
                return edit.upsert_person(doc, form.to_person(new_ref, stored))
            shown_fields = _shown_fields(request.form.get("base_fields")) if ref else None
            key = ("person", ref) if ref else ("new",)
            if shown_fields is not None:
                # Field by field: what this form changed goes onto the person as co-leaders left him;
                # only a field both changed differently is a conflict.
                plain = change

                def change(doc):
                    stored = next((x for x in doc["people"] if x["ref"] == ref), None)
                    if stored is None:
                        return plain(doc)
                    merged, clashes = merge_person(stored, form.to_person(ref, stored), shown_fields)
                    if clashes:
                        raise Refusal(Refusal.STALE, *STALE_PERSON, delegation=d, details={"key": ("person", ref),
                                                                                           "current": doc})
                    saved_as["ref"] = ref
                    return edit.upsert_person(doc, merged)
                key = ("person_fields", ref)
            out = save_edit(d, change, form.version.data, _("已保存 %(name)s。", name=(form.name.data or "").strip()),
                            key=key)
            if shown_fields is not None:
                change = plain  # the conflict page shows this form's person over theirs
            if out is None:
                return _saved_person_page(d, saved_as["ref"])
            flash(refusal_text(out), "error")
            shown = conflict_page(d, out, change)
            if shown:
                ws, conflict = shown
                form.version.data = d.version  # saving again keeps what was typed
            for v in out.violations:
                if v.path and ".birth_date" in v.path:
                    form.birth_date.errors.append(v.en if is_en() else v.zh)  # one reader, one language
    files = queries.files_of_person(d, ref)
    upload = upload_form(ws)
    upload.version.data = d.version
    names = document_names_of(ws.definition)
    unread, unfold = unread_fields(ws.definition, form, existing)
    return render("workspace/person.html", ws, form=form, ref=ref, existing=existing, files=files, conflict=conflict,
                  unread=unread, unfold_unread=unfold,
                  upload=upload, document_names={k: (en if is_en() else zh) for k, (zh, en) in names.items()},
                  known=register_lines(ws.definition, existing, d.unit_code, d.games, ws.outside.register)
                  if existing else [])


@bp.post("/<int:delegation_id>/people/<ref>/delete")
@delegation_view(*EDITORS)
def delete_person(d, ref):
    ws = Workspace(d)
    form = VersionedForm()
    if not form.validate_on_submit():
        abort(400)
    if ref not in ws.people:
        abort(404)
    out = save_edit(d, lambda doc: edit.delete_person(doc, ref), form.version.data,
                    _("已删除 %(name)s。", name=ws.people[ref]["name"]), key=("person", ref))
    if out is not None:
        flash(refusal_text(out), "error")
    return redirect(url_for(".people", delegation_id=d.id))


@bp.post("/<int:delegation_id>/people/<ref>/documents")
@delegation_view(*EDITORS)
def upload_document(d, ref):
    ws = Workspace(d)
    if ref not in ws.people:
        abort(404)
    form = upload_form(ws)
    if not form.validate_on_submit():
        flash("；".join(str(e) for errs in form.errors.values() for e in errs), "error")
    else:
        out = add_document(d, ref, form.kind.data, form.file.data.read(), form.file.data.filename,
                                    actor(), now())
        flash(_("材料已上传。") if out.ok else refusal_text(out), "success" if out.ok else "error")
    return redirect(url_for(".person", delegation_id=d.id, ref=ref))


@bp.get("/<int:delegation_id>/files/<int:file_id>")
@delegation_view(*STAFF)
def file(d, file_id):
    f = queries.file_of(d, file_id) or abort(404)
    if not may_open_file(f.kind):
        abort(403)  # ID copies and photos: the roles that see full numbers (privacy.py)
    key = stored_key(f)
    if key is None:
        abort(404)
    name = next((p.name for p in d.people if p.ref == f.person_ref), f.person_ref)
    record_access("personal_data.download", [(f.person_ref, name)], delegation=d, what=f.kind)
    return stored_download(key, f.filename, f.content_type, inline=f.content_type != "application/pdf")


@bp.get("/<int:delegation_id>/people/search")
@delegation_view(*STAFF)
def people_search(d):
    """Suggestions for a person field: this delegation's people whose name, reference or
    last ID digits match, among those who may enter the event (gender, age bracket, the
    matching individual event for a team: rules/eligibility.py)."""
    if not sees_full_ids():
        abort(403)  # labels carry birth dates; only those who edit entries choose people
    if len(request.args.get("q") or "") > 50:
        return []
    doc = export_document(d)
    event = request.args.get("event")
    only = eligible(definition_of(d.games), doc, event) if event else None
    return picker.search({p["ref"]: p for p in doc["people"]}, request.args.get("q") or "", only, is_en())
