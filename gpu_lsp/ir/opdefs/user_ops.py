"""A project's own op declarations: a TOML file of ODS-style strings read into the same OpDefs as built-in ops."""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from gpu_lsp.ir.opdefs.format import FormatSyntaxError, parse_format
from gpu_lsp.ir.opdefs.format_checks import format_problem
from gpu_lsp.ir.opdefs.model import OpDef, declare, split_top_level

# ODS trait names and the model's (see model.TRAITS); memory effects other than none are the default.
_TRAITS = {
    "Pure": "pure", "NoMemoryEffect": "pure", "Terminator": "terminator", "IsTerminator": "terminator",
    "IsolatedFromAbove": "isolated", "Symbol": "symbol", "SymbolTable": "symbol_table",
    "NoTerminator": "no_terminator", "SingleBlock": "single_block", "ReturnLike": "return_like",
    "ConstantLike": "constant_like", "RecursiveMemoryEffects": "recursive_effects",
    "SameOperandsAndResultType": "same_type",
}
_EFFECTS = frozenset({"MemRead", "MemWrite", "MemAlloc", "MemFree"})
# ODS traits that change nothing gpu-lsp checks: accepted, so a .td file's list can be copied as is.
_UNMODELLED = frozenset({
    "Commutative", "Idempotent", "Involution", "ElementwiseMappable", "AlwaysSpeculatable",
    "ConditionallySpeculatable", "AffineScope", "AutomaticAllocationScope", "NoRegionArguments",
    "SameOperandsShape", "SameOperandsElementType", "SameTypeOperands", "SameOperandsAndResultShape",
    "SameOperandsAndResultElementType", "AttrSizedOperandSegments", "AttrSizedResultSegments",
})
_INTERFACE = re.compile(r"(DeclareOpInterfaceMethods<.*>|\w+Interface)\Z", re.S)
_KEYS = ("summary", "arguments", "results", "regions", "successors", "traits", "assemblyFormat")
_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)+\Z")
_LIST = {"arguments": "ins", "results": "outs", "regions": "region", "successors": "successor"}
_PARENT = re.compile(r"(HasParent|ParentOneOf)<(.*)>\Z", re.S)
_MATCH = re.compile(r"AllTypesMatch<(.*)>\Z", re.S)
_EFFECT_LIST = re.compile(r"MemoryEffects<\[(.*)\]>\Z", re.S)


@dataclass(frozen=True)
class DefinitionError:
    """A mistake in an op-definitions file, at 0-based `line`, columns `start`..`end` of that line."""

    message: str
    line: int
    start: int
    end: int

    def describe(self, path: str) -> str:
        """`path:line:col: error: message`, the one-line form gpu-lint prints."""
        return f"{path}:{self.line + 1}:{self.start + 1}: error: {self.message}"


@dataclass(frozen=True)
class UserOps:
    """The declarations one file holds and the mistakes found in it (declarations with a mistake are left out)."""

    ops: tuple[OpDef, ...]
    errors: tuple[DefinitionError, ...]
    headers: tuple[DefinitionError, ...] = ()  # per op, where its table starts (for errors about a whole op)


