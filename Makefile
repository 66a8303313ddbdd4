# minipaddle: every target sets itself up on a fresh Debian machine.
#   make tour    the guided first run (the main job)
#   make test    the test suite (what CI runs, through .ci/run)
#   make lint    ruff check + ruff format --check
#   make bench   benchmarks/run.py
#   make clean   caches and build files; `make distclean` also removes .venv

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# The stamp is newer than pyproject.toml when the venv holds what pyproject.toml asks for.
STAMP  := $(VENV)/.installed
PYTEST_ARGS ?= -q -n 2

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export DEBIAN_FRONTEND := noninteractive

.PHONY: help install system-deps browser-deps test tour lint format bench clean distclean

help:
	@sed -n '2,7s/^# \{0,1\}//p' Makefile

# --- set-up ------------------------------------------------------------------------------------------------------

$(PY):
	@if ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv; \
	  else echo "$(PYTHON) cannot make a venv: run  sudo apt-get install -y python3-venv" >&2; exit 1; fi; \
	fi
	$(PYTHON) -m venv $(VENV)

# Re-install only when pyproject.toml changed. The install is editable, so edits to the code need none.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# graphviz's `dot` program draws the graphs (viz/). Installed when missing and we are root; otherwise we say how.
system-deps:
	@if ! command -v dot >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's graphviz (for the 'dot' program)..."; \
	    apt-get update -qq && apt-get install -y -qq graphviz >/dev/null \
	      || echo "WARNING: apt-get could not install graphviz; graph drawing will fail" >&2; \
	  else \
	    echo "NOTE: graphviz's 'dot' is missing; to draw graphs run:  sudo apt-get update && sudo apt-get install -y graphviz"; \
	  fi; \
	fi

# The browser test (tests/browser) opens the executed notebooks in Debian's chromium; npm fetches the widget
# renderer once (from the npm registry) into build/. Only `make test` needs these.
browser-deps:
	@missing=""; command -v chromium >/dev/null 2>&1 || missing=" chromium"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's$$missing (for the browser test)..."; \
	    apt-get update -qq && apt-get install -y -qq $$missing >/dev/null \
	      || echo "WARNING: apt-get could not install$$missing; the browser test will skip or fail" >&2; \
	  else \
	    echo "NOTE: missing$$missing; for the browser test run:  sudo apt-get install -y$$missing"; \
	  fi; \
	fi

# --- jobs --------------------------------------------------------------------------------------------------------

# pytest's exit code 5 means it collected no test: that fails too, on purpose (a suite that runs nothing proves nothing).
test: install system-deps browser-deps
	@rc=0; $(PY) -m pytest $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc = 5 ]; then echo "make test: pytest collected no tests; failing on purpose" >&2; fi; \
	exit $$rc

# Trains LeNet on the embedded digits with paddle.Model and writes tour/index.html (viz/tour/).
tour: install system-deps
	$(PY) -m viz.tour

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Not a check: rewrites files so that `make lint` passes where ruff knows how.
format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) benchmarks/run.py

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .hypothesis .benchmarks
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
