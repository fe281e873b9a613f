"""GPU100, GPU103-GPU106: async naming, gpu.launch, gpu.launch_func and kernel resolution."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import LAUNCH_FUNC_ONE_ASYNC_MODEL
from gpu_lsp.diagnostics.model import Applicability, Related, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Phase, Stage, Violation, hook, rule
from gpu_lsp.diagnostics.rules._util import at, fix, op_error
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import UnitAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import OPS, lookup
from gpu_lsp.ir.symbols import SymbolTables, closest_module
from gpu_lsp.ir.views import FuncView, LaunchFuncView, LaunchView, async_dependencies, async_token, unnamed_async_range
from gpu_lsp.text import Edit, TextRange

CONTAINER_MODULE = "gpu.container_module"

ASYNC_OPS = tuple(sorted(name for name, spec in OPS.items() if spec.has("async")))


def _result_base(ty: T.Type) -> str:
    if isinstance(ty, (T.MemRefType, T.UnrankedMemRefType)):
        return "m"
    return "v"


@rule("GPU100", "unnamed-async-op", Severity.ERROR, ops=ASYNC_OPS, fix=FixAvailability.ALWAYS, upstream=True, phase=Phase.PARSE)
def unnamed_async_op(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports an op marked `async` whose results are not named: the `!gpu.async.token`
    the op returns has no name, so nothing can wait for it.

    ## Why is this bad?
    Upstream's parser rejects it: `custom op 'gpu.wait' needs to be named when marked
    'async'` (`gpu.launch`'s parser too, before its verifier could). Even if it were
    accepted, the work would run with nothing ever waiting for it.

    ## Example
    ```mlir
    gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```
    Use instead:
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    The fix names the results with fresh names (`%t`, `%t_0`, ...) that no value of the
    file uses. It is safe: naming a result changes nothing else. The token still needs a
    consumer (see GPU206).

    ## References
    - [`gpu` dialect: async operations](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    marker = unnamed_async_range(op)
    if marker is None:
        return
    message = f"custom op '{op.name}' needs to be named when marked 'async'"
    names = [ctx.fresh_token(op) if r.type.is_token else ctx.fresh_name(_result_base(r.type), op) for r in op.results]
    edits = []
    if names and op.range is not None:
        token = async_token(op)
        label = "the token" if len(names) == 1 and token is not None else "the results"
        edits.append(Edit(TextRange(op.range.start, op.range.start), ", ".join(f"%{n}" for n in names) + " = "))
        the_fix = fix(f"Name {label} `" + ", ".join(f"%{n}" for n in names) + "`", edits, Applicability.SAFE)
    else:
        the_fix = None
    yield Violation(message, marker, the_fix)


# --- gpu.launch ---------------------------------------------------------------------------------


@rule("GPU103", "invalid-launch", Severity.ERROR, ops=("gpu.launch",), upstream=True)
def invalid_launch(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs `gpu.launch`'s verifier: cluster sizes are all present or all absent, the body has
    at least the 12 launch-configuration arguments (18 with clusters, as llvm-project PR
    #198232 checks; older versions crash on too few) plus the workgroup attributions, and
    every block of the body that exits the kernel ends in `gpu.terminator`.

    ## Why is this bad?
    Upstream's verifier rejects the op, e.g. `expected 'gpu.terminator' or a terminator
    with successors` (with a note `in 'gpu.launch' body region`) when the body ends in
    `gpu.return` or `gpu.yield`.

    ## Example
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      "gpu.yield"() : () -> ()
    }
    ```
    Use instead:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.launch`](https://mlir.llvm.org/docs/Dialects/GPU/#gpulaunch-gpulaunchop)
    """
    segments = LaunchView(op).segments
    if segments is not None:
        present = [bool(segments[f"clusterSize{d}"]) for d in "XYZ"]
        if any(present) and not all(present):
            yield Violation(op_error(op, "cluster size must be all present"), at(op))


