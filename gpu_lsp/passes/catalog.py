"""The passes and refactorings gpu-lsp offers: one registration each, read by every front end.

gpu-opt's flags and `--help`, `--pass-pipeline`, the code actions, the server's
commands and the command list it advertises all read `PASSES` and `REFACTORINGS`.
A new pass is declared with `@gpu_pass` in its module and listed here; a code
action for it is `refactor.pass_refactoring(...)` listed in `REFACTORINGS`.
"""

from __future__ import annotations

from gpu_lsp.diagnostics.mlir_versions import NEWEST
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse
from gpu_lsp.passes import refactor
from gpu_lsp.passes.async_region import async_region_pass
from gpu_lsp.passes.outlining import outlining_pass
from gpu_lsp.passes.refactor import RefactorError
from gpu_lsp.passes.registration import PassDef, Refactoring, RefactoringDef, Registry, Site
from gpu_lsp.passes.sink import sink_pass

PASSES: Registry[PassDef] = Registry.of("pass", [sink_pass, outlining_pass, async_region_pass])

REFACTORINGS: Registry[RefactoringDef] = Registry.of(
    "refactoring",
    [
        refactor.OUTLINE_LAUNCH_DEF,
        refactor.OUTLINE_FUNCTION_DEF,
        refactor.OUTLINE_FILE_DEF,
        refactor.ASYNC_FUNCTION_DEF,
        refactor.LEGALIZE_DEF,
    ],
)


def available(site: Site) -> list[RefactoringDef]:
    """The refactorings that may apply at a site (cheap: no rewrite), in registration order.

    A chunk with errors offers only those that tolerate every one of its errors.
    """
    errors = [d for d in site.chunk.diagnostics if d.severity >= Severity.ERROR]
    out = []
    for item in REFACTORINGS:
        if errors and (item.tolerate is None or any(item.tolerate not in d.message for d in errors)):
            continue
        if item.applies(site):
            out.append(item)
    return out


def available_at(text: str, offset: int, split: bool = False) -> list[RefactoringDef]:
    """`available` at `offset` of a fresh parse of `text`."""
    return available(refactor.site_at(parse(text, split), offset))


def compute(refactoring_id: str, text: str, offset: int, split: bool = False, mlir_version: int = NEWEST) -> Refactoring:
    """The edits of one refactoring, for the LLVM `mlir_version` lowers with; raises RefactorError."""
    item = REFACTORINGS.get(refactoring_id)
    if item is None:
        raise RefactorError(f"unknown refactoring '{refactoring_id}'")
    if item.versioned:
        return item.run(text, offset, split, mlir_version=mlir_version)
    return item.run(text, offset, split)


def refactorings_at(text: str, offset: int, split: bool = False) -> list[Refactoring]:
    """Every refactoring that applies at `offset`, with its edits."""
    out = []
    for item in available_at(text, offset, split):
        try:
            out.append(item.run(text, offset, split))
        except RefactorError:
            continue
    return out
