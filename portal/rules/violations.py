"""Violations are data: a code from shared/spec/rules.md, a severity, what it concerns, and
a message in Chinese and English. Checks return them; nothing raises."""
from __future__ import annotations

from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"

# The public contract (rules.md): never rename or reuse a code.
SEVERITY = {
    "SCHEMA_INVALID": ERROR,
    "UNIT_NOT_ELIGIBLE": ERROR,
    "EVENT_UNKNOWN": ERROR,
    "EVENT_NOT_DECLARED": ERROR,
    "ID_NUMBER_REQUIRED": ERROR,
    "ID_NUMBER_INVALID": ERROR,
    "ID_MISMATCH": ERROR,
    "ID_TYPE_NOT_ACCEPTED": ERROR,
    "DUPLICATE_PERSON": ERROR,
    "REGISTRATION_MISMATCH": ERROR,
    "GENDER_NOT_ALLOWED": ERROR,
    "AGE_BRACKET": ERROR,
    "QUOTA_EXCEEDED": ERROR,
    "TEAM_LIMIT": ERROR,
    "TEAM_COMPOSITION": ERROR,
    "BOARD_ORDER": ERROR,
    "DOUBLE_ENTRY": ERROR,
    "SCHEDULE_CONFLICT": ERROR,
    "UNIVERSITY_INELIGIBLE": ERROR,
    "DOCUMENT_MISSING": ERROR,  # warning when the document is due at check-in
    "OFFICIALS_LIMIT": ERROR,
    "STAFF_EXCESS": WARNING,
    "DEADLINE_PASSED": ERROR,
    "CHANGE_WINDOW_CLOSED": ERROR,
    "CAPACITY_FULL": ERROR,
    "SANCTIONED": ERROR,
    # Added for youth-gomoku-2015 十三(一): more companions than advised per athlete.
    "COMPANION_EXCESS": WARNING,
    "DECLARATION_EXCEEDED": ERROR,
    "DECLARATION_UNFILLED": WARNING,
    "RATING_LIST_REQUIRED": ERROR,
    "ROOM_REQUIRED": WARNING,
    "STAY_OUTSIDE_WINDOW": ERROR,
    "TEAM_SIZE": ERROR,
    "ENTRY_MINIMUM": ERROR,
    "ENTRY_REQUIRES": ERROR,
    "COMPANION_REQUIRED": ERROR,
    "GRADE_NOT_ELIGIBLE": ERROR,
    "NOT_QUALIFIED": ERROR,
    "RESIDENCE_NOT_ELIGIBLE": ERROR,
    "OFFICIAL_REQUIRED": ERROR,
    "ENTRY_NOT_OPEN": ERROR,
}


@dataclass(frozen=True)
class Violation:
    code: str
    zh: str
    en: str
    event: str | None = None
    team: str | None = None
    people: tuple[str, ...] = ()
    severity: str = ""
    # For SCHEMA_INVALID: the field path inside the document, e.g. people[2].birth_date.
    path: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if self.code not in SEVERITY:
            raise ValueError(f"unknown violation code {self.code}")
        if not self.severity:
            object.__setattr__(self, "severity", SEVERITY[self.code])

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def message(self, lang: str = "zh") -> str:
        return self.en if lang == "en" else self.zh

    def as_dict(self) -> dict:
        out = {
            "code": self.code,
            "severity": self.severity,
            "event": self.event,
            "team": self.team,
            "people": list(self.people),
            "message": {"zh": self.zh, "en": self.en},
        }
        if self.path is not None:
            out["path"] = self.path
        if self.extra.get("clause"):  # the regulation's clause the rule enforces (issue 36, 7)
            out["clause"] = self.extra["clause"]
        return out


def schema_error(path: str, zh: str, en: str) -> Violation:
    where = path or "(document)"
    return Violation("SCHEMA_INVALID", f"{where}：{zh}", f"{where}: {en}", path=path)


def report(games: str | None, unit, violations: list[Violation]) -> dict:
    errors = sum(1 for v in violations if v.is_error)
    return {
        "games": games,
        "unit": unit,
        "ok": errors == 0,
        "errors": errors,
        "warnings": len(violations) - errors,
        "violations": [v.as_dict() for v in violations],
    }


def report_text(rep: dict, lang: str = "zh") -> str:
    zh = lang != "en"
    unit = rep.get("unit")
    if isinstance(unit, dict):
        unit = unit.get("name")
    lines = []
    head = (f"{rep.get('games')} · {unit or '个人报名'}" if zh
            else f"{rep.get('games')} · {unit or 'individual entry'}")
    lines.append(head)
    if rep["ok"] and not rep["violations"]:
        lines.append("没有发现问题，可以提交。" if zh else "No problems found; ready to submit.")
    else:
        lines.append(
            f"错误 {rep['errors']} 项，提醒 {rep['warnings']} 项。" if zh
            else f"{rep['errors']} error(s), {rep['warnings']} warning(s)."
        )
    for v in rep["violations"]:
        mark = ("错误" if zh else "ERROR") if v["severity"] == ERROR else ("提醒" if zh else "WARNING")
        where = " ".join(x for x in (v.get("event"), v.get("team") and f"[{v['team']}]") if x)
        where = f" {where}" if where else ""
        clause = v.get("clause")
        clause = (f"（规程 {clause}）" if zh else f" (regulation {clause})") if clause else ""
        lines.append(f"- {mark} {v['code']}{where}: {v['message']['zh' if zh else 'en']}{clause}")
    return "\n".join(lines) + "\n"


def dedupe(violations: list[Violation]) -> list[Violation]:
    """One SCHEMA_INVALID per field path: a bad value is not also reported as missing."""
    seen, out = set(), []
    for v in violations:
        if v.code == "SCHEMA_INVALID" and v.path is not None:
            if v.path in seen:
                continue
            seen.add(v.path)
        out.append(v)
    return out


def grouped(violations: list[Violation]) -> list[tuple[str, str, list[Violation]]]:
    """(code, severity, violations) per rule, errors first, each group in the order found:
    a page shows a group's count and its first few, not hundreds of lines."""
    groups: dict[tuple[str, str], list[Violation]] = {}
    for v in violations:
        groups.setdefault((v.code, v.severity), []).append(v)
    return sorted(((code, severity, items) for (code, severity), items in groups.items()),
                  key=lambda g: (g[1] != ERROR, -len(g[2])))
