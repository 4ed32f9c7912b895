"""The traps a committee can set alone (issue 37, 7): a rule that refuses the sample person
built to satisfy it refuses everyone like him, though every screen reads right."""
from __future__ import annotations

from ..clock import now
from ..delegations.services import judge
from ..games.models import Games
from ..rules import parse_document
from ..rules.readback import read_back


def rule_traps(games: Games, definition, sample: dict) -> list[dict]:
    """The rules that refuse a person the sample was built to satisfy them with: such a
    rule refuses everyone like him (a value typed in words, a wrong list), the trap of a
    setting that no screen shows."""
    doc, problems = parse_document(sample)
    if doc is None or problems:
        return []
    sentences = [x for x in read_back(definition) if x.section == "rules"]
    out, seen = [], set()
    for v in judge(games, doc, now(), stored=False, held_numbers={}):
        index = v.extra.get("rule")
        if not v.is_error or index is None or index in seen or not v.people:
            continue
        if getattr(definition.rules[index], "per", None) == "unit" and v.code == "QUOTA_EXCEEDED":
            continue  # a unit's total: the sample's size is the try page's, not a person built for the rule
        seen.add(index)
        line = sentences[index] if index < len(sentences) else None
        out.append({"number": index + 1, "clause": v.extra.get("clause"), "violation": v,
                    "sentence": (line.zh, line.en) if line else None, "people": len(v.people)})
    return out
