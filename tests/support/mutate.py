"""IR-aware mutations of MLIR text (seeded): small edits a user makes, valid or not."""

from __future__ import annotations

import random
import re

_VALUE = re.compile(r"%[\w$.\-]+")
_RESULT_DEF = re.compile(r"(?m)^(\s*)(%[\w$.\-]+(?::\d+)?(?:, %[\w$.\-]+(?::\d+)?)*) = ")
_ASYNC = re.compile(r"(?<=\s)async(?=[\s\[])")
_ASYNC_OP = re.compile(r"\b(gpu\.(?:wait|alloc|dealloc|memcpy|memset|launch_func|launch))(?=\s)")
_TYPE = re.compile(r"\b(i1|i8|i16|i32|i64|f16|f32|f64|index)\b")
_INT = re.compile(r"(?<![\w.%#@^])\d+(?![\w.])")
_OPNAME = re.compile(r"\b(?:gpu|arith|memref|scf|func|math|vector|nvvm|llvm|cf)\.[a-z_0-9.]+")
_DIM = re.compile(r"(?<=[<x])(\d+)(?=x)")
_LIST_ELEMENT = re.compile(r", (%[\w$.\-]+|\d+|[a-z]\w*)(?=[\])])")
_TYPES = ("i1", "i8", "i32", "i64", "f16", "f32", "f64", "index")


def _replace_one(text: str, pattern: re.Pattern, rng: random.Random, make) -> str | None:
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    return text[: m.start()] + make(m) + text[m.end() :]


def _lines(text: str) -> list[int]:
    """Indices of the lines that hold code (not comments, not blank)."""
    return [i for i, line in enumerate(text.split("\n")) if line.strip() and not line.lstrip().startswith("//")]


def mutate(text: str, rng: random.Random) -> tuple[str, str] | None:
    """One mutant of `text` and the name of the mutation (None when it does not apply)."""
    kind = rng.choice(
        ("drop-async", "add-async", "drop-result", "swap-type", "integer", "value", "op-name", "dim",
         "delete-line", "duplicate-line", "drop-element")
    )
    out: str | None = None
    if kind == "drop-async":
        out = _replace_one(text, _ASYNC, rng, lambda m: "")
    elif kind == "add-async":
        out = _replace_one(text, _ASYNC_OP, rng, lambda m: m.group() + " async")
    elif kind == "drop-result":
        out = _replace_one(text, _RESULT_DEF, rng, lambda m: m.group(1))
    elif kind == "swap-type":
        out = _replace_one(text, _TYPE, rng, lambda m: rng.choice([t for t in _TYPES if t != m.group()]))
    elif kind == "integer":
        out = _replace_one(text, _INT, rng, lambda m: str(rng.choice((0, 1, 2, 3, 7, 64, int(m.group()) + 1))))
    elif kind == "value":
        names = sorted(set(_VALUE.findall(text)))
        if len(names) > 1:
            out = _replace_one(text, _VALUE, rng, lambda m: rng.choice([n for n in names if n != m.group()]))
    elif kind == "op-name":
        names = sorted(set(_OPNAME.findall(text)))
        if len(names) > 1:
            out = _replace_one(text, _OPNAME, rng, lambda m: rng.choice([n for n in names if n != m.group()]))
    elif kind == "dim":
        out = _replace_one(text, _DIM, rng, lambda m: str(rng.choice((1, 2, 3, 8, 16))))
    elif kind in ("delete-line", "duplicate-line"):
        lines = text.split("\n")
        code = _lines(text)
        if code:
            i = rng.choice(code)
            lines[i : i + 1] = [] if kind == "delete-line" else [lines[i], lines[i]]
            out = "\n".join(lines)
    elif kind == "drop-element":
        out = _replace_one(text, _LIST_ELEMENT, rng, lambda m: "")
    if out is None or out == text:
        return None
    return out, kind
