# `make run` and `make test` set everything up on a fresh machine.
SHELL := bash
.SHELLFLAGS := -eo pipefail -c

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8866
# What `make run` serves: the folder of notebooks, or one notebook.
NOTEBOOK ?= notebooks
# A class: CLASS=30 preheats 30 dashboards before the students come in (0: a pool of one).
CLASS ?= 0
# The passwords never go on a command line (make's included: every user of the machine can
# read one with ps), and nothing prints them. Give them in the environment,
#   NIDAVELLIR_PASSWORD=… NIDAVELLIR_TEACHER_PASSWORD=… make run CLASS=30 …
# (PASSWORD=… and TEACHER_PASSWORD=… in the environment work too), or in files (first line):
#   make run PASSWORD_FILE=class.pw TEACHER_PASSWORD_FILE=teacher.pw …
# The class password: students type it, or open http://HOST:PORT/?token=PASSWORD.
PASSWORD_FILE ?=
TEACHER_PASSWORD_FILE ?=
# A folder of your own lesson files (docs/lessons.md), shown beside the lab's.
LESSONS ?=
# The class view (docs/classroom.md): answers go to CLASS_DIR/answers.sqlite; the teacher
# page /teacher/ needs the teacher password (not the class password).
CLASS_DIR ?=
# The pages' language when neither the address (?lang=de) nor the browser asks for one of
# the lab's (en, de, fr; docs/translating.md): `make run LANG=fr`. Only LANG given on make's
# command line counts: the LANG of the environment is the shell's locale (C.UTF-8, ...).
LANGUAGE_ARG = $(if $(filter command line,$(origin LANG)),--language '$(LANG)')
# Extra Voila options, e.g. VOILA_ARGS="--MappingKernelManager.cull_idle_timeout=1800".
VOILA_ARGS ?=
PYTEST_ARGS ?=
# The classroom benchmark's options (benchmarks/README.md), e.g. "--students 60 --over 0".
BENCH_CLASS_ARGS ?= --students 30 --over 30

# This machine's pip configuration names package indexes that do not exist; pip warns about
# each one on every lookup. Drop only those lines: real warnings and errors still show, and
# pipefail keeps pip's exit status. setuptools' warnings about editable installs go too.
PIP := $(BIN)/python -m pip --quiet
PIP_FILTER := 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }

.PHONY: all setup compiled run test lint typecheck docs chromium bench bench-class golden clean \
	venv-build lock upgrade i18n coverage

# `make`: the environment, then the compiled build where a C compiler is present.
.DEFAULT_GOAL := all
all: setup compiled

# The versions the suite passed with (docs/getting-started.md): every package of .venv,
# pinned with its hashes. `make lock` writes it from pyproject.toml's ranges, keeping every
# pin the ranges still allow; `make upgrade` moves everything to the newest allowed.
# Left out: rfc3987-syntax (and lark, which only it needs), an optional extra of jsonschema
# that checks the "iri" formats no schema of the lab's stack uses; importing it builds 38
# grammars, about 2 s of CPU in every Voila server, kernel manager and test worker that
# loads jsonschema (17 processes of a `make test`).
LOCK := requirements/lock.txt
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml requirements/tools.in --extra dev --extra rl \
	--universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock" \
	--no-emit-package rfc3987-syntax --no-emit-package lark --quiet -o $(LOCK)

# The venv is rebuilt whenever pyproject.toml or the lock changes, from the lock alone: the
# locked files, checked against their hashes (so a fresh machine today and in three months
# installs the same bytes), then the project itself, editable, without asking the index for
# anything. uv installs them (its own pin and hashes are in the lock: pip installs it first):
# it downloads in parallel, a fresh venv in about 30 s where pip takes 80 to 120 s; pip does
# it where uv cannot run. Engineers share one working tree, so the rebuild runs under a lock
# and is skipped if another `make` has just done it. Both write every module's bytecode at
# install (uv only when asked: --compile-bytecode): where PYTHONDONTWRITEBYTECODE is set, as
# on this project's machines, Python never writes it, and every process the lab starts (a
# kernel, a worker, a test's CLI) would compile pandas, plotly and the rest from source again:
# 2.3 s of CPU for a kernel's imports instead of 0.9.
UV_INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --compile-bytecode
$(STAMP): pyproject.toml $(LOCK)
	@flock pyproject.toml $(MAKE) --no-print-directory venv-build

