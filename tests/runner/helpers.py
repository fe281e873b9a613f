"""Helpers for runner tests: run MLIR text on the NumPy backend and read printMemref output back."""

from __future__ import annotations

import re

import numpy as np

from gpu_lsp.runner import RunResult, run_text

HEADER = re.compile(r"^(?:Unranked )?Memref base@ = 0x[0-9a-f]+ rank = (\d+) offset = (\d+) sizes = \[([^\]]*)\] strides = \[([^\]]*)\] data = $")


def run(text: str, backend: str = "numpy", **kwargs) -> RunResult:
    return run_text(text, filename="test.mlir", backend=backend, **kwargs)


def run_ok(text: str, **kwargs) -> RunResult:
    result = run(text, **kwargs)
    assert result.exit_code == 0, result.stderr
    return result


def printed_memrefs(stdout: str) -> list[np.ndarray]:
    """Every printMemref* block of an output, as arrays of the printed shape (int64 when every element is an integer)."""
    lines = stdout.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = HEADER.match(lines[i])
        if not m:
            i += 1
            continue
        rank = int(m.group(1))
        sizes = [int(s) for s in m.group(3).split(",") if s.strip()]
        count = int(np.prod(sizes)) if sizes else 1
        text = []
        i += 1
        while i < len(lines) and not HEADER.match(lines[i]):
            text.append(lines[i])
            i += 1
            if text[-1].rstrip().endswith("]" * max(rank, 1)):
                break
        numbers = re.findall(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?", " ".join(text))
        if all(re.fullmatch(r"[-+]?\d+", x) for x in numbers):
            values = np.array([int(x) for x in numbers], dtype=np.int64)
        else:
            values = np.array([float(x) for x in numbers], dtype=np.float64)
        assert values.size == count, (values.size, count, text)
        out.append(values.reshape(sizes))
    return out


def mlir_array(values, ty: str) -> str:
    """`dense<[...]>` for a 1-D array."""
    if ty.startswith("f"):
        body = ", ".join("0x7FC00000" if np.isnan(v) else repr(float(v)) for v in values)
    else:
        body = ", ".join(str(int(v)) for v in values)
    return f"dense<[{body}]>"


def assert_same_output(want: str, got: str) -> None:
    """A GPU backend printed what the NumPy backend printed: printMemref values (floats to 1e-5),
    other lines in any order (device printf from different threads)."""
    if "Memref" not in want:
        assert sorted(got.splitlines()) == sorted(want.splitlines())
        return
    a, b = printed_memrefs(want), printed_memrefs(got)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x.dtype.kind == "i" and y.dtype.kind == "i":
            assert (x == y).all()
        else:
            np.testing.assert_allclose(y, x, rtol=1e-5, atol=1e-30)
