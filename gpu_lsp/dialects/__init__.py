"""Operation definitions by dialect: custom syntax readers, printers and traits."""

from gpu_lsp.dialects.registry import OPS, OpSpec, lookup, op_names

__all__ = ["OPS", "OpSpec", "lookup", "op_names"]