venv-build:
	@if [ $(STAMP) -nt pyproject.toml ] && [ $(STAMP) -nt $(LOCK) ]; then exit 0; fi; \
	echo "building $(VENV) from $(LOCK)"; \
	rm -rf $(VENV); \
	$(PYTHON) -m venv $(VENV); \
	uv_pin=$$(mktemp); \
	awk '/^uv==/{p=1} p{print} p && !/\\$$/{exit}' $(LOCK) > $$uv_pin; \
	if PYTHONWARNINGS=ignore::UserWarning $(PIP) install --require-hashes --no-deps \
			-r $$uv_pin $(PIP_FILTER) && $(BIN)/uv --version >/dev/null 2>&1; then \
		$(UV_INSTALL) --require-hashes -r $(LOCK); \
		$(UV_INSTALL) --no-build-isolation -e .; \
	else \
		echo "uv does not run here: pip installs $(LOCK)"; \
		PYTHONWARNINGS=ignore::UserWarning $(PIP) install --require-hashes --no-deps \
			-r $(LOCK) $(PIP_FILTER); \
		PYTHONWARNINGS=ignore::UserWarning $(PIP) install --no-deps --no-build-isolation \
			-e . $(PIP_FILTER); \
	fi; \
	rm -f $$uv_pin; \
	$(BIN)/python -m pip check >/dev/null || { $(BIN)/python -m pip check; \
		echo "$(LOCK) does not satisfy pyproject.toml: run \`make lock\`" >&2; exit 1; }; \
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 \
		--display-name "Python 3 (nidavellir)" >/dev/null; \
	$(BIN)/python -m pip list --format=freeze 2>/dev/null \
		| grep -iE '^(voila|jupyterlab|jupyterlab[-_]widgets|ipywidgets|plotly|pandas)==' \
		| tr '\n' ' ' | sed 's/^/installed: /; s/ $$/\n/'; \
	touch $(STAMP)

setup: $(STAMP)

# The compiled build of the engine's hot path (docs/development.md, "The compiled build"):
# mypyc compiles the same sources into build/compiled/, never beside them; the package runs
# it only while every source it was built from is unchanged (else pure Python), and a new
# build is used only after it gave the same figures as the pure Python on seeded games and
# judgements. Nothing to do when it is current; where mypyc or a C compiler is missing it
# says so and the lab runs as pure Python. About 40 s on two cores (a C file per module,
# compiled side by side).
compiled: setup
	@NIDAVELLIR_COMPILED=pure $(BIN)/python -m nidavellir.compiled build

# Debian's chromium for the browser tests (Playwright's own download does not work offline).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	fi

# A password on make's command line is refused while make reads this file, before the
# setup or the compiled build (which a fresh machine or an edited source would start).
ifneq ($(filter run,$(MAKECMDGOALS)),)
ifneq ($(filter command line,$(origin PASSWORD) $(origin TEACHER_PASSWORD) \
	$(origin NIDAVELLIR_PASSWORD) $(origin NIDAVELLIR_TEACHER_PASSWORD)),)
$(error make run: a password on make's command line is visible to every user of this \
machine (ps). Give it in the environment (NIDAVELLIR_PASSWORD=… make run …) or in a file \
(make run PASSWORD_FILE=class.pw …); the same for the teacher's)
endif
endif

# The passwords reach the server in its environment (never in a recipe line, which make
# would print and ps would show).
run: export NIDAVELLIR_PASSWORD := $(or $(PASSWORD),$(NIDAVELLIR_PASSWORD))
run: export NIDAVELLIR_TEACHER_PASSWORD := $(or $(TEACHER_PASSWORD),$(NIDAVELLIR_TEACHER_PASSWORD))
run: setup compiled
	$(BIN)/python -m nidavellir.serve $(NOTEBOOK) \
		--host $(HOST) --port $(PORT) --class-size $(CLASS) \
		$(if $(LESSONS),--lessons '$(LESSONS)') $(if $(CLASS_DIR),--class-dir '$(CLASS_DIR)') \
		$(if $(PASSWORD_FILE),--password-file '$(PASSWORD_FILE)') \
		$(if $(TEACHER_PASSWORD_FILE),--teacher-password-file '$(TEACHER_PASSWORD_FILE)') \
		$(LANGUAGE_ARG) $(VOILA_ARGS)

lint: setup
	$(BIN)/ruff check .

typecheck: setup
	$(BIN)/mypy

# The documentation site (Sphinx + MyST, from docs/): warnings are errors. Open
# docs/_build/html/index.html.
docs: setup
	$(BIN)/sphinx-build -E -W --keep-going -q -b html docs docs/_build/html

