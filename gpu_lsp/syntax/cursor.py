"""Reading an operation's custom syntax from its item list, like MLIR's OpAsmParser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, NoReturn

from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    dense_literal_error,
    integer_literal_error,
)
from gpu_lsp.ir.op_facts import NO_FACTS, OpFacts
from gpu_lsp.syntax import gpu_syntax
from gpu_lsp.syntax.lexer import tokenize, unescape, wrong_token_offset
from gpu_lsp.syntax.raw import Group, RawRegion
from gpu_lsp.syntax.result_list import result_list_error
from gpu_lsp.syntax.tokens import Tok
from gpu_lsp.syntax.types import TypeSyntaxError, hash_attr, parse_type, squeeze
from gpu_lsp.text import TextRange

_SPACED_DIMS: Final = re.compile(r"(?<=[\d?\]])[ \t\n]*x[ \t\n]*(?=[\d?\[A-Za-z!])|(?<=<)[ \t\n]+(?=[\d?\[])")


class FormatError(Exception):
    """The item list does not match the op's syntax: message and absolute range.

    `custom` is False for the errors upstream's generic parser emits itself (a missing
    punctuation token, SSA operand, type or attribute, an undefined alias): those are not
    prefixed with `custom op '<name>'` like the errors of an op's own parser. `exact` errors
    are reported at `start` itself, not just after the previous token like "expected ...".
    """

    def __init__(self, message: str, start: int, end: int, custom: bool = True, exact: bool = False, trailing: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.custom = custom
        self.exact = exact
        # Found after the end of the op's syntax, where upstream reads the next op (once it has
        # checked the op's result count: the builder reports a wrong count instead).
        self.trailing = trailing


class Ref:
    """An operand as written: `%name` or `%name#i`, its range and the type the op implies.

    A plain class, as `ArgDef`: one per operand of every op read, which the compiled
    build constructs natively (a dataclass's `__init__` is generated at import and interpreted)."""

    __slots__ = ("name", "start", "end", "type")

    def __init__(self, name: str, start: int, end: int, type: T.Type | None = None) -> None:
        self.name = name
        self.start = start
        self.end = end
        self.type = type

    def __repr__(self) -> str:
        return f"Ref({self.name!r}, {self.start}, {self.end}, {self.type!r})"


@dataclass(slots=True, eq=False)
class BlockRef:
    """A successor as written: `^name`."""

    name: str
    start: int
    end: int


class ArgDef:
    """A region argument the op's syntax defines (`%tx` in `threads(%tx, ...)`)."""

    __slots__ = ("name", "start", "end", "type", "loc")

    def __init__(self, name: str | None, start: int, end: int, type: T.Type, loc: Attribute | None = None) -> None:
        self.name = name
        self.start = start
        self.end = end
        self.type = type
        self.loc = loc

    def __repr__(self) -> str:
        return f"ArgDef({self.name!r}, {self.start}, {self.end}, {self.type!r}, {self.loc!r})"


class OpState:
    """Everything a custom parser produces for one operation."""

    __slots__ = ("name", "refs", "result_types", "attributes", "properties", "regions", "successors", "facts", "loc", "opaque_symbols", "num_results")

    def __init__(self, name: str, num_results: int) -> None:
        self.name = name
        self.num_results = num_results
        self.refs: list[Ref] = []
        self.result_types: list[T.Type] = []
        self.attributes: dict[str, Attribute] = {}
        self.properties: dict[str, Attribute] = {}
        self.regions: list[tuple[RawRegion | None, list[ArgDef] | None]] = []
        self.successors: list[BlockRef] = []
        self.facts: OpFacts = NO_FACTS
        self.loc: Attribute | None = None  # a trailing `loc(...)` read with the op's syntax
        self.opaque_symbols: list[Tok] | None = None  # an op read without its syntax: the symbols in its text

    def add_region(self, raw: RawRegion | None, args: list[ArgDef] | None = None) -> None:
        self.regions.append((raw, args))


def _next_code_offset(text: str, pos: int) -> int:
    """The start of the first token at or after `pos`, past blanks and `//` comments (the end if none)."""
    while pos < len(text):
        if text[pos] in " \t\r\n":
            pos += 1
        elif text.startswith("//", pos):
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline
        else:
            break
    return pos


class ParseContext:
    """Shared state for one parse: aliases, the text and where the chunk starts in it."""

    __slots__ = (
        "text", "start", "type_aliases", "attr_aliases", "op_names", "symbol_uses", "alias_uses", "alias_defs", "diagnostics",
        "region_dialect", "name_range", "format_memos",
    )

    def __init__(self, text: str, op_names: frozenset[str], start: int = 0) -> None:
        self.text = text
        self.start = start
        self.type_aliases: dict[str, T.Type] = {}
        self.attr_aliases: dict[str, Attribute] = {}
        self.op_names = op_names
        self.symbol_uses: list[tuple[SymbolRefAttr, int, int]] = []
        self.alias_uses: list[tuple[str, int, int]] = []
        self.alias_defs: dict[str, tuple[int, int]] = {}
        # Where problems of gpu types and attributes found while reading tokens go (the builder's list).
        self.diagnostics: list[Diagnostic] | None = None
        # The default dialect upstream's parser gives the ops being read: the one of the op whose
        # region holds them (OpAsmOpInterface::getDefaultDialect, not inherited), builtin at the top.
        self.region_dialect = "builtin"
        # Where the name of the op being read is (`parser.getNameLoc()`).
        self.name_range = (start, start)
        # The builder's readings of format-read ops by their tokens, shared by every top-level op
        # read with this context (a progressive or segmented parse builds one op at a time).
        self.format_memos: dict = {}

    def check_dialect_text(self, text: str, start: int) -> None:
        """Report what upstream's gpu type/attribute parsers reject in one token (gpu_syntax.py)."""
        found = gpu_syntax.check(text)
        if found is None or self.diagnostics is None:
            return
        code, messages = found
        # Upstream emits every message; the one written first leads, the others follow it
        # ("cascade": gpu-opt keeps them with the first parse error).
        lead = min(range(len(messages)), key=lambda i: messages[i][1])
        out = self.diagnostics
        for i, (message, s, e) in enumerate(messages):
            tags = () if i == lead else ("cascade",)
            d = Diagnostic(code, message, TextRange(start + s, start + e), Severity.ERROR, tags=tags)
            if d not in out:
                out.append(d)


def item_start(item) -> int:
    return item.start_pos


def item_end(item) -> int:
    return item.end_pos


_BLANK: Final = re.compile(r"(?:\s|//[^\n]*)*")


def next_token_start(text: str, pos: int) -> int:
    """Where the first token at or after `pos` starts (whitespace and `//` comments skipped)."""
    blank = _BLANK.match(text, pos)
    return blank.end() if blank is not None else pos


def describe(item) -> str:
    if item is None:
        return "end of operation"
    if isinstance(item, Tok):
        return f"'{item.value}'"
    if isinstance(item, Group):
        return f"'{item.open.value}'"
    if isinstance(item, RawRegion):
        return "'{'"
    return "item"


SYMBOL_NAME = "valid '@'-identifier for symbol name"
_KEYWORD_KINDS: Final = frozenset(("BARE", "TYPE", "OPNAME"))
_PUNCT_KINDS: Final = frozenset(("PUNCT", "COLON"))


class Cursor:
    """A position in an item list with typed readers that raise FormatError."""

    __slots__ = ("ctx", "items", "i", "end_pos", "op_name")

    def __init__(self, ctx: ParseContext, items: list, end_pos: int, op_name: str) -> None:
        self.ctx = ctx
        self.items = items
        self.i = 0
        self.end_pos = end_pos
        self.op_name = op_name

    # --- basics -----------------------------------------------------------------------------

    def peek(self, k: int = 0):
        j = self.i + k
        items = self.items
        return items[j] if j < len(items) else None

    def next(self):
        i = self.i
        items = self.items
        self.i = i + 1
        return items[i] if i < len(items) else None

    @property
    def at_end(self) -> bool:
        return self.i >= len(self.items)

    def here(self) -> tuple[int, int]:
        """Where the next item is; after the op's last one, the token upstream's parser reads next."""
        item = self.peek()
        if item is None:
            at = _next_code_offset(self.ctx.text, self.end_pos)
            return at, at
        return item_start(item), item_end(item)

    def fail(self, message: str, item=None, custom: bool = True) -> NoReturn:
        if item is None:
            start, end = self.here()
        else:
            start, end = item_start(item), item_end(item)
        raise FormatError(message, start, end, custom)

    def expected(self, what: str) -> NoReturn:
        self.fail(f"expected {what}")

    def fail_at_name(self, message: str) -> NoReturn:
        """An error of the op's own parser reported at its name (`parser.getNameLoc()`)."""
        raise FormatError(message, *self.ctx.name_range)

    def expected_by_parser(self, what: str) -> NoReturn:
        """An error of upstream's generic parser (token, operand, type, attribute, region)."""
        self.fail(f"expected {what}", custom=False)

    def done(self) -> None:
        if self.at_end:
            return
        item = self.peek()
        dialect = self.ctx.region_dialect
        if isinstance(item, Tok) and item.type == "BARE" and f"{dialect}.{item.value}" not in self.ctx.op_names:
            # upstream's parser reads the word as the name of the next op
            word = item.value
            message = (
                f"custom op '{word}' is unknown (tried '{dialect}.{word}' as well)"
                if dialect
                else f"Dialect `' not found for custom op '{word}'  (tried '.{word}' as well)"
            )
            raise FormatError(message, item.start_pos, item.end_pos, False, exact=True, trailing=True)
        raise self._next_op_error(item)

    def _next_op_error(self, item) -> FormatError:
        """Upstream's error for `item`, read as the start of the next op (`parseOperation`): a
        result list (`%a, %b:2 =`), then an op name."""
        if not (isinstance(item, Tok) and item.type == "VALUE"):
            return self._trailing("expected operation name in quotes", 0)
        return self._trailing(*result_list_error(self._tok))

    def _trailing(self, message: str, k: int) -> FormatError:
        """An error of upstream's parser at the item `k` ahead (at the end, where there is none)."""
        j = self.i + k
        if j < len(self.items):
            return FormatError(message, item_start(self.items[j]), item_end(self.items[j]), False, trailing=True)
        return FormatError(message, self.end_pos, self.end_pos, False, trailing=True)

    # --- tokens -----------------------------------------------------------------------------

    def _tok(self, k: int) -> Tok | None:
        """The item `k` ahead when it is a token (not a group, not past the end)."""
        j = self.i + k
        items = self.items
        if j < len(items):
            item = items[j]
            if isinstance(item, Tok):
                return item
        return None

    def is_token(self, kind: str, value: str | None = None, k: int = 0) -> bool:
        tok = self._tok(k)
        return tok is not None and tok.type == kind and (value is None or tok.value == value)

    def is_keyword(self, word: str, k: int = 0) -> bool:
        tok = self._tok(k)
        return tok is not None and tok.value == word and tok.type in _KEYWORD_KINDS

    def optional_keyword(self, word: str) -> Tok | None:
        if self.is_keyword(word):
            return self.next()
        return None

    def keyword(self, word: str) -> Tok:
        tok = self.optional_keyword(word)
        if tok is None:
            self.expected(f"'{word}'")
        return tok

    def any_keyword(self) -> Tok:
        item = self.peek()
        if isinstance(item, Tok) and item.type in ("BARE", "TYPE"):
            return self.next()
        self.expected("a keyword")

    def is_punct(self, ch: str, k: int = 0) -> bool:
        tok = self._tok(k)
        return tok is not None and tok.value == ch and tok.type in _PUNCT_KINDS

    def optional_punct(self, ch: str) -> Tok | None:
        tok = self._tok(0)
        if tok is not None and tok.value == ch and tok.type in _PUNCT_KINDS:
            self.i += 1
            return tok
        return None

    def punct(self, ch: str) -> Tok:
        tok = self.optional_punct(ch)
        if tok is None:
            self.expected_by_parser(f"'{ch}'")
        return tok

    # --- values -----------------------------------------------------------------------------

    def is_operand(self) -> bool:
        i = self.i
        items = self.items
        return i < len(items) and isinstance(items[i], Tok) and items[i].type == "VALUE"

    def operand(self, type: T.Type | None = None) -> Ref:
        i = self.i
        items = self.items
        item = items[i] if i < len(items) else None
        if not (isinstance(item, Tok) and item.type == "VALUE"):
            self.expected_by_parser("SSA operand")
        self.i = i + 1
        return Ref(item.value, item.start_pos, item.end_pos, type)

    def optional_operand(self, type: T.Type | None = None) -> Ref | None:
        return self.operand(type) if self.is_operand() else None

    def operand_list(self, type: T.Type | None = None) -> list[Ref]:
        """`%a, %b, ...` (possibly empty)."""
        refs: list[Ref] = []
        if not self.is_operand():
            return refs
        refs.append(self.operand(type))
        while self.is_punct(",") and not self._ends_list(1):
            self.i += 1
            refs.append(self.operand(type))
        return refs

    def _ends_list(self, k: int) -> bool:
        """Whether the item at `k` is no operand slot: what follows a list of operands (`, T`, `, 4`)."""
        item = self.peek(k)
        if item is None:
            return False
        return not isinstance(item, Tok) or item.type not in ("VALUE", "PUNCT", "COLON")

    def index_list(self) -> list[Ref]:
        """`[%i, %j, ...]`: index-typed operands in square brackets."""
        sub = self.group("[")
        refs = sub.operand_list(T.INDEX)
        sub.done()
        return refs

    def def_value(self) -> Tok:
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "VALUE"):
            self.expected_by_parser("SSA operand")  # upstream's parseArgument reads an operand
        self.i += 1
        return item

    def block_ref(self) -> BlockRef:
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "BLOCK_REF"):
            self.expected("block name")
        self.i += 1
        return BlockRef(item.value, item.start_pos, item.end_pos)

    # --- groups and regions -----------------------------------------------------------------

    def is_group(self, opener: str = "(", k: int = 0) -> bool:
        item = self.peek(k)
        return isinstance(item, Group) and item.open.value == opener

    def group(self, opener: str = "(") -> Cursor:
        item = self.peek()
        if not (isinstance(item, Group) and item.open.value == opener):
            self.expected_by_parser(f"'{opener}'")
        self.i += 1
        return Cursor(self.ctx, item.items, item.close.start_pos, self.op_name)

    def optional_group(self, opener: str = "(") -> Cursor | None:
        return self.group(opener) if self.is_group(opener) else None

    def is_region(self) -> bool:
        item = self.peek()
        return isinstance(item, RawRegion) or (isinstance(item, Tok) and item.type == "DICT" and item.value.replace(" ", "") == "{}")

    def region(self) -> RawRegion | None:
        """A region; an empty `{}` reads as an empty region (None)."""
        item = self.peek()
        if isinstance(item, RawRegion):
            self.i += 1
            return item
        if isinstance(item, Tok) and item.type == "DICT" and item.value.replace(" ", "") == "{}":
            self.i += 1
            return None
        self.expected_by_parser("'{' to begin a region")

    def optional_region(self) -> tuple[bool, RawRegion | None]:
        if self.is_region():
            return True, self.region()
        return False, None

    # --- types ------------------------------------------------------------------------------

    def is_type(self) -> bool:
        item = self.peek()
        if isinstance(item, Tok):
            return item.type == "TYPE"
        return isinstance(item, Group) and item.open.value == "("

    def type(self) -> T.Type:
        item = self.peek()
        if isinstance(item, Tok) and item.type == "TYPE":
            self.i += 1
            return self.parse_type_text(item.value, item.start_pos, item.end_pos)
        if isinstance(item, Group) and item.open.value == "(" and self.is_punct("->", 1):
            return self.function_type()
        self.expected_by_parser("non-function type")

    def parse_type_text(self, text: str, start: int, end: int) -> T.Type:
        if "gpu" in text or "nvvm" in text or "!llvm." in text:
            self.ctx.check_dialect_text(text, start)
        if text[0] == "!" and "<" not in text and "." not in text:
            alias = self.ctx.type_aliases.get(text)
            if alias is None:
                raise FormatError(f"undefined symbol alias id '{text[1:]}'", end, end, custom=False, exact=True)  # upstream: after the alias
            self.ctx.alias_uses.append((text, start, end))
            return alias
        ctx = self.ctx
        aliases = {**ctx.type_aliases, **ctx.attr_aliases} if ctx.attr_aliases else ctx.type_aliases
        try:
            return parse_type(text, aliases)
        except TypeSyntaxError as exc:
            # `memref<2 x 32 x f32>`: MLIR allows blanks around the `x` of a shape.
            squeezed = _SPACED_DIMS.sub("x", text)
            if squeezed != text:
                try:
                    return parse_type(squeezed, aliases)
                except TypeSyntaxError:
                    pass
            if exc.offset is not None:  # upstream's own error, where it stops
                raise FormatError(str(exc), start + exc.offset, start + exc.offset, custom=False, exact=True) from None
            raise FormatError(str(exc), start, end) from None

    def type_list(self) -> list[T.Type]:
        """`T, T, ...` (at least one)."""
        out = [self.type()]
        while self.is_punct(",") and self._type_follows(1):
            self.i += 1
            out.append(self.type())
        return out

    def _type_follows(self, k: int) -> bool:
        item = self.peek(k)
        if isinstance(item, Tok):
            return item.type == "TYPE"
        return isinstance(item, Group) and item.open.value == "("

    def paren_type_list(self) -> list[T.Type]:
        """`(T, ...)` possibly empty."""
        sub = self.group("(")
        if sub.at_end:
            return []
        types = sub.type_list()
        sub.done()
        return types

    def function_type(self) -> T.FunctionType:
        inputs = self.paren_type_list()
        self.punct("->")
        results = self.result_types()
        return T.FunctionType(tuple(inputs), tuple(results))

    def result_types(self) -> list[T.Type]:
        """After `->`: a single type or a parenthesised list."""
        if self.is_group("(") and not self.is_punct("->", 1):
            return self.paren_type_list()
        return [self.type()]

    def colon_type(self) -> T.Type:
        self.punct(":")
        return self.type()

    def colon_type_list(self) -> list[T.Type]:
        self.punct(":")
        return self.type_list()

    # --- attributes -------------------------------------------------------------------------

    def is_attr_dict(self) -> bool:
        return self.is_token("DICT")

    def optional_attr_dict(self, st: OpState) -> None:
        item = self.peek()
        if isinstance(item, Tok) and item.type == "DICT":
            self.i += 1
            for key, value in self.parse_dict_text(item).entries:
                st.attributes[key] = value

    def optional_prop_dict(self, st: OpState) -> None:
        """`<{a = 1}>`, when written, into the op's properties."""
        if self.is_token("PROPS"):
            tok = self.next()
            props = Tok("DICT", tok.value[1:-1], tok.start_pos + 1, tok.end_pos - 1)
            st.properties.update(self.parse_dict_text(props).entries)

    def attr_dict_with_keyword(self, st: OpState) -> None:
        for key, value in self.attr_dict_entries_with_keyword():
            st.attributes[key] = value

    def attr_dict_entries_with_keyword(self) -> list[tuple[str, Attribute]]:
        """The entries of `attributes {...}`, when written (for a reader that checks them first)."""
        if not self.optional_keyword("attributes"):
            return []
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "DICT"):
            self.expected("attribute dictionary")
        self.i += 1
        return list(self.parse_dict_text(item).entries)

    def parse_dict_text(self, tok: Tok) -> DictAttr:
        text = self.ctx.text
        start, end = tok.start_pos, tok.end_pos
        lexed = tokenize(text, start=start + 1, end=end - 1, attr_mode=True)
        if lexed.errors:
            err = lexed.errors[0]
            raise FormatError(err.message, err.range.start, err.range.end)
        sub = Cursor(self.ctx, group_tokens(lexed.tokens), end - 1, self.op_name)
        entries: list[tuple[str, Attribute]] = []
        while not sub.at_end:
            key_tok = sub.next()
            if not (isinstance(key_tok, Tok) and key_tok.type in ("BARE", "STRING", "TYPE", "OPNAME")):
                sub.fail("expected attribute name", key_tok)
            key = key_tok.value[1:-1] if key_tok.type == "STRING" else key_tok.value
            if any(key == seen for seen, _ in entries):
                raise FormatError(f"duplicate key '{key}' in dictionary attribute", key_tok.start_pos, key_tok.end_pos, False, exact=True)
            if sub.optional_punct("="):
                entries.append((key, sub.attr()))
            else:
                entries.append((key, UnitAttr()))
            if sub.at_end:
                break
            if sub.optional_punct(",") is None:  # upstream's emitWrongTokenError: just after the last entry
                at = wrong_token_offset(text, sub.here()[0], start)
                raise FormatError("expected '}' in attribute dictionary", at, at, custom=False, exact=True)
        return DictAttr(tuple(entries))

    def is_attr(self) -> bool:
        item = self.peek()
        if isinstance(item, Group):
            return item.open.value == "["
        return isinstance(item, Tok) and item.type in ("INT", "FLOAT", "STRING", "ATTR", "DICT", "SYMBOL", "TYPE", "LOC") or (
            isinstance(item, Tok) and item.type == "BARE" and item.value in ("true", "false", "unit")
        )

    def attr(self, default_type: T.Type | None = None) -> Attribute:
        item = self.peek()
        if isinstance(item, Group) and item.open.value == "(" and self.is_punct("->", 1):
            return TypeAttr(self.function_type())
        if isinstance(item, Group) and item.open.value == "[":
            self.i += 1
            sub = Cursor(self.ctx, item.items, item.close.start_pos, self.op_name)
            elements = []
            while not sub.at_end:
                elements.append(sub.attr())
                if sub.at_end:
                    break
                sub.punct(",")
            return ArrayAttr(tuple(elements))
        if not isinstance(item, Tok):
            self.expected_by_parser("attribute value")
        kind = item.type
        if kind == "INT":
            self.i += 1
            value = int(item.value, 16) if item.value.startswith("0x") else int(item.value)
            ty = default_type or T.I64
            if self.is_punct(":"):
                self.i += 1
                ty = self.type()
            digits = item.start_pos + (item.value[0] in "+-")
            if isinstance(ty, T.FloatType):
                if not item.value.startswith("0x"):
                    raise FormatError(
                        "unexpected decimal integer literal for a floating point value", digits, item.end_pos, False, exact=True
                    )
                return FloatAttr(float(value), ty, item.value)
            problem = integer_literal_error(abs(value), item.value.startswith("-"), ty)
            if problem is not None:
                raise FormatError(problem, digits, item.end_pos, False, exact=True)
            return IntegerAttr(value, ty)
        if kind == "FLOAT":
            self.i += 1
            ty = default_type or T.F64
            if self.is_punct(":"):
                self.i += 1
                ty = self.type()
                if not isinstance(ty, T.FloatType):
                    at = next_token_start(self.ctx.text, item_end(self.items[self.i - 1]))
                    raise FormatError("floating point value not valid for specified type", at, at, False, exact=True)
            return FloatAttr(float(item.value), ty, None)
        if kind == "STRING":
            self.i += 1
            string = unescape(item.value[1:-1])
            if self.is_punct(":") and self._type_follows(1):
                self.i += 1
                self.type()
            return StringAttr(string)
        if kind == "BARE":
            if item.value in ("true", "false"):
                self.i += 1
                return BoolAttr(item.value == "true")
            if item.value == "unit":
                self.i += 1
                return UnitAttr()
            self.expected_by_parser("attribute value")
        if kind == "DICT":
            self.i += 1
            return self.parse_dict_text(item)
        if kind == "SYMBOL":
            return self.symbol()
        if kind == "TYPE":
            return TypeAttr(self.type())
        if kind == "LOC":
            self.i += 1
            return OpaqueAttr(item.value, "loc")
        if kind == "ATTR":
            self.i += 1
            return self._compound_attr(item)
        if kind == "PUNCT" and item.value in "-":
            self.expected_by_parser("attribute value")
        self.expected_by_parser("attribute value")

    def _compound_attr(self, item: Tok) -> Attribute:
        text = item.value
        if text.startswith("#"):
            if "<" not in text and "." not in text:
                alias = self.ctx.attr_aliases.get(text)
                if alias is None:
                    raise FormatError(f"undefined symbol alias id '{text[1:]}'", item.end_pos, item.end_pos, custom=False, exact=True)
                self.ctx.alias_uses.append((text, item.start_pos, item.end_pos))
                return alias
            if "gpu" in text or "nvvm" in text:
                self.ctx.check_dialect_text(text, item.start_pos)
            attr = hash_attr(text)
            if self.is_punct(":") and self._type_follows(1):
                self.i += 1
                self.type()
            return attr
        if text.startswith("array<"):
            return parse_dense_array(text, self, item)
        kind = text[: text.index("<")] if "<" in text else text
        ty = None
        if kind in ("dense", "sparse", "dense_resource") and self.is_punct(":"):
            self.i += 1
            ty = self.type()
            if kind == "dense" and isinstance(ty, (T.TensorType, T.VectorType)) and text.endswith(">"):
                problem = dense_literal_error(text[6:-1], ty.shape)
                if problem is not None:
                    message, offset = problem
                    at = item.start_pos if offset is None else item.start_pos + 6 + offset
                    raise FormatError(message, at, at if offset is not None else item.end_pos, False, exact=True)
        return OpaqueAttr(squeeze(text), kind, ty)

    def symbol(self, what: str = "symbol reference") -> SymbolRefAttr:
        """`@name` or `@a::@b`; `what` names it in the error (upstream's words for a symbol name)."""
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "SYMBOL"):
            self.expected(what)
        self.i += 1
        attr = symbol_ref(item.value)
        self.ctx.symbol_uses.append((attr, item.start_pos, item.end_pos))
        return attr

    def is_symbol(self) -> bool:
        return self.is_token("SYMBOL")

    def optional_loc(self) -> Attribute | None:
        if self.is_token("LOC"):
            return OpaqueAttr(self.next().value, "loc")
        return None

    def integer(self) -> int:
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "INT"):
            self.expected("integer value")
        self.i += 1
        return int(item.value, 16) if item.value.startswith("0x") else int(item.value)

    def string(self) -> str:
        item = self.peek()
        if not (isinstance(item, Tok) and item.type == "STRING"):
            self.expected("string")
        self.i += 1
        return unescape(item.value[1:-1])


