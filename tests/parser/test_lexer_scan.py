"""The lexer's first-character shortcuts find the token its master pattern finds, and its
result-list shortcut the list its pattern finds."""

from __future__ import annotations

import random

from support.corpus import all_corpus_files

from gpu_lsp.syntax.lexer import _MASTER, _RESULTS, _SPACE_CHARS, _results_end, scan_token

# Characters that start tokens, break them, or start none (non-ASCII digits and letters included).
_NOISE = list(" \t\n%^@#!-+.0123456789xeE\"\\az_$<>{}()[]:,=*?|/~`;&\u00e9\u0660\f")


def _master(text: str, pos: int, end: int) -> tuple[str, int, int]:
    m = _MASTER.match(text, pos, end)
    if m is None:
        return "", pos, pos
    kind = m.lastgroup or ""
    return (kind, *m.span(kind))


def _check_every_position(text: str, end: int) -> int:
    checked = 0
    for pos in range(end):
        if text[pos] not in _SPACE_CHARS:
            assert scan_token(text, pos, end) == _master(text, pos, end), (text[max(0, pos - 20) : pos + 20], pos, end)
            checked += 1
    return checked


def test_scan_token_equals_the_master_pattern_on_corpus_text():
    rng = random.Random(3)
    texts = [path.read_text() for path in all_corpus_files()]
    checked = 0
    for _ in range(300):
        text = rng.choice(texts)
        start = rng.randrange(len(text))
        piece = text[start : start + 2000]
        checked += _check_every_position(piece, len(piece))
    assert checked > 100_000


def test_scan_token_equals_the_master_pattern_on_noise():
    rng = random.Random(4)
    for _ in range(3000):
        text = "".join(rng.choice(_NOISE) for _ in range(rng.randrange(1, 12)))
        _check_every_position(text, rng.randrange(1, len(text) + 1))


# Pieces of result lists and of what may follow one (`=` twice, `max`, `#1`, unicode spaces, letters and
# digits, the ASCII controls `\s` holds, a type after a colon as after an op's operands).
_RESULT_NOISE = ["%a", "%0", "%x.y", "%-", "%r#1", ":2", ",", " ", "\n", "\t", "\u2003", "=", "==", "max", "min", "maxi",
                 "mx", "arith.addi", '"op"', "_x", "%b", "\u00e9", "(", "1", "#", "{", ":", "index", ")", "]", "\x0c", "\x1c",
                 "\u0663", "%\u00e9"]


def _check_results_at_values(text: str) -> int:
    checked = 0
    for pos in range(len(text)):
        if text[pos] != "%":
            continue
        kind, s, e = scan_token(text, pos, len(text))
        if kind != "VALUE":
            continue
        pattern = _RESULTS.match(text, s)
        assert _results_end(text, s, e, len(text)) == (pattern.end() if pattern else -1), (text[s : s + 40], s)
        checked += 1
    return checked


def test_results_shortcut_equals_the_pattern():
    rng = random.Random(5)
    checked = sum(_check_results_at_values(path.read_text()) for path in all_corpus_files()[:40])
    for _ in range(20000):
        checked += _check_results_at_values("".join(rng.choice(_RESULT_NOISE) for _ in range(rng.randrange(1, 8))))
    assert checked > 15_000


def test_results_shortcut_equals_the_pattern_on_every_separator():
    """Result lists written with every separator `\\s` and `\\d` allow (ASCII controls, unicode spaces
    and digits), and the first operands of an op: the shortcut agrees with the pattern on each."""
    spaces = ["", " ", "\t", "\n", "\x0b", "\x0c", "\x1c", "\x1f", "\u2003"]
    counts = ["", ":2", ":\u0663", ":{s}2", ":{s}\u0663"]
    tails = ["= arith.addi", "=arith.addi", "= max", "== x", ") : index", ": index", "]"]
    checked = 0
    matched = 0
    for s in spaces:
        for count in counts:
            for tail in tails:
                text = f"%a{count.format(s=s)}{s},{s}%b{count.format(s=s)}{s}{tail}"
                checked += _check_results_at_values(text)
                matched += _RESULTS.match(text) is not None
    assert checked == len(spaces) * len(counts) * len(tails) * 2
    assert matched >= len(spaces) * len(counts) * 2
