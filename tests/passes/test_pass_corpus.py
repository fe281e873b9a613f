"""The passes on every chunk of the whole corpus: outputs re-parse to the same IR and verify upstream.

For every `// -----` chunk of every corpus file that both gpu-lsp and the
oracle accept, `sink + outline` and `outline + async-region` run; the printed
output must re-parse here without diagnostics to the same IR and verify under
the oracle. The passes' own failures must be upstream's (§2.5).

Known failures outside the passes (xfail; XPASS once fixed):
* mapping.mlir: `scf.parallel` does not survive printing and re-parsing (printer/reader);
* module-to-binary-nvvm.mlir, ops.mlir: `#gpu.select_object<1>` re-parses as
  `<1 : i64>` (attribute printing);
* lower-sparse-to-gpu-runtime-calls.mlir, sparse-roundtrip.mlir after async-region:
  the sparse ops' readers keep operands in syntax order rather than ODS order, so
  the generic form of an op async-region changed is rejected upstream.
"""

from __future__ import annotations

import functools

import pytest
from passes_support import OUTLINE_ASYNC, SINK_OUTLINE, assert_same_ir, run
from support import oracle
from support.corpus import corpus_files, split_chunks

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

pytestmark = pytest.mark.skipif(not oracle.available(), reason="numba-cuda-mlir (the oracle) is not installed")

EXPECTED_FAILURES = {
    ("outlining-invalid-symbol.mlir", 0): "failed to outline gpu kernel: symbol 'unknown_func' not found",
    ("outlining-invalid-symbol.mlir", 1): "failed to outline gpu kernel: found invalid symbol reference: @nested::@ref",
}
KNOWN = {
    ("mapping.mlir", 0, "*"): "scf.parallel print/re-parse round trip",
    ("mapping.mlir", 1, "*"): "scf.parallel print/re-parse round trip",
}
PIPELINES = {"outline": SINK_OUTLINE, "async": OUTLINE_ASYNC}


@functools.cache
def _oracle():
    mod = oracle.module()
    backend = oracle.backend()
    return mod, backend


def oracle_errors(text: str) -> list[str]:
    mod, backend = _oracle()
    result = mod.Oracle(backend, True, False).run_chunk(mod.Chunk(text, 0, 1, 0))
    return [d.message for d in result.diags if d.severity == "error"]


@functools.cache
def _valid_chunks() -> tuple[tuple[str, int, str], ...]:
    """Chunks both gpu-lsp and upstream accept (the others are tests of diagnostics, not of passes)."""
    if not oracle.available():
        return ()
    out = []
    for path in corpus_files():
        for k, chunk in enumerate(split_chunks(path.read_text(encoding="utf-8"))):
            parsed = parse(chunk.text).chunks[0]
            if any(d.severity >= Severity.ERROR for d in verify_chunk(parsed)) or oracle_errors(chunk.text):
                continue
            out.append((path.name, k, chunk.text))
    return tuple(out)


def _cases(known: dict = KNOWN):
    cases = []
    for name, k, text in _valid_chunks():
        for key in PIPELINES:
            marks = []
            for (file, index, which), reason in known.items():
                if file == name and index == k and which in ("*", key):
                    marks.append(pytest.mark.xfail(reason=reason, strict=False))
            cases.append(pytest.param(name, k, text, key, id=f"{name}-{k}-{key}", marks=marks))
    return cases


@pytest.mark.parametrize("file, index, text, key", _cases())
def test_pass_output_reparses_and_verifies(file: str, index: int, text: str, key: str) -> None:
    module, failure = run(text, PIPELINES[key])
    expected = EXPECTED_FAILURES.get((file, index))
    if expected is not None:
        assert failure is not None and expected in failure.diagnostics[0].message
        return
    assert failure is None, [d.message for d in failure.diagnostics]
    printed = print_module(module, source=text)
    reparsed = parse(printed).chunks[0]
    problems = [d.message for d in verify_chunk(reparsed) if d.severity >= Severity.WARNING]
    assert not problems, problems
    assert_same_ir(module, reparsed.module, "re-parse")
    assert oracle_errors(printed) == []


@pytest.mark.parametrize("file, index, text, key", _cases({}))
def test_edits_reproduce_the_pass_output(file: str, index: int, text: str, key: str) -> None:
    """The edit round trip (see test_edits.py) on every valid corpus chunk."""
    from test_edits import pipeline, roundtrip

    if (file, index) in EXPECTED_FAILURES:
        _, failure = run(text, PIPELINES[key])
        assert failure is not None, "the pass must fail on this chunk, as upstream's does"
        return
    roundtrip(text, pipeline(PIPELINES[key]), f"{file} chunk {index} {key}")
