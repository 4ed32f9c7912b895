# The two set-up commands of the README: `make run` and `make test`.
# CPython 3.12 or newer: 3.11 (3.11.7 here) corrupts instance dictionaries in garbage
# collection under the portal's load and kills workers (issue 13, benchmarks/first_request.py).
# The first of python3.12, python3.13, pyenv's 3.12/3.13 or python3 that is 3.12 or newer.
PYTHON ?= $(shell for p in python3.12 python3.13 $$(ls -d $$HOME/.pyenv/versions/3.1[23]*/bin/python3 2>/dev/null) python3; do \
	"$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { command -v "$$p"; break; }; done)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

$(BIN)/flask: pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (3.11 crashes, see issue 13); set PYTHON=/path/to/python3.12" >&2; exit 1; }
	@$(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null || rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@

.PHONY: run test setup lint
setup: $(BIN)/flask
	$(BIN)/flask --app app demo

# The demo stands in August 2019 (nmsg-2019 takes names; shaanxi-mind-2025 is open) and
# lets the clock run from there; unset PORTAL_CLOCK for the real date.
PORTAL_CLOCK ?= 2019-08-20T10:00:00+08:00
# The demo's staff accounts log in with their password alone (STAFF_TWO_FACTOR=0); production
# asks staff for an authenticator code as well.
run: setup
	PORTAL_CLOCK=$(PORTAL_CLOCK) STAFF_TWO_FACTOR=0 $(BIN)/flask --app app run --host $(HOST) --port $(PORT)

# TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test make test: the same suite on PostgreSQL.
test: $(BIN)/flask
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The habits (ruff: pyproject's [tool.ruff]) and the areas' one-way order (import-linter:
# [tool.importlinter]). .ci/run runs it before the tests.
lint: $(BIN)/flask
	$(BIN)/ruff check portal tests benchmarks scripts migrations app.py gunicorn.conf.py
	$(BIN)/lint-imports
