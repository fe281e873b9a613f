"""GPU146: a `!dialect.type` or `#dialect.attr` of a dialect that defines no types or attributes."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import PARSING_HOOKS
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.syntax.names import STRING_LITERAL
from gpu_lsp.text import TextRange

# Comments and strings are skipped; a `!`/`#` that starts a dotted name is a dialect type or attribute.
_SCAN = re.compile(rf"//[^\n]*|{STRING_LITERAL}|(?<![\w$.%@^#!])([!#])([A-Za-z_][\w$]*)\.([\w$.]*)")


@rule("GPU146", "dialect-without-parsing-hook", Severity.ERROR, upstream=True, phase=Phase.PARSE)
def dialect_without_parsing_hook(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a dialect type (`!memref.x`) or attribute (`#math.x<...>`) of a dialect that has
    no types or attributes with the chosen `mlir-version`: upstream's `dialect 'memref'
    provides no type parsing hook` / `... no attribute parsing hook`. The dialects are listed
    by version in `PARSING_HOOKS` (gpu_lsp/diagnostics/mlir_versions.py); at a version
    without a list nothing is reported.

    ## Why is this bad?
    Upstream's parser stops there: the dialect cannot read any type or attribute, so the
    name is a typo or belongs to another dialect (`!gpu.async.token`, `#gpu.thread<x>`).

    ## Example
    ```mlir
    func.func @f(%t: !memref.async.token)
    ```
    Use instead: `func.func @f(%t: !gpu.async.token)`.

    ## Fix safety
    There is no fix: which dialect was meant is for the author to say.

    ## References
    - [MLIR language reference: dialect types](https://mlir.llvm.org/docs/LangRef/#dialect-types)
    """
    no_types, no_attributes = PARSING_HOOKS.at(ctx.mlir_version)
    if ctx.text is None or not (no_types or no_attributes):
        return
    # the whole chunk, or the one unit the editor's incremental lint looks at
    scope = ctx.module.range if ctx.module is not ctx.chunk.module else None
    start, end = (scope.start, scope.end) if scope is not None else (ctx.chunk.start, ctx.chunk.end)
    if _candidates(no_types, no_attributes).search(ctx.text, start, end) is None:
        return  # the usual case, found fast: no such name at all (not even in a comment)
    for m in _SCAN.finditer(ctx.text, start, end):
        sigil, dialect = m.group(1), m.group(2)
        if sigil is None:
            continue
        if sigil == "!" and dialect in no_types:
            kind = "type"
        elif sigil == "#" and dialect in no_attributes:
            kind = "attribute"
        else:
            continue
        yield Violation(f"dialect '{dialect}' provides no {kind} parsing hook", TextRange(m.start(3), m.end(3)))


@functools.cache
def _candidates(no_types: frozenset[str], no_attributes: frozenset[str]) -> re.Pattern:
    """`!d.` or `#d.` for the dialects listed, wherever they are written."""
    types = "|".join(sorted(no_types)) or "(?!)"
    attributes = "|".join(sorted(no_attributes)) or "(?!)"
    return re.compile(rf"!(?:{types})\.|#(?:{attributes})\.")