# The whole suite in one pytest run on both cores (pytest-xdist, three workers below): the
# browser tests share one Voila server and one browser per kind of server, so each of their
# two groups runs on one worker, one test after another (--dist loadgroup,
# tests/conftest.py), while every other test spreads over the workers.
# The suite runs on the compiled build: it is built first (nothing to do when current),
# while the type check, the documentation build and the engine's own tests on the pure
# Python (PURE_TESTS, one process) run beside it; where no compiled build can be made
# (no C compiler) the suite runs on the pure Python and says so, and a build that fails
# fails `make test` (the suite still runs, on the pure Python). NIDAVELLIR_COMPILED=pure
# make test: everything on the pure Python, nothing compiled. Their output is shown when
# they end; the venv and Debian's chromium are set up side by side. A test that costs more
# than its limit fails unless marked with its reason (tests/speed_guard.py); the 20
# costliest are listed. One part: `make test PYTEST_ARGS="tests/test_scoring.py -k hunter"`
# (the pure run is left out then, unless PURE_TESTS names its part; docs/development.md).
# The project's own modules get their bytecode first, as the venv's did at install, and the
# test modules pytest's rewritten asserts (tests/assert_cache.py: once, not in each worker).
# Three workers on two cores: the browser tests' two groups keep one worker each busy with
# pages, kernels and Chromium, and a worker waits on them; the third fills those waits,
# and beside other CPU-bound work more processes get more of the cores (a clean run beside
# two `while True: pass`: 915 and 920 s with 2 workers, 871 s with 3; idle about the same:
# benchmarks/README.md). PYTEST_WORKERS=2 (or 1) where memory is short.
# The last lines name what failed (each failed test again, from the suite's JUnit report:
# tests/failure_summary.py; each failed part), so the output's tail, all a CI page may
# keep, says it.
PYTEST_WORKERS ?= 3
PURE_TESTS ?= $(if $(PYTEST_ARGS),,tests/test_rules_*.py tests/test_golden.py \
	tests/test_properties.py tests/test_properties_thingvellir.py)
test:
	@$(MAKE) --no-print-directory -j2 setup chromium
	@$(BIN)/python -m compileall -q -j 0 nidavellir widgets tests >/dev/null
	$(BIN)/ruff check .
	@set +e; logs=$$(mktemp -d); parts="typecheck docs"; build=pure; built=0; \
	$(BIN)/python tests/assert_cache.py > $$logs/asserts.log 2>&1 & asserts=$$!; \
	( $(BIN)/mypy > $$logs/typecheck.log 2>&1; echo $$? > $$logs/typecheck.rc ) & \
	( $(MAKE) --no-print-directory docs > $$logs/docs.log 2>&1; echo $$? > $$logs/docs.rc ) & \
	if [ "$${NIDAVELLIR_COMPILED:-auto}" != pure ]; then \
		if [ -n "$(PURE_TESTS)" ] && NIDAVELLIR_COMPILED=pure $(BIN)/python -c \
			"import nidavellir.compiled as c, nidavellir.compiled.build as b; \
			raise SystemExit(not c.check().compiled and b.missing_tools() is not None)"; \
		then \
			parts="$$parts pure"; \
			( NIDAVELLIR_COMPILED=pure $(BIN)/python -m pytest -q -p no:xdist \
				-p no:cacheprovider --basetemp=$$logs/pure-tmp $(PURE_TESTS) \
				> $$logs/pure.log 2>&1; echo $$? > $$logs/pure.rc ) & \
		fi; \
		NIDAVELLIR_COMPILED=pure $(BIN)/python -m nidavellir.compiled build; built=$$?; \
		if found=$$(NIDAVELLIR_COMPILED=pure $(BIN)/python -m nidavellir.compiled check); \
		then build=compiled; \
		else echo "make test: the suite runs on the pure Python: $$found"; fi; \
	fi; \
	wait $$asserts; cat $$logs/asserts.log; \
	echo "make test: the suite on the $$build build"; \
	NIDAVELLIR_COMPILED=$$build $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) \
		--dist loadgroup --junitxml=$$logs/suite.xml $(PYTEST_ARGS); rc=$$?; \
	wait; failed=""; \
	for part in $$parts; do \
		if [ $$part = pure ]; then echo "--- the engine's tests on the pure Python:"; \
		else echo "--- make $$part:"; fi; cat $$logs/$$part.log; \
		if [ "$$(cat $$logs/$$part.rc)" != 0 ]; then failed="$$failed $$part"; rc=1; fi; \
	done; \
	echo "--- make test:"; \
	if [ $$rc != 0 ] || [ $$built != 0 ]; then \
		$(BIN)/python tests/failure_summary.py $$logs/suite.xml; fi; \
	for part in $$failed; do echo "make test: $$part failed (above)"; done; \
	if [ $$built != 0 ]; then echo "make test: the compiled build failed (above)"; rc=1; fi; \
	if [ $$rc = 0 ]; then echo "make test: all passed"; fi; \
	rm -rf $$logs; exit $$rc

