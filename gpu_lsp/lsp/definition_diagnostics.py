"""The errors of a project's op-definitions files as publishDiagnostics messages for those files."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from gpu_lsp.ir.opdefs.definition_file import DefinitionError
from gpu_lsp.lint.op_definitions import declare_op_definitions
from gpu_lsp.lsp.publish import publish_message


def _item(error: DefinitionError) -> str:
    start = {"line": error.line, "character": error.start}
    end = {"line": error.line, "character": max(error.end, error.start)}
    return json.dumps({"range": {"start": start, "end": end}, "severity": 1, "source": "gpu-lsp", "message": error.message})


def definition_messages(paths: Iterable[str], published: dict[str, tuple[str, ...]]) -> list[str]:
    """Declare the files' ops; a message for each file whose errors differ from `published` (updated in place)."""
    paths = tuple(paths)
    found: dict[str, list[str]] = {path: [] for path in paths}
    for path, error in declare_op_definitions(paths):
        found[path].append(_item(error))
    messages = []
    for path, items in found.items():
        if published.get(path, ()) != tuple(items):
            published[path] = tuple(items)
            messages.append(publish_message(Path(path).as_uri(), None, items))
    return messages
