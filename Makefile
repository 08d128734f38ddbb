# The project's commands. Every target installs what it needs on a fresh machine.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install test bench lint format demo clean

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

test: install
	$(PY) -m ruff check .
	$(PY) -m pytest

bench: install
	$(VENV)/bin/ofc bench --write docs/benchmarks.md

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

demo: install
	$(VENV)/bin/ofc demo

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
