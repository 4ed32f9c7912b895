"""The shared file store (issue 23, 1): files in chunks both ways, replaced by key, purged by age."""
import datetime as dt


def test_a_file_goes_in_and_comes_out_a_chunk_at_a_time(app, db):
    from portal import file_store
    pieces = [bytes([i]) * 700_000 for i in range(4)]  # 2.8 MB, arriving in pieces
    row = file_store.put("jobs/big.bin", iter(pieces), "application/octet-stream")
    db.session.commit()
    assert row.size == 2_800_000
    out = list(file_store.chunks("jobs/big.bin"))
    assert [len(c) for c in out] == [file_store.CHUNK, file_store.CHUNK, 2_800_000 - 2 * file_store.CHUNK]
    assert b"".join(out) == b"".join(pieces) and file_store.read("jobs/big.bin") == b"".join(pieces)
    file_store.put("jobs/big.bin", b"small")  # replaced, not added
    db.session.commit()
    assert file_store.read("jobs/big.bin") == b"small" and file_store.find("jobs/big.bin").size == 5
    assert file_store.read("jobs/missing") is None and list(file_store.chunks("jobs/missing")) == []


def test_many_files_come_out_in_one_query_per_batch(app, db):
    from portal import file_store
    big = bytes(range(256)) * (file_store.CHUNK // 128)  # two chunks
    file_store.put("docs/big", big)
    for i in range(5):
        file_store.put(f"docs/small-{i}", f"small {i}".encode())
    db.session.commit()
    keys = ["docs/big", "docs/missing"] + [f"docs/small-{i}" for i in range(5)] + ["docs/big"]
    got = file_store.read_many(keys, batch=3)
    assert got == {"docs/big": big, **{f"docs/small-{i}": f"small {i}".encode() for i in range(5)}}
    assert file_store.read_many([]) == {}


def test_purge_takes_only_what_is_old_and_under_the_prefix(app, db):
    from portal import file_store
    old = dt.datetime.now(dt.UTC) - dt.timedelta(days=2)
    file_store.put("pending/a", b"1").created_at = old
    file_store.put("pending/b", b"2")
    file_store.put("jobs_other/c", b"3").created_at = old
    db.session.commit()
    assert file_store.purge("pending/", dt.datetime.now(dt.UTC) - dt.timedelta(days=1)) == 1
    db.session.commit()
    assert not file_store.exists("pending/a") and file_store.exists("pending/b") and file_store.exists("jobs_other/c")


def test_the_store_benchmark_runs_at_ci_size(tmp_path):
    """benchmarks/file_store.py at a size CI can afford: it runs, and a file in the store
    never needs the whole file in memory (the peak stays near two chunks)."""
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "INSTANCE_PATH")}
    out = subprocess.run([sys.executable, "benchmarks/file_store.py", "--sizes", "6"], cwd=root, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    peaks = {m.group(1): float(m.group(2)) for m in re.finditer(r"MB  (store: \w+(?: out)?)\s+[\d.]+ ms\s+peak\s+([\d.]+) MB",
                                                                  out.stdout)}
    assert set(peaks) == {"store: write", "store: stream out"} and peaks["store: stream out"] <= 3
