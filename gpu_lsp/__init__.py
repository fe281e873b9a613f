"""gpu-lsp: language server, linter, pass driver and runner for MLIR's GPU dialect."""

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether this install runs the parser and the checks compiled by mypyc (a wheel built by setup.py)."""
    from gpu_lsp.parser import lexer

    return not lexer.__file__.endswith(".py")
