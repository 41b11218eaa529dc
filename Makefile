# Everything runs from the project's own virtualenv; `make setup` is cheap when nothing changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup system-packages test-packages run db test test-sqlite test-pg lint fmt clean demo

setup: system-packages $(STAMP)

system-packages:
	@scripts/system-packages.sh

test-packages:
	@scripts/system-packages.sh test

# Reinstall only when pyproject.toml is newer than the last install.
# Order-only on system-packages: it must run first but must not force a reinstall.
$(STAMP): pyproject.toml | system-packages
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev,postgresql]'
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

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The whole suite twice: on SQLite (the embedded default), then with the app on a real
# PostgreSQL server (scripts/test-postgres.sh finds or starts one). Tests of SQLite's own
# machinery carry @pytest.mark.sqlite_only and are deselected in the second pass.
test: lint test-packages
	@echo "== test pass 1 of 2: SQLite"
	@start=$$(date +%s); rc=0; env -u SCOREKEEPER_TEST_DATABASE_URL $(BIN)/pytest || rc=$$?; \
		echo "SQLite pass: $$(( $$(date +%s) - start )) s"; exit $$rc
	@echo "== test pass 2 of 2: PostgreSQL"
	@start=$$(date +%s); rc=0; scripts/test-postgres.sh || rc=$$?; \
		echo "PostgreSQL pass: $$(( $$(date +%s) - start )) s"; exit $$rc

test-sqlite: setup test-packages
	$(BIN)/pytest

test-pg: setup test-packages
	scripts/test-postgres.sh

fmt: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Never touches instance/: it holds the database and the secret key.
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
