"""gunicorn settings for the portal (`gunicorn -c gunicorn.conf.py app:app`).

Why these:
- sync workers: each request runs on its worker's main thread; the pages are short
  database work, and one slow page cannot stall another worker's requests.
  Measured 2026-12-03 (benchmarks/deadline_night.py, PostgreSQL, 100 leaders each saving
  every 5 s for 60 s, a 2-core machine at load 1-1.5 before): 2 sync workers 1,100 saves a
  minute, p95 3.98 s, 112 ms of web CPU per save cycle; 4 sync workers 1,000, p95 4.74 s,
  142 ms; 2 gthread workers x 4 threads 982, p95 7.12 s, 129 ms. The cycle is CPU-bound
  there: threads add contention, not throughput, so sync stays. GUNICORN_WORKER_CLASS and
  GUNICORN_THREADS let the choice be measured again (deadline_night.py --worker-class).
  Measured again 2026-12-04 late, the CPU counted after the leaders' logins and the cycle
  cheaper: every model took all 1,200 saves a minute (p95 2 sync 0.21 s, 4 sync 0.16-0.26 s,
  2 gthread x 4 0.16 s, 6 sync 0.13 s; 47-53 ms of web CPU a cycle); with two busy
  processes beside them, 2 sync 900 (p95 5.3 s), 4 sync 800 (6.2 s), 6 sync 830 (5.8 s),
  8 sync 768 (6.5 s): more processes only share the cores more thinly. 4 stays: at
  about 150 MB a worker they fit a 4 GB node beside PostgreSQL and the jobs worker, and one
  slow request (a 2,000-person import, 1.7 s) leaves three workers answering, not one.
- no preload: each worker imports the app itself after the fork, so no database engine,
  connection pool, open socket or C-extension state is shared between processes. Should
  preload ever be turned on, post_fork below still disposes the inherited pools.
- timeout 60: the slowest legitimate request (a big delegation's Excel import) stays well
  under it; a stuck worker is replaced instead of holding a deadline-night queue.
- on_starting runs `flask setup` (schema and reference data) once, before the workers.
- post_worker_init warms each new worker before its first request.
- max_requests with jitter: workers are recycled now and then, so a slow leak in a
  library never grows into an outage, and never all workers at once.
  10,000, not 1,000: on deadline night a worker serves 2,000 requests a minute, and each
  recycle leaves one worker alone for the two seconds the next takes to start (60 leaders:
  p95 0.95 s recycling every 1,000, 0.29 s every 10,000).
"""
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "4"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "10000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "1000"))
preload_app = False
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"


CLUSTER_SETTINGS = {
    "SECRET_KEY": "the same secret on every node (a key generated here is this machine's alone: "
                  "a session started on one node would be refused on another)",
    "REDIS_URL": "the Redis every node shares, e.g. redis://10.0.0.5:6379/0 (without it the login "
                 "limits and the job queue live in one process and are not shared)",
}


def on_starting(server):
    """Before any worker: the settings several nodes need, then schema and reference data,
    in a child process, so that the master imports nothing of the app (a worker must not
    inherit its engine or pool). With four workers starting on an empty database, none of
    them races to create tables. PORTAL_SINGLE_NODE=1 runs one machine without Redis. A
    database whose demo accounts still have their published passwords is refused."""
    import subprocess
    import sys
    single = os.environ.get("PORTAL_SINGLE_NODE") == "1"
    missing = [k for k in CLUSTER_SETTINGS if not os.environ.get(k) and not (single and k == "REDIS_URL")]
    if missing:
        lines = "\n".join(f"  {k}: {CLUSTER_SETTINGS[k]}" for k in missing)
        raise SystemExit(f"portal: set these before starting gunicorn:\n{lines}")
    if os.environ.get("PORTAL_SETUP_ON_START", "1") == "1":
        # A real install gets no sample Games; a demonstration server (PORTAL_DEMO=1) does.
        sample = ["--sample-games"] if os.environ.get("PORTAL_DEMO") == "1" else []
        result = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "setup", *sample], capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise RuntimeError("portal set-up failed:\n" + result.stderr[-4000:])
        server.log.info("portal set-up: %s", " ".join(result.stdout.split()) or "done")
    # A demo account whose password the README prints is an open door on a real install.
    # PORTAL_DEMO=1 is a demonstration server, where those passwords are the point.
    if os.environ.get("PORTAL_DEMO") != "1":
        check = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "accounts", "check-demo"],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise SystemExit("portal: " + (check.stderr.strip() or check.stdout.strip())[-2000:]
                             + "\n(PORTAL_DEMO=1 starts a demonstration server on purpose)")


def post_worker_init(worker):
    """Before a worker takes its first request (at boot and after each recycle), what its
    first requests would otherwise pay: templates, definitions, late imports
    (portal/site/warmup.py)."""
    from portal.site.warmup import warm
    took = warm(worker.wsgi)
    worker.log.info("worker warmed: %s", ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in took.items()))


def post_fork(server, worker):
    """A worker never uses a connection opened by its parent (only possible with preload)."""
    import sys
    app_module = sys.modules.get("app")
    app = getattr(app_module, "app", None)
    if app is not None:
        with app.app_context():
            from portal.extensions import db
            db.engine.dispose(close=False)
