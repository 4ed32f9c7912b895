"""What the account pages read: accounts by id, the leaders and staff to list, the Games a
leader may register for himself."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..access import scope
from ..api.models import ApiToken
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import Games, GamesStatus
from ..roles import Role
from .models import GamesStaff, User


def user(user_id) -> User | None:
    return db.session.get(User, user_id) if user_id else None


def published_games() -> list[Games]:
    return db.session.scalars(select(Games).where(Games.status == GamesStatus.PUBLISHED).order_by(Games.slug)).all()


def leaders() -> list[User]:
    """The leaders of the delegations of the Games the reader serves, with their delegation."""
    return db.session.scalars(select(User).join(Delegation, User.delegation_id == Delegation.id)
                              .where(User.role == Role.LEADER, scope.games_clause(Delegation.games_id))
                              .options(selectinload(User.delegation).joinedload(Delegation.games))
                              .order_by(User.username)).all()


def staff_and_grants() -> tuple[list[User], dict[int, set[int]]]:
    """Every staff account and the Games each serves (by id)."""
    staff = db.session.scalars(select(User).where(User.role != Role.LEADER).order_by(User.role, User.username)).all()
    grants: dict[int, set[int]] = {}
    for user_id, games_id in db.session.execute(select(GamesStaff.user_id, GamesStaff.games_id)):
        grants.setdefault(user_id, set()).add(games_id)
    return staff, grants


def own_token(token_id: int, user_id: int) -> ApiToken | None:
    """One of this account's API tokens (another's is as good as none)."""
    row = db.session.get(ApiToken, token_id)
    return row if row is not None and row.user_id == user_id else None
