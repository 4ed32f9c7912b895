"""What a workflow or money action returns: done, or refused with the violations or a
message. Below both areas, so that neither imports the other's services for it."""
from __future__ import annotations

from dataclasses import dataclass, field

from .delegations.models import Delegation
from .rules.violations import Violation, report


@dataclass
class Outcome:
    ok: bool
    violations: list[Violation] = field(default_factory=list)
    status: str | None = None
    message: tuple[str, str] | None = None  # (zh, en) for refusals that are not rule codes
    delegation: Delegation | None = None

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
        rep["status"] = self.status
        if self.message:
            rep["message"] = {"zh": self.message[0], "en": self.message[1]}
        return rep


def refused(zh: str, en: str, delegation=None) -> Outcome:
    return Outcome(False, message=(zh, en), status="refused", delegation=delegation)
