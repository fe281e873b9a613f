"""What differs between MLIR (LLVM) versions: one table of facts, each row naming its upstream source."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import TypeVar

from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.opdefs import OPS, definition

# The newest LLVM major version the project describes, and the default `mlir-version`.
NEWEST = 23
# The oldest version `mlir-version` accepts (the rows below go back to it).
OLDEST = 14
# The upstream MLIR the tests run as the oracle: a pre-release LLVM 23 (llvm-project 3cbe75b1).
ORACLE = "llvm-project 3cbe75b1 (LLVM 23 pre-release, numba-cuda-mlir 0.6.0)"


V = TypeVar("V")


def _in_effect(changes: tuple[tuple[int, V], ...], version: int) -> V:
    """What holds at `version` of `(first version, value)` changes in ascending order (the first holds from OLDEST on)."""
    value = changes[0][1]
    for first, later in changes:
        if version >= first:
            value = later
    return value


class Lowering(enum.Enum):
    """What `gpu-to-llvm` does with one op form."""

    LOWERED = "lowered"
    REJECTED = "rejected"  # the pass fails (`gpu.launch_func` is explicitly illegal)
    UNCONVERTED = "unconverted"  # the pass succeeds but leaves the op, so translation to LLVM IR fails later


@dataclass(frozen=True)
class LoweringFact:
    """How `gpu-to-llvm` treats one op form, by version.

    `changes` lists `(first version, outcome)` in ascending order; the first entry holds
    from OLDEST on. `oracle` is what the oracle does; it differs from NEWEST where a change
    landed after the oracle's commit. `reason` is upstream's match-failure message.
    """

    form: str
    example: str
    changes: tuple[tuple[int, Lowering], ...]
    oracle: Lowering
    reason: str
    source: str

    def at(self, version: int) -> Lowering:
        """The outcome with LLVM `version`."""
        return _in_effect(self.changes, version)

    @property
    def varies(self) -> bool:
        """Whether the outcome depends on the version."""
        return len({outcome for _, outcome in self.changes}) > 1

    def versions_with(self, outcome: Lowering) -> str:
        """The versions with `outcome`, as a phrase: `LLVM ≤ 22`, `LLVM ≥ 23`, `every LLVM version`."""
        held = [v for v in range(OLDEST, NEWEST + 1) if self.at(v) is outcome]
        if len(held) == NEWEST - OLDEST + 1:
            return "every LLVM version"
        if held and held[0] == OLDEST and held == list(range(OLDEST, held[-1] + 1)):
            return f"LLVM ≤ {held[-1]}"
        if held and held[-1] == NEWEST and held == list(range(held[0], NEWEST + 1)):
            return f"LLVM ≥ {held[0]}"
        return "LLVM " + ", ".join(str(v) for v in held)


def _every_version(outcome: Lowering, form: str, example: str, reason: str, source: str) -> LoweringFact:
    """A form `gpu-to-llvm` treats alike at every version (the oracle's too)."""
    return LoweringFact(form, example, ((OLDEST, outcome),), outcome, reason, source)


def _lowered_from(version: int, before: Lowering, oracle: Lowering, form: str, example: str, reason: str, source: str) -> LoweringFact:
    """A form `gpu-to-llvm` treats as `before` until it lowers it from `version` on."""
    return LoweringFact(form, example, ((OLDEST, before), (version, Lowering.LOWERED)), oracle, reason, source)


_CONVERSION = "mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp"
_ONE_DEP = "Can only convert with exactly one async dependency."

LAUNCH_FUNC_DEPENDENCIES = _lowered_from(
    23,
    Lowering.REJECTED,
    Lowering.LOWERED,
    "gpu.launch_func async with 2+ dependencies",
    "%t = gpu.launch_func async [%a, %b] @m::@k ...",
    "Cannot convert with more than one async dependency.",
    "llvm-project PR #188987 (2026-03-27): LegalizeLaunchFuncOpPattern joins extra dependencies with events",
)
LAUNCH_FUNC_SYNC_DEPENDENCIES = _every_version(
    Lowering.REJECTED,
    "gpu.launch_func without async, with dependencies",
    "gpu.launch_func [%a] @m::@k ...",
    "Cannot convert non-async op with async dependencies.",
    f"{_CONVERSION} (LegalizeLaunchFuncOpPattern); checked against the oracle",
)
COPY_DEPENDENCIES = _every_version(
    Lowering.UNCONVERTED,
    "gpu.memcpy/gpu.memset async with 2+ dependencies",
    "%t = gpu.memcpy async [%a, %b] %dst, %src : ...",
    _ONE_DEP,
    f"{_CONVERSION} (isAsyncWithOneDependency); checked against the oracle",
)
COPY_SYNC_DEPENDENCIES = _every_version(
    Lowering.UNCONVERTED,
    "gpu.memcpy/gpu.memset (and the other async gpu ops) without async, with dependencies",
    "gpu.memcpy [%a] %dst, %src : ...",
    "Can convert only async version.",
    f"{_CONVERSION} (isAsyncWithOneDependency); checked against the oracle",
)
ALLOC_DEPENDENCIES = _every_version(
    Lowering.UNCONVERTED,
    "gpu.alloc/gpu.dealloc async with 2+ dependencies",
    "%m, %t = gpu.alloc async [%a, %b] (%n) : ...",
    _ONE_DEP,
    f"{_CONVERSION} (isAsyncWithOneDependency); llvm-project PR #191661 (2026-05) keeps one dependency at most",
)
ALLOC_SYNC_DEPENDENCIES = _every_version(
    Lowering.UNCONVERTED,
    "gpu.alloc/gpu.dealloc without async, with dependencies",
    "%m = gpu.alloc [%a] (%n) : ...",
    "Can convert only async version.",
    f"{_CONVERSION} (isAsyncWithOneDependency); llvm-project PR #191661 lowers the synchronous form without dependencies only",
)
ALLOC_SYNC = _lowered_from(
    23,
    Lowering.UNCONVERTED,
    Lowering.UNCONVERTED,  # the oracle predates the change
    "gpu.alloc (not host_shared)/gpu.dealloc without async or dependencies",
    "%m = gpu.alloc (%n) : ...",
    "Can convert only async version.",
    "llvm-project PR #191661 (2026-05): gpu.alloc/gpu.dealloc without a token lower onto the null stream",
)
OTHER_ASYNC_DEPENDENCIES = _every_version(
    Lowering.UNCONVERTED,
    "other async gpu ops (sparse, host_register...) with 2+ dependencies",
    "%h, %t = gpu.create_dn_tensor async [%a, %b] ...",
    _ONE_DEP,
    f"{_CONVERSION} (isAsyncWithOneDependency)",
)
WAIT_ASYNC_DEPENDENCIES = _every_version(
    Lowering.LOWERED,
    "gpu.wait async with any number of dependencies",
    "%t = gpu.wait async [%a, %b, %c]",
    "",
    f"{_CONVERSION} (ConvertWaitAsyncOpToGpuRuntimeCallPattern: events)",
)

LOWERING_FACTS = (
    LAUNCH_FUNC_DEPENDENCIES,
    LAUNCH_FUNC_SYNC_DEPENDENCIES,
    COPY_DEPENDENCIES,
    COPY_SYNC_DEPENDENCIES,
    ALLOC_DEPENDENCIES,
    ALLOC_SYNC_DEPENDENCIES,
    ALLOC_SYNC,
    OTHER_ASYNC_DEPENDENCIES,
    WAIT_ASYNC_DEPENDENCIES,
)

_COPIES = ("gpu.memcpy", "gpu.memset")
_ALLOCATIONS = ("gpu.alloc", "gpu.dealloc")


def dependencies_fact(op_name: str) -> LoweringFact:
    """The row for `op_name` (async) with two or more dependencies; `gpu.launch` is outlined to launch_func."""
    if op_name in ("gpu.launch_func", "gpu.launch"):
        return LAUNCH_FUNC_DEPENDENCIES
    if op_name in _COPIES:
        return COPY_DEPENDENCIES
    if op_name in _ALLOCATIONS:
        return ALLOC_DEPENDENCIES
    if op_name == "gpu.wait":
        return WAIT_ASYNC_DEPENDENCIES
    return OTHER_ASYNC_DEPENDENCIES


def sync_dependencies_fact(op_name: str) -> LoweringFact:
    """The row for `op_name` without `async` but with dependencies."""
    if op_name in ("gpu.launch_func", "gpu.launch"):
        return LAUNCH_FUNC_SYNC_DEPENDENCIES
    if op_name in _ALLOCATIONS:
        return ALLOC_SYNC_DEPENDENCIES
    return COPY_SYNC_DEPENDENCIES


@dataclass(frozen=True)
class SyntaxFact:
    """Words an op's syntax accepts, by version: `changes` lists `(first version, words)` in ascending order."""

    what: str
    changes: tuple[tuple[int, frozenset[str]], ...]
    source: str

    def at(self, version: int) -> frozenset[str]:
        """The words LLVM `version` accepts."""
        return _in_effect(self.changes, version)

    def versions_with(self, word: str) -> str:
        """The versions that accept `word`, as a phrase (`LLVM ≤ 17`, `LLVM ≥ 18`)."""
        held = [v for v in range(OLDEST, NEWEST + 1) if word in self.at(v)]
        if held and held[0] == OLDEST and held[-1] < NEWEST:
            return f"LLVM ≤ {held[-1]}"
        if held and held[-1] == NEWEST and held[0] > OLDEST:
            return f"LLVM ≥ {held[0]}"
        return "every LLVM version" if held else "no LLVM version"


def _reduction_kinds() -> frozenset[str]:
    return frozenset(ENUMS["GPU_AllReduceOperationAttr"].cases)


REDUCTION_KINDS = SyntaxFact(
    "the reduction of gpu.all_reduce and gpu.subgroup_reduce",
    ((OLDEST, frozenset({"add", "and", "max", "min", "mul", "or", "xor"})), (18, _reduction_kinds())),
    "llvm-project PR #73423 (2023-11): min/max split into minsi/minui/minf and maxsi/maxui/maxf, with "
    "minimumf/maximumf; PR #75901 (2023-12): minf/maxf renamed minnumf/maxnumf; both in LLVM 18",
)


@dataclass(frozen=True)
class OpPieceFact:
    """A piece of an op definition (the op itself when `piece` is None) that LLVM `since` introduced.

    The op definitions in gpu_lsp/ir/opdefs describe NEWEST; a test checks each row against them.
    """

    op: str
    piece: str | None
    since: int
    oracle: bool  # whether the oracle's MLIR has it
    source: str
    keyword: str | None = None  # the word that writes the piece in the custom form (`memfence`)

    def present_at(self, version: int) -> bool:
        """Whether LLVM `version` has the piece."""
        return version >= self.since

    @property
    def versions(self) -> str:
        """The versions that have the piece, as a phrase (`LLVM ≥ 23`)."""
        return "every LLVM version" if self.since <= OLDEST else f"LLVM ≥ {self.since}"


def _introduced_by(name: str) -> str:
    """The change that introduced op `name`, as its declaration dates it."""
    since = definition(name).since
    if since is None:
        raise ValueError(f"{name} is not dated")
    return since.source


# gpu.barrier's scope and named barriers came with the named-barrier ops.
_BARRIER_SCOPES = _introduced_by("gpu.initialize_named_barrier")

# Pieces of ops; the ops themselves are dated by their declarations (`since`).
OP_PIECES = (
    OpPieceFact("gpu.barrier", "address_spaces", 23, True, "llvm-project PR #177425 (2026-01-22): gpu.barrier memfence", "memfence"),
    OpPieceFact("gpu.barrier", "scope", 23, False, _BARRIER_SCOPES, "scope"),
    OpPieceFact("gpu.barrier", "named_barrier", 23, False, _BARRIER_SCOPES, "named"),
) + tuple(
    OpPieceFact(d.name, None, d.since.version, d.since.oracle, d.since.source) for d in OPS.values() if d.since is not None
)


@dataclass(frozen=True)
class VerifierFact:
    """A check upstream's verifier makes from LLVM `since` on; `oracle`: whether the oracle's MLIR makes it."""

    check: str
    since: int
    oracle: bool
    source: str

    def at(self, version: int) -> bool:
        """Whether LLVM `version` makes the check."""
        return version >= self.since


LAUNCH_FUNC_ONE_ASYNC_MODEL = VerifierFact(
    "a gpu.launch_func takes async dependencies or an async object (`<%stream : T>`), not both",
    23,
    False,
    "llvm-project PR #196012 (merged 2026-05-06, replacing #195436; fixes issue #195434): LaunchFuncOp::verify",
)


@dataclass(frozen=True)
class OpNamesFact:
    """Which ops each dialect registers, for the LLVM versions whose lists are known.

    Upstream rejects an op name its dialect does not define; with another version that
    name may exist, so an op is called unknown only at a version listed here.
    """

    versions: frozenset[int]
    source: str

    def at(self, version: int, dialect: str) -> frozenset[str] | None:
        """The op names (without the `dialect.` prefix) `dialect` has with LLVM `version`; None when not known."""
        return _oracle_ops(dialect) if version in self.versions else None


@functools.cache
def _oracle_ops(dialect: str) -> frozenset[str] | None:
    from gpu_lsp.diagnostics.op_names import ORACLE_OPS

    names = ORACLE_OPS.get(dialect)
    return None if names is None else frozenset(names.split())


OP_NAMES = OpNamesFact(
    frozenset({23}),
    f"the ops registered in the oracle's MLIR, {ORACLE}: gpu_lsp/diagnostics/op_names.py, written by "
    "scripts/op_names.py; ops added to LLVM 23 after that commit are not in it",
)


@dataclass(frozen=True)
class ParsingHooksFact:
    """Dialects without types (`!d.x`) or attributes (`#d.x`) of their own, for the versions whose lists are known."""

    versions: frozenset[int]
    no_types: frozenset[str]
    no_attributes: frozenset[str]
    source: str

    def at(self, version: int) -> tuple[frozenset[str], frozenset[str]]:
        """(dialects with no type parser, dialects with no attribute parser) with LLVM `version`; empty when not known."""
        if version not in self.versions:
            return frozenset(), frozenset()
        return self.no_types, self.no_attributes


# The dialects upstream's mlir-opt registers: an op, type or attribute of any other dialect is
# unregistered (an error without -allow-unregistered-dialect).
REGISTERED_DIALECTS = frozenset({
    "builtin", "func", "arith", "gpu", "memref", "scf", "cf", "math", "index", "async", "vector",
    "llvm", "nvvm", "rocdl", "spirv", "affine", "tensor", "linalg", "transform", "complex", "ub",
    "dlti", "bufferization", "shape", "tosa", "emitc", "amdgpu", "nvgpu", "omp", "acc",
    "sparse_tensor", "quant", "x86vector", "arm_neon", "arm_sve", "arm_sme", "amx", "irdl", "pdl",
    "pdl_interp", "ptr", "mpi", "shard", "mesh", "xegpu", "xevm", "smt", "ml_program", "polynomial",
    "vcix", "wasmssa", "x86",
})
# The test dialect: the mlir-opt upstream's lit tests run registers it (`"test.op"` in GPU tests).
TEST_DIALECTS = frozenset({"test"})


PARSING_HOOKS = ParsingHooksFact(
    frozenset({23}),
    frozenset(
        ("affine", "arith", "builtin", "cf", "func", "index", "math", "memref", "nvvm", "rocdl", "scf", "tensor", "vector")
    ),
    frozenset(("affine", "async", "builtin", "cf", "func", "math", "memref", "scf", "tensor")),
    f"{ORACLE}: `!d.foo` and `#d.foo<1>` for each dialect, checked against the oracle in tests/diagnostics/test_version_facts.py",
)


def check_version(value: object) -> int:
    """`value` as an `mlir-version`; raises ValueError naming the accepted range."""
    if isinstance(value, bool) or not isinstance(value, int) or not OLDEST <= value <= NEWEST:
        raise ValueError(f"must be an LLVM major version from {OLDEST} to {NEWEST} (got {value!r})")
    return value


@dataclass(frozen=True)
class AtVersion:
    """Settings that choose only the `mlir-version` and `report-undecided` (every rule selected)."""

    mlir_version: int = NEWEST
    report_undecided: bool = False


def version_of(settings: object | None) -> int:
    """The `mlir_version` of any settings object (NEWEST when it has none)."""
    version = getattr(settings, "mlir_version", None)
    return version if isinstance(version, int) else NEWEST
