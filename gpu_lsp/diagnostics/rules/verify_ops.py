"""GPU110-GPU116: verifiers of gpu's collective, lane, memory, MMA and module-level ops and attributes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Stage, Violation, hook, rule
from gpu_lsp.diagnostics.rules._util import at, element_type, op_error, q
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, DialectAttr, IntegerAttr, OpaqueAttr, UnitAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.symbols import is_symbol_table
from gpu_lsp.ir.views import AllocView
from gpu_lsp.syntax.types import TypeSyntaxError, parse_type

FLOAT_ONLY_KINDS = ("minnumf", "maxnumf", "minimumf", "maximumf")
INT_ONLY_KINDS = ("minsi", "minui", "maxsi", "maxui", "and", "or", "xor")


def _kind(op: Operation) -> str | None:
    attr = op.get_attr("op")
    if isinstance(attr, DialectAttr) and attr.body:
        return attr.body.split()[-1]
    return None


def _kind_mismatch(kind: str, ty: T.Type) -> bool:
    if kind in FLOAT_ONLY_KINDS:
        return not isinstance(ty, T.FloatType)
    if kind in INT_ONLY_KINDS:
        return not isinstance(ty, T.IntegerType)
    return False


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _known(ty: T.Type) -> bool:
    return not isinstance(ty, T.UnknownType)


def _first_known_type(values: Sequence[Value]) -> T.Type | None:
    """The type of the first of `values`; None when there is none or it could not be read."""
    return values[0].type if values and _known(values[0].type) else None


# --- reductions ---------------------------------------------------------------------------------


@rule("GPU110", "invalid-reduction", Severity.ERROR, ops=("gpu.all_reduce", "gpu.subgroup_reduce"), upstream=True)
def invalid_reduction(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs the verifiers of `gpu.all_reduce` and `gpu.subgroup_reduce` (the value's type,
    an integer or float or, for `subgroup_reduce`, a 1-D vector of them, is GPU141's): a
    `subgroup_reduce` vector is fixed-length, the reduction kind suits the element type (`minsi`/`and`/... need integers,
    `minnumf`/`maximumf`/... floats), a cluster size and stride are powers of two, and an
    `all_reduce` has either a kind or a well-formed region (two arguments of the value's
    type, ending in `gpu.yield` of one such value), not both.

    ## Why is this bad?
    Upstream's verifier rejects the op, e.g. `` `minsi` reduction operation is not
    compatible with type 'f32' ``.

    ## Example
    ```mlir
    %r = gpu.all_reduce and %x {} : (f32) -> (f32)
    ```
    Use instead: a kind that exists for floats, or reduce the bit pattern as an integer.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.all_reduce`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuall_reduce-gpuallreduceop)
    - [`gpu.subgroup_reduce`](https://mlir.llvm.org/docs/Dialects/GPU/#gpusubgroup_reduce-gpusubgroupreduceop)
    """
    ty = _first_known_type(op.operands)
    if ty is None or op.name == "gpu.all_reduce":
        return
    elem = ty
    if isinstance(ty, T.VectorType):
        if any(ty.scalable):
            yield Violation(op_error(op, "is not compatible with scalable vector types"), at(op))
            return
        elem = ty.element
    kind = _kind(op)
    if kind is not None and _kind_mismatch(kind, elem):
        yield Violation(f"`{kind}` reduction operation is not compatible with type {q(ty)}", at(op))
        return
    size_attr = op.get_attr("cluster_size")
    stride_attr = op.get_attr("cluster_stride")
    size = size_attr.value if isinstance(size_attr, IntegerAttr) else None
    stride = stride_attr.value if isinstance(stride_attr, IntegerAttr) else 1
    if size is not None and not _power_of_two(size):
        yield Violation(op_error(op, f"cluster size {size} is not a power of two"), at(op))
    elif not _power_of_two(stride):
        yield Violation(op_error(op, f"cluster stride {stride} is not a power of two"), at(op))
    elif stride != 1 and size is None:
        yield Violation(op_error(op, "cluster stride can only be specified if cluster size is specified"), at(op))


