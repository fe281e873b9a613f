"""Which stream `gpu-to-llvm` gives each async op: its first dependency's, unless another op took that token."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

HOST_LANE = -1  # synchronous ops and blocking waits run on the host, not on a stream


class StreamAssigner:
    """Assigns lanes in issue order: an async op continues the stream of its first dependency when
    no earlier op continued that token, otherwise (a fork, or no dependency) it starts a new one."""

    def __init__(self) -> None:
        self.lanes: dict[Hashable, int] = {}
        self.continued: set[Hashable] = set()
        self.count = 0

    def assign(self, key: Hashable, is_async: bool, deps: Sequence[Hashable]) -> int:
        """The lane of op `key` whose known dependencies (keys of earlier ops) are `deps`."""
        lane = HOST_LANE
        if is_async:
            first = deps[0] if deps else None
            if first is not None and self.lanes.get(first, HOST_LANE) != HOST_LANE and first not in self.continued:
                lane = self.lanes[first]
                self.continued.add(first)
            else:
                lane, self.count = self.count, self.count + 1
        self.lanes[key] = lane
        return lane
