"""Definition, references, highlights and rename for values, blocks, symbols and aliases."""

from __future__ import annotations

import pytest
from lsp_samples import INLINE, OUTLINED, at, snapshot

from gpu_lsp.lsp.navigation import RenameError, definition, highlights, prepare_rename, references, rename
from gpu_lsp.text import TextRange, apply_edits


def _texts(text: str, ranges: list[TextRange]) -> list[str]:
    return [text[r.start : r.end] for r in ranges]


def test_value_definition_and_references() -> None:
    snap = snapshot(OUTLINED)
    use = at(OUTLINED, "%t2, %t3]", 1)
    [d] = definition(snap, use)
    assert OUTLINED[d.start : d.end] == "%t2" and d.start == at(OUTLINED, "%t2 = gpu.memcpy")
    refs = references(snap, use)
    assert _texts(OUTLINED, refs) == ["%t2", "%t2"]
    assert [r.start for r in references(snap, use, include_declaration=False)] == [at(OUTLINED, "%t2, %t3]")]


def test_multi_result_uses_resolve_to_the_group_definition() -> None:
    snap = snapshot(OUTLINED)
    [d] = definition(snap, at(OUTLINED, "%dev, %host", 2))
    assert d.start == at(OUTLINED, "%dev, %t1")


def test_block_argument_definition() -> None:
    snap = snapshot(OUTLINED)
    [d] = definition(snap, at(OUTLINED, "%factor : f32)", 2))
    assert d.start == at(OUTLINED, "%factor: f32) {")


def test_kernel_symbol_navigation_both_ways() -> None:
    snap = snapshot(OUTLINED)
    [d] = definition(snap, at(OUTLINED, "@scale blocks", 2))
    assert OUTLINED[d.start : d.end] == "@scale" and d.start == at(OUTLINED, "@scale(")
    [m] = definition(snap, at(OUTLINED, "@kernels::@scale", 2))
    assert m.start == at(OUTLINED, "@kernels {")
    # From the kernel to its launches.
    launches = references(snap, at(OUTLINED, "@scale(", 2), include_declaration=False)
    assert [r.start for r in launches] == [at(OUTLINED, "@scale blocks")]
    # The op name of a launch jumps to its kernel too.
    [k] = definition(snap, at(OUTLINED, "gpu.launch_func", 3))
    assert k.start == at(OUTLINED, "@scale(")


def test_alias_navigation() -> None:
    text = OUTLINED.replace("memref.load %buf[%i] : memref<16xf32>", "memref.load %buf[%i] : memref<16xf32, #map>", 1)
    text = text.replace("%buf: memref<16xf32>, %factor: f32) kernel", "%buf: memref<16xf32, #map>, %factor: f32) kernel")
    snap = snapshot(text)
    use = at(text, "#map>", 1)
    [d] = definition(snap, use)
    assert d.start == at(text, "#map =")
    assert len(references(snap, use)) == 3


def test_blocks_and_successors() -> None:
    snap = snapshot(INLINE)
    [d] = definition(snap, at(INLINE, "^bb1(%x", 2))
    assert d.start == at(INLINE, "^bb1(%y")
    assert _texts(INLINE, references(snap, at(INLINE, "^bb2", 1))) == ["^bb2", "^bb2"]


def test_highlights_mark_definitions_as_writes() -> None:
    snap = snapshot(INLINE)
    marks = highlights(snap, at(INLINE, "%c1 = arith", 1))
    assert [h.write for h in marks] == [True, False, False, False, False, False]


def test_launch_region_arguments() -> None:
    snap = snapshot(INLINE)
    [d] = definition(snap, at(INLINE, "%tx] : memref", 1))
    assert d.start == at(INLINE, "%tx, %ty")


