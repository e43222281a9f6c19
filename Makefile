PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1:8000

.PHONY: demo install migrate seed serve test lint bench

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
	$(PY) manage.py seed_demo

## demo: install, migrate, seed a demo casino, print the logins, serve on http://$(HOST)/
demo: seed serve

serve: install
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) manage.py runserver $(HOST)

## test: the whole suite on DATABASE_URL (SQLite by default; PostgreSQL-only tests need PostgreSQL),
## one pytest-xdist worker per core, each with its own test database (a file's tests stay together)
test: install
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/pytest -n auto --dist loadfile $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

bench: install
	$(PY) bench/ledger.py
	$(PY) bench/render.py
