"""Round trip over both upstream corpora: print, re-parse here, and have upstream MLIR verify the text.

For every corpus chunk that upstream MLIR accepts without a diagnostic and that
parses here without an error: the printed module must re-parse here without an
error into the same IR (op names, operand and result types, attributes, region
structure, recursively), and upstream MLIR must accept the printed text too; the
generic form (-mlir-print-op-generic) must re-parse here and be accepted upstream.
"""

from __future__ import annotations

import re

from support import oracle
from support.corpus import all_corpus_files

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.attributes import DialectAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import Formatter
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

FMT = Formatter()


# Terminators a custom syntax may leave out and mlir-opt prints anyway (`scf.reduce`
# of scf.parallel): the printer writes them, our readers do not add them.
IMPLICIT_TERMINATORS = frozenset(("scf.reduce", "scf.yield", "affine.yield", "vector.yield", "gpu.yield"))


# Attributes whose default value a custom form adds when printing or reading: gpu.func's
# reader adds `workgroup_attributions`, llvm.mlir.global's printer shows `addr_space`.
DEFAULTS = {"workgroup_attributions": "0 : i64", "addr_space": "0 : i32"}
# Attribute names that mean the same: a generic gpu.func's `kernel` prints as the `kernel`
# keyword (as upstream prints it), which gpu.func's reader records as `gpu.kernel`.
SYNONYMS = {"kernel": "gpu.kernel"}


def _ops(block) -> list[Operation]:
    ops = block.operations
    if ops and ops[-1].name in IMPLICIT_TERMINATORS and not ops[-1].operands and not ops[-1].regions:
        return ops[:-1]
    return ops


def _blocks(region) -> tuple:
    blocks = region.blocks
    # `{}` and `{` newline `}` are both an empty region (MLIR's parseRegion); our
    # parser reads the second as one empty block.
    if len(blocks) == 1 and not blocks[0].arguments and not blocks[0].operations:
        return ()
    return tuple((tuple(str(a.type) for a in b.arguments), tuple(shape(o) for o in _ops(b))) for b in blocks)


def _attr_text(attr) -> str:
    """An attribute's text; a dialect attribute's body is kept as written, so the
    printer's spelling of it (`<1 : i64>` for `<1>`) is normalised away."""
    text = FMT.attr(attr)
    if isinstance(attr, DialectAttr):
        text = re.sub(r"\s+|\s*:\s*i64\b", "", text)
    return text


def shape(op: Operation) -> tuple:
    """What must survive printing and re-parsing: a nested tuple describing `op`."""
    attrs = {**op.properties, **op.attributes}
    attrs.pop("operandSegmentSizes", None)
    if op.name == "gpu.func":
        attrs = {SYNONYMS.get(k, k): v for k, v in attrs.items()}
    for key, default in DEFAULTS.items():
        if key in attrs and FMT.attr(attrs[key]) == default:
            del attrs[key]
    return (
        op.name,
        tuple(str(v.type) for v in op.operands),
        tuple(str(r.type) for r in op.results),
        tuple(sorted((k, _attr_text(v)) for k, v in attrs.items())) if op.known else (),
        len(op.successors),
        tuple(_blocks(region) for region in op.regions),
    )


def expand_aliases(value, printed: str):
    """`value` with the `#map = affine_map<...>` aliases of `printed` replaced by their definitions.

    Our type parser keeps an alias inside a type (`memref<4xf32, #map>`) as written.
    """
    aliases = {}
    for line in printed.splitlines():
        if not line.startswith("#"):
            break
        name, _, definition = line.partition(" = ")
        aliases[name] = definition
    if not aliases:
        return value
    names = sorted(aliases, key=len, reverse=True)

    def sub(x):
        if isinstance(x, tuple):
            return tuple(sub(y) for y in x)
        if isinstance(x, str) and "#" in x:
            for n in names:
                x = re.sub(re.escape(n) + r"(?![\w$.])", aliases[n], x)
        return x

    return sub(value)


def _first_difference(a: tuple, b: tuple, path: str = "") -> str:
    if a == b:
        return ""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}/{i}")
    return f"{path}: {str(a)[:300]} != {str(b)[:300]}"


def _errors(diagnostics) -> list:
    return [d for d in diagnostics if d.severity >= Severity.ERROR]


def test_corpus_round_trip() -> None:
    files = all_corpus_files()
    differential = oracle.available()
    counts = {"chunks": 0, "oracle_clean": 0, "parsed_clean": 0, "round_trip": 0, "oracle_accepts_printed": 0, "generic_form": 0}
    failures: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        allow = "allow-unregistered-dialect" in text
        parsed = parse(text, split=True)
        for index, chunk in enumerate(parsed.chunks):
            counts["chunks"] += 1
            where = f"{path.name}#{index}"
            chunk_text = text[chunk.start : chunk.end]
            if differential:
                if oracle.verify(chunk_text, allow):
                    continue
                counts["oracle_clean"] += 1
            if _errors(chunk.diagnostics):
                continue
            counts["parsed_clean"] += 1
            printed = print_module(chunk.module, source=text)
            again = parse(printed)
            errors = _errors(again.chunks[0].diagnostics)
            if errors:
                failures.append(f"{where}: printed text does not re-parse: {errors[0].message}\n{printed}")
                continue
            before, after = shape(chunk.module), expand_aliases(shape(again.chunks[0].module), printed)
            if before != after:
                failures.append(f"{where}: IR changed: {_first_difference(before, after)}")
                continue
            counts["round_trip"] += 1
            if differential:
                diags = oracle.verify(printed, allow)
                if diags:
                    failures.append(f"{where}: upstream MLIR rejects the printed text: {diags[0]}\n{printed}")
                    continue
                counts["oracle_accepts_printed"] += 1
            generic = print_module(chunk.module, generic=True, source=text)
            errors = _errors(parse(generic).chunks[0].diagnostics)
            if errors:
                failures.append(f"{where}: generic form does not re-parse: {errors[0].message}\n{generic}")
                continue
            if differential:
                diags = oracle.verify(generic, allow)
                if diags:
                    failures.append(f"{where}: upstream MLIR rejects the generic form: {diags[0]}\n{generic}")
                    continue
            counts["generic_form"] += 1
    print("round trip:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    assert counts["round_trip"] > 0
    assert not failures, f"{len(failures)} chunk(s) failed:\n" + "\n\n".join(failures[:5])


def test_generated_files_print_and_reparse_to_the_same_ops() -> None:
    import subprocess
    import sys

    from support import SHARED

    gen = SHARED / "tools" / "gen_gpu_mlir.py"
    for mode in ("inline", "outlined"):
        text = subprocess.run(
            [sys.executable, str(gen), "--mode", mode, "--lines", "2000"], check=True, capture_output=True, text=True
        ).stdout
        module = parse(text).chunks[0].module
        printed = print_module(module, source=text)
        again = parse(printed)
        assert [d for d in again.diagnostics if d.severity >= 3] == []
        assert [op.name for op in module.walk()] == [op.name for op in again.chunks[0].module.walk()]
