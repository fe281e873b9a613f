"""A file that is one written module around indented ops (every outlined file, what mlir-opt
prints): its body is cut into segments, parsed once, and re-parsed a segment at a time."""

from __future__ import annotations

import random

import pytest
from support.corpus import all_corpus_files
from support.irdump import dump_file
from support.mutate import mutate
from support.reflow import reflow
from support.typing import PASTED, generated, typing_edits

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.parser.api import ParsedFile, parse
from gpu_lsp.parser.incremental import Progressive, parse_units, reparse_units
from gpu_lsp.parser.module_shell import find_body
from gpu_lsp.text import TextRange


def _facts(parsed: ParsedFile) -> tuple:
    """The IR, the diagnostics, the comments and whether each chunk's module is written."""
    return (
        dump_file(parsed),
        [(d.code, d.message, d.range, d.related, d.severity) for d in parsed.diagnostics],
        [[(c.text, c.range) for c in chunk.comments] for chunk in parsed.chunks],
        [chunk.implicit_module for chunk in parsed.chunks],
    )


def _ops(parsed: ParsedFile) -> int:
    return sum(1 for chunk in parsed.chunks for _ in chunk.module.walk())


def test_the_body_of_an_outlined_file_is_cut_into_segments() -> None:
    text = generated("outlined", 400)
    parsed = parse_units(text)
    layout = parsed.layout[0]
    assert layout is not None, "the chunk's segments are kept for the edits"
    assert not parsed.chunks[0].implicit_module, "the written module is the chunk's module"
    units = parsed.chunks[0].top_level[0].regions[0].blocks[0].operations
    assert sum(1 for seg in layout if seg.ops) == len(units) >= 10, "a segment per op of the module's body"
    assert _facts(parsed) == _facts(parse(text))


def test_each_op_of_an_outlined_file_is_built_once() -> None:
    """The open's parse (`Progressive`) built the module's ops a segment at a time and then all of
    them again at its end (twice: the units, then the chunk), `parse_units` twice: the ops of the
    result are those its segments built (told by identity: the compiled build's methods cannot be
    counted by patching them)."""
    text = generated("outlined", 400)
    progress = Progressive(text)
    parsed = progress.result()
    body = parsed.chunks[0].module.regions[0].blocks[0].operations
    assert body and [id(op) for op in body] == [id(op) for seg in progress.segments_of for op in seg.ops]
    assert _facts(parsed) == _facts(parse(text))
    parsed = parse_units(text)
    body = parsed.chunks[0].module.regions[0].blocks[0].operations
    assert [id(op) for op in body] == [id(op) for seg in parsed.layout[0] or () for op in seg.ops]


@pytest.mark.parametrize("text", [
    "module {\n  func.func @f() {\n    return\n  }\n}\n",
    "// head\n#map = affine_map<(d0) -> (d0)>\nmodule @m attributes {gpu.container_module} {\n  // first\n"
    "  func.func @f() {\n    return\n  }\n\n  func.func @g() {\n    return\n  }\n}\n// tail\n",
    "builtin.module {\n\tfunc.func @f() {\n\t  return\n\t}\n}",
    # `#a = 1` lexed in a segment of the body alone would define an alias: in the module it does not
    "module {\n  func.fun#a = 1\nc @f() {\n    return\n  }\n}\n",
])
def test_a_written_module_and_what_is_around_it_parse_as_the_whole(text: str) -> None:
    assert find_body(text, text.index("module") - (8 if text.startswith("builtin") else 0), len(text), op_names()) is not None
    assert _facts(parse_units(text)) == _facts(parse(text))
    assert _facts(Progressive(text).result()) == _facts(parse(text))


@pytest.mark.parametrize("text", [
    "module {\nfunc.func @f() {\n  return\n}\n}\n",  # unindented body
    "module { func.func @f() {\n    return\n  }\n}\n",  # an op on the module's line
    "module {\n  func.func @f() {\n    return\n  }\n} loc(unknown)\n",  # something after its brace
    "module {\n  func.func @f() {\n    return\n  }\n}\nfunc.func @g() {\n  return\n}\n",  # an op after it
    "module {\n  func.func @f() {\n    return\n  }\n}\n#a = affine_map<(d0) -> (d0)>\n",  # an alias after it
])
def test_what_is_not_one_module_around_indented_ops_is_parsed_as_before(text: str) -> None:
    parsed = parse_units(text)
    assert not any(seg.indent for seg in parsed.layout[0] or ())
    assert _facts(parsed) == _facts(parse(text))
    at = text.index("return")
    edited = text[:at] + "@" + text[at:]
    assert _facts(reparse_units(parsed, edited, TextRange(at, at))) == _facts(parse_units(edited))


