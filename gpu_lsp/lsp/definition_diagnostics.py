"""A document's op-definitions in the server: its configuration's registry made active, the files' errors as
publishDiagnostics messages for those files, and which open documents a changed file concerns."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from gpu_lsp.ir.opdefs.definition_file import DefinitionError
from gpu_lsp.ir.opdefs.registry import OpRegistry, activate
from gpu_lsp.lint.config import CONFIG_NAMES
from gpu_lsp.lint.op_definitions import Definitions, definitions_for
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.publish import publish_message
from gpu_lsp.lsp.settings import EditorSettings, file_path, for_document


def _item(error: DefinitionError) -> str:
    start = {"line": error.line, "character": error.start}
    end = {"line": error.line, "character": max(error.end, error.start)}
    return json.dumps({"range": {"start": start, "end": end}, "severity": 1, "source": "gpu-lsp", "message": error.message})


@functools.lru_cache(maxsize=64)
def _items(found: Definitions, paths: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each file's errors as diagnostics' JSON (computed once per state of the files)."""
    return tuple((path, tuple(_item(error) for where, error in found.errors if where == path)) for path in paths)


def use_definitions(settings: EditorSettings, published: dict[str, tuple[str, ...]]) -> tuple[EditorSettings, OpRegistry, list[str]]:
    """Activate the registry of the settings' `op-definitions` (files re-read when changed); the settings with
    the texts it is built from (`op_sources`: part of the lint key, sent to lint workers), the registry, and a
    message for each file whose errors differ from `published` (updated in place)."""
    found = definitions_for(settings.op_definitions)
    activate(found.registry)
    messages = []
    for path, mine in _items(found, settings.op_definitions):
        if published.get(path, ()) != mine:
            published[path] = mine
            messages.append(publish_message(Path(path).as_uri(), None, list(mine)))
    if settings.op_sources is not found.registry.sources:
        settings = replace(settings, op_sources=found.registry.sources)
    return settings, found.registry, messages


def concerned(changed: Iterable[str], documents: Iterable[Document], editor: EditorSettings) -> list[str]:
    """The open documents a change of the files `changed` (URIs) may change: all of them for a configuration
    file, else those whose configuration (under the `editor`'s settings) declares ops from one of them."""
    targets = [path for path in map(file_path, changed) if path is not None]
    if any(target.name in CONFIG_NAMES for target in targets):
        return [doc.uri for doc in documents]
    if not targets:
        return []
    resolved = {target.resolve() for target in targets}
    return [
        doc.uri for doc in documents
        if any(Path(path).resolve() in resolved for path in for_document(editor, doc.uri)[0].op_definitions)
    ]
