"""The server's settings (the `gpuLsp` section) as one schema: what every editor client must offer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpu_lsp.lsp.settings import BACKENDS, EditorSettings

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
        "Report rules (codes or prefixes) at another level: error, warning, information or hint.",
    ),
    SettingSpec(
        "lint.mlirVersion",
        ["integer", "null"],
        _DEFAULTS.mlir_version,
        "The LLVM major version you compile with; null: the project's `mlir-version`, else the newest.",
    ),
    SettingSpec("runner.backend", "string", _DEFAULTS.runner_backend, "Backend used by Run on GPU.", BACKENDS),
    SettingSpec("runner.timeout", "number", _DEFAULTS.run_timeout_s, "Seconds a Run on GPU may take before it is stopped."),
    SettingSpec("runner.maxMemory", "integer", _DEFAULTS.run_max_memory, "Bytes a Run on GPU may allocate."),
    SettingSpec(
        "lit.mlirOpt",
        ["string", "null"],
        _DEFAULTS.lit_mlir_opt,
        "The mlir-opt that lit RUN lines run (Run lit test, Update CHECK lines); null: gpu-opt, in gpu-lsp.",
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


if __name__ == "__main__":
    import json

    print(json.dumps(json_schema(), indent=2))
