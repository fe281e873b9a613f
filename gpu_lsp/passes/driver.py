"""The passes as gpu-opt runs them: one function per flag, and `--pass-pipeline`."""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.ir.core import Operation
from gpu_lsp.passes.base import PassFailure, to_diagnostics
from gpu_lsp.passes.catalog import PASSES
from gpu_lsp.passes.pipeline import Nest, PassSpec, PipelineError, parse_pipeline, run_pipeline
from gpu_lsp.text import TextRange


def _fallback(module: Operation) -> TextRange:
    return module.range or TextRange(0, 0)


def run_nest_diagnostics(nest: Nest, module: Operation) -> list[Diagnostic]:
    """Run a pipeline; a failure comes back as error diagnostics."""
    try:
        run_pipeline(nest, module)
    except PassFailure as exc:
        return to_diagnostics(exc, _fallback(module))
    return []


def option_error(name: str, options: dict[str, str]) -> str | None:
    """Why `-name=options` is not a valid pass flag (an option the pass does not have), or None."""
    allowed = PASSES[name].options
    unknown = [key for key in options if key not in allowed]
    return f"'{name}' does not have an option named '{unknown[0]}'" if unknown else None


def _flag(name: str) -> Callable[..., list[Diagnostic]]:
    def run(module: Operation, **options: str) -> list[Diagnostic]:
        nest = Nest("builtin.module")
        nest.add(PassSpec(name, dict(options)))
        return run_nest_diagnostics(nest, module)

    run.__name__ = name.replace("-", "_")
    return run


def flag_pass(name: str) -> Callable[..., list[Diagnostic]] | None:
    """The runner of `-name[=options]` (e.g. `-gpu-kernel-outlining=data-layout-str=...`); None when
    no pass has that name."""
    return _flag(name) if name in PASSES else None


def pass_pipeline(text: str) -> Callable[..., list[Diagnostic]]:
    """`--pass-pipeline='builtin.module(...)'` as one runner; raises PipelineError when malformed."""
    nest = parse_pipeline(text)

    def run(module: Operation, **_options: str) -> list[Diagnostic]:
        return run_nest_diagnostics(nest, module)

    return run


__all__ = ["PipelineError", "flag_pass", "option_error", "pass_pipeline"]
