"""Which Games a staff account serves. An administrator sees every Games; an organiser or an
accountant only those granted (GamesStaff) and nothing of any other: their delegations,
people, money, results, audit and jobs are as absent as another unit's are to a leader
(404, never 403, so that a guess learns nothing). Asked once per request."""
from __future__ import annotations

from flask import abort, g
from flask_login import current_user
from sqlalchemy import ColumnElement, select, true

from ..accounts.models import GamesStaff, User
from ..extensions import db
from ..games.models import Games
from ..roles import SCOPED_STAFF, Role


def games_ids_of(user: User) -> frozenset[int] | None:
    """None: every Games (an administrator); else the ids granted (empty for a leader)."""
    if user.role == Role.ADMIN:
        return None
    if user.role not in SCOPED_STAFF:
        return frozenset()
    return frozenset(db.session.scalars(select(GamesStaff.games_id).where(GamesStaff.user_id == user.id)))


def visible_games_ids() -> frozenset[int] | None:
    if "visible_games_ids" not in g:
        g.visible_games_ids = games_ids_of(current_user) if current_user.is_authenticated else frozenset()
    return g.visible_games_ids


def may_see(games_id: int | None) -> bool:
    ids = visible_games_ids()
    return ids is None or games_id in ids


def require(games_id: int | None) -> None:
    """404 unless the current staff account serves this Games."""
    if not may_see(games_id):
        abort(404)


def games_clause(column) -> ColumnElement[bool]:
    """A WHERE clause keeping the rows of the Games this account serves (`column` holds a
    Games id)."""
    ids = visible_games_ids()
    return true() if ids is None else column.in_(sorted(ids) or [-1])


def visible_games() -> list[Games]:
    """The Games this account serves, by slug."""
    return list(db.session.scalars(select(Games).where(games_clause(Games.id)).order_by(Games.slug)))


def games_or_404(slug: str) -> Games:
    games = db.session.scalar(select(Games).where(Games.slug == slug))
    if games is None or not may_see(games.id):
        abort(404)
    return games
