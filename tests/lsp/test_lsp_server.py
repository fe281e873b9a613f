"""End to end over stdio: every feature through a real client, with VS Code's and Neovim 0.7's capabilities."""

from __future__ import annotations

import warnings
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
import pytest_lsp
from lsp_client import CONFIG, RecordingClient, apply_text_edits, change_document, open_document, position, raw_request, wait_published, within
from lsp_samples import INLINE, OUTLINED, RUNNABLE, at
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LspSpecificationWarning, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

CLIENTS = ["visual-studio-code@v1.65.2", "neovim@v0.7.0"]
BROKEN = OUTLINED.replace("%t6 = gpu.dealloc async [%t5]", "%t6 = gpu.dealloc async [%t55]")
A = "file:///work/a.mlir"
B = "file:///work/b.mlir"
C = "file:///work/c.mlir"


@pytest_lsp.fixture(scope="module", params=CLIENTS, config=CONFIG)
async def client(request, lsp_client: RecordingClient):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LspSpecificationWarning)
        params = types.InitializeParams(
            capabilities=client_capabilities(request.param),
            # LLVM 22: gpu-to-llvm rejects the sample's two-dependency launch (GPU201 with a fix).
            initialization_options={"lint": {"select": [], "ignore": [], "mlirVersion": 22}, "runner": {"backend": "numpy"}},
            root_uri="file:///work",
        )
        lsp_client.init_result = await within(lsp_client.initialize_session(params))
        lsp_client.kind = request.param
        open_document(lsp_client, A, OUTLINED)
        open_document(lsp_client, B, INLINE)
        open_document(lsp_client, C, BROKEN)
        yield
        await within(lsp_client.shutdown_session())
    spec = [str(w.message) for w in caught if issubclass(w.category, LspSpecificationWarning)]
    assert spec == [], spec


def _vscode(client: RecordingClient) -> bool:
    return client.kind.startswith("visual-studio-code")


async def test_capabilities(client: RecordingClient) -> None:
    caps = client.init_result.capabilities
    assert client.init_result.server_info.name == "gpu-lsp"
    sync = caps.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Incremental and sync.open_close and sync.save
    for provider in (
        caps.hover_provider,
        caps.definition_provider,
        caps.references_provider,
        caps.document_highlight_provider,
        caps.document_symbol_provider,
        caps.workspace_symbol_provider,
        caps.rename_provider,
        caps.folding_range_provider,
        caps.selection_range_provider,
        caps.inlay_hint_provider,
        caps.code_lens_provider,
    ):
        assert provider
    assert caps.rename_provider.prepare_provider
    assert "%" in caps.completion_provider.trigger_characters
    assert "(" in caps.signature_help_provider.trigger_characters
    assert "source.fixAll.gpu-lint" in caps.code_action_provider.code_action_kinds
    assert caps.semantic_tokens_provider.full and caps.semantic_tokens_provider.range
    assert "macro" in caps.semantic_tokens_provider.legend.token_types
    assert set(caps.execute_command_provider.commands) == {
        "gpuLsp.server.runOnGpu",
        "gpuLsp.server.fixAll",
        "gpuLsp.server.runLitTest",
        "gpuLsp.server.updateCheckLines",
        "gpuLsp.server.outlineKernel",
        "gpuLsp.server.makeAsync",
    }


def _codes(params) -> list[str]:
    return [d.code for d in params.diagnostics]


def _the(params, code: str) -> types.Diagnostic:
    [d] = [d for d in params.diagnostics if d.code == code]
    return d


def _edits(client: RecordingClient, edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if _vscode(client):
        [change] = edit.document_changes
        assert change.text_document.uri == uri
        return list(change.edits)
    return list(edit.changes[uri])


async def _actions(client: RecordingClient, uri: str, d: types.Diagnostic, only=None) -> list[types.CodeAction]:
    return await within(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=d.range,
                context=types.CodeActionContext(diagnostics=[d], only=only),
            )
        )
    )


