"""The REST API, version 1 (issue 24, 3): Games, delegations and a delegation's document,
for the systems a provincial bureau or a results program runs. Built on spectree: the
routes are typed with pydantic models (the portal's own validation library), and the
OpenAPI document is generated from them (/api/v1/openapi.json; a page at /api/v1/docs).

The same rules as the pages: a token acts as its account (a leader's sees his delegation
only, staff their Games only), identity numbers are masked as on the pages, every write
goes through the same services, stages and deadlines; errors are problem+json with the
rule codes. Every use is audited and rate limited."""
from __future__ import annotations

from flask import jsonify, render_template, request
from flask_login import current_user
from spectree import Response

from ..audit.current import actor
from ..cli_support import parse_instant
from ..clock import now
from ..delegations.judged import stored_document, stored_violations
from ..delegations.models import Delegation
from ..delegations.queries import delegation
from ..delegations.saving import save
from ..delegations.services import UNUSABLE, check_document, export_document
from ..delegations.summary import summaries
from ..extensions import api_limit, csrf
from ..games.models import Games
from ..games.services import definition_of, read_back_of, unit_names
from ..privacy import masked_document, record_access, sees_full_ids
from ..roles import ORGANISERS, Role
from ..rules.jsontext import JsonTextError, load_json
from ..rules.violations import report, schema_error
from ..workflow.counts import delegation_counts
from . import queries
from .blueprint import bp
from .gate import api_games, delegation_or_404, games_or_404, gate, problem, require_role, require_token
from .shapes import (
    CheckQuery,
    CheckReport,
    DelegationDetail,
    DelegationPage,
    GamesDetail,
    GamesList,
    ListQuery,
    Problem,
    Report,
    spec,
)


def _games_item(games: Games) -> dict:
    definition = definition_of(games)
    stages = definition.stages
    return {"slug": games.slug, "name": {"zh": games.name_zh, "en": games.name_en}, "status": games.status,
            "start": definition.dates.start.isoformat(), "end": definition.dates.end.isoformat(),
            "stages": {k: (getattr(stages, k).isoformat() if getattr(stages, k) else None)
                       for k in ("declaration_closes", "names_closes", "substitutions_closes", "changes_close")}}


def _delegation_item(d: Delegation, counts: dict, names: dict, names_en: dict, violations=None, figures=None) -> dict:
    if figures is not None:
        errors, warnings = figures.errors, figures.warnings
    else:
        found = violations if violations is not None else stored_violations(d, stored_document(d), now(), sees_full_ids())
        errors, warnings = sum(1 for v in found if v.is_error), sum(1 for v in found if not v.is_error)
    c = counts.get(d.id, {"people": 0, "athletes": 0, "events": 0})
    unit = (names.get(d.unit_code, d.unit_name or d.unit_code or ""), names_en.get(d.unit_code, d.unit_name or d.unit_code or ""))
    return {"id": d.id, "games": d.games.slug, "unit": {"zh": unit[0], "en": unit[1]}, "status": str(d.status),
            "version": d.version, **c, "errors": errors, "warnings": warnings}


# --- the routes ------------------------------------------------------------------------------

@bp.get("/games")
@api_limit
@spec.validate(resp=Response(HTTP_200=GamesList, HTTP_401=Problem), tags=["games"])
def games_list():
    """The Games this token's account may see."""
    require_token("read")
    return jsonify({"games": [_games_item(x) for x in api_games()]})


@bp.get("/games/<slug>")
@api_limit
@spec.validate(resp=Response(HTTP_200=GamesDetail, HTTP_404=Problem), tags=["games"])
def games_detail(slug):
    """A Games: its definition (the regulation as data) and every rule read back in words."""
    require_token("read")
    games = games_or_404(slug)
    lines = [{"section": section, "zh": x.zh, "en": x.en, "clause": x.clause}
             for section, items in read_back_of(games).items() for x in items]
    return jsonify({**_games_item(games), "definition": games.definition, "read_back": lines})


@bp.get("/delegations")
@api_limit
@spec.validate(query=ListQuery, resp=Response(HTTP_200=DelegationPage), tags=["delegations"], before=gate("read"))
def delegations_list():
    """Delegations, a page at a time: a leader's token, his own; staff, their Games'."""
    require_token("read")
    q = request.context.query
    games = api_games()
    if q.games:
        games = [x for x in games if x.slug == q.games]
    total, rows = queries.delegations_page([x.id for x in games],
                                           current_user.delegation_id if current_user.role == Role.LEADER else None,
                                           q.page, q.per_page)
    counts, figures = {}, {}
    for x in games:
        counts.update(delegation_counts(x))
        if current_user.role != Role.LEADER:  # staff: the stored summaries, judged only where they moved
            figures.update(summaries(x, [d for d in rows if d.games_id == x.id], now()))
    names, names_en = unit_names(), unit_names("en")
    return jsonify({"delegations": [_delegation_item(d, counts, names, names_en, figures=figures.get(d.id))
                                    for d in rows], "page": q.page, "per_page": q.per_page, "total": total})


