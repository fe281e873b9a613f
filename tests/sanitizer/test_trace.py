"""`gpu-run --trace`: valid Chrome trace-event JSON, one track per stream (the graph's lanes), token flows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_lsp.cli import gpu_run
from gpu_lsp.cli.gpu_graph import graphs_of
from gpu_lsp.diagnostics.sanitizer.host import GPU_HOST_OPS
from sanitizer.programs import generate

PHASES = {"M", "X", "s", "f"}
PROGRAMS = [p for p in generate(60, seed=7) if p.story == "ordering"][:8]


def _trace(tmp_path: Path, text: str) -> dict:
    source = tmp_path / "prog.mlir"
    source.write_text(text)
    out = tmp_path / "trace.json"
    assert gpu_run.main([str(source), "--backend", "numpy", "--trace", str(out)]) == 0
    return json.loads(out.read_text())


def _check_format(doc: dict) -> None:
    """The Trace Event Format's rules for the event kinds used (what Perfetto and chrome://tracing load)."""
    events = doc["traceEvents"]
    assert isinstance(events, list) and doc["displayTimeUnit"] in ("ms", "ns")
    named = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    flows: dict[int, list[dict]] = {}
    for e in events:
        assert e["ph"] in PHASES and isinstance(e["pid"], int) and isinstance(e["name"], str)
        if e["ph"] == "X":
            assert isinstance(e["tid"], int) and e["tid"] in named
            assert e["ts"] >= 0 and e["dur"] >= 0
        if e["ph"] in "sf":
            flows.setdefault(e["id"], []).append(e)
    for pair in flows.values():
        assert [e["ph"] for e in pair] == ["s", "f"] and pair[0]["ts"] <= pair[1]["ts"] and pair[1]["bp"] == "e"


@pytest.mark.parametrize("index", range(len(PROGRAMS)))
def test_trace_of_a_run(tmp_path: Path, index: int) -> None:
    text = PROGRAMS[index].text
    doc = _trace(tmp_path, text)
    _check_format(doc)
    ops = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    (graph,) = graphs_of(text)
    # Every GPU op, blocking waits included: they are spans on the host track (issue 26).
    executed = [n for n in graph.nodes if n.op.name in GPU_HOST_OPS]
    assert [e["name"] for e in ops] == [n.op.name for n in executed]
    # Each op runs on the track of the stream the graph gives it (track 0 is the host).
    assert [e["tid"] for e in ops] == [0 if n.stream == -1 else n.stream + 1 for n in executed]
    # A flow arrow per token dependency of an executed op.
    ran = {n.id for n in executed}
    tokens = [e for e in graph.edges if e.kind == "token" and e.target in ran]
    assert sum(1 for e in doc["traceEvents"] if e["ph"] == "s") == len(tokens)
    starts = [e["ts"] for e in ops]
    assert starts == sorted(starts), "the NumPy backend runs the ops in issue order"
