"""Inlay hints (kernel parameter names at launch_func arguments, types of async results) and
signature help inside `args(...)` of gpu.launch_func and the operand list of func.call."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.operands import operand_range
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import document_index, op_at
from gpu_lsp.lsp.ir_queries import function_inputs, kernel_of, kernel_params, signature_text

PARAMETER = "Parameter"
TYPE = "Type"

_LAUNCH_FUNC = re.compile(r"gpu\.launch_func\b")
_CALL = re.compile(r"\b(?:func\.)?call\s+(@[\w$.\-]+)\s*\(")
_SYMBOL_PATH = re.compile(r"@([\w$.\-]+)((?:::@[\w$.\-]+)*)")
_ARGS_OPEN = re.compile(r"\bargs\s*\(")
_LOOKBACK = 4000


@dataclass(frozen=True)
class InlayHint:
    offset: int
    label: str
    kind: str
    padding_left: bool = False
    padding_right: bool = False
    tooltip: str = ""


def inlay_hints(snapshot: Snapshot, start: int, end: int) -> list[InlayHint]:
    """The hints placed within `[start, end]`, in order."""
    index = document_index(snapshot)
    out: list[InlayHint] = []
    for unit in index.units:
        rng = unit.range
        if rng.end < start or rng.start > end or unit.holds_units:
            continue
        for op in unit.op.walk():
            op_range = op.range
            if op_range is None or op_range.end < start or op_range.start > end:
                continue
            if op.name == "gpu.launch_func":
                out.extend(h for h in _launch_func_hints(index, op, snapshot.text) if start <= h.offset <= end)
            for result in op.results:
                if result.type.is_token and result.def_span is not None:
                    r = result.def_span.range
                    if start <= r.end <= end:
                        out.append(InlayHint(r.end, ": !gpu.async.token", TYPE, tooltip="async token result"))
    out.sort(key=lambda h: h.offset)
    return out


def _launch_func_hints(index, op: Operation, text: str) -> list[InlayHint]:
    kernel = kernel_of(index, op)
    if kernel is None:
        return []
    params = kernel_params(kernel)
    out = []
    for param, i in zip(params, operand_range(op, "kernelOperands")):
        span = op.operand_spans[i] if i < len(op.operand_spans) else None
        if span is None or param.name is None:
            continue
        out.append(InlayHint(span.range.start, f"{param.name}:", PARAMETER, padding_right=True, tooltip=f"%{param.name} : {param.type}"))
    return out


@dataclass(frozen=True)
class SignatureResult:
    """One signature: its label, the code-point ranges of its parameters in the label, the active one."""

    label: str
    parameters: list[tuple[int, int]]
    active: int
    documentation: str = ""


def signature_help(snapshot: Snapshot, offset: int) -> SignatureResult | None:
    text = snapshot.text
    lo = max(0, offset - _LOOKBACK)
    window = text[lo:offset]
    found = _open_call(window)
    if found is None:
        return None
    kind, symbol_text, open_pos = found
    inside = window[open_pos:]
    active = _top_level_commas(inside)
    if active is None:
        return None
    m = _SYMBOL_PATH.fullmatch(symbol_text)
    if m is None:
        return None
    path = (m.group(1),) + tuple(p[1:] for p in m.group(2).split("::") if p)
    owner = op_at(snapshot.parsed, offset)
    if owner is None:
        return None
    index = document_index(snapshot)
    target = index.resolve(path, owner)
    if target is None:
        return None
    if kind == "launch":
        params = [(f"%{p.name}: {p.type}" if p.name else str(p.type)) for p in kernel_params(target)]
        head = symbol_text + " args("
    else:
        params = [str(t) for t in function_inputs(target)]
        head = symbol_text + "("
    label = head
    ranges = []
    for i, p in enumerate(params):
        if i:
            label += ", "
        ranges.append((len(label), len(label) + len(p)))
        label += p
    label += ")"
    doc = f"```mlir\n{signature_text(target, text)}\n```"
    return SignatureResult(label, ranges, min(active, max(0, len(params) - 1)), doc)


def _open_call(window: str) -> tuple[str, str, int] | None:
    """The innermost unclosed `args(` of a gpu.launch_func (or `call @f(`) before the cursor."""
    best = None
    for m in _ARGS_OPEN.finditer(window):
        head = window[: m.start()]
        launches = list(_LAUNCH_FUNC.finditer(head))
        if not launches:
            continue
        launch = launches[-1]
        sym = _SYMBOL_PATH.search(head, launch.end())
        if sym is None:
            continue
        best = ("launch", sym.group(), m.end())
    for m in _CALL.finditer(window):
        if best is None or m.end() > best[2]:
            best = ("call", m.group(1), m.end())
    return best


def _top_level_commas(inside: str) -> int | None:
    """Commas at depth 0 in the text after the opening parenthesis; None once it is closed."""
    depth = 0
    count = 0
    for ch in inside:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            if depth == 0:
                return None
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count
