"""National scale: nmsg-2009 with every unit (42 delegations of 30 to 150 people, plus
delegations of 1,000 and 2,000), imported as the organisers' bulk import would; then
every page timed for each role at 30, 1,000 and 2,000 people with its SQL statement
count and size, and the whole-Games exports against the raw SQL that fetches the same
rows. Prints tables (the README's Speed section shows them).

    .venv/bin/python benchmarks/national_games.py [--db sqlite|postgres] [--units 42] [--big 1000,2000]
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "bench-passphrase-2026"
PAGES = ["", "/declarations", "/people", "/entries", "/roles", "/substitutions", "/statement", "/people/p1",
         "/document.json", "/entry-form.xlsx"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--units", type=int, default=42)
    ap.add_argument("--big", default="1000,2000")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    big = tuple(int(x) for x in a.big.split(",") if x)
    workdir = Path(tempfile.mkdtemp(prefix="national-"))
    from benchmarks.soak import database, drop_database
    url = database(a.db, workdir)
    os.environ["DATABASE_URL"] = url
    try:
        run(url, a.units, big, a.repeat)
    finally:
        drop_database(url)
    return 0


def run(url: str, units: int, big: tuple[int, ...], repeat: int) -> None:
    from sqlalchemy import event, text

    from portal import create_app
    wide = "100000 per minute"  # one client address logs in for every page
    app = create_app({"SECRET_KEY": "bench", "STAFF_TWO_FACTOR": False, "WTF_CSRF_ENABLED": False, "RATE_LIMIT_LOGIN": wide,
                      "RATE_LIMIT_LOGIN_ADDRESS": wide})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        from benchmarks.national import documents, load
        from portal.accounts.services import create_account
        from portal.audit.services import Actor
        from portal.config import DEFAULT_UNIVERSITIES_CSV
        from portal.extensions import db
        from portal.games.services import import_universities, load_units
        load_units()
        import_universities(DEFAULT_UNIVERSITIES_CSV)
        docs = documents(units, (30, 150), big)
        started = time.perf_counter()
        outcomes = []
        per_import = {}
        for document in docs:
            t = time.perf_counter()
            outcomes += load([document], submit_every=1)
            per_import[len(document["people"])] = time.perf_counter() - t
        games_s = time.perf_counter() - started
        by_size = {len(o.delegation.people): o.delegation.id for o in outcomes}
        sizes = [n for n in (min(by_size), *big) if n in by_size]
        for n in sizes:
            create_account(f"bench-{n}", "领队", "leader", Actor("b"), delegation=db.session.get(
                type(outcomes[0].delegation), by_size[n]), password=PASSWORD)
        create_account("bench-org", "组委会", "organiser", Actor("b"), password=PASSWORD,
                       games=[outcomes[0].delegation.games])
        create_account("bench-acc", "财务", "accountant", Actor("b"), password=PASSWORD,
                       games=[outcomes[0].delegation.games])
        engine = db.engine
    people = sum(len(d["people"]) for d in docs)
    print(f"{url.split(':')[0]}: {len(docs)} delegations, {people} people; imported in {games_s:.1f} s "
          f"(one of {max(per_import)} people: {per_import[max(per_import)]:.2f} s)")
    count = {"n": 0}
    event.listen(engine, "before_cursor_execute", lambda *x, **k: count.__setitem__("n", count["n"] + 1))
    app.config["FIXED_NOW"] = dt.datetime(2009, 8, 20, tzinfo=dt.UTC)

    def client_for(username):
        c = app.test_client()
        with app.app_context():
            c.post("/login", data={"username": username, "password": PASSWORD})
        return c

    def timed(client, url):
        times, statements, size = [], 0, 0
        for _ in range(repeat):
            count["n"] = 0
            t = time.perf_counter()
            with app.app_context():
                r = client.get(url)
            body = r.get_data()  # a streamed download is read to its end before the clock stops
            times.append(time.perf_counter() - t)
            statements, size = count["n"], len(body)
            assert r.status_code == 200, (url, r.status_code)
        return statistics.median(times), statements, size

    # Pages are timed as a leader reloads them (the median of `repeat` views; the delegation's
    # document and judgement then come from memory, portal/delegations/judged.py); "after a
    # change" is the first view after another delegation's save (sharing no identity
    # number with this one, its judgement stays valid: issue 27, 1).
    print(f"\n{'leader page':22}" + "".join(f"{f'{n} people':>24}" for n in sizes) + f"{'after a change':>16}")
    print(f"{'':22}" + "".join(f"{'ms':>8}{'SQL':>6}{'KB':>10}" for _ in sizes) + f"{'ms':>16}")
    ratios = {}
    for page in PAGES:
        row = []
        for n in sizes:
            row.append(timed(client_for(f"bench-{n}"), f"/d/{by_size[n]}{page}"))
        with app.app_context():  # another delegation saves
            from portal.delegations.revision import raise_content_rev
            from portal.extensions import db as _db
            raise_content_rev(_db.session, by_size[sizes[0]])
            _db.session.commit()
        biggest = client_for(f"bench-{sizes[-1]}")
        t = time.perf_counter()
        with app.app_context():
            biggest.get(f"/d/{by_size[sizes[-1]]}{page}").get_data()
        changed = time.perf_counter() - t
        ratios[page or "/"] = row[-1][0] / max(row[0][0], 1e-4)
        print(f"{page or '/':22}" + "".join(f"{t * 1000:8.1f}{s:6d}{kb / 1024:10.0f}" for t, s, kb in row)
              + f"{changed * 1000:16.1f}")
    downloads = {p for p in ratios if "." in p}
    print(f"worst ratio {sizes[-1]} : {sizes[0]} people: pages "
          f"{max(v for p, v in ratios.items() if p not in downloads):.1f}x, downloads "
          f"{max(v for p, v in ratios.items() if p in downloads):.1f}x")

    org = client_for("bench-org")
    print(f"\n{'organiser / accountant page':44}{'s':>8}{'SQL':>6}{'KB':>8}")
    for url in ["/org/", "/org/games/nmsg-2009", "/org/queue", f"/org/d/{by_size[sizes[-1]]}", "/org/audit"]:
        t, s, kb = timed(org, url)
        print(f"{url:44}{t:8.2f}{s:6d}{kb / 1024:8.0f}")
    # The Games page right after one delegation's save: its summary alone is judged again.
    with app.app_context():
        from portal.delegations.revision import raise_content_rev
        from portal.extensions import db as _db
        raise_content_rev(_db.session, by_size[sizes[0]])
        _db.session.commit()
    count["n"] = 0
    t = time.perf_counter()
    with app.app_context():
        r = org.get("/org/games/nmsg-2009")
    print(f"{'/org/games/nmsg-2009 after one save':44}{time.perf_counter() - t:8.2f}{count['n']:6d}"
          f"{len(r.get_data()) / 1024:8.0f}")
    acc = client_for("bench-acc")
    for url in ["/money/?games=nmsg-2009", "/money/insurance?games=nmsg-2009", "/money/rooms?games=nmsg-2009"]:
        t, s, kb = timed(acc, url)
        print(f"{url:44}{t:8.2f}{s:6d}{kb / 1024:8.0f}")

    print(f"\n{'whole-Games export':44}{'s':>8}{'raw SQL s':>10}{'ratio':>7}")
    # The same rows as the export: everyone with his delegation and roles (events entered,
    # official and staff roles).
    raw = {"roster": "SELECT p.name, p.gender, p.birth_date, p.id_number, d.unit_code, d.status, e.event_code, "
                     "o.role, s.role FROM person p JOIN delegation d ON d.id = p.delegation_id "
                     "LEFT JOIN entry_member m ON m.person_id = p.id LEFT JOIN entry e ON e.id = m.entry_id "
                     "LEFT JOIN official o ON o.person_id = p.id LEFT JOIN staff_member s ON s.person_id = p.id",
           "go.MT": "SELECT d.unit_code, p.name, e.team, m.board FROM entry_member m JOIN entry e ON e.id = m.entry_id "
                    "JOIN person p ON p.id = m.person_id JOIN delegation d ON d.id = e.delegation_id "
                    "WHERE e.event_code = 'go.MT'"}
    for kind in ("roster", "go.MT"):
        with app.app_context():
            t = time.perf_counter()
            from portal.extensions import db as _db
            _db.session.execute(text(raw[kind])).all()
            sql_s = time.perf_counter() - t
        t, _s, _kb = timed(org, f"/org/games/nmsg-2009/export/{kind}.csv?drafts=1")
        print(f"{kind + '.csv':44}{t:8.2f}{sql_s:10.3f}{t / max(sql_s, 1e-4):7.0f}")


if __name__ == "__main__":
    sys.exit(main())
