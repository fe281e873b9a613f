"""The parser never raises on user input, and every diagnostic range lies inside the buffer."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.corpus import corpus_files, split_chunks

from gpu_lsp.analysis import analyze_text
from gpu_lsp.parser.api import parse
from gpu_lsp.syntax.lexer import MAX_NESTING

_TOKEN = re.compile(r"\s+|%[\w$.#-]+|\^[\w$.-]+|@[\w$.-]+|[\w.$]+|\"(?:[^\"\\\n]|\\.)*\"|->|.", re.S)
_INSERTS = [
    "%", "%x", "=", ",", ":", "(", ")", "[", "]", "{", "}", "<", ">", "{}", "<{", "}>", "->", "^bb1", "@k",
    "gpu.launch", "gpu.wait async", "async", "[%t]", "i32", "memref<", "!gpu.async.token", "#gpu<",
    '"', "\\", "loc(", "// -----", "\n", " ", "dense<", "0x", "-", "1.5e", "%0#", "\t", "\u00e9", "\x00",
]


def _check(text: str, split: bool) -> None:
    parsed = parse(text, split=split)
    for d in parsed.diagnostics:
        assert 0 <= d.range.start <= d.range.end <= len(text), (d, len(text))
        for r in d.related:
            assert 0 <= r.range.start <= r.range.end <= len(text), (r, len(text))
    for chunk in parsed.chunks:
        for op in chunk.module.walk():
            if op.span is not None:
                rng = op.span.range
                assert 0 <= rng.start <= rng.end <= len(text), (op, rng, len(text))


def _chunks() -> list[str]:
    out = []
    for path in corpus_files():
        out.extend(c.text for c in split_chunks(path.read_text()))
    return out


def test_every_line_prefix_of_every_corpus_chunk_parses() -> None:
    count = 0
    for text in _chunks():
        ends = [m.start() for m in re.finditer("\n", text)] + [len(text)]
        for end in ends:
            _check(text[:end], split=False)
            count += 1
    print(f"{count} prefixes parsed")
    assert count > 5000


def test_every_corpus_file_cut_mid_line_parses() -> None:
    for path in corpus_files():
        text = path.read_text()
        for cut in range(7, len(text), max(1, len(text) // 40)):
            _check(text[:cut], split=True)


_SMALL_CHUNKS = [c for c in _chunks() if 40 < len(c) < 2500]


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(_SMALL_CHUNKS))
    tokens = _TOKEN.findall(text)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("delete", "insert", "swap", "truncate", "bytes")))
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        if kind == "delete":
            del tokens[i : i + draw(st.integers(1, 3))]
        elif kind == "insert":
            tokens.insert(i, draw(st.sampled_from(_INSERTS)))
        elif kind == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "truncate":
            tokens = tokens[:i]
        else:
            tokens.insert(i, draw(st.text(min_size=1, max_size=6)))
    return "".join(tokens)


@settings(max_examples=10_000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(mutated(), st.booleans())
def test_mutated_corpus_chunks_parse(text: str, split: bool) -> None:
    _check(text, split)


def test_a_non_ascii_letter_after_a_dialect_sigil_is_no_crash() -> None:
    # Found by the mutation test: `#º` (a letter to str.isalpha, not to MLIR's identifiers).
    text = "func.func @f(%m: memref<4xf32>, %v: f32, %i: index) {\n  memref.store %v, %m[%i] : memref<4xf32, #\u00bagpu.x>\n  return\n}\n"
    _check(text, split=False)
    assert [d for d in parse(text).diagnostics if "memref.store" in d.message]


# Nesting far past MAX_NESTING, in each place brackets nest: an op's operands and regions,
# and inside attributes, dense literals, types and dictionaries.
_DEEP = 3000
_DEEPLY_NESTED = {
    "parentheses": '%x = "a.b"() ' + "(" * _DEEP + ")" * _DEEP,
    "regions": "func.func @f() {\n" + '"a.b"() ({\n' * _DEEP + "}) : () -> ()\n" * _DEEP + "}\n",
    "an array": "%x = arith.constant " + "[" * _DEEP + "1" + "]" * _DEEP + " : i32",
    "a dense literal": "%x = arith.constant dense<" + "[" * _DEEP + "1" + "]" * _DEEP + "> : tensor<1xi32>",
    "a type": '%x = "a.b"() : () -> ' + "tuple<" * _DEEP + "i32" + ">" * _DEEP,
    "an attribute": '"a.b"() {a = ' + "[" * _DEEP + "1" + "]" * _DEEP + "} : () -> ()",
    "a dictionary": '"a.b"() {a = ' + "{b = " * _DEEP + "1" + "}" * _DEEP + "} : () -> ()",
}


@pytest.mark.parametrize("where", sorted(_DEEPLY_NESTED))
def test_brackets_nested_too_deep_are_one_error_not_a_crash(where):
    """The readers recurse per level (the compiled build on the C stack): past MAX_NESTING the
    op is left out with one error at the bracket, and what follows it is read as usual."""
    text = _DEEPLY_NESTED[where] + "\nfunc.func @after(%a: i32) {\n  return\n}\n"
    parsed, found = analyze_text(text, split=True)
    assert [d.message for d in found] == [f"brackets nested more than {MAX_NESTING} deep"]
    assert text[found[0].range.start] in "([{<"
    functions = [op for op in parsed.chunks[-1].module.walk() if op.name == "func.func"]
    names = [text[op.sym_span.range.start : op.sym_span.range.end] for op in functions if op.sym_span is not None]
    assert names[-1:] == ["@after"]


def test_brackets_nested_as_deep_as_allowed_are_read():
    """MAX_NESTING brackets open at once (a function, 49 generic ops' regions, an operand
    list): read and verified without an error, well inside Python's recursion limit."""
    levels = (MAX_NESTING - 2) // 2
    text = "func.func @f() {\n" + '"a.b"() ({\n' * levels + '%x = arith.constant 1 : i32\n"c.d"(%x) : (i32) -> ()\n'
    text += "}) : () -> ()\n" * levels + "return\n}\n"
    assert 1 + 2 * levels + 1 == MAX_NESTING
    parsed, found = analyze_text(text)
    assert found == []
    assert sum(1 for chunk in parsed.chunks for op in chunk.module.walk() if op.name == "a.b") == levels
