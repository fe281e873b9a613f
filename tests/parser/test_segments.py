"""Error-tolerant incremental parsing: segments re-parsed after edits that break and repair the file."""

from __future__ import annotations

import random
import re

import pytest
from support.corpus import all_corpus_files, corpus_files
from support.irdump import dump_file
from support.typing import generated, typing_edits

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse
from gpu_lsp.parser.incremental import _OP_LINE, _net, boundaries, parse_units, reparse_units, segments_of, whole_segments
from gpu_lsp.text import TextRange


def _diagnostics(parsed) -> list:
    return [(d.code, d.message, d.range, d.related) for d in parsed.diagnostics]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_breaking_and_repairing_edits_equal_a_fresh_parse(seed: int) -> None:
    text = generated("inline", 600)
    rng = random.Random(seed)
    parsed = parse_units(text)
    for start, end, new in typing_edits(text, rng, 60):
        text = text[:start] + new + text[end:]
        parsed = reparse_units(parsed, text, TextRange(start, end))
        fresh = parse_units(text)
        assert dump_file(parsed) == dump_file(fresh), f"edit {start}:{end} -> {new!r}"
        assert _diagnostics(parsed) == _diagnostics(fresh)


def test_valid_files_parse_as_the_parser_does() -> None:
    text = generated("outlined", 300) + generated("inline", 300)
    assert dump_file(parse_units(text)) == dump_file(parse(text))
    for path in corpus_files("**/Dialect/GPU/*.mlir")[:30]:
        source = path.read_text()
        clean = parse(source, split=True)
        if not any(d.severity >= Severity.ERROR for d in clean.diagnostics):
            assert dump_file(parse_units(source, split=True)) == dump_file(clean), path.name


def test_unindented_nesting_is_not_split() -> None:
    text = "module {\nfunc.func @f() {\n%c = arith.constant 1 : index\nreturn\n}\nfunc.func @g() {\nreturn\n}\n}\n"
    assert dump_file(parse_units(text)) == dump_file(parse(text))
    assert parse_units(text).layout == [None]


def test_an_unbalanced_brace_damages_one_function() -> None:
    text = generated("inline", 400)
    clean = parse_units(text)
    functions = clean.chunks[0].top_level
    target = functions[1]
    close = text.rindex("}", target.range.start, target.range.end)
    broken_text = text[:close] + text[close + 1 :]
    broken = reparse_units(parse_units(text), broken_text, TextRange(close, close + 1))
    after = broken.chunks[0].top_level
    assert len(after) == len(functions)
    assert all(d.range.end <= functions[2].range.start for d in broken.diagnostics), "only the damaged function"
    assert broken.diagnostics, "the missing brace is reported"
    # The functions below keep their IR (moved by one character).
    assert [op.name for op in after[2:]] == [op.name for op in functions[2:]]
    assert dump_file(broken) == dump_file(parse_units(broken_text))


def test_edit_inside_a_function_keeps_the_other_functions() -> None:
    text = generated("inline", 300)
    parsed = parse_units(text)
    functions = list(parsed.chunks[0].top_level)
    pos = text.index("gpu.thread_id x", functions[4].range.start)
    new_text = text[:pos] + "@" + text[pos:]
    again = reparse_units(parsed, new_text, TextRange(pos, pos))
    kept = again.chunks[0].top_level
    assert [i for i, op in enumerate(kept) if op is not functions[i]] == [4]
    target = kept[4].range
    assert again.diagnostics and all(target.start <= d.range.start < target.end for d in again.diagnostics)


# What a segment's bracket balance and the segment starts are defined as, with regular
# expressions: the parser finds the same with str.find and str.count.
_NOISE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*')


def _net_by_regex(text: str, start: int, end: int) -> tuple[int, int, int]:
    piece = _NOISE.sub("", text[start:end])
    return (piece.count("{") - piece.count("}"), piece.count("(") - piece.count(")"), piece.count("[") - piece.count("]"))


def _boundaries_by_regex(text: str, start: int, end: int) -> list[int]:
    return [start] + [m.start() for m in _OP_LINE.finditer(text, start, end) if m.start() > start]


def test_bracket_balance_and_segment_starts_are_their_regex_definitions() -> None:
    rng = random.Random(8)
    texts = [path.read_text() for path in all_corpus_files()]
    for _ in range(2000):
        text = rng.choice(texts)
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, min(len(text), start + 5000) + 1)
        assert _net(text, start, end) == _net_by_regex(text, start, end), (start, end)
        assert boundaries(text, start, end) == _boundaries_by_regex(text, start, end), (start, end)
    for _ in range(20000):
        text = "".join(rng.choice('"\\/\n{}()[]a %') for _ in range(rng.randrange(30)))
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        assert _net(text, start, end) == _net_by_regex(text, start, end), repr(text)
        assert boundaries(text, start, end) == _boundaries_by_regex(text, start, end), repr(text)


def test_the_whole_texts_segments_are_its_scan_with_new_segments_each_time() -> None:
    """The open scans its text on two threads (its parse, its range workers' cut): the scan is
    shared, the segments are not (a parse fills them)."""
    text = generated("inline", 600)
    expected = [(s.start, s.end, s.net) for s in segments_of(text, boundaries(text, 0, len(text)), len(text))]
    first, second = whole_segments(text), whole_segments(text)
    assert [(s.start, s.end, s.net) for s in first] == [(s.start, s.end, s.net) for s in second] == expected
    assert not {id(s) for s in first} & {id(s) for s in second}
    other = text.replace("arith.constant 32", "arith.constant 64", 1) + "func.func @more() {\n  return\n}\n"
    assert whole_segments(other)[-1].start == other.rindex("func.func @more"), "another text is scanned anew"
    assert len(whole_segments(other)) == len(expected) + 1
