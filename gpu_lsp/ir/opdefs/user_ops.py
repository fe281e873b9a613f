"""Op declarations as data: a TOML file of ODS-style strings read into OpDefs (a project's own ops and the built-in ones)."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.enums import EnumDef
from gpu_lsp.ir.opdefs.definition_file import DefinitionError, Locator, Mistake, syntax_error
from gpu_lsp.ir.opdefs.format import FormatSyntaxError, parse_format
from gpu_lsp.ir.opdefs.format_checks import format_problem
from gpu_lsp.ir.opdefs.model import NATIVE_RELATIONS, OpDef, declare
from gpu_lsp.ir.opdefs.op_classes import LIST_WORDS, OpClass
from gpu_lsp.ir.opdefs.opdef import Since
from gpu_lsp.ir.opdefs.user_enums import enums_known, read_enum

R = TypeVar("R")  # what one table of a definition file declares

# ODS trait names and the model's (see model.TRAITS); memory effects other than none are the default.
_TRAITS = {
    "Pure": "pure", "NoMemoryEffect": "pure", "Terminator": "terminator", "IsTerminator": "terminator",
    "IsolatedFromAbove": "isolated", "Symbol": "symbol", "SymbolTable": "symbol_table",
    "NoTerminator": "no_terminator", "SingleBlock": "single_block", "ReturnLike": "return_like",
    "ConstantLike": "constant_like", "RecursiveMemoryEffects": "recursive_effects",
    "SameOperandsAndResultType": "same_type", "Elementwise": "elementwise", "ElementwiseMappable": "elementwise",
    "FunctionOpInterface": "function", "RegionBranchTerminatorOpInterface": "region_return",
    "GPU_AsyncOpInterface": "async", "AttrSizedResultSegments": "attr_sized_results", "HasOnlyGraphRegion": "graph",
}
_EFFECTS = frozenset({"MemRead", "MemWrite", "MemAlloc", "MemFree"})
# ODS traits that change nothing gpu-lsp checks: accepted, so a .td file's list can be copied as is.
_UNMODELLED = frozenset({
    "Commutative", "Idempotent", "Involution", "AlwaysSpeculatable",
    "ConditionallySpeculatable", "AffineScope", "AutomaticAllocationScope", "NoRegionArguments",
    "AttrSizedOperandSegments",
})
_INTERFACE = re.compile(r"(DeclareOpInterfaceMethods<.*>|\w+Interface)\Z", re.S)
# An op's facts; an op class (`[classes.<name>]`) holds any of them for the ops that name it.
_FACTS = (
    "summary", "arguments", "results", "regions", "successors", "traits", "assemblyFormat",
    "syntax", "effects", "view", "since", "defaultDialect", "inherent", "successorOperands",
)
_KEYS = (*_FACTS, "class")
_CLASS_KEYS = (*_FACTS, "class", "prefix", "members")
_STRING_LISTS = ("traits", "inherent", "successorOperands")  # the keys whose value is a list of strings
_SINCE = {"version": int, "source": str, "oracle": bool}
_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)+\Z")
_PARENT = re.compile(r"(HasParent|ParentOneOf)<(.*)>\Z", re.S)
_IMPLICIT = re.compile(r"SingleBlockImplicitTerminator<\s*[\"'](.*)[\"']\s*>\Z", re.S)
_MATCH = re.compile(r"(AllTypesMatch|AllElementTypesMatch|AllRanksMatch)<(.*)>\Z", re.S)
_RELATION = re.compile(r"(TypesMatchWith|PredOpTrait|BooleanConditionOrMatchingShape)<.*>\Z|SameInputOutputTensorDims\Z", re.S)
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


_TOP = ("dialect", "ops", "enums", "classes")


@functools.lru_cache(maxsize=32)
def read_user_ops(text: str) -> UserOps:
    """The op and enum declarations of a project's op-definitions file (cached by content; nothing in it is executed)."""
    return read_definitions(text)


