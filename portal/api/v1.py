"""The REST API, version 1 (issue 24, 3): Games, delegations and a delegation's document,
for the systems a provincial bureau or a results program runs. Built on spectree: the
routes are typed with pydantic models (the portal's own validation library), and the
OpenAPI document is generated from them (/api/v1/openapi.json; a page at /api/v1/docs).

The same rules as the pages: a token acts as its account (a leader's sees his delegation
only, staff their Games only), identity numbers are masked as on the pages, every write
goes through the same services, stages and deadlines; errors are problem+json with the
rule codes. Every use is audited and rate limited."""
from __future__ import annotations

from flask import abort, g, jsonify, render_template, request
from flask_login import current_user
from pydantic import BaseModel, Field
from spectree import Response, SecurityScheme, SpecTree
from spectree.models import SecureType, SecuritySchemeData
from sqlalchemy import func, select

from ..access import scope
from ..audit.current import actor
from ..audit.services import record
from ..cli_support import parse_instant
from ..clock import now
from ..db_tx import write_transaction
from ..delegations.judged import stored_document, stored_violations
from ..delegations.models import Delegation
from ..delegations.saving import save
from ..delegations.services import UNUSABLE, check_document, export_document
from ..delegations.summary import summaries
from ..extensions import api_limit, csrf, db
from ..games.models import Games, GamesStatus
from ..games.services import definition_of, read_back_of, unit_names
from ..privacy import masked_document, record_access, sees_full_ids
from ..roles import ORGANISERS, Role
from ..rules.jsontext import JsonTextError, load_json
from ..rules.violations import report, schema_error
from ..workflow.counts import delegation_counts
from .views import bp

spec = SpecTree("flask", title="智运报名 Mind-sports entries API", version="v1", mode="strict",
                security_schemes=[SecurityScheme(name="token", data=SecuritySchemeData(
                    type=SecureType.HTTP, scheme="bearer", description="an API token from the account page"))],
                security={"token": []}, annotations=True)
PER_PAGE = 50


# --- the shapes ------------------------------------------------------------------------------

class Text(BaseModel):
    zh: str
    en: str


class GamesItem(BaseModel):
    slug: str
    name: Text
    status: str = Field(description="draft (only its staff see it) or published")
    start: str
    end: str
    stages: dict[str, str | None] = Field(description="each stage's closing instant, ISO 8601 with its offset")


class GamesList(BaseModel):
    games: list[GamesItem]


class GamesDetail(GamesItem):
    definition: dict
    read_back: list[dict]


class DelegationItem(BaseModel):
    id: int
    games: str
    unit: Text
    status: str
    version: int
    people: int
    athletes: int
    events: int
    errors: int
    warnings: int


class DelegationPage(BaseModel):
    delegations: list[DelegationItem]
    page: int
    per_page: int
    total: int


class DelegationDetail(DelegationItem):
    violations: list[dict]


class Report(BaseModel):
    ok: bool
    status: str | None
    errors: int
    warnings: int
    violations: list[dict]


class ListQuery(BaseModel):
    games: str | None = Field(default=None, description="a Games' slug")
    page: int = Field(default=1, ge=1, le=10_000)
    per_page: int = Field(default=PER_PAGE, ge=1, le=100)


class Problem(BaseModel):
    type: str
    title: str
    status: int
    detail: str | None = None
    code: str | None = None


# --- helpers ---------------------------------------------------------------------------------

def problem(status: int, title: str, detail: str | None = None, code: str | None = None, **extra):
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, "code": code, **extra}
    response = jsonify(body)
    response.status_code = status
    response.mimetype = "application/problem+json"
    return response


def require_token(scope_name: str) -> None:
    current_user.is_authenticated  # noqa: B018 (loads the account from the token, if any)
    token = g.get("api_token")
    if token is None:
        abort(problem(401, "Unauthorized", "Send `Authorization: Bearer <token>` (the account page makes tokens)."))
    if not token.allows(scope_name):
        abort(problem(403, "Forbidden", f"This token's scopes do not include {scope_name!r}.", code="scope"))
    with write_transaction():  # every use, in the audit log
        record(actor(), "api.request", "api", f"{request.method} {request.path}"[:200],
               after={"token": token.prefix})
        db.session.get(type(token), token.id).last_used_at = now()


def api_games() -> list[Games]:
    if current_user.role == Role.LEADER:
        d = current_user.delegation
        return [d.games] if d is not None and d.games.status == GamesStatus.PUBLISHED else []
    return scope.visible_games()


def delegation_or_404(delegation_id: int) -> Delegation:
    """The delegation, when this token's account may see it; else 404 (as on the pages)."""
    d = db.session.get(Delegation, delegation_id)
    if d is None:
        abort(problem(404, "Not Found"))
    if current_user.role == Role.LEADER:
        if current_user.delegation_id != d.id or d.games.status == GamesStatus.DRAFT:
            abort(problem(404, "Not Found"))
    elif not scope.may_see(d.games_id):
        abort(problem(404, "Not Found"))
    return d


def games_or_404(slug: str) -> Games:
    """The Games, when this token's account may see it; else 404."""
    games = next((x for x in api_games() if x.slug == slug), None)
    if games is None:
        abort(problem(404, "Not Found"))
    return games


def gate(scope_name: str, *roles: str):
    """spectree's `before` hook: a request whose query or body is not of the shape is first
    asked for its token, role and Games, so that nobody learns anything from a 422 who
    would have been refused."""
    def before(req, _resp, error, *_rest):
        if error is not None:
            require_token(scope_name)
            if roles:
                require_role(*roles)
            if (req.view_args or {}).get("slug"):
                games_or_404(req.view_args["slug"])
            abort(invalid(error))
    return before


def invalid(error):
    """A query or body not of the shape, as problem+json naming each field."""
    fields = [{"field": ".".join(str(x) for x in e.get("loc", ())), "problem": e.get("msg", "")}
              for e in error.errors(include_url=False, include_input=False)]
    detail = "; ".join(f"{f['field']}: {f['problem']}" for f in fields)[:1000]
    return problem(422, "Unprocessable Content", detail, code="invalid", fields=fields)


def require_role(*roles: str) -> None:
    if current_user.role not in roles:
        abort(problem(403, "Forbidden", f"Not for a token of a {current_user.role}'s account.", code="role"))


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
    ids = [x.id for x in games] or [-1]
    base = select(Delegation).where(Delegation.games_id.in_(ids))
    if current_user.role == Role.LEADER:
        base = base.where(Delegation.id == current_user.delegation_id)
    total = db.session.scalar(select(func.count()).select_from(base.subquery()))
    rows = db.session.scalars(base.order_by(Delegation.id).offset((q.page - 1) * q.per_page).limit(q.per_page)).all()
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
        response.headers["ETag"] = f'"{db.session.get(Delegation, d.id).version}"'
        return response
    status = 412 if out.code == "stale" else 422
    message = out.message[1] if out.message else "Refused"
    return problem(status, "Precondition Failed" if status == 412 else "Unprocessable Content", message, code=out.code,
                   violations=body["violations"])


class CheckQuery(BaseModel):
    at: str | None = Field(default=None, description="the instant to judge at, ISO 8601 (default: now)")


class CheckReport(BaseModel):
    games: str | None
    unit: dict | str | None
    ok: bool
    errors: int
    warnings: int
    violations: list[dict] = Field(description="each with its code (rules.md), severity, subjects and zh/en message")


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
