"""The address a delegation's mail goes to when no leader account has one (a delegation
imported by the organisers, a unit whose leader has not accepted the invitation yet):
set by the organisers, audited, read by notify.recipients_of."""
from __future__ import annotations

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional
from ..delegations.models import Delegation
from ..header_text import address_problem
from ..outcome import Outcome, Refusal


@transactional
def set_contact_email(delegation: Delegation, email: str | None, actor: Actor) -> Outcome:
    email = (email or "").strip() or None
    if problem := address_problem(email):
        raise Refusal.of_field("email", *problem, delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    if email != d.contact_email:
        record(actor, "delegation.contact_email", "delegation", d.unit_name or d.unit_code or str(d.id), delegation=d,
               before={"contact_email": d.contact_email}, after={"contact_email": email})
        d.contact_email = email
    return Outcome(ok=True)
