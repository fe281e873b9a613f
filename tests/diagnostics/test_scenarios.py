"""Acceptance 4: the scenarios of the design discussion, end to end through `lint_text`."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.mlir_versions import AtVersion
from gpu_lsp.diagnostics.model import Applicability, Severity
from gpu_lsp.text import apply_edits

KERNELS = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<64xf32>, %f: f32) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<64xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %m[%c0] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%buf: memref<64xf32>, %host: memref<16xf32>, %f: f32, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
BODY
    return
  }
}
"""

LAUNCH = "@kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<64xf32>, %f : f32)"


def program(body: str) -> str:
    return KERNELS.replace("BODY", body.rstrip("\n"))


def oracle_errors(text: str) -> list:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    return [d for d in oracle.verify(text) if d[2] == "error"]


def test_unnamed_async_launch() -> None:
    text = """\
func.func @main(%c1: index) {
  gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
"""
    found = [d for d in lint_text(text) if d.severity >= Severity.WARNING]
    assert [(d.code, d.message) for d in found] == [
        ("GPU100", "custom op 'gpu.launch' needs to be named when marked 'async'")
    ]
    (d,) = found
    assert text[d.range.start : d.range.end] == "async"
    assert d.fix.applicability is Applicability.SAFE
    fixed = apply_edits(text, list(d.fix.edits))
    assert "%t0 = gpu.launch async" in fixed  # new tokens are %tN, the first N free
    assert [x.code for x in lint_text(fixed) if x.severity >= Severity.ERROR] == []
    assert [e[3] for e in oracle_errors(text)][:1] == ["custom op 'gpu.launch' needs to be named when marked 'async'"]
    assert oracle_errors(fixed) == []


def test_async_without_dependencies_is_valid() -> None:
    text = program(f"    %t = gpu.launch_func async {LAUNCH}\n    gpu.wait [%t]\n")
    assert lint_text(text) == []
    assert oracle_errors(text) == []


def test_launch_func_with_two_dependencies() -> None:
    """LLVM 23 lowers it (llvm-project PR #188987); LLVM 22 rejects it, and the fix joins the tokens first."""
    text = program(
        "    %a = gpu.wait async\n"
        "    %b = gpu.wait async\n"
        f"    %t = gpu.launch_func async [%a, %b] {LAUNCH}\n"
        "    gpu.wait [%t]\n"
    )
    assert lint_text(text) == []
    llvm22 = AtVersion(22)
    (d,) = lint_text(text, settings=llvm22)
    assert d.code == "GPU201" and d.severity is Severity.WARNING
    assert "`%a`, `%b`" in d.message and "gpu.wait async [%a, %b]" in d.message and "LLVM ≤ 22" in d.message
    fixed = apply_edits(text, list(d.fix.edits))
    assert "%t0 = gpu.wait async [%a, %b]\n    %t = gpu.launch_func async [%t0]" in fixed
    assert lint_text(fixed, settings=llvm22) == []
    assert oracle_errors(fixed) == []


def test_synchronous_launch_func_with_a_dependency() -> None:
    text = program(f"    %t0 = gpu.wait async\n    gpu.launch_func [%t0] {LAUNCH}\n")
    (d,) = lint_text(text)
    assert d.code == "GPU202" and "`%t0`" in d.message
    fixed = apply_edits(text, list(d.fix.edits))
    assert f"%t1 = gpu.launch_func async [%t0] {LAUNCH}\n    gpu.wait [%t1]" in fixed
    assert lint_text(fixed) == []
    assert oracle_errors(fixed) == []


def test_single_token_async_wait() -> None:
    text = program(
        "    %t0 = gpu.wait async\n"
        "    %t1 = gpu.wait async [%t0]\n"
        f"    %t2 = gpu.launch_func async [%t1] {LAUNCH}\n"
        "    gpu.wait [%t2]\n"
    )
    (d,) = lint_text(text)
    assert d.code == "GPU205" and d.severity is Severity.HINT
    fixed = apply_edits(text, list(d.fix.edits))
    assert "%t1" not in fixed and f"gpu.launch_func async [%t0] {LAUNCH}" in fixed
    assert lint_text(fixed) == []
    assert oracle_errors(fixed) == []