@hook("GPU103", ("gpu.launch",), Stage.REGIONS)
def _launch_regions(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    view = LaunchView(op)
    entry = view.entry
    # 6 ids and 6 sizes, 12 with clusters (llvm-project PR #198232 counts those; before it a launch
    # with clusters and 12 arguments crashed the verifier, the oracle's MLIR included).
    fixed = 18 if view.well_formed and view.has_clusters else 12
    if entry is not None and len(entry.arguments) < fixed + view.num_workgroup_attributions:
        yield Violation(op_error(op, "unexpected number of region arguments"), at(op))
        return
    body = view.body
    if body is None:
        return
    for block in body.blocks:
        if not block.operations:
            continue
        last = block.operations[-1]
        if last.successors or last.name == "gpu.terminator":
            continue
        note = Related("in 'gpu.launch' body region", at(op))
        yield Violation("expected 'gpu.terminator' or a terminator with successors", at(last), related=(note,))
        return


# --- gpu.launch_func ----------------------------------------------------------------------------


# GPU105's code: its error stops the verification of the whole module.
KERNEL_REFERENCE = "GPU105"


def is_container_module(module: Operation) -> bool:
    return isinstance(module.attributes.get(CONTAINER_MODULE), UnitAttr)


@rule("GPU104", "invalid-launch-func", Severity.ERROR, ops=("gpu.launch_func",), upstream=True)
def invalid_launch_func(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs `gpu.launch_func`'s verifier: the op is inside a `builtin.module`, the closest
    module carries the `gpu.container_module` attribute, and the three cluster sizes have
    one type. From LLVM 23 on (llvm-project PR #196012, after the oracle's commit) the op
    may not take both async dependencies (`async [%t]`) and an async object
    (`<%stream : !llvm.ptr>`): they are two async models, and the lowering used the
    dependency's stream and ignored the object. The message of that check is ours (the
    PR's wording was not read); with `mlir-version` 22 or older it is not made.

    ## Why is this bad?
    Upstream's verifier rejects the op: `expected the closest surrounding module to have
    the 'gpu.container_module' attribute`. The attribute tells the compiler that the
    module holds kernel containers (`gpu.module`/`gpu.binary`) whose symbols launches
    refer to; `gpu-kernel-outlining` sets it.

    ## Example
    ```mlir
    module {
      gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
      func.func @main(%c1: index) {
        gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        return
      }
    }
    ```
    Use instead: `module attributes {gpu.container_module} { ... }`.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.launch_func`](https://mlir.llvm.org/docs/Dialects/GPU/#gpulaunch_func-gpulaunchfuncop)
    """
    module = closest_module(op)
    if module is None:
        yield Violation(op_error(op, "expected to belong to a module"), at(op))
        return
    if not is_container_module(module):
        yield Violation(
            op_error(op, f"expected the closest surrounding module to have the '{CONTAINER_MODULE}' attribute"), at(op)
        )
        return
    view = LaunchFuncView(op)
    clusters = view.cluster_sizes
    if len(clusters) == 3 and not (clusters[0].type == clusters[1].type == clusters[2].type):
        yield Violation(op_error(op, "expects types of the cluster dimensions must be the same"), at(op))
    if LAUNCH_FUNC_ONE_ASYNC_MODEL.at(ctx.mlir_version) and async_dependencies(op) and view.async_object is not None:
        yield Violation(op_error(op, "cannot take both async dependencies and an async object"), at(op))


def kernel_problem(launch: Operation, module: Operation, symbols: SymbolTables, explain: bool = False) -> Violation | None:
    """The first problem with the kernel `launch` refers to, resolved in `module`, as upstream checks it.

    `explain` adds a note naming both types to a type mismatch (upstream has none; mlir-opt's
    -verify-diagnostics would count it as unexpected)."""
    view = LaunchFuncView(launch)
    kernel = view.kernel
    if kernel is None:
        return None
    container = symbols.lookup_in(module, kernel.root)
    if container is None:
        return Violation(op_error(launch, f"kernel container '{kernel.root}' is undefined"), at(launch))
    if container.name == "gpu.binary":
        return None
    if container.name != "gpu.module":
        return Violation(op_error(launch, f"kernel module '{kernel.root}' is undefined"), at(launch))
    func = symbols.lookup_in(module, kernel)
    if func is None:
        return Violation(op_error(launch, f"kernel function '{kernel}' is undefined"), at(launch))
    spec = lookup(func.name)
    if spec is None or not spec.has("function"):
        note = Related("see the kernel definition here", at(func))
        return Violation(op_error(launch, f"referenced kernel '{kernel}' is not a function"), at(launch), related=(note,))
    if not (isinstance(func.attributes.get("gpu.kernel"), UnitAttr) or (func.name == "gpu.func" and FuncView(func).is_kernel)):
        return Violation(op_error(launch, "kernel function is missing the 'gpu.kernel' attribute"), at(launch))
    if func.name != "gpu.func":
        return None
    fn_type = FuncView(func).function_type
    if fn_type is None:
        return None
    operands = view.kernel_operands
    if len(operands) != len(fn_type.inputs):
        return Violation(
            op_error(launch, f"got {len(operands)} kernel operands but expected {len(fn_type.inputs)}"), at(launch)
        )
    for i, (value, expected) in enumerate(zip(operands, fn_type.inputs)):
        if value.type != expected and not isinstance(value.type, T.UnknownType):
            notes = (Related(f"argument {i} is passed as '{value.type}', and '{kernel}' takes '{expected}'", at(func)),)
            message = op_error(launch, f"type of function argument {i} does not match")
            return Violation(message, at(launch), related=notes if explain else ())
    return None


@rule(KERNEL_REFERENCE, "invalid-kernel-reference", Severity.ERROR, ops=("builtin.module",), upstream=True, stage=Stage.ATTRIBUTES, whole_module=True)
def invalid_kernel_reference(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    In a module marked `gpu.container_module`, checks what each `gpu.launch_func` in the
    body of one of its functions refers to: the kernel container (`@kernels` of
    `@kernels::@k`) is a `gpu.module` or `gpu.binary`, the kernel is defined in it, is a
    function and carries `gpu.kernel`, and (for a `gpu.func`) takes as many arguments, of
    the same types, as the launch passes.

    ## Why is this bad?
    Upstream's verifier rejects the module, e.g. `kernel function '@kernels::@k' is
    undefined` or `got 2 kernel operands but expected 1`; a type mismatch has a note naming
    both types. Like upstream, `gpu-opt` reports only the first problem of a module;
    `gpu-lint` and the editor report every bad launch. The ops inside the module are not
    verified further.

    ## Example
    ```mlir
    module attributes {gpu.container_module} {
      gpu.module @kernels {
        gpu.func @k(%x: f32) kernel { gpu.return }
      }
      func.func @main(%c1: index, %m: memref<4xf32>) {
        gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
        return
      }
    }
    ```
    Use instead: pass the arguments `@k` declares (`args(%x : f32)`).

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.launch_func`](https://mlir.llvm.org/docs/Dialects/GPU/#gpulaunch_func-gpulaunchfuncop)
    """
    if is_container_module(op):
        yield from kernel_references(op, ctx)


def kernel_references(module: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """GPU105's findings on the launches of the rules' view (`ctx.module`: the container `module`,
    or one op of its body an incremental lint sets), their kernels resolved in `module`."""
    for launch in ctx.index.named("gpu.launch_func"):
        parent = launch.parent_op
        if parent is None or parent.parent_op is not module or launch.get_attr("kernel") is None:
            continue
        problem = kernel_problem(launch, module, ctx.symbols, ctx.exhaustive)
        if problem is not None:
            yield problem
            if not ctx.exhaustive:
                return


@rule("GPU106", "nested-kernel-mismatch", Severity.ERROR, ops=("gpu.launch_func",), whole_module=True)
def nested_kernel_mismatch(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Applies GPU105's checks (kernel container, kernel function, `gpu.kernel`, number and
    types of kernel operands) to a `gpu.launch_func` nested deeper than directly in a
    function body: inside `scf.for`, `scf.if`, `async.execute`, a `cf` block of a nested
    region, and so on. Upstream only checks launches directly in a top-level function.

    ## Why is this bad?
    The module verifies, but the launch passes arguments that do not match the kernel, or
    names a kernel that does not exist: the lowering or the run fails much later, far from
    the mistake.

    ## Example
    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    }
    ```
    where `@k` takes one `f32`. Use instead: pass what `@k` declares.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.launch_func`](https://mlir.llvm.org/docs/Dialects/GPU/#gpulaunch_func-gpulaunchfuncop)
    """
    module = closest_module(op)
    if module is None or not is_container_module(module) or op.get_attr("kernel") is None:
        return
    parent = op.parent_op
    if parent is not None and parent.parent_op is module:
        return
    problem = kernel_problem(op, module, ctx.symbols, ctx.exhaustive)
    if problem is not None:
        yield problem