@bp.get("/delegations/<int:delegation_id>")
@api_limit
@spec.validate(resp=Response(HTTP_200=DelegationDetail, HTTP_404=Problem), tags=["delegations"])
def delegation_detail(delegation_id):
    """A delegation's status, counts and every problem (the same codes as the pages)."""
    require_token("read")
    d = delegation_or_404(delegation_id)
    found = stored_violations(d, stored_document(d), now(), sees_full_ids())
    item = _delegation_item(d, delegation_counts(d.games), unit_names(), unit_names("en"), found)
    return jsonify({**item, "violations": [v.as_dict() for v in found]})


@bp.get("/delegations/<int:delegation_id>/document")
@api_limit
@spec.validate(resp=Response(HTTP_200=None, HTTP_404=Problem), tags=["delegations"])
def document_get(delegation_id):
    """The delegation as a document (delegation/1), with its version as the ETag. Identity
    numbers in full for its leader and the organisers (the export is recorded), masked for
    anyone else."""
    require_token("read")
    d = delegation_or_404(delegation_id)
    document = export_document(d)
    if sees_full_ids():
        record_access("personal_data.export", [(p["ref"], p["name"]) for p in document["people"]], delegation=d,
                      what="api document")
    else:
        document = masked_document(document)
    response = jsonify(document)
    response.headers["ETag"] = f'"{d.version}"'
    return response


@bp.put("/delegations/<int:delegation_id>/document")
@csrf.exempt  # a bearer token, never a cookie: nothing a browser sends on its own
@api_limit
@spec.validate(resp=Response(HTTP_200=Report, HTTP_412=Problem, HTTP_428=Problem, HTTP_422=Problem),
               tags=["delegations"])
def document_put(delegation_id):
    """Replace the delegation's contents with the document, exactly as a leader's upload
    does (the stage, the deadlines, the same validation report in the same codes). Send the
    version read (`If-Match: "<version>"`): a change made meanwhile is refused (412)."""
    require_token("write")
    d = delegation_or_404(delegation_id)
    require_role(Role.LEADER, *ORGANISERS)
    match = (request.headers.get("If-Match") or "").strip().strip('"')
    if not match.isdigit():
        return problem(428, "Precondition Required", 'Send If-Match: "<version>" (the ETag of the document read).')
    try:
        data = load_json(request.get_data(cache=False))
    except JsonTextError as exc:
        return problem(400, "Bad Request", exc.en, code="invalid")
    out = save(d, data, actor(), now(), expected_version=int(match))
    report = out.report()
    body = {"ok": out.ok and not any(v.is_error for v in out.violations), "status": report.get("status"),
            "errors": report["errors"], "warnings": report["warnings"], "violations": report["violations"]}
    if out.ok:
        response = jsonify(body)
        response.headers["ETag"] = f'"{delegation(d.id).version}"'
        return response
    status = 412 if out.code == "stale" else 422
    message = out.message[1] if out.message else "Refused"
    return problem(status, "Precondition Failed" if status == 412 else "Unprocessable Content", message, code=out.code,
                   violations=body["violations"])


@bp.post("/check")
@api_limit
@csrf.exempt  # stateless and read-only: no session, no cookie, nothing changed
@spec.validate(query=CheckQuery, resp=Response(HTTP_200=CheckReport, HTTP_400=CheckReport), tags=["check"],
               security={})
def check():
    """Judge a delegation document (delegation/1) against its Games' rules, changing
    nothing; without a token it is judged alone (no stored numbers or sanctions are
    compared, so the answer tells nobody who is registered). 400 when the document
    cannot be read as one."""
    try:
        at = parse_instant(request.args.get("at"))
    except Exception as exc:  # click.BadParameter
        rep = report(None, None, [schema_error("at", "时间格式无效", str(getattr(exc, "message", exc)))])
        return jsonify(rep), 400
    try:
        data = load_json(request.get_data(cache=False))
    except JsonTextError as exc:
        rep = report(None, None, [schema_error("", "请求正文" + exc.zh, "the request body is " + exc.en)])
        return jsonify(rep), 400
    user = current_user if current_user.is_authenticated else None
    rep, status = check_document(data, at, stored=user is not None,
                                 reveal=user is not None and user.role in ORGANISERS,
                                 drafts=user is not None and user.is_admin)
    return jsonify(rep), 400 if status == UNUSABLE else 200


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI document of version 1 (generated from the routes' models)."""
    return jsonify(spec.spec)


@bp.get("/docs")
def docs():
    """A readable page of the API: every route, what it takes and gives, from the OpenAPI
    document itself."""
    return render_template("api/docs.html", spec=spec.spec)
