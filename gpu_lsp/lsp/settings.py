"""Server settings: read from initializationOptions and didChangeConfiguration, applied to diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from gpu_lsp.diagnostics.mlir_versions import check_version
from gpu_lsp.diagnostics.model import Diagnostic, Severity

BACKENDS = ("auto", "cupy", "numpy")

# The levels as gpu-lint spells them (`severity` in its configuration, `--fail-on`): error, warning, info, hint.
LEVELS = {s.label: s for s in sorted(Severity, reverse=True)}


@dataclass(frozen=True)
class EditorSettings:
    """What the user can configure (the `gpuLsp` section)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    mlir_version: int | None = None  # None: the project's `mlir-version`, else the newest
    report_undecided: bool = False  # or the project's `report-undecided`
    runner_backend: str = "auto"
    run_timeout_s: float = 60.0
    run_max_memory: int = 4 * 2**30
    lit_mlir_opt: str | None = None  # a real mlir-opt for lit RUN lines (lsp/lit.py); None: gpu-opt
    op_definitions: tuple[str, ...] = ()  # the project's `op-definitions` files (not an editor setting)
    # (path, text) of those files as the document's registry is built from them (lsp/definition_diagnostics.py)
    op_sources: tuple[tuple[str, str], ...] = ()

    def apply(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics with the user's severity overrides (select/ignore are the linter's)."""
        if not self.severity:
            return diagnostics
        overrides = sorted(self.severity.items(), key=lambda kv: -len(kv[0]))
        out = []
        for d in diagnostics:
            for prefix, severity in overrides:
                if d.code.startswith(prefix):
                    if severity != d.severity:
                        d = replace(d, severity=severity)
                    break
            out.append(d)
        return out


def for_document(editor: EditorSettings, uri: str) -> tuple[EditorSettings, str | None]:
    """The settings one document is linted with, and a configuration problem to show (or None).

    The project's configuration comes first, exactly as `gpu-lint` reads it: the nearest
    `.gpu-lint.toml`, `gpu-lint.toml` or `pyproject.toml` with `[tool.gpu-lint]` above the
    document (`select` + `extend-select`, `ignore`, the `per-file-ignores` that match the
    document, `severity`, `mlir-version`). The editor's settings then override it: a
    non-empty `select` replaces the project's, `ignore` adds to it, `severity` wins for the
    same selector, and `mlirVersion` replaces `mlir-version`. Documents that are not files
    get the editor's settings alone.
    """
    path = file_path(uri)
    if path is None:
        return editor, None
    from gpu_lsp.lint.config import ConfigError, settings_for_document
    from gpu_lsp.lint.rules import known_codes

    try:
        project = settings_for_document(path, known_codes())
    except ConfigError as exc:
        return editor, str(exc)
    except OSError:  # no configuration can be looked up (a path longer than PATH_MAX): the editor's settings
        return editor, None
    ignore = project.ignore + tuple(
        code for _, codes in project.matching_file_ignores(str(path)) for code in codes
    )
    severity = {("GPU" if k == "ALL" else k): v for k, v in project.severity}
    severity.update(editor.severity)
    return (
        replace(
            editor,
            select=editor.select or project.select + project.extend_select,
            ignore=ignore + editor.ignore,
            severity=severity,
            mlir_version=editor.mlir_version if editor.mlir_version is not None else project.mlir_version,
            report_undecided=editor.report_undecided or project.report_undecided,
            op_definitions=project.op_definitions,
        ),
        None,
    )


def file_path(uri: str) -> Path | None:
    """The path of a `file:` URI; None for another scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(url2pathname(unquote(parsed.path)))


def _section(raw: Any) -> dict:
    """The `gpuLsp` section of whatever the client sent (wrapped, dotted or bare)."""
    if not isinstance(raw, dict):
        return {}
    if isinstance(raw.get("gpuLsp"), dict):
        return raw["gpuLsp"]
    dotted = {k[len("gpuLsp.") :]: v for k, v in raw.items() if isinstance(k, str) and k.startswith("gpuLsp.")}
    if dotted:
        nested: dict = {}
        for key, value in dotted.items():
            node = nested
            *parents, leaf = key.split(".")
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = value
        return nested
    return raw


