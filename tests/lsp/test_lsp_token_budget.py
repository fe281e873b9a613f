"""Semantic tokens of an analysed document: a request answers what its budget allows (a prefix
of every token, flagged for a refresh), the server keeps the rest a step at a time, and the next
request answers every token, equal to lexing the whole document at once."""

from __future__ import annotations

from support.typing import generated

from gpu_lsp.lsp import semantic_tokens
from gpu_lsp.lsp.documents import PARTIAL_TOKENS, Document


def test_a_request_answers_what_its_budget_allows_and_the_rest_is_kept_in_steps(monkeypatch) -> None:
    text = generated("inline", 300)
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))  # the whole answer, however loaded the machine
    whole = Document("file:///a.mlir", text, 1).analysed()
    every = semantic_tokens.semantic_tokens(whole)
    assert PARTIAL_TOKENS not in whole.cache
    snap = Document("file:///b.mlir", text, 1).analysed()
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", 0.0)
    first = semantic_tokens.semantic_tokens(snap)
    assert 0 < len(first) < len(every) and first == every[: len(first)], "the tokens up to the first unit not lexed yet"
    assert snap.cache.pop(PARTIAL_TOKENS) is True
    steps = 1
    while not semantic_tokens.keep_step(snap, 0.0):  # one unit per step
        steps += 1
    assert steps > 5
    assert semantic_tokens.semantic_tokens(snap) == every and PARTIAL_TOKENS not in snap.cache
    assert semantic_tokens.keep_step(snap, 0.0), "nothing left to keep"
