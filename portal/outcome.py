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
    code: str | None = None  # a refusal's reason, for programs (Refusal.code, a RefusalCode)
    field: str | None = None  # the field a refusal concerns, where a form has it
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


class RefusalCode(StrEnum):
    """Why a service said no, for programs (the API's `code`): the one list of them."""
    STALE = "stale"        # changed meanwhile; details["key"] names the part two people changed at once
    INVALID = "invalid"    # malformed input: nothing could be read
    RULES = "rules"        # errors in the judgement (the violations say which)
    DEADLINE = "deadline"  # the stage is closed
    STATE = "state"        # not in a state that allows it: withdrawn, approved, already decided
    INPUT = "input"        # a value missing or wrong (`field` names it where a form has it)


class Refusal(Exception):
    """A service's "no", with a code for programs (RefusalCode), the field it concerns where
    there is one, and the reason for people: a message in Chinese and English, or the rule
    violations that stand in the way (or both)."""

    STALE, INVALID = RefusalCode.STALE, RefusalCode.INVALID

    def __init__(self, code: str, zh: str | None = None, en: str | None = None, *, field: str | None = None,
                 violations: list[Violation] | None = None, delegation: Delegation | None = None,
                 details: dict | None = None):
        super().__init__(en or zh or code)
        self.code = RefusalCode(code)  # an undocumented code is a bug, found where it is raised
        self.field = field
        self.message = (zh, en or zh) if zh else None
        self.violations = list(violations or [])
        self.delegation = delegation
        self.details = details

    @classmethod
    def of_field(cls, field: str, zh: str, en: str | None = None, **kw) -> Refusal:
        """A value of one field missing or wrong (code INPUT), the field named for the form."""
        return cls(RefusalCode.INPUT, zh, en, field=field, **kw)

    @property
    def status(self) -> Status:
        if self.code == self.STALE:
            return Status.STALE
        if self.code == self.INVALID:
            return Status.INVALID
        return Status.REFUSED

    def outcome(self) -> Outcome:
        return Outcome(False, self.violations, status=self.status, message=self.message,
                       delegation=self.delegation, code=str(self.code), details=self.details, field=self.field)
