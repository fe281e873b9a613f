"""Run host functions and their kernels: CUDA C through CuPy on a GPU, vectorised NumPy elsewhere."""

from gpu_lsp.runner.api import BACKENDS, RunResult, run_file, run_text

__all__ = ["BACKENDS", "RunResult", "run_file", "run_text"]
