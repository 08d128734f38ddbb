# The project's commands. Every target installs what it needs on a fresh machine.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install test test-fast bench lint format demo clean sample

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -m pipeline.cli.warmup  # compile the fast reader and decision kernels now, not on first use
	touch $(STAMP)

test: lint
	command -v chromium >/dev/null 2>&1 || { apt-get update && apt-get install -y chromium; }
	$(PY) -m pytest

# The tests without those marked slow (exhaustive counts, browser, Dask, benchmarks).
test-fast: lint
	$(PY) -m pytest -m 'not slow'

bench: install
	$(VENV)/bin/ofc bench --write docs/benchmarks.md

# Style, formatting, and the import layers of docs/architecture.md (pyproject.toml).
lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

demo: install
	@echo "ofc is installed in $(VENV): in a new shell run \`source $(VENV)/bin/activate\` first, or call $(VENV)/bin/ofc"
	$(VENV)/bin/ofc demo

clean:
	rm -rf $(VENV) .pytest_cache .import_linter_cache .numba-cache build *.egg-info

# Regenerate the sample archive (docs/simulator.md): the same regulars in every file,
# two tight and two aggressive, across variants, presets and the three formats; about
# 5,000 hands, gzipped (the parsers and ofc import read .gz).
SAMPLE  := data/sample
REGULARS := 'Rock Rita=tight,Careful Kalle=tight,Maniac Max=aggressive,Wild Wanda=aggressive,Carol [RU]=balanced,random'
SIM      = $(VENV)/bin/ofc simulate --bots $(REGULARS)

sample: install
	rm -rf $(SAMPLE)/jsonl $(SAMPLE)/en $(SAMPLE)/ru
	mkdir -p $(SAMPLE)/jsonl $(SAMPLE)/en $(SAMPLE)/ru
	$(SIM) --ruleset pineapple-1-6-american --players 3 --hands 1000 --seed 101 --out $(SAMPLE)/jsonl/pineapple-1-6-american.jsonl.gz
	$(SIM) --ruleset classic-1-6-american --players 3 --hands 600 --seed 102 --out $(SAMPLE)/jsonl/classic-1-6-american.jsonl.gz
	$(SIM) --ruleset pineapple-27 --players 3 --hands 500 --seed 103 --out $(SAMPLE)/jsonl/pineapple-27.jsonl.gz
	$(SIM) --ruleset pineapple-progressive-american --players 3 --hands 800 --seed 201 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/pineapple-progressive-american.txt.gz
	$(SIM) --ruleset turbo-1-6-american --players 2 --hands 500 --seed 202 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/turbo-1-6-american.txt.gz
	$(SIM) --ruleset classic-stars-2013 --players 2 --hands 400 --seed 203 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/classic-stars-2013.txt.gz
	$(SIM) --ruleset pineapple-2-4-pokerbet --players 3 --hands 700 --seed 301 --format ru --hero 'Wild Wanda' --out $(SAMPLE)/ru/pineapple-2-4-pokerbet.txt.gz
	$(SIM) --ruleset pineapple-2-4-pokerdom --players 3 --hands 500 --seed 302 --format ru --hero 'Wild Wanda' --misreport-rate 0.04 --out $(SAMPLE)/ru/pineapple-2-4-pokerdom.txt.gz
