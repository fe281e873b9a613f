"""Fixtures of the runner tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def emulation_cache(request, tmp_path_factory) -> Path:
    """Where compiled emulated-CUDA kernels go: pytest's cache (kept between runs, keyed by
    source) when it is enabled, else a temporary folder."""
    cache = getattr(request.config, "cache", None)
    if cache is not None:
        return cache.mkdir("emulated_cuda")
    return tmp_path_factory.mktemp("emulated_cuda")
