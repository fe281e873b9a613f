"""The editor manifest (lsp/manifest.py) is the one declaration: every file derived from it is current."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from support import REPO

from gpu_lsp.lsp import commands, editor_files
from gpu_lsp.lsp import manifest as M

DERIVED = [editor_files.PACKAGE_JSON, editor_files.TS_IDS, editor_files.LUA_TABLES, editor_files.CONFIG_DOC, editor_files.ADVERTISED]


def test_the_generated_files_are_current() -> None:
    assert editor_files.stale(REPO) == [], "run `python -m gpu_lsp.lsp.editor_files --write`"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in DERIVED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


def test_a_stale_file_is_found_and_only_the_derived_parts_are_rewritten(checkout: Path) -> None:
    package = checkout / editor_files.PACKAGE_JSON
    data = json.loads(package.read_text())
    data["version"] = "9.9.9"  # hand-written: kept
    data["contributes"]["commands"].pop()
    package.write_text(json.dumps(data, indent=2) + "\n")
    lua = checkout / editor_files.LUA_TABLES
    lua.write_text(lua.read_text().replace("GpuLspFixAll", "GpuLspFixEverything"))
    doc = checkout / editor_files.CONFIG_DOC
    doc.write_text(doc.read_text().replace("| `gpuLsp.runner.timeout` |", "| `gpuLsp.runner.timeoutSeconds` |"))
    assert sorted(editor_files.stale(checkout)) == sorted([editor_files.PACKAGE_JSON, editor_files.LUA_TABLES, editor_files.CONFIG_DOC])
    editor_files.write(checkout)
    assert editor_files.stale(checkout) == []
    assert json.loads(package.read_text())["version"] == "9.9.9"
    assert package.read_text() == (REPO / editor_files.PACKAGE_JSON).read_text().replace('"version": "0.1.0"', '"version": "9.9.9"')
    assert lua.read_text() == (REPO / editor_files.LUA_TABLES).read_text()


def test_a_checkout_without_the_editors_is_one_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(editor_files.ManifestError, match="not found: run this in a gpu-lsp checkout"):
        editor_files.stale(tmp_path)
    for name in DERIVED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{")
    with pytest.raises(editor_files.ManifestError, match="package.json is not JSON"):
        editor_files.stale(tmp_path)
    assert editor_files.main(["--bogus"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_command_ids_have_one_style() -> None:
    for command in M.CLIENT_COMMANDS:
        assert re.fullmatch(r"gpuLsp\.[a-z][A-Za-z]+", command.id), command.id
    for command in commands.advertised():
        assert re.fullmatch(r"gpuLsp\.server\.[a-z][A-Za-z]+", command), command
    assert set(M.RELEASED_ALIASES.values()) <= set(commands.advertised()), "an alias stands for an advertised command"
    assert all(commands.canonical(alias) == target for alias, target in M.RELEASED_ALIASES.items())


def test_every_neovim_command_has_a_handler() -> None:
    init = (REPO / "editors" / "neovim" / "lua" / "gpu_lsp" / "init.lua").read_text()
    handled = {f"gpuLsp.{name}" for name in re.findall(r"^  \[CLIENT\.(\w+)\] = \{", init, re.M)}
    assert handled == {c.id for c in M.CLIENT_COMMANDS if c.nvim}


def test_one_new_entry_reaches_every_derived_file(checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(M, "SETTINGS", (*M.SETTINGS, M.Setting("lint.toy", "boolean", True, "A toy setting.")))
    monkeypatch.setattr(M, "CLIENT_COMMANDS", (*M.CLIENT_COMMANDS, M.ClientCommand("gpuLsp.toy", "Toy", "a toy", nvim="GpuLspToy")))
    assert sorted(editor_files.stale(checkout)) == sorted([editor_files.PACKAGE_JSON, editor_files.TS_IDS, editor_files.LUA_TABLES, editor_files.CONFIG_DOC])
    editor_files.write(checkout)
    package = json.loads((checkout / editor_files.PACKAGE_JSON).read_text())
    assert package["contributes"]["configuration"]["properties"]["gpuLsp.lint.toy"]["default"] is True
    assert package["contributes"]["commands"][-1] == {"command": "gpuLsp.toy", "title": "Toy", "category": "GPU LSP"}
    assert {"command": "gpuLsp.toy", "when": "editorLangId == mlir"} in package["contributes"]["menus"]["commandPalette"]
    lua = (checkout / editor_files.LUA_TABLES).read_text()
    assert "      toy = true,\n" in lua and "{ name = 'GpuLspToy', command = 'gpuLsp.toy', nargs = 0, desc = 'gpu-lsp: a toy' }" in lua
    assert "  toy: 'gpuLsp.toy',\n" in (checkout / editor_files.TS_IDS).read_text()
    assert "| `gpuLsp.lint.toy` | boolean | `true` | A toy setting. |\n" in (checkout / editor_files.CONFIG_DOC).read_text()
