"""Helpers shared by the test suite: the upstream corpus, the MLIR oracle, the GPU probe."""

from __future__ import annotations

import functools
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


@functools.cache
def gpu_available() -> bool:
    """True when CuPy is installed and sees at least one CUDA device."""
    try:
        import cupy
    except ImportError:
        return False
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # CUDARuntimeError without a driver or a device
        return False
