# Two commands do everything on a fresh machine (Python 3.11+ is the only prerequisite):
#   make run    set up .venv and start the bot (SQLite by default; needs SIDELINE_TOKEN)
#   make test   set up .venv and run the linters and the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
CONFIG ?= config.toml

.PHONY: run test setup clean

$(BIN)/sideline: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	touch $(BIN)/sideline

setup: $(BIN)/sideline

run: setup
	@test -f $(CONFIG) || { cp config.example.toml $(CONFIG); echo "created $(CONFIG) from config.example.toml: fill in your server ids"; }
	$(BIN)/sideline --config $(CONFIG) run $(ARGS)

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
