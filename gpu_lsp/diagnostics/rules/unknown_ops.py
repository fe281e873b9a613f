"""GPU142: an op name its dialect does not define at the chosen `mlir-version`, in upstream's words."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import OP_NAMES
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.diagnostics.rules._util import at
from gpu_lsp.ir.opdefs import lookup

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
    gpu-lsp does not know stays opaque.

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
            continue
        dialect, dot, rest = op.name.partition(".")
        if not dot:
            if op.generic:
                continue
            # The default dialect of the enclosing op's regions (OpAsmOpInterface); most ops have none.
            parent = op.parent_op
            spec = lookup(parent.name) if parent is not None else None
            default = spec.default_dialect if spec is not None else None
            if not default:
                yield Violation(f"Dialect `' not found for custom op '{op.name}'  (tried '.{op.name}' as well)", at(op))
                continue
            known = OP_NAMES.at(ctx.mlir_version, default)
            if known is not None and op.name not in known:
                yield Violation(f"custom op '{op.name}' is unknown (tried '{default}.{op.name}' as well)", at(op))
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
