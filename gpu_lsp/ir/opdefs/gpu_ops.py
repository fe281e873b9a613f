"""The gpu dialect's op definitions (upstream GPUOps.td)."""

from __future__ import annotations

from typing import Any

from gpu_lsp.ir.opdefs.families import OpClass, op_class, returning
from gpu_lsp.ir.opdefs.model import OpDef, Since, declare

# gpu.binary's offloading handler when its text names none (custom<OffloadingHandler>); not printed.
_UPPER_BOUND = "OptionalAttr<IndexAttr>:$upper_bound"
_UPPER_BOUND_FORMAT = "(`upper_bound` $upper_bound^)?"


# The changes that introduced ops newer than LLVM 14 (`since`: GPU009 reports them at older `mlir-version`s).
_CLUSTERS = Since(18, "llvm-project PR #72871 (2023-11): thread block clusters, gpu.cluster_id and gpu.cluster_dim")
_CLUSTER_BLOCKS = Since(19, "llvm-project PR #95245 (2024-06): gpu.cluster_dim_blocks and gpu.cluster_block_id")
NAMED_BARRIERS = Since(23, "llvm-project PR #195692 (2026-05): gpu.barrier scope and named barriers", oracle=False)


# A gpu op whose declaration is complete: it has no regions unless it declares them.
_gpu_op = op_class("gpu", regions="")
# How many of the entry block's arguments after the function's (or the launch's) are workgroup
# attributions: the custom readers of gpu.func and gpu.launch always record it, 0 for none, and a
# generic form that leaves it out reads to the same IR (parser.builder).
_WORKGROUP_COUNT = 'DefaultValuedAttr<I64Attr, "0">:$workgroup_attributions'


def _index_op(ins: str, format: str) -> OpClass:
    """GPU_IndexOp's shape: a pure op giving an index (with an optional upper bound)."""
    return op_class("gpu", regions="", traits="pure", ins=ins, outs="Index:$result", format=format)


def _async_op(mnemonic: str, summary: str, *, ins: str = "", outs: str = "", format: str, **own: Any) -> OpDef:
    """A GPU_AsyncOpInterface op: its async dependencies come first among the operands and are
    written first (`async [%deps]`), its optional async token comes last among the results."""
    return _gpu_op(
        mnemonic,
        summary,
        traits="async",
        ins=", ".join(part for part in ("Variadic<GPU_AsyncToken>:$asyncDependencies", ins) if part),
        outs=", ".join(part for part in (outs, "Optional<GPU_AsyncToken>:$asyncToken") if part),
        format=f"custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) {format}",
        **own,
    )


# One index of a grid, block or cluster dimension; the lane id; the subgroup id, count and size (their type written).
_dimension_op = _index_op(f"GPU_DimensionAttr:$dimension, {_UPPER_BOUND}", f"$dimension {_UPPER_BOUND_FORMAT} attr-dict")
_lane_query = _index_op(_UPPER_BOUND, f"{_UPPER_BOUND_FORMAT} attr-dict")
_subgroup_query = _index_op(_UPPER_BOUND, f"{_UPPER_BOUND_FORMAT} attr-dict `:` type($result)")

