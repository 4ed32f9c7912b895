"""A real pairing program reads the portal's export (issue 39, 12): bbpPairings (FIDE Dutch
system, Apache 2.0, its source vendored in tests/vendor/bbpPairings and built here) pairs
round 1 from the TRF-16 the players page gives, round 2 from the same file with round 1's
results, and the final file comes back through the results import."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from builders import csrf_token, logged_in
from test_results_entry import shaanxi  # noqa: F401  (the fixture: six entrants of shaanxi-mind-2025)

SOURCE = Path(__file__).parent / "vendor" / "bbpPairings"


@pytest.fixture(scope="session")
def bbp(tmp_path_factory) -> Path:
    if not (shutil.which("g++") and shutil.which("make")):
        if os.environ.get("CI"):
            pytest.fail("g++ and make build the pairing program in CI")
        pytest.skip("no C++ compiler to build bbpPairings")
    build = tmp_path_factory.mktemp("bbp") / "src"
    shutil.copytree(SOURCE, build)
    made = subprocess.run(["make", "-j2", "optimize=no"], cwd=build, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-3000:]
    return build / "bbpPairings.exe"


def _pair(bbp: Path, trf: str, tmp_path: Path, name: str) -> list[tuple[int, int]]:
    (tmp_path / f"{name}.trf").write_text(trf, encoding="utf-8")
    out = subprocess.run([str(bbp), "--dutch", str(tmp_path / f"{name}.trf"), "-p", str(tmp_path / f"{name}.txt")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = (tmp_path / f"{name}.txt").read_text().split()
    pairs = [(int(lines[i]), int(lines[i + 1])) for i in range(1, len(lines), 2)]
    assert int(lines[0]) == len(pairs)
    return pairs


def _with_round(trf: str, pairs: list[tuple[int, int]], points: dict[int, float]) -> str:
    """The file after a round: each 001 line's result (opponent, colour, 1 or 0; white won)."""
    result = {}
    for white, black in pairs:
        result[white] = f"{black:>4} w 1"
        result[black] = f"{white:>4} b 0"
        points[white] += 1
    out = []
    for line in trf.splitlines():
        if line.startswith("001"):  # columns of characters, as the export writes them
            number = int(line[4:8])
            line = line.ljust(91)
            line = line[:80] + f"{points[number]:4.1f}" + line[84:]
            line = line.ljust(91) + result[number] + "  "  # ten characters a round, from column 92
        out.append(line)
    return "\n".join(out) + "\n"


def test_bbp_pairings_pairs_from_the_export_and_its_file_comes_back(app, shaanxi, db, bbp, tmp_path):  # noqa: F811
    from portal.results.models import EventResult
    client = logged_in(app, "sx-org", "password-123")
    url = "/org/games/shaanxi-mind-2025/results/gomoku.OPEN"
    with app.app_context():
        trf = client.get(url + "/players.trf").get_data(as_text=True)
    first = _pair(bbp, trf, tmp_path, "round1")
    assert sorted(n for pair in first for n in pair) == [1, 2, 3, 4, 5, 6]
    points = dict.fromkeys(range(1, 7), 0.0)
    after_one = _with_round(trf, first, points)
    second = _pair(bbp, after_one, tmp_path, "round2")
    assert sorted(n for pair in second for n in pair) == [1, 2, 3, 4, 5, 6]
    assert not {frozenset(p) for p in second} & {frozenset(p) for p in first}  # no rematch
    # The final file, ranks beside the points, through the results import.
    after_two = _with_round(after_one, second, points)
    ranked = sorted(points, key=lambda n: (-points[n], n))
    final = []
    for line in after_two.splitlines():
        if line.startswith("001"):
            number = int(line[4:8])
            line = line[:85] + f"{ranked.index(number) + 1:>4}" + line[89:]
        final.append(line)
    with app.app_context():
        r = client.post(url, data={"csrf_token": csrf_token(client.get(url).get_data(as_text=True)),
                                   "file": (io.BytesIO("\n".join(final).encode()), "final.trf")},
                        content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    db.session.rollback()
    assert db.session.query(EventResult).filter_by(event_code="gomoku.OPEN").count() == 6
