"""Acceptance of the lit runner over both corpora: per-chunk results equal a lit-style reference.

The reference is computed here independently of gpu_lsp/lit: RUN lines read by
tests/upstream/chunks.py, pipelines cut at `|` with shlex, `mlir-opt` run through
gpu-opt's console entry point and FileCheck through the `filecheck` package's,
each chunk's check lines (line numbers kept) matched against the whole file's
output, and a chunk alone through its tools when the whole file failed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from support.console import call_main
from support.corpus import CORPUS, all_corpus_files, split_chunks
from upstream.chunks import check_prefixes, has_checks, run_lines

from gpu_lsp.cli import gpu_opt
from gpu_lsp.lit.runlines import parse_run
from gpu_lsp.lit.runner import refusal, run_file
from gpu_lsp.lit.update import update_chunk

TOOL = gpu_opt.InProcess()
GPU = CORPUS / "upstream" / "mlir" / "test" / "Dialect" / "GPU"
# tests/upstream/test_upstream_lit.py explains these two (0-based chunk indices).
KNOWN_FAILURES = {("async-region.mlir", 0), ("sink-ops.mlir", 4)}


def _stages(command: str) -> list[list[str]]:
    words = shlex.split(command)
    stages: list[list[str]] = [[]]
    for w in words:
        if w == "|":
            stages.append([])
        else:
            stages[-1].append(w)
    return stages


def _tools(stages: list[list[str]], path: Path) -> tuple[int, str]:
    data = ""
    for stage in stages:
        argv = [str(path) if a == "%s" else a for a in stage[1:]]
        status, data, _ = call_main(gpu_opt.main, argv, data)
        if status:
            return status, data
    return 0, data


def reference(path: Path, tmp: Path) -> dict[tuple[int, int], bool]:
    """(RUN index, chunk index) -> passed, computed lit-style without gpu_lsp/lit."""
    from filecheck.main import main as filecheck_main

    text = path.read_text(encoding="utf-8")
    out: dict[tuple[int, int], bool] = {}
    for index, command in enumerate(run_lines(text)):
        if refusal(parse_run(0, 0, command), TOOL) is not None:
            continue
        stages = _stages(command)
        checks = stages.pop() if stages[-1][0] == "FileCheck" else None
        split = any(a.lstrip("-") == "split-input-file" for a in stages[0])
        status, whole = _tools(stages, path)
        chunks = [(c.line, c.text) for c in split_chunks(text)] if split else [(1, text)]
        for k, (line, chunk) in enumerate(chunks):
            if checks is not None and not has_checks(chunk, check_prefixes(command)):
                continue
            alone = tmp / f"{path.name}.{index}.{k}.mlir"
            alone.write_text("\n" * (line - 1) + chunk, encoding="utf-8")
            ok = status == 0 or (split and _tools(stages, alone)[0] == 0)
            if ok and checks is not None:
                argv = ["filecheck"] + [str(alone) if a == "%s" else a for a in checks[1:]]
                ok = call_main(filecheck_main, argv, whole)[0] == 0
            out[(index, k)] = ok
    return out


def runnable() -> list[Path]:
    return [p for p in all_corpus_files() if any(refusal(parse_run(0, 0, c), TOOL) is None for c in run_lines(p.read_text(encoding="utf-8")))]


def test_per_chunk_results_equal_the_lit_style_reference(tmp_path: Path) -> None:
    files = runnable()
    print(f"{len(files)} corpus files with RUN lines gpu-opt runs: " + ", ".join(p.name for p in files))
    assert len(files) >= 9
    total = failed = 0
    for path in files:
        result = run_file(path.read_text(encoding="utf-8"), str(path), TOOL)
        mine = {(r.run, r.chunk.index): r.passed for r in result.results}
        assert mine == reference(path, tmp_path), path.name
        total += len(mine)
        failed += sum(not ok for ok in mine.values())
    print(f"{total} chunk results, {failed} failing")
    assert total >= 130


def test_the_upstream_pass_tests_fail_exactly_where_known() -> None:
    failures = set()
    for name in ("outlining.mlir", "async-region.mlir", "sink-ops.mlir"):
        result = run_file((GPU / name).read_text(encoding="utf-8"), name, TOOL)
        assert result.results
        failures |= {(name, r.chunk.index) for r in result.failed}
    assert failures == KNOWN_FAILURES


def test_update_check_lines_makes_every_chunk_pass_and_is_stable() -> None:
    """Every chunk with checks of every RUN line gpu-opt runs, updated one after the other (the
    output never holds the checks, so a chunk's update does not depend on the others')."""
    updated = 0
    for path in runnable():
        text = path.read_text(encoding="utf-8")
        before = run_file(text, path.name, TOOL)
        for index, run in enumerate(before.runs):
            if refusal(run, TOOL) is not None or run.filecheck is None:
                continue
            chunks = sorted({r.chunk.index for r in before.results if r.run == index})
            once = text
            for chunk in chunks:
                once = update_chunk(once, path.name, TOOL, index, chunk)
            after = run_file(once, path.name, TOOL, only=(index, -1))
            assert [(r.chunk.index, r.passed) for r in after.results] == [(chunk, True) for chunk in chunks], (path.name, index)
            for chunk in chunks:
                assert update_chunk(once, path.name, TOOL, index, chunk) == once, (path.name, index, chunk)
            updated += len(chunks)
    print(f"{updated} chunks updated, each passing and stable")
    assert updated >= 49
