"""Document symbols (hierarchy, split chunks, launches) and workspace symbols."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, at, snapshot

from gpu_lsp.lsp.document_symbols import document_symbols, workspace_symbols


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
