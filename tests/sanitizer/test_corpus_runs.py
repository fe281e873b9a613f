"""On the corpus programs gpu-run can execute (a `@main()` it supports), the sanitizer and the runner agree."""

from __future__ import annotations

import re

from support.corpus import SHARED, corpus_files

from sanitizer.test_runner_crosscheck import reported, run_hazards

MAIN = re.compile(r"func\.func @main\(\)")
SPLIT = "\n// -----\n"


def runnable_chunks() -> list[tuple[str, str]]:
    """(name, text) of every corpus chunk (both corpora) with a `@main()` to run."""
    paths = corpus_files() + sorted((SHARED / "corpus-extended").glob("**/*.mlir"))
    out = []
    for path in paths:
        text = path.read_text()
        pieces = text.split(SPLIT) if "split-input-file" in text else [text]
        out.extend((f"{path.name}#{i}", piece) for i, piece in enumerate(pieces) if MAIN.search(piece))
    return out


def test_sanitizer_agrees_with_the_runner_on_the_corpus() -> None:
    """Chunks the runner cannot finish (an op it does not support, an external call) are not compared."""
    compared, disagreements = [], []
    for name, text in runnable_chunks():
        seen, other = run_hazards(text)
        if other is not None and not seen:
            continue
        compared.append(name)
        found = reported(text)
        if found != seen:
            disagreements.append(f"{name}: runner {sorted(seen)}, gpu-lint {sorted(found)}")
    assert disagreements == []
    assert len(compared) >= 15, compared
