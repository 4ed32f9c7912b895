"""What a service returns, and the one way a service says no.

A service that refuses raises `Refusal`: its transaction is rolled back by the exception
(`db_tx.transactional`), never by reading a status string, and the caller receives the
refusal as an `Outcome` whose `ok` is False. Below the areas, so that neither workflow nor
money imports the other's services for it (pretix's OrderError plays the same part)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from .rules.violations import Violation, report

if TYPE_CHECKING:
    from .delegations.models import Delegation


class Status(StrEnum):
    """Every state an outcome reports. Those a delegation can be in are the same words as
    `DelegationStatus`; the three refusals say whether the input, the moment or the rules
    were the reason."""
    SAVED = "saved"
    SUBMITTED = "submitted"
    WAITLISTED = "waitlisted"
    APPROVED = "approved"
    RETURNED = "returned"
    WITHDRAWN = "withdrawn"
    EXTENDED = "extended"
    REQUESTED = "requested"
    DECLINED = "declined"
    PENDING = "pending"
    REJECTED = "rejected"
    ALLOCATED = "allocated"
    REFUSED = "refused"    # the rules or the stage say no
    INVALID = "invalid"    # the input is malformed: nothing could be stored
    STALE = "stale"        # someone else saved first: the page must be reloaded


@dataclass
class Outcome:
    ok: bool
    violations: list[Violation] = field(default_factory=list)
    status: Status | None = None
    message: tuple[str, str] | None = None  # (zh, en) for refusals that are not rule codes
    delegation: Delegation | None = None
    code: str | None = None  # a refusal's reason, for programs (Refusal.code)
    details: dict | None = None  # what a page needs to show the refusal (a conflict's two sides)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.is_error]

    def report(self) -> dict:
        d = self.delegation
        unit = None
        if d is not None:
            if d.unit_code:
                unit = d.unit_code
            elif d.unit_kind != "individual":
                unit = {"name": d.unit_name, "kind": d.unit_kind}
        rep = report(d.games.slug if d is not None else None, unit, self.violations)
        rep["status"] = str(self.status) if self.status else None
        if self.message:
            rep["message"] = {"zh": self.message[0], "en": self.message[1]}
        return rep


class Refusal(Exception):
    """A service's "no", with a code for programs and the reason for people: a message in
    Chinese and English, or the rule violations that stand in the way (or both).

    Codes used: "stale" (changed meanwhile; details["key"] names the part two people
    changed at once, when that is why), "invalid" (malformed input), "rules" (errors
    in the judgement), "deadline" (the stage is closed), "state" (not in a state that
    allows it: withdrawn, approved, already decided), "input" (a field missing or wrong)."""

    STALE, INVALID = "stale", "invalid"

    def __init__(self, code: str, zh: str | None = None, en: str | None = None, *,
                 violations: list[Violation] | None = None, delegation: Delegation | None = None,
                 details: dict | None = None):
        super().__init__(en or zh or code)
        self.code = code
        self.message = (zh, en or zh) if zh else None
        self.violations = list(violations or [])
        self.delegation = delegation
        self.details = details

    @property
    def status(self) -> Status:
        if self.code == self.STALE:
            return Status.STALE
        if self.code == self.INVALID:
            return Status.INVALID
        return Status.REFUSED

    def outcome(self) -> Outcome:
        return Outcome(False, self.violations, status=self.status, message=self.message,
                       delegation=self.delegation, code=self.code, details=self.details)