async def test_diagnostics_on_open_carry_code_docs_source_and_version(client: RecordingClient) -> None:
    published = await within(wait_published(client, C, 1))
    assert published.version == 1
    d = _the(published, "GPU003")
    assert d.source == "gpu-lint" and d.message == "use of undeclared SSA value name"
    assert d.severity == types.DiagnosticSeverity.Error
    # The link resolves: the rule's page, written from the registry (issue 26: it named a repository that does not exist).
    assert d.code_description.href.startswith("file://") and d.code_description.href.endswith("/GPU003.md")
    page = Path(url2pathname(urlparse(d.code_description.href).path)).read_text()
    assert "GPU003" in page and "undefined-value" in page
    assert d.range.start == position(BROKEN, at(BROKEN, "%t55"))
    join = _the(await within(wait_published(client, A, 1)), "GPU201")
    assert join.severity == types.DiagnosticSeverity.Warning
    assert join.data["fix"]["title"].startswith("Join %t2, %t3") and join.data["fix"]["safe"]


async def test_quick_fix_from_diagnostic_data(client: RecordingClient) -> None:
    join = _the(await within(wait_published(client, A, 1)), "GPU201")
    actions = [a for a in await _actions(client, A, join) if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in actions] == [join.data["fix"]["title"], "Ignore GPU201 on this line"]
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    fixed = apply_text_edits(OUTLINED, _edits(client, fix.edit, A))
    assert "gpu.launch_func async [%t7] @kernels::@scale" in fixed
    assert "%t7 = gpu.wait async [%t2, %t3]" in fixed
    ignored = apply_text_edits(OUTLINED, _edits(client, actions[1].edit, A))
    assert "    // gpu-lint: ignore[GPU201]\n    %t4 = gpu.launch_func" in ignored


async def test_code_actions_without_data(client: RecordingClient) -> None:
    d = _the(await within(wait_published(client, C, 1)), "GPU003")
    titles = [a.title for a in await _actions(client, C, d)]
    assert titles[:2] == ["Ignore GPU003 on this line", "Fix all auto-fixable gpu-lint problems"]
    # A client that drops `data`: the server finds the diagnostic itself.
    bare = types.Diagnostic(range=d.range, message=d.message, code=d.code, source=d.source)
    again = await _actions(client, C, bare, only=[types.CodeActionKind.QuickFix])
    assert [a.title for a in again] == ["Ignore GPU003 on this line"]
    [edit] = _edits(client, again[0].edit, C)
    assert edit.new_text == "    // gpu-lint: ignore[GPU003]\n"


async def test_fix_all_source_action(client: RecordingClient) -> None:
    join = _the(await within(wait_published(client, A, 1)), "GPU201")
    actions = await _actions(client, A, join, only=["source.fixAll"])
    assert [a.kind for a in actions] == ["source.fixAll.gpu-lint", "source.fixAll"]  # lint fixes, then legalize
    action = actions[0]
    assert "gpu.launch_func async [%t7]" in apply_text_edits(OUTLINED, _edits(client, action.edit, A))


async def test_refactorings_from_the_passes_resolve_to_edits(client: RecordingClient) -> None:
    launch = position(INLINE, at(INLINE, "gpu.launch async", 3))
    actions = await within(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=B),
                range=types.Range(start=launch, end=launch),
                context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Refactor]),
            )
        )
    )
    titles = [a.title for a in actions]
    assert titles[:3] == [
        "Outline this gpu.launch into a gpu.func",
        "Outline every gpu.launch in this function",
        "Outline every gpu.launch in this file",
    ]
    outline = actions[0]
    assert outline.kind == types.CodeActionKind.RefactorRewrite and outline.edit is None
    resolved = await within(client.code_action_resolve_async(outline))
    outlined = apply_text_edits(INLINE, _edits(client, resolved.edit, B))
    assert "gpu.launch_func async [%t0] @inline_kernel::@inline_kernel" in outlined
    assert "gpu.module @inline_kernel" in outlined and "gpu.container_module" in outlined


