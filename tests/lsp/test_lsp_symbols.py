"""Document symbols (hierarchy, split chunks, launches) and workspace symbols."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, at, snapshot

from gpu_lsp.lsp.document_symbols import document_symbols, workspace_symbols
from gpu_lsp.lsp.hints import signature_help


def _tree(nodes) -> list:
    return [(n.name, n.kind, _tree(n.children)) if n.children else (n.name, n.kind) for n in nodes]


def test_outline_of_a_module() -> None:
    snap = snapshot(OUTLINED)
    assert _tree(document_symbols(snap)) == [
        (
            "module",
            "Module",
            [
                ("kernels", "Module", [("scale", "Function")]),
                ("main", "Function", [("gpu.launch_func @kernels::@scale", "Event")]),
            ],
        )
    ]
    kernel = document_symbols(snap)[0].children[0].children[0]
    assert kernel.detail == "gpu.func kernel (memref<16xf32>, f32)"
    assert OUTLINED[kernel.selection.start : kernel.selection.end] == "@scale"
    assert kernel.range.start == at(OUTLINED, "gpu.func")


def test_split_chunks_are_namespaces() -> None:
    snap = snapshot(INLINE)
    assert _tree(document_symbols(snap)) == [
        ("<file-split-0>", "Namespace", [("inline", "Function", [("gpu.launch", "Event")])]),
        ("<file-split-1>", "Namespace", [("branches", "Function")]),
    ]


def test_outline_keeps_what_parsed_in_a_broken_file() -> None:
    broken = OUTLINED.replace("gpu.return\n", "gpu.return\n      %x = \n")
    names = [n.name for n in document_symbols(snapshot(broken))[0].children]
    assert names == ["kernels", "main"]


def test_workspace_symbols_match_subsequences_across_documents() -> None:
    a = snapshot(OUTLINED, "file:///a.mlir")
    b = snapshot(INLINE, "file:///b.mlir")
    found = [(s.name, s.uri, s.container) for s in workspace_symbols([a, b], "scl")]
    assert found == [("scale", "file:///a.mlir", "kernels")]
    every = {s.name for s in workspace_symbols([a, b], "")}
    assert every == {"module", "kernels", "scale", "main", "inline", "branches"}


def test_the_views_of_the_whole_document_build_no_unit_index() -> None:
    """The outline, the folding ranges, the code lenses and the inlay hints of a leaf unit come
    from its IR (what they keep per unit is kept beside the unit, not in its occurrence index);
    an index is built for what needs occurrences only (hover, references, semantic tokens)."""
    from gpu_lsp.lsp.actions import code_lenses
    from gpu_lsp.lsp.folding import folding_ranges
    from gpu_lsp.lsp.hints import inlay_hints
    from gpu_lsp.lsp.index import document_index

    snap = snapshot(OUTLINED)
    assert document_symbols(snap) and folding_ranges(snap) and code_lenses(snap)
    inlay_hints(snap, 0, len(OUTLINED))
    leaves = [unit for unit in document_index(snap).units if not unit.holds_units]
    assert [unit.op.name for unit in leaves] == ["gpu.func", "func.func"]  # a module's ops are units of their own
    assert all(unit.cell[0] is None for unit in leaves), "a leaf unit's index was built"
    assert leaves[0].index.children == [] and not leaves[0].holds_units


def test_a_unit_index_keeps_no_version_of_the_text() -> None:
    """A unit's index is shared by the versions where the unit is unchanged; the text it was built
    from is not kept with it (each edit would otherwise keep one more whole text alive, ~4 MB at
    100k lines, for every version some unit is first indexed at)."""
    from support.typing import generated

    from gpu_lsp.lsp.documents import Document
    from gpu_lsp.lsp.index import document_index

    text = generated("inline", 2000)
    doc = Document("file:///versions.mlir", text, 1)
    first = doc.analysed()
    indexed = next(u for u in document_index(first).units if u.op.name == "func.func")
    assert indexed.index.occurrences  # indexed at the first version
    line = text.count("\n", 0, text.rindex("func.func"))
    doc.apply([((line, 0, line, 0), "// an edit before the last function\n")], 2)
    second = doc.analysed()
    assert second.text is not first.text
    units = document_index(second).units
    shared = next(u for u in units if u.op is indexed.op)
    assert shared.cell is indexed.cell, "the unchanged unit's index is shared"
    assert all(u.cell[1] is None or u.cell[1] is second.text for u in units), "a cell keeps the first version's text"


def test_a_function_type_that_is_no_function_type_gives_an_outline() -> None:
    """A generic `func.func` may say anything for its `function_type` (upstream's verifier rejects
    it, GPU141): the outline and a call's signature help still answer (both raised before)."""
    text = (
        '"func.func"() <{function_type = f32, sym_name = "g"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n'
        "func.func @caller() {\n  func.call @g() : () -> ()\n  return\n}\n"
    )
    snap = snapshot(text)
    assert [d.code for d in snap.diagnostics] == ["GPU141"]
    assert [(n.name, n.detail) for n in document_symbols(snap)] == [("g", "func.func ()"), ("caller", "func.func ()")]
    help_ = signature_help(snap, at(text, "@g()", 3))
    assert help_ is not None and help_.label == "@g()"
