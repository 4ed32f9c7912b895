"""Keep the garbage collector off the long-lived heap, and out of the middle of requests.

A page of a 2,000-person delegation builds tens of thousands of short-lived dicts; each
allocation burst triggers collections, and the full ones walk every object the process
holds (Games definitions, templates, the universities list, SQLAlchemy's caches). Half of
such a page's time went there. After the first requests of a worker have loaded those,
`gc.freeze()` moves them to the permanent generation, which collections never scan (the
pre-fork server practice the gc module documents). Freezing happens a few times only
(the 1st, 10th and 100th request), so what little request garbage is frozen with them
stays bounded.

The collections left still ran inside requests, every 700 allocations, each walking what
the request had built so far and was still using (a 150-person document, its parse, its
judgement): 9 a deadline-night cycle, 3 ms of its CPU. Once a request is over, all of
that is unreachable, so the young generations are collected there, after the request and
its app context are gone, where the walk is short (0.4 ms); once a process serves
requests its automatic threshold is raised, so that a request rarely collects before it
ends (the jobs worker and the CLI keep Python's); and a full collection every thousand
requests takes what was promoted and has since died.

Off under TESTING, where many apps come and go in one process."""
from __future__ import annotations

import gc
import os

FREEZE_AFTER = (1, 10, 100)
YOUNG_THRESHOLD = 100_000  # allocations between automatic collections once requests collect after themselves
FULL_EVERY = 1_000  # requests between full collections


def init_gc_tuning(app) -> None:
    env = os.environ.get("GC_FREEZE")  # "0" turns it off (to compare, or to hunt a GC crash)
    if not app.config.get("GC_FREEZE", env != "0" if env is not None else not app.testing):
        return
    served = {"n": 0}

    @app.teardown_request
    def _freeze_long_lived(_exc=None):
        served["n"] += 1
        if served["n"] in FREEZE_AFTER:
            gc.collect()
            gc.freeze()
        if served["n"] == 1:  # a process that serves requests; the jobs worker and the CLI keep the default
            _, middle, oldest = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)

    inner = app.wsgi_app

    def collect_after_each_request(environ, start_response):
        try:
            return inner(environ, start_response)
        finally:
            # The request and app contexts are popped by now: what they held is garbage.
            gc.collect(2 if served["n"] % FULL_EVERY == 0 else 1)

    app.wsgi_app = collect_after_each_request