def test_navigation_survives_errors_elsewhere() -> None:
    broken = OUTLINED.replace("%c16 = arith.constant 16 : index", "%c16 = arith.constant 16 : index\n    %oops = gpu.launch_func async [%\n")
    snap = snapshot(broken)
    assert snap.diagnostics, "the broken line is reported"
    [d] = definition(snap, at(broken, "%t5] %dev", 2))
    assert d.start == at(broken, "%t5 = gpu.memcpy")
    [k] = definition(snap, at(broken, "@scale blocks", 2))
    assert k.start == at(broken, "@scale(")


def test_nothing_under_the_cursor() -> None:
    snap = snapshot(OUTLINED)
    assert definition(snap, 0) == []
    assert references(snap, 0) == []
    assert highlights(snap, at(OUTLINED, "arith.constant", 2)) == []


# --- rename ---------------------------------------------------------------------------------------


def _rename(text: str, offset: int, new: str) -> str:
    snap = snapshot(text)
    return apply_edits(text, rename(snap, offset, new))


def test_rename_value_everywhere_it_is_written() -> None:
    out = _rename(OUTLINED, at(OUTLINED, "%t2 = gpu", 1), "copied")
    assert "%copied = gpu.memcpy" in out and "async [%copied, %t3]" in out and "%t2" not in out
    assert [d.code for d in snapshot(out).diagnostics] == [d.code for d in snapshot(OUTLINED).diagnostics]


def test_rename_multi_result_group_keeps_the_index() -> None:
    text = "func.func @f() {\n  %a:2 = \"test.op\"() : () -> (i32, i32)\n  \"test.use\"(%a#1, %a#0) : (i32, i32) -> ()\n  return\n}\n"
    out = _rename(text, at(text, "%a#1", 1), "pair")
    assert "%pair:2 =" in out and "(%pair#1, %pair#0)" in out


def test_rename_symbol_renames_definition_and_nested_uses() -> None:
    out = _rename(OUTLINED, at(OUTLINED, "@scale blocks", 2), "scale2")
    assert "gpu.func @scale2(" in out and "@kernels::@scale2 blocks" in out
    out = _rename(OUTLINED, at(OUTLINED, "@kernels {", 2), "device")
    assert "gpu.module @device {" in out and "@device::@scale" in out


def test_rename_symbol_quotes_names_that_need_it() -> None:
    out = _rename(OUTLINED, at(OUTLINED, "@scale(", 2), "my kernel")
    assert 'gpu.func @"my kernel"(' in out and '@kernels::@"my kernel"' in out


def test_rename_block_and_alias() -> None:
    out = _rename(INLINE, at(INLINE, "^bb2:", 1), "exit")
    assert "^exit:" in out and ", ^exit\n" in out
    text = OUTLINED.replace("%buf: memref<16xf32>, %factor", "%buf: memref<16xf32, #map>, %factor")
    out = _rename(text, at(text, "#map =", 1), "identity")
    assert "#identity = affine_map" in out and "memref<16xf32, #identity>" in out


def test_rename_refuses_clashes_and_bad_names() -> None:
    snap = snapshot(OUTLINED)
    with pytest.raises(RenameError, match="already defined"):
        rename(snap, at(OUTLINED, "%t2 = gpu", 1), "t3")
    with pytest.raises(RenameError, match="not a valid"):
        rename(snap, at(OUTLINED, "%t2 = gpu", 1), "a b")
    with pytest.raises(RenameError, match="already defined"):
        rename(snap, at(OUTLINED, "@main", 1), "kernels")
    with pytest.raises(RenameError, match="nothing to rename"):
        rename(snap, at(OUTLINED, "arith.constant", 2), "x")


def test_prepare_rename_gives_the_name_without_its_sigil() -> None:
    snap = snapshot(OUTLINED)
    rng, placeholder = prepare_rename(snap, at(OUTLINED, "%dev, %t1", 2))
    assert placeholder == "dev" and OUTLINED[rng.start : rng.end] == "dev"
    rng, placeholder = prepare_rename(snap, at(OUTLINED, "@kernels::@scale", 12))
    assert placeholder == "scale" and OUTLINED[rng.start : rng.end] == "scale"
    with pytest.raises(RenameError):
        prepare_rename(snap, 0)