OPS: tuple[OpDef, ...] = (
    declare(
        "gpu.module",
        "A GPU device compilation unit holding gpu.func kernels and device functions.",
        ins="SymbolNameAttr:$sym_name, OptionalAttr<GPUTargetArrayAttr>:$targets, OptionalAttr<OffloadingTranslationAttr>:$offloadingHandler",
        outs="",
        regions="SizedRegion<1>:$bodyRegion",
        traits="graph isolated no_terminator symbol symbol_table",
        format="$sym_name (`<` $offloadingHandler^ `>`)? ($targets^)? attr-dict-with-keyword $bodyRegion",
        syntax="gpu.module @name [<handler>] [[#target, ...]] [attributes {...}] { ... }",
    ),
    _gpu_op(
        "binary",
        "Serialized device objects, usable as a kernel container by gpu.launch_func.",
        ins="SymbolNameAttr:$sym_name, OptionalAttr<OffloadingTranslationAttr>:$offloadingHandler, GPUObjectArrayAttr:$objects",
        outs="",
        traits="symbol",
        format="$sym_name custom<OffloadingHandler>($offloadingHandler) attr-dict $objects",
        syntax="gpu.binary @name [<handler>] [attr-dict] [#gpu.object<...>, ...]",
    ),
    declare(
        "gpu.func",
        "A GPU function (a kernel when marked `kernel`), with optional workgroup and private attributions.",
        ins=(
            "TypeAttrOf<FunctionType>:$function_type, OptionalAttr<DictArrayAttr>:$arg_attrs, "
            "OptionalAttr<DictArrayAttr>:$res_attrs, OptionalAttr<DictArrayAttr>:$workgroup_attrib_attrs, "
            "OptionalAttr<DictArrayAttr>:$private_attrib_attrs, "
            "OptionalAttr<GPU_OptionalDimSizeHintAttr>:$known_block_size, "
            "OptionalAttr<GPU_OptionalDimSizeHintAttr>:$known_grid_size, "
            "OptionalAttr<GPU_OptionalDimSizeHintAttr>:$known_cluster_size, "
            f"{_WORKGROUP_COUNT}, UnitAttr:$kernel"
        ),
        outs="",
        regions="AnyRegion:$body",
        traits="function isolated symbol",
        parents="gpu.module",
        syntax="gpu.func @name(%arg: T, ...) [-> R] [workgroup(%w : T, ...)] [private(%p : T, ...)] [kernel] [attributes {...}] { ... }",
    ),
    declare(
        "gpu.launch",
        "Launches an inline kernel: the region runs on a grid of blocks of threads.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$gridSizeX, Index:$gridSizeY, Index:$gridSizeZ, "
            "Index:$blockSizeX, Index:$blockSizeY, Index:$blockSizeZ, Optional<Index>:$clusterSizeX, "
            "Optional<Index>:$clusterSizeY, Optional<Index>:$clusterSizeZ, "
            "Optional<I32>:$dynamicSharedMemorySize, UnitAttr:$cooperative, "
            f"OptionalAttr<FlatSymbolRefAttr>:$module, OptionalAttr<FlatSymbolRefAttr>:$function, {_WORKGROUP_COUNT}"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="AnyRegion:$body",
        traits="async recursive_effects",
        syntax=(
            "%t = gpu.launch [async [%deps]] [clusters(...) in (...)] blocks(%bx, %by, %bz) in (%gx = %a, ...) "
            "threads(%tx, %ty, %tz) in (%sx = %b, ...) [dynamic_shared_memory_size %s] [module(@m)] "
            "[function(@f)] [cooperative] [workgroup(...)] [private(...)] { ... gpu.terminator }"
        ),
    ),
    _async_op(
        "launch_func",
        "Launches an outlined kernel (a gpu.func in a gpu.module) on a grid.",
        ins=(
            "SymbolRefAttr:$kernel, LaunchIndx:$gridSizeX, "
            "LaunchIndx:$gridSizeY, LaunchIndx:$gridSizeZ, LaunchIndx:$blockSizeX, LaunchIndx:$blockSizeY, "
            "LaunchIndx:$blockSizeZ, Optional<LaunchIndx>:$clusterSizeX, Optional<LaunchIndx>:$clusterSizeY, "
            "Optional<LaunchIndx>:$clusterSizeZ, Optional<I32>:$dynamicSharedMemorySize, "
            "Variadic<AnyType>:$kernelOperands, Optional<AnyType>:$asyncObject, UnitAttr:$cooperative"
        ),
        format=(
            ""
            "(`<` $asyncObject^ `:` type($asyncObject) `>`)? $kernel "
            "( `clusters` `in` ` ` `(` $clusterSizeX^ `,` $clusterSizeY `,` $clusterSizeZ `)` )? "
            "`blocks` `in` ` ` `(` $gridSizeX `,` $gridSizeY `,` $gridSizeZ `)` "
            "`threads` `in` ` ` `(` $blockSizeX `,` $blockSizeY `,` $blockSizeZ `)` "
            "custom<LaunchDimType>(type($gridSizeX), ref($clusterSizeX), type($clusterSizeX), type($clusterSizeY), type($clusterSizeZ)) "
            "(`dynamic_shared_memory_size` $dynamicSharedMemorySize^)? (`cooperative` $cooperative^)? "
            "custom<LaunchFuncOperands>($kernelOperands, type($kernelOperands)) attr-dict"
        ),
        syntax=(
            "%t = gpu.launch_func [async [%deps]] [<%stream : T>] @module::@kernel [clusters in (...)] "
            "blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz) [: T] [dynamic_shared_memory_size %s] "
            "[cooperative] [args(%a : T, ...)]"
        ),
    ),
    returning("gpu.return", "Returns from a gpu.func.", outs="", parents="gpu.func", regions=""),
    _gpu_op(
        "terminator",
        "Ends the body of a gpu.launch.",
        outs="",
        parents="gpu.launch",
        traits="pure region_return terminator",
        ins="",
        format="attr-dict",
    ),
    returning("gpu.yield", "Yields values from all_reduce and warp_execute_on_lane_0 regions.", "values", outs="", regions=""),
    _dimension_op("thread_id", "The thread index within its block."),
    _dimension_op("block_id", "The block index within the grid."),
    _dimension_op("block_dim", "The number of threads per block."),
    _dimension_op("grid_dim", "The number of blocks in the grid."),
    _dimension_op("global_id", "The thread index within the whole grid."),
    _dimension_op("cluster_id", "The cluster index within the grid.", since=_CLUSTERS),
    _dimension_op("cluster_dim", "The number of clusters in the grid.", since=_CLUSTERS),
    _dimension_op("cluster_dim_blocks", "The number of blocks per cluster.", since=_CLUSTER_BLOCKS),
    _dimension_op("cluster_block_id", "The block index within its cluster.", since=_CLUSTER_BLOCKS),
    _lane_query("lane_id", "The lane index within the subgroup."),
    _subgroup_query("subgroup_id", "The subgroup index within the workgroup."),
    _subgroup_query("num_subgroups", "The number of subgroups in the workgroup."),
    _subgroup_query("subgroup_size", "The number of lanes in a subgroup."),
    declare(
        "gpu.all_reduce",
        "Reduces a value across all threads of the workgroup, with a kind or a region.",
        traits="same_type",
        ins="AnyIntegerOrFloat:$value, OptionalAttr<GPU_AllReduceOperationAttr>:$op, UnitAttr:$uniform",
        outs="AnyIntegerOrFloat:$result",
        regions="AnyRegion:$body",
        format="custom<AllReduceOperation>($op) $value (`uniform` $uniform^)? $body attr-dict `:` functional-type(operands, results)",
    ),
    _gpu_op(
        "subgroup_reduce",
        "Reduces a value across the lanes of a subgroup, optionally in clusters.",
        traits="pure same_type",
        ins=(
            "AnyIntegerOrFloatOr1DVector:$value, GPU_AllReduceOperationAttr:$op, UnitAttr:$uniform, "
            'OptionalAttr<I32Attr>:$cluster_size, DefaultValuedAttr<I32Attr, "1">:$cluster_stride'
        ),
        outs="AnyIntegerOrFloatOr1DVector:$result",
        format=(
            "custom<AllReduceOperation>($op) $value (`uniform` $uniform^)? "
            "(`cluster` `(` `size` `=` $cluster_size^ (`,` `stride` `=` $cluster_stride^)? `)`)? "
            "attr-dict `:` functional-type(operands, results)"
        ),
    ),
    _gpu_op(
        "shuffle",
        "Moves a value between lanes of a subgroup (xor, up, down, idx); also returns whether the source lane was valid.",
        traits="pure",
        ins="AnyIntegerOrFloatOr1DVector:$value, I32:$offset, I32:$width, GPU_ShuffleModeAttr:$mode",
        outs="AnyIntegerOrFloatOr1DVector:$shuffleResult, I1:$valid",
        types=("AllTypesMatch<value, shuffleResult>",),
        format="$mode $value `,` $offset `,` $width attr-dict `:` type($value)",
    ),
    _gpu_op(
        "rotate",
        "Rotates a value among `width` lanes.",
        traits="pure",
        ins="AnyIntegerOrFloatOr1DVector:$value, I32Attr:$offset, I32Attr:$width",
        outs="AnyIntegerOrFloatOr1DVector:$rotateResult, I1:$valid",
        types=("AllTypesMatch<value, rotateResult>",),
        format="$value `,` $offset `,` $width attr-dict `:` type($value)",
        since=Since(21, "llvm-project PR #142796 (2025-06): gpu.rotate"),
    ),
    _gpu_op(
        "subgroup_broadcast",
        "Broadcasts a value from the first active lane or from a given lane.",
        ins="AnyType:$src, Optional<I32>:$lane, GPU_BroadcastTypeAttr:$broadcast_type",
        outs="AnyType:$result",
        types=("AllTypesMatch<result, src>",),
        format="$src `,` $broadcast_type ($lane^)? attr-dict `:` type($result)",
        since=Since(22, "llvm-project PR #152808 (2025-08): gpu.subgroup_broadcast"),
    ),
    _gpu_op(
        "barrier",
        "Synchronises all threads of a workgroup.",
        outs="",
        ins=(
            "Optional<GPU_NamedBarrier>:$named_barrier, OptionalAttr<GPU_AddressSpaceAttrArray>:$address_spaces, "
            "DefaultValuedOptionalAttr<GPU_ScopeAttr, \"workgroup\">:$scope"
        ),
        format=(
            "(`named` `(` $named_barrier^ `:` type($named_barrier) `)`)? (`memfence` $address_spaces^)? "
            "(`scope` $scope^)? attr-dict"
        ),
        syntax="gpu.barrier [named(%b : !gpu.named_barrier)] [memfence [#gpu.address_space<...>, ...]] [scope <subgroup|workgroup|cluster>]",
    ),
    _gpu_op(
        "printf",
        "Prints from device code.",
        outs="",
        ins="StrAttr:$format, Variadic<AnyTypeOf<[AnyInteger, Index, AnyFloat]>>:$args",
        format="$format attr-dict (`,` $args^ `:` type($args))?",
    ),
    _gpu_op(
        "dynamic_shared_memory",
        "The base of the kernel's dynamic shared memory.",
        traits="pure",
        ins="",
        outs="MemRefRankOf<[I8], [1]>:$resultMemref",
        format="attr-dict `:` type($resultMemref)",
        since=Since(18, "llvm-project PR #71546 (2023-11): gpu.dynamic_shared_memory"),
    ),
    declare(
        "gpu.warp_execute_on_lane_0",
        "Runs its region on lane 0 of a warp and distributes vectors between lanes.",
        ins="Index:$laneid, Variadic<AnyType>:$args, I64Attr:$warp_size",
        outs="Variadic<AnyType>:$results",
        regions="SizedRegion<1>:$warpRegion",
        traits="recursive_effects single_block",
        implicit_terminator="gpu.yield",
        syntax="%r = gpu.warp_execute_on_lane_0(%laneid)[32] [args(%v : T, ...)] [-> (T, ...)] { ... }",
    ),
    _async_op(
        "wait",
        "Waits for async tokens: blocks the host, or joins them into a new token with `async`.",
        format="attr-dict",
        syntax="[%t =] gpu.wait [async] [[%deps]]",
    ),
    _async_op(
        "alloc",
        "Allocates device (or host-shared) memory.",
        ins="Variadic<Index>:$dynamicSizes, Variadic<Index>:$symbolOperands, UnitAttr:$hostShared",
        outs="AnyMemRef:$memref",
        format=(
            "(` ` `host_shared` $hostShared^)? ` ` "
            "`(` $dynamicSizes `)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"
        ),
        syntax="%m[, %t] = gpu.alloc [async [%deps]] [host_shared] (%dyn, ...) [[%sym, ...]] : memref<...>",
        effects="MemAlloc:$memref",
    ),
    _async_op(
        "dealloc",
        "Frees device memory.",
        ins="AnyMemRef:$memref",
        format="$memref attr-dict `:` type($memref)",
        syntax="[%t =] gpu.dealloc [async [%deps]] %m : memref<...>",
        effects="MemFree:$memref",
    ),
    _async_op(
        "memcpy",
        "Copies memory between host and device buffers.",
        ins="AnyMemRef:$dst, AnyMemRef:$src",
        format="$dst`,` $src `:` type($dst)`,` type($src) attr-dict",
        syntax="[%t =] gpu.memcpy [async [%deps]] %dst, %src : memref<...>, memref<...>",
        effects="MemWrite:$dst, MemRead:$src",
    ),
    _async_op(
        "memset",
        "Fills a buffer with a value.",
        ins="AnyMemRef:$dst, AnyType:$value",
        types=("AllElementTypesMatch<dst, value>",),
        format="$dst`,` $value `:` type($dst)`,` type($value) attr-dict",
        syntax="[%t =] gpu.memset [async [%deps]] %dst, %value : memref<...>, T",
        effects="MemWrite:$dst",
    ),
    _gpu_op(
        "host_register",
        "Maps a host buffer for device access.",
        outs="",
        ins="AnyUnrankedMemRef:$value",
        format="$value attr-dict `:` type($value)",
    ),
    _gpu_op(
        "host_unregister",
        "Unmaps a host buffer.",
        outs="",
        ins="AnyUnrankedMemRef:$value",
        format="$value attr-dict `:` type($value)",
    ),
    _gpu_op(
        "set_default_device",
        "Selects the default GPU.",
        outs="",
        ins="I32:$devIndex",
        format="attr-dict $devIndex",
    ),
    _gpu_op(
        "subgroup_mma_load_matrix",
        "Loads a warp matrix fragment from memory.",
        ins="GPU_MMAMemRef:$srcMemref, Variadic<Index>:$indices, IndexAttr:$leadDimension, OptionalAttr<UnitAttr>:$transpose",
        outs="GPU_MMAMatrix:$res",
        format="$srcMemref`[`$indices`]` attr-dict `:` type($srcMemref) `->` type($res)",
        effects="MemRead:$srcMemref",
    ),
    _gpu_op(
        "subgroup_mma_store_matrix",
        "Stores a warp matrix fragment to memory.",
        outs="",
        ins=(
            "MMAMatrixOf<[SI8, UI8, I32, F16, F32, F64]>:$src, GPU_MMAMemRef:$dstMemref, Variadic<Index>:$indices, "
            "IndexAttr:$leadDimension, OptionalAttr<UnitAttr>:$transpose"
        ),
        format="$src`,` $dstMemref`[`$indices`]` attr-dict `:` type($src)`,` type($dstMemref)",
        effects="MemWrite:$dstMemref",
    ),
    _gpu_op(
        "subgroup_mma_compute",
        "C += A * B on warp matrix fragments.",
        traits="pure",
        ins=(
            "MMAMatrixOf<[SI8, UI8, F16, F32, F64]>:$opA, MMAMatrixOf<[SI8, UI8, F16, F32, F64]>:$opB, "
            "MMAMatrixOf<[I32, F16, F32, F64]>:$opC, OptionalAttr<UnitAttr>:$a_transpose, OptionalAttr<UnitAttr>:$b_transpose"
        ),
        outs="GPU_MMAMatrix:$res",
        types=("AllTypesMatch<opC, res>",),
        format="$opA`,` $opB`,` $opC attr-dict `:` type($opA)`,` type($opB) `->` type($res)",
    ),
    _gpu_op(
        "subgroup_mma_constant_matrix",
        "A warp matrix fragment with every element set to a value.",
        traits="pure",
        ins="AnyTypeOf<[SI8, UI8, I32, F16, F32]>:$value",
        outs="GPU_MMAMatrix:$res",
        types=('TypesMatchWith<"value type matches element type of mma_matrix", res, value, mma_element>',),
        format="$value attr-dict `:` type($res)",
    ),
    _gpu_op(
        "subgroup_mma_elementwise",
        "An elementwise operation on warp matrix fragments.",
        traits="pure",
        ins="Variadic<GPU_MMAMatrix>:$args, MMAElementWiseAttr:$opType",
        outs="GPU_MMAMatrix:$res",
        format="$opType $args attr-dict `:` functional-type($args, $res)",
    ),
    _gpu_op(
        "subgroup_mma_extract_thread_local",
        "Reads this thread's element of a warp matrix fragment.",
        traits="pure",
        ins="GPU_MMAMatrix:$matrix, Variadic<Index>:$indices",
        outs="AnyIntegerOrFloat:$res",
        types=('TypesMatchWith<"value type matches element type of mma_matrix", matrix, res, mma_element>',),
        format="$matrix`[`$indices`]` attr-dict `:` type($matrix) `->` type($res)",
    ),
    _gpu_op(
        "subgroup_mma_insert_thread_local",
        "Writes this thread's element of a warp matrix fragment.",
        traits="pure",
        ins="AnyIntegerOrFloat:$value, GPU_MMAMatrix:$matrix, Variadic<Index>:$indices",
        outs="GPU_MMAMatrix:$res",
        types=('TypesMatchWith<"value type matches element type of mma_matrix", matrix, value, mma_element>',),
        format="$value`,` $matrix`[`$indices`]` attr-dict `:` type($value)`,` type($matrix) `->` type($res)",
    ),
    _gpu_op(
        "ballot",
        "A bit mask of the lanes of the subgroup whose predicate is true.",
        ins="I1:$predicate",
        outs="AnySignlessInteger:$result",
        format="$predicate attr-dict `:` type($result)",
        since=Since(23, "llvm-project PR #188647 (2026-03): gpu.ballot"),
    ),
    _async_op(
        "create_dn_tensor",
        "Creates a dense tensor (vector or matrix) handle over a buffer.",
        ins="AnyMemRef:$memref, Variadic<Index>:$dims",
        outs="GPU_SparseDnTensorHandle:$dnTensor",
        format=(
            "$memref `,` $dims attr-dict `:` "
            "type($dims) `into` type($memref)"
        ),
        syntax="%dn, %t = gpu.create_dn_tensor async [%dep] %mem, %rows, %cols : index, index into memref<?xf64>",
    ),
    _async_op(
        "destroy_dn_tensor",
        "Destroys a dense tensor handle.",
        ins="GPU_SparseDnTensorHandle:$dnTensor",
        format="$dnTensor attr-dict",
        syntax="%t = gpu.destroy_dn_tensor async [%dep] %dn",
    ),
    _async_op(
        "create_coo",
        "Creates a sparse matrix handle in COO format.",
        ins=(
            "Index:$rows, Index:$cols, Index:$nnz, "
            "AnyMemRef:$rowIdxs, AnyMemRef:$colIdxs, AnyMemRef:$values"
        ),
        outs="GPU_SparseSpMatHandle:$spmat",
        format=(
            "$rows `,` $cols `,` $nnz `,` "
            "$rowIdxs `,` $colIdxs `,` $values attr-dict `:` type($rowIdxs) `,` type($colIdxs) `,` type($values)"
        ),
        syntax="%sp, %t = gpu.create_coo async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    _async_op(
        "create_coo_aos",
        "Creates a sparse matrix handle in COO array-of-structs format.",
        ins="Index:$rows, Index:$cols, Index:$nnz, AnyMemRef:$idxs, AnyMemRef:$values",
        outs="GPU_SparseSpMatHandle:$spmat",
        format=(
            "$rows `,` $cols `,` $nnz `,` $idxs "
            "`,` $values attr-dict `:` type($idxs) `,` type($values)"
        ),
        syntax="%sp, %t = gpu.create_coo_aos async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    _async_op(
        "create_csr",
        "Creates a sparse matrix handle in CSR format.",
        ins=(
            "Index:$rows, Index:$cols, Index:$nnz, AnyMemRef:$rowPos, "
            "AnyMemRef:$colIdxs, AnyMemRef:$values"
        ),
        outs="GPU_SparseSpMatHandle:$spmat",
        format=(
            "$rows `,` $cols `,` $nnz `,` $rowPos "
            "`,` $colIdxs `,` $values attr-dict `:` type($rowPos) `,` type($colIdxs) `,` type($values)"
        ),
        syntax="%sp, %t = gpu.create_csr async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    _async_op(
        "create_csc",
        "Creates a sparse matrix handle in CSC format.",
        ins=(
            "Index:$rows, Index:$cols, Index:$nnz, AnyMemRef:$colPos, "
            "AnyMemRef:$rowIdxs, AnyMemRef:$values"
        ),
        outs="GPU_SparseSpMatHandle:$spmat",
        format=(
            "$rows `,` $cols `,` $nnz `,` $colPos "
            "`,` $rowIdxs `,` $values attr-dict `:` type($colPos) `,` type($rowIdxs) `,` type($values)"
        ),
        syntax="%sp, %t = gpu.create_csc async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    _async_op(
        "create_bsr",
        "Creates a sparse matrix handle in BSR format.",
        ins=(
            "Index:$brows, Index:$bcols, Index:$bnnz, "
            "Index:$rBlockSize, Index:$cBlockSize, AnyMemRef:$bRowPos, AnyMemRef:$bColIdxs, AnyMemRef:$values"
        ),
        outs="GPU_SparseSpMatHandle:$spmat",
        format=(
            "$brows `,` $bcols `,` $bnnz `,` "
            "$rBlockSize `,` $cBlockSize `,` $bRowPos `,` $bColIdxs `,` $values attr-dict `:` type($bRowPos) `,` "
            "type($bColIdxs) `,` type($values)"
        ),
        syntax="%sp, %t = gpu.create_bsr async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    _async_op(
        "create_2to4_spmat",
        "Creates a 2:4 structured sparse matrix handle (cuSPARSELt).",
        ins=(
            "Index:$rows, Index:$cols, "
            "GPU_Prune2To4SpMatFlagAttr:$pruneFlag, AnyMemRef:$memref"
        ),
        outs="GPU_SparseSpMatHandle:$spMat",
        format=(
            "`{` $pruneFlag `}` $rows `,` $cols "
            "`,` $memref attr-dict `:` type($memref)"
        ),
        syntax="%sp, %t = gpu.create_2to4_spmat async [%dep] {PRUNE_AND_CHECK} %rows, %cols, %mem : memref<?xf16>",
    ),
    _async_op(
        "destroy_sp_mat",
        "Destroys a sparse matrix handle.",
        ins="GPU_SparseSpMatHandle:$spmat",
        format="$spmat attr-dict",
        syntax="%t = gpu.destroy_sp_mat async [%dep] %sp",
    ),
    _async_op(
        "spmv_buffer_size",
        "The workspace size of a SpMV.",
        ins=(
            "GPU_TransposeModeAttr:$modeA, "
            "GPU_SparseSpMatHandle:$spmatA, GPU_SparseDnTensorHandle:$dnX, GPU_SparseDnTensorHandle:$dnY, "
            "TypeAttr:$computeType"
        ),
        outs="Index:$bufferSz",
        format=(
            "$spmatA (`{` $modeA^ `}`)? `,` $dnX "
            "`,` $dnY attr-dict  `into` $computeType"
        ),
        syntax="%size, %t = gpu.spmv_buffer_size async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY into f32",
    ),
    _async_op(
        "spmv",
        "Sparse matrix times dense vector.",
        ins=(
            "GPU_TransposeModeAttr:$modeA, "
            "GPU_SparseSpMatHandle:$spmatA, GPU_SparseDnTensorHandle:$dnX, GPU_SparseDnTensorHandle:$dnY, "
            "TypeAttr:$computeType, AnyMemRef:$buffer"
        ),
        format=(
            "$spmatA (`{` $modeA^ `}`)? `,` $dnX "
            "`,` $dnY `,` $buffer attr-dict `:` type($buffer) `into` $computeType"
        ),
        syntax="%t = gpu.spmv async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY, %buffer : memref<?xf64> into f64",
    ),
    _gpu_op(
        "spmm_buffer_size",
        "The workspace sizes of a SpMM.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, GPU_TransposeModeAttr:$modeA, GPU_TransposeModeAttr:$modeB, "
            "GPU_SparseSpMatHandle:$spmatA, GPU_SparseDnTensorHandle:$dnmatB, GPU_SparseDnTensorHandle:$dnmatC, "
            "TypeAttr:$computeType"
        ),
        outs="Variadic<Index>:$bufferSzs, Optional<GPU_AsyncToken>:$asyncToken",
        traits="async attr_sized_results",
        format=(
            "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) $spmatA (`{` $modeA^ `}`)? `,` "
            "$dnmatB (`{` $modeB^ `}`)? `,` $dnmatC attr-dict `:` type($bufferSzs) `into` $computeType"
        ),
        syntax="%size, %t = gpu.spmm_buffer_size async [%dep] %spA[{T}], %dnB[{T}], %dnC : index into f32",
    ),
    _async_op(
        "spmm",
        "Sparse matrix times dense matrix.",
        ins=(
            "GPU_TransposeModeAttr:$modeA, "
            "GPU_TransposeModeAttr:$modeB, GPU_SparseSpMatHandle:$spmatA, GPU_SparseDnTensorHandle:$dnmatB, "
            "GPU_SparseDnTensorHandle:$dnmatC, TypeAttr:$computeType, Variadic<AnyMemRef>:$buffers"
        ),
        format=(
            "$spmatA (`{` $modeA^ `}`)? `,` "
            "$dnmatB (`{` $modeB^ `}`)? `,` $dnmatC `,` $buffers attr-dict `:` type($buffers) `into` $computeType"
        ),
        syntax="%t = gpu.spmm async [%dep] %spA[{T}], %dnB[{T}], %dnC, %buffers : memref<?xf64> into f64",
    ),
    _async_op(
        "sddmm_buffer_size",
        "The workspace size of an SDDMM.",
        ins=(
            "GPU_TransposeModeAttr:$modeA, "
            "GPU_TransposeModeAttr:$modeB, GPU_SparseDnTensorHandle:$dnmatA, GPU_SparseDnTensorHandle:$dnmatB, "
            "GPU_SparseSpMatHandle:$spmatC, TypeAttr:$computeType"
        ),
        outs="Index:$bufferSz",
        format=(
            "$dnmatA (`{` $modeA^ `}`)? `,` "
            "$dnmatB (`{` $modeB^ `}`)? `,` $spmatC attr-dict `into` $computeType"
        ),
        syntax="%size, %t = gpu.sddmm_buffer_size async [%dep] %dnA[{T}], %dnB[{T}], %spC into f32",
    ),
    _async_op(
        "sddmm",
        "Sampled dense-dense matrix multiplication.",
        ins=(
            "GPU_TransposeModeAttr:$modeA, "
            "GPU_TransposeModeAttr:$modeB, GPU_SparseDnTensorHandle:$dnmatA, GPU_SparseDnTensorHandle:$dnmatB, "
            "GPU_SparseSpMatHandle:$spmatC, TypeAttr:$computeType, AnyMemRef:$buffer"
        ),
        format=(
            "$dnmatA (`{` $modeA^ `}`)? `,` "
            "$dnmatB (`{` $modeB^ `}`)? `,` $spmatC `,` $buffer attr-dict `:` type($buffer) `into` $computeType"
        ),
        syntax="%t = gpu.sddmm async [%dep] %dnA[{T}], %dnB[{T}], %spC, %buffer : memref<?xf64> into f64",
    ),
    _async_op(
        "spgemm_create_descr",
        "Creates a SpGEMM operation descriptor.",
        outs="GPU_SparseSpGEMMOpHandle:$desc",
        format="attr-dict",
        syntax="%desc, %t = gpu.spgemm_create_descr async [%dep]",
    ),
    _async_op(
        "spgemm_destroy_descr",
        "Destroys a SpGEMM operation descriptor.",
        ins="GPU_SparseSpGEMMOpHandle:$desc",
        format="$desc attr-dict",
        syntax="%t = gpu.spgemm_destroy_descr async [%dep] %desc",
    ),
    _async_op(
        "spgemm_work_estimation_or_compute",
        "The work estimation or compute phase of a SpGEMM.",
        ins=(
            "GPU_SparseSpGEMMOpHandle:$desc, "
            "GPU_TransposeModeAttr:$modeA, GPU_TransposeModeAttr:$modeB, GPU_SparseSpMatHandle:$spmatA, "
            "GPU_SparseSpMatHandle:$spmatB, GPU_SparseSpMatHandle:$spmatC, TypeAttr:$computeType, Index:$bufferSz, "
            "AnyMemRef:$buffer, GPU_SpGEMMWorkEstimationOrComputeKindAttr:$kind"
        ),
        outs="Index:$bufferSzNew",
        format=(
            "`{` $kind `}` $spmatA (`{` $modeA^ "
            "`}`)? `,` $spmatB (`{` $modeB^ `}`)? `,` $spmatC `,` $desc `,` $bufferSz `,` $buffer  attr-dict `:` "
            "$computeType `into` type($buffer)"
        ),
        syntax=(
            "%size, %t = gpu.spgemm_work_estimation_or_compute async [%dep] {COMPUTE} %spA[{T}], %spB[{T}], %spC, "
            "%desc, %size0, %buf : f32 into memref<0xi8>"
        ),
    ),
    _async_op(
        "spgemm_copy",
        "Copies the result of a SpGEMM into its output matrix.",
        ins=(
            "GPU_SparseSpGEMMOpHandle:$desc, "
            "GPU_TransposeModeAttr:$modeA, GPU_TransposeModeAttr:$modeB, GPU_SparseSpMatHandle:$spmatA, "
            "GPU_SparseSpMatHandle:$spmatB, GPU_SparseSpMatHandle:$spmatC, TypeAttr:$computeType"
        ),
        format=(
            "$spmatA (`{` $modeA^ `}`)? `,` "
            "$spmatB (`{` $modeB^ `}`)? `,` $spmatC `,` $desc attr-dict `:` $computeType"
        ),
        syntax="%t = gpu.spgemm_copy async [%dep] %spA[{T}], %spB[{T}], %spC, %desc : f32",
    ),
    _async_op(
        "spmat_get_size",
        "The number of rows, columns and nonzeros of a sparse matrix.",
        ins="GPU_SparseSpMatHandle:$spmat",
        outs="Index:$rows, Index:$cols, Index:$nnz",
        format="$spmat attr-dict",
        syntax="%rows, %cols, %nnz, %t = gpu.spmat_get_size async [%dep] %sp",
    ),
    _async_op(
        "set_csr_pointers",
        "Sets the position, coordinate and value buffers of a CSR matrix.",
        ins=(
            "GPU_SparseSpMatHandle:$spmat, AnyMemRef:$positions, "
            "AnyMemRef:$coordinates, AnyMemRef:$values"
        ),
        format=(
            "$spmat `,` $positions `,` "
            "$coordinates `,` $values attr-dict `:` type($positions) `,` type($coordinates) `,` type($values)"
        ),
        syntax="%t = gpu.set_csr_pointers async [%dep] %sp, %pos, %crd, %val : memref<?xindex>, memref<?xindex>, memref<?xf32>",
    ),
    _gpu_op(
        "initialize_named_barrier",
        "Creates a named barrier that releases its waiters once `member_count` subgroups arrive.",
        ins="I32:$member_count",
        outs="GPU_NamedBarrier:$result",
        format="$member_count attr-dict `:` type($member_count) `->` type($result)",
        syntax="%b = gpu.initialize_named_barrier %count : i32 -> !gpu.named_barrier",
        since=NAMED_BARRIERS,
    ),
)
