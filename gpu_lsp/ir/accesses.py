"""Which operand of an op is the memref it reads or writes through (MemRead/MemWrite on that operand), and which ops make views."""

from __future__ import annotations

READS = {
    "memref.load": 0, "vector.load": 0, "vector.transfer_read": 0, "vector.maskedload": 0, "memref.copy": 0,
    "gpu.subgroup_mma_load_matrix": 0, "memref.atomic_rmw": 1, "memref.generic_atomic_rmw": 0,
}
WRITES = {
    "memref.store": 1, "vector.store": 1, "vector.transfer_write": 1, "vector.maskedstore": 0, "memref.copy": 1,
    "gpu.subgroup_mma_store_matrix": 1, "memref.atomic_rmw": 1, "memref.generic_atomic_rmw": 0,
}
# Ops whose result views (part of) their first operand's buffer.
ALIAS_OPS = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.memory_space_cast",
        "memref.transpose",
    }
)
