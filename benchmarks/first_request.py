"""Issue 13's crash, reproduced: each heavy page served as the FIRST request of a fresh
process, on a national-size Games, with CPython's debug allocator (PYTHONMALLOC=debug,
which fills freed memory so that a use-after-free crashes at once instead of now and then).

That is what a gunicorn worker does after every start and every max-requests recycle, and
what the soak runs never did: they logged in first, so the heavy page was never a worker's
first. The crash needs no gunicorn, no fork and no C extension of a library: it happened in
one plain process, with SQLAlchemy's Cython modules removed, psycopg in pure Python and
markupsafe's speedups removed, and went away with the garbage collector off. Same code and
library set on CPython 3.12.1 and 3.13.0: no crash. It is CPython 3.11's (3.11.7 here);
see the README's production section.

    # this checkout, on the interpreter of its venv
    .venv/bin/python benchmarks/first_request.py
    # the code the issue was filed against, on any interpreter
    git worktree add /tmp/at-issue-13 016aa35
    .venv/bin/python benchmarks/first_request.py --code /tmp/at-issue-13 --python /path/to/python3.11

Prints one line per page (fresh processes, how many crashed); exit 1 if any did.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "first-request-passphrase-1"

# Runs inside the code under test (cwd = that checkout): loads the Games with that code's
# own services, creates the two accounts and writes their session cookies.
LOADER = r'''
import datetime as dt, json, os, re, sys
sys.path.insert(0, os.getcwd())
from portal import create_app
app = create_app({"SECRET_KEY": os.environ["SECRET_KEY"]})
with app.app_context():
    from flask_migrate import upgrade
    upgrade()
    from portal.accounts.services import create_account
    from portal.audit.services import Actor
    from portal.config import universities_csv
    from portal.games.services import find_or_load_games, import_universities, load_units
    from portal.delegations.saving import new_delegation, save
    from portal.workflow.services import import_document
    load_units(); import_universities(universities_csv())
    games = find_or_load_games("nmsg-2009")
    when = dt.datetime(2009, 8, 20, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    biggest = None
    for i, doc in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
        actor = Actor("first-request")
        outcome = (import_document(games, doc, when, actor) if i % 2 == 0
                   else save(new_delegation(games, doc["unit"]), doc, actor, when))
        if biggest is None or len(outcome.delegation.people) > len(biggest.people):
            biggest = outcome.delegation
    create_account("fr-org", "组委会", "organiser", Actor("x"), password=sys.argv[2], games=[games])
    create_account("fr-leader", "领队", "leader", Actor("x"), delegation=biggest, password=sys.argv[2])
    big_id = biggest.id
cookies = {}
for user in ("fr-org", "fr-leader"):
    c = app.test_client()
    page = c.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    c.post("/login", data={"csrf_token": token, "username": user, "password": sys.argv[2]})
    cookies[user] = c.get_cookie("session").value
print(json.dumps({"big_id": big_id, "cookies": cookies}))
'''

# One fresh process, one request: the page is the first thing this process serves.
FIRST = r'''
import os, sys
sys.path.insert(0, os.getcwd())
from app import app
c = app.test_client()
c.set_cookie("session", sys.argv[1])
r = c.get(sys.argv[2])
print(r.status_code)
'''


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code", default=str(ROOT), help="checkout whose app is run (default: this one)")
    ap.add_argument("--python", default=sys.executable, help="interpreter to run it with")
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--units", type=int, default=43)
    ap.add_argument("--big", default="1000,2000")
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per page")
    ap.add_argument("--no-debug-malloc", action="store_true")
    args = ap.parse_args()

    from benchmarks.national import documents
    from benchmarks.soak import database, drop_database
    workdir = Path(tempfile.mkdtemp(prefix="first-request-"))
    url = database(args.db, workdir)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "first-request", "STAFF_TWO_FACTOR": "0", "GC_FREEZE": "0"}
    env.pop("PYTHONPATH", None)
    try:
        docs = documents(args.units, (30, 150), tuple(int(n) for n in args.big.split(",") if n))
        (workdir / "docs.json").write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
        loaded = subprocess.run([args.python, "-c", LOADER, str(workdir / "docs.json"), PASSWORD],
                                cwd=args.code, env=env, capture_output=True, text=True, timeout=3600)
        if loaded.returncode != 0:
            print(loaded.stderr[-3000:], file=sys.stderr)
            return 2
        facts = json.loads(loaded.stdout.strip().splitlines()[-1])
        big = facts["big_id"]
        pages = [("fr-org", "/org/games/nmsg-2009"), ("fr-org", "/org/queue"), ("fr-org", f"/org/d/{big}"),
                 ("fr-leader", f"/d/{big}"), ("fr-leader", f"/d/{big}/entries"), ("fr-leader", f"/d/{big}/roles"),
                 ("fr-leader", f"/d/{big}/people"), ("fr-leader", f"/d/{big}/statement"),
                 ("fr-leader", f"/d/{big}/document.json")]
        version = subprocess.run([args.python, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True).stdout.strip()
        run_env = dict(env)
        if not args.no_debug_malloc:
            run_env["PYTHONMALLOC"] = "debug"
        print(f"code {args.code}, Python {version}, {args.db}, {len(docs)} delegations, "
              f"{sum(len(d['people']) for d in docs)} people; PYTHONMALLOC={run_env.get('PYTHONMALLOC', '')}")
        print(f"{'page (first request of a fresh process)':48} {'runs':>4} {'crashed':>7}  status")
        crashed_any = False
        for user, path in pages:
            crashes, statuses = 0, set()
            for _ in range(args.runs):
                r = subprocess.run([args.python, "-c", FIRST, facts["cookies"][user], path], cwd=args.code,
                                   env=run_env, capture_output=True, text=True, timeout=600)
                if r.returncode < 0 or r.returncode == 139 or "Fatal Python error" in r.stderr:
                    crashes += 1
                else:
                    statuses.add((r.stdout.strip().splitlines() or ["?"])[-1])
            crashed_any |= crashes > 0
            print(f"{path:48} {args.runs:4d} {crashes:7d}  {','.join(sorted(statuses))}")
        return 1 if crashed_any else 0
    finally:
        drop_database(url)


if __name__ == "__main__":
    sys.exit(main())
