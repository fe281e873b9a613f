"""Enum attributes that assembly formats write as a bare keyword (`x`, `xor`, `slt`)."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DialectAttr, IntegerAttr


@dataclass(frozen=True)
class EnumDef:
    """An ODS enum attribute: its cases and how the IR holds one (`#gpu<dim x>` or an i64 index)."""

    constraint: str
    cases: tuple[str, ...]
    dialect: str = ""
    mnemonic: str = ""
    what: str = ""
    type: T.Type = T.I64
    default: str | None = None  # ODS's `defaultValue`: an argument of this kind may be left out
    description: str = ""  # the enum's summary, which newer upstream parsers name in their errors
    angled: bool = False  # written `<case>`: an EnumAttr whose format is `<$value>`, its `#dialect.mnemonic` stripped

    def unknown(self, word: str | None) -> str:
        """Upstream's error for `word` (None: not a keyword) where a case of this enum is expected."""
        return unknown_case(self.cases, self.description, word) or f"expected {self.what} to be one of: {', '.join(self.cases)}"

    def no_word(self) -> str:
        """Upstream's error where no keyword or string is written for a case of this enum."""
        return unknown_case(self.cases, self.description, None) or "expected valid keyword or string"

    def attribute(self, case: str) -> Attribute:
        if self.angled:
            return DialectAttr(self.dialect, self.mnemonic, case)
        if self.mnemonic:
            return DialectAttr(self.dialect, "", f"{self.mnemonic} {case}")
        return IntegerAttr(self.cases.index(case), self.type)

    def case(self, attr: Attribute | None) -> str | None:
        """The keyword `attr` stands for, or None when it is not a case of this enum."""
        if isinstance(attr, DialectAttr) and self.angled:
            return attr.body if attr.name == self.mnemonic and attr.body in self.cases else None
        if isinstance(attr, DialectAttr) and self.mnemonic and attr.body:
            head, _, case = attr.body.partition(" ")
            return case if head == self.mnemonic and case in self.cases else None
        if isinstance(attr, IntegerAttr) and not self.mnemonic and 0 <= attr.value < len(self.cases):
            return self.cases[attr.value]
        return None


def unknown_case(cases: tuple[str, ...], description: str, word: str | None) -> str | None:
    """`expected one of [a, b] for <description>, got: w` (upstream's FieldParser of an enum with a summary)."""
    if not description:
        return None
    if word is None:
        return f"expected keyword for {description}"
    return f"expected one of [{', '.join(cases)}] for {description}, got: {word}"


