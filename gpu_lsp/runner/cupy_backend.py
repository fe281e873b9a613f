"""The CuPy backend (the only module that imports cupy): device memory, streams, events, kernels."""

from __future__ import annotations


def probe() -> str | None:
    """None when CuPy sees a usable CUDA device, else a one-line reason."""
    try:
        import cupy
    except ImportError:
        return "cupy is not installed"
    except Exception as exc:  # a broken installation
        return f"cupy cannot be imported ({exc.__class__.__name__}: {exc})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        text = str(exc)
        if "InsufficientDriver" in text or "cudaErrorInsufficientDriver" in text or "35" in text.split(":")[0]:
            return "no CUDA driver (or one too old for this CuPy)"
        if "NoDevice" in text:
            return "no CUDA device"
        return f"CUDA is not usable ({text})"
    if count == 0:
        return "no CUDA device"
    return None
