"""Keeping Python's cyclic garbage collector off the typing path when a large IR is in memory.

The IR of a 100k-line file is millions of objects; one full collection of them takes
seconds, and CPython runs one whenever enough new objects have survived, that is every
few dozen edits. After a full analysis of a large document the analysis thread collects
once and freezes what survived (`gc.freeze`): collections then only look at what is new.
What a frozen object leaves behind when it dies (the replaced units of incremental
re-parses) is reclaimed by an unfreeze-collect-freeze while the editor is idle, after many
edits or once they have replaced much of the IR (an edit of a kernel re-parses its whole
`gpu.module`: half of an outlined file, each time).
While a large document is opened a batch of top-level ops at a time, each batch is frozen as
soon as it is built, before a collection can scan it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from gpu_lsp.gcpause import paused_gc

# Documents smaller than this never freeze anything: their collections are cheap.
LARGE_DOCUMENT = 200_000
# Incremental analyses after which an idle moment reclaims what frozen objects left behind.
RECLAIM_AFTER = 300
# Code points of text re-parsed after which an idle moment reclaims it (about 50 MB of IR).
RECLAIM_REPLACED = 1_000_000


class HeapPolicy:
    """Called from the analysis thread only."""

    def __init__(self) -> None:
        self.frozen = False
        self.since_reclaim = 0
        self.replaced = 0  # code points re-parsed since the last reclaim

    def after_full_analysis(self, size: int) -> None:
        """A large document was parsed from scratch: collect its predecessor, freeze the rest.
        The first time there is no predecessor: freezing alone spares the open a collection
        of the whole IR (seconds at 100k lines) before the first request."""
        if size < LARGE_DOCUMENT:
            return
        if not self.frozen:
            gc.freeze()
            self.frozen = True
            self.since_reclaim = 0
            self.replaced = 0
            return
        self._reclaim()

    @contextmanager
    def open_step(self, size: int) -> Iterator[None]:
        """One step of the open of a document of `size` code points: the collector is paused and,
        for a large document, what the step built is frozen before it resumes (the IR would
        otherwise be scanned by every older-generation collection while the open goes on)."""
        with paused_gc():
            yield
            if size >= LARGE_DOCUMENT:
                gc.freeze()

    def after_incremental_analysis(self, replaced: int) -> None:
        """An edit was analysed, re-parsing `replaced` code points of the previous text."""
        self.since_reclaim += 1
        self.replaced += replaced

    def idle(self) -> None:
        """The editor is idle: reclaim garbage of frozen objects after many edits or much re-parsed."""
        if self.frozen and (self.since_reclaim >= RECLAIM_AFTER or self.replaced >= RECLAIM_REPLACED):
            self._reclaim()

    def _reclaim(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.frozen = True
        self.since_reclaim = 0
        self.replaced = 0
