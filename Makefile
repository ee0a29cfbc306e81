.DEFAULT_GOAL := help
PY ?= python3

help:  ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-9s %s\n", $$1, $$2}'

install:  ## Install papers and the test tools (editable)
	$(PY) -m pip install -e '.[test]'

quick:  ## The quick tests (plain pytest: the slow ones left out)
	$(PY) -m pytest

test:  ## Every test (the README's test command, what CI runs)
	$(PY) -m pytest --all

examples:  ## Rerun the README's and docs' examples and rewrite their outputs
	$(PY) tools/examples.py --update

lint:  ## ruff, the format check and mypy (what CI runs before the tests)
	ruff check catalog tests tools
	ruff format --check catalog tests tools
	mypy catalog

fix:  ## Let ruff fix and format what it can
	ruff check --fix catalog tests tools
	ruff format catalog tests tools

docs:  ## Build the static site strictly into build/site
	mkdocs build --strict

bench:  ## Benchmarks of the core, export and site
	$(PY) tools/bench.py
	-$(PY) tools/bench_export.py
	-$(PY) tools/bench_site.py

ci:  ## What CI runs
	bash .ci/run

.PHONY: help install quick test examples lint fix docs bench ci
