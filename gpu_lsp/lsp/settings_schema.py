"""The server's settings (the `gpuLsp` section) as one schema: what every editor client must offer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpu_lsp.lsp.settings import BACKENDS, LEVELS, EditorSettings

_DEFAULTS = EditorSettings()


@dataclass(frozen=True)
class SettingSpec:
    """One server setting: its dotted key under `gpuLsp`, JSON type, default and choices."""

    key: str
    type: str | list[str]
    default: Any
    description: str
    enum: tuple[str, ...] = ()


SERVER_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("lint.select", "array", list(_DEFAULTS.select), "Lint rule codes or prefixes to enable; empty: the default set."),
    SettingSpec("lint.ignore", "array", list(_DEFAULTS.ignore), "Lint rule codes or prefixes to disable."),
    SettingSpec(
        "lint.severity",
        "object",
        {code: level.name.lower() for code, level in _DEFAULTS.severity.items()},
        f"Report rules (codes or prefixes) at another level: {', '.join(list(LEVELS)[:-1])} or {list(LEVELS)[-1]} "
        "(as gpu-lint spells them).",
    ),
    SettingSpec(
        "lint.mlirVersion",
        ["integer", "null"],
        _DEFAULTS.mlir_version,
        "The LLVM major version you compile with; null: the project's `mlir-version`, else the newest.",
    ),
    SettingSpec(
        "lint.reportUndecided",
        "boolean",
        _DEFAULTS.report_undecided,
        "An info for each kernel access GPU416/GPU417 cannot decide, saying why; false: the project's `report-undecided`.",
    ),
    SettingSpec("runner.backend", "string", _DEFAULTS.runner_backend, "Backend used by Run on GPU.", BACKENDS),
    SettingSpec("runner.timeout", "number", _DEFAULTS.run_timeout_s, "Seconds a Run on GPU may take before it is stopped."),
    SettingSpec("runner.maxMemory", "integer", _DEFAULTS.run_max_memory, "Bytes a Run on GPU may allocate."),
    SettingSpec(
        "lit.mlirOpt",
        ["string", "null"],
        _DEFAULTS.lit_mlir_opt,
        "The mlir-opt that lit RUN lines (Run lit test, Update CHECK lines) and Show IR after each pass run; null: gpu-opt, in gpu-lsp.",
    ),
)


def json_schema() -> dict[str, dict[str, Any]]:
    """The settings as VS Code's `contributes.configuration.properties` spells them (`gpuLsp.<key>`)."""
    out: dict[str, dict[str, Any]] = {}
    for spec in SERVER_SETTINGS:
        entry: dict[str, Any] = {"type": spec.type, "default": spec.default, "description": spec.description}
        if spec.enum:
            entry["enum"] = list(spec.enum)
        out[f"gpuLsp.{spec.key}"] = entry
    return out


def markdown_table() -> str:
    """The settings as the Markdown table docs/configuration.md shows (checked by tests/lsp/test_settings_parity.py)."""
    import json

    rows = ["| Setting | Type | Default | Meaning |", "|---|---|---|---|"]
    for spec in SERVER_SETTINGS:
        kind = " or ".join(spec.type) if isinstance(spec.type, list) else spec.type
        if spec.enum:
            kind += ": " + ", ".join(f"`{v}`" for v in spec.enum)
        rows.append(f"| `gpuLsp.{spec.key}` | {kind} | `{json.dumps(spec.default)}` | {spec.description} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    import json
    import sys

    sys.stdout.write(markdown_table() if sys.argv[1:] == ["--markdown"] else json.dumps(json_schema(), indent=2) + "\n")
