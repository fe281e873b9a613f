"""The generated CUDA C, compiled with g++ against a CPU shim and run one thread per CUDA thread,
prints what the NumPy backend prints: a check of the code generator that needs no GPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import test_codegen
from emulator import GXX, EmulatedCudaBackend
from helpers import printed_memrefs, run

pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

PROGRAMS = test_codegen.programs()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_generated_cuda_matches_the_numpy_backend(name: str, emulation_cache: Path) -> None:
    text = PROGRAMS[name]
    want = run(text)
    got = run(text, backend=EmulatedCudaBackend(emulation_cache))
    assert want.exit_code == 0, want.stderr
    assert got.exit_code == 0, got.stderr
    assert got.stderr == want.stderr
    if "Memref" not in want.stdout:
        # device printf: threads print in any order
        assert sorted(got.stdout.splitlines()) == sorted(want.stdout.splitlines())
        return
    a, b = printed_memrefs(want.stdout), printed_memrefs(got.stdout)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x.dtype.kind == "i" and y.dtype.kind == "i":
            assert (x == y).all(), name
        else:
            np.testing.assert_allclose(y, x, rtol=1e-5, atol=1e-30, err_msg=name)
