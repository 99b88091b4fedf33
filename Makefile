# Two commands do everything on a fresh machine (Python 3.11+ is the only prerequisite):
#   make run    set up .venv and start the bot (SQLite by default; needs SIDELINE_TOKEN); the first time,
#               with no config.toml, it writes one and stops, saying what to do next
#   make test   set up .venv and run the linters and the whole test suite, on every core
#               (pytest-xdist), printing the 15 slowest tests
#   make test-lowest   the storage, service and command tests on the lowest versions pyproject.toml
#                      allows (constraints-lowest.txt, in .venv-lowest), on SQLite
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
LOWEST ?= .venv-lowest
# On the lowest versions: what touches the database and the command tree (the pure rules don't).
LOWEST_TESTS ?= tests/storage tests/services tests/commands tests/delivery tests/client tests/web tests/test_composition.py \
               tests/reliability/test_no_private_names.py
CONFIG ?= config.toml

.PHONY: run test test-lowest setup setup-lowest clean

$(BIN)/sideline: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	touch $(BIN)/sideline

setup: $(BIN)/sideline

$(LOWEST)/bin/sideline: pyproject.toml constraints-lowest.txt
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install --quiet --upgrade pip
	$(LOWEST)/bin/python -m pip install --quiet -c constraints-lowest.txt -e '.[test,postgres]'
	touch $(LOWEST)/bin/sideline

setup-lowest: $(LOWEST)/bin/sideline

# No config yet: write it (`sideline init-config`), say what to fill in, and stop; the next `make run` starts.
run: setup
	@if [ -f $(CONFIG) ]; then $(BIN)/sideline --config $(CONFIG) run $(ARGS); else $(BIN)/sideline init-config $(CONFIG); fi

test: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --durations=15 $(PYTEST_ARGS)

# SQLite only: the PostgreSQL run of these tests takes several times as long (the normal run covers it).
test-lowest: setup-lowest
	SIDELINE_TEST_PG_URL= $(LOWEST)/bin/python -m pytest -n auto $(LOWEST_TESTS) $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) $(LOWEST) .pytest_cache .ruff_cache
