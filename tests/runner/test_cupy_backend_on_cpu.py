"""The CuPy backend's own logic, run on the CPU against a stand-in `cupy` (fake_cupy.py): memory,
copies, streams and events per token chain, argument marshalling and launches of the generated
CUDA C, which must print what the NumPy backend prints."""

from __future__ import annotations

import sys

import fake_cupy
import pytest
import test_codegen
from emulator import GXX
from helpers import assert_same_output, run

pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

PROGRAMS = test_codegen.programs()


@pytest.fixture
def cupy(emulation_cache, monkeypatch):
    fake = fake_cupy.module(emulation_cache)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    return fake


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cupy_backend_matches_numpy_backend(name: str, cupy, capfd) -> None:
    text = PROGRAMS[name]
    want = run(text)
    capfd.readouterr()
    got = run(text, backend="cupy")
    device_out = capfd.readouterr().out
    assert want.exit_code == 0, want.stderr
    assert got.exit_code == 0, got.stderr
    assert got.backend == "cupy"
    assert got.stderr == want.stderr
    assert_same_output(want.stdout, got.stdout + device_out)


def test_token_chains_use_streams_and_events(cupy) -> None:
    import test_async

    streams_before = cupy.cuda.Stream.count
    got = run(test_async.program(test_async.PIPELINE), backend="cupy")
    assert got.exit_code == 0, got.stderr
    # A new stream for `gpu.wait async`, then one per fork: the second alloc from %t0, the
    # second launch from %t3 and the second copy from %t6; every other op continues the
    # stream of its first dependency (and waits on the others' events).
    assert cupy.cuda.Stream.count - streams_before == 4
    assert [name for name, _ in got.timings] == ["add", "scale", "square"]


def test_no_device_is_reported_in_one_line(cupy, monkeypatch) -> None:
    from gpu_lsp.runner.cupy_backend import probe

    def no_device():
        raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    monkeypatch.setattr(cupy.cuda.runtime, "getDeviceCount", no_device)
    assert probe() == "no CUDA device"
    r = run(PROGRAMS["cli"], backend="cupy")
    assert r.exit_code == 1 and r.stderr == "gpu-run: no GPU: no CUDA device\n"
    r = run(PROGRAMS["cli"], backend="auto")
    assert r.exit_code == 0 and r.backend == "numpy"


def test_auto_falls_back_when_a_kernel_cannot_be_translated(cupy) -> None:
    text = PROGRAMS["cli"].replace(
        "%w = arith.addi %v, %one : i32",
        "%w = arith.addi %v, %one : i32\n      %cid = gpu.cluster_id x",
    )
    r = run(text, backend="auto")
    assert r.exit_code == 0 and r.backend == "numpy"
    assert "is not supported by the CUDA code generator; running on the NumPy backend" in r.stderr
    r = run(text, backend="cupy")
    assert r.exit_code == 1 and "'gpu.cluster_id' (thread block clusters) is not supported by the CUDA code generator" in r.stderr
