"""Semantic tokens, folding ranges, selection ranges, inlay hints and signature help."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, at, lsp_inlay_hint, snapshot

from gpu_lsp.lsp.folding import folding_ranges, selection_ranges
from gpu_lsp.lsp.hints import inlay_hints, signature_help
from gpu_lsp.lsp.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES, semantic_tokens


def _decode(text: str, data: list[int]) -> list[tuple[str, str, set[str]]]:
    """(token text, type, modifiers) from LSP's relative encoding (ASCII text)."""
    lines = text.split("\n")
    out = []
    line = char = 0
    for i in range(0, len(data), 5):
        dl, dc, length, ty, mods = data[i : i + 5]
        line += dl
        char = dc if dl else char + dc
        names = {m for b, m in enumerate(TOKEN_MODIFIERS) if mods & (1 << b)}
        out.append((lines[line][char : char + length], TOKEN_TYPES[ty], names))
    return out


def test_semantic_tokens_classify_every_kind_of_name() -> None:
    snap = snapshot(OUTLINED)
    tokens = _decode(OUTLINED, semantic_tokens(snap))
    found = {(t, ty) for t, ty, _ in tokens}
    assert ("// A host function launching an outlined kernel.", "comment") in found
    assert ("gpu.launch_func", "macro") in found
    assert ("@kernels", "namespace") in found and ("@scale", "function") in found
    assert ("%dev", "variable") in found and ("%host", "parameter") in found
    assert ("memref<16xf32>", "type") in found
    assert ("async", "keyword") in found and ("16", "number") in found
    assert ("gpu.container_module", "property") in found
    mods = {t: m for t, ty, m in tokens if ty in ("variable", "parameter")}
    assert "async" in mods["%t4"] and "async" not in mods["%dev"]
    defs = [m for t, ty, m in tokens if t == "%t4"]
    assert "declaration" in defs[0] and "declaration" not in defs[1]
    # Tokens come in document order and never overlap.
    positions = []
    line = char = 0
    data = semantic_tokens(snap)
    for i in range(0, len(data), 5):
        line += data[i]
        char = data[i + 1] if data[i] else char + data[i + 1]
        positions.append((line, char))
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


def test_semantic_tokens_for_a_range_are_a_subset() -> None:
    snap = snapshot(OUTLINED)
    start = at(OUTLINED, "%t3 = gpu.wait")
    part = _decode(OUTLINED, semantic_tokens(snap, start, start + 5))
    assert [t for t, _, _ in part][:3] == ["%t3", "gpu.wait", "async"]
    assert all(t in OUTLINED.split("\n")[19] for t, _, _ in part)


def test_semantic_tokens_of_split_files_and_labels() -> None:
    tokens = _decode(INLINE, semantic_tokens(snapshot(INLINE)))
    assert ("// -----", "comment", set()) in tokens
    assert ("^bb1", "label", {"declaration"}) in tokens and ("^bb2", "label", set()) in tokens


def test_folding_ranges() -> None:
    folds = {(f.start_line, f.end_line, f.kind) for f in folding_ranges(snapshot(OUTLINED))}
    assert (2, 25, None) in folds  # module body, up to the line before its `}`
    assert (3, 10, None) in folds and (4, 9, None) in folds  # gpu.module, gpu.func
    assert (13, 24, None) in folds  # func.func
    inline = {(f.start_line, f.end_line, f.kind) for f in folding_ranges(snapshot(INLINE))}
    assert (0, 11, "region") in inline and (12, 20, "region") in inline  # split chunks
    assert (3, 6, None) in inline  # the launch body


def test_multi_line_ops_and_comment_blocks_fold() -> None:
    text = "// one\n// two\nfunc.func @f(%a: index,\n             %b: index) {\n  return\n}\n"
    folds = {(f.start_line, f.end_line, f.kind) for f in folding_ranges(snapshot(text))}
    assert (0, 1, "comment") in folds


def test_selection_ranges_grow_outwards() -> None:
    snap = snapshot(OUTLINED)
    chain = selection_ranges(snap, at(OUTLINED, "%t2, %t3]", 2))
    texts = [OUTLINED[r.start : r.end] for r in chain]
    assert texts[0] == "%t2"
    assert texts[1].strip().startswith("%t4 = gpu.launch_func")
    assert any(t.startswith("func.func @main") for t in texts)
    assert texts[-1] == OUTLINED
    for inner, outer in zip(chain, chain[1:]):
        assert outer.start <= inner.start and inner.end <= outer.end and inner != outer


