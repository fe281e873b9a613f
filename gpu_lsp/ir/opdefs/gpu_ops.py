"""The gpu dialect's op definitions (upstream GPUOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare(
        "gpu.module",
        "A GPU device compilation unit holding gpu.func kernels and device functions.",
        ins="SymbolNameAttr:$sym_name, OptionalAttr<GPUTargetArrayAttr>:$targets, OptionalAttr<AnyAttr>:$offloadingHandler",
        outs="",
        regions="SizedRegion<1>:$bodyRegion",
        traits="graph isolated no_terminator symbol symbol_table",
        syntax="gpu.module @name [<handler>] [[#target, ...]] [attributes {...}] { ... }",
    ),
    declare(
        "gpu.binary",
        "Serialized device objects, usable as a kernel container by gpu.launch_func.",
        ins="SymbolNameAttr:$sym_name, OptionalAttr<AnyAttr>:$offloadingHandler, GPUObjectArrayAttr:$objects",
        outs="",
        regions="",
        traits="symbol",
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
            "OptionalAttr<I64Attr>:$workgroup_attributions, UnitAttr:$kernel"
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
            "OptionalAttr<FlatSymbolRefAttr>:$module, OptionalAttr<FlatSymbolRefAttr>:$function, "
            "OptionalAttr<I64Attr>:$workgroup_attributions"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="AnyRegion:$body",
        traits="async recursive_effects",
        syntax=(
            "%t = gpu.launch [async [%deps]] [clusters(...) in (...)] blocks(%bx, %by, %bz) in (%gx = %a, ...) "
            "threads(%tx, %ty, %tz) in (%sx = %b, ...) [dynamic_shared_memory_size %s] [module(@m)] "
            "[function(@f)] [workgroup(...)] [private(...)] { ... gpu.terminator }"
        ),
    ),
    declare(
        "gpu.launch_func",
        "Launches an outlined kernel (a gpu.func in a gpu.module) on a grid.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, SymbolRefAttr:$kernel, LaunchIndx:$gridSizeX, "
            "LaunchIndx:$gridSizeY, LaunchIndx:$gridSizeZ, LaunchIndx:$blockSizeX, LaunchIndx:$blockSizeY, "
            "LaunchIndx:$blockSizeZ, Optional<LaunchIndx>:$clusterSizeX, Optional<LaunchIndx>:$clusterSizeY, "
            "Optional<LaunchIndx>:$clusterSizeZ, Optional<I32>:$dynamicSharedMemorySize, "
            "Variadic<AnyType>:$kernelOperands, Optional<AnyType>:$asyncObject, UnitAttr:$cooperative"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax=(
            "%t = gpu.launch_func [async [%deps]] [<%stream : T>] @module::@kernel [clusters in (...)] "
            "blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz) [: T] [dynamic_shared_memory_size %s] "
            "[args(%a : T, ...)]"
        ),
    ),
    declare(
        "gpu.return",
        "Returns from a gpu.func.",
        ins="Variadic<AnyType>:$operands",
        outs="",
        regions="",
        traits="pure region_return return_like terminator",
        parents="gpu.func",
        syntax="gpu.return [%v : T, ...]",
    ),
    declare(
        "gpu.terminator",
        "Ends the body of a gpu.launch.",
        ins="",
        outs="",
        regions="",
        traits="pure region_return terminator",
        parents="gpu.launch",
        syntax="gpu.terminator",
    ),
    declare(
        "gpu.yield",
        "Yields values from all_reduce and warp_execute_on_lane_0 regions.",
        ins="Variadic<AnyType>:$values",
        outs="",
        regions="",
        traits="pure region_return return_like terminator",
        syntax="gpu.yield [%v : T, ...]",
    ),
    declare(
        "gpu.thread_id",
        "The thread index within its block.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.thread_id x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.block_id",
        "The block index within the grid.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.block_id x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.block_dim",
        "The number of threads per block.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.block_dim x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.grid_dim",
        "The number of blocks in the grid.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.grid_dim x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.global_id",
        "The thread index within the whole grid.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.global_id x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.cluster_id",
        "The cluster index within the grid.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.cluster_id x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.cluster_dim",
        "The number of clusters in the grid.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.cluster_dim x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.cluster_dim_blocks",
        "The number of blocks per cluster.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.cluster_dim_blocks x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.cluster_block_id",
        "The block index within its cluster.",
        ins="GPU_DimensionAttr:$dimension, OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.cluster_block_id x|y|z [upper_bound N]",
    ),
    declare(
        "gpu.lane_id",
        "The lane index within the subgroup.",
        ins="OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.lane_id [upper_bound N]",
    ),
    declare(
        "gpu.subgroup_id",
        "The subgroup index within the workgroup.",
        ins="OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.subgroup_id [upper_bound N] : index",
    ),
    declare(
        "gpu.num_subgroups",
        "The number of subgroups in the workgroup.",
        ins="OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.num_subgroups [upper_bound N] : index",
    ),
    declare(
        "gpu.subgroup_size",
        "The number of lanes in a subgroup.",
        ins="OptionalAttr<IndexAttr>:$upper_bound",
        outs="Index:$result",
        regions="",
        traits="pure",
        syntax="gpu.subgroup_size [upper_bound N] : index",
    ),
    declare(
        "gpu.all_reduce",
        "Reduces a value across all threads of the workgroup, with a kind or a region.",
        ins="AnyType:$value, OptionalAttr<GPU_AllReduceOperationAttr>:$op, UnitAttr:$uniform",
        outs="AnyType:$result",
        regions="AnyRegion:$body",
        syntax="%r = gpu.all_reduce [add|mul|...] %v [uniform] [{ region }] : (T) -> (T)",
    ),
    declare(
        "gpu.subgroup_reduce",
        "Reduces a value across the lanes of a subgroup, optionally in clusters.",
        ins=(
            "AnyType:$value, GPU_AllReduceOperationAttr:$op, UnitAttr:$uniform, "
            "OptionalAttr<I32Attr>:$cluster_size, DefaultValuedAttr<I32Attr, \"1\">:$cluster_stride"
        ),
        outs="AnyType:$result",
        regions="",
        traits="pure",
        syntax="%r = gpu.subgroup_reduce add %v [uniform] [cluster(size = N[, stride = M])] : (T) -> T",
    ),
    declare(
        "gpu.shuffle",
        "Moves a value between lanes of a subgroup (xor, up, down, idx); also returns whether the source lane was valid.",
        ins="AnyType:$value, I32:$offset, I32:$width, GPU_ShuffleModeAttr:$mode",
        outs="AnyType:$shuffleResult, I1:$valid",
        regions="",
        traits="pure",
        syntax="%v, %valid = gpu.shuffle xor %x, %offset, %width : T",
    ),
    declare(
        "gpu.rotate",
        "Rotates a value among `width` lanes.",
        ins="AnyType:$value, I32Attr:$offset, I32Attr:$width",
        outs="AnyType:$rotateResult, I1:$valid",
        regions="",
        traits="pure",
        syntax="%v, %valid = gpu.rotate %x, offset, width : T",
    ),
    declare(
        "gpu.subgroup_broadcast",
        "Broadcasts a value from the first active lane or from a given lane.",
        ins="AnyType:$src, Optional<I32>:$lane, GPU_BroadcastTypeAttr:$broadcast_type",
        outs="AnyType:$result",
        regions="",
        syntax="%r = gpu.subgroup_broadcast %x, first_active_lane|specific_lane [%lane] : T",
    ),
    declare(
        "gpu.barrier",
        "Synchronises all threads of a workgroup.",
        ins=(
            "Optional<GPU_NamedBarrier>:$named_barrier, OptionalAttr<GPU_AddressSpaceAttrArray>:$address_spaces, "
            "DefaultValuedAttr<GPU_ScopeAttr, \"workgroup\">:$scope"
        ),
        outs="",
        regions="",
        syntax="gpu.barrier [named(%b : !gpu.named_barrier)] [memfence [#gpu.address_space<...>, ...]] [scope <subgroup|workgroup|...>]",
    ),
    declare(
        "gpu.initialize_named_barrier",
        "Creates a named barrier that releases its waiters once `member_count` subgroups arrive.",
        ins="I32:$member_count",
        outs="GPU_NamedBarrier:$result",
        regions="",
        syntax="%b = gpu.initialize_named_barrier %count : i32 -> !gpu.named_barrier",
    ),
    declare(
        "gpu.printf",
        "Prints from device code.",
        ins="Variadic<AnyType>:$args, StrAttr:$format",
        outs="",
        regions="",
        syntax="gpu.printf \"format\" [, %v : T, ...]",
    ),
    declare(
        "gpu.dynamic_shared_memory",
        "The base of the kernel's dynamic shared memory.",
        ins="",
        outs="AnyMemRef:$resultMemref",
        regions="",
        traits="pure",
        syntax="%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>",
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
    declare(
        "gpu.wait",
        "Waits for async tokens: blocks the host, or joins them into a new token with `async`.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="[%t =] gpu.wait [async] [[%deps]]",
    ),
    declare(
        "gpu.alloc",
        "Allocates device (or host-shared) memory.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, Variadic<Index>:$dynamicSizes, Variadic<Index>:$symbolOperands, UnitAttr:$hostShared",
        outs="AnyMemRef:$memref, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%m[, %t] = gpu.alloc [async [%deps]] [host_shared] (%dyn, ...) [[%sym, ...]] : memref<...>",
    ),
    declare(
        "gpu.dealloc",
        "Frees device memory.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyMemRef:$memref",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="[%t =] gpu.dealloc [async [%deps]] %m : memref<...>",
    ),
    declare(
        "gpu.memcpy",
        "Copies memory between host and device buffers.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyMemRef:$dst, AnyMemRef:$src",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="[%t =] gpu.memcpy [async [%deps]] %dst, %src : memref<...>, memref<...>",
    ),
    declare(
        "gpu.memset",
        "Fills a buffer with a value.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyMemRef:$dst, AnyType:$value",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="[%t =] gpu.memset [async [%deps]] %dst, %value : memref<...>, T",
    ),
    declare(
        "gpu.host_register",
        "Maps a host buffer for device access.",
        ins="AnyMemRef:$value",
        outs="",
        regions="",
        syntax="gpu.host_register %m : memref<*xf32>",
    ),
    declare(
        "gpu.host_unregister",
        "Unmaps a host buffer.",
        ins="AnyMemRef:$value",
        outs="",
        regions="",
        syntax="gpu.host_unregister %m : memref<*xf32>",
    ),
    declare(
        "gpu.set_default_device",
        "Selects the default GPU.",
        ins="I32:$devIndex",
        outs="",
        regions="",
        syntax="gpu.set_default_device %dev",
    ),
    declare(
        "gpu.subgroup_mma_load_matrix",
        "Loads a warp matrix fragment from memory.",
        ins="AnyMemRef:$srcMemref, Variadic<Index>:$indices, IndexAttr:$leadDimension, UnitAttr:$transpose",
        outs="AnyType:$res",
        regions="",
        syntax="%m = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = N : index} : memref<...> -> !gpu.mma_matrix<...>",
    ),
    declare(
        "gpu.subgroup_mma_store_matrix",
        "Stores a warp matrix fragment to memory.",
        ins="AnyType:$src, AnyMemRef:$dstMemref, Variadic<Index>:$indices, IndexAttr:$leadDimension, UnitAttr:$transpose",
        outs="",
        regions="",
        syntax="gpu.subgroup_mma_store_matrix %m, %dst[%i, %j] {leadDimension = N : index} : !gpu.mma_matrix<...>, memref<...>",
    ),
    declare(
        "gpu.subgroup_mma_compute",
        "C += A * B on warp matrix fragments.",
        ins="AnyType:$opA, AnyType:$opB, AnyType:$opC, UnitAttr:$a_transpose, UnitAttr:$b_transpose",
        outs="AnyType:$res",
        regions="",
        traits="pure",
        syntax="%d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<...>, !gpu.mma_matrix<...> -> !gpu.mma_matrix<...>",
    ),
    declare(
        "gpu.subgroup_mma_constant_matrix",
        "A warp matrix fragment with every element set to a value.",
        ins="AnyType:$value",
        outs="AnyType:$res",
        regions="",
        traits="pure",
        syntax="%m = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<...>",
    ),
    declare(
        "gpu.subgroup_mma_elementwise",
        "An elementwise operation on warp matrix fragments.",
        ins="Variadic<AnyType>:$args, MMAElementWiseAttr:$opType",
        outs="AnyType:$res",
        regions="",
        traits="pure",
        syntax="%r = gpu.subgroup_mma_elementwise addf %a, %b : (T, T) -> T",
    ),
    declare(
        "gpu.subgroup_mma_extract_thread_local",
        "Reads this thread's element of a warp matrix fragment.",
        ins="AnyType:$matrix, Variadic<Index>:$indices",
        outs="AnyType:$res",
        regions="",
        traits="pure",
        syntax="%v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<...> -> T",
    ),
    declare(
        "gpu.subgroup_mma_insert_thread_local",
        "Writes this thread's element of a warp matrix fragment.",
        ins="AnyType:$value, AnyType:$matrix, Variadic<Index>:$indices",
        outs="AnyType:$res",
        regions="",
        traits="pure",
        syntax="%m2 = gpu.subgroup_mma_insert_thread_local %v, %m[%i] : T, !gpu.mma_matrix<...> -> !gpu.mma_matrix<...>",
    ),
    declare(
        "gpu.ballot",
        "A bit mask of the lanes of the subgroup whose predicate is true.",
        ins="I1:$predicate",
        outs="AnySignlessInteger:$result",
        regions="",
        syntax="%m = gpu.ballot %pred : i32",
    ),
    declare(
        "gpu.create_dn_tensor",
        "Creates a dense tensor (vector or matrix) handle over a buffer.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyMemRef:$memref, Variadic<Index>:$dims",
        outs="AnyType:$dnTensor, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%dn, %t = gpu.create_dn_tensor async [%dep] %mem, %rows, %cols : index, index into memref<?xf64>",
    ),
    declare(
        "gpu.destroy_dn_tensor",
        "Destroys a dense tensor handle.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$dnTensor",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.destroy_dn_tensor async [%dep] %dn",
    ),
    declare(
        "gpu.create_coo",
        "Creates a sparse matrix handle in COO format.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$rows, Index:$cols, Index:$nnz, "
            "AnyMemRef:$rowIdxs, AnyMemRef:$colIdxs, AnyMemRef:$values"
        ),
        outs="AnyType:$spmat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_coo async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    declare(
        "gpu.create_coo_aos",
        "Creates a sparse matrix handle in COO array-of-structs format.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$rows, Index:$cols, Index:$nnz, AnyMemRef:$idxs, AnyMemRef:$values",
        outs="AnyType:$spmat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_coo_aos async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    declare(
        "gpu.create_csr",
        "Creates a sparse matrix handle in CSR format.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$rows, Index:$cols, Index:$nnz, "
            "AnyMemRef:$rowPos, AnyMemRef:$colIdxs, AnyMemRef:$values"
        ),
        outs="AnyType:$spmat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_csr async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    declare(
        "gpu.create_csc",
        "Creates a sparse matrix handle in CSC format.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$rows, Index:$cols, Index:$nnz, "
            "AnyMemRef:$colPos, AnyMemRef:$rowIdxs, AnyMemRef:$values"
        ),
        outs="AnyType:$spmat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_csc async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    declare(
        "gpu.create_bsr",
        "Creates a sparse matrix handle in BSR format.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$brows, Index:$bcols, Index:$bnnz, "
            "Index:$rBlockSize, Index:$cBlockSize, AnyMemRef:$bRowPos, AnyMemRef:$bColIdxs, AnyMemRef:$values"
        ),
        outs="AnyType:$spmat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_bsr async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...",
    ),
    declare(
        "gpu.create_2to4_spmat",
        "Creates a 2:4 structured sparse matrix handle (cuSPARSELt).",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, Index:$rows, Index:$cols, AnyMemRef:$memref, "
            "OptionalAttr<GPU_Prune2To4SpMatFlagAttr>:$pruneFlag"
        ),
        outs="AnyType:$spMat, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%sp, %t = gpu.create_2to4_spmat async [%dep] {PRUNE_AND_CHECK} %rows, %cols, %mem : memref<?xf16>",
    ),
    declare(
        "gpu.destroy_sp_mat",
        "Destroys a sparse matrix handle.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmat",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.destroy_sp_mat async [%dep] %sp",
    ),
    declare(
        "gpu.spmv_buffer_size",
        "The workspace size of a SpMV.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmatA, AnyType:$dnX, AnyType:$dnY, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeA, TypeAttr:$computeType"
        ),
        outs="Index:$bufferSz, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%size, %t = gpu.spmv_buffer_size async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY into f32",
    ),
    declare(
        "gpu.spmv",
        "Sparse matrix times dense vector.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmatA, AnyType:$dnX, AnyType:$dnY, "
            "AnyMemRef:$buffer, OptionalAttr<GPU_TransposeModeAttr>:$modeA, TypeAttr:$computeType"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.spmv async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY, %buffer : memref<?xf64> into f64",
    ),
    declare(
        "gpu.spmm_buffer_size",
        "The workspace sizes of a SpMM.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmatA, AnyType:$dnmatB, AnyType:$dnmatC, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeA, OptionalAttr<GPU_TransposeModeAttr>:$modeB, "
            "TypeAttr:$computeType"
        ),
        outs="Variadic<Index>:$bufferSzs, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%size, %t = gpu.spmm_buffer_size async [%dep] %spA[{T}], %dnB[{T}], %dnC : index into f32",
    ),
    declare(
        "gpu.spmm",
        "Sparse matrix times dense matrix.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmatA, AnyType:$dnmatB, AnyType:$dnmatC, "
            "Variadic<AnyMemRef>:$buffers, OptionalAttr<GPU_TransposeModeAttr>:$modeA, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeB, TypeAttr:$computeType"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.spmm async [%dep] %spA[{T}], %dnB[{T}], %dnC, %buffers : memref<?xf64> into f64",
    ),
    declare(
        "gpu.sddmm_buffer_size",
        "The workspace size of an SDDMM.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$dnmatA, AnyType:$dnmatB, AnyType:$spmatC, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeA, OptionalAttr<GPU_TransposeModeAttr>:$modeB, "
            "TypeAttr:$computeType"
        ),
        outs="Index:$bufferSz, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%size, %t = gpu.sddmm_buffer_size async [%dep] %dnA[{T}], %dnB[{T}], %spC into f32",
    ),
    declare(
        "gpu.sddmm",
        "Sampled dense-dense matrix multiplication.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$dnmatA, AnyType:$dnmatB, AnyType:$spmatC, "
            "AnyMemRef:$buffer, OptionalAttr<GPU_TransposeModeAttr>:$modeA, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeB, TypeAttr:$computeType"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.sddmm async [%dep] %dnA[{T}], %dnB[{T}], %spC, %buffer : memref<?xf64> into f64",
    ),
    declare(
        "gpu.spgemm_create_descr",
        "Creates a SpGEMM operation descriptor.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies",
        outs="AnyType:$desc, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%desc, %t = gpu.spgemm_create_descr async [%dep]",
    ),
    declare(
        "gpu.spgemm_destroy_descr",
        "Destroys a SpGEMM operation descriptor.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$desc",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.spgemm_destroy_descr async [%dep] %desc",
    ),
    declare(
        "gpu.spgemm_work_estimation_or_compute",
        "The work estimation or compute phase of a SpGEMM.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$desc, AnyType:$spmatA, AnyType:$spmatB, "
            "AnyType:$spmatC, Index:$bufferSz, AnyMemRef:$buffer, OptionalAttr<GPU_TransposeModeAttr>:$modeA, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeB, TypeAttr:$computeType, "
            "GPU_SpGEMMWorkEstimationOrComputeKindAttr:$kind"
        ),
        outs="Index:$bufferSzNew, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax=(
            "%size, %t = gpu.spgemm_work_estimation_or_compute async [%dep] {COMPUTE} %spA[{T}], %spB[{T}], "
            "%spC, %desc, %size0, %buf : f32 into memref<0xi8>"
        ),
    ),
    declare(
        "gpu.spgemm_copy",
        "Copies the result of a SpGEMM into its output matrix.",
        ins=(
            "Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$desc, AnyType:$spmatA, AnyType:$spmatB, "
            "AnyType:$spmatC, OptionalAttr<GPU_TransposeModeAttr>:$modeA, "
            "OptionalAttr<GPU_TransposeModeAttr>:$modeB, TypeAttr:$computeType"
        ),
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.spgemm_copy async [%dep] %spA[{T}], %spB[{T}], %spC, %desc : f32",
    ),
    declare(
        "gpu.spmat_get_size",
        "The number of rows, columns and nonzeros of a sparse matrix.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmat",
        outs="Index:$rows, Index:$cols, Index:$nnz, Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%rows, %cols, %nnz, %t = gpu.spmat_get_size async [%dep] %sp",
    ),
    declare(
        "gpu.set_csr_pointers",
        "Sets the position, coordinate and value buffers of a CSR matrix.",
        ins="Variadic<GPU_AsyncToken>:$asyncDependencies, AnyType:$spmat, AnyMemRef:$positions, AnyMemRef:$coordinates, AnyMemRef:$values",
        outs="Optional<GPU_AsyncToken>:$asyncToken",
        regions="",
        traits="async",
        syntax="%t = gpu.set_csr_pointers async [%dep] %sp, %pos, %crd, %val : memref<?xindex>, memref<?xindex>, memref<?xf32>",
    ),
)