async def test_refactoring_commands_apply_their_edits(client: RecordingClient) -> None:
    mark = len(client.applied)
    pos = position(INLINE, at(INLINE, "gpu.launch async", 3))
    result = await within(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="gpuLsp.server.outlineKernel", arguments=[B, pos.line, pos.character])
        )
    )
    assert result == {"applied": True, "message": "Outline this gpu.launch into a gpu.func"}
    [applied] = client.applied[mark:]
    assert "gpu.launch_func async" in apply_text_edits(INLINE, _edits(client, applied.edit, B))
    with pytest.raises(JsonRpcException, match="already asynchronous|no GPU op"):
        pos = position(INLINE, at(INLINE, "cf.cond_br"))
        await within(
            client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="gpuLsp.server.makeAsync", arguments=[B, pos.line, pos.character])
            )
        )


async def test_incremental_change_republishes_for_the_new_version(client: RecordingClient) -> None:
    await within(wait_published(client, C, 1))
    mark = len(client.published)
    start = at(client.texts[C], "%t55")
    version = change_document(client, C, start, start + 4, "%t5")
    fixed = await within(wait_published(client, C, version, since=mark))
    assert "GPU003" not in _codes(fixed)
    start = at(client.texts[C], "%t5]")
    version = change_document(client, C, start, start + 3, "%t55")
    again = await within(wait_published(client, C, version, since=mark))
    assert "GPU003" in _codes(again)
    versions = [p.version for p in client.published[mark:] if p.uri == C]
    assert versions == sorted(versions)


async def test_hover(client: RecordingClient) -> None:
    result = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=A), position=position(OUTLINED, at(OUTLINED, "%t4] %host", 1)))
        )
    )
    assert result.contents.kind == types.MarkupKind.Markdown
    assert "%t4 : !gpu.async.token" in result.contents.value and "**Waits on**" in result.contents.value
    assert result.range.start == position(OUTLINED, at(OUTLINED, "%t4] %host"))


async def test_definition_references_highlight(client: RecordingClient) -> None:
    doc = types.TextDocumentIdentifier(uri=A)
    pos = position(OUTLINED, at(OUTLINED, "@scale blocks", 2))
    [loc] = await within(client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos)))
    assert loc.uri == A and loc.range.start == position(OUTLINED, at(OUTLINED, "@scale("))
    refs = await within(
        client.text_document_references_async(
            types.ReferenceParams(text_document=doc, position=pos, context=types.ReferenceContext(include_declaration=True))
        )
    )
    assert len(refs) == 2
    marks = await within(
        client.text_document_document_highlight_async(
            types.DocumentHighlightParams(text_document=doc, position=position(OUTLINED, at(OUTLINED, "%t0 = gpu", 1)))
        )
    )
    assert [m.kind for m in marks] == [types.DocumentHighlightKind.Write, types.DocumentHighlightKind.Read]


async def test_symbols(client: RecordingClient) -> None:
    symbols = await within(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=B))))
    assert [s.name for s in symbols] == ["<file-split-0>", "<file-split-1>"]
    assert symbols[0].children[0].name == "inline" and symbols[0].children[0].kind == types.SymbolKind.Function
    found = await within(client.workspace_symbol_async(types.WorkspaceSymbolParams(query="scale")))
    assert {(s.name, s.location.uri) for s in found} == {("scale", A), ("scale", C)}


