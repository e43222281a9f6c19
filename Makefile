PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1:8000

.PHONY: demo install migrate seed serve test lint bench vendor

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: $(PY) requirements.txt requirements-dev.txt
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo --url http://$(HOST)/

## demo: install, migrate, seed a demo casino, print the logins, serve on http://$(HOST)/
demo: seed serve

serve: install
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) manage.py runserver $(HOST)

## test: the whole suite on DATABASE_URL (SQLite by default; PostgreSQL-only tests need PostgreSQL),
## one pytest-xdist worker per core, each with its own test database (a file's tests stay together;
## files go out in the order tests/conftest.py sorts them, the browser walks first)
test: install
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/pytest -n auto --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

bench: install
	$(PY) bench/ledger.py
	$(PY) bench/render.py

## vendor: copy the front-end packages pinned in package.json from node_modules into static/vendor
## (Bootstrap, Tom Select) and tests/e2e/vendor (axe-core), each with its licence
vendor:
	npm ci --no-audit --no-fund
	mkdir -p static/vendor/bootstrap static/vendor/tom-select tests/e2e/vendor/axe-core
	cp node_modules/bootstrap/dist/css/bootstrap.min.css node_modules/bootstrap/dist/js/bootstrap.bundle.min.js node_modules/bootstrap/LICENSE static/vendor/bootstrap/
	cp node_modules/tom-select/dist/css/tom-select.bootstrap5.min.css node_modules/tom-select/dist/js/tom-select.complete.min.js node_modules/tom-select/LICENSE static/vendor/tom-select/
	cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE tests/e2e/vendor/axe-core/
