"""GPU142: an op name its dialect does not define at the chosen `mlir-version`, in upstream's words."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import OP_NAMES
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.diagnostics.rules._util import at
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import lookup

# The dialects whose ops the parser also reads without their prefix outside their own regions
# (parser/builder.py), as MLIR did before LLVM 15 split `func` out of the standard dialect.
_UNPREFIXED = ("builtin", "func")
FUNC_DIALECT_SINCE = 15

# Dialects whose generic form accepts op names they do not define (`allowUnknownOperations`).
_OPEN_DIALECTS = frozenset(("llvm", "nvvm", "rocdl", "spirv"))


@rule("GPU142", "unknown-op", Severity.ERROR, upstream=True, phase=Phase.PARSE)
def unknown_op(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports an op whose dialect has no op of that name with the chosen `mlir-version`:
    upstream's `custom op 'llvm.ptr' is unknown`, `custom op 'attributes' is unknown (tried
    'builtin.attributes' as well)`, or for the generic form of a dialect that allows no
    unknown ops, `unregistered operation 'arith.foo' found in dialect ('arith') that does
    not allow unknown operations`. It applies to the dialects and versions whose op lists
    are known (`OP_NAMES` in gpu_lsp/diagnostics/mlir_versions.py); elsewhere an op
    gpu-lsp does not know stays opaque. From LLVM 15 on, also a `func` op written without
    its dialect outside a function (`return` at the top level), which older MLIR read.

    ## Why is this bad?
    Upstream's parser stops at the op: the name is misspelt, is a type or attribute of the
    dialect (`llvm.ptr`, `nvvm.target`), or belongs to another LLVM version.

    ## Example
    ```mlir
    %p = llvm.ptr : !llvm.ptr
    ```
    Use instead: an op of the dialect, such as `%p = llvm.mlir.zero : !llvm.ptr`.

    ## Fix safety
    There is no fix: which op was meant is for the author to say.

    ## References
    - [LLVM dialect ops](https://mlir.llvm.org/docs/Dialects/LLVM/#operations)
    """
    for op in ctx.index.ops:
        if op.known:
            if _unprefixed_elsewhere(op, ctx):
                yield _not_in_default_dialect(op, op.name.partition(".")[2])
            continue
        dialect, dot, rest = op.name.partition(".")
        if not dot:
            if op.generic:
                continue
            default = _default_dialect(op)
            known = OP_NAMES.at(ctx.mlir_version, default) if default else None
            if not default or (known is not None and op.name not in known):
                yield _not_in_default_dialect(op, op.name)
            continue
        known = OP_NAMES.at(ctx.mlir_version, dialect)
        if known is None or rest in known:
            continue
        if not op.generic:
            yield Violation(f"custom op '{op.name}' is unknown", at(op))
        elif dialect not in _OPEN_DIALECTS:
            yield Violation(
                f"unregistered operation '{op.name}' found in dialect ('{dialect}') "
                "that does not allow unknown operations",
                at(op),
            )


def _default_dialect(op: Operation) -> str | None:
    """The default dialect of the enclosing op's regions (OpAsmOpInterface); most ops have none."""
    parent = op.parent_op
    if parent is None:  # the top level, as upstream's parser starts
        return "builtin"
    spec = lookup(parent.name)
    return spec.default_dialect if spec is not None else None


def _unprefixed_elsewhere(op: Operation, ctx: RuleContext) -> bool:
    """A `func`/`builtin` op written without its dialect where that is not the default dialect
    (`return` at the top level): the parser reads it as pre-LLVM-15 MLIR did, upstream no longer."""
    dialect = op.name.partition(".")[0]
    if op.generic or dialect not in _UNPREFIXED or ctx.text is None or ctx.mlir_version < FUNC_DIALECT_SINCE:
        return False
    rng = op.name_range
    return rng is not None and "." not in ctx.text[rng.start : rng.end] and _default_dialect(op) != dialect


def _not_in_default_dialect(op: Operation, word: str) -> Violation:
    default = _default_dialect(op)
    if not default:
        return Violation(f"Dialect `' not found for custom op '{word}'  (tried '.{word}' as well)", at(op))
    return Violation(f"custom op '{word}' is unknown (tried '{default}.{word}' as well)", at(op))
