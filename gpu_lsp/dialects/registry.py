"""The registry of known operations and the traits analysis needs."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

# Traits (strings, like ODS trait names):
#   isolated       IsolatedFromAbove: values from outside are not visible inside
#   terminator     must end its block
#   symbol         defines a symbol (attribute `sym_name`)
#   symbol_table   holds a symbol table
#   async          implements gpu's AsyncOpInterface
#   pure           no memory side effects
#   no_terminator  its regions' blocks need no terminator (an empty region gets one block)
#   single_block   its first region has one block, created when written empty
#   graph          its regions are graph regions (no dominance)
#   function       implements FunctionOpInterface
#   return_like    returns control to its parent op


@dataclass
class OpSpec:
    """One operation: name, custom syntax reader and printer, traits and documentation."""

    name: str
    parse: Callable | None = None
    print: Callable | None = None
    traits: frozenset[str] = frozenset()
    summary: str = ""
    syntax: str = ""
    inherent: tuple[str, ...] = ()
    num_results: int | None = None
    extra: dict = field(default_factory=dict)

    def has(self, trait: str) -> bool:
        return trait in self.traits


OPS: dict[str, OpSpec] = {}

_DIALECT_MODULES = (
    "builtin", "func", "arith", "gpu", "memref", "scf", "cf", "math", "index", "async_", "vector", "llvm",
    "nvvm", "spirv", "affine", "tensor", "transform",
)
_loaded = False


def register(spec: OpSpec) -> OpSpec:
    """Add `spec` to the registry; a name registered twice is a programming error."""
    if spec.name in OPS:
        raise ValueError(f"operation {spec.name} registered twice")
    OPS[spec.name] = spec
    return spec


def op(name: str, traits: str = "", summary: str = "", syntax: str = "", inherent: tuple[str, ...] = (), printer: Callable | None = None):
    """Decorator registering a custom-syntax reader as an operation."""

    def wrap(fn: Callable) -> Callable:
        register(OpSpec(name, fn, printer, frozenset(traits.split()), summary, syntax, inherent))
        return fn

    return wrap


def load_all() -> None:
    """Import every dialect module once so that their ops register."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in _DIALECT_MODULES:
        importlib.import_module(f"gpu_lsp.dialects.{mod}")


def lookup(name: str) -> OpSpec | None:
    load_all()
    return OPS.get(name)


def op_names() -> frozenset[str]:
    load_all()
    return frozenset(OPS)


def has_trait(name: str, trait: str) -> bool:
    spec = lookup(name)
    return spec is not None and trait in spec.traits


def printer(name: str):
    """Decorator attaching a custom-form printer to a registered operation."""

    def wrap(fn: Callable) -> Callable:
        OPS[name].print = fn
        return fn

    return wrap
