"""A project's own op declarations: a TOML file of ODS-style strings read into the same OpDefs as built-in ops."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.opdefs.definition_file import DefinitionError, Locator, Mistake, syntax_error
from gpu_lsp.ir.opdefs.enums import EnumDef
from gpu_lsp.ir.opdefs.format import FormatSyntaxError, parse_format
from gpu_lsp.ir.opdefs.format_checks import format_problem
from gpu_lsp.ir.opdefs.model import NATIVE_RELATIONS, OpDef, declare
from gpu_lsp.ir.opdefs.user_enums import enums_known, read_enum

R = TypeVar("R")  # what one table of a definition file declares

# ODS trait names and the model's (see model.TRAITS); memory effects other than none are the default.
_TRAITS = {
    "Pure": "pure", "NoMemoryEffect": "pure", "Terminator": "terminator", "IsTerminator": "terminator",
    "IsolatedFromAbove": "isolated", "Symbol": "symbol", "SymbolTable": "symbol_table",
    "NoTerminator": "no_terminator", "SingleBlock": "single_block", "ReturnLike": "return_like",
    "ConstantLike": "constant_like", "RecursiveMemoryEffects": "recursive_effects",
    "SameOperandsAndResultType": "same_type", "Elementwise": "elementwise", "ElementwiseMappable": "elementwise",
}
_EFFECTS = frozenset({"MemRead", "MemWrite", "MemAlloc", "MemFree"})
# ODS traits that change nothing gpu-lsp checks: accepted, so a .td file's list can be copied as is.
_UNMODELLED = frozenset({
    "Commutative", "Idempotent", "Involution", "AlwaysSpeculatable",
    "ConditionallySpeculatable", "AffineScope", "AutomaticAllocationScope", "NoRegionArguments",
    "AttrSizedOperandSegments", "AttrSizedResultSegments",
})
_INTERFACE = re.compile(r"(DeclareOpInterfaceMethods<.*>|\w+Interface)\Z", re.S)
_KEYS = ("summary", "arguments", "results", "regions", "successors", "traits", "assemblyFormat")
_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)+\Z")
_LIST = {"arguments": "ins", "results": "outs", "regions": "region", "successors": "successor"}
_PARENT = re.compile(r"(HasParent|ParentOneOf)<(.*)>\Z", re.S)
_IMPLICIT = re.compile(r"SingleBlockImplicitTerminator<\s*[\"'](.*)[\"']\s*>\Z", re.S)
_MATCH = re.compile(r"AllTypesMatch<(.*)>\Z", re.S)
_EFFECT_LIST = re.compile(r"MemoryEffects<\[(.*)\]>\Z", re.S)


@dataclass(frozen=True)
class UserOps:
    """The declarations one file holds and the mistakes found in it (declarations with a mistake are left out)."""

    ops: tuple[OpDef, ...]
    errors: tuple[DefinitionError, ...]
    enums: tuple[EnumDef, ...] = ()
    # Where each op's and enum's table starts, by name (for errors about a whole declaration).
    headers: tuple[tuple[str, DefinitionError], ...] = ()
    readable: bool = True  # False: not TOML at all (the language server keeps the file's last good text)


_TOP = ("dialect", "ops", "enums")


@functools.lru_cache(maxsize=32)
def read_user_ops(text: str) -> UserOps:
    """The op and enum declarations of an op-definitions file's text (cached by content; nothing in it is executed)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return UserOps((), (syntax_error(text, exc),), readable=False)
    where = Locator(text)
    errors = [DefinitionError(f"unknown key '{k}' (expected 'dialect', [ops.<name>] and [enums.<name>] tables)", 0, 0, 0) for k in data if k not in _TOP]
    dialect = data.get("dialect")
    if dialect is not None and not (isinstance(dialect, str) and re.fullmatch(r"[A-Za-z_]\w*", dialect)):
        errors.append(DefinitionError("'dialect' must be a dialect name such as \"toy\"", 0, 0, 0))
        dialect = None
    tables = {kind: data.get(kind, {}) for kind in ("enums", "ops")}
    for kind, value in tables.items():
        if not isinstance(value, dict):
            errors.append(DefinitionError(f"'{kind}' must be tables: [{kind}.<name>]", 0, 0, 0))
            tables[kind] = {}
    headers: list[tuple[str, DefinitionError]] = []

    def read_all(kind: str, read: Callable[[str, Any], tuple[str, R]]) -> list[R]:
        """Each `[kind.<key>]` table read as `(its name, what it declares)`; a mistake is collected instead."""
        declared: list[R] = []
        for key, table in tables[kind].items():
            try:
                name, item = read(key, table)
            except Mistake as mistake:
                errors.append(mistake.error)
            else:
                declared.append(item)
                headers.append((name, where.error("", f"{kind}.{key}")))
        return declared

    def read_op(key: str, table: Any) -> tuple[str, OpDef]:
        name = key if "." in key or dialect is None else f"{dialect}.{key}"
        return name, _declaration(name, key, table, where)

    enums = read_all("enums", lambda key, table: (key, read_enum(key, table, dialect, where)))
    with enums_known(tuple(enums)):
        ops = read_all("ops", read_op)
    return UserOps(tuple(ops), tuple(errors), tuple(enums), tuple(headers))


