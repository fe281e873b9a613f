"""Every upstream corpus chunk that upstream MLIR accepts parses here with no error, with its real syntax.

For each `// -----` chunk of every file under ../shared/corpus and ../shared/corpus-extended, the oracle (upstream MLIR,
in process) says whether it parses and verifies with no diagnostic. Each chunk it accepts
must parse here with no error-severity diagnostic, every op of the dialects around GPU
code must be read with its own custom syntax (no opaque fallback, no "not known" hint),
and the result types and entry-block argument types must be upstream's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pytest
from support import SHARED, oracle
from support.corpus import all_corpus_files, split_chunks

from gpu_lsp.diagnostics.mlir_versions import OP_PIECES
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.parser.api import Chunk as ParsedChunk
from gpu_lsp.parser.api import parse

# Dialects whose ops must be read with their custom syntax; ops of other dialects
# (test, linalg, ...) may stay opaque with a GPU006 hint.
SURROUNDING = frozenset(
    ["builtin", "func", "arith", "gpu", "memref", "scf", "cf", "math", "index", "async", "vector"]
    + ["llvm", "nvvm", "rocdl", "spirv", "affine", "tensor", "transform"]
)

# Chunk id ("<path under the corpus>#<chunk index>") -> why it may still report errors here.
# Only for ops newer than the oracle's MLIR; none are needed at present.
EXCEPTIONS: dict[str, str] = {}

# Terminators upstream inserts when the text leaves them implicit.
IMPLICIT_TERMINATORS = frozenset(
    ("scf.yield", "gpu.yield", "gpu.terminator", "affine.yield", "scf.forall.in_parallel", "vector.yield", "scf.reduce")
)
_BLANKS = re.compile(r"\s+")


@dataclass(frozen=True)
class CorpusChunk:
    """One chunk of a corpus file, with what upstream said about it."""

    id: str
    text: str
    parsed: ParsedChunk
    oracle_diagnostics: tuple[str, ...]
    oracle_signature: tuple | None  # upstream's ops in pre-order with result and entry-block types

    @property
    def accepted(self) -> bool:
        return not self.oracle_diagnostics


def _norm(ty) -> str:
    return _BLANKS.sub("", str(ty))


def _upstream_signature(op, out: list) -> None:
    regions = [r for r in op.regions]
    entry = [_norm(a.type) for a in regions[0].blocks[0].arguments] if regions and len(regions[0].blocks) else []
    out.append((op.name, tuple(_norm(r.type) for r in op.results), tuple(entry)))
    for region in regions:
        for block in region.blocks:
            for nested in block.operations:
                _upstream_signature(nested.operation, out)


def _our_signature(module: Operation) -> list:
    out = []
    for op in module.walk():
        region = op.regions[0] if op.regions else None
        entry = [_norm(a.type) for a in region.blocks[0].arguments] if region is not None and region.blocks else []
        out.append((op.name, tuple(_norm(r.type) for r in op.results), tuple(entry)))
    return out


@functools.cache
def corpus_chunks() -> tuple[CorpusChunk, ...]:
    """Every chunk of the corpus, parsed here and run through the oracle (once per session)."""
    files = all_corpus_files()
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    o = oracle.module()
    backend = o.load_backend("numba-cuda-mlir")
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        runner = o.Oracle(backend, o.wants_unregistered(text), keep_op_notes=False)
        ours = parse(text, split=True).chunks
        pieces = split_chunks(text)
        assert [c.start for c in ours] == [p.offset for p in pieces], path
        for index, (piece, parsed) in enumerate(zip(pieces, ours)):
            result = runner.run_chunk(o.Chunk(piece.text, piece.offset, piece.line, piece.col))
            signature = None
            if result.module is not None:
                collected: list = []
                with result.module.context:
                    _upstream_signature(result.module.operation, collected)
                signature = tuple(collected)
            out.append(
                CorpusChunk(
                    f"{path.relative_to(SHARED)}#{index}",
                    piece.text,
                    parsed,
                    tuple(d.message for d in result.diags),
                    signature,
                )
            )
    return tuple(out)


def _problems(chunk: CorpusChunk) -> list[str]:
    """Why our parse of an accepted chunk is not clean (empty when it is)."""
    problems = [
        f"{d.code} {d.message}"
        for d in chunk.parsed.diagnostics
        if d.severity == Severity.ERROR or (d.code == "GPU006" and d.message.split("'")[1].split(".")[0] in SURROUNDING)
    ]
    for op in chunk.parsed.module.walk():
        if op.dialect in SURROUNDING and not op.known and not op.generic:
            problems.append(f"'{op.name}' was read as an opaque op")
    return problems


def test_oracle_accepted_chunks_parse_without_errors() -> None:
    chunks = corpus_chunks()
    accepted = [c for c in chunks if c.accepted]
    problems = {c.id: _problems(c) for c in accepted}
    passing = sum(1 for p in problems.values() if not p)
    failures = {cid: p[:5] for cid, p in problems.items() if p and cid not in EXCEPTIONS}
    stale = [cid for cid in EXCEPTIONS if not problems.get(cid)]
    print(
        f"\ncorpus chunks: {len(chunks)} total, {len(accepted)} accepted by the oracle, "
        f"{passing} of those parse here without errors, {len(EXCEPTIONS)} exceptions"
    )
    assert len(accepted) >= 200, "the oracle accepts suspiciously few corpus chunks"
    assert not failures, "\n".join(f"{cid}: {'; '.join(p)}" for cid, p in failures.items())
    assert not stale, f"exceptions that no longer apply (remove them): {stale}"


def test_result_and_region_argument_types_match_upstream() -> None:
    mismatches = []
    compared = 0
    for chunk in corpus_chunks():
        if not chunk.accepted or chunk.oracle_signature is None or chunk.id in EXCEPTIONS:
            continue
        if any(not op.known and not op.generic for op in chunk.parsed.module.walk()):
            continue  # ops of other dialects (xegpu, amdgpu, linalg, ...) are read opaque here
        compared += 1
        ours = iter(_our_signature(chunk.parsed.module))
        current = next(ours, None)
        for name, results, entry in chunk.oracle_signature:
            if current is None or current[0] != name:
                if name in IMPLICIT_TERMINATORS:
                    continue
                mismatches.append(f"{chunk.id}: upstream has '{name}' where we have {current and current[0]!r}")
                break
            if current[1:] != (results, entry):
                mismatches.append(f"{chunk.id}: '{name}' types {current[1:]} here, upstream {(results, entry)}")
            current = next(ours, None)
        else:
            if current is not None:
                mismatches.append(f"{chunk.id}: extra op '{current[0]}' here")
    print(f"\nsignatures compared for {compared} chunks")
    assert compared >= 180
    assert not mismatches, "\n".join(mismatches[:40])


def test_every_registered_op_is_registered_upstream() -> None:
    """We read no op that upstream would reject as unknown (old spellings stay unknown here too)."""
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    backend = oracle.module().load_backend("numba-cuda-mlir")
    ctx = backend.new_context()
    # Ops newer than the oracle's MLIR (rows of the version table) must be the only exceptions.
    newer = {row.op for row in OP_PIECES if row.piece is None and not row.oracle}
    assert not any(ctx.is_registered_operation(name) for name in newer)
    unknown = sorted(name for name in op_names() if not ctx.is_registered_operation(name) and name not in newer)
    assert not unknown, f"registered here but unknown to upstream MLIR: {unknown}"