def test_inlay_hints_name_kernel_parameters_and_token_types() -> None:
    snap = snapshot(OUTLINED)
    hints = inlay_hints(snap, 0, len(OUTLINED))
    params = [(h.label, OUTLINED[h.offset : h.offset + 4]) for h in hints if h.kind == "Parameter"]
    assert params == [("buf:", "%dev"), ("factor:", "%fac")]
    types = [OUTLINED[h.offset - 3 : h.offset] for h in hints if h.kind == "Type"]
    assert types == ["%t0", "%t1", "%t2", "%t3", "%t4", "%t5", "%t6"]
    line = at(OUTLINED, "%t3 = gpu.wait")
    assert [h.label for h in inlay_hints(snap, line, line + 10)] == [": !gpu.async.token"]


def test_signature_help_inside_launch_func_args() -> None:
    prefix = OUTLINED[: at(OUTLINED, "%factor : f32)", 0)]
    text = prefix + "\n" + OUTLINED[len(prefix) :]
    sig = signature_help(snapshot(text), len(prefix))
    assert sig is not None
    assert sig.label == "@kernels::@scale args(%buf: memref<16xf32>, %factor: f32)"
    assert sig.active == 1
    assert [sig.label[s:e] for s, e in sig.parameters] == ["%buf: memref<16xf32>", "%factor: f32"]
    assert signature_help(snapshot(OUTLINED), at(OUTLINED, "args(", 5)).active == 0
    assert signature_help(snapshot(OUTLINED), at(OUTLINED, "%t5 = gpu")) is None


def test_signature_help_for_calls() -> None:
    text = "func.func @g(%a: i32, %b: f32) {\n  return\n}\nfunc.func @f(%x: i32) {\n  call @g(%x, \n  return\n}\n"
    sig = signature_help(snapshot(text), at(text, "call @g(%x, ", len("call @g(%x, ")))
    assert sig is not None and sig.label == "@g(i32, f32)" and sig.active == 1


def _per_unit_features(snap) -> tuple:
    from gpu_lsp.lsp.actions import code_lenses
    from gpu_lsp.lsp.document_symbols import document_symbols

    lenses = [(lens.range, lens.title, lens.arguments[1:]) for lens in code_lenses(snap)]
    return semantic_tokens(snap), folding_ranges(snap), document_symbols(snap), lenses


def test_features_cached_per_unit_equal_a_fresh_computation_after_edits(monkeypatch) -> None:
    from gpu_lsp.lsp import semantic_tokens as tokens
    from gpu_lsp.lsp.documents import Document

    monkeypatch.setattr(tokens, "FULL_BUDGET_S", float("inf"))  # every token, however loaded the machine

    text = OUTLINED + "\n" + INLINE.split("// -----")[0] + "\n// trailing\n" + INLINE.split("// -----")[0].replace("@inline", "@inline2")
    doc = Document("file:///t.mlir", text, 1)
    _per_unit_features(doc.analysed())
    edits = [
        ("%c16 = arith.constant 16", "%c16 = arith.constant 160"),
        ("gpu.return\n", "gpu.return\n\n\n"),
        ("%t3 = gpu.wait async", "%t3 = gpu.wait async\n    %t9 = gpu.wait async"),
        ("%c1 = arith.constant 1 : index\n  %t0", "%c1 = arith.constant 1 : index\n\n  %t0"),
    ]
    for version, (old, new) in enumerate(edits, start=2):
        start = doc.text.index(old)
        doc.replace(start, start + len(old), new, version)
        cached = _per_unit_features(doc.analysed())
        fresh = _per_unit_features(Document("file:///t.mlir", doc.text, 1).analysed())
        assert cached == fresh, old


def test_an_inlay_hints_json_is_what_lsprotocol_writes() -> None:
    """The server writes each hint's JSON itself (`convert.inlay_hint_json`): the same as
    lsprotocol's converter makes of the hint, for every kind, padding and tooltip."""
    import json
    from itertools import product

    from gpu_lsp.lsp.convert import inlay_hint_json
    from gpu_lsp.lsp.hints import InlayHint

    snap = snapshot(OUTLINED)
    offset = at(OUTLINED, "gpu.func")
    line, character = snap.position(offset)
    for kind, left, right, tooltip, label in product(("Parameter", "Type"), (False, True), (False, True), ("", 'a "tip" é'), ("n:", 'ü "x"')):
        hint = InlayHint(offset, label, kind, left, right, tooltip)
        expected = lsp_inlay_hint(snap, hint)
        at_, text = inlay_hint_json(snap, hint)
        assert at_ == (line, character) and text.isascii()
        assert json.loads(text) == expected
        assert text == json.dumps(expected, separators=(",", ":"))