def _codes(value: Any, name: str, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"gpuLsp.lint.{name} must be a list of rule codes or prefixes")
        return None
    return tuple(v.strip().upper() for v in value if v.strip())


class SettingProblems:
    """What was wrong with the user's settings: each problem is told once (window/showMessage) while it lasts."""

    def __init__(self) -> None:
        self._told: set[str] = set()

    def new(self, problems: list[str]) -> list[str]:
        """The problems of the settings just read that the user was not told about yet."""
        fresh = [p for p in problems if p not in self._told]
        self._told = set(problems)
        return fresh


def parse_settings(raw: Any, base: EditorSettings | None = None) -> tuple[EditorSettings, list[str]]:
    """Settings from a client payload, starting from `base`; also the problems found.

    Unknown or malformed values are reported and leave the base value in place.
    """
    settings = base or EditorSettings()
    problems: list[str] = []
    section = _section(raw)
    lint = section.get("lint")
    if isinstance(lint, dict):
        select = _codes(lint.get("select"), "select", problems)
        ignore = _codes(lint.get("ignore"), "ignore", problems)
        severity = dict(settings.severity)
        raw_sev = lint.get("severity")
        if isinstance(raw_sev, dict):
            severity = {}
            for code, name in raw_sev.items():
                level = LEVELS.get(name) if isinstance(name, str) else None
                if level is None:
                    problems.append(f"gpuLsp.lint.severity.{code} must be one of {', '.join(LEVELS)}, not {name!r}")
                    continue
                severity[str(code).upper()] = level
        elif raw_sev is not None:
            problems.append(f"gpuLsp.lint.severity must map rule codes to {', '.join(LEVELS)}")
        if "mlirVersion" in lint:
            version = lint["mlirVersion"]
            try:
                settings = replace(settings, mlir_version=None if version is None else check_version(version))
            except ValueError as exc:
                problems.append(f"gpuLsp.lint.mlirVersion {exc}")
        undecided = lint.get("reportUndecided", settings.report_undecided)
        if isinstance(undecided, bool):
            settings = replace(settings, report_undecided=undecided)
        else:
            problems.append(f"gpuLsp.lint.reportUndecided must be true or false, not {undecided!r}")
        settings = replace(
            settings,
            select=settings.select if select is None else select,
            ignore=settings.ignore if ignore is None else ignore,
            severity=severity,
        )
    elif lint is not None:
        problems.append("gpuLsp.lint must be an object")
    runner = section.get("runner")
    if isinstance(runner, dict):
        backend = runner.get("backend")
        if backend is not None:
            if backend in BACKENDS:
                settings = replace(settings, runner_backend=backend)
            else:
                problems.append(f"gpuLsp.runner.backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        timeout = runner.get("timeout")
        if timeout is not None:
            if isinstance(timeout, (int, float)) and timeout > 0:
                settings = replace(settings, run_timeout_s=float(timeout))
            else:
                problems.append("gpuLsp.runner.timeout must be a positive number of seconds")
        max_memory = runner.get("maxMemory")
        if max_memory is not None:
            if isinstance(max_memory, int) and not isinstance(max_memory, bool) and max_memory > 0:
                settings = replace(settings, run_max_memory=max_memory)
            else:
                problems.append("gpuLsp.runner.maxMemory must be a positive number of bytes")
    elif runner is not None:
        problems.append("gpuLsp.runner must be an object")
    lit = section.get("lit")
    if isinstance(lit, dict) and "mlirOpt" in lit:
        path = lit["mlirOpt"]
        if path is None or isinstance(path, str):
            settings = replace(settings, lit_mlir_opt=path or None)
        else:
            problems.append("gpuLsp.lit.mlirOpt must be the path of an mlir-opt, or null")
    elif lit is not None and not isinstance(lit, dict):
        problems.append("gpuLsp.lit must be an object")
    return settings, problems
