"""The code-action fuzzer over both corpora and the examples (issue 26; the checks are in support/action_fuzz.py).

Every chunk of ../shared/corpus, ../shared/corpus-extended and examples/ (but those annotated `expected-error`),
at up to `MAX_OPS` sampled ops and at every diagnostic: each action the server offers is applied and checked.
The oracle (upstream MLIR, a fresh context per call, ~0.1 s) checks a deterministic sample of the results.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from support import REPO, oracle
from support.action_fuzz import Tally, check_chunk
from support.corpus import all_corpus_files, split_chunks

# Results the oracle checks: every `ORACLE_STRIDE`-th, at most `ORACLE_BUDGET` (where it accepted the input).
ORACLE_STRIDE = 11
ORACLE_BUDGET = 30


@functools.cache
def fuzzed() -> Tally:
    tally = Tally()
    for path in [*all_corpus_files(), *sorted((REPO / "examples").glob("*.mlir"))]:
        for i, chunk in enumerate(split_chunks(path.read_text(encoding="utf-8"))):
            check_chunk(f"{Path(path).name}#{i}", chunk.text, tally)
    return tally


def test_actions_keep_the_ir_valid_the_layout_and_one_naming_scheme() -> None:
    tally = fuzzed()
    assert tally.chunks > 200 and tally.tried > 500, (tally.chunks, tally.tried)
    assert tally.findings == [], "\n".join(f"{f.check}: {f.chunk}: {f.action}: {f.detail}" for f in tally.findings[:20])


def test_the_oracle_accepts_the_results_where_it_accepted_the_input() -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed (pip install -e '.[dev]')")
    sample = fuzzed().oracle_todo[::ORACLE_STRIDE][:ORACLE_BUDGET]
    assert len(sample) >= 20
    rejected = []
    for name, action, result, before in sample:
        if any(d[2] == "error" for d in oracle.verify(before, allow_unregistered=True)):
            continue
        errors = [d for d in oracle.verify(result, allow_unregistered=True) if d[2] == "error"]
        if errors:
            rejected.append(f"{name}: {action}: {errors[0]}")
    assert rejected == []
