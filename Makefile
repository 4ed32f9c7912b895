# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

$(BIN)/flask: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@

.PHONY: run test setup
setup: $(BIN)/flask
	$(BIN)/flask --app app demo

# The demo stands in August 2019 (nmsg-2019 takes names; shaanxi-mind-2025 is open) and
# lets the clock run from there; unset PORTAL_CLOCK for the real date.
PORTAL_CLOCK ?= 2019-08-20T10:00:00+08:00
run: setup
	PORTAL_CLOCK=$(PORTAL_CLOCK) $(BIN)/flask --app app run --host $(HOST) --port $(PORT)

# TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test make test: the same suite on PostgreSQL.
test: $(BIN)/flask
	$(BIN)/python -m pytest $(PYTEST_ARGS)