def _declaration(name: str, key: str, table: Any, where: Locator) -> OpDef:
    """One `[ops.<key>]` table as an OpDef; raises Mistake at the first error."""

    def fail(message: str, field: str | None = None, piece: str | None = None) -> Mistake:
        return Mistake(where.error(message, f"ops.{key}", field, piece))

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
    facts = _traits(table.get("traits", []), fail)
    fmt = table.get("assemblyFormat")
    try:
        definition = declare(
            name,
            table.get("summary", ""),
            ins=lists["arguments"] if lists["arguments"] is not None else "",
            outs=lists["results"] if lists["results"] is not None else "",
            regions=lists["regions"] if lists["regions"] is not None else "",
            successors=lists["successors"],
            traits=" ".join(dict.fromkeys(facts.traits)),
            types=facts.types,
            format=fmt,
            parents=" ".join(facts.parents),
            implicit_terminator=facts.implicit_terminator,
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
    return ", ".join(split_commas(text, drop_empty=True))


@dataclass
class _Traits:
    """What an op's ODS trait list says, in the model's terms."""

    traits: list[str]
    parents: list[str]
    types: list[str]
    implicit_terminator: str | None = None


def _traits(values: list[str], fail: Any) -> _Traits:
    """ODS traits as model traits, parent op names, type rules and an implicit terminator."""
    out = _Traits([], [], [])
    for value in values:
        text = value.strip()
        parent = _PARENT.match(text)
        match = _MATCH.match(text)
        implicit = _IMPLICIT.match(text)
        if text in _TRAITS:
            out.traits.append(_TRAITS[text])
        elif text in NATIVE_RELATIONS:
            out.types.append(text)
        elif _ignored(text):
            continue
        elif parent is not None:
            out.parents.extend(n.strip("\"' ") for n in split_commas(parent[2].strip("[] "), drop_empty=True))
        elif match is not None:
            names = [n.strip("\"' $") for n in split_commas(match[1].strip("[] "), drop_empty=True)]
            out.types.append(f"AllTypesMatch<{', '.join(names)}>")
        elif implicit is not None:
            out.traits.append("single_block")
            out.implicit_terminator = implicit[1].strip()
        else:
            raise fail(f"unknown trait '{text}' (see docs/downstream-dialects.md for the traits gpu-lsp reads)", "traits", text)
    return out


def _ignored(trait: str) -> bool:
    """Memory effects (ops have them unless Pure) and the traits and interfaces that change no check."""
    effects = _EFFECT_LIST.match(trait)
    if effects is not None:
        return all(e in _EFFECTS for e in split_commas(effects[1], drop_empty=True))
    return trait in _EFFECTS or trait in _UNMODELLED or _INTERFACE.match(trait) is not None


def _check_format(definition: OpDef, fmt: str, traits: list[str], fail: Any) -> None:
    """What ODS checks of an assembly format (format_checks.py), as an error at the piece concerned."""
    infers = any("InferTypeOpInterface" in trait for trait in traits)
    problem = format_problem(definition, parse_format(fmt), infers_results=infers)
    if problem is not None:
        raise fail(f"assemblyFormat: {problem[0]}", "assemblyFormat", problem[1])