class _Locator:
    """Where tables and keys sit in the TOML text (tomllib gives values, not positions)."""

    _HEADER = re.compile(r"\s*\[\s*ops\s*\.\s*(\"[^\"]*\"|'[^']*'|[A-Za-z_][\w.$-]*)\s*\]")
    _KEY = re.compile(r"\s*([A-Za-z_][\w-]*)\s*=")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.tables: dict[str, int] = {}
        self.keys: dict[tuple[str, str], int] = {}
        current: str | None = None
        for number, line in enumerate(self.lines):
            header = self._HEADER.match(line)
            if header is not None:
                current = header[1].strip("\"'")
                self.tables.setdefault(current, number)
            elif line.lstrip().startswith("["):
                current = None
            elif current is not None and (key := self._KEY.match(line)) is not None:
                self.keys.setdefault((current, key[1]), number)

    def error(self, message: str, table: str, key: str | None = None, piece: str | None = None) -> DefinitionError:
        """An error on `piece` of the value of `key` in `[ops.table]` (the key, else the table header)."""
        line = self.keys.get((table, key)) if key is not None else None
        if line is None:
            line = self.tables.get(table, 0)
            text = self.lines[line] if line < len(self.lines) else ""
            return DefinitionError(message, line, len(text) - len(text.lstrip()), len(text.rstrip()))
        found = self._find(line, piece) if piece else None
        if found is not None:
            return DefinitionError(message, found[0], found[1], found[1] + len(piece or ""))
        text = self.lines[line]
        start = text.index("=") + 1
        start += len(text[start:]) - len(text[start:].lstrip())
        return DefinitionError(message, line, start, len(text.rstrip()))

    def _find(self, line: int, piece: str) -> tuple[int, int] | None:
        """The first place at or after `line` (a value may span lines) where `piece` is written."""
        for number in range(line, min(line + 40, len(self.lines))):
            text = self.lines[number]
            quoted = max(text.find(f'"{piece}"'), text.find(f"'{piece}'"))
            column = quoted + 1 if quoted >= 0 else text.find(piece)
            if column >= 0:
                return number, column
            if number > line and self._KEY.match(self.lines[number]):
                return None
        return None


def _syntax_error(text: str, exc: tomllib.TOMLDecodeError) -> DefinitionError:
    """tomllib's message says `(at line L, column C)`; the range is that place."""
    found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    message = "invalid TOML: " + re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
    if found is None:
        return DefinitionError(message, 0, 0, 0)
    line, column = int(found[1]) - 1, int(found[2]) - 1
    return DefinitionError(message, line, column, column + 1)