def test_every_corpus_file_parses_as_the_whole() -> None:
    files = [path for path in all_corpus_files() if "module" in path.read_text()]
    assert len(files) > 100
    for path in files:
        text = path.read_text()
        for split in (False, True):
            whole = _facts(parse(text, split))
            assert _facts(parse_units(text, split)) == whole, (path.name, split)
            assert _facts(Progressive(text, split).result()) == whole, (path.name, split)


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_edits_inside_an_outlined_file_equal_a_fresh_parse(seed: int) -> None:
    """Typing in the body re-parses its segments; breaking the module (a function pasted before
    it, then removed) goes to the whole chunk's parse and back."""
    text = generated("outlined", 400)
    rng = random.Random(seed)
    parsed = parse_units(text)
    kept = 0
    for start, end, new in typing_edits(text, rng, 40):
        before = parsed.chunks[0].module
        text = text[:start] + new + text[end:]
        parsed = reparse_units(parsed, text, TextRange(start, end))
        fresh = parse_units(text)
        assert _facts(parsed) == _facts(fresh), (start, end, new)
        if not any(d.severity >= Severity.ERROR for d in fresh.diagnostics):
            assert _facts(fresh) == _facts(parse(text))
        kept += parsed.chunks[0].module is before
    assert kept > 10, "most edits re-parse a segment of the body"


def test_an_edit_before_a_module_moves_the_ops_of_its_body() -> None:
    """A module in the segments of a chunk's top level: its ops have anchors of their own, which
    an edit before it moves (the segment moved the module's only)."""
    text = "func.func @f() {\n  return\n}\nmodule {\n  func.func @g() {\n    return\n  }\n}\nfunc.func @h() {\n  return\n}\n"
    parsed = parse_units(text)
    assert parsed.layout[0] is not None
    for pos, new in ((text.index("return"), "@"), (0, PASTED)):
        text = text[:pos] + new + text[pos:]
        parsed = reparse_units(parsed, text, TextRange(pos, pos))
        assert _facts(parsed) == _facts(parse_units(text))


def _edit_between(old: str, new: str) -> tuple[int, int]:
    """The range of `old` that `new` replaces (their common prefix and suffix left out)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    return start, len(old) - end


def test_mutated_corpus_modules_reparse_as_they_parse() -> None:
    """Corpus chunks that are one written module around indented ops, mutated a few times over
    (values, types, async, lines deleted and duplicated): each edit re-parsed equals a fresh parse."""
    rng = random.Random(19)
    chunks = []
    for path in all_corpus_files():
        for piece in path.read_text().split("// -----"):
            if "module" in piece and any(seg.indent for seg in parse_units(piece).layout[0] or ()):
                chunks.append(piece)
    assert len(chunks) > 60
    edits = 0
    for text in rng.sample(chunks, 60):
        parsed = parse_units(text)
        assert any(seg.indent for seg in parsed.layout[0] or ()), "cut at the module's body"
        for _ in range(4):
            mutant = mutate(text, rng)
            if mutant is None:
                continue
            new_text = mutant[0]
            start, end = _edit_between(text, new_text)
            parsed = reparse_units(parsed, new_text, TextRange(start, end))
            text = new_text
            assert _facts(parsed) == _facts(parse_units(text)), (mutant[1], text[:200])
            edits += 1
    assert edits > 100


_SHAPES = [
    "module attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f() kernel {\n      gpu.return\n    }\n  }\n"
    "  func.func @h() {\n    return\n  }\n}\n",
    "// é ü\nmodule {\r\n  // ünïcode\r\n  func.func @f() {\r\n    return\r\n  }\r\n}\r\n// end\n",
    "module attributes {\n  gpu.container_module,\n  foo = 1\n} {\n  %0 = arith.constant 1 : index\n  func.func @f() {\n    return\n  }\n}",
]
_NOISE = ["{", "}", "(", ")", "\n", " ", "\t", "@", "%", '"', "module", "//", "#a = 1\n", "\r\n", "é"]


@pytest.mark.parametrize("shape", range(len(_SHAPES)))
def test_corrupted_module_files_parse_and_reparse(shape: int) -> None:
    """Characters inserted and deleted anywhere in a module-wrapped file (its head and tail too):
    never an exception, the whole's parse where nothing is broken, a fresh parse after the edit."""
    rng = random.Random(shape)
    original = _SHAPES[shape]
    for _ in range(150):
        text = original
        for _ in range(rng.randrange(1, 4)):
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + rng.choice(_NOISE) + text[pos:] if rng.random() < 0.5 else text[:pos] + text[pos + rng.randrange(1, 4) :]
        fresh = parse_units(text)
        assert _facts(Progressive(text).result()) == _facts(fresh)
        whole = parse(text)
        if not any(d.severity >= Severity.ERROR for d in whole.diagnostics):
            assert _facts(fresh) == _facts(whole), repr(text)
        start, end = _edit_between(original, text)
        assert _facts(reparse_units(parse_units(original), text, TextRange(start, end))) == _facts(fresh), repr(text)


