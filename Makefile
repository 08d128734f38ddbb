# The project's commands. Every target installs what it needs on a fresh machine.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install test bench lint format demo clean sample

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

test: install
	command -v chromium >/dev/null 2>&1 || { apt-get update && apt-get install -y chromium; }
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

# Regenerate the sample archive (docs/simulator.md): the same regulars in every file,
# two tight and two aggressive, across variants, presets and the three formats.
SAMPLE  := data/sample
REGULARS := 'Rock Rita=tight,Careful Kalle=tight,Maniac Max=aggressive,Wild Wanda=aggressive,Carol [RU]=balanced,random'
SIM      = $(VENV)/bin/ofc simulate --bots $(REGULARS)

sample: install
	mkdir -p $(SAMPLE)/jsonl $(SAMPLE)/en $(SAMPLE)/ru
	$(SIM) --ruleset pineapple-1-6-american --players 3 --hands 300 --seed 101 --out $(SAMPLE)/jsonl/pineapple-1-6-american.jsonl
	$(SIM) --ruleset classic-1-6-american --players 3 --hands 200 --seed 102 --out $(SAMPLE)/jsonl/classic-1-6-american.jsonl
	$(SIM) --ruleset pineapple-27 --players 3 --hands 150 --seed 103 --out $(SAMPLE)/jsonl/pineapple-27.jsonl
	$(SIM) --ruleset pineapple-progressive-american --players 3 --hands 300 --seed 201 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/pineapple-progressive-american.txt
	$(SIM) --ruleset turbo-1-6-american --players 2 --hands 200 --seed 202 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/turbo-1-6-american.txt
	$(SIM) --ruleset classic-stars-2013 --players 2 --hands 150 --seed 203 --format en --hero 'Rock Rita' --out $(SAMPLE)/en/classic-stars-2013.txt
	$(SIM) --ruleset pineapple-2-4-pokerbet --players 3 --hands 300 --seed 301 --format ru --hero 'Wild Wanda' --out $(SAMPLE)/ru/pineapple-2-4-pokerbet.txt
	$(SIM) --ruleset pineapple-2-4-pokerdom --players 3 --hands 250 --seed 302 --format ru --hero 'Wild Wanda' --misreport-rate 0.04 --out $(SAMPLE)/ru/pineapple-2-4-pokerdom.txt
