"""Custom-form printers, one module per dialect; importing this package registers them all."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from gpu_lsp.dialects import registry

_MODULES = ("builtin", "func", "arith", "gpu", "memref", "scf", "cf", "math", "index", "vector", "llvm", "async_", "transform", "affine")


def printer(*names: str):
    """Attach `fn(p, op)` as the custom printer of every listed op that has a syntax reader."""

    def wrap(fn: Callable) -> Callable:
        for name in names:
            if name in registry.OPS:
                registry.printer(name)(fn)
        return fn

    return wrap


def _load() -> None:
    registry.load_all()
    for mod in _MODULES:
        importlib.import_module(f"{__name__}.{mod}")


_load()
