"""Files through the shared store (issue 23) beside plain files on a node's disk: a 5 MB ID
copy and a job output the size of a 2,000-person workbook, written and read back, with the
time and the peak Python memory of each (tracemalloc; the store streams 1 MB chunks, so its
peak stays near one chunk whatever the file's size).

    .venv/bin/python benchmarks/file_store.py                     # SQLite in a temporary folder
    .venv/bin/python benchmarks/file_store.py --database postgresql+psycopg://postgres@127.0.0.1:5432/bench

Prints one line per file and way; `--sizes` takes sizes in MB (default 5 and 12).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _measure(fn):
    tracemalloc.start()
    started = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - started
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return elapsed, peak


def _one_size(size_mb: float, folder: Path, file_store, write_transaction) -> None:
    data = os.urandom(int(size_mb * 1024 * 1024))
    key, path = f"bench/{size_mb}.bin", folder / f"{size_mb}.bin"

    def put():
        with write_transaction():
            file_store.put(key, data)

    def stream():
        for _chunk in file_store.chunks(key):
            pass

    def write_file():
        path.write_bytes(data)

    def read_file():
        with path.open("rb") as f:
            while f.read(1024 * 1024):
                pass
    for label, fn in (("store: write", put), ("store: stream out", stream),
                      ("disk: write", write_file), ("disk: read", read_file)):
        elapsed, peak = _measure(fn)
        print(f"{size_mb:>5.1f} MB  {label:<18} {elapsed * 1000:8.1f} ms   peak {peak / 1024 / 1024:6.1f} MB")
    with write_transaction():
        file_store.delete(key)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default=None, help="a database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--sizes", type=float, nargs="+", default=[5.0, 12.0], help="file sizes in MB")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-store-")
    os.environ["DATABASE_URL"] = args.database or f"sqlite:///{folder}/bench.db"
    os.environ.setdefault("SECRET_KEY", "bench")
    os.environ["INSTANCE_PATH"] = folder
    from flask_migrate import upgrade

    from portal import create_app, file_store
    from portal.db_tx import write_transaction
    from portal.extensions import db
    app = create_app({"TESTING": True})
    print(f"database: {os.environ['DATABASE_URL'].split(':')[0]}")
    with app.app_context():
        upgrade()
        for size_mb in args.sizes:
            _one_size(size_mb, Path(folder), file_store, write_transaction)
        db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
