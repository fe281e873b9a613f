"""GPU416, GPU417: data races between the threads of a kernel and accesses outside a buffer, with a witness."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name
from gpu_lsp.diagnostics.sanitizer.accesses import WORKGROUP, Access, access_layout
from gpu_lsp.diagnostics.sanitizer.kernel_checks import cached_verdicts
from gpu_lsp.diagnostics.sanitizer.undecided import undecided_accesses
from gpu_lsp.diagnostics.sanitizer.verdicts import Verdicts
from gpu_lsp.diagnostics.sanitizer.witness import Witness
from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.traits import constant_int
from gpu_lsp.ir.views import FuncView

_VERBS = {"read": "reads", "write": "writes", "atomic": "updates atomically"}
_DEVICE = ("gpu.func", "gpu.launch", "gpu.module")


def is_checked_kernel(op: Operation) -> bool:
    """A `gpu.func` kernel with a body, or a `gpu.launch`: the kernel bodies GPU416/417 analyse."""
    if op.name == "gpu.launch":
        return True
    return FuncView(op).is_kernel and bool(op.regions) and bool(op.regions[0].blocks)


def _launch_text(verdicts: Verdicts) -> str:
    """The launch a witness holds for: sizes, and the parameters the launch sites pass as constants."""
    launch = verdicts.launch
    block, grid = launch.block, launch.grid
    if None in block or None in grid:
        return ""
    params = "".join(f", {value_name(arg)} = {value}" for arg, value in launch.params.items())
    return f" (launch: block ({', '.join(map(str, block))}), grid ({', '.join(map(str, grid))}){params})"


def _element(access: Access, witness: Witness) -> str:
    return f"`{value_name(access.root)}[{', '.join(map(str, witness.element))}]`"


@rule("GPU416", "kernel-data-race", Severity.WARNING, ops=("gpu.func", "gpu.launch"), whole_module=True)
def kernel_data_race(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Finds two threads of one kernel launch that touch the same element of a buffer, at
    least one writing and not both atomically, with nothing ordering them: threads of one
    block between the same two `gpu.barrier`s (a barrier orders only the address spaces
    its `memfence` names, all of them when it names none), or threads of different blocks
    on global memory (a barrier never orders those). Each load, store, atomic and vector
    access of the kernel body, device functions it calls included, is modelled with its
    index, its barrier interval and the conditions and loops around it; thread and block
    ids range over the launch sizes the launch sites pass, and a parameter every launch
    site passes as the same constant takes that value. The z3 SMT solver decides each pair
    within 200 ms: the warning names a witness (both threads, the element, the launch) and
    the other access. What the solver cannot decide, or what depends on a value the model
    does not know (a loaded value, a parameter passed differently, an unknown launch size),
    is never a warning (with `report-undecided`, an info saying why); hover on the kernel
    says which accesses are proven race-free.

    ## Why is this bad?
    The value read or left behind depends on how the threads are scheduled: a data race,
    which compute-sanitizer's racecheck finds only at run time, for the inputs that ran.

    ## Example
    ```mlir
    %tid = gpu.thread_id x
    memref.store %v, %out[%c0] : memref<64xf32>
    ```
    Use instead: give each thread its own element (or use `memref.atomic_rmw`):
    ```mlir
    %tid = gpu.thread_id x
    memref.store %v, %out[%tid] : memref<64xf32>
    ```

    ## Fix safety
    There is no fix: whether a barrier, an atomic or another index is meant is the author's choice.

    ## References
    - [`gpu.barrier`](https://mlir.llvm.org/docs/Dialects/GPU/#gpubarrier-gpubarrierop)
    - [compute-sanitizer racecheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#racecheck-tool)
    - [GPUVerify](https://multicore.doc.ic.ac.uk/tools/GPUVerify/)
    """
    if not is_checked_kernel(op):
        return
    verdicts = cached_verdicts(op, ctx)
    launch = _launch_text(verdicts) if verdicts.races else ""
    for race in verdicts.races:
        a, b, w = race.first, race.second, race.witness
        order = "in the same barrier interval" if a.space == WORKGROUP or w.blocks[0] == w.blocks[1] else "and threads of different blocks are never ordered"
        yield Violation(
            f"data race on {_element(a, w)}: {w.thread(0)} {_VERBS[a.kind]} it here (`{a.op.name}`) and "
            f"{w.thread(1)} {_VERBS[b.kind]} it (`{b.op.name}`) {order}{launch}",
            at(a.op),
            related=(Related(f"{w.thread(1)} {_VERBS[b.kind]} {_element(a, w)} here", at(b.op)),),
        )
    if ctx.report_undecided:
        for access, reason in undecided_accesses(verdicts, bounds=False):
            yield Violation(f"undecided: whether `{access.op.name}` races with another access is not decided: {reason}", at(access.op), severity=Severity.INFO)


