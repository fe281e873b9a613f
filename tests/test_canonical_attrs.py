"""gpu, nvvm and rocdl attributes kept as text print as mlir-opt prints them (gpu_lsp/ir/canonical_attrs.py).

EXPECTED is the oracle's printing of SOURCE (re-checked where it is installed): default-valued
target parameters left out and the others in declared order, `fatbin =` left out, the short
form of an object's kernel table, kernel tables sorted, dictionaries sorted with typed numbers,
and the type of a `#gpu.select_object` index.
"""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.ir.attributes import DialectAttr
from gpu_lsp.ir.canonical_attrs import canonical_attr
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

SOURCE = """\
module attributes {gpu.container_module} {
  gpu.binary @a [#gpu.object<#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "+ptx60">, "BLOB">]
  gpu.binary @b [#gpu.object<#rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", features = "", abi = "600">, bin = "BLOB">]
  gpu.binary @c [#gpu.object<#rocdl.target<chip = "gfx90a", O = 3>, offload = "BLOB">]
  gpu.binary @d [#gpu.object<#nvvm.target<flags = {fast}, link = ["a.bc"]>, properties = {e = true, a = 1, c = 2.0, b = [1, 2], d = "x"}, assembly = "BLOB">]
  gpu.binary @e [#gpu.object<#nvvm.target, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"k", () -> (), metadata = {x = [1, 2], y = {z = 3}}>]>, fatbin = "B">]
  gpu.binary @f <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "B">, #gpu.object<#nvvm.target<chip = "sm_90">, "C">]
  gpu.module @m [#nvvm.target<chip = "sm_50">, #rocdl.target<chip = "gfx900", O = 2>, #nvvm.target<O = 3>] {
  }
  func.func @g() attributes {t = #gpu.kernel_table<[#gpu.kernel_metadata<"z", () -> ()>, #gpu.kernel_metadata<"a", () -> ()>]>} {
    return
  }
}
"""  # noqa: E501 (one op per line, as upstream writes them)

EXPECTED = """\
module attributes {gpu.container_module} {
  gpu.binary @a  [#gpu.object<#nvvm.target<chip = "sm_50", features = "+ptx60">, "BLOB">]
  gpu.binary @b  [#gpu.object<#rocdl.target, bin = "BLOB">]
  gpu.binary @c  [#gpu.object<#rocdl.target<O = 3, chip = "gfx90a">, offload = "BLOB">]
  gpu.binary @d  [#gpu.object<#nvvm.target<flags = {fast}, link = ["a.bc"]>, properties = {a = 1 : i64, b = [1, 2], c = 2.000000e+00 : f64, d = "x", e = true}, assembly = "BLOB">]
  gpu.binary @e  [#gpu.object<#nvvm.target, kernels = <[#gpu.kernel_metadata<"k", () -> (), metadata = {x = [1, 2], y = {z = 3 : i64}}>]>, "B">]
  gpu.binary @f <#gpu.select_object<1 : i64>> [#gpu.object<#nvvm.target, "B">, #gpu.object<#nvvm.target<chip = "sm_90">, "C">]
  gpu.module @m [#nvvm.target<chip = "sm_50">, #rocdl.target, #nvvm.target<O = 3>] {
  }
  func.func @g() attributes {t = #gpu.kernel_table<[#gpu.kernel_metadata<"a", () -> ()>, #gpu.kernel_metadata<"z", () -> ()>]>} {
    return
  }
}
"""  # noqa: E501 (upstream prints each op on one line; the expected text is verbatim)


def _printed(text: str) -> str:
    chunk = parse(text).chunks[0]
    assert chunk.diagnostics == []
    return print_module(chunk.module, source=text)


def test_printed_as_upstream() -> None:
    assert _printed(SOURCE) == EXPECTED
    assert _printed(EXPECTED) == EXPECTED


def test_oracle_prints_the_expected_text() -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    printed, diags = oracle.run_pass(SOURCE, "builtin.module()")
    assert diags == []
    assert printed == EXPECTED


@pytest.mark.parametrize(
    ("attr", "text"),
    [
        (DialectAttr("nvvm", "target", 'O = 2, chip = "sm_75"'), "#nvvm.target"),
        (DialectAttr("rocdl", "target", 'abi = "500", O = 1'), '#rocdl.target<O = 1, abi = "500">'),
        (DialectAttr("rocdl", "target", "unknown = 1"), "#rocdl.target<unknown = 1>"),
        (DialectAttr("gpu", "object", '#nvvm.target, fatbin = "x"'), '#gpu.object<#nvvm.target, "x">'),
        (DialectAttr("gpu", "object", '#nvvm.target, bin = "x"'), '#gpu.object<#nvvm.target, bin = "x">'),
        (DialectAttr("gpu", "select_object", "2"), "#gpu.select_object<2 : i64>"),
        (DialectAttr("gpu", "select_object", "#rocdl.target"), "#gpu.select_object<#rocdl.target>"),
        (DialectAttr("gpu", "object", "#nvvm.target, properties = {b, a = -3}, \"x\""), '#gpu.object<#nvvm.target, properties = {a = -3 : i64, b}, "x">'),
    ],
)
def test_canonical_text(attr: DialectAttr, text: str) -> None:
    assert str(canonical_attr(attr)) == text
