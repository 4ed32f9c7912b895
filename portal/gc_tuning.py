"""Keep the garbage collector off the long-lived heap.

A page of a 2,000-person delegation builds tens of thousands of short-lived dicts; each
allocation burst triggers collections, and the full ones walk every object the process
holds (Games definitions, templates, the universities list, SQLAlchemy's caches). Half of
such a page's time went there. After the first requests of a worker have loaded those,
`gc.freeze()` moves them to the permanent generation, which collections never scan (the
pre-fork server practice the gc module documents). Freezing happens a few times only
(the 1st, 10th and 100th request), so what little request garbage is frozen with them
stays bounded. Off under TESTING, where many apps come and go in one process."""
from __future__ import annotations

import gc
import os

FREEZE_AFTER = (1, 10, 100)


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