@hook("GPU110", ("gpu.all_reduce",), Stage.REGIONS)
def _all_reduce_regions(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    if not op.results or not op.regions:
        return
    ty = op.results[0].type
    body = op.regions[0]
    kind = _kind(op)
    if (not body.blocks) != (kind is not None):
        yield Violation("expected either an op attribute or a non-empty body", at(op))
        return
    if body.blocks:
        args = body.blocks[0].arguments
        if len(args) != 2:
            yield Violation("expected two region arguments", at(op))
            return
        if any(a.type != ty for a in args):
            yield Violation("incorrect region argument type", at(op))
            return
        yields = 0
        for block in body.blocks:
            last = block.operations[-1] if block.operations else None
            if last is not None and last.name == "gpu.yield":
                if len(last.operands) != 1:
                    yield Violation("expected one gpu.yield operand", at(op))
                    return
                if last.operands[0].type != ty:
                    yield Violation("incorrect gpu.yield type", at(op))
                    return
                yields += 1
        if yields == 0:
            yield Violation("expected gpu.yield op in region", at(op))
    elif kind is not None and _kind_mismatch(kind, ty):
        yield Violation(f"`{kind}` reduction operation is not compatible with type {q(ty)}", at(op))


# --- lane ops -----------------------------------------------------------------------------------


@rule("GPU111", "invalid-lane-op", Severity.ERROR, ops=("gpu.rotate", "gpu.subgroup_broadcast"), upstream=True)
def invalid_lane_op(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs the verifiers of the ops that move values between lanes (their types, such as
    `gpu.shuffle` returning the type it shuffles, are GPU141's): `gpu.rotate`'s offset is
    below its width; `gpu.subgroup_broadcast` takes a lane exactly when it is
    `specific_lane`.

    ## Why is this bad?
    Upstream's verifier rejects the op, e.g. `'gpu.rotate' op offset must be in the range
    [0, 16)`: a lane cannot read past the width it rotates within.

    ## Example
    ```mlir
    %r, %ok = gpu.rotate %x, 16, 16 : f32
    ```
    Use instead: an offset below the width, `gpu.rotate %x, 1, 16 : f32`.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.rotate`](https://mlir.llvm.org/docs/Dialects/GPU/#gpurotate-gpurotateop)
    """
    if op.name == "gpu.rotate":
        offset, width = op.get_attr("offset"), op.get_attr("width")
        if isinstance(offset, IntegerAttr) and isinstance(width, IntegerAttr) and offset.value >= width.value:
            yield Violation(op_error(op, f"offset must be in the range [0, {width.value})"), at(op))
    else:
        kind = op.get_attr("broadcast_type")
        specific = isinstance(kind, DialectAttr) and (kind.body or "").endswith("specific_lane")
        has_lane = len(op.operands) > 1
        if has_lane and not specific:
            yield Violation(op_error(op, "lane can only be specified for `specific_lane` broadcast"), at(op))
        elif specific and not has_lane:
            yield Violation(op_error(op, "lane must be specified for `specific_lane` broadcast"), at(op))


# --- memory ops ---------------------------------------------------------------------------------


def _compatible_shapes(a: T.Type, b: T.Type) -> bool:
    shape_a = getattr(a, "shape", None)
    shape_b = getattr(b, "shape", None)
    if shape_a is None or shape_b is None:
        return True  # unranked: compatible with anything
    if len(shape_a) != len(shape_b):
        return False
    return all(x is None or y is None or x == y for x, y in zip(shape_a, shape_b))


_AFFINE_SYMBOLS = re.compile(r"^affine_map<\([^)]*\)\s*\[([^\]]*)\]")


def layout_symbols(ctx: RuleContext, ty: T.MemRefType) -> int:
    """Number of symbols of the memref's layout map (0 for the identity layout)."""
    layout = resolve_alias(ctx, ty.layout)
    if layout is None:
        return 0
    text = str(layout)
    m = _AFFINE_SYMBOLS.match(text)
    if m:
        return len([s for s in m.group(1).split(",") if s.strip()])
    if text.startswith("strided<"):
        return text.count("?")
    return 0


@rule("GPU112", "invalid-memory-op", Severity.ERROR, ops=("gpu.memcpy", "gpu.alloc"), upstream=True)
def invalid_memory_op(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs the verifiers of `gpu.memcpy` (source and destination have the same element type
    and compatible shapes) and `gpu.alloc` (one size operand per `?` of the memref type,
    one symbol operand per symbol of its layout); `gpu.memset`'s value of the buffer's
    element type is GPU141's.

    ## Why is this bad?
    Upstream's verifier rejects the op, e.g. `'gpu.alloc' op dimension operand count does
    not equal memref dynamic dimension count`. A copy between buffers of different
    element types or shapes would copy the wrong number of bytes.

    ## Example
    ```mlir
    %m = gpu.alloc (%n, %n) : memref<4x?xf32>
    ```
    Use instead:
    ```mlir
    %m = gpu.alloc (%n) : memref<4x?xf32>
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.memcpy`](https://mlir.llvm.org/docs/Dialects/GPU/#gpumemcpy-gpumemcpyop)
    - [`gpu.alloc`](https://mlir.llvm.org/docs/Dialects/GPU/#gpualloc-gpuallocop)
    """
    if op.name == "gpu.alloc":
        view = AllocView(op)
        memref = view.memref
        if memref is None or not isinstance(memref.type, T.MemRefType) or view.segments is None:
            return
        ty = memref.type
        if len(view.dynamic_sizes) != ty.num_dynamic_dims:
            yield Violation(op_error(op, "dimension operand count does not equal memref dynamic dimension count"), at(op))
        elif len(view.symbol_operands) != layout_symbols(ctx, ty):
            yield Violation(op_error(op, "symbol operand count does not equal memref symbol count"), at(op))
        return
    if len(op.operands) < 2:
        return
    dst, src = op.operands[-2].type, op.operands[-1].type
    if not (_known(dst) and _known(src)):
        return
    if element_type(src) != element_type(dst):
        yield Violation(op_error(op, "arguments have incompatible element type"), at(op))
    elif not _compatible_shapes(src, dst):
        yield Violation(op_error(op, "arguments have incompatible shape"), at(op))


# --- MMA ----------------------------------------------------------------------------------------

MMA_OPS = (
    "gpu.subgroup_mma_load_matrix",
    "gpu.subgroup_mma_store_matrix",
    "gpu.subgroup_mma_compute",
    "gpu.subgroup_mma_constant_matrix",
    "gpu.subgroup_mma_elementwise",
    "gpu.subgroup_mma_extract_thread_local",
    "gpu.subgroup_mma_insert_thread_local",
)


class MMAType:
    """The parts of `!gpu.mma_matrix<16x16xf16, "AOp">`."""

    __slots__ = ("shape", "element", "operand")

    def __init__(self, shape: tuple[int, ...], element: T.Type | None, operand: str) -> None:
        self.shape = shape
        self.element = element
        self.operand = operand


def mma_type(ty: T.Type) -> MMAType | None:
    if not (isinstance(ty, T.DialectType) and ty.dialect == "gpu" and ty.name == "mma_matrix" and ty.body):
        return None
    head, _, operand = ty.body.rpartition(",")
    parts = head.strip().split("x")
    try:
        shape = tuple(int(p) for p in parts[:-1])
    except ValueError:
        return None
    try:
        element = parse_type(parts[-1].strip())
    except (TypeSyntaxError, ValueError):
        element = None
    return MMAType(shape, element, operand.strip().strip('"'))


def resolve_alias(ctx: RuleContext, attr):
    """An attribute alias (`#map`) replaced by what it stands for."""
    if isinstance(attr, OpaqueAttr) and attr.text.startswith("#") and ctx.chunk.context is not None:
        return ctx.chunk.context.attr_aliases.get(attr.text, attr)
    return attr


def _last_dim_unit_stride(ctx: RuleContext, ty: T.MemRefType) -> bool:
    layout = resolve_alias(ctx, ty.layout)
    if layout is None:
        return True
    text = str(layout)
    if text.startswith("strided<["):
        strides = text[len("strided<[") : text.index("]")].split(",")
        return not strides or strides[-1].strip() == "1"
    m = re.match(r"^affine_map<\(([^)]*)\)(?:\[[^\]]*\])?\s*->\s*\(([^)]*)\)>$", text)
    if m:
        dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
        results = [r.strip() for r in m.group(2).split(",") if r.strip()]
        if dims and all(r in dims for r in results) and len(results) == len(dims):
            return results[-1] == dims[-1]
    return True


@rule("GPU113", "invalid-mma", Severity.ERROR, ops=MMA_OPS, upstream=True)
def invalid_mma(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the warp-matrix (MMA) ops: loads and stores use memrefs whose innermost
    dimension has unit stride; only `"COp"` matrices are stored; `subgroup_mma_compute`
    takes A, B, C in that order with matmul-compatible shapes. (The `!gpu.mma_matrix`
    type itself, two-dimensional with valid elements and operand, is checked where it is
    written: GPU122.)

    ## Why is this bad?
    Upstream rejects the op, e.g. `operands must be in the order AOp, BOp, COp`:
    tensor-core instructions only exist for these shapes and layouts.

    ## Example
    ```mlir
    %d = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    ```
    Use instead: `gpu.subgroup_mma_compute %a, %b, %c : ... "AOp">, ... "BOp"> -> ... "COp">`.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.subgroup_mma_compute`](https://mlir.llvm.org/docs/Dialects/GPU/#gpusubgroup_mma_compute-gpusubgroupmmacomputeop)
    """
    if op.name == "gpu.subgroup_mma_load_matrix" and op.operands and op.results:
        src = op.operands[0].type
        if isinstance(src, T.MemRefType) and not _last_dim_unit_stride(ctx, src):
            yield Violation("expected source memref most minor dim must have unit stride", at(op))
        # Upstream's `only AOp, BOp and COp can be loaded` cannot be reached from text: the type
        # parser rejects any other operand kind first (GPU122).
    elif op.name == "gpu.subgroup_mma_store_matrix" and len(op.operands) >= 2:
        dst = op.operands[1].type
        if isinstance(dst, T.MemRefType) and not _last_dim_unit_stride(ctx, dst):
            yield Violation("expected destination memref most minor dim must have unit stride", at(op))
            return
        mt = mma_type(op.operands[0].type)
        if mt is not None and mt.operand != "COp":
            yield Violation("expected the operand matrix being stored to have 'COp' operand type", at(op))
    elif op.name == "gpu.subgroup_mma_compute" and len(op.operands) >= 3:
        a, b, c = (mma_type(v.type) for v in op.operands[:3])
        if a is None or b is None or c is None:
            return
        if (a.operand, b.operand, c.operand) != ("AOp", "BOp", "COp"):
            yield Violation("operands must be in the order AOp, BOp, COp", at(op))
        elif a.shape[1] != b.shape[0] or a.shape[0] != c.shape[0] or b.shape[1] != c.shape[1]:
            yield Violation("operand shapes do not satisfy matmul constraints", at(op))


# --- dynamic shared memory ----------------------------------------------------------------------


def _is_workgroup_space(ty: T.MemRefType) -> bool:
    space = ty.memory_space
    return isinstance(space, DialectAttr) and space.dialect == "gpu" and (space.body or "").strip() == "workgroup"


@rule("GPU114", "invalid-dynamic-shared-memory", Severity.ERROR, ops=("gpu.dynamic_shared_memory",), upstream=True)
def invalid_dynamic_shared_memory(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks `gpu.dynamic_shared_memory`: its result (a 1-D `i8` memref, GPU141) is
    `memref<?xi8, #gpu.address_space<workgroup>>` and the op is nested in a symbol table
    (a `gpu.module` or `builtin.module`).

    ## Why is this bad?
    Upstream's verifier rejects the op (`address space must be address_space<workgroup>`,
    `result memref type must be memref<?xi8, #gpu.address_space<workgroup>>`): the op only
    hands out the base of the dynamic shared memory as raw bytes; typed views of it are
    made with `memref.view`.

    ## Example
    ```mlir
    %shmem = gpu.dynamic_shared_memory : memref<?xf32, #gpu.address_space<workgroup>>
    ```
    Use instead:
    ```mlir
    %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %shmem = memref.view %bytes[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.dynamic_shared_memory`](https://mlir.llvm.org/docs/Dialects/GPU/#gpudynamic_shared_memory-gpudynamicsharedmemoryop)
    """
    ty = _first_known_type(op.results)
    if not isinstance(ty, T.MemRefType):
        return
    if not any(is_symbol_table(a) for a in op.ancestors()):
        yield Violation(op_error(op, "must be inside an op with symbol table"), at(op))
    elif not _is_workgroup_space(ty):
        yield Violation(op_error(op, "address space must be address_space<workgroup>"), at(op))
    elif ty.shape[0] is not None:
        yield Violation(op_error(op, "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>"), at(op))


# --- dialect attributes -------------------------------------------------------------------------

# In the order upstream meets them: a dictionary's entries are sorted by name.
KNOWN_SIZE_ATTRS = ("gpu.known_block_size", "gpu.known_cluster_size", "gpu.known_grid_size")


@rule("GPU115", "invalid-known-launch-size", Severity.ERROR, ops=("*",), upstream=True, stage=Stage.ATTRIBUTES)
def invalid_known_launch_size(op: Operation, ctx: RuleContext) -> list[Violation] | None:
    """
    ## What it does
    Checks the `gpu.known_block_size`, `gpu.known_cluster_size` and `gpu.known_grid_size`
    attributes, which may sit on any op (typically a `func.func` or `llvm.func` kernel): each
    must be a dense `i32` array of exactly three elements.

    ## Why is this bad?
    Upstream's verifier rejects the op (`'func.func' op gpu.known_block_size must be a
    dense i32 array`). Lowerings read the three sizes to bound thread and block ids.

    ## Example
    ```mlir
    func.func @k() attributes {gpu.known_block_size = array<i32: 128, 1>} {
      return
    }
    ```
    Use instead: `gpu.known_block_size = array<i32: 128, 1, 1>`.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu` dialect attributes](https://mlir.llvm.org/docs/Dialects/GPU/)
    """
    attrs = op.attributes
    if not attrs:
        return None
    for name in KNOWN_SIZE_ATTRS:
        attr = attrs.get(name)
        if attr is None:
            continue
        if not (isinstance(attr, DenseArrayAttr) and attr.element == T.I32):
            return [Violation(op_error(op, f"{name} must be a dense i32 array"), at(op))]
        if len(attr.values) != 3:
            return [Violation(op_error(op, f"{name} must contain exactly 3 elements"), at(op))]
    return None


@rule("GPU116", "invalid-module-attribute", Severity.ERROR, ops=("*",), upstream=True, stage=Stage.ATTRIBUTES)
def invalid_module_attribute(op: Operation, ctx: RuleContext) -> list[Violation] | None:
    """
    ## What it does
    Checks that `gpu.container_module`, the mark of a module that holds kernels launched by
    `gpu.launch_func`, is only put on a `builtin.module`. (The attributes of `gpu.module` and
    `gpu.binary` themselves, targets, objects and offloading handler, are their declarations'
    constraints: GPU141.)

    ## Why is this bad?
    Upstream's verifier rejects the op: `expected 'gpu.container_module' attribute to be
    attached to 'builtin.module'`. The launch verifier and the GPU passes look for the mark
    on the module that holds the `gpu.module`s.

    ## Example
    ```mlir
    func.func @host() attributes {gpu.container_module} {
      return
    }
    ```
    Use instead: `module attributes {gpu.container_module} { ... }`.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu` dialect attributes](https://mlir.llvm.org/docs/Dialects/GPU/)
    """
    attrs = op.attributes
    if not attrs or op.name == "builtin.module":
        return None
    if isinstance(attrs.get("gpu.container_module"), UnitAttr):
        return [Violation("expected 'gpu.container_module' attribute to be attached to 'builtin.module'", at(op))]
    return None


# --- warp_execute_on_lane_0 ---------------------------------------------------------------------


def _distribution_problem(expanded: T.Type, distributed: T.Type, warp_size: int) -> str | None:
    """Upstream's verifyDistributedType: how `expanded` (in the region) maps to `distributed` (per lane)."""
    if expanded == distributed or not (_known(expanded) and _known(distributed)):
        return None
    if not (isinstance(expanded, T.VectorType) and isinstance(distributed, T.VectorType)):
        return "expected vector type for distributed operands."
    if len(expanded.shape) != len(distributed.shape) or expanded.element != distributed.element:
        return "expected distributed vectors to have same rank and element type."
    scale = 1
    for i, (e, d) in enumerate(zip(expanded.shape, distributed.shape)):
        if e == d:
            continue
        if d == 0 or e % d:
            return f"expected expanded vector dimension #{i} ({e}) to be a multipler of the distributed vector dimension ({d})"
        scale *= e // d
    if scale != warp_size:
        return f"incompatible distribution dimensions from {q(expanded)} to {q(distributed)} with warp size = {warp_size}"
    return None


@rule("GPU120", "invalid-warp-execute", Severity.ERROR, ops=("gpu.warp_execute_on_lane_0",), upstream=True)
def invalid_warp_execute(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs `gpu.warp_execute_on_lane_0`'s verifier: the region takes one block argument per
    `args(...)` operand, its `gpu.yield` yields one value per result, and each value moved
    between the warp and its lanes is a vector whose region-side shape is the lane-side
    shape times a distribution that uses the whole warp (e.g. `vector<32xf32>` in the
    region is `vector<1xf32>` per lane with a warp of 32).

    ## Why is this bad?
    Upstream's verifier rejects the op, e.g. `'gpu.warp_execute_on_lane_0' op expected
    same number of yield operands and return values.`: the distribution patterns that
    lower the op need the shapes to match the warp size.

    ## Example
    ```mlir
    %r = gpu.warp_execute_on_lane_0(%lane)[32] -> (vector<3xf32>) {
      %v = arith.constant dense<1.0> : vector<32xf32>
      gpu.yield %v : vector<32xf32>
    }
    ```
    Use instead: `-> (vector<1xf32>)`, so that 32 lanes hold one element each.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.warp_execute_on_lane_0`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwarp_execute_on_lane_0-gpuwarpexecuteonlane0op)
    """
    if not op.regions or not op.operands:
        return
    region = op.regions[0]
    entry = region.blocks[0] if region.blocks else None
    block_args = entry.arguments if entry is not None else []
    args = op.operands[1:]
    if len(args) != len(block_args):
        yield Violation(op_error(op, "expected same number op arguments and block arguments."), at(op))
        return
    last = entry.operations[-1] if entry is not None and entry.operations else None
    yielded = last.operands if last is not None and last.name == "gpu.yield" else []
    if len(yielded) != len(op.results):
        yield Violation(op_error(op, "expected same number of yield operands and return values."), at(op))
        return
    warp = op.get_attr("warp_size")
    warp_size = warp.value if isinstance(warp, IntegerAttr) else 32
    for expanded, distributed in list(zip((a.type for a in block_args), (v.type for v in args))) + list(
        zip((v.type for v in yielded), (r.type for r in op.results))
    ):
        problem = _distribution_problem(expanded, distributed, warp_size)
        if problem is not None:
            yield Violation(op_error(op, problem), at(op))
            return
