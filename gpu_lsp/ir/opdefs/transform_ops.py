"""The transform dialect's op definitions (upstream Transform*Ops.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_read_loosely = op_class("transform", "The transform op `{mnemonic}` (read loosely).")

OPS: tuple[OpDef, ...] = (
    declare(
        "transform.named_sequence",
        "A named transform script; `@__transform_main` is the entry point of the transform interpreter.",
        traits="function isolated symbol",
        syntax="transform.named_sequence @name(%root: !transform.any_op {transform.readonly}) [-> (...)] { ... transform.yield }",
    ),
    declare(
        "transform.apply_patterns.gpu.unroll_vectors_subgroup_mma",
        "Patterns that unroll vector ops to the native MMA shape `[m, n, k]` of subgroup matrix ops.",
        ins="I64Attr:$m, I64Attr:$n, I64Attr:$k",
        outs="",
        format="`[` $m `,` $n `,` $k `]` attr-dict",
    ),
    *family(
        _read_loosely,
        """
        alternatives annotate apply_conversion_patterns
        apply_conversion_patterns.dialect_to_llvm
        apply_conversion_patterns.func.func_to_llvm
        apply_conversion_patterns.gpu.gpu_subgroup_reduce_to_nvvm apply_conversion_patterns.gpu.gpu_to_nvvm apply_conversion_patterns.gpu.gpu_to_rocdl
        apply_conversion_patterns.gpu.gpu_wmma_to_nvvm
        apply_conversion_patterns.memref.memref_to_llvm_type_converter
        apply_conversion_patterns.nvgpu.nvgpu_to_nvvm
        apply_conversion_patterns.scf.scf_to_control_flow apply_conversion_patterns.scf.structural_conversions
        apply_conversion_patterns.vector.vector_to_llvm
        apply_cse apply_dce apply_licm apply_patterns
        apply_patterns.canonicalization apply_patterns.gpu.eliminate_barriers apply_patterns.gpu.gpu_rewrite_patterns
        apply_patterns.gpu.gpu_shuffle_to_amdgpu
        apply_patterns.linalg.data_layout_propagation apply_patterns.linalg.decompose_pack_unpack apply_patterns.linalg.decompose_pad
        apply_patterns.linalg.erase_unnecessary_inputs apply_patterns.linalg.extract_slice_sinking apply_patterns.linalg.fold_add_into_dest
        apply_patterns.linalg.fold_pack_unpack_into_empty apply_patterns.linalg.fold_unit_extent_dims_via_reshapes
        apply_patterns.linalg.fold_unit_extent_dims_via_slices apply_patterns.linalg.pad_vectorization apply_patterns.linalg.tiling_canonicalization
        apply_patterns.memref.alloc_to_alloca apply_patterns.memref.expand_ops apply_patterns.memref.expand_strided_metadata
        apply_patterns.memref.extract_address_computations apply_patterns.memref.fold_memref_alias_ops
        apply_patterns.memref.resolve_ranked_shaped_type_result_dims
        apply_patterns.scf.for_loop_canonicalization
        apply_patterns.tensor.bubble_up_extract_slice apply_patterns.tensor.decompose_concat
        apply_patterns.tensor.drop_redundant_insert_slice_rank_expansion apply_patterns.tensor.fold_into_pack_and_unpack
        apply_patterns.tensor.fold_tensor_empty apply_patterns.tensor.fold_tensor_subset_ops
        apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers apply_patterns.tensor.merge_consecutive_insert_extract_slice
        apply_patterns.tensor.reassociative_reshape_folding apply_patterns.tensor.rewrite_as_constant
        apply_patterns.vector.cast_away_vector_leading_one_dim apply_patterns.vector.drop_inner_most_unit_dims_from_xfer_ops
        apply_patterns.vector.drop_unit_dims_with_shape_cast apply_patterns.vector.elementwise_to_vector
        apply_patterns.vector.flatten_vector_transfer_ops apply_patterns.vector.fold_arith_extension apply_patterns.vector.interleave_to_shuffle
        apply_patterns.vector.lower_bitcast apply_patterns.vector.lower_broadcast apply_patterns.vector.lower_contraction
        apply_patterns.vector.lower_create_mask apply_patterns.vector.lower_gather apply_patterns.vector.lower_interleave
        apply_patterns.vector.lower_masked_transfers apply_patterns.vector.lower_masks apply_patterns.vector.lower_outerproduct
        apply_patterns.vector.lower_scan apply_patterns.vector.lower_shape_cast apply_patterns.vector.lower_transfer
        apply_patterns.vector.lower_transpose apply_patterns.vector.materialize_masks apply_patterns.vector.multi_reduction_flattening
        apply_patterns.vector.multi_reduction_unrolling apply_patterns.vector.rank_reducing_subview_patterns
        apply_patterns.vector.reduction_to_contract apply_patterns.vector.reorder_multi_reduction_dims apply_patterns.vector.rewrite_narrow_types
        apply_patterns.vector.sink_mem_ops apply_patterns.vector.sink_ops apply_patterns.vector.split_transfer_full_partial
        apply_patterns.vector.transfer_permutation_patterns apply_patterns.vector.transfer_to_scf apply_patterns.vector.unroll_from_elements
        apply_patterns.vector.unroll_to_elements
        apply_patterns.x86.shuffle_vector_fma_ops apply_patterns.x86.sink_vector_producer_ops apply_patterns.x86.vector_contract_bf16_to_fma
        apply_patterns.x86.vector_contract_to_amx_dot_product apply_patterns.x86.vector_contract_to_fma
        apply_patterns.x86.vector_contract_to_packed_type_dot_product
        apply_registered_pass
        bufferization.buffer_loop_hoisting bufferization.eliminate_empty_tensors bufferization.empty_tensor_to_alloc_tensor
        bufferization.one_shot_bufferize
        cast collect_matching
        debug.emit_param_as_remark debug.emit_remark_at
        foreach foreach_match get_consumers_of_result get_defining_op get_operand get_parent_op get_producer_of_operand get_result get_type
        gpu.map_forall_to_blocks gpu.map_nested_forall_to_threads
        include
        loop.coalesce loop.coalesce_nested loop.forall_to_for loop.forall_to_parallel loop.fuse_sibling loop.hoist_loop_invariant_subsets loop.outline
        loop.parallel_for_to_nested_fors loop.peel loop.pipeline loop.promote_if_one_iteration loop.unroll loop.unroll_and_jam
        match.operation_empty match.operation_name match.param.cmpi
        memref.alloca_to_global memref.erase_dead_alloc_and_stores memref.make_loop_independent memref.multibuffer
        merge_handles num_associations
        nvgpu.create_async_groups nvgpu.pipeline_shared_memory_copies nvgpu.rewrite_copy_as_tma nvgpu.rewrite_matmul_as_mma_sync
        param.constant
        payload pdl_match print replicate
        scf.take_assumed_branch
        select sequence
        smt.constrain_params
        sparse_tensor.match.sparse_inout
        split_handle
        structured.bufferize_to_allocation structured.continuous_tile_sizes structured.convert_conv2d_to_img2col structured.convert_to_loops
        structured.decompose structured.decompose_interface structured.decompose_winograd_op structured.eliminate_empty_tensors
        structured.flatten_elementwise structured.fuse structured.fuse_into_containing_op structured.generalize structured.gpu.map_copy_to_threads
        structured.hoist_pad structured.hoist_pad.build_packing_loop_nest structured.hoist_redundant_vector_broadcasts
        structured.hoist_redundant_vector_transfers structured.insert_slice_to_copy structured.interchange structured.linalg_copy_to_memref
        structured.lower_pack structured.lower_unpack structured.match structured.multitile_sizes structured.pack structured.pack_greedily
        structured.pack_transpose structured.pad structured.pad_tiling_interface structured.promote structured.promote_tensor structured.replace
        structured.rewrite_in_destination_passing_style structured.scalarize structured.specialize structured.split structured.split_reduction
        structured.tile_reduction_using_for structured.tile_reduction_using_forall structured.tile_using_for structured.tile_using_forall
        structured.transpose_conv2d structured.transpose_matmul structured.vectorize structured.vectorize_children_and_apply_patterns
        structured.winograd_conv2d
        tensor.make_loop_independent
        tune.alternatives tune.knob
        type_conversion.tensor.cast_shape_dynamic_dims
        verify with_pdl_patterns
        xegpu.convert_layout xegpu.get_load_op xegpu.insert_prefetch xegpu.set_anchor_layout xegpu.set_gpu_launch_threads
        """,
    ),
    _read_loosely("yield", traits="region_return terminator"),
)
