# The two commands of the README. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	SEMEDORI_HOME=$${SEMEDORI_HOME:-$(CURDIR)/.demo} $(BIN)/semedori run-demo

test: $(STAMP)
	$(BIN)/ruff check kiosk web display tests bench
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .demo tests/artifacts
