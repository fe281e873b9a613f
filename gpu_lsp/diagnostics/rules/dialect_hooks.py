"""GPU146: a `!dialect.type` or `#dialect.attr` of a dialect that defines no types or attributes; GPU149: an op, type
or attribute of a dialect mlir-opt does not register (without -allow-unregistered-dialect)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import PARSING_HOOKS, REGISTERED_DIALECTS, TEST_DIALECTS
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.ir.brackets import match_close
from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.syntax.names import BARE_ID, STRING_LITERAL
from gpu_lsp.text import TextRange

# Comments and strings are skipped; a `!`/`#` that starts a dotted name is a dialect type or attribute.
_SCAN = re.compile(rf"//[^\n]*|{STRING_LITERAL}|(?<![\w$.%@^#!])([!#])([A-Za-z_][\w$]*)\.([\w$.]*)")
# The same with the opaque form `!dialect<...>` too; an alias definition (`!name =`) is no use of a dialect.
# (the element type of a shape, `4x!foo.bar`, follows its `x`)
_DIALECT_USE = re.compile(rf"//[^\n]*|{STRING_LITERAL}|(?:(?<![\w$.%@^#!])|(?<=[\d?\]]x))([!#])([A-Za-z_][\w$]*)([.<])")
_PRETTY_NAME = re.compile(r"[\w$.]*")  # after `!dialect.`: the name, which a `<...>` body may follow
_ALIAS_DEFINITION = re.compile(rf"^[ \t]*([!#]{BARE_ID})[ \t]*=", re.M)
_ALLOW = (
    "If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use "
    "-allow-unregistered-dialect with the MLIR opt tool used"
)


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


@rule("GPU149", "unregistered-dialect", Severity.ERROR, upstream=True, phase=Phase.PARSE, linted=False)
def unregistered_dialect(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    For `gpu-opt` without `-allow-unregistered-dialect`, as `mlir-opt`: reports an op, a type
    (`!foo.bar`) or an attribute (`#foo.bar`) of a dialect upstream's `mlir-opt` does not
    register, with upstream's `operation being parsed with an unregistered dialect. ...`,
    `` `!"foo"<"bar">` type created with unregistered dialect. ...`` and
    ``Dialect `foo' not found for custom op 'foo.bar'``. An op declared in an `op-definitions`
    file counts as registered, and so does the `test` dialect of upstream's tests. gpu-lint and the language server accept other dialects (a
    project's own dialects are expected): they never report this.

    ## Why is this bad?
    mlir-opt stops there: the dialect is not loaded, so the op, type or attribute cannot be
    read or verified.

    ## Example
    ```mlir
    func.func @f(%a: !foo.bar)
    ```
    Use instead: `gpu-opt -allow-unregistered-dialect`, or a type of a registered dialect.

    ## Fix safety
    There is no fix: whether the dialect is meant is for the author to say.

    ## References
    - [MLIR FAQ: registered, loaded, dependent dialects](https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management)
    """
    if ctx.allow_unregistered:
        return
    for op in ctx.index.ops:
        name = op.name_range
        if not op.dialect or _registered(op.dialect) or lookup(op.name) is not None or name is None:
            continue
        if op.generic:
            yield Violation(
                "operation being parsed with an unregistered dialect. If this is intended, please use "
                "-allow-unregistered-dialect with the MLIR tool used",
                TextRange(name.end, name.end),
            )
        else:
            yield Violation(f"Dialect `{op.dialect}' not found for custom op '{op.name}' ", name)
    if ctx.text is not None:
        yield from _unregistered_uses(ctx.text, ctx.chunk.start, ctx.chunk.end)


def _registered(dialect: str) -> bool:
    """Whether the mlir-opt gpu-opt stands for (the one upstream's tests run) registers `dialect`."""
    return dialect in REGISTERED_DIALECTS or dialect in TEST_DIALECTS


def _unregistered_uses(text: str, start: int, end: int) -> Iterator[Violation]:
    """The types and attributes of unregistered dialects written in `text[start:end]`, as upstream prints them."""
    aliases = {m.group(1) for m in _ALIAS_DEFINITION.finditer(text, start, end)}
    for m in _DIALECT_USE.finditer(text, start, end):
        sigil, dialect, joint = m.group(1), m.group(2), m.group(3)
        if sigil is None or _registered(dialect):
            continue
        body_start = m.end()
        if joint == ".":
            name = _PRETTY_NAME.match(text, body_start)
            body_end = name.end() if name else body_start
            if f"{sigil}{dialect}.{text[body_start:body_end]}" in aliases:
                continue
            if body_end < end and text[body_end] == "<":
                close = match_close(text, body_end, end)
                body_end = close if close > 0 else body_end
            at, body = body_start, text[body_start:body_end]
        else:
            close = match_close(text, body_start - 1, end)
            if close < 0:
                continue
            at, body = m.start(1), text[body_start : close - 1]
        printed = f'{sigil}"{dialect}"<"{body}">'
        if sigil == "!":
            yield Violation(f"`{printed}` type created with unregistered dialect. {_ALLOW}", TextRange(at, at))
        else:
            yield Violation(f"{printed} : 'none' attribute created with unregistered dialect. {_ALLOW}", TextRange(at, at))