def group_tokens(tokens: list[Tok]) -> list:
    """Nest a flat token list by its brackets (used inside attribute dictionaries)."""
    stack: list[tuple[Tok, list]] = []
    out: list = []
    current = out
    for tok in tokens:
        kind = tok.type
        if kind == "LPAR" or kind == "LSQB":
            stack.append((tok, current))
            current = []
        elif (kind == "RPAR" or kind == "RSQB") and stack:
            opener, parent = stack.pop()
            parent.append(Group(opener, tok, current))
            current = parent
        else:
            current.append(tok)
    return out


def symbol_ref(text: str) -> SymbolRefAttr:
    """Split `@a::@b` (names may be quoted) into a SymbolRefAttr."""
    parts = []
    i = 0
    n = len(text)
    while i < n:
        if text[i] == "@":
            i += 1
        if i < n and text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            parts.append(unescape(text[i + 1 : j]))
            i = j + 1
        else:
            j = text.find("::", i)
            j = n if j < 0 else j
            parts.append(text[i:j])
            i = j
        if text.startswith("::", i):
            i += 2
    return SymbolRefAttr(parts[0], tuple(parts[1:]))


def parse_dense_array(text: str, cursor: Cursor, item: Tok) -> DenseArrayAttr:
    """`array<i32: 1, 2>` / `array<f32>` to a DenseArrayAttr."""
    body = text[len("array<") : -1].strip()
    head, _, values = body.partition(":")
    try:
        elem = parse_type(head.strip())
    except TypeSyntaxError as exc:
        raise FormatError(str(exc), item.start_pos, item.end_pos) from None
    parsed: list[bool | int | float] = []
    for raw in values.split(","):
        raw = raw.strip()
        if not raw:
            continue
        try:
            if raw in ("true", "false"):
                parsed.append(raw == "true")
            elif isinstance(elem, T.FloatType):
                parsed.append(float(raw))
            else:
                parsed.append(int(raw, 0))
        except ValueError:
            raise FormatError(f"invalid array element '{raw}'", item.start_pos, item.end_pos) from None
    return DenseArrayAttr(elem, tuple(parsed))
