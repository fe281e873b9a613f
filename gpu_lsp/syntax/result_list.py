"""Upstream's error for a value read where an operation starts that is no result list (`parseOperation`)."""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.syntax.tokens import Tok


def result_list_error(token_at: Callable[[int], Tok | None]) -> tuple[str, int]:
    """The message upstream's parser gives for the tokens from a `%value` (`token_at(0)`) that do
    not make `%a, %b:2 = op`, and how many tokens ahead of the value the token it is reported
    before is (`token_at` gives None past the end, or for what is no token)."""

    def kind_at(k: int) -> str:
        tok = token_at(k)
        return tok.type if tok is not None else ""

    def punct_at(k: int, ch: str) -> bool:
        tok = token_at(k)
        return tok is not None and tok.type == "PUNCT" and tok.value == ch

    k = 1
    while True:
        if kind_at(k) == "COLON":
            if kind_at(k + 1) != "INT":
                return "expected integer number of results", k + 1
            k += 2
        if not punct_at(k, ","):
            break
        if kind_at(k + 1) != "VALUE":
            return "expected valid ssa identifier", k + 1
        k += 2
    if not punct_at(k, "="):
        return "expected '=' after SSA name", k
    return "expected operation name in quotes", k + 1