_ENUMS = (
    EnumDef("GPU_DimensionAttr", ("x", "y", "z"), "gpu", "dim", "::mlir::gpu::Dimension"),
    EnumDef("GPU_ShuffleModeAttr", ("xor", "up", "down", "idx"), "gpu", "shuffle_mode", "::mlir::gpu::ShuffleMode"),
    EnumDef(
        "GPU_AllReduceOperationAttr",
        ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor", "minimumf", "maximumf"),
        "gpu",
        "all_reduce_op",
        "::mlir::gpu::AllReduceOperation",
    ),
    EnumDef(
        "GPU_AddressSpaceAttr", ("global", "workgroup", "private", "constant"), "gpu", "address_space", "::mlir::gpu::AddressSpace", angled=True
    ),
    EnumDef("GPU_ScopeAttr", ("subgroup", "workgroup", "cluster"), "gpu", "scope", "::mlir::gpu::Scope", angled=True),
    EnumDef("GPU_BroadcastTypeAttr", ("first_active_lane", "specific_lane"), "gpu", "broadcast", "::mlir::gpu::BroadcastType"),
    EnumDef(
        "MMAElementWiseAttr",
        ("addf", "mulf", "subf", "maxf", "minf", "divf", "addi", "muli", "subi", "divs", "divu", "negatef", "negates", "extf", "truncf"),
        "gpu",
        "mma_element_wise",
        "::mlir::gpu::MMAElementwiseOp",
    ),
    EnumDef(
        "GPU_TransposeModeAttr",
        ("NON_TRANSPOSE", "TRANSPOSE", "CONJUGATE_TRANSPOSE"),
        "gpu",
        "mat_transpose_mode",
        "::mlir::gpu::TransposeMode",
        default="NON_TRANSPOSE",
    ),
    EnumDef(
        "GPU_Prune2To4SpMatFlagAttr",
        ("NONE", "PRUNE_ONLY", "PRUNE_AND_CHECK"),
        "gpu",
        "prune_2to4_spmat_flag",
        "::mlir::gpu::Prune2To4SpMatFlag",
        default="PRUNE_AND_CHECK",
    ),
    EnumDef(
        "GPU_SpGEMMWorkEstimationOrComputeKindAttr",
        ("WORK_ESTIMATION", "COMPUTE"),
        "gpu",
        "spgemm_work_estimation_or_compute_kind",
        "::mlir::gpu::SpGEMMWorkEstimationOrComputeKind",
    ),
    EnumDef(
        "Arith_CmpIPredicateAttr",
        ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"),
        what="the predicate",
    ),
    EnumDef(
        "AtomicRMWKindAttr",
        (
            "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
            "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
        ),
        what="the atomic operation",
    ),
    EnumDef(
        "Arith_CmpFPredicateAttr",
        ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"),
        what="the predicate",
    ),
    EnumDef(
        "Arith_RoundingModeAttr",
        ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"),
        what="the rounding mode",
        type=T.I32,
    ),
    EnumDef("IndexCmpPredicateAttr", ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"), "index", "cmp_predicate", "the predicate"),
    EnumDef("XeGPU_MemorySpaceAttr", ("global", "slm"), "xegpu", "memory_space", "::mlir::xegpu::MemorySpace"),
    EnumDef("XeGPU_FenceScopeAttr", ("workgroup", "gpu"), "xegpu", "fence_scope", "::mlir::xegpu::FenceScope"),
    EnumDef("RcpRoundingModeAttr", ("approx", "rn", "rz", "rm", "rp"), "nvgpu", "rcp_rounding_mode", "::mlir::nvgpu::RcpRoundingMode"),
    EnumDef(
        "AMDGPU_DPPPermAttr",
        (
            "quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_shr", "wave_ror", "wave_rol",
            "row_mirror", "row_half_mirror", "row_bcast_15", "row_bcast_31",
        ),
        "amdgpu",
        "dpp_perm",
        "::mlir::amdgpu::DPPPerm",
        description="The possible permutations for a DPP operation",
    ),
    EnumDef(
        "AMDGPU_MFMAPermBAttr",
        (
            "none", "bcast_first_32", "bcast_second_32", "rotate_16_right",
            "bcast_first_16", "bcast_second_16", "bcast_third_16", "bcast_fourth_16",
        ),
        "amdgpu",
        "mfma_perm_b",
        "::mlir::amdgpu::MFMAPermB",
        description="The possible permutations of the lanes storing B available in an MFMA",
    ),
    EnumDef(
        "AMDGPU_LoadTemporalHintAttr",
        ("RT", "NT", "HT", "LU", "NT_RT", "RT_NT", "NT_HT"),
        "amdgpu",
        "load_temporal_hint",
        "::mlir::amdgpu::LoadTemporalHint",
        description=(
            "AMDGPU-specific prefetch temporal hints for load instructions. RT - regular temporal for both near and far caches; "
            "NT - non-temporal for both near and far caches; HT - high-priority temporal for both near and far caches; "
            "LU - last-use; NT_RT - non-temporal for near cache(s) and regular for far caches; "
            "RT_NT - regular for near cache(s) and non-temporal for far caches; "
            "NT_HT - non-temporal for near cache(s) and high-priority temporal for far caches"
        ),
    ),
    EnumDef(
        "AMDGPU_CacheScopeAttr",
        ("WGP", "SE", "DEV", "SYS"),
        "amdgpu",
        "cache_scope",
        "::mlir::amdgpu::Scope",
        description="AMDGPU-specific cache scopes. WGP - workgroup processor (CUs); SE - shader engine (GL2); DEV - device; SYS - system",
    ),
)

ENUMS: dict[str, EnumDef] = {e.constraint: e for e in _ENUMS}