async def test_completion(client: RecordingClient) -> None:
    text = OUTLINED
    line_end = text.index("\n", text.index("%t5 = gpu.memcpy"))
    typed = "\n    %t9 = gpu."
    uri = "file:///work/completion.mlir"
    open_document(client, uri, text[:line_end] + typed + text[line_end:])
    pos = position(client.texts[uri], line_end + len(typed))
    result = await within(
        client.text_document_completion_async(types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
    )
    items = {i.label: i for i in result.items}
    launch = items["gpu.launch_func @kernels::@scale"]
    if _vscode(client):
        assert launch.insert_text_format == types.InsertTextFormat.Snippet and "${1:%t5}" in launch.text_edit.new_text
    else:
        assert launch.insert_text_format == types.InsertTextFormat.PlainText and "$" not in launch.text_edit.new_text
    assert items["gpu.wait"].kind == types.CompletionItemKind.Function
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def test_rename(client: RecordingClient) -> None:
    doc = types.TextDocumentIdentifier(uri=A)
    pos = position(OUTLINED, at(OUTLINED, "@scale(", 3))
    prepared = await within(client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc, position=pos)))
    assert prepared.placeholder == "scale"
    edit = await within(client.text_document_rename_async(types.RenameParams(text_document=doc, position=pos, new_name="scale2")))
    edits = edit.document_changes[0].edits if _vscode(client) else edit.changes[A]
    assert [e.new_text for e in edits] == ["scale2", "scale2"]
    with pytest.raises(JsonRpcException, match="already defined"):
        await within(
            client.text_document_rename_async(
                types.RenameParams(text_document=doc, position=position(OUTLINED, at(OUTLINED, "%t2 = gpu", 1)), new_name="t3")
            )
        )


async def test_semantic_tokens(client: RecordingClient) -> None:
    doc = types.TextDocumentIdentifier(uri=A)
    full = await within(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc)))
    assert len(full.data) % 5 == 0 and len(full.data) > 100
    rng = types.Range(start=types.Position(line=16, character=0), end=types.Position(line=17, character=0))
    part = await within(client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=doc, range=rng)))
    assert 0 < len(part.data) < len(full.data)


async def test_folding_selection_inlay_signature(client: RecordingClient) -> None:
    doc = types.TextDocumentIdentifier(uri=A)
    folds = await within(client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)))
    assert (4, 9) in {(f.start_line, f.end_line) for f in folds}
    pos = position(OUTLINED, at(OUTLINED, "%t2, %t3]", 2))
    [sel] = await within(client.text_document_selection_range_async(types.SelectionRangeParams(text_document=doc, positions=[pos])))
    assert sel.range.start == position(OUTLINED, at(OUTLINED, "%t2, %t3]")) and sel.parent is not None
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=30, character=0))
    hints = await within(client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc, range=whole)))
    assert "buf:" in [h.label for h in hints]
    sig = await within(
        client.text_document_signature_help_async(
            types.SignatureHelpParams(text_document=doc, position=position(OUTLINED, at(OUTLINED, "%factor : f32)")))
        )
    )
    assert sig.active_parameter == 1 and sig.signatures[0].label.startswith("@kernels::@scale args(")


