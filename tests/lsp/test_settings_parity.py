"""Settings parity: every server setting is a VS Code setting and a Neovim option, with the server's default."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from support import REPO

from gpu_lsp.lsp.editor_files import server_defaults, vscode_setting
from gpu_lsp.lsp.manifest import SETTINGS, Setting
from gpu_lsp.lsp.settings import EditorSettings, parse_settings

SERVER_SETTINGS = [s for s in SETTINGS if s.server]
# Settings only the clients read: how to start the server and how to trace it.
CLIENT_ONLY = {"gpuLsp.server.pythonPath", "gpuLsp.server.command", "gpuLsp.server.extraArgs", "gpuLsp.trace.server"}


def _nested(values: dict[str, object]) -> dict:
    out: dict = {}
    for key, value in values.items():
        section, leaf = key.split(".")
        out.setdefault(section, {})[leaf] = value
    return out


def test_the_schema_defaults_are_the_servers() -> None:
    settings, problems = parse_settings({"gpuLsp": _nested({s.key: s.default for s in SERVER_SETTINGS})})
    assert problems == [] and settings == EditorSettings()
    bad, problems = parse_settings({"gpuLsp": {"runner": {"backend": "tpu"}}})
    assert bad == EditorSettings() and problems, "the schema's enum is what the server enforces"


def _other_value(spec: Setting) -> object:
    """A valid value of `spec` that is not its default."""
    if spec.enum and spec.type == "string":
        return next(v for v in spec.enum if v != spec.default)
    kind = spec.type[0] if isinstance(spec.type, tuple) else spec.type
    return {"array": ["GPU1"], "object": {"GPU3": "hint"}, "integer": spec.minimum or 2, "boolean": not spec.default, "number": 1.5}.get(kind, "x")


def test_the_manifest_knows_which_settings_the_server_reads() -> None:
    assert {f"gpuLsp.{s.key}" for s in SETTINGS if not s.server} == CLIENT_ONLY
    for spec in SETTINGS:
        settings, problems = parse_settings({"gpuLsp": _nested({spec.key: _other_value(spec)})})
        assert problems == [] and (settings != EditorSettings()) == spec.server, spec.key


def test_every_server_setting_is_a_vscode_setting() -> None:
    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    props = manifest["contributes"]["configuration"]["properties"]
    assert set(props) - CLIENT_ONLY == {f"gpuLsp.{s.key}" for s in SERVER_SETTINGS}
    for spec in SERVER_SETTINGS:
        got, want = props[f"gpuLsp.{spec.key}"], vscode_setting(spec)
        assert (got["type"], got["default"], got.get("enum")) == (want["type"], spec.default, want.get("enum")), spec.key


def test_every_server_setting_is_a_neovim_option() -> None:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    lua = "io.stdout:write(vim.fn.json_encode(require('gpu_lsp').config.settings))"
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "--cmd", f"set rtp^={REPO / 'editors' / 'neovim'}", "-c", f"lua {lua}", "-c", "qa!"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    defaults = json.loads(proc.stdout)
    # A Lua table cannot hold nil: a setting whose default is null (unset) is absent there.
    assert defaults == _nested({s.key: s.default for s in SERVER_SETTINGS if s.default is not None}) == server_defaults()


def test_the_configuration_docs_show_every_setting() -> None:
    """docs/configuration.md's table is the manifest's (issue 26: `gpuLsp.lint.mlirVersion` was missing)."""
    docs = (REPO / "docs" / "configuration.md").read_text()
    shown = docs.split("checks it -->\n", 1)[1].split("<!-- /settings -->", 1)[0]
    assert all(f"| `gpuLsp.{s.key}` |" in shown for s in SERVER_SETTINGS)
    vscode = (REPO / "editors" / "vscode" / "README.md").read_text()
    assert all(f"`gpuLsp.{s.key}`" in vscode for s in SERVER_SETTINGS)


def test_levels_are_spelled_as_the_linter_spells_them() -> None:
    from gpu_lsp.diagnostics.model import Severity
    from gpu_lsp.lint.config import SEVERITY_NAMES

    settings, problems = parse_settings({"gpuLsp": {"lint": {"severity": {name: name for name in SEVERITY_NAMES}}}})
    assert problems == [] and settings.severity == dict(zip(map(str.upper, SEVERITY_NAMES), SEVERITY_NAMES.values()))
    settings, problems = parse_settings({"gpuLsp": {"lint": {"severity": {"GPU3": "information"}}}})
    assert settings.severity == {} and problems == ["gpuLsp.lint.severity.GPU3 must be one of error, warning, info, hint, not 'information'"]
    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    levels = manifest["contributes"]["configuration"]["properties"]["gpuLsp.lint.severity"]["additionalProperties"]["enum"]
    assert set(levels) == set(SEVERITY_NAMES) and Severity.INFO.label == "info"
