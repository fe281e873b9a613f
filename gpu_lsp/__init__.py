"""gpu-lsp: language server, linter, pass driver and runner for MLIR's GPU dialect."""

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether this install runs the parser and the checks compiled by mypyc (a wheel built by setup.py)."""
    from importlib.util import find_spec

    spec = find_spec("gpu_lsp.syntax.lexer")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")
