"""Test-suite wiring: the upstream corpus fixture and the `gpu` marker."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import gpu_available
from support.corpus import CORPUS, corpus_files, require_corpus, split_chunks

__all__ = ["CORPUS", "corpus_files", "split_chunks"]


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The upstream corpus folder (../shared/corpus); the test fails when it is missing."""
    return require_corpus()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    if gpu_items and not gpu_available():
        skip = pytest.mark.skip(reason="needs an NVIDIA GPU visible to CuPy")
        for item in gpu_items:
            item.add_marker(skip)