@functools.lru_cache(maxsize=32)
def read_user_ops(text: str) -> UserOps:
    """The op declarations of an op-definitions file's text (cached by content; nothing in it is executed)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return UserOps((), (_syntax_error(text, exc),))
    where = _Locator(text)
    errors: list[DefinitionError] = []
    unknown = [k for k in data if k not in ("dialect", "ops")]
    for key in unknown:
        errors.append(DefinitionError(f"unknown key '{key}' (expected 'dialect' and [ops.<name>] tables)", 0, 0, 0))
    dialect = data.get("dialect")
    if dialect is not None and not (isinstance(dialect, str) and re.fullmatch(r"[A-Za-z_]\w*", dialect)):
        errors.append(DefinitionError("'dialect' must be a dialect name such as \"toy\"", 0, 0, 0))
        dialect = None
    tables = data.get("ops", {})
    if not isinstance(tables, dict):
        return UserOps((), (*errors, DefinitionError("'ops' must be tables: [ops.<name>]", 0, 0, 0)))
    ops: list[OpDef] = []
    headers: list[DefinitionError] = []
    for key, table in tables.items():
        name = key if "." in key or dialect is None else f"{dialect}.{key}"
        try:
            ops.append(_declaration(name, key, table, where))
        except _Mistake as mistake:
            errors.append(mistake.error)
        else:
            headers.append(where.error("", key))
    return UserOps(tuple(ops), tuple(errors), tuple(headers))


class _Mistake(Exception):
    def __init__(self, error: DefinitionError) -> None:
        super().__init__(error.message)
        self.error = error


def _declaration(name: str, key: str, table: Any, where: _Locator) -> OpDef:
    """One `[ops.<key>]` table as an OpDef; raises _Mistake at the first error."""

    def fail(message: str, field: str | None = None, piece: str | None = None) -> _Mistake:
        return _Mistake(where.error(message, key, field, piece))

    if not isinstance(table, dict):
        raise fail(f"'ops.{key}' must be a table")
    if not _OP_NAME.match(name):
        raise fail(f"'{name}' is not an op name (`dialect.op`; give `dialect = \"...\"` or write the full name)")
    for field, value in table.items():
        if field not in _KEYS:
            raise fail(f"unknown key '{field}' (expected one of {', '.join(_KEYS)})", field, field)
        if field == "traits":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise fail("'traits' must be a list of strings", field)
        elif not isinstance(value, str):
            raise fail(f"'{field}' must be a string", field)
    lists = {field: _dag(table.get(field), field, fail) for field in _LIST}
    traits, parents, types = _traits(table.get("traits", []), fail)
    fmt = table.get("assemblyFormat")
    try:
        definition = declare(
            name,
            table.get("summary", ""),
            ins=lists["arguments"] if lists["arguments"] is not None else "",
            outs=lists["results"] if lists["results"] is not None else "",
            regions=lists["regions"] if lists["regions"] is not None else "",
            successors=lists["successors"],
            traits=" ".join(traits),
            types=types,
            format=fmt,
            parents=" ".join(parents),
        )
    except FormatSyntaxError as exc:
        raise fail(f"assemblyFormat: {exc}", "assemblyFormat") from None
    except ValueError as exc:
        found = re.search(r"got '(.*)'", str(exc))
        field = next((f for f in _LIST if lists[f] and found and found[1] in (lists[f] or "")), None)
        raise fail(str(exc).replace('"', "'"), field, found[1] if found else None) from None
    if fmt is not None:
        _check_format(definition, fmt, table.get("traits", []), fail)
    return definition


def _dag(value: str | None, field: str, fail: Any) -> str | None:
    """`(ins AnyInteger:$a, ...)` -> its list; the bare list is accepted too."""
    if value is None:
        return None
    text = value.strip()
    keyword = _LIST[field]
    opened = re.match(rf"\(\s*{keyword}\b(.*)\)\s*\Z", text, re.S)
    if opened is not None:
        text = opened[1]
    elif text.startswith("("):
        raise fail(f"'{field}' must be written `({keyword} ...)`", field)
    return ", ".join(_unwrap(piece) for piece in split_top_level(text))


def _unwrap(piece: str) -> str:
    """`Arg<AnyMemRef, "the buffer", [MemRead]>:$m` and `Res<...>` name their constraint first."""
    found = re.match(r"\s*(?:Arg|Res)<(.*)>\s*:\s*(\$\w+)\s*\Z", piece, re.S)
    if found is None:
        return piece
    return f"{split_top_level(found[1])[0]}:{found[2]}"


def _traits(values: list[str], fail: Any) -> tuple[list[str], list[str], list[str]]:
    """ODS traits as (model traits, parent op names, type rules)."""
    traits: list[str] = []
    parents: list[str] = []
    types: list[str] = []
    for value in values:
        text = value.strip()
        parent = _PARENT.match(text)
        match = _MATCH.match(text)
        if text in _TRAITS:
            traits.append(_TRAITS[text])
        elif _ignored(text):
            continue
        elif parent is not None:
            parents.extend(n.strip("\"' ") for n in split_top_level(parent[2].strip("[] ")))
        elif match is not None:
            names = [n.strip("\"' $") for n in split_top_level(match[1].strip("[] "))]
            types.append(f"AllTypesMatch<{', '.join(names)}>")
        else:
            raise fail(f"unknown trait '{text}' (see docs/downstream-dialects.md for the traits gpu-lsp reads)", "traits", text)
    return traits, parents, types


def _ignored(trait: str) -> bool:
    """Memory effects (ops have them unless Pure) and the traits and interfaces that change no check."""
    effects = _EFFECT_LIST.match(trait)
    if effects is not None:
        return all(e in _EFFECTS for e in split_top_level(effects[1]))
    return trait in _EFFECTS or trait in _UNMODELLED or _INTERFACE.match(trait) is not None


def _check_format(definition: OpDef, fmt: str, traits: list[str], fail: Any) -> None:
    """What ODS checks of an assembly format (format_checks.py), as an error at the piece concerned."""
    infers = any("InferTypeOpInterface" in trait for trait in traits)
    problem = format_problem(definition, parse_format(fmt), infers_results=infers)
    if problem is not None:
        raise fail(f"assemblyFormat: {problem[0]}", "assemblyFormat", problem[1])
