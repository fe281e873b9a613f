"""gpu-lsp: language server, linter, pass driver and runner for MLIR's GPU dialect."""

__version__ = "0.1.0"
