"""Background jobs: work that can take longer than a page should (a whole-Games export),
run outside the request with a progress bar and a download when done. RQ on Redis where
JOBS_BACKEND is "rq" (the default when REDIS_URL is set); a thread of the web process
otherwise. The job's code is the same either way."""
