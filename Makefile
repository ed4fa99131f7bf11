# `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8866

.PHONY: setup run test lint typecheck chromium bench golden clean

# The venv is rebuilt whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Debian's chromium for the browser tests (Playwright's own download does not work offline).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium) \
		|| (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium); \
	fi

run: setup
	$(BIN)/python -m nidavellir.serve --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check .

typecheck: setup
	$(BIN)/mypy

test: setup chromium lint
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python benchmarks/bench_engine.py

golden: setup
	$(BIN)/python tests/golden/regenerate.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
