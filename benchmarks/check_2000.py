"""How long the rules engine takes on a large provincial delegation (2,000 athletes).

Run: .venv/bin/python benchmarks/check_2000.py
Prints parse and check times (median of several runs); no database involved.
"""
from __future__ import annotations

import datetime as dt
import statistics
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from builders import doc, individual, person, team

from portal.config import FIXTURES
from portal.rules import GamesDefinition, check_delegation, parse_document
from portal.rules.definition import UnitInfo


def build(n_athletes: int) -> dict:
    """nmsg-2009, all six sports: individual events and teams, officials and staff."""
    definition = yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text(encoding="utf-8"))
    events = definition["events"]
    people, entries = [], []
    by_event: dict[str, list[str]] = {}
    for i in range(n_athletes):
        e = events[i % len(events)]
        gender = e["gender"] if e["gender"] in "MF" else ("M" if i % 2 else "F")
        ref = f"a{i}"
        people.append(person(ref, gender, f"{1960 + i % 40}-0{1 + i % 9}-1{i % 9}", year=2009,
                             docs=("insurance_proof",)))
        by_event.setdefault(e["code"], []).append(ref)
    for e in events:
        refs = by_event.get(e["code"], [])
        if e["kind"] == "team":
            for k in range(0, len(refs), 4):
                entries.append(team(e["code"], *[(r, j + 1) for j, r in enumerate(refs[k:k + 4])], label=str(k)))
        else:
            entries.append(individual(e["code"], *refs))
    people += [person(f"s{i}", "M", "1970-01-01", docs=("insurance_proof",)) for i in range(250)]
    staff = [{"person": "s0", "role": "head"}, {"person": "s1", "role": "deputy_head"}] + \
            [{"person": f"s{i}", "role": "staff"} for i in range(2, 250)]
    return doc("nmsg-2009", unit="sichuan", people=people, entries=entries, staff=staff,
               declarations=[{"event": e["code"], "count": 1} for e in events])


def main() -> None:
    definition = GamesDefinition.model_validate(
        yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text(encoding="utf-8")))
    units = yaml.safe_load((FIXTURES / "units.yaml").read_text(encoding="utf-8"))["units"]
    unit = UnitInfo.model_validate(next(u for u in units if u["code"] == "sichuan"))
    document = build(2000)
    at = dt.datetime(2009, 8, 1, tzinfo=dt.UTC)
    parse_times, check_times, found = [], [], []
    for _ in range(7):
        t0 = time.perf_counter()
        delegation, problems = parse_document(document)
        t1 = time.perf_counter()
        found = check_delegation(definition, delegation, at=at, unit=unit)
        t2 = time.perf_counter()
        parse_times.append(t1 - t0)
        check_times.append(t2 - t1)
    print(f"delegation: {len(document['people'])} people, 2000 athletes, {len(document['entries'])} entries")
    print(f"parse: {statistics.median(parse_times) * 1000:.1f} ms (median of 7)")
    print(f"check: {statistics.median(check_times) * 1000:.1f} ms (median of 7), {len(found)} violations")
    print(f"total: {(statistics.median(parse_times) + statistics.median(check_times)) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
