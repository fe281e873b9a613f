"""Import boundaries of the language server: pygls and lsprotocol stay at the edge."""

from __future__ import annotations

import ast
from pathlib import Path

from support import REPO

PACKAGE = REPO / "gpu_lsp"
PROTOCOL_MODULES = {"gpu_lsp/server.py", "gpu_lsp/lsp/convert.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def _modules() -> dict[str, set[str]]:
    return {str(p.relative_to(REPO)): _imports(p) for p in PACKAGE.rglob("*.py")}


def test_only_the_server_and_convert_speak_lsprotocol() -> None:
    for path, imports in _modules().items():
        protocol = {m for m in imports if m.split(".")[0] in ("pygls", "lsprotocol")}
        if path not in PROTOCOL_MODULES:
            assert not protocol, f"{path} imports {sorted(protocol)}"


def test_the_core_never_imports_the_language_server() -> None:
    for path, imports in _modules().items():
        if path.startswith("gpu_lsp/lsp/") or path in ("gpu_lsp/server.py", "gpu_lsp/__main__.py"):
            continue
        front = {m for m in imports if m.startswith(("gpu_lsp.lsp", "gpu_lsp.server"))}
        assert not front, f"{path} imports {sorted(front)}"


def test_the_bootstrap_imports_only_the_standard_library_up_front() -> None:
    tree = ast.parse((PACKAGE / "lsp" / "bootstrap.py").read_text(encoding="utf-8"))
    top = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            top.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module)
    assert top <= {"__future__", "json", "os", "sys", "typing"}, top


def test_the_workers_start_imports_only_the_standard_library() -> None:
    """The bootstrap starts the lint workers' forkserver before its own imports: `worker_start` adds none."""
    tree = ast.parse((PACKAGE / "lsp" / "worker_start.py").read_text(encoding="utf-8"))
    found = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    found |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    roots = {name.split(".")[0] for name in found}
    assert roots <= {"__future__", "contextlib", "logging", "multiprocessing", "os", "site", "sys"}, roots
