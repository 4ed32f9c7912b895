"""A worker collects each request's cyclic garbage once the request is over, not in its
middle (portal/gc_tuning.py): with the automatic collector off, a cycle a request made is
gone when its answer is; the young threshold is raised once a request is served (not in
the jobs worker or the CLI); and every FULL_EVERY requests the collection is a full one."""
from __future__ import annotations

import gc
import weakref

import pytest

from portal import gc_tuning


@pytest.fixture
def tuned_app(app, tmp_path, monkeypatch):
    from portal import create_app
    from portal.extensions import db
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "gc-node"))
    threshold = gc.get_threshold()
    other = create_app({"TESTING": True, "SECRET_KEY": "gc", "GC_FREEZE": True,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    try:
        yield other
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()  # the first request froze this test process's heap
        with other.app_context():
            db.engine.dispose()


class _Node:
    pass


def test_a_request_leaves_no_cycle_behind_and_the_threshold_is_raised(tuned_app):
    made = []

    @tuned_app.before_request
    def make_a_cycle():
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        made.append(weakref.ref(a))

    client = tuned_app.test_client()
    assert gc.get_threshold()[0] != gc_tuning.YOUNG_THRESHOLD  # an app that serves nothing (jobs, CLI) keeps it
    gc.disable()  # no automatic collection can take the cycles: only the request's own
    try:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
            assert made[-1]() is None, "the request's cycle outlived its answer"
    finally:
        gc.enable()
    assert gc.get_threshold()[0] == gc_tuning.YOUNG_THRESHOLD


def test_every_full_every_requests_the_collection_is_a_full_one(tuned_app, monkeypatch):
    monkeypatch.setattr(gc_tuning, "FULL_EVERY", 2)
    client = tuned_app.test_client()
    assert client.get("/healthz").status_code == 200  # the first request: its freeze, then the young ones
    generations = []

    def seen(phase, info):
        if phase == "stop":
            generations.append(info["generation"])

    gc.callbacks.append(seen)
    gc.disable()
    try:
        for _ in range(4):
            assert client.get("/healthz").status_code == 200
    finally:
        gc.enable()
        gc.callbacks.remove(seen)
    assert generations == [2, 1, 2, 1]
