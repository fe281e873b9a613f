"""lit tests, formatting and pipelines through the language server (pytest-lsp): Run lenses, failures
as diagnostics, Update CHECK lines; textDocument/formatting and rangeFormatting; gpu-lsp/pipelineSteps."""

from __future__ import annotations

import pytest
from lsp_client import RecordingClient, apply_text_edits, client_fixture, raw_request, wait_published, within
from lsp_samples import FAILING_CHUNK, LIT_RUN
from lsprotocol import types
from support import oracle

from gpu_lsp.cli.gpu_opt import InProcess
from gpu_lsp.lit.runner import run_file

pytestmark = pytest.mark.asyncio(loop_scope="module")

T = "file:///work/t.mlir"
F = "file:///work/f.mlir"
MESSY = "// keep me\nfunc.func @f(%a: index,   %b : index) -> index {\n    %x = arith.addi %a,%b : index  // why\n  return %x : index\n}\n"
TIDY = "// keep me\nfunc.func @f(%a: index, %b: index) -> index {\n  %x = arith.addi %a, %b : index  // why\n  return %x : index\n}\n"
TEST = LIT_RUN + "\n// CHECK-LABEL: func.func @one\nfunc.func @one() {\n  return\n}\n\n// -----\n\n" + FAILING_CHUNK


client = client_fixture("file:///work", ((T, TEST), (F, MESSY)), settled=(T,))


async def _run(client: RecordingClient, *args: object) -> dict:
    params = types.ExecuteCommandParams(command="gpuLsp.server.runLitTest", arguments=[T, *args])
    return await within(client.workspace_execute_command_async(params), 60)


async def test_lenses_run_the_test_and_its_chunks(client: RecordingClient) -> None:
    lenses = await within(client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=T))))
    runs = [lens for lens in lenses if lens.command.command == "gpuLsp.server.runLitTest"]
    got = [(lens.range.start.line, lens.command.title, list(lens.command.arguments[1:])) for lens in runs]
    assert got == [(0, "▶ Run lit test", [1, 0]), (3, "▶ Run chunk 1", [0, 1]), (11, "▶ Run chunk 2", [0, 2])]


async def test_a_run_publishes_the_failed_check_line(client: RecordingClient) -> None:
    mark = len(client.published)
    result = await _run(client, 1, 0)
    assert (result["passed"], result["failed"], result["message"]) == (1, 1, "lit: 1 passed, 1 failed")
    published = await wait_published(client, T, since=mark)
    [lit] = [d for d in published.diagnostics if d.source == "gpu-lit"]
    assert lit.range.start.line == 10 and lit.message.startswith("RUN 1, chunk 2: Couldn't match")
    assert [r.message for r in lit.related_information] == ["expected: arith.muli", "closest output line 9: %0 = arith.addi %arg0, %arg0 : i32"]


async def test_update_check_lines_is_a_code_action_whose_edit_makes_the_chunk_pass(client: RecordingClient) -> None:
    # Raw JSON: pygls' client reads a CodeAction that carries a Command as a Command.
    params = {"textDocument": {"uri": T}, "range": {"start": {"line": 12, "character": 0}, "end": {"line": 12, "character": 0}}, "context": {"diagnostics": []}}
    actions = await within(raw_request(client, "textDocument/codeAction", params))
    [update] = [a for a in actions if isinstance(a.get("command"), dict) and a["command"]["command"] == "gpuLsp.server.updateCheckLines"]
    assert (update["title"], update["kind"], update["command"]["arguments"]) == ("Update CHECK lines of chunk 2", "refactor.rewrite", [T, 1, 2])
    mark = len(client.applied)
    cmd = types.ExecuteCommandParams(command="gpuLsp.server.updateCheckLines", arguments=[T, 1, 2])
    result = await within(client.workspace_execute_command_async(cmd), 60)
    assert result["applied"] is True
    [applied] = client.applied[mark:]
    [change] = applied.edit.document_changes
    [edit] = change.edits
    updated = apply_text_edits(TEST, [edit])
    assert updated.split("// -----")[0] == TEST.split("// -----")[0]
    assert "// CHECK: arith.muli" not in updated and "%[[VAL_0:.*]] = arith.addi %[[ARG0]], %[[ARG0]] : i32" in updated
    assert [r.passed for r in run_file(updated, "t.mlir", InProcess()).results] == [True, True]


async def test_formatting_and_range_formatting(client: RecordingClient) -> None:
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    doc = types.TextDocumentIdentifier(uri=F)
    edits = await within(client.text_document_formatting_async(types.DocumentFormattingParams(text_document=doc, options=options)))
    assert apply_text_edits(MESSY, edits) == TIDY
    line2 = types.Range(start=types.Position(line=2, character=0), end=types.Position(line=2, character=5))
    params = types.DocumentRangeFormattingParams(text_document=doc, range=line2, options=options)
    edits = await within(client.text_document_range_formatting_async(params))
    assert apply_text_edits(MESSY, edits) == MESSY.replace("    %x = arith.addi %a,%b : index", "  %x = arith.addi %a, %b : index")


def _get(obj: object, key: str) -> object:
    """A field of a raw JSON result (pygls gives plain dicts or named tuples)."""
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


async def test_pipeline_steps_and_the_pass_list(client: RecordingClient) -> None:
    params = {"textDocument": {"uri": T}, "pipeline": "gpu-kernel-outlining", "line": 3}
    steps = _get(await within(raw_request(client, "gpu-lsp/pipelineSteps", params)), "steps")
    assert [_get(s, "name") for s in steps] == ["input", "gpu-kernel-outlining"]
    text = str(_get(steps[0], "text"))
    assert text.startswith("module {\n  func.func @one() {") and "@two" not in text
    assert [list(o) for o in _get(steps[0], "origins")][:2] == [[1, 3, 0], [2, 4, 2]]  # func.func @one, return: lines 4 and 5
    with pytest.raises(Exception, match="invalid pass pipeline 'nope'"):
        await within(raw_request(client, "gpu-lsp/pipelineSteps", {"textDocument": {"uri": T}, "pipeline": "nope"}))
    names = [_get(p, "name") for p in await within(raw_request(client, "gpu-lsp/passes", {}))]
    assert "gpu-kernel-outlining" in names and names == sorted(names)


async def test_pipeline_steps_through_a_configured_mlir_opt(client: RecordingClient, tmp_path) -> None:
    """The setting's program runs the pipeline; its steps are MLIR's own -mlir-print-ir-after-all dump."""
    mlir_opt = oracle.mlir_opt_standin(tmp_path)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"gpuLsp": {"lit": {"mlirOpt": mlir_opt}}}))
    try:
        params = {"textDocument": {"uri": T}, "pipeline": "func.func(canonicalize),symbol-privatize", "line": 12}
        steps = _get(await within(raw_request(client, "gpu-lsp/pipelineSteps", params), 60), "steps")
        assert [_get(s, "name") for s in steps] == ["input", "canonicalize @two", "symbol-privatize"]
        two = "func.func @two(%arg0: i32) -> i32 {\n    %0 = arith.addi %arg0, %arg0 : i32\n    return %0 : i32\n  }"
        assert _get(steps[0], "text") == _get(steps[1], "text") == f"module {{\n  {two}\n}}\n"
        assert _get(steps[2], "text") == f"module {{\n  {two.replace('@two', 'private @two')}\n}}\n"
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"gpuLsp": {"lit": {"mlirOpt": None}}}))
