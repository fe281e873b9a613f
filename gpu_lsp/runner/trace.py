"""`gpu-run --trace`: the run as Chrome trace-event JSON (a track per stream, flow arrows for tokens)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.sanitizer.streams import HOST_LANE, StreamAssigner
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.views import async_token
from gpu_lsp.runner.tokens import Node, Token, Tracker

PID = 1


@dataclass
class TraceSpan:
    """One GPU op as it ran: its lane, wall-clock start and end (seconds) and the ops it waited for."""

    op: Operation
    lane: int
    start: float
    end: float | None = None
    parents: list[int] = field(default_factory=list)


class TracingTracker(Tracker):
    """The runner's tracker, also timing every GPU op it records."""

    def __init__(self, where) -> None:
        super().__init__(where)
        self.origin = time.perf_counter()
        self.spans: dict[int, TraceSpan] = {}
        self.host_waits: list[TraceSpan] = []
        self.lanes = StreamAssigner()

    def begin(self, op: Operation, deps: list[Token]) -> Node:
        node = super().begin(op, deps)
        parents = [t.node.id for t in deps if t.node is not None and t.node.id in self.spans]
        is_async = async_token(op) is not None
        lane = self.lanes.assign(node.id, is_async, parents)
        self.spans[node.id] = TraceSpan(op, lane, time.perf_counter() - self.origin, parents=parents)
        return node

    def host_wait(self, tokens: list[Token], op: Operation | None = None, started: float | None = None) -> None:
        """A blocking `gpu.wait` is a span on the host track, from when it began until its tokens completed."""
        super().host_wait(tokens, op, started)
        if op is not None and started is not None:
            parents = [t.node.id for t in tokens if t.node is not None and t.node.id in self.spans]
            self.host_waits.append(TraceSpan(op, HOST_LANE, started - self.origin, time.perf_counter() - self.origin, parents))

    def end(self, node: Node, is_async: bool) -> None:
        span = self.spans.get(node.id)
        if span is not None:
            span.end = time.perf_counter() - self.origin
        super().end(node, is_async)

    def document(self, backend: str) -> dict:
        """The Trace Event Format document: complete events, thread names, flow start/finish pairs."""
        events: list[dict] = [{"ph": "M", "pid": PID, "name": "process_name", "args": {"name": f"gpu-run ({backend})"}}]
        spans = sorted([*self.spans.values(), *self.host_waits], key=lambda s: s.start)
        for lane in sorted({s.lane for s in spans}):
            name = "host" if lane == HOST_LANE else f"stream {lane}"
            events.append({"ph": "M", "pid": PID, "tid": _tid(lane), "name": "thread_name", "args": {"name": name}})
            events.append({"ph": "M", "pid": PID, "tid": _tid(lane), "name": "thread_sort_index", "args": {"sort_index": _tid(lane)}})
        flow = 0
        for span in spans:
            end = span.end if span.end is not None else span.start
            events.append(
                {
                    "ph": "X",
                    "pid": PID,
                    "tid": _tid(span.lane),
                    "name": span.op.name,
                    "cat": "gpu",
                    "ts": _us(span.start),
                    "dur": _us(end - span.start),
                    "args": {"location": self.where(span.op)},
                }
            )
            for parent in span.parents:
                source = self.spans[parent]
                flow += 1
                common = {"pid": PID, "name": "token", "cat": "token", "id": flow}
                events.append({**common, "ph": "s", "tid": _tid(source.lane), "ts": _us(source.end or source.start)})
                events.append({**common, "ph": "f", "bp": "e", "tid": _tid(span.lane), "ts": _us(span.start)})
        return {
            "traceEvents": events,
            "displayTimeUnit": "ms",
            "otherData": {"backend": backend, "clock": "host wall clock around each op (the NumPy backend runs an op when it is issued)"},
        }


def _tid(lane: int) -> int:
    return 0 if lane == HOST_LANE else lane + 1


def _us(seconds: float) -> float:
    return round(seconds * 1e6, 3)