# Line coverage of nidavellir/ and widgets/ over the whole suite (docs/development.md): on
# the pure Python (a compiled module is not traced), with every process the suite starts
# (pyproject.toml's [tool.coverage.run]), the speed guard off (tracing costs about twice the
# CPU). The compiled build is made first, as for `make test` (the suite runs on the pure
# Python all the same; a test of `make run` would otherwise build it, traced, past its
# patience). The report: test-artifacts/coverage/ (report.txt, coverage.json), the totals.
COVERAGE_DIR := test-artifacts/coverage
coverage: setup chromium compiled
	@rm -rf $(COVERAGE_DIR) && mkdir -p $(COVERAGE_DIR)
	@set +e; export COVERAGE_FILE=$(abspath $(COVERAGE_DIR))/data; \
	NIDAVELLIR_COMPILED=pure $(BIN)/coverage run -m pytest -q -n $(PYTEST_WORKERS) \
		--dist loadgroup -p no:cacheprovider --speed-limit 1e9 --speed-limit-browser 1e9 \
		$(PYTEST_ARGS); rc=$$?; \
	$(BIN)/coverage combine -q && \
	$(BIN)/coverage report > $(COVERAGE_DIR)/report.txt && \
	$(BIN)/coverage json -q -o $(COVERAGE_DIR)/coverage.json || rc=1; \
	for part in nidavellir widgets; do \
		printf "make coverage: %-10s " "$$part/"; \
		$(BIN)/coverage report --include="$$part/*" | tail -n 1; done; \
	echo "make coverage: every file in $(COVERAGE_DIR)/report.txt"; exit $$rc

bench: setup
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_engine.py --expansions thingvellir
	$(BIN)/python benchmarks/bench_whatif.py
	$(BIN)/python benchmarks/bench_search.py

# A class, large (benchmarks/README.md; the test suite keeps a small version of each):
# at the protocol level, one real page timed and recorded in chromium, then N students
# played over HTTP/websocket (~3-5 minutes); 30 students through kernel kills and a locked
# database (the chaos); 30 processes writing answers at once while the teacher page polls.
bench-class: setup chromium
	$(BIN)/python benchmarks/bench_class_protocol.py $(BENCH_CLASS_ARGS)
	$(BIN)/python benchmarks/bench_class_chaos.py --students 30
	$(BIN)/python benchmarks/bench_class_view.py --students 30 --seconds 30
	$(BIN)/python benchmarks/bench_pages_at_once.py --pages 10

# The lock from pyproject.toml's ranges, keeping every pin they still allow (after a range
# was changed by hand). LOCK_ARGS="-P voila==0.5.14" moves one package.
lock:
	@if [ ! -x $(BIN)/uv ]; then $(MAKE) --no-print-directory setup; fi
	$(UV_COMPILE) $(LOCK_ARGS)
	$(PYTHON) requirements/environment.py
	@echo "wrote $(LOCK); \`make test\` rebuilds .venv from it"

# A deliberate upgrade: the newest versions the ranges allow, .venv rebuilt from them, the
# first-paint list recorded again (Voila's or the widget manager's chunks may have moved),
# the whole suite with the browser tests, then what moved. Nothing is committed: read the
# list, look at the pages, and commit the lock with the first-paint list.
upgrade: setup chromium
	@before=$$(mktemp); cp $(LOCK) $$before; \
	$(UV_COMPILE) --upgrade $(LOCK_ARGS) && $(PYTHON) requirements/environment.py \
		&& $(MAKE) --no-print-directory setup \
		&& $(BIN)/python -m nidavellir.classroom.server.first_paint --record \
		&& $(MAKE) --no-print-directory test; rc=$$?; \
	$(PYTHON) requirements/moved.py $$before $(LOCK); rm -f $$before; \
	if [ $$rc = 0 ]; then echo "the suite passed with these versions: commit $(LOCK), environment.yml and" \
		"nidavellir/classroom/server/first_paint.json"; \
	else echo "the suite failed with these versions (exit $$rc): \`git checkout $(LOCK)\`" \
		"goes back" >&2; exit $$rc; fi

# The message catalogues (docs/translating.md): pybabel extract (the messages of nidavellir/
# and widgets/, and the rulebooks' names of nidavellir/locale/names.csv) -> pybabel update
# (German, French) -> the names table into the catalogues -> pybabel compile. The compiled
# .mo files are committed (a checkout or an installed lab needs no build step);
# tests/test_catalogues.py fails when a catalogue is incomplete, fuzzy or not compiled.
i18n: setup
	$(BIN)/python -m nidavellir.tools.catalogues

golden: setup
	$(BIN)/python tests/golden/regenerate.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache docs/_build build/compiled
