"""Who may do what. Every view states its rule with one of these decorators; the
authorization test walks every route against a table of expectations."""
from __future__ import annotations

import functools

from flask import abort, g, redirect, request, url_for
from flask_login import current_user
from sqlalchemy import bindparam
from sqlalchemy.orm import joinedload

from ..db_tx import row_read_beside, select_beside
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import GamesStatus
from ..roles import ORGANISERS, Role
from ..workflow.models import WITH_EXTENSIONS
from . import scope

# The delegation with its Games, which every rule below and every page reads, and its
# extensions, which every page's stage reads: one statement, built once (session.get with
# the same option costs three times as much). A row for each extension (there are few).
_WITH_GAMES = (select_beside(Delegation, WITH_EXTENSIONS).options(joinedload(Delegation.games))
               .where(Delegation.id == bindparam("delegation_id")))


def _delegation(delegation_id: int) -> Delegation | None:
    rows = db.session.execute(_WITH_GAMES, {"delegation_id": delegation_id}).all()
    return row_read_beside(Delegation, delegation_id, WITH_EXTENSIONS, rows)


def roles(*allowed: str):
    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            if not current_user.is_authenticated:
                return redirect(url_for("accounts.login", next=request.full_path))
            if current_user.role not in allowed:
                abort(403)
            if "slug" in kwargs:  # a Games' page: only its own staff (and administrators)
                g.games = scope.games_or_404(kwargs["slug"])
            return view(*args, **kwargs)
        wrapper.allowed_roles = allowed
        return wrapper
    return decorate


def delegation_view(*staff_roles: str, leader: bool = True, writers: tuple = ORGANISERS):
    """The view takes `delegation_id`: a leader reaches only his own delegation; the
    organising committee's roles listed in staff_roles reach every delegation of the Games
    they serve (scope.py), and only `writers` among them may send a state-changing request
    (an accountant reads)."""
    def decorate(view):
        @functools.wraps(view)
        def wrapper(delegation_id: int, *args, **kwargs):

            if not current_user.is_authenticated:
                return redirect(url_for("accounts.login", next=request.full_path))
            d = _delegation(delegation_id)
            if d is None:
                abort(404)
            if current_user.role == Role.LEADER:
                if not leader or current_user.delegation_id != d.id or d.games.status == GamesStatus.DRAFT:
                    abort(404)  # do not even confirm that another unit's delegation exists
            else:
                scope.require(d.games_id)  # the staff of another Games find nothing here
                if current_user.role not in staff_roles or request.method not in ("GET", "HEAD") and current_user.role not in writers:
                    abort(403)
            g.delegation = d
            return view(d, *args, **kwargs)
        return wrapper
    return decorate
