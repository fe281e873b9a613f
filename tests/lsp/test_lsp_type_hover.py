"""Hover on types and attributes as written (issue 26: `memref<?xf32>` answered nothing)."""

from __future__ import annotations

import pytest

from gpu_lsp.lsp.type_hover import type_hover

TEXT = (
    "func.func @f(%a: memref<?xf32>, %n: index) -> i32 {\n"
    "  %t = gpu.wait async\n"
    "  %s = memref.alloc() : memref<4x?xf32, #gpu.address_space<workgroup>>\n"
    "  %g = gpu.wait async [%t] : !gpu.async.token\n"
    "}\n"
)


@pytest.mark.parametrize(
    "at, spelled, says",
    [
        ("memref<?xf32>", "memref<?xf32>", "A memref (a buffer view) of `f32`: shape `?` (rank 1, 1 dynamic), identity layout"),
        ("f32>, %n", "memref<?xf32>", "of `f32`"),
        ("index)", "index", "pointer-sized integer"),
        ("i32 {", "i32", "A 32-bit signless integer."),
        ("4x?", "memref<4x?xf32, #gpu.address_space<workgroup>>", "shape `4x?` (rank 2, 1 dynamic)"),
        ("workgroup", "#gpu.address_space<workgroup>", "A GPU memory space"),
        ("!gpu.async", "!gpu.async.token", "A token for asynchronous GPU work"),
    ],
)
def test_hover_on_a_type_or_attribute(at: str, spelled: str, says: str) -> None:
    found = type_hover(TEXT, TEXT.find(at) + 1)
    assert found is not None
    markdown, where = found
    assert TEXT[where.start : where.end] == spelled
    assert markdown.startswith(f"```mlir\n{spelled}\n```\n\n") and says in markdown


def test_no_hover_outside_types() -> None:
    assert type_hover(TEXT, TEXT.find("gpu.wait")) is None
    assert type_hover(TEXT, TEXT.find("@f")) is None


def test_the_hover_request_answers_on_a_type() -> None:
    from lsp_samples import snapshot

    from gpu_lsp.lsp.hover import hover

    result = hover(snapshot(TEXT), TEXT.find("memref<?xf32>") + 3)
    assert result is not None and result.markdown.startswith("```mlir\nmemref<?xf32>\n```")
