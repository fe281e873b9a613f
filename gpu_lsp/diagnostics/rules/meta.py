"""GPU9xx: diagnostics about gpu-lint itself (suppressions, internal errors)."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import FixAvailability, declare

declare(
    "GPU901",
    "unused-suppression",
    Severity.WARNING,
    """
    ## What it does
    Reports a code in a `// gpu-lint: ignore[...]` or `// gpu-lint: ignore-file[...]`
    comment that suppresses nothing: no diagnostic of that code (or prefix) is reported
    where the comment applies.

    ## Why is this bad?
    A stale suppression hides the next real finding of that code on the line, and tells
    readers about a problem that is no longer there.

    ## Example
    ```mlir
    %t1 = gpu.wait async [%t0]  // gpu-lint: ignore[GPU301]
    ```
    where nothing on the line is GPU301. Use instead: remove the comment.

    ## Fix safety
    The fix removes the unused code from the comment, or the whole comment when no code
    is left. It is safe: nothing that was suppressed becomes visible.

    ## References
    - [ruff: unused-noqa (RUF100)](https://docs.astral.sh/ruff/rules/unused-noqa/)
    """,
    checked_by="gpu_lsp/diagnostics/suppression.py",
    upstream=False,
    fix=FixAvailability.ALWAYS,
    suppressible=False,
    tags=("unnecessary",),
)

declare(
    "GPU902",
    "invalid-suppression",
    Severity.WARNING,
    """
    ## What it does
    Reports a `// gpu-lint:` comment that cannot be read: an unknown directive, or an
    entry of the code list that is not a code or code prefix such as `GPU2` or `GPU201`.

    ## Why is this bad?
    The comment suppresses nothing although its author meant it to.

    ## Example
    ```mlir
    gpu.wait [%t]  // gpu-lint: ignore[async-token-leak]
    ```
    Use instead: `// gpu-lint: ignore[GPU206]` (codes, not rule names).

    ## Fix safety
    There is no fix.

    ## References
    - [ruff: error suppression](https://docs.astral.sh/ruff/linter/#error-suppression)
    """,
    checked_by="gpu_lsp/diagnostics/suppression.py",
    upstream=False,
    suppressible=False,
)

declare(
    "GPU999",
    "internal-error",
    Severity.WARNING,
    """
    ## What it does
    Reports that one of gpu-lint's rules raised an exception on this file. The other
    rules still ran; the failing rule's findings for the file are missing.

    ## Why is this bad?
    It is a bug in gpu-lint, not in your code. Please report it to the maintainers of the
    gpu-lsp checkout you installed from, with the file and `gpu-lint --version`.

    ## Example
    ```text
    internal error in rule GPU207 (multi-use-token): KeyError: ...
    ```

    ## Fix safety
    There is no fix.

    ## References
    - `gpu_lsp/diagnostics/rule_engine.py`, which catches the exception
    """,
    checked_by="gpu_lsp/diagnostics/rule_engine.py",
    upstream=False,
    suppressible=False,
)