def test_kernels_around_a_host_loop_then_a_single_token_wait() -> None:
    text = program(
        "    %t0 = gpu.wait async\n"
        f"    %t1 = gpu.launch_func async [%t0] {LAUNCH}\n"
        f"    %t2 = gpu.launch_func async [%t1] {LAUNCH}\n"
        "    scf.for %i = %c0 to %n step %c1 {\n"
        "      %x = memref.load %host[%i] : memref<16xf32>\n"
        "      %y = arith.addf %x, %f : f32\n"
        "      memref.store %y, %host[%i] : memref<16xf32>\n"
        "    }\n"
        "    %t3 = gpu.wait async [%t2]\n"
        f"    %t4 = gpu.launch_func async [%t3] {LAUNCH}\n"
        f"    %t5 = gpu.launch_func async [%t4] {LAUNCH}\n"
        "    gpu.wait [%t5]\n"
    )
    found = lint_text(text)
    assert [(d.code, d.severity) for d in found] == [("GPU205", Severity.HINT)]
    assert "`%t3 = gpu.wait async [%t2]`" in found[0].message
    assert oracle_errors(text) == []


def test_host_access_fixes_leave_no_fork_and_no_race() -> None:
    """Each GPU208 (one per host access) has a fix after which neither GPU208 nor GPU207 (a token forked by the wait) remains."""
    from diagnostics.fixtures import load

    fx = load("GPU208")
    found = [d for c in fx.chunks for d in c.diagnostics if c.kind == "Errors"]
    assert len(found) == len({d.range.start for d in found}) == 4
    before = lint_text(fx.text)
    for d in found:
        assert d.fix is not None, d.message
        after = lint_text(apply_edits(fx.text, list(d.fix.edits)))
        assert sum(x.code == "GPU208" for x in after) == sum(x.code == "GPU208" for x in before) - 1
        assert [x for x in after if x.code == "GPU207"] == [x for x in before if x.code == "GPU207"] == []


BAD_LAUNCHES = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %m: memref<4xf32>, %n: i32) {
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @kernels::@missing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}
"""


def test_the_linter_reports_every_bad_launch_and_names_both_types() -> None:
    from gpu_lsp.analysis import verify_chunk
    from gpu_lsp.parser.api import parse

    found = [d for d in lint_text(BAD_LAUNCHES) if d.code == "GPU105"]
    assert [d.message.split(" op ")[1] for d in found] == [
        "type of function argument 0 does not match",
        "kernel function '@kernels::@missing' is undefined",
        "type of function argument 0 does not match",
    ]
    assert [n.message for n in found[0].related] == ["argument 0 is passed as 'memref<4xf32>', and '@kernels::@k' takes 'f32'"]
    assert [n.message for n in found[2].related] == ["argument 0 is passed as 'i32', and '@kernels::@k' takes 'f32'"]
    # gpu-opt is mlir-opt: the first problem only, with upstream's text and no note.
    (first,) = verify_chunk(parse(BAD_LAUNCHES).chunks[0], text=BAD_LAUNCHES)
    assert (first.message, first.related) == (found[0].message, ())
    upstream = [d for d in oracle_errors(BAD_LAUNCHES) if d[2] == "error"]
    assert [m for *_, m in upstream] == [first.message]


def test_inline_launch_message_has_no_stray_pass_text() -> None:
    """GPU204 says what to do, without the `(replace with gpu.launch_func first)` of gpu-async-region's error."""
    from diagnostics.fixtures import load

    (d,) = [d for c in load("GPU204").chunks for d in c.diagnostics]
    assert d.message == (
        "`gpu.launch` is an inline kernel: `gpu-async-region` and `gpu-to-llvm` expect `gpu.launch_func`; "
        "outline it with `gpu-kernel-outlining`"
    )
