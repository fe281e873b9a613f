"""GPU009: syntax that the chosen `mlir-version` does not have, said in one clear diagnostic."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import OP_PIECES, REDUCTION_KINDS, OpPieceFact
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.ir.core import Operation
from gpu_lsp.text import TextRange

# The reduction word right after the op name (gpu.all_reduce may have none: it then has a region).
_KIND = re.compile(r"\s+([A-Za-z_][A-Za-z0-9_]*)")
# What each word became (or came from), for the message.
_SPELLED = {
    "max": "`maxnumf` or `maximumf` for floats, `maxsi` or `maxui` for integers",
    "min": "`minnumf` or `minimumf` for floats, `minsi` or `minui` for integers",
}
_OLD_SPELLING = {"max": ("maxnumf", "maximumf", "maxsi", "maxui"), "min": ("minnumf", "minimumf", "minsi", "minui")}


_REDUCTIONS = ("gpu.all_reduce", "gpu.subgroup_reduce")
# Ops with pieces (or themselves) newer than the oldest version: gpu_lsp/diagnostics/mlir_versions.py.
_VERSIONED = tuple(dict.fromkeys(row.op for row in OP_PIECES))


@rule("GPU009", "syntax-of-another-version", Severity.ERROR, ops=_REDUCTIONS + _VERSIONED, phase=Phase.PARSE)
def syntax_of_another_version(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a reduction word of `gpu.all_reduce` or `gpu.subgroup_reduce` that the chosen
    `mlir-version` does not have, saying which versions spell it how. It takes the place of
    the parser's generic `invalid op kind`. It also reports an op, or a keyword of an op,
    newer than the chosen version: an op whose declaration dates it (`gpu.ballot`, LLVM 23;
    `gpu.subgroup_broadcast`, 22; `gpu.rotate`, 21; `gpu.cluster_dim_blocks`, 19;
    `gpu.dynamic_shared_memory`, 18; `gpu.initialize_named_barrier`, 23, ...),
    `gpu.barrier memfence [...]` (LLVM 23, PR #177425), `gpu.barrier named(...)` and
    `gpu.barrier scope <...>` (LLVM 23, PR #195692; the oracle's pre-release LLVM 23
    predates these and the named-barrier op).

    ## Why is this bad?
    LLVM 18 (llvm-project PRs #73423 and #75901) replaced the ambiguous `min`/`max` by
    `minsi`/`minui`/`minnumf`/`minimumf` and `maxsi`/`maxui`/`maxnumf`/`maximumf`. A
    file written for LLVM 17 does not parse with LLVM 18 and later, and the other way
    round; the parser only says `invalid op kind`. An older MLIR reads a newer keyword as
    the start of another op and says only `custom op 'memfence' is unknown`.

    ## Example
    With `mlir-version = 23`:
    ```mlir
    %r = gpu.all_reduce max %x {} : (f32) -> (f32)
    ```
    Use instead:
    ```mlir
    %r = gpu.all_reduce maxnumf %x {} : (f32) -> (f32)
    ```

    ## Fix safety
    There is no fix: the right word depends on the type and on the NaN semantics wanted.

    ## References
    - [llvm-project PR #73423](https://github.com/llvm/llvm-project/pull/73423)
    - [llvm-project PR #75901](https://github.com/llvm/llvm-project/pull/75901)
    """
    name = op.name_range
    if name is None or ctx.text is None:
        return
    if op.name in _VERSIONED:
        yield from _newer_pieces(op, name, ctx)
    if op.name not in _REDUCTIONS:
        return
    found = _KIND.match(ctx.text, name.end)
    if found is None:
        return
    word = found.group(1)
    accepted = REDUCTION_KINDS.at(ctx.mlir_version)
    known = any(word in words for _, words in REDUCTION_KINDS.changes)
    if word in accepted or not known or word == "uniform":
        return
    if word in _SPELLED:
        advice = f"write {_SPELLED[word]}"
    else:
        old = next((o for o, new in _OLD_SPELLING.items() if word in new), None)
        advice = f"write `{old}`" if old is not None else "this version has no such reduction"
    yield Violation(
        f"custom op '{op.name}' invalid op kind: `{word}` is the syntax of {REDUCTION_KINDS.versions_with(word)}, "
        f"not of LLVM {ctx.mlir_version} (`mlir-version`): {advice}",
        TextRange(found.start(1), found.end(1)),
    )


def _newer_pieces(op: Operation, name: TextRange, ctx: RuleContext) -> Iterator[Violation]:
    """The op, or the keywords of its pieces, that LLVM `ctx.mlir_version` does not have yet."""
    rows = [row for row in OP_PIECES if row.op == op.name and not row.present_at(ctx.mlir_version)]
    whole = next((row for row in rows if row.piece is None), None)
    if whole is not None:
        yield Violation(_too_new(f"`{op.name}`", "an op", whole, ctx), name)
        return
    span = op.range
    if span is None or ctx.text is None:
        return
    for row in rows:
        if row.keyword is None:
            continue
        found = re.compile(rf"\b{row.keyword}\b").search(ctx.text, name.end, span.end)
        if found is not None:
            what = f"custom op '{op.name}' `{row.keyword}`"
            yield Violation(_too_new(what, "the syntax", row, ctx), TextRange(found.start(), found.end()))


def _too_new(what: str, kind: str, row: OpPieceFact, ctx: RuleContext) -> str:
    return f"{what} is {kind} of {row.versions}, not of LLVM {ctx.mlir_version} (`mlir-version`); {row.source}"
