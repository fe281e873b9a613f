"""The nvgpu dialect's op definitions (upstream NVGPUOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

# The mbarrier ops address one barrier of a group: `%barriers[%mbarId]`.
_BARRIER = "$barriers `[` $mbarId `]`"
_PREDICATE = "(`,` `predicate` `=` $predicate^)?"
_MMA_TYPES = "`:` `(` type($matrixA) `,` type($matrixB) `,` type($matrixC) `)` `->` type($res)"
_MMA_INS = "AnyVectorOfNonZeroRank:$matrixA, AnyVectorOfNonZeroRank:$matrixB, AnyVectorOfNonZeroRank:$matrixC, "


def _mbarrier(mnemonic: str, summary: str, ins: str, format: str, outs: str = "") -> OpDef:
    return declare(f"nvgpu.mbarrier.{mnemonic}", summary, ins="NVGPU_MBarrierGroup:$barriers, " + ins, outs=outs, format=format)


OPS: tuple[OpDef, ...] = (
    declare(
        "nvgpu.ldmatrix",
        "Loads a warp's matrix fragments from shared memory into registers.",
        ins='Arg<AnyMemRef, "", [MemReadAt<0, FullEffect>]>:$srcMemref, Variadic<Index>:$indices, BoolAttr:$transpose, I32Attr:$numTiles',
        outs="AnyVectorOfNonZeroRank:$res",
        format="$srcMemref`[` $indices `]` attr-dict `:` type($srcMemref) `->` type($res)",
    ),
    declare(
        "nvgpu.mma.sync",
        "Warp-level matrix multiply-accumulate, as nvvm.mma.sync.",
        traits="pure",
        ins=_MMA_INS + "I64ArrayAttr:$mmaShape, OptionalAttr<UnitAttr>:$tf32Enabled",
        outs="AnyVectorOfNonZeroRank:$res",
        format="`(` $matrixA`,` $matrixB`,` $matrixC `)` attr-dict " + _MMA_TYPES,
    ),
    declare(
        "nvgpu.mma.sp.sync",
        "Warp-level matrix multiply-accumulate with a 2:4 structured-sparse A operand.",
        traits="pure",
        ins=_MMA_INS + (
            "NVGPU_MmaSparseSyncMetadataType:$sparseMetadata, I64ArrayAttr:$mmaShape, "
            'DefaultValuedAttr<I32Attr, "0">:$sparsitySelector, OptionalAttr<UnitAttr>:$tf32Enabled'
        ),
        outs="AnyVectorOfNonZeroRank:$res",
        format="`(` $matrixA`,` $matrixB`,` $matrixC `)` `metadata` `(` $sparseMetadata `)` attr-dict " + _MMA_TYPES,
    ),
    declare(
        "nvgpu.device_async_copy",
        "Starts an asynchronous copy from global to shared memory; returns its token.",
        ins=(
            'Arg<AnyMemRef, "", [MemWrite]>:$dst, Variadic<Index>:$dstIndices, Arg<AnyMemRef, "", [MemRead]>:$src, Variadic<Index>:$srcIndices, '
            "IndexAttr:$dstElements, Optional<Index>:$srcElements, OptionalAttr<UnitAttr>:$bypassL1"
        ),
        outs="NVGPU_DeviceAsyncToken:$asyncToken",
        format=(
            "$src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]` `,` $dstElements (`,` $srcElements^)? "
            "attr-dict `:` type($src) `to` type($dst)"
        ),
    ),
    declare(
        "nvgpu.device_async_create_group",
        "Groups pending asynchronous copies; returns a token to wait on.",
        ins="Variadic<NVGPU_DeviceAsyncToken>:$inputTokens",
        outs="NVGPU_DeviceAsyncToken:$asyncToken",
        format="$inputTokens attr-dict",
    ),
    declare(
        "nvgpu.device_async_wait",
        "Blocks until a group of asynchronous copies has completed.",
        ins="NVGPU_DeviceAsyncToken:$asyncDependencies, OptionalAttr<I32Attr>:$numGroups",
        outs="",
        format="$asyncDependencies attr-dict",
    ),
    declare(
        "nvgpu.mbarrier.create",
        "Creates a group of mbarrier objects in shared memory.",
        ins="",
        outs="NVGPU_MBarrierGroup:$barriers",
        format="attr-dict `->` type($barriers)",
    ),
    _mbarrier(
        "init",
        "Initializes an mbarrier with its number of participating threads.",
        "Index:$count, Index:$mbarId, Optional<I1>:$predicate",
        f"{_BARRIER} `,` $count {_PREDICATE} attr-dict `:` type($barriers)",
    ),
    _mbarrier(
        "test.wait",
        "Tests without blocking whether an mbarrier has completed the phase of a token.",
        "NVGPU_MBarrierToken:$token, Index:$mbarId",
        f"{_BARRIER} `,` $token attr-dict `:` type($barriers) `,` type($token)",
        outs="I1:$waitComplete",
    ),
    _mbarrier(
        "arrive",
        "Arrives on an mbarrier; returns a token of the phase.",
        "Index:$mbarId",
        f"{_BARRIER} attr-dict `:` type($barriers) `->` type($token)",
        outs="NVGPU_MBarrierToken:$token",
    ),
    _mbarrier(
        "arrive.nocomplete",
        "Arrives on an mbarrier with a count, without completing its phase.",
        "Index:$mbarId, Index:$count",
        f"{_BARRIER} `,` $count attr-dict `:` type($barriers) `->` type($token)",
        outs="NVGPU_MBarrierToken:$token",
    ),
    _mbarrier(
        "arrive.expect_tx",
        "Arrives on an mbarrier and raises its expected transaction count.",
        "Index:$txcount, Index:$mbarId, Optional<I1>:$predicate",
        f"{_BARRIER} `,` $txcount {_PREDICATE} attr-dict `:` type($barriers)",
    ),
    _mbarrier(
        "try_wait.parity",
        "Waits, possibly blocking, for an mbarrier to complete the phase of a parity.",
        "I1:$phaseParity, Index:$ticks, Index:$mbarId",
        f"{_BARRIER} `,` $phaseParity `,` $ticks attr-dict `:` type($barriers)",
    ),
    _mbarrier(
        "get",
        "The shared-memory address of one mbarrier of a group, as an integer.",
        "Index:$mbarId",
        f"{_BARRIER} attr-dict `:` type($barriers) `->` type($mbarrierPointer)",
        outs="AnyTypeOf<[I32, I64]>:$mbarrierPointer",
    ),
    declare(
        "nvgpu.tma.fence.descriptor",
        "Fences a TMA descriptor that the host may have modified.",
        ins="NVGPU_TensorMapDescriptor:$tensorMapDescriptor",
        outs="",
        format="$tensorMapDescriptor attr-dict `:` type($tensorMapDescriptor)",
    ),
    declare(
        "nvgpu.tma.prefetch.descriptor",
        "Prefetches the cache line of a TMA descriptor.",
        ins="NVGPU_TensorMapDescriptor:$tensorMapDescriptor, Optional<I1>:$predicate",
        outs="",
        format=f"$tensorMapDescriptor {_PREDICATE} attr-dict `:` type($tensorMapDescriptor)",
    ),
    declare(
        "nvgpu.tma.async.load",
        "Loads a tile from global to shared memory with the Tensor Memory Accelerator.",
        ins=(
            'Arg<AnyMemRef, "", [MemWriteAt<0, FullEffect>]>:$dst, '
            "NVGPU_MBarrierGroup:$barriers, NVGPU_TensorMapDescriptor:$tensorMapDescriptor, "
            "Variadic<Index>:$coordinates, Index:$mbarId, Optional<I16>:$multicastMask, Optional<I1>:$predicate"
        ),
        outs="",
        format=(
            "$tensorMapDescriptor `[` $coordinates `]` `,` " + _BARRIER + " `to` $dst "
            "(`multicast_mask` `=` $multicastMask^ )? " + _PREDICATE + " "
            "attr-dict `:` type($tensorMapDescriptor) `,` type($barriers) `->` type($dst)"
        ),
    ),
    declare(
        "nvgpu.tma.async.store",
        "Stores a tile from shared to global memory with the Tensor Memory Accelerator.",
        ins=(
            'Arg<AnyMemRef, "", [MemReadAt<0, FullEffect>]>:$src, NVGPU_TensorMapDescriptor:$tensorMapDescriptor, '
            "Variadic<Index>:$coordinates, Optional<I1>:$predicate"
        ),
        outs="",
        format=(
            "$src `to` $tensorMapDescriptor `[` $coordinates `]` " + _PREDICATE + " "
            "attr-dict `:` type($src) `->` type($tensorMapDescriptor)"
        ),
    ),
    declare(
        "nvgpu.tma.create.descriptor",
        "Creates a TMA descriptor for tiles of a memref.",
        ins="AnyUnrankedMemRef:$tensor, Variadic<Index>:$boxDimensions",
        outs="NVGPU_TensorMapDescriptor:$tensorMap",
        format="$tensor `box` `[` $boxDimensions `]` attr-dict `:` type($tensor) `->` type($tensorMap)",
    ),
    declare(
        "nvgpu.warpgroup.generate.descriptor",
        "Builds the warpgroup matrix descriptor of a shared-memory operand of nvgpu.warpgroup.mma.",
        ins="AnyMemRef:$tensor, NVGPU_TensorMapDescriptor:$tensorMap",
        outs="NVGPU_WarpgroupMatrixDescriptor:$descriptor",
        format="$tensor `,` $tensorMap attr-dict `:` type($tensor) `,` type($tensorMap) `->` type($descriptor)",
    ),
    declare(
        "nvgpu.warpgroup.mma",
        "Warpgroup-level matrix multiply-accumulate of two descriptors into an accumulator.",
        ins=(
            "NVGPU_WarpgroupMatrixDescriptor:$descriptorA, NVGPU_WarpgroupMatrixDescriptor:$descriptorB, "
            'DefaultValuedOptionalAttr<I64Attr, "1">:$waitGroup, OptionalAttr<UnitAttr>:$transposeA, '
            "OptionalAttr<UnitAttr>:$transposeB, NVGPU_WarpgroupAccumulator:$matrixC"
        ),
        outs="NVGPU_WarpgroupAccumulator:$matrixD",
        format=(
            "$descriptorA`,` $descriptorB`,` $matrixC attr-dict "
            "`:` type($descriptorA) `,` type($descriptorB) `,` type($matrixC) `->` type($matrixD)"
        ),
    ),
    declare(
        "nvgpu.warpgroup.mma.store",
        "Stores a warpgroup accumulator to a memref.",
        ins="NVGPU_WarpgroupAccumulator:$matrixD, AnyMemRef:$dstMemref",
        outs="",
        format="$matrixD `,` $dstMemref attr-dict `:` type($matrixD) `to` type($dstMemref)",
    ),
    declare(
        "nvgpu.warpgroup.mma.init.accumulator",
        "Creates a zeroed accumulator for nvgpu.warpgroup.mma.",
        ins="",
        outs="NVGPU_WarpgroupAccumulator:$matrixC",
        format="attr-dict `->` type($matrixC)",
    ),
    declare(
        "nvgpu.rcp",
        "Reciprocal of each element of an f32 vector.",
        traits="pure same_type",
        ins='VectorOfNonZeroRankOf<[F32]>:$in, DefaultValuedAttr<RcpRoundingModeAttr, "RcpRoundingMode::APPROX">:$rounding, UnitAttr:$ftz',
        outs="VectorOfNonZeroRankOf<[F32]>:$out",
        format="$in `{` `rounding` `=` $rounding (`,` `ftz` $ftz^)? `}` attr-dict `:` type($out)",
    ),
)