@rule("GPU417", "out-of-bounds-access", Severity.WARNING, ops=("gpu.func", "gpu.launch", "memref.load", "memref.store"), whole_module=True)
def out_of_bounds_access(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Finds loads, stores, atomics and vector loads and stores whose index leaves the static
    shape of the memref. In kernel bodies (device functions they call included) the index
    is modelled like GPU416's: a thread whose ids fit the launch sizes, on the path the
    conditions and loops around the access allow, reaches an element outside the shape,
    and the warning names that thread and element. In host code, constant indices into
    static shapes are checked. Dynamic sizes, indices the model does not know and what the
    solver cannot decide within its time limit are never a warning (with `report-undecided`,
    an info saying why).

    ## Why is this bad?
    An access outside a buffer reads garbage or overwrites another allocation; on a GPU it
    may pass unnoticed on one run and fault on the next (compute-sanitizer's memcheck).

    ## Example
    ```mlir
    %tid = gpu.thread_id x
    %v = memref.load %buf[%tid] : memref<16xf32>   // launched with 64 threads per block
    ```
    Use instead: guard the access by the size (or size the buffer to the launch):
    ```mlir
    %inside = arith.cmpi ult, %tid, %c16 : index
    scf.if %inside {
      %v = memref.load %buf[%tid] : memref<16xf32>
    }
    ```

    ## Fix safety
    There is no fix: whether the buffer, the launch or the index is wrong is the author's choice.

    ## References
    - [`memref.load`](https://mlir.llvm.org/docs/Dialects/MemRef/#memrefload-memrefloadop)
    - [compute-sanitizer memcheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#memcheck-tool)
    """
    if op.name in ("memref.load", "memref.store"):
        yield from _host_bounds(op)
        return
    if not is_checked_kernel(op):
        return
    verdicts = cached_verdicts(op, ctx)
    launch = _launch_text(verdicts) if verdicts.out_of_bounds else ""
    for found in verdicts.out_of_bounds:
        a, w = found.access, found.witness
        shape = "x".join("?" if d is None else str(d) for d in a.shape)
        span = f" to {w.element[-1] + a.width - 1}" if a.width > 1 else ""
        yield Violation(
            f"out-of-bounds access: {w.thread(0)} {_VERBS[a.kind]} {_element(a, w)}{span} outside the shape {shape}{launch}",
            at(a.op),
        )
    if ctx.report_undecided:
        for access, reason in undecided_accesses(verdicts, bounds=True):
            yield Violation(f"undecided: whether `{access.op.name}` stays inside its buffer is not decided: {reason}", at(access.op), severity=Severity.INFO)


def _host_bounds(op: Operation) -> Iterator[Violation]:
    if any(a.name in _DEVICE for a in op.ancestors()):
        return
    layout = access_layout(op)
    if layout is None:
        return
    memref_at, first, kind = layout
    ty = op.operands[memref_at].type
    if not isinstance(ty, T.MemRefType):
        return
    indices = op.operands[first:]
    for axis, (index, size) in enumerate(zip(indices, ty.shape)):
        value = constant_int(index)
        if value is None or size is None or 0 <= value < size:
            continue
        yield Violation(
            f"out-of-bounds access: host code {_VERBS[kind]} `{value_name(op.operands[memref_at])}` at index {value} "
            f"of dimension {axis}, outside the shape {'x'.join('?' if d is None else str(d) for d in ty.shape)}",
            at(op),
        )
        return
