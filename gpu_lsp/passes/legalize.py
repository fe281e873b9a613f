"""Legalize GPU host code for `gpu-to-llvm`: each async op waits on at most one token.

The lowering maps a token to a stream and, depending on the LLVM version, rejects a
`gpu.launch_func` with more than one dependency and a synchronous op with dependencies
(section 3 of the upstream reference; `mlir_versions` says which versions: at LLVM 23
it joins a launch's dependencies itself). This rewrite, offered as one fix-all, changes
only what the lowering of `mlir_version` does not take (what GPU201/GPU202 report):

* joins the dependencies of an op that has several: `%j = gpu.wait async [%a, %b]`
  right before it, which then depends on `%j` alone (gpu.wait itself may join);
* makes a synchronous op with dependencies async and blocks the host right after
  it with `gpu.wait [%token]`, which keeps its synchronous meaning
  (host-shared gpu.alloc cannot be async and is left alone);
* names async results written without a name (`gpu.wait async` -> `%t = gpu.wait async`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_lsp.diagnostics.mlir_versions import NEWEST, Lowering, dependencies_fact, sync_dependencies_fact
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.views import async_dependencies, async_token, is_async_op
from gpu_lsp.passes.rewriter import insert_after, insert_before, touch, wait_op


@dataclass
class LegalizeResult:
    joined: list[Operation] = field(default_factory=list)  # ops whose dependencies were joined
    made_async: list[Operation] = field(default_factory=list)  # synchronous ops made async
    named: list[Operation] = field(default_factory=list)  # ops whose unnamed async result gets a name

    @property
    def changed(self) -> bool:
        return bool(self.joined or self.made_async or self.named)


def _set_dependencies(op: Operation, deps: list) -> None:
    old = async_dependencies(op)
    op.set_operands(list(deps) + op.operands[len(old) :])
    seg = op.properties.get("operandSegmentSizes")
    if isinstance(seg, DenseArrayAttr):
        values = list(seg.values)
        values[0] = len(deps)
        op.properties["operandSegmentSizes"] = DenseArrayAttr(seg.element, tuple(values))
    touch(op)


def legalize(root: Operation, mlir_version: int = NEWEST) -> LegalizeResult:
    """Rewrite every async op nested in `root` that the lowering of `mlir_version` does not take, in place."""
    with paused_gc():
        return _legalize(root, mlir_version)


def _legalize(root: Operation, mlir_version: int) -> LegalizeResult:
    result = LegalizeResult()
    for op in list(root.walk()):
        if not is_async_op(op) or op.parent is None:
            continue
        if op.facts.unnamed_async is not None:
            result.named.append(op)
        if op.name == "gpu.wait":
            continue
        deps = async_dependencies(op)
        if len(deps) > 1 and dependencies_fact(op.name).at(mlir_version) is not Lowering.LOWERED:
            join = wait_op(deps, True, op.loc)
            insert_before(join, op)
            _set_dependencies(op, [join.results[0]])
            result.joined.append(op)
            deps = async_dependencies(op)
        lowered = sync_dependencies_fact(op.name).at(mlir_version) is Lowering.LOWERED
        if deps and async_token(op) is None and "hostShared" not in op.properties and not lowered:
            token = op.add_result(T.TOKEN)
            touch(op)
            insert_after(wait_op([token], False, op.loc), op)
            result.made_async.append(op)
    return result
