"""What every API route does first: the token, its scope and role, the Games and the
delegation it may see (a 404 for what it may not, as on the pages), and problem+json for
every refusal."""
from __future__ import annotations

from flask import abort, g, jsonify, request
from flask_login import current_user

from ..access import scope
from ..accounts.api_tokens import record_use
from ..audit.current import actor
from ..clock import now
from ..delegations.models import Delegation
from ..delegations.queries import delegation
from ..games.models import Games, GamesStatus
from ..roles import Role


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
    record_use(token, actor(), f"{request.method} {request.path}", now())


def api_games() -> list[Games]:
    if current_user.role == Role.LEADER:
        d = current_user.delegation
        return [d.games] if d is not None and d.games.status == GamesStatus.PUBLISHED else []
    return scope.visible_games()


def delegation_or_404(delegation_id: int) -> Delegation:
    """The delegation, when this token's account may see it; else 404 (as on the pages)."""
    d = delegation(delegation_id)
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
