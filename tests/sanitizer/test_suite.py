"""The labelled kernel suite: headers parse, upstream MLIR verifies every file, gpu-lint finds no error, counts hold."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Severity
from sanitizer.suite_loader import SUITE, SuiteError, SuiteKernel, load_suite, parse_kernel

KERNELS = load_suite()
CONSTANT = re.compile(r"(%\w+) = arith\.constant (\d+) : index")
LAUNCH = re.compile(r"gpu\.launch_func @kernels::@([\w$.]+) blocks in \(([^)]*)\) threads in \(([^)]*)\)")


def _ids(kernels: list[SuiteKernel]) -> list[str]:
    return [str(k.path.relative_to(SUITE)) for k in kernels]


def test_counts() -> None:
    """At least 90 kernels; races and race-free kernels within 20% of each other; a handful of each other hazard."""
    counts = Counter(v for k in KERNELS for v in k.verdicts)
    assert len(KERNELS) >= 90, counts
    assert counts["race"] >= 40 and counts["race-free"] >= 40, counts
    assert abs(counts["race"] - counts["race-free"]) <= 0.2 * max(counts["race"], counts["race-free"]), counts
    assert counts["barrier-divergence"] >= 3 and counts["out-of-bounds"] >= 3, counts


def test_sources_and_licences() -> None:
    """Files sit in the folder of their source, and each translated source's licence text is beside them."""
    folders = {"mc-imperial/gpuverify": "gpuverify", "LLNL/dataracebench": "dataracebench", "own": "own"}
    for k in KERNELS:
        repo = k.source.split(" ")[0]
        assert k.path.parent.name == folders[repo], k.path
    assert "Microsoft Public License" in (SUITE / "gpuverify" / "LICENSE-Ms-PL.txt").read_text()
    assert "Redistribution and use in source and binary forms" in (SUITE / "dataracebench" / "LICENSE-BSD.txt").read_text()


@pytest.mark.parametrize("kernel", KERNELS, ids=_ids(KERNELS))
def test_launch_matches_header(kernel: SuiteKernel) -> None:
    """@main launches the kernel once, with the header's block and grid sizes as constants."""
    text = kernel.path.read_text()
    constants = dict(CONSTANT.findall(text))
    launches = LAUNCH.findall(text)
    assert len(launches) == 1, launches
    name, grid, block = launches[0]
    assert name == kernel.name

    def sizes(operands: str) -> tuple[int, ...]:
        return tuple(int(constants[o.strip()]) for o in operands.split(","))

    assert sizes(grid) == kernel.grid and sizes(block) == kernel.block


@pytest.mark.parametrize("kernel", KERNELS, ids=_ids(KERNELS))
def test_upstream_verifies_and_gpu_lint_finds_no_error(kernel: SuiteKernel) -> None:
    text = kernel.path.read_text()
    assert [d for d in oracle.verify(text) if d[2] == "error"] == []
    errors = [f"{d.code} {d.message}" for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert errors == []


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        ("// verdict: racy\n// source: own\n// launch: block=(1, 1, 1) grid=(1, 1, 1)\n", "verdict"),
        ("// verdict: race, race-free\n// source: own\n// launch: block=(1, 1, 1) grid=(1, 1, 1)\n", "both"),
        ("// verdict: race\n// launch: block=(1, 1, 1) grid=(1, 1, 1)\n", "source"),
        ("// verdict: race\n// source: own\n// launch: block=(1, 1) grid=(1, 1, 1)\n", "launch"),
        ("// verdict: race\n// source: own\n// launch: block=(0, 1, 1) grid=(1, 1, 1)\n", "at least 1"),
    ],
)
def test_malformed_headers_raise(tmp_path: Path, header: str, problem: str) -> None:
    path = tmp_path / "k.mlir"
    path.write_text(header + "gpu.module @kernels {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n")
    with pytest.raises(SuiteError, match=problem):
        parse_kernel(path)
