"""The amdgpu dialect's op definitions (upstream AMDGPUOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

# The attributes and trailing operand every raw buffer op takes after `memref[indices]`.
_BUFFER_ARGS = (
    "AnyMemRef:$memref, Variadic<I32>:$indices, "
    'DefaultValuedAttr<BoolAttr, "true">:$boundsCheck, OptionalAttr<I32Attr>:$indexOffset, Optional<I32>:$sgprOffset'
)
_SGPR = "(`sgprOffset` $sgprOffset^)?"
# The packing conversions keep the other elements of `existing`, or leave them undefined (`undef`).
_EXISTING = "Optional<AnyVectorOfNonZeroRank>:$existing"
_ATOMIC_FORMAT = f"attr-dict $value `->` $memref `[` $indices `]` {_SGPR} `:` type($value) `->` type($memref) `,` type($indices)"
_MNK = "custom<MNKDimensionList>($m, $n, $k)"
_MATRIX_TYPES = "`:` type($sourceA) `,` type($sourceB) `,` type($destC)"
_SPARSE = "`sparse` `(` $sparseIdx `:` type($sparseIdx) `)`"
# amdgpu.mfma/wmma/... multiply sourceA by sourceB and add destC into a destD of destC's type.
_ACCUMULATE = ("AllTypesMatch<destC, destD>",)
_DESCRIPTOR_ARGS = (
    "Variadic<Index>:$global_dynamic_sizes, DenseI64ArrayAttr:$global_static_sizes, "
    "Variadic<Index>:$global_dynamic_strides, DenseI64ArrayAttr:$global_static_strides, "
    "Variadic<Index>:$shared_dynamic_sizes, DenseI64ArrayAttr:$shared_static_sizes, "
    "Optional<AMDGPU_ConcreteVector<I1, 16>>:$workgroup_mask, Optional<I1>:$early_timeout, "
    "Optional<I32>:$pad_amount, Optional<I32>:$pad_interval, "
    "Optional<MemRefOf<[AMDGPU_DsBarrierStateType]>>:$atomic_barrier_address, Variadic<Index>:$atomic_barrier_indices, "
    "Optional<Index>:$global_increment, Optional<I32>:$lds_increment, Optional<Index>:$iteration_count"
)
_DESCRIPTOR_FORMAT = (
    "`globalSize` custom<DynamicIndexList>($global_dynamic_sizes, $global_static_sizes) "
    "`globalStride` custom<DynamicIndexList>($global_dynamic_strides, $global_static_strides) "
    "`sharedSize` custom<DynamicIndexList>($shared_dynamic_sizes, $shared_static_sizes) "
    "( `padShared` `(` $pad_amount^ `every` $pad_interval `)` )? "
    "( `workgroupMask` $workgroup_mask^ ( `earlyTimeout` $early_timeout^)?)? "
    "( `atomicBarrier` `(` $atomic_barrier_address^ `[` $atomic_barrier_indices `]` `:` type($atomic_barrier_address) `)`)? "
    "( `iterate` $global_increment^ `,` $lds_increment `,` $iteration_count )? "
)
_BARRIER_STATE = "MemRefOf<[AMDGPU_DsBarrierStateType]>:$base, Variadic<Index>:$indices"


def _atomic(mnemonic: str, summary: str, value: str) -> OpDef:
    return declare(f"amdgpu.raw_buffer_atomic_{mnemonic}", summary, ins=f"{value}:$value, {_BUFFER_ARGS}", outs="", format=_ATOMIC_FORMAT)


def _dma_base(mnemonic: str, summary: str, base: str) -> OpDef:
    return declare(
        f"amdgpu.{mnemonic}",
        summary,
        traits="pure",
        ins="AnyMemRef:$global, Variadic<Index>:$global_indices, AnyMemRef:$lds, Variadic<Index>:$lds_indices",
        outs=f"{base}:$base",
        format="$global `[` $global_indices `]` `,` $lds `[` $lds_indices `]` attr-dict `:` type($global) `,` type($lds) `->` type(results)",
    )


def _descriptor(mnemonic: str, kind: str, base: str, head: str) -> OpDef:
    """make_dma_descriptor and make_gather_dma_descriptor: `head` reads the base (and gather indices)."""
    indices = " `,` type($indices)" if "$indices" in head else ""
    return declare(
        f"amdgpu.{mnemonic}",
        f"The descriptor of {kind} tensor DMA between global memory and LDS.",
        traits="pure",
        ins=f"{base}, {_DESCRIPTOR_ARGS}",
        outs="AMDGPU_TDMDescriptorType:$desc",
        format=f"{head} {_DESCRIPTOR_FORMAT}attr-dict `:` qualified(type($base)){indices} `->` type(results)",
    )


def _tensor_transfer(mnemonic: str, summary: str) -> OpDef:
    return declare(f"amdgpu.{mnemonic}", summary, ins="AMDGPU_TDMDescriptorType:$desc", outs="", format="$desc attr-dict `:` qualified(type($desc))")


def _barrier_state_field(field: str, result: str) -> OpDef:
    return declare(
        f"amdgpu.ds_barrier_state_{field}",
        f"The {field.replace('_', ' ')} of an in-LDS barrier state.",
        traits="pure",
        ins="AMDGPU_DsBarrierStateType:$state",
        outs=f"{result}:$res",
        format="$state attr-dict `:` type($state) `->` type($res)",
    )


OPS: tuple[OpDef, ...] = (
    declare(
        "amdgpu.ext_packed_fp8",
        "Extends one or two packed 8-bit floats to f32.",
        traits="pure",
        ins="AnyType:$source, ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$index",
        outs="AnyType:$res",
        format="attr-dict $source `[` $index `]` `:` type($source) `to` type($res)",
    ),
    declare(
        "amdgpu.scaled_ext_packed_matrix",
        "Extends a wave-wide matrix of packed small floats with per-block scales.",
        traits="pure",
        ins=(
            "AnyVectorOfNonZeroRank:$source, FixedVectorOfShapeAndType<[4], F8E8M0FNU>:$scale, "
            "ConfinedAttr<I32Attr, [IntIsOneOf<[16, 32]>]>:$blockSize, ConfinedAttr<I32Attr, [IntIsOneOf<[0, 16]>]>:$firstScaleLane, "
            "ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>:$firstScaleByte"
        ),
        outs="AnyVectorOfNonZeroRank:$res",
        format=(
            "attr-dict $source `scale` `(` $scale `)` `blockSize` `(` $blockSize `)` `firstScaleLane` `(` $firstScaleLane`)` "
            "`firstScaleByte` `(` $firstScaleByte `)` `:` type($source) `,` type($scale) `->` type($res)"
        ),
    ),
    declare(
        "amdgpu.scaled_ext_packed",
        "Extends two packed small floats to a pair of floats, times a scale.",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$source, F32:$scale, ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<7>]>:$index",
        outs="AnyVectorOfNonZeroRank:$res",
        format="attr-dict $source `[` $index `]` `,` $scale `:` type($source) `to` type($res)",
    ),
    declare(
        "amdgpu.packed_trunc_2xfp8",
        "Rounds two f32 into one half of a vector of four 8-bit floats.",
        traits="pure",
        ins="F32:$sourceA, Optional<F32>:$sourceB, ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$wordIndex, " + _EXISTING,
        outs="AnyVectorOfNonZeroRank:$res",
        format=(
            "attr-dict $sourceA `,` ($sourceB^):(`undef`)? `into` ($existing^):(`undef`)? `[` `word` $wordIndex `]` "
            "`:` type($sourceA) `to` type($res) (`into` type($existing)^)?"
        ),
    ),
    declare(
        "amdgpu.packed_scaled_trunc",
        "Scales and rounds floats into part of a packed vector of small floats.",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$source, F32:$scale, ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<7>]>:$index, " + _EXISTING,
        outs="AnyVectorOfNonZeroRank:$res",
        format=(
            "attr-dict $source `into` ($existing^):(`undef`)? `[` $index `]` `,` $scale "
            "`:` type($source) `to` type($res) (`into` type($existing)^)?"
        ),
    ),
    declare(
        "amdgpu.packed_stoch_round_fp8",
        "Rounds an f32 stochastically into one element of a vector of four 8-bit floats.",
        traits="pure",
        ins="F32:$source, I32:$stochiasticParam, ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$storeIndex, " + _EXISTING,
        outs="AnyVectorOfNonZeroRank:$res",
        format=(
            "attr-dict $source `+` $stochiasticParam `into` ($existing^):(`undef`)? `[` $storeIndex `]` "
            "`:` type($source) `to` type($res) (`into` type($existing)^)?"
        ),
    ),
    declare(
        "amdgpu.fat_raw_buffer_cast",
        "Views a memref as a raw buffer fat pointer (address space fat_raw_buffer).",
        traits="pure",
        ins=(
            "AnyMemRef:$source, Optional<I64>:$validBytes, Optional<I<14>>:$cacheSwizzleStride, "
            'DefaultValuedAttr<BoolAttr, "true">:$boundsCheck, UnitAttr:$resetOffset'
        ),
        outs="AnyMemRef:$result",
        format=(
            "$source oilist (`validBytes` `(` $validBytes `)` | `cacheSwizzleStride` `(` $cacheSwizzleStride `)` "
            "| `boundsCheck` `(` $boundsCheck `)` | `resetOffset` $resetOffset ) attr-dict `:` type($source) `to` type($result)"
        ),
    ),
    declare(
        "amdgpu.raw_buffer_load",
        "Loads from a memref through the buffer load intrinsics.",
        ins=_BUFFER_ARGS,
        outs="AnyType:$value",
        format=f"attr-dict $memref `[` $indices `]` {_SGPR} `:` type($memref) (`,` type($indices)^)? `->` type($value)",
    ),
    declare(
        "amdgpu.raw_buffer_store",
        "Stores into a memref through the buffer store intrinsics.",
        ins="AnyType:$value, " + _BUFFER_ARGS,
        outs="",
        format=f"attr-dict $value `->` $memref `[` $indices `]` {_SGPR} `:` type($value) `->` type($memref) (`,` type($indices)^)?",
    ),
    declare(
        "amdgpu.raw_buffer_atomic_cmpswap",
        "Atomic compare-and-swap on a memref element through the buffer intrinsics; returns the old value.",
        ins="AnyType:$src, AnyType:$cmp, " + _BUFFER_ARGS,
        outs="AnyType:$value",
        types=("AllTypesMatch<src, cmp, value>",),
        format=f"attr-dict $src `,` $cmp `->` $memref `[` $indices `]` {_SGPR} `:` type($value) `->` type($memref) `,` type($indices)",
    ),
    _atomic(
        "fadd",
        "Atomic floating-point add on a memref element through the buffer intrinsics.",
        "AnyTypeOf<[F32, VectorOfLengthAndType<[2], [F16, BF16]>]>",
    ),
    _atomic("fmax", "Atomic floating-point max on a memref element through the buffer intrinsics.", "AnyTypeOf<[F32, F64]>"),
    _atomic("smax", "Atomic signed max on an i32 memref element through the buffer intrinsics.", "I32"),
    _atomic("umin", "Atomic unsigned min on an i32 memref element through the buffer intrinsics.", "I32"),
    declare(
        "amdgpu.dpp",
        "Permutes a value across the lanes of a wavefront (data parallel primitives).",
        traits="pure",
        ins=(
            "AnyType:$old, AnyType:$src, AMDGPU_DPPPermAttr:$kind, OptionalAttr<AnyAttrOf<[I32Attr, ArrayAttr, UnitAttr]>>:$permArgument, "
            'DefaultValuedAttr<I32Attr, "0xf">:$row_mask, DefaultValuedAttr<I32Attr, "0xf">:$bank_mask, '
            'DefaultValuedAttr<BoolAttr, "false">:$bound_ctrl'
        ),
        outs="AnyType:$result",
        types=("AllTypesMatch<result, old, src>",),
        format="$old $src $kind (`(` $permArgument^ `)`)? attr-dict `:` type($result)",
    ),
    declare(
        "amdgpu.swizzle_bitmode",
        "Swizzles a value across lanes by and/or/xor masks of the lane id (ds_swizzle).",
        traits="pure",
        ins="AnyType:$src, I32Attr:$and_mask, I32Attr:$or_mask, I32Attr:$xor_mask",
        outs="AnyType:$result",
        types=("AllTypesMatch<result, src>",),
        format="$src $and_mask $or_mask $xor_mask attr-dict `:` type($result)",
    ),
    declare(
        "amdgpu.permlane_swap",
        "Swaps a value between rows of 16 or 32 lanes.",
        traits="pure",
        ins='AnyType:$src, I32Attr:$row_length, DefaultValuedAttr<BoolAttr, "false">:$fetch_inactive, DefaultValuedAttr<BoolAttr, "false">:$bound_ctrl',
        outs="AnyType:$result",
        types=("AllTypesMatch<result, src>",),
        format="$src $row_length attr-dict `:` type($result)",
    ),
    declare("amdgpu.lds_barrier", "Workgroup barrier that also waits for pending LDS operations.", ins="", outs="", format="attr-dict"),
    declare("amdgpu.sched_barrier", "Fences scheduler code motion.", ins="AMDGPU_SchedBarrierOpOptAttr:$opts", outs="", format="`allow` `=` $opts attr-dict"),
    declare(
        "amdgpu.memory_counter_wait",
        "Waits until hardware memory counters drop to the given values.",
        ins=(
            "OptionalAttr<I32Attr>:$load, OptionalAttr<I32Attr>:$store, OptionalAttr<I32Attr>:$ds, "
            "OptionalAttr<I32Attr>:$exp, OptionalAttr<I32Attr>:$tensor"
        ),
        outs="",
        format="oilist( `load` `(` $load `)` | `store` `(` $store `)` | `ds` `(` $ds `)` | `exp` `(` $exp `)` | `tensor` `(` $tensor `)` ) attr-dict",
    ),
    declare(
        "amdgpu.mfma",
        "Matrix fused multiply-add on CDNA (mfma instructions).",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, DefaultValuedAttr<I32Attr, \"1\">:$blocks, "
            "AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, "
            'DefaultValuedAttr<I32Attr, "0">:$cbsz, DefaultValuedAttr<I32Attr, "0">:$abid, '
            'DefaultValuedAttr<AMDGPU_MFMAPermBAttr, "::mlir::amdgpu::MFMAPermB::none">:$blgp, '
            "UnitAttr:$reducePrecision, UnitAttr:$negateA, UnitAttr:$negateB, UnitAttr:$negateC"
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=f"{_MNK} $sourceA `*` $sourceB `+` $destC attr-dict `blgp` `=` $blgp {_MATRIX_TYPES}",
    ),
    declare(
        "amdgpu.wmma",
        "Wave matrix multiply-accumulate (wmma instructions).",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, "
            'DefaultValuedAttr<I32Attr, "0">:$subwordOffset, UnitAttr:$unsignedA, UnitAttr:$unsignedB, UnitAttr:$clamp'
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=f"{_MNK} $sourceA `*` $sourceB `+` $destC attr-dict {_MATRIX_TYPES}",
    ),
    declare(
        "amdgpu.sparse_mfma",
        "Matrix multiply-accumulate with a 2:4 structured-sparse A on CDNA (smfmac instructions).",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, AnyType:$sparseIdx, "
            'DefaultValuedAttr<I32Attr, "0">:$cbsz, DefaultValuedAttr<I32Attr, "0">:$abid'
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=f"{_MNK} $sourceA `*` $sourceB `+` $destC {_SPARSE} attr-dict {_MATRIX_TYPES}",
    ),
    declare(
        "amdgpu.sparse_wmma",
        "Wave matrix multiply-accumulate with a 2:4 structured-sparse A (swmmac instructions).",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, AnyType:$sparseIdx, "
            "UnitAttr:$unsignedA, UnitAttr:$unsignedB, UnitAttr:$reuseA, UnitAttr:$reuseB, UnitAttr:$clamp, UnitAttr:$wave64"
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=f"{_MNK} $sourceA `*` $sourceB `+` $destC {_SPARSE} attr-dict {_MATRIX_TYPES}",
    ),
    declare(
        "amdgpu.dot",
        "Dot product of two small vectors accumulated into a scalar.",
        traits="pure",
        ins="AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, UnitAttr:$unsignedA, UnitAttr:$unsignedB, UnitAttr:$clamp",
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=f"$sourceA `*` $sourceB `+` $destC attr-dict {_MATRIX_TYPES}",
    ),
    declare(
        "amdgpu.gather_to_lds",
        "Gathers per-lane global values into contiguous LDS (global_load_lds).",
        ins="AnyMemRef:$src, Variadic<Index>:$srcIndices, AnyMemRef:$dst, Variadic<Index>:$dstIndices, TypeAttr:$transferType, UnitAttr:$async",
        outs="",
        format=(
            "(`async` $async^)? $src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]` attr-dict "
            "`:` $transferType `,` type($src) `,` type($dst)"
        ),
    ),
    declare(
        "amdgpu.global_load_async_to_lds",
        "Loads from global memory into LDS asynchronously, bypassing registers.",
        ins="AnyMemRef:$src, Variadic<Index>:$srcIndices, AnyMemRef:$dst, Variadic<Index>:$dstIndices, TypeAttr:$transferType, Optional<I1>:$mask",
        outs="",
        format=(
            "$src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]`  (`,` $mask^)? attr-dict "
            "`:` $transferType `,` type($src) `,` type($dst)"
        ),
    ),
    declare(
        "amdgpu.transpose_load",
        "Subgroup load of a matrix from LDS that returns each lane a row of its transpose.",
        ins="AnyMemRef:$src, Variadic<Index>:$srcIndices",
        outs="AnyVectorOfNonZeroRank:$result",
        format="$src `[` $srcIndices `]` attr-dict `:` type($src) `->` type($result)",
    ),
    declare(
        "amdgpu.global_transpose_load",
        "Subgroup load of a matrix from global memory that returns each lane a row of its transpose.",
        ins="AnyMemRef:$src, Variadic<Index>:$srcIndices",
        outs="AnyVectorOfNonZeroRank:$result",
        format="$src `[` $srcIndices `]` attr-dict `:` type($src) `->` type($result)",
    ),
    declare(
        "amdgpu.scaled_mfma",
        "Matrix fused multiply-add of small floats with per-block scales on CDNA.",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, "
            "AnyType:$scalesA, AnyType:$scalesB, I32Attr:$scalesIdxA, I32Attr:$scalesIdxB"
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=(
            f"{_MNK} ` ` `(` $scalesA `[` $scalesIdxA `]` `*` $sourceA `)` `*` "
            "`(` $scalesB `[` $scalesIdxB `]` `*` $sourceB `)` `+` $destC attr-dict "
            "`:` type($scalesA) `,` type($sourceA) `,` type($scalesB) `,` type($sourceB) `,` type($destC)"
        ),
    ),
    declare(
        "amdgpu.scaled_wmma",
        "Wave matrix multiply-accumulate of small floats with per-block scales.",
        traits="pure",
        ins=(
            "I32Attr:$m, I32Attr:$n, I32Attr:$k, AnyType:$sourceA, AnyType:$sourceB, AnyType:$destC, "
            "AnyVectorOfNonZeroRank:$scaleA, I32Attr:$a_first_scale_lane, AnyVectorOfNonZeroRank:$scaleB, I32Attr:$b_first_scale_lane"
        ),
        outs="AnyType:$destD",
        types=_ACCUMULATE,
        format=(
            f"{_MNK} ` ` `(` $scaleA `*` $sourceA `)` `*` `(` $scaleB `*` $sourceB `)` `+` $destC attr-dict "
            "`:` type($scaleA) `,` type($sourceA) `,` type($scaleB) `,` type($sourceB) `,` type($destC)"
        ),
    ),
    _dma_base("make_gather_dma_base", "The global and LDS base addresses of a gathering tensor DMA.", "AMDGPU_TDMGatherBaseType"),
    _dma_base("make_dma_base", "The global and LDS base addresses of a tensor DMA.", "AMDGPU_TDMBaseType"),
    _descriptor("make_gather_dma_descriptor", "a gathering", "AMDGPU_TDMGatherBaseType:$base, AnyVectorOfNonZeroRank:$indices", "$base `[` $indices `]`"),
    _descriptor("make_dma_descriptor", "a", "AMDGPU_TDMBaseType:$base", "$base"),
    _tensor_transfer("tensor_load_to_lds", "Loads a tensor of up to five dimensions from global memory into LDS."),
    _tensor_transfer("tensor_store_from_lds", "Stores a tensor of up to five dimensions from LDS to global memory."),
    declare(
        "amdgpu.ds_barrier_init",
        "Initializes an in-LDS barrier for a number of participants.",
        ins=_BARRIER_STATE + ", I32:$participants",
        outs="",
        format="$base `[` $indices `]` `,` $participants attr-dict `:` type($base) `,` type($participants)",
    ),
    declare(
        "amdgpu.ds_barrier_poll_state",
        "Reads the state of an in-LDS barrier atomically.",
        ins=_BARRIER_STATE,
        outs="AMDGPU_DsBarrierStateType:$out",
        format="$base `[` $indices `]` attr-dict `:` type($base) `->` type($out)",
    ),
    declare(
        "amdgpu.ds_async_barrier_arrive",
        "Arrives on an in-LDS barrier once the pending asynchronous loads complete.",
        ins=_BARRIER_STATE,
        outs="",
        format="$base `[` $indices `]` attr-dict `:` type($base)",
    ),
    declare(
        "amdgpu.ds_barrier_arrive",
        "Arrives on an in-LDS barrier with a count; returns its previous state.",
        ins=_BARRIER_STATE + ", I64:$count",
        outs="AMDGPU_DsBarrierStateType:$out",
        format="$base `[` $indices `]` `,` $count attr-dict `:` type($base) `,` type($count) `->` type($out)",
    ),
    *(_barrier_state_field(field, result) for field, result in (("phase", "I32"), ("pending_count", "I32"), ("init_count", "I32"))),
    _barrier_state_field("phase_parity", "I1"),
    declare(
        "amdgpu.global_prefetch",
        "Prefetches the cache line of a global memref element.",
        ins="AnyMemRef:$src, Variadic<I64>:$indices, AMDGPU_LoadTemporalHintAttr:$temporalHint, AMDGPU_CacheScopeAttr:$cacheScope, UnitAttr:$speculative",
        outs="",
        format="$src `[` $indices `]` $temporalHint $cacheScope (`speculative` $speculative^)? attr-dict `:` qualified(type($src))",
    ),
)
