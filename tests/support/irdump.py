"""A canonical dump of parsed IR, ranges included, to compare two parses."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation, Region
from gpu_lsp.parser.api import ParsedFile


def _rng(span) -> tuple | None:
    return None if span is None else (span.range.start, span.range.end)


def dump_op(op: Operation) -> tuple:
    return (
        op.name,
        _rng(op.span),
        _rng(op.name_span),
        tuple((v.name, str(v.type)) for v in op.operands),
        tuple(_rng(s) for s in op.operand_spans),
        tuple((r.name, str(r.type), _rng(r.def_span)) for r in op.results),
        tuple(sorted((k, str(v)) for k, v in op.attributes.items())),
        tuple(sorted((k, str(v)) for k, v in op.properties.items())),
        tuple(dump_region(r) for r in op.regions),
        tuple(b.label for b in op.successors),
        _rng(op.sym_span),
        tuple((str(a), _rng(sp)) for a, sp in op.symbol_spans),
    )


def dump_region(region: Region) -> tuple:
    return tuple(
        (
            block.label,
            _rng(block.label_span),
            tuple((a.name, str(a.type), _rng(a.def_span)) for a in block.arguments),
            tuple(dump_op(op) for op in block.operations),
        )
        for block in region.blocks
    )


def dump_file(parsed: ParsedFile) -> tuple:
    return tuple(
        (
            chunk.start,
            chunk.end,
            dump_op(chunk.module),
            tuple((d.code, d.message, d.range.start, d.range.end, tuple((r.message, r.range) for r in d.related)) for d in chunk.diagnostics),
            tuple((c.text, c.range.start, c.range.end) for c in chunk.comments),
            tuple(chunk.context.alias_uses) if chunk.context else (),
            tuple(sorted(chunk.context.alias_defs.items())) if chunk.context else (),
        )
        for chunk in parsed.chunks
    )
