# Everything runs from the project's own virtualenv; `make setup` is cheap when nothing changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup system-packages test-packages run db test lint fmt clean demo bench

setup: system-packages $(STAMP)

system-packages:
	@scripts/system-packages.sh

test-packages:
	@scripts/system-packages.sh test

# Reinstall only when pyproject.toml is newer than the last install.
# Order-only on system-packages: it must run first but must not force a reinstall.
$(STAMP): pyproject.toml | system-packages
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $@

db: setup
	@if [ -d migrations ]; then $(BIN)/flask --app scorekeeper db upgrade; fi

run: setup db
	$(BIN)/python -m scorekeeper.serve

# A season of generated games to try the app with: make demo GAMES=200 SEED=3
GAMES ?= 40
SEED  ?= 1
demo: db
	$(BIN)/flask --app scorekeeper demo --games $(GAMES) --seed $(SEED)

# Measure every page at 100 and 10,000 games; prints a table, writes bench/report.json.
# Never fails on a slow machine: it reports. Filled databases are kept in .bench-cache/.
bench: setup
	$(BIN)/python -m bench.run

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint test-packages
	$(BIN)/pytest

fmt: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Never touches instance/: it holds the database and the secret key.
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		test-artifacts .bench-cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
