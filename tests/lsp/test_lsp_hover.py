"""Hover: op reference (summary and custom syntax), values, async token chains, symbols."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, at, snapshot

from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.lsp.hover import hover


def _hover(text: str, offset: int) -> str:
    result = hover(snapshot(text), offset)
    assert result is not None
    return result.markdown


def test_op_hover_shows_the_summary_and_custom_syntax() -> None:
    md = _hover(OUTLINED, at(OUTLINED, "gpu.launch_func", 4))
    spec = lookup("gpu.launch_func")
    assert spec.summary in md and spec.syntax in md
    assert '"gpu.launch_func"(' not in md  # not the generic form
    assert "gpu.func @scale(%buf: memref<16xf32>, %factor: f32) kernel" in md


def test_op_hover_says_what_the_declaration_does_to_memory() -> None:
    text = (
        "func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {\n"
        "  memref.copy %a, %b : memref<4xf32> to memref<4xf32>\n"
        "  %c = memref.cast %a : memref<4xf32> to memref<?xf32>\n"
        "  return\n}\n"
    )
    assert "Memory: reads `$source`, writes `$target`" in _hover(text, at(text, "memref.copy", 2))
    assert "Memory: views `$source`" in _hover(text, at(text, "memref.cast", 2))
    assert "Memory:" not in _hover(text, at(text, "return", 2))


def test_unknown_op_hover() -> None:
    text = 'func.func @f() {\n  "mystery.op"() : () -> ()\n  mystery.other\n  return\n}\n'
    md = _hover(text, at(text, "mystery.other", 2))
    assert "not an operation gpu-lsp knows" in md.lower()


def test_value_hover_gives_type_definition_and_users() -> None:
    md = _hover(OUTLINED, at(OUTLINED, "%dev, %host", 1))
    assert "%dev : memref<16xf32>" in md
    assert "Result #0 of `gpu.alloc` (line 18)" in md
    assert "Used by 4 ops" in md


def test_token_hover_lists_what_it_waits_on_and_its_stream() -> None:
    md = _hover(OUTLINED, at(OUTLINED, "%t4] %host", 1))
    assert "%t4 : !gpu.async.token" in md
    waits = md.split("**Waits on**")[1].split("**Stream")[0]
    assert [name in waits for name in ("%t2", "%t3", "%t1", "%t0")] == [True] * 4
    assert waits.index("%t2") < waits.index("%t1") < waits.index("%t0")
    assert "**Stream after gpu-to-llvm**: the one created by `%t0` = `gpu.wait` (line 17) (stream 1" in md


def test_stream_of_a_token_without_dependency() -> None:
    text = "func.func @f(%m: memref<4xf32>) {\n  %t = gpu.dealloc async %m : memref<4xf32>\n  gpu.wait [%t]\n  return\n}\n"
    md = _hover(text, at(text, "%t =", 1))
    assert "none" in md.split("**Stream after gpu-to-llvm**")[1]


def test_launch_region_argument_hover_names_its_role() -> None:
    md = _hover(INLINE, at(INLINE, "%tx] : memref", 1))
    assert "thread id x" in md and "gpu.launch" in md


def test_symbol_hover_shows_the_signature_and_launches() -> None:
    md = _hover(OUTLINED, at(OUTLINED, "@scale blocks", 2))
    assert "gpu.func @scale(%buf: memref<16xf32>, %factor: f32) kernel" in md
    assert "Kernel launched 1 time (line 21)" in md
    md = _hover(OUTLINED, at(OUTLINED, "@kernels::", 2))
    assert "gpu.module @kernels" in md and "`@scale`" in md


def test_unresolved_symbol_hover() -> None:
    text = OUTLINED.replace("@kernels::@scale blocks", "@kernels::@missing blocks")
    md = _hover(text, at(text, "@missing", 2))
    assert "`@kernels::@missing` is not defined" in md


def test_block_hover() -> None:
    md = _hover(INLINE, at(INLINE, "^bb1(%y", 1))
    assert "Block `^bb1`" in md and "`%y : i32`" in md and "cf.cond_br" in md


def test_alias_hover() -> None:
    md = _hover(OUTLINED, at(OUTLINED, "#map =", 1))
    assert "#map = affine_map<(d0) -> (d0)>" in md


def test_no_hover_on_whitespace() -> None:
    assert hover(snapshot(OUTLINED), at(OUTLINED, "\n\n  func.func", 1)) is None
