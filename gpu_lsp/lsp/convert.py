"""Core and editor-feature values <-> lsprotocol types (ranges in the negotiated encoding)."""

from __future__ import annotations

from json.encoder import encode_basestring_ascii as _string

from lsprotocol import types

from gpu_lsp.lsp import actions as A
from gpu_lsp.lsp.completion import CompletionEntry
from gpu_lsp.lsp.diagnostic_json import DATA_VERSION, SOURCE
from gpu_lsp.lsp.document_symbols import OBJECT, SYMBOL_KINDS, WorkspaceSymbol
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.hints import InlayHint, SignatureResult
from gpu_lsp.text import Edit, TextRange

__all__ = ["SOURCE"]


def position(snap: Snapshot, offset: int) -> types.Position:
    line, character = snap.position(offset)
    return types.Position(line=line, character=character)


def lsp_range(snap: Snapshot, rng: TextRange) -> types.Range:
    return types.Range(start=position(snap, rng.start), end=position(snap, rng.end))


def offset_of(snap: Snapshot, pos: types.Position) -> int:
    return snap.offset(pos.line, pos.character)


def text_edit(snap: Snapshot, edit: Edit) -> types.TextEdit:
    return types.TextEdit(range=lsp_range(snap, edit.range), new_text=edit.new_text)


def _edit_from_json(raw: dict) -> types.TextEdit:
    r = raw["range"]
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=int(r["start"]["line"]), character=int(r["start"]["character"])),
            end=types.Position(line=int(r["end"]["line"]), character=int(r["end"]["character"])),
        ),
        new_text=str(raw["newText"]),
    )


# --- workspace edits and code actions ---------------------------------------------------------------


def workspace_edit(uri: str, version: int | None, edits: list[types.TextEdit], document_changes: bool) -> types.WorkspaceEdit:
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                    edits=edits,
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: edits})


def action(
    snap: Snapshot, act: A.Action, lsp_diagnostics: list[types.Diagnostic], document_changes: bool
) -> types.CodeAction:
    edits = [text_edit(snap, e) for e in act.edits]
    return types.CodeAction(
        title=act.title,
        kind=act.kind,
        diagnostics=lsp_diagnostics or None,
        is_preferred=act.preferred or None,
        edit=workspace_edit(snap.uri, snap.version, edits, document_changes),
    )


def fix_action_from_data(uri: str, version: int | None, d: types.Diagnostic, document_changes: bool) -> types.CodeAction | None:
    """The quick fix carried in a diagnostic's `data` (see publish.py), or None."""
    data = d.data
    if not isinstance(data, dict) or data.get("v") != DATA_VERSION:
        return None
    entry = data.get("fix")
    if not isinstance(entry, dict):
        return None
    try:
        edits = [_edit_from_json(e) for e in entry["edits"]]
        title = str(entry["title"])
    except (KeyError, TypeError, ValueError):
        return None
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[d],
        is_preferred=bool(entry.get("safe")) or None,
        edit=workspace_edit(uri, version, edits, document_changes),
    )


def has_data(d: types.Diagnostic) -> bool:
    return isinstance(d.data, dict) and d.data.get("v") == DATA_VERSION


# --- outline, completion, hints ----------------------------------------------------------------------

def workspace_symbol(sym: WorkspaceSymbol) -> types.SymbolInformation:
    return types.SymbolInformation(
        name=sym.name,
        kind=types.SymbolKind(SYMBOL_KINDS.get(sym.kind, SYMBOL_KINDS[OBJECT])),
        location=types.Location(uri=sym.uri, range=lsp_range(sym.snapshot, sym.range)),
        container_name=sym.container or None,
    )


_COMPLETION_KINDS = {
    "Variable": types.CompletionItemKind.Variable,
    "Function": types.CompletionItemKind.Function,
    "Keyword": types.CompletionItemKind.Keyword,
    "Module": types.CompletionItemKind.Module,
    "Snippet": types.CompletionItemKind.Snippet,
    "Reference": types.CompletionItemKind.Reference,
    "TypeParameter": types.CompletionItemKind.TypeParameter,
    "Constant": types.CompletionItemKind.Constant,
    "Event": types.CompletionItemKind.Event,
}


def completion_item(snap: Snapshot, entry: CompletionEntry, markdown: bool) -> types.CompletionItem:
    snippet = entry.snippet is not None
    new_text = entry.snippet if entry.snippet is not None else (entry.insert_text if entry.insert_text is not None else entry.label)
    documentation = None
    if entry.documentation:
        documentation = (
            types.MarkupContent(kind=types.MarkupKind.Markdown, value=entry.documentation)
            if markdown
            else entry.documentation
        )
    return types.CompletionItem(
        label=entry.label,
        kind=_COMPLETION_KINDS.get(entry.kind),
        detail=entry.detail or None,
        documentation=documentation,
        sort_text=entry.sort_text,
        filter_text=entry.filter_text,
        insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
        text_edit=types.TextEdit(range=lsp_range(snap, entry.replace), new_text=new_text) if entry.replace is not None else None,
        insert_text=None if entry.replace is not None else new_text,
    )


def selection_range(snap: Snapshot, chain: list[TextRange]) -> types.SelectionRange:
    """The LSP form of a non-empty chain of ranges, innermost first."""
    outermost, *inner = reversed(chain)
    node = types.SelectionRange(range=lsp_range(snap, outermost))
    for rng in inner:
        node = types.SelectionRange(range=lsp_range(snap, rng), parent=node)
    return node


def inlay_hint_json(snap: Snapshot, hint: InlayHint) -> tuple[tuple[int, int], str]:
    """(the LSP position, the JSON) of an `InlayHint` (a document shows hundreds: written out
    directly, as lsprotocol's converter writes one, at a tenth of its time)."""
    line, character = snap.position(hint.offset)
    kind = types.InlayHintKind.Parameter if hint.kind == "Parameter" else types.InlayHintKind.Type
    out = f'{{"position":{{"line":{line},"character":{character}}},"label":{_string(hint.label)},"kind":{int(kind)}'
    if hint.tooltip:
        out += f',"tooltip":{_string(hint.tooltip)}'
    if hint.padding_left:
        out += ',"paddingLeft":true'
    if hint.padding_right:
        out += ',"paddingRight":true'
    return (line, character), out + "}"


def _utf16(text: str, cp: int) -> int:
    prefix = text[:cp]
    return cp if prefix.isascii() else len(prefix.encode("utf-16-le", "surrogatepass")) // 2


def signature_help(sig: SignatureResult, markdown: bool) -> types.SignatureHelp:
    params = [
        types.ParameterInformation(label=(_utf16(sig.label, s), _utf16(sig.label, e)))
        for s, e in sig.parameters
    ]
    doc = None
    if sig.documentation:
        doc = types.MarkupContent(kind=types.MarkupKind.Markdown, value=sig.documentation) if markdown else sig.documentation
    return types.SignatureHelp(
        signatures=[types.SignatureInformation(label=sig.label, documentation=doc, parameters=params, active_parameter=sig.active)],
        active_signature=0,
        active_parameter=sig.active,
    )


def hover(snap: Snapshot, markdown: str, rng: TextRange, markdown_ok: bool) -> types.Hover:
    contents = types.MarkupContent(
        kind=types.MarkupKind.Markdown if markdown_ok else types.MarkupKind.PlainText, value=markdown
    )
    return types.Hover(contents=contents, range=lsp_range(snap, rng))
