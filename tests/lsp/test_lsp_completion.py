"""Completion: ops with snippets, values in scope, tokens in dependency lists, symbols, keywords, types."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, at, snapshot

from gpu_lsp.lsp.completion import complete, values_in_scope

HOST_TAIL = "    gpu.wait [%t6]\n"


def _at_new_line(text: str, after: str, typed: str) -> tuple[str, int]:
    """`text` with a new line `typed` inserted after the line containing `after`; the cursor ends it."""
    pos = text.index("\n", text.index(after)) + 1
    new = text[:pos] + typed + "\n" + text[pos:]
    return new, pos + len(typed)


def _labels(entries) -> list[str]:
    return [e.label for e in entries]


def test_values_in_scope_respect_dominance_and_isolation() -> None:
    snap = snapshot(OUTLINED)
    names = [v.name for v in values_in_scope(snap, at(OUTLINED, "%t3 = gpu.wait"))]
    assert names[:3] == ["t2", "dev", "t1"]
    assert "t3" not in names and "host" in names and "factor" in names
    assert "buf" not in names  # the kernel's arguments are not visible from the host function
    inner = [v.name for v in values_in_scope(snapshot(INLINE), at(INLINE, "memref.store %v"))]
    assert {"v", "tx", "bx", "c1", "t0", "a"} <= set(inner)


def test_value_completion_replaces_the_typed_prefix() -> None:
    text, cursor = _at_new_line(OUTLINED, "%t5 = gpu.memcpy", "    %x = arith.addf %fa")
    entries = complete(snapshot(text), cursor)
    factor = next(e for e in entries if e.label == "%factor")
    assert factor.detail == "f32" and factor.kind == "Variable"
    assert text[factor.replace.start : factor.replace.end] == "%fa"


def test_tokens_inside_a_dependency_list() -> None:
    text, cursor = _at_new_line(OUTLINED, "%t6 = gpu.dealloc", "    %t7 = gpu.wait async [%t6, %")
    entries = complete(snapshot(text), cursor)
    labels = _labels(entries)
    assert all(e.kind == "Event" for e in entries)
    assert "%t6" not in labels  # already in the list
    assert "%dev" not in labels and "%c1" not in labels
    assert set(labels) >= {"%t5", "%t4", "%t0"}


def test_kernel_symbols_after_launch_func() -> None:
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    gpu.launch_func @")
    entries = complete(snapshot(text), cursor)
    assert _labels(entries) == ["@kernels::@scale"]
    assert "gpu.func @scale(" in entries[0].detail


def test_op_names_and_launch_snippets() -> None:
    text, cursor = _at_new_line(OUTLINED, "%t5 = gpu.memcpy", "    %t9 = gpu.")
    entries = complete(snapshot(text), cursor)
    labels = _labels(entries)
    assert "gpu.launch_func" in labels and "gpu.wait" in labels and "gpu.alloc" in labels
    wait = next(e for e in entries if e.label == "gpu.wait")
    assert wait.detail and "gpu.wait" in wait.documentation
    launch = next(e for e in entries if e.label == "gpu.launch_func @kernels::@scale")
    # The result is named, so the snippet is async on the newest unconsumed token; the kernel's
    # arguments are filled from values in scope with the right types.
    assert launch.snippet.startswith("gpu.launch_func async [${1:%t5}] @kernels::@scale blocks in (${2:%c1}")
    assert "args(${8:%dev} : memref<16xf32>, ${9:%factor} : f32)" in launch.snippet
    assert launch.insert_text.endswith("args(%dev : memref<16xf32>, %factor : f32)")
    inline = next(e for e in entries if e.label.startswith("gpu.launch blocks"))
    assert "gpu.terminator" in inline.snippet and "threads(%tx, %ty, %tz)" in inline.snippet


def test_no_snippets_for_clients_without_them() -> None:
    text, cursor = _at_new_line(OUTLINED, "%t5 = gpu.memcpy", "    gpu.")
    entries = complete(snapshot(text), cursor, snippets=False)
    assert all(e.snippet is None for e in entries)
    launch = next(e for e in entries if e.label == "gpu.launch_func @kernels::@scale")
    assert launch.insert_text.startswith("gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)")


def test_keywords_of_the_op_being_written() -> None:
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    %t = gpu.launch_func async [%t0] @kernels::@scale bl")
    labels = _labels(complete(snapshot(text), cursor))
    assert {"blocks", "threads", "args", "dynamic_shared_memory_size"} <= set(labels)


def test_types_after_a_colon() -> None:
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    %z = arith.constant 0 : i")
    labels = _labels(complete(snapshot(text), cursor))
    assert {"index", "i32", "f32", "memref", "!gpu.async.token", "memref<16xf32>"} <= set(labels)


def test_blocks_and_attributes() -> None:
    text, cursor = _at_new_line(INLINE, "^bb2:", "  cf.br ^")
    labels = _labels(complete(snapshot(text), cursor))
    assert labels == ["^bb1", "^bb2"]
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    %w = memref.alloc() : memref<4xf32, #")
    labels = _labels(complete(snapshot(text), cursor))
    assert "#gpu.address_space<workgroup>" in labels and "#map" in labels


def test_nothing_in_comments() -> None:
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    // %")
    assert complete(snapshot(text), cursor) == []


def test_attribute_values_in_a_dictionary() -> None:
    text, cursor = _at_new_line(OUTLINED, "%c16 = arith", "    %k = arith.constant {flag = t")
    labels = _labels(complete(snapshot(text), cursor))
    assert {"true", "false", "unit", "dense<>"} <= set(labels) and "#map" in labels


def test_type_and_attribute_aliases_defined_above_are_offered() -> None:
    head = "!vec = vector<4xf32>\n#map = affine_map<(d0) -> (d0)>\n"
    text = head + "func.func @f(%a: !v"
    type_entries = [e for e in complete(snapshot(text), len(text)) if e.label == "!vec"]
    assert [(e.kind, e.detail) for e in type_entries] == [("TypeParameter", "alias: vector<4xf32>")]
    text = head + "func.func @f() attributes {m = #ma"
    attr_entries = [e for e in complete(snapshot(text), len(text)) if e.label == "#map"]
    assert [(e.kind, e.detail) for e in attr_entries] == [("Constant", "alias: affine_map<(d0) -> (d0)>")]
