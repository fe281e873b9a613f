"""CUDA C codegen: every kernel of the upstream integration programs and of the runner's test programs compiles with nvcc."""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import test_affine
import test_arith
import test_async
import test_cli
import test_integration
import test_kernels

from gpu_lsp.runner.codegen import emit_program_cuda, kernels_of
from gpu_lsp.runner.program import Program

NVCC = shutil.which("nvcc") or ("/usr/local/bin/nvcc" if Path("/usr/local/bin/nvcc").exists() else None)


def programs() -> dict[str, str]:
    out = {name: test_integration.PROGRAMS[name].read_text() for name in test_integration.RUNNABLE}
    k = test_kernels
    out["control_flow"] = k.launch_and_print(k.CONTROL_FLOW, 7, 64)
    out["collectives"] = k.launch_and_print(k.COLLECTIVES, 14, 64, blocks=3)
    out["dynamic_shared"] = k.launch_and_print(k.DYNAMIC_SHARED, 1, 32, blocks=3, elem="f32", dsm=192)
    out["atomics"] = k.launch_and_print(k.ATOMICS, 1, 4, extra_args=", %acc : memref<2xf32>").replace(
        "    %out = memref.alloc", "    %acc = gpu.alloc host_shared () : memref<2xf32>\n    %out = memref.alloc"
    )
    out["async_pipeline"] = test_async.program(test_async.PIPELINE)
    out["cli"] = test_cli.PROGRAM
    a = test_arith
    out["int_ops"] = a.kernel_program("i64", [f"arith.{op} %a, %b : i64" for op in a.INT_OPS] + ["arith.shrsi %a, %b : i64"], {"A": a.A32, "B": a.B32})
    int_rows = ["math.absi %a : i32", "math.ctlz %a : i32", "math.cttz %a : i32", "math.ctpop %a : i32", "math.ipowi %a, %b : i32"]
    out["int_math"] = a.kernel_program("i32", int_rows, {"A": a.A32 % 5 - 2, "B": a.B32 % 7 - 3})
    float_rows = [f"math.{n} %a : f32" for n in a.MATH] + ["arith.remf %a, %b : f32", "arith.maximumf %a, %b : f32"]
    out["float_ops"] = a.kernel_program("f32", float_rows, {"A": a.FA, "B": a.FB})
    out["index_ops"] = a.index_program()
    out["half"] = k.half_program()
    out["matmul"] = k.matmul_program()
    out["affine"] = test_affine.KERNEL
    return out


def test_every_test_kernel_is_emitted() -> None:
    for name, text in programs().items():
        source, errors = emit_program_cuda(text, name)
        assert errors == [], (name, errors)
        program, _ = Program.load(text)
        for kname, _op in kernels_of(program):
            assert f"__global__ void {kname}(" in source, (name, kname)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_every_kernel_compiles_with_nvcc(tmp_path: Path) -> None:
    jobs = []
    for k, (name, text) in enumerate(programs().items()):
        source, errors = emit_program_cuda(text, name)
        assert errors == [], (name, errors)
        path = tmp_path / f"p{k}.cu"
        path.write_text(source)
        jobs.append((name, path))

    def compile_one(job):
        name, path = job
        r = subprocess.run([NVCC, "-ptx", "-arch=sm_90", "-o", str(path.with_suffix(".ptx")), str(path)], capture_output=True, text=True, timeout=300)
        return name, r

    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, r in pool.map(compile_one, jobs):
            assert r.returncode == 0, f"{name}:\n{r.stderr}"


def _nvrtc():
    try:
        from cupy_backends.cuda.libs import nvrtc

        nvrtc.getVersion()
        return nvrtc
    except Exception:
        return None


@pytest.mark.skipif(_nvrtc() is None, reason="CuPy's NVRTC is not installed")
def test_every_kernel_compiles_with_nvrtc_without_include_paths() -> None:
    """What cupy.RawModule does on a GPU machine (NVRTC, no CUDA headers on the include path)."""
    nvrtc = _nvrtc()
    for name, text in programs().items():
        source, errors = emit_program_cuda(text, name)
        assert errors == []
        prog = nvrtc.createProgram(source, f"{name}.cu", (), ())
        try:
            nvrtc.compileProgram(prog, ["-std=c++14", "-arch=compute_90"])
        except Exception as exc:  # NVRTCError
            pytest.fail(f"{name}: {exc}\n{nvrtc.getProgramLog(prog)}")
