"""GPU009: syntax that the chosen `mlir-version` does not have, said in one clear diagnostic."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import REDUCTION_KINDS
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


@rule("GPU009", "syntax-of-another-version", Severity.ERROR, ops=("gpu.all_reduce", "gpu.subgroup_reduce"), phase=Phase.PARSE)
def syntax_of_another_version(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a reduction word of `gpu.all_reduce` or `gpu.subgroup_reduce` that the chosen
    `mlir-version` does not have, saying which versions spell it how. It takes the place of
    the parser's generic `invalid op kind`.

    ## Why is this bad?
    LLVM 18 (llvm-project PRs #73423 and #75901) replaced the ambiguous `min`/`max` by
    `minsi`/`minui`/`minnumf`/`minimumf` and `maxsi`/`maxui`/`maxnumf`/`maximumf`. A
    file written for LLVM 17 does not parse with LLVM 18 and later, and the other way
    round; the parser only says `invalid op kind`.

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
