"""Acceptance of the formatter over both corpora and the examples, with upstream MLIR as the oracle.

For every file: formatting twice changes nothing; every comment is kept (whole-line and trailing); and each
`// -----` chunk the formatter changed is accepted by the oracle wherever the input chunk
was, and prints to the same generic form.
"""

from __future__ import annotations

import re
from collections import Counter

from support import REPO
from support import oracle as O
from support.corpus import all_corpus_files

from gpu_lsp.formatter.core import format_text

_COMMENT = re.compile(r'^(?:[^"\n/]|"(?:[^"\\\n]|\\.)*"|/(?!/))*(//.*)$', re.M)


class _Generic:
    """The oracle's generic printing of a chunk, one MLIR context per dialect setting (parsing only)."""

    def __init__(self) -> None:
        self.backend = O.backend()
        self.contexts: dict[bool, object] = {}

    def __call__(self, text: str, allow_unregistered: bool) -> str | None:
        ctx = self.contexts.get(allow_unregistered)
        if ctx is None:
            ctx = self.contexts[allow_unregistered] = self.backend.new_context(allow_unregistered)
        ir = self.backend.ir
        with ctx:
            try:
                module = ir.Module.parse(text)
            except ir.MLIRError:
                return None
            return str(module.operation.get_asm(print_generic_op_form=True))


def _comments(text: str) -> Counter[str]:
    """Every comment: what follows the first `//` outside a string on a line (whole-line and trailing)."""
    return Counter(m.group(1).rstrip() for m in _COMMENT.finditer(text))


def test_every_file_formats_to_the_same_ir_keeping_its_comments() -> None:
    oracle = O.module()
    generic = _Generic()
    files = all_corpus_files() + sorted((REPO / "examples").glob("**/*.mlir"))
    counts: Counter[str] = Counter()
    for path in files:
        text = path.read_text(encoding="utf-8")
        result = format_text(text)
        counts["files"] += 1
        counts["changed"] += result.text != text
        counts["left as written"] += len(result.problems)
        if result.text == text:
            continue  # formatting it again is formatting the input again
        assert format_text(result.text).text == result.text, f"{path.name}: formatting twice changes it"
        assert not _comments(text) - _comments(result.text), f"{path.name}: a comment is lost"
        allow = oracle.wants_unregistered(text)
        before, after = oracle.split_input(text), oracle.split_input(result.text)
        assert len(before) == len(after), path.name
        for index, (old, new) in enumerate(zip(before, after)):
            if old.text == new.text:
                continue
            counts["chunks changed"] += 1
            expected = generic(old.text, allow)
            if expected is None:
                continue
            counts["chunks checked by the oracle"] += 1
            assert generic(new.text, allow) == expected, f"{path.name} chunk {index}: the formatted chunk is not the same IR"
    print(dict(counts))
    assert counts["files"] >= 140 and counts["changed"] >= 120 and counts["chunks checked by the oracle"] >= 200
    assert counts["left as written"] <= 32
