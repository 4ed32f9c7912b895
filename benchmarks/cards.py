"""A whole Games' cards (issue 27, 3): nmsg-2009 at national size, every delegation
approved, one person in three with his own photo (a distinct JPEG each, as phones take
them), all cards in one A4 PDF as the background job makes it. Prints the time to read the
cards and to draw them, the pages and the size, with the machine's load average.

    .venv/bin/python benchmarks/cards.py [--db sqlite|postgres] [--units 42] [--photos 3] [--out cards.pdf]
"""
from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def photo(seed: int) -> bytes:
    from PIL import Image
    rnd = random.Random(seed)
    image = Image.new("RGB", (300, 400), (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
    for _ in range(40):  # something for the encoder to keep
        x, y = rnd.randrange(280), rnd.randrange(380)
        image.paste((rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)), (x, y, x + 20, y + 20))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--units", type=int, default=42)
    ap.add_argument("--photos", type=int, default=3, help="one person in this many has a photo (0: none)")
    ap.add_argument("--big", default="1000,2000")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--out", help="write the PDF here, to look at")
    a = ap.parse_args()
    from benchmarks.soak import on_scratch_database
    return on_scratch_database(a.db, "cards-", lambda app: run(a))


def run(a) -> int:
    """Inside on_scratch_database's app context."""
    from benchmarks.national import documents, load
    from portal.audit.services import Actor
    from portal.db_tx import write_transaction
    from portal.delegations.files import UploadedFile, store
    from portal.extensions import db
    from portal.venue.cards import cards_for, cards_pdf
    from portal.workflow.services import approve
    outcomes = load(documents(a.units, (30, 150), tuple(int(x) for x in a.big.split(",") if x)), submit_every=1)
    people = 0
    for i, o in enumerate(outcomes):
        d = o.delegation
        assert approve(d, Actor("组委会"), dt.datetime(2009, 8, 25, tzinfo=dt.UTC)).ok
        with write_transaction():
            for j, p in enumerate(d.people):
                people += 1
                if a.photos and j % a.photos == 0:
                    data = photo(i * 10_000 + j)
                    db.session.add(UploadedFile(delegation_id=d.id, person_ref=p.ref, kind="photo", filename="p.jpg",
                                                content_type="image/jpeg", size=len(data),
                                                sha256=store(d.id, data, "jpg"), uploaded_by="b"))
    games = outcomes[0].delegation.games
    load_avg = os.getloadavg()[0]
    t0 = time.perf_counter()
    photos_read: dict = {}  # as the job does: each photo read once
    cards = cards_for(games, photos_read=photos_read)
    t1 = time.perf_counter()
    if a.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        pdf = profile.runcall(cards_pdf, games, cards, "a4", photos_read)
        pstats.Stats(profile).sort_stats("tottime").print_stats(18)
    else:
        pdf = cards_pdf(games, cards, "a4", photos_read)
    t2 = time.perf_counter()
    if a.out:
        Path(a.out).write_bytes(pdf)
    print(f"{len(cards)} cards of {len(outcomes)} delegations ({people} people), one in {a.photos or '∞'} with a "
          f"photo, {a.db}; load average {load_avg:.2f}")
    print(f"  read {t1 - t0:.1f} s, drawn {t2 - t1:.1f} s, total {t2 - t0:.1f} s; "
          f"{-(-len(cards) // 8)} pages, {len(pdf) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
