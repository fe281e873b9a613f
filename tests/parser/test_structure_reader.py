"""The top-down structure reader builds exactly what Lark's LALR parser of structure.lark builds.

On every chunk of both corpora and on seeded mutants (structural typos included), a token
list Lark parses without error must give the same raw tree from the reader, and one Lark
reports an error on must be refused by the reader (so Lark's recovery handles it).
"""

from __future__ import annotations

import random

import pytest
from support.corpus import all_corpus_files, split_chunks
from support.mutate import mutate

from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.syntax.lexer import tokenize
from gpu_lsp.syntax.raw import Group, NotInGrammar, RawAlias, RawBlock, RawOp, RawRegion, Reader
from gpu_lsp.syntax.structure import _parse_with_recovery, parse_structure
from gpu_lsp.syntax.tokens import Tok

# Edits that break the structure the way a person typing does.
_STRAYS = ("{", "}", "(", ")", "[", "]", "^bb9:", "^bb9(%z: i32):", "#a = ", "!t = ", "%r = ", "{-# x #-}", "@", ":")
MUTANTS = 1500


def dump(node) -> object:
    """A raw tree as nested tuples (positions included), for comparison."""
    if isinstance(node, list):
        return [dump(n) for n in node]
    if isinstance(node, Tok):
        return (node.type, node.value, node.start_pos, node.end_pos)
    if isinstance(node, Group):
        return ("group", dump(node.open), dump(node.close), dump(node.items))
    if isinstance(node, RawRegion):
        return ("region", dump(node.open), dump(node.close), dump(node.blocks))
    if isinstance(node, RawBlock):
        return ("block", dump(node.label), dump(node.args), dump(node.ops), dump(node.bad))
    if isinstance(node, RawOp):
        return ("op", dump(node.results), dump(node.name), dump(node.items))
    if isinstance(node, RawAlias):
        return ("alias", dump(node.name), dump(node.items))
    assert node is None, node
    return None


def check_same(text: str) -> bool:
    """Compare the reader with Lark on one text; True when Lark found no error."""
    tokens = tokenize(text, op_names()).tokens
    expected, errors = _parse_with_recovery(tokens)
    if errors:
        with pytest.raises((NotInGrammar, IndexError)):
            Reader(tokens).tops()
        assert parse_structure(tokens)[1] == errors
        return False
    assert dump(Reader(tokens).tops()) == dump(expected)
    assert parse_structure(tokens)[1] == []
    return True


def _chunks() -> list[str]:
    out = []
    for path in all_corpus_files():
        out.extend(c.text for c in split_chunks(path.read_text()))
    return out


def test_reader_equals_lark_on_corpus_chunks():
    results = [check_same(text) for text in _chunks()]
    assert sum(results) > 0.9 * len(results)


def test_reader_equals_lark_on_mutants():
    rng = random.Random(11)
    chunks = [c for c in _chunks() if len(c) < 20000]
    clean = broken = 0
    for _ in range(MUTANTS):
        text = rng.choice(chunks)
        if rng.random() < 0.75:
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + rng.choice(_STRAYS) + text[pos:]
        else:
            mutated = mutate(text, rng)
            if mutated is None:
                continue
            text = mutated[0]
        if check_same(text):
            clean += 1
        else:
            broken += 1
    assert clean > 100 and broken > 50, (clean, broken)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{-# dialect_resources: {} #-}",
        "#a = ",
        "%r = ",
        "func.func @f() {\n^bb0:\n  return\n^bb1(%x: i32):\n  cf.br ^bb0\n}",
        "func.func @f() { ^bb1 %x : i32 }",
        "}",
        "(1, 2) func.func @f()",
        "#map = affine_map<(d0) -> (d0)>\n!t = i32\nfunc.func @f(%a: !t)",
        '"x.y"() ({ "x.z"() : () -> () }) : () -> ()',
    ],
)
def test_reader_equals_lark_on_edge_cases(text):
    check_same(text)
