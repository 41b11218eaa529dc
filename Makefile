# Everything runs from the project's own virtualenv; `make setup` is cheap when nothing changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup bytecode system-packages test-packages run db test test-sqlite test-pg lint fmt clean demo translations messages bench

setup: system-packages $(STAMP) translations bytecode

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

# The app's modules compiled once, as an installed package's are: the server then starts
# without compiling its sources, even where PYTHONDONTWRITEBYTECODE is set. Cheap when
# nothing changed (only modules newer than their bytecode are compiled).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q scorekeeper

# Translations: the .po catalogues are the source; the .mo files the app reads are built
# from them (and git-ignored), so a fresh clone gets them with `make setup`/`run`/`test`.
TRANSLATIONS := scorekeeper/translations
LANGUAGES    := en de nl fr da
PO_FILES     := $(foreach lang,$(LANGUAGES),$(TRANSLATIONS)/$(lang)/LC_MESSAGES/messages.po)
MO_FILES     := $(PO_FILES:.po=.mo)

translations: $(MO_FILES)

# Rebuilt whenever its catalogue changed; fuzzy entries are left out (English shows instead).
$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(STAMP)
	$(BIN)/pybabel compile --domain messages -i $< -o $@

# After adding or changing texts: collect them all into messages.pot and bring every
# catalogue up to date (new texts arrive untranslated; `pytest tests/i18n` lists them).
# Nothing changes (not even a date) when no text did, so the catalogues merge cleanly.
# No --previous: Babel 2.19 reads a "#| msgid" line back as a translator's comment, so each
# later run carried the earlier text along for good ("# | msgid ...", wrapped into stray words).
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --add-location=file --sort-by-file \
		-c TRANSLATORS: --project=scorekeeper --copyright-holder="scorekeeper contributors" \
		-o $(TRANSLATIONS)/messages.pot.new .
	@if diff -q -I '^"POT-Creation-Date' $(TRANSLATIONS)/messages.pot \
		$(TRANSLATIONS)/messages.pot.new >/dev/null 2>&1; then \
		rm $(TRANSLATIONS)/messages.pot.new; echo "messages.pot: no text changed"; \
	else mv $(TRANSLATIONS)/messages.pot.new $(TRANSLATIONS)/messages.pot; fi
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) \
		--ignore-obsolete --ignore-pot-creation-date
	$(MAKE) translations

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
		test-artifacts .bench-cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -f $(MO_FILES)
