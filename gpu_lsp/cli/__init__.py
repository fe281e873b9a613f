"""Command-line front ends: gpu-opt (an mlir-opt-compatible driver) and its -verify-diagnostics."""
