"""What the organisers' workflow pages read: counts of a Games' delegations and places, the
queue of what waits for a decision, and what the review page shows beside the delegation.
Each function is a fixed number of queries, whatever the number of delegations."""
from __future__ import annotations

from sqlalchemy import func, select

from ..audit.models import AuditLog
from ..delegations.models import Delegation, DelegationStatus, Entry
from ..extensions import db
from ..games.models import Games, GamesVersion
from ..games.services import unit_info
from .models import ExtensionRequest, Place, PlaceStatus, RequestStatus, Substitution, SubstitutionStatus
from .review import _unit_filter

AUDIT_SHOWN = 200  # the review page's latest changes; the audit page has them all


def delegations_by_status(games) -> dict[str, int]:
    return dict(db.session.execute(select(Delegation.status, func.count()).where(Delegation.games_id == games.id)
                                   .group_by(Delegation.status)).all())


def pending_substitutions_count(games) -> int:
    return db.session.scalar(select(func.count(Substitution.id)).join(Delegation).where(
        Delegation.games_id == games.id, Substitution.status == SubstitutionStatus.PENDING))


def places_count(games, status: PlaceStatus) -> int:
    return db.session.scalar(select(func.count(Place.id)).where(Place.games_id == games.id, Place.status == status))


def delegations_of(games, status: str = "") -> list[Delegation]:
    q = select(Delegation).where(Delegation.games_id == games.id)
    if status:
        q = q.where(Delegation.status == status)
    return db.session.scalars(q.order_by(Delegation.unit_code, Delegation.id)).all()


def _filtered(q, games_slug: str, unit: str):
    if games_slug:
        q = q.join(Games, Delegation.games_id == Games.id).where(Games.slug == games_slug)
    if unit:
        q = q.where(_unit_filter(unit))
    return q


def submitted_delegations(visible, games_slug: str, unit: str, event: str) -> list[Delegation]:
    """The submitted delegations waiting for a decision, oldest first (`visible`: the staff's scope)."""
    q = _filtered(select(Delegation).where(Delegation.status == DelegationStatus.SUBMITTED, visible), games_slug, unit)
    if event:
        q = q.where(Delegation.id.in_(select(Entry.delegation_id).where(Entry.event_code == event)))
    return db.session.scalars(q.order_by(Delegation.submitted_at)).all()


def pending_substitutions(visible, games_slug: str, unit: str, event: str) -> list[Substitution]:
    q = _filtered(select(Substitution).join(Delegation).where(Substitution.status == SubstitutionStatus.PENDING,
                                                               visible), games_slug, unit)
    if event:
        q = q.where(Substitution.event_code == event)
    return db.session.scalars(q.order_by(Substitution.requested_at)).all()


def pending_extensions(visible, games_slug: str, unit: str) -> list[tuple[ExtensionRequest, Delegation]]:
    q = _filtered(select(ExtensionRequest, Delegation).join(Delegation).where(
        ExtensionRequest.status == RequestStatus.PENDING, visible), games_slug, unit)
    return db.session.execute(q.order_by(ExtensionRequest.requested_at)).all()  # one query for all


def extension_request(request_id: int) -> tuple[ExtensionRequest, Delegation] | None:
    req = db.session.get(ExtensionRequest, request_id)
    return (req, db.session.get(Delegation, req.delegation_id)) if req else None


def substitution(sub_id: int) -> Substitution | None:
    return db.session.get(Substitution, sub_id)


def latest_changes(d) -> list[AuditLog]:
    return db.session.scalars(select(AuditLog).where(AuditLog.delegation_id == d.id)
                              .order_by(AuditLog.id.desc()).limit(AUDIT_SHOWN)).all()


def substitutions_of(d) -> list[Substitution]:
    return db.session.scalars(select(Substitution).where(Substitution.delegation_id == d.id)
                              .order_by(Substitution.id.desc())).all()


def unit_name(d, en: bool) -> str:
    """The delegation's unit as its reader names it (a club's own name; a unit's from the list)."""
    if not d.unit_code:
        return d.unit_name
    info = unit_info(d.unit_code)
    return (info.name.en if en else info.name.zh) if info else d.unit_code


def place_of(d) -> tuple[Place | None, int | None]:
    """The delegation's place in the Games and, on the waiting list, its position (from 1)."""
    place = db.session.scalar(select(Place).where(Place.delegation_id == d.id))
    if place is None or place.status != PlaceStatus.WAITLISTED:
        return place, None
    return place, 1 + db.session.scalar(select(func.count(Place.id)).where(
        Place.games_id == place.games_id, Place.status == PlaceStatus.WAITLISTED, Place.seq < place.seq))


def amendments(games_id: int, shown: int = 5) -> list[GamesVersion]:
    """The amendments of the regulation since it was published, newest first (issue 26, 3)."""
    return db.session.scalars(select(GamesVersion).where(
        GamesVersion.games_id == games_id, GamesVersion.number > 1).order_by(GamesVersion.number.desc())
        .limit(shown)).all()