def test_reflowed_corpus_modules_parse_and_reparse_as_a_fresh_parse() -> None:
    """Corpus chunks with a module, their line breaks and indentation moved (`reflow`: the ops of a
    body at several indentations, headers over lines), then mutated as an edit."""
    rng = random.Random(7)
    shells = 0
    for path in all_corpus_files():
        for piece in path.read_text().split("// -----"):
            if "module" not in piece:
                continue
            text = reflow(piece, rng, rng.choice((0.05, 0.2, 0.6)))
            parsed = parse_units(text)
            shells += any(seg.indent for seg in parsed.layout[0] or ())
            whole = parse(text)
            if not any(d.severity >= Severity.ERROR for d in whole.diagnostics):
                assert _facts(parsed) == _facts(whole), path.name
            assert _facts(Progressive(text).result()) == _facts(parsed), path.name
            mutant = mutate(text, rng)
            if mutant is not None:
                start, end = _edit_between(text, mutant[0])
                assert _facts(reparse_units(parsed, mutant[0], TextRange(start, end))) == _facts(parse_units(mutant[0])), (path.name, mutant[1])
    assert shells > 30, "reflowed modules still cut at their bodies"


@pytest.mark.parametrize(
    "column, new, kept",
    [
        (0, "".join("  " + line if line.strip() else line for line in PASTED.splitlines(keepends=True)), True),
        (2, "x ", False),  # the line no longer starts an op: it joins the segment before
    ],
)
def test_an_edit_on_the_first_line_of_a_segment_reparses_the_one_before_only_when_it_joins_it(column: int, new: str, kept: bool) -> None:
    """A function pasted before the first host function of an outlined file keeps its `gpu.module` (built once)."""
    text = generated("outlined", 400)
    parsed = parse_units(text)
    kernels = parsed.chunks[0].module.regions[0].blocks[0].operations[0]
    assert kernels.name == "gpu.module"
    pos = text.index("\n  func.func @") + 1 + column
    text = text[:pos] + new + text[pos:]
    parsed = reparse_units(parsed, text, TextRange(pos, pos))
    assert _facts(parsed) == _facts(parse_units(text))
    assert (parsed.chunks[0].module.regions[0].blocks[0].operations[0] is kernels) is kept


def test_a_reparse_says_how_much_of_the_previous_text_it_parsed_anew() -> None:
    """What the heap policy counts: a host function's segment, a kernel's (its `gpu.module` read a
    kernel at a time), the whole `gpu.module` for its own line, the chunk for its head."""
    text = generated("outlined", 400)
    parsed = parse_units(text)
    kernels = parsed.chunks[0].module.regions[0].blocks[0].operations[0]
    kernels_length = kernels.range.end - kernels.range.start
    host = text.index("gpu.memcpy async", len(text) // 2)
    kernel = text.index("gpu.thread_id x")
    module = text.index("gpu.module @") + len("gpu.module @")
    head = text.index("{gpu.container_module}") + 1
    edits = (
        (host, host, "@", 100, 2_000),
        (kernel, kernel, "@", 100, 2_000),
        (module, module, "x", kernels_length, len(text) // 2 + 2_000),
        (head, head, " ", len(text) - 100, len(text)),
    )
    for start, end, new, at_least, at_most in edits:
        old = text[start:end]
        text = text[:start] + new + text[end:]
        parsed = reparse_units(parsed, text, TextRange(start, end))
        assert at_least <= parsed.replaced <= at_most, (start, parsed.replaced)
        text = text[:start] + old + text[start + len(new) :]
        parsed = reparse_units(parsed, text, TextRange(start, start + len(new)))
