"""Questions the editor features ask of the IR: headers, kernel arguments, tokens and streams."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.views import FuncView, LaunchView, async_dependencies, async_token, attribution_counts
from gpu_lsp.lsp.index import DocumentIndex

_SPACES = re.compile(r"\s+")
_LINE_COMMENT = re.compile(r"//[^\n]*")

_LAUNCH_ARG_ROLES = (
    ("block id", 3),
    ("thread id", 3),
    ("grid size", 3),
    ("block size", 3),
)
_CLUSTER_ROLES = (("cluster id", 3), ("cluster size", 3))
_DIMS = "xyz"


def signature_text(op: Operation, text: str) -> str:
    """`gpu.func @k(%a: T, ...) kernel`: the header of a symbol op, up to its body."""
    rng = op.range
    if rng is None:
        return op.name
    end = rng.end
    for region in op.regions:
        if region.span is not None:
            end = min(end, region.span.range.start)
            break
    start = op.name_span.range.start if op.name_span is not None else rng.start
    out = _LINE_COMMENT.sub(" ", text[start:end])
    return _SPACES.sub(" ", out).strip()


def kernel_of(index: DocumentIndex, launch: Operation) -> Operation | None:
    """The gpu.func a gpu.launch_func launches."""
    ref = launch.properties.get("kernel")
    if not isinstance(ref, SymbolRefAttr):
        return None
    return index.resolve(ref.parts, launch)


def kernel_params(kernel: Operation) -> list[BlockArgument]:
    """The signature arguments of a gpu.func (without workgroup/private attributions)."""
    if not kernel.regions or not kernel.regions[0].blocks:
        return []
    args = kernel.regions[0].blocks[0].arguments
    fn = FuncView(kernel).function_type
    count = len(fn.inputs) if fn is not None else len(args)
    return list(args[:count])


def function_inputs(op: Operation) -> list:
    """The input types of a function's `function_type` (none where it is no function type: a generic form may say anything)."""
    fn = FuncView(op).function_type
    return list(fn.inputs) if fn is not None else []


def is_token(value: Value) -> bool:
    return value.type.is_token


def enclosing(op: Operation | None, names: tuple[str, ...]) -> Operation | None:
    while op is not None and op.name not in names:
        op = op.parent_op
    return op


def value_owner_op(value: Value) -> Operation | None:
    """The op that defines a value, or the op whose region has the block argument."""
    if isinstance(value, OpResult):
        return value.owner
    if isinstance(value, BlockArgument):
        return value.owner.parent_op
    return None


def launch_arg_role(arg: BlockArgument) -> str | None:
    """What a region argument of gpu.launch stands for ('thread id x', 'grid size y', ...)."""
    block = arg.owner
    op = block.parent_op
    if op is None or op.name != "gpu.launch" or block.parent is None or block.parent.blocks[0] is not block:
        return None
    roles = list(_LAUNCH_ARG_ROLES)
    if LaunchView(op).has_clusters:
        roles += _CLUSTER_ROLES
    i = arg.index
    for role, n in roles:
        if i < n:
            return f"{role} {_DIMS[i]}"
        i -= n
    workgroup, private = attribution_counts(op)
    if i < workgroup:
        return f"workgroup attribution #{i}"
    i -= workgroup
    if i < private:
        return f"private attribution #{i}"
    return None


@dataclass(frozen=True)
class StreamInfo:
    """Where the stream of a token comes from after `gpu-to-llvm`."""

    kind: str  # "created", "argument", "none"
    op: Operation | None
    value: Value
    number: int | None = None


def creates_stream(op: Operation) -> bool:
    """Ops whose lowering starts a new stream: `gpu.wait async`, and launches without dependencies."""
    if async_token(op) is None:
        return False
    if op.name == "gpu.wait":
        return True
    return op.name in ("gpu.launch_func", "gpu.launch") and not async_dependencies(op)


def stream_of(value: Value) -> StreamInfo:
    """Follow first dependencies back to the op that creates the stream a token maps to."""
    seen: set[int] = set()
    current = value
    while id(current) not in seen:
        seen.add(id(current))
        if not isinstance(current, OpResult):
            return StreamInfo("argument", None, current)
        op = current.owner
        if creates_stream(op):
            return StreamInfo("created", op, current, _stream_number(op))
        deps = async_dependencies(op)
        if not deps:
            return StreamInfo("none", op, current)
        current = deps[0]
    return StreamInfo("none", None, current)


def _stream_number(op: Operation) -> int | None:
    func = enclosing(op.parent_op, ("func.func", "gpu.func", "builtin.module"))
    if func is None:
        return None
    n = 0
    for nested in func.nested():
        if creates_stream(nested):
            n += 1
            if nested is op:
                return n
    return None


def waits_on(value: Value, limit: int = 50) -> list[Value]:
    """The tokens a token waits on, transitively, nearest first (breadth-first)."""
    out: list[Value] = []
    seen = {id(value)}
    frontier = [value]
    while frontier and len(out) < limit:
        nxt = []
        for v in frontier:
            if not isinstance(v, OpResult):
                continue
            for dep in async_dependencies(v.owner):
                if id(dep) in seen:
                    continue
                seen.add(id(dep))
                out.append(dep)
                nxt.append(dep)
        frontier = nxt
    return out[:limit]


def takes_arguments(func: Operation) -> bool:
    """Whether a func.func has parameters (its function_type's inputs, else its entry block's)."""
    ftype = func.get_attr("function_type")
    inputs = getattr(getattr(ftype, "type", None), "inputs", None)
    if inputs is not None:
        return bool(inputs)
    return any(region.blocks and region.blocks[0].arguments for region in func.regions)


def block_name(block: Block) -> str:
    if block.label:
        return block.label
    region = block.parent
    if region is not None:
        for i, b in enumerate(region.blocks):
            if b is block:
                return f"^bb{i}"
    return "^bb?"


def op_title(op: Operation) -> str:
    """`func.func @main`, `gpu.launch_func`, ..."""
    name = symbol_name(op)
    return f"{op.name} @{name}" if name is not None else op.name
