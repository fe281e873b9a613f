"""A seeded, bounded differential fuzzer against upstream MLIR (the oracle).

Reflows: every chunk of both corpora that upstream accepts, reformatted with line breaks
and indentation only (after commas, `=`, brackets, before `:` and `->`), must parse with
no error to the same IR as the original. Mutants: IR-aware edits of those chunks must get
upstream's accept/reject verdict, and where both reject, the same first error (line and
text). `python tests/parser/test_differential_fuzz.py [N]` prints the rates for N mutants.
"""

from __future__ import annotations

import functools
import random
import sys
from dataclasses import dataclass

import pytest
from support import SHARED, oracle
from support.corpus import split_chunks
from support.mutate import mutate
from support.reflow import reflow, shape_op

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse

CORPORA = (SHARED / "corpus", SHARED / "corpus-extended")
REFLOWS_PER_CHUNK = 8
MUTANTS = 2000


@dataclass(frozen=True)
class Valid:
    """A corpus chunk upstream accepts, and whether its file allows unregistered ops."""

    id: str
    text: str
    unregistered: bool


@functools.cache
def _runner(unregistered: bool):
    return oracle.module().Oracle(oracle.backend(), unregistered, keep_op_notes=False)


def upstream_errors(text: str, unregistered: bool) -> list[tuple[int, str]]:
    """(line, message) of each error upstream reports for one chunk."""
    o = oracle.module()
    chunk = o.Chunk(text, 0, 1, 0)
    runner = _runner(unregistered)
    out = []
    for d in runner.run_chunk(chunk).diags:
        if d.severity == "error":
            # Upstream's "expected 1 operand type\0 but had 2" holds a NUL (its singular suffix is
            # the character '\0'): gpu-lsp's message leaves it out.
            out.append((d.file_pos(chunk, runner.buffer_name)[0], d.message.replace("\0", "")))
    return out


def our_errors(text: str) -> list[tuple[int, str]]:
    """(line, message) of each error gpu-lsp reports for one chunk, like mlir-opt."""
    chunk = parse(text).chunks[0]
    return [
        (text.count("\n", 0, d.range.start) + 1, d.message)
        for d in verify_chunk(chunk, text=text)
        if d.severity == Severity.ERROR
    ]


@functools.cache
def valid_chunks() -> tuple[Valid, ...]:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    o = oracle.module()
    out = []
    for corpus in CORPORA:
        for path in sorted(corpus.glob("**/*.mlir")):
            text = path.read_text(encoding="utf-8")
            unregistered = o.wants_unregistered(text)
            for index, piece in enumerate(split_chunks(text)):
                if not upstream_errors(piece.text, unregistered):
                    out.append(Valid(f"{path.relative_to(SHARED)}#{index}", piece.text, unregistered))
    return tuple(out)


def test_whitespace_reflows_parse_to_the_same_ir() -> None:
    chunks = valid_chunks()
    assert len(chunks) >= 200, "the oracle accepts suspiciously few corpus chunks"
    rng = random.Random(11)
    failures = []
    cases = 0
    for chunk in chunks:
        base = parse(chunk.text).chunks[0]
        base_errors = [d.message for d in base.diagnostics if d.severity == Severity.ERROR]
        assert base_errors == [], f"{chunk.id}: {base_errors[:3]}"
        base_shape = shape_op(base.module)
        for _ in range(REFLOWS_PER_CHUNK):
            text = reflow(chunk.text, rng, rate=rng.choice((0.2, 0.5, 1.0)))
            cases += 1
            parsed = parse(text).chunks[0]
            errors = [d.message for d in parsed.diagnostics if d.severity == Severity.ERROR]
            if errors:
                failures.append(f"{chunk.id}: rejected: {errors[0]}")
            elif shape_op(parsed.module) != base_shape:
                failures.append(f"{chunk.id}: parsed to different IR")
    print(f"\nreflows: {cases} cases over {len(chunks)} chunks, {len(failures)} rejected or different")
    assert not failures, "\n".join(failures[:20])


def test_accepted_chunks_verify_clean() -> None:
    """Every chunk upstream accepts gets no verifier error: declared constraints never overreach."""
    wrong = [(chunk.id, errors[0]) for chunk in valid_chunks() if (errors := our_errors(chunk.text))]
    assert wrong == []


@dataclass
class Rates:
    """Outcomes of the mutants against upstream."""

    total: int = 0
    both_accept: int = 0
    false_error: int = 0
    missed: int = 0
    both_reject: int = 0
    same_first: int = 0

    def line(self) -> str:
        agree = self.same_first / self.both_reject if self.both_reject else 1.0
        return (
            f"mutants: {self.total}; both accept {self.both_accept}; false errors {self.false_error}; "
            f"missed {self.missed} ({self.missed / max(self.total, 1):.1%}); both reject {self.both_reject}, "
            f"same first error {self.same_first} ({agree:.1%})"
        )


def run_mutants(count: int, seed: int = 11, examples: list | None = None) -> Rates:
    chunks = valid_chunks()
    rng = random.Random(seed)
    rates = Rates()
    while rates.total < count:
        chunk = rng.choice(chunks)
        mutant = mutate(chunk.text, rng)
        if mutant is None:
            continue
        text, kind = mutant
        rates.total += 1
        theirs = upstream_errors(text, chunk.unregistered)
        ours = our_errors(text)
        if not theirs and not ours:
            rates.both_accept += 1
        elif not theirs:
            rates.false_error += 1
            if examples is not None:
                examples.append(("false error", kind, chunk.id, ours[0], text))
        elif not ours:
            rates.missed += 1
            if examples is not None:
                examples.append(("missed", kind, chunk.id, theirs[0], text))
        else:
            rates.both_reject += 1
            if ours[0] == theirs[0]:
                rates.same_first += 1
            elif examples is not None:
                examples.append(("different first error", kind, chunk.id, (ours[0], theirs[0]), text))
    return rates


def test_mutants_get_upstreams_verdict() -> None:
    rates = run_mutants(MUTANTS)
    print("\n" + rates.line())
    assert rates.false_error == 0, rates.line()
    # Issue #25's bounds: at most 0.5% missed (10 of 2000 with this seed; 8 now) and the same first
    # error as upstream for at least 90% of the mutants both reject (95.7% with this seed now: kept).
    assert rates.missed <= MISSED_AT_MOST * rates.total, rates.line()
    assert rates.same_first >= SAME_FIRST_AT_LEAST * rates.both_reject, rates.line()


MISSED_AT_MOST = 0.005
SAME_FIRST_AT_LEAST = 0.95


if __name__ == "__main__":
    examples: list = []
    print(run_mutants(int(sys.argv[1]) if len(sys.argv) > 1 else MUTANTS, examples=examples).line())
    order = {"false error": 0, "missed": 1, "different first error": 2}
    examples.sort(key=lambda e: order[e[0]])
    for verdict, kind, cid, detail, _ in examples[: int(sys.argv[2]) if len(sys.argv) > 2 else 20]:
        print(f"{verdict:22} {kind:15} {cid}: {detail}")
