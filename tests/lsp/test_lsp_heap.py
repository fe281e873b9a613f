"""The heap policy: what frozen IR leaves behind is reclaimed when idle, after many edits or much re-parsed."""

from __future__ import annotations

from gpu_lsp.lsp import heap
from gpu_lsp.lsp.heap import LARGE_DOCUMENT, RECLAIM_AFTER, RECLAIM_REPLACED, HeapPolicy


class _Collector:
    """Stands for the `gc` module: counts collections (the real one would freeze the test process's objects)."""

    def __init__(self) -> None:
        self.collections = 0

    def freeze(self) -> None:
        pass

    def unfreeze(self) -> None:
        pass

    def collect(self) -> int:
        self.collections += 1
        return 0


def test_idle_reclaims_after_much_is_reparsed_or_after_many_edits(monkeypatch) -> None:
    collector = _Collector()
    monkeypatch.setattr(heap, "gc", collector)
    policy = HeapPolicy()
    policy.after_full_analysis(LARGE_DOCUMENT)  # the open: frozen, nothing collected
    assert collector.collections == 0
    policy.after_incremental_analysis(2_000)  # a host function typed in
    policy.idle()
    assert collector.collections == 0
    policy.after_incremental_analysis(RECLAIM_REPLACED)  # a kernel typed in: its whole gpu.module re-parsed
    policy.idle()
    assert collector.collections == 1
    for _ in range(RECLAIM_AFTER - 1):
        policy.after_incremental_analysis(10)
    policy.idle()
    assert collector.collections == 1
    policy.after_incremental_analysis(10)
    policy.idle()
    assert collector.collections == 2
