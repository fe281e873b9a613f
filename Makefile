# Developer entry points: `make demo`, `make test`.

PYTHON = python3
VENV = .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

# What `make demo` runs: gpu-opt on every valid example, then the diagnostics
# of examples/mistakes.mlir (expected, so they do not fail the target).
DEMO_CMD = for f in examples/*.mlir; do \
	  case $$f in */mistakes.mlir) continue;; esac; \
	  echo "==> gpu-opt $$f"; $(BIN)/gpu-opt $$f || exit 1; echo; \
	done; \
	echo "==> gpu-opt -split-input-file examples/mistakes.mlir (diagnostics expected)"; \
	$(BIN)/gpu-opt -split-input-file examples/mistakes.mlir || true

.PHONY: $(VENV) demo test clean

$(VENV): $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

demo: $(VENV)
	@$(DEMO_CMD)

test: $(VENV)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .lark_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
