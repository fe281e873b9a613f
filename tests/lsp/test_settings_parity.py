"""Settings parity: every server setting is a VS Code setting and a Neovim option, with the server's default."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from support import REPO

from gpu_lsp.lsp.settings import EditorSettings, parse_settings
from gpu_lsp.lsp.settings_schema import SERVER_SETTINGS, json_schema

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


def test_every_server_setting_is_a_vscode_setting() -> None:
    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    props = manifest["contributes"]["configuration"]["properties"]
    schema = json_schema()
    assert set(props) - CLIENT_ONLY == set(schema)
    for key, spec in schema.items():
        got = props[key]
        assert (got["type"], got["default"], got.get("enum")) == (spec["type"], spec["default"], spec.get("enum")), key


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
    assert defaults == _nested({s.key: s.default for s in SERVER_SETTINGS if s.default is not None})


def test_the_configuration_docs_show_every_setting_from_the_schema() -> None:
    """docs/configuration.md's table is the schema's (issue 26: `gpuLsp.lint.mlirVersion` was missing)."""
    from gpu_lsp.lsp.settings_schema import markdown_table

    docs = (REPO / "docs" / "configuration.md").read_text()
    shown = docs.split("checks it -->\n", 1)[1].split("<!-- /settings -->", 1)[0]
    assert shown == markdown_table(), "run `python -m gpu_lsp.lsp.settings_schema --markdown` and paste the table"
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