def read_definitions(text: str, built_in: bool = False) -> UserOps:
    """The op and enum declarations of an op-definitions file's text.

    `built_in`: one of gpu-lsp's own files (`ir/opdefs/data`), whose ops may leave lists undeclared (a
    hand-written reader reads them) and use the custom directives gpu-lsp's code registers.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return UserOps((), (syntax_error(text, exc),), readable=False)
    where = Locator(text)
    errors = [
        DefinitionError(f"unknown key '{k}' (expected 'dialect', [ops.<name>], [classes.<name>] and [enums.<name>] tables)", 0, 0, 0)
        for k in data
        if k not in _TOP
    ]
    dialect = data.get("dialect")
    if dialect is not None and not (isinstance(dialect, str) and re.fullmatch(r"[A-Za-z_]\w*", dialect)):
        errors.append(DefinitionError("'dialect' must be a dialect name such as \"toy\"", 0, 0, 0))
        dialect = None
    tables = {kind: data.get(kind, {}) for kind in ("enums", "classes", "ops")}
    for kind, value in tables.items():
        if not isinstance(value, dict):
            errors.append(DefinitionError(f"'{kind}' must be tables: [{kind}.<name>]", 0, 0, 0))
            tables[kind] = {}
    headers: list[tuple[str, DefinitionError]] = []

    def read_all(kind: str, read: Callable[[str, Any], list[tuple[str, R]]]) -> list[R]:
        """Each `[kind.<key>]` table read as `(name, what it declares)` pairs; a mistake is collected instead."""
        declared: list[R] = []
        for key, table in tables[kind].items():
            try:
                items = read(key, table)
            except Mistake as mistake:
                errors.append(mistake.error)
                continue
            declared.extend(item for _, item in items)
            if not built_in:  # where each declaration starts, for the registry's refusals (built-in ops are never refused)
                headers.extend((name, where.error("", f"{kind}.{key}")) for name, _ in items)
        return declared

    classes: dict[str, OpClass] = {}

    def read_class(key: str, table: Any) -> list[tuple[str, OpDef]]:
        found = _op_class(key, table, dialect, classes, where)
        classes[key] = found
        members: list[tuple[str, OpDef]] = []
        for name, facts in found.members():  # a member's mistake is its own: the others are declared
            try:
                members.append((name, _declaration(name, f"classes.{key}", facts, where, built_in)))
            except Mistake as mistake:
                errors.append(mistake.error)
        return members

    def read_op(key: str, table: Any) -> list[tuple[str, OpDef]]:
        name, facts = _with_class(key, table, dialect, classes, where)
        return [(name, _declaration(name, f"ops.{key}", facts, where, built_in))]

    enums = read_all("enums", lambda key, table: [(key, read_enum(key, table, dialect, where))])
    with enums_known(tuple(enums)):
        ops = read_all("classes", read_class) + read_all("ops", read_op)
    return UserOps(tuple(ops), tuple(errors), tuple(enums), tuple(headers))


def _op_class(key: str, table: Any, dialect: str | None, classes: dict[str, OpClass], where: Locator) -> OpClass:
    """One `[classes.<key>]` table (based on the class it names, declared above it); raises Mistake at the first error."""
    place = f"classes.{key}"
    _check_keys(table, place, _CLASS_KEYS, where)
    facts = {k: v for k, v in table.items() if k not in ("prefix", "members", "class")}
    mnemonics = tuple(table.get("members", "").split())
    if "class" in table:
        return _named_class(table["class"], classes, place, where).derive(table.get("prefix"), facts, mnemonics)
    prefix = table.get("prefix", dialect)
    if prefix is None:
        raise Mistake(where.error(f"class '{key}' needs a 'prefix' (or the file a 'dialect')", place))
    return OpClass(prefix, facts, mnemonics)


def _with_class(key: str, table: Any, dialect: str | None, classes: dict[str, OpClass], where: Locator) -> tuple[str, dict[str, Any]]:
    """The name and facts of `[ops.<key>]`: with `class`, the class's facts and the class's prefix before `key`."""
    _check_keys(table, f"ops.{key}", _KEYS, where)
    if "class" not in table:
        return (key if "." in key or dialect is None else f"{dialect}.{key}"), table
    named = _named_class(table["class"], classes, f"ops.{key}", where)
    return named.make(key, {k: v for k, v in table.items() if k != "class"})


def _named_class(name: str, classes: dict[str, OpClass], place: str, where: Locator) -> OpClass:
    """The class `name`, declared above `place`; else raise Mistake."""
    if name not in classes:
        above = " above this one" if place.startswith("classes.") else ""
        raise Mistake(where.error(f"unknown class '{name}' (declare it in a [classes.<name>] table{above})", place, "class"))
    return classes[name]


def _check_keys(table: Any, place: str, keys: tuple[str, ...], where: Locator) -> None:
    """Raise Mistake unless `table` is a table of known keys with values of their kind."""

    def fail(message: str, field: str | None = None, piece: str | None = None) -> Mistake:
        return Mistake(where.error(message, place, field, piece))

    if not isinstance(table, dict):
        raise fail(f"'{place}' must be a table")
    for field, value in table.items():
        if field not in keys:
            raise fail(f"unknown key '{field}' (expected one of {', '.join(keys)})", field, field)
        if field in _STRING_LISTS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise fail(f"'{field}' must be a list of strings", field)
        elif field == "since":
            if not isinstance(value, dict) or any(k not in _SINCE or not isinstance(v, _SINCE[k]) for k, v in value.items()):
                raise fail("'since' must be a table {version = 23, source = \"...\", oracle = false}", field)
        elif not isinstance(value, str):
            raise fail(f"'{field}' must be a string", field)


def _declaration(name: str, place: str, table: dict[str, Any], where: Locator, built_in: bool) -> OpDef:
    """One op's facts as an OpDef; raises Mistake at the first error."""

    def fail(message: str, field: str | None = None, piece: str | None = None) -> Mistake:
        return Mistake(where.error(message, place, field, piece))

    if not _OP_NAME.match(name):
        raise fail(f"'{name}' is not an op name (`dialect.op`; give `dialect = \"...\"` or write the full name)")
    lists = {field: _dag(table.get(field), field, fail) for field in LIST_WORDS}
    absent = None if built_in else ""
    facts = _traits(table.get("traits", []), fail)
    fmt = table.get("assemblyFormat")
    since = table.get("since")
    try:
        definition = declare(
            name,
            table.get("summary", ""),
            ins=lists["arguments"] if lists["arguments"] is not None else absent,
            outs=lists["results"] if lists["results"] is not None else absent,
            regions=lists["regions"] if lists["regions"] is not None else absent,
            successors=lists["successors"],
            traits=" ".join(dict.fromkeys(facts.traits)),
            types=facts.types,
            format=fmt,
            syntax=table.get("syntax", ""),
            parents=" ".join(facts.parents),
            implicit_terminator=facts.implicit_terminator,
            default_dialect=table.get("defaultDialect"),
            inherent=table.get("inherent", ()),
            successor_operands=" ".join(table.get("successorOperands", ())),
            since=Since(since["version"], since.get("source", ""), since.get("oracle", True)) if since else None,
            effects=table.get("effects", ""),
            view=table.get("view"),
        )
    except FormatSyntaxError as exc:
        raise fail(f"assemblyFormat: {exc}", "assemblyFormat") from None
    except (ValueError, KeyError) as exc:
        found = re.search(r"got '(.*)'", str(exc))
        field = next((f for f in LIST_WORDS if lists[f] and found and found[1] in (lists[f] or "")), None)
        raise fail(str(exc).replace('"', "'"), field, found[1] if found else None) from None
    if fmt is not None and not built_in:
        _check_format(definition, fmt, table.get("traits", []), fail)
    return definition


def _dag(value: str | None, field: str, fail: Any) -> str | None:
    """`(ins AnyInteger:$a, ...)` -> its list; the bare list is accepted too."""
    if value is None:
        return None
    text = value.strip()
    keyword = LIST_WORDS[field]
    opened = re.match(rf"\(\s*{keyword}\b(.*)\)\s*\Z", text, re.S)
    if opened is not None:
        text = opened[1]
    elif text.startswith("("):
        raise fail(f"'{field}' must be written `({keyword} ...)`", field)
    return text.strip()


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
            names = [n.strip("\"' $") for n in split_commas(match[2].strip("[] "), drop_empty=True)]
            out.types.append(f"{match[1]}<{', '.join(names)}>")
        elif _RELATION.match(text):
            out.types.append(text)
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