async def test_code_lens_and_commands(client: RecordingClient) -> None:
    # @main takes arguments, which gpu-run cannot supply: no Run lens (the command still explains why it cannot
    # run), but its async work has a graph, shown by the clients' own command (not one the server advertises).
    lenses = await within(client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=A))))
    assert [(lens.command.title, lens.command.command, list(lens.command.arguments)) for lens in lenses] == [
        ("Show async graph", "gpuLsp.showAsyncGraph", [A, "main"])
    ]
    assert "gpuLsp.showAsyncGraph" not in client.init_result.capabilities.execute_command_provider.commands
    mark = len(client.applied)
    result = await within(client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.fixAll", arguments=[A])))
    assert result["applied"] is True
    [applied] = client.applied[mark:]
    assert "gpu.launch_func async [%t7]" in apply_text_edits(OUTLINED, _edits(client, applied.edit, A))
    result = await within(client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.fixAll", arguments=[B])))
    assert result == {"applied": False, "message": "No auto-fixable problems."}
    # The first release's id (`gpu-lsp.*`, what a 0.1.0 client sends) still runs the command; it is not advertised.
    legacy = types.ExecuteCommandParams(command="gpu-lsp.fixAll", arguments=[B])
    assert await within(client.workspace_execute_command_async(legacy)) == result
    assert "gpu-lsp.fixAll" not in client.init_result.capabilities.execute_command_provider.commands
    with pytest.raises(JsonRpcException, match="no gpu.launch here"):
        await within(client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.outlineKernel", arguments=[B, 0, 0])))
    run = await within(
        client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.runOnGpu", arguments=[A, "main"])), 60
    )
    assert run["backend"] == "numpy" and not run["ok"] and "takes arguments" in run["message"]
    uri = "file:///work/run.mlir"
    open_document(client, uri, RUNNABLE)
    [lens, graph] = await within(client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))))
    assert lens.command.command == "gpuLsp.server.runOnGpu" and list(lens.command.arguments) == [uri, "main"]
    assert graph.command.command == "gpuLsp.showAsyncGraph" and list(graph.command.arguments) == [uri, "main"]
    run = await within(
        client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.runOnGpu", arguments=[uri, "@main"])), 60
    )
    assert run["ok"] and run["stdout"] == "2.5\n" and run["message"].startswith("@main finished on numpy")
    assert any(m.message == "@main: 2.5" for m in client.log_messages), "program output is streamed as log messages"
    ends = [r for reports in client.progress_reports.values() for r in reports if isinstance(r, types.WorkDoneProgressEnd)]
    assert any(r.message.startswith("@main finished") for r in ends), "the run reports progress and ends with its summary"
    with pytest.raises(JsonRpcException, match="is not open"):
        await within(client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.runOnGpu", arguments=["file:///x.mlir", "main"])))


async def test_configuration_change_refilters_diagnostics(client: RecordingClient) -> None:
    uri = "file:///work/config.mlir"
    open_document(client, uri, BROKEN)
    first = await within(wait_published(client, uri, 1))
    assert {"GPU003", "GPU201"} <= set(_codes(first))
    mark = len(client.published)
    settings = {"lint": {"ignore": ["GPU003"], "severity": {"GPU201": "error"}}}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"gpuLsp": settings}))
    second = await within(wait_published(client, uri, 1, since=mark))
    assert "GPU003" not in _codes(second) and "GPU201" in _codes(second)
    assert _the(second, "GPU201").severity == types.DiagnosticSeverity.Error
    mark = len(client.published)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"gpuLsp": {"lint": {"ignore": [], "severity": {}}}}))
    third = await within(wait_published(client, uri, 1, since=mark))
    assert _codes(third) == _codes(first)
    mark = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    closed = await within(wait_published(client, uri, None, since=mark))
    assert list(closed.diagnostics) == []


async def test_malformed_requests_get_errors_and_the_server_lives_on(client: RecordingClient) -> None:
    with pytest.raises(JsonRpcException):
        await within(raw_request(client, "textDocument/hover", {"textDocument": {}}))
    with pytest.raises(JsonRpcException):
        await within(client.workspace_execute_command_async(types.ExecuteCommandParams(command="gpuLsp.server.fixAll", arguments=[1, 2, 3])))
    unknown = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri="file:///nope.mlir"), position=types.Position(line=0, character=0))
        )
    )
    assert unknown is None
    result = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=A), position=types.Position(line=9999, character=9999))
        )
    )
    assert result is None


async def test_a_failing_handler_answers_empty_and_logs() -> None:
    from gpu_lsp.server import guarded

    logged = []

    class FakeServer:
        def log_error(self, where: str) -> None:
            logged.append(where)

    @guarded(list)
    async def broken(ls, params):
        raise RuntimeError("boom")

    assert await broken(FakeServer(), None) == []
    assert logged == ["broken"]
