# Two entry points that work on a fresh machine with Python 3.11+ and make:
#   make site   -> .venv, install, build docs/ into docs/_build/html (warnings are errors)
#   make test   -> .venv, install, run the fast tier of the tests (make test-slow: the rest;
#                  make test-all: every test; CI runs make test and make test-slow)
#   make site-zh, make pdf (latexmk; TeX from .ci/run's apt-get line), make pdf-zh (xelatex)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: site site-zh site-pot pdf pdf-zh test test-slow test-all test-sphinx8 test-pythons site-test bench registry lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e ".[docs,test,ipython]"
	touch $(STAMP)

site: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

site-zh: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -b html -D language=zh_CN docs docs/_build/html-zh

# After editing the site's pages or the generator's phrases: refresh docs/locales/*/LC_MESSAGES/*.po.
site-pot: $(STAMP)
	$(BIN)/sphinx-build -q -b gettext docs docs/_build/gettext
	$(BIN)/python docs/_ext/catalogs.py docs/_build/gettext

# The English PDF (latexmk + pdflatex): docs/_build/latex/sphinx-llmstatus.pdf.
pdf: $(STAMP)
	$(BIN)/sphinx-build -M latexpdf docs docs/_build -W --keep-going -q

# The Chinese PDF (xelatex + xeCJK, Noto CJK fonts): docs/_build/latex-zh/sphinx-llmstatus.pdf.
pdf-zh: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -b latex -D language=zh_CN docs docs/_build/latex-zh -q
	$(MAKE) -C docs/_build/latex-zh all-pdf LATEXMKOPTS="-interaction=nonstopmode -halt-on-error"

# Tiers by marker (pyproject.toml): the whole site, the wheel, Chromium and the PDF are the slow tier.
TIER_SLOW := slow or browser or pdf

test: $(STAMP)
	$(BIN)/python -m pytest -m "not ($(TIER_SLOW))"

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m "$(TIER_SLOW)"

test-all: $(STAMP)
	$(BIN)/python -m pytest

# ruff and mypy, configured in pyproject.toml ([tool.ruff], [tool.mypy]).
$(VENV)/.lint-installed: $(STAMP)
	$(BIN)/python -m pip install -q -e ".[lint]"
	touch $@

lint: $(VENV)/.lint-installed
	$(BIN)/ruff check .
	$(BIN)/mypy

# The previous major Sphinx (8.x, with the docutils it supports): registry and Sphinx tests.
VENV8 := .venv-sphinx8
$(VENV8)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV8)
	$(VENV8)/bin/python -m pip install -q --upgrade pip
	$(VENV8)/bin/python -m pip install -q -e ".[test]" "sphinx>=8,<9" "docutils>=0.20,<0.22"
	touch $@

test-sphinx8: $(VENV8)/.installed
	$(VENV8)/bin/python -m pytest -q tests/test_registry_seeds.py tests/test_registry_loader.py tests/test_lookup.py tests/test_sphinx_*.py

# The other Python versions the package supports, where this machine has them (each skipped with a
# message otherwise): the registry, lookup, command, scanner, magic and Sphinx build tests.
PYTHONS ?= python3.12 python3.13
CORE_TESTS := tests/test_registry_loader.py tests/test_registry_schema.py tests/test_lookup.py tests/test_cli.py \
	tests/test_scan.py tests/test_scan_hostile.py tests/test_scan_inputs.py tests/test_magic.py tests/test_sphinx_build.py
test-pythons:
	@for name in $(PYTHONS); do \
	  py=$$name; $$py -c "" 2>/dev/null || py=$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/*/bin/$$name 2>/dev/null | tail -1); \
	  if [ -n "$$py" ] && $$py -c "import sys; sys.exit(sys.version_info < (3, 11))" 2>/dev/null; then \
	    v=.venv-$$name; \
	    [ -f $$v/.installed ] || { $$py -m venv $$v && $$v/bin/python -m pip install -q --upgrade pip \
	      && $$v/bin/python -m pip install -q -e ".[test,ipython]" && touch $$v/.installed; } || exit 1; \
	    echo "test-pythons: $$($$v/bin/python --version)"; \
	    $$v/bin/python -m pytest -q -p no:cacheprovider $(CORE_TESTS) || exit 1; \
	  else echo "test-pythons: $$name is not on this machine: skipped"; fi; \
	done

# The site and its browser tests only.
site-test: $(STAMP)
	$(BIN)/python -m pytest tests/test_site.py tests/test_browser.py

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# After editing sphinx_llmstatus/registry/data/registry.toml: refresh the pre-parsed copy.
registry: $(STAMP)
	$(BIN)/python -m sphinx_llmstatus.registry.compile

clean:
	rm -rf docs/_build .pytest_cache
