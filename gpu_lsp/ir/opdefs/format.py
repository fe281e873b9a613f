"""The format engine: ODS assembly formats (`$src `[` $idx `]` attr-dict `:` type($src)`) as directives that read, print and render."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.flags import FLAGS
from gpu_lsp.ir.hooks import filed_under
from gpu_lsp.ir.opdefs.format_print import SPACING, FormatContext, OpPrinter, Spacing
from gpu_lsp.ir.opdefs.format_read import FormatState, finish, read_type_of, read_variable, set_types, variable_present
from gpu_lsp.ir.opdefs.opdef import SINGLE, Arg, OpDef
from gpu_lsp.syntax.cursor import Cursor, OpState, group_tokens
from gpu_lsp.syntax.lexer import tokenize


class Directive:
    """One element of an assembly format; it reads, prints and renders itself (xDSL's declarative format model)."""

    def names(self) -> list[str]:
        """The `$variables` it writes (the attr-dict leaves them out)."""
        return []

    def anchor(self) -> str | None:
        """The variable whose presence makes an optional group written, when this element opens it."""
        return None

    def present(self, c: Cursor, fs: FormatState) -> bool:
        """Whether the text goes on with this element (it opens an optional group)."""
        return False

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        raise NotImplementedError

    def print(self, ctx: FormatContext) -> None:
        raise NotImplementedError

    def render(self, h: Hover) -> None:
        """Its part of the one-line form hover and completion show."""


@dataclass(frozen=True)
class Literal(Directive):
    """A keyword or punctuation written as is: `` `to` ``, `` `[` ``; `` ` ` ``, `` `` `` and `\\n` only space."""

    text: str

    def present(self, c: Cursor, fs: FormatState) -> bool:
        return c.is_keyword(self.text) if _is_keyword(self.text) else c.is_punct(self.text)

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        if self.text in SPACING:
            return
        if _is_keyword(self.text):
            c.keyword(self.text)
        else:
            c.punct(self.text)

    def print(self, ctx: FormatContext) -> None:
        ctx.literal(self.text)

    def render(self, h: Hover) -> None:
        h.literal(self.text)


def _is_keyword(text: str) -> bool:
    return text[0].isalpha() or text[0] == "_"


@dataclass(frozen=True)
class Var(Directive):
    """`$name`: an operand, attribute, region or successor of the op."""

    name: str

    def names(self) -> list[str]:
        return [self.name]

    def anchor(self) -> str | None:
        return self.name

    def present(self, c: Cursor, fs: FormatState) -> bool:
        return variable_present(c, fs.op, self.name)

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        read_variable(c, st, fs, self.name)

    def print(self, ctx: FormatContext) -> None:
        ctx.variable(self.name)

    def render(self, h: Hover) -> None:
        h.variable(self.name)


@dataclass(frozen=True)
class TypeOf(Directive):
    """`type($x)`, `type(operands)`, `type(results)`; `qualified(...)` prints the full type."""

    name: str
    qualified: bool = False

    def anchor(self) -> str | None:
        return self.name

    def present(self, c: Cursor, fs: FormatState) -> bool:
        return c.is_type()

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        read_type_of(c, fs, self.name, self.qualified)

    def print(self, ctx: FormatContext) -> None:
        ctx.space()
        ctx.write(ctx.types_text(self.name, self.qualified))

    def render(self, h: Hover) -> None:
        h.element(_type_placeholder(h.op.operand(self.name) or h.op.result(self.name)))


@dataclass(frozen=True)
class FunctionalType(Directive):
    """`functional-type(operands, results)`: `(i32, f32) -> i64`."""

    inputs: str
    outputs: str

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        fn = c.function_type()
        set_types(fs, self.inputs, list(fn.inputs))
        set_types(fs, self.outputs, list(fn.results))

    def print(self, ctx: FormatContext) -> None:
        ctx.space()
        inputs = [v.type for v in ctx.values(self.inputs)]
        outputs = [v.type for v in ctx.values(self.outputs)]
        ctx.write(ctx.p.fmt.function_type(inputs, outputs))

    def render(self, h: Hover) -> None:
        h.element("(T, ...) -> (U, ...)")


@dataclass(frozen=True)
class AttrDict(Directive):
    """`attr-dict` or `attr-dict-with-keyword`: after a `prop-dict`, the discardable attributes only."""

    keyword: bool = False

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        if self.keyword:
            c.attr_dict_with_keyword(st)
        else:
            c.optional_attr_dict(st)

    def print(self, ctx: FormatContext) -> None:
        assert ctx.definition.format is not None
        elements = parse_format(ctx.definition.format)
        mentioned = variables(elements)
        if any(isinstance(d, PropDict) for d in elements):
            mentioned = [*mentioned, *ctx.op.properties]  # the prop-dict writes them
        ctx.attr_dict(mentioned, self.keyword)


@dataclass(frozen=True)
class PropDict(Directive):
    """`prop-dict`: `<{...}>` holds the properties the format does not write; ODS prints a space before it, even when empty."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        c.optional_prop_dict(st)

    def print(self, ctx: FormatContext) -> None:
        assert ctx.definition.format is not None
        ctx.prop_dict(variables(parse_format(ctx.definition.format)))


@dataclass(frozen=True)
class Custom(Directive):
    """`custom<Name>($a, type($a))`: a directive upstream writes in C++; each is registered once (format_customs.py)."""

    name: str
    args: tuple[Directive, ...]

    def names(self) -> list[str]:
        return variables(self.args)

    def anchor(self) -> str | None:
        return first_anchor(self.args)

    def present(self, c: Cursor, fs: FormatState) -> bool:
        return not c.at_end and not c.is_attr_dict() and not c.is_punct(":")

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        raise FormatSyntaxError(f"custom<{self.name}> has no reader")

    def print(self, ctx: FormatContext) -> None:
        raise FormatSyntaxError(f"custom<{self.name}> has no printer")

    def render(self, h: Hover) -> None:
        for arg in self.args:
            arg.render(h)

    def var_names(self) -> list[str]:
        """The names of its `$variable` arguments, in order."""
        return [a.name for a in self.args if isinstance(a, Var)]

    def type_names(self) -> list[str]:
        """The names of its `type($x)` arguments, in order."""
        return [a.name for a in self.args if isinstance(a, TypeOf)]


CUSTOM_DIRECTIVES: dict[str, type[Custom]] = {}


def custom_directive(name: str) -> Callable[[type[Custom]], type[Custom]]:
    """Register the class of `custom<name>` (its reader, printer and hover text); a name registered twice is a programming error."""
    return filed_under(CUSTOM_DIRECTIVES, name, f"custom<{name}>")


@dataclass(frozen=True)
class OptionalGroup(Directive):
    """`( ... )?`: present when its anchor (`^`, else its first variable) is; `:` else-group optional."""

    elements: tuple[Directive, ...]
    anchor_name: str | None
    else_elements: tuple[Directive, ...] = ()

    def names(self) -> list[str]:
        return variables(self.elements) + variables(self.else_elements)

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        first = next((e for e in self.elements if not (isinstance(e, Literal) and e.text in SPACING)), None)
        for d in self.elements if first is not None and first.present(c, fs) else self.else_elements:
            d.read(c, st, fs)

    def print(self, ctx: FormatContext) -> None:
        if not ctx.present(self.anchor_name):
            _print_all(ctx, self.else_elements)
            return
        for d in self.elements:
            if not (isinstance(d, Var) and d.name == self.anchor_name and ctx.is_unit(d.name)):
                d.print(ctx)

    def render(self, h: Hover) -> None:
        h.optional(self.elements)


@dataclass(frozen=True)
class OIList(Directive):
    """`oilist(`a` $a | `b` `(` $b `)`)`: clauses, each opened by its keyword, written in any order, each once."""

    clauses: tuple[tuple[Directive, ...], ...]

    def names(self) -> list[str]:
        return [name for clause in self.clauses for name in variables(clause)]

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        seen: set[str] = set()
        while (clause := next((cl for cl in self.clauses if cl[0].present(c, fs)), None)) is not None:
            keyword = clause[0]
            assert isinstance(keyword, Literal)
            if keyword.text in seen:
                c.fail_at_name(f"`{keyword.text}` clause can appear at most once in the expansion of the oilist directive")
            seen.add(keyword.text)
            for d in clause:
                d.read(c, st, fs)

    def print(self, ctx: FormatContext) -> None:
        for clause in self.clauses:
            if any(ctx.present(name) for name in variables(clause)):
                _print_all(ctx, clause)

    def render(self, h: Hover) -> None:
        for clause in self.clauses:
            h.optional(clause)


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Bracketed(Directive):
    """Directives between a literal `(`, `[` or `{` and its closer, which the lexer reads as one group."""

    opener: str
    elements: tuple[Directive, ...]

    def names(self) -> list[str]:
        return variables(self.elements)

    def anchor(self) -> str | None:
        return first_anchor(self.elements)

    def present(self, c: Cursor, fs: FormatState) -> bool:
        return c.is_attr_dict() if self.opener == "{" else c.is_group(self.opener)

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        if self.opener == "{":
            self._read_braced(c, st, fs)
            return
        sub = c.group(self.opener)
        for d in self.elements:
            d.read(sub, st, fs)
        if not sub.at_end:
            # The closing literal is what the generated parser reads next.
            sub.expected_by_parser(f"'{_CLOSERS[self.opener]}'")

    def _read_braced(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        """`` `{` $enum `}` ``: the lexer reads the braces and what is between them as one dictionary token."""
        only = self.elements[0] if len(self.elements) == 1 else None
        attr = fs.op.attribute(only.name) if isinstance(only, Var) else None
        enum = ENUMS.get(attr.constraint) if attr is not None else None
        if not c.is_attr_dict():
            c.expected("'{'")
        tok = c.next()
        if attr is None or enum is None:
            # Anything else between the braces (`{` `rounding` `=` $rounding `}`) is read from the token's text.
            lexed = tokenize(c.ctx.text, start=tok.start_pos + 1, end=tok.end_pos - 1, attr_mode=True)
            inside = Cursor(c.ctx, group_tokens(lexed.tokens), tok.end_pos - 1, c.op_name)
            for d in self.elements:
                d.read(inside, st, fs)
            if not inside.at_end:
                inside.expected_by_parser("'}'")
            return
        case = tok.value[1:-1].strip()
        if case not in enum.cases:
            c.fail(enum.unknown(case), tok)
        st.properties[attr.name] = enum.attribute(case)

    def print(self, ctx: FormatContext) -> None:
        ctx.literal(self.opener)
        _print_all(ctx, self.elements)
        ctx.literal(_CLOSERS[self.opener])

    def render(self, h: Hover) -> None:
        h.literal(self.opener)
        for d in self.elements:
            d.render(h)
        h.literal(_CLOSERS[self.opener])


def first_anchor(directives: tuple[Directive, ...]) -> str | None:
    """The anchor of the first directive that has one (an optional group's default anchor)."""
    return next((n for n in (d.anchor() for d in directives) if n is not None), None)


def _print_all(ctx: FormatContext, directives: tuple[Directive, ...]) -> None:
    for d in directives:
        d.print(ctx)


def _nested(directives: tuple[Directive, ...]) -> tuple[Directive, ...]:
    """Nest the directives between matching bracket literals, as the lexer nests tokens."""
    out: list[Directive] = []
    stack: list[tuple[str, list[Directive]]] = []
    for d in directives:
        if isinstance(d, Literal) and d.text in _CLOSERS:
            stack.append((d.text, out))
            out = []
        elif isinstance(d, Literal) and stack and d.text == _CLOSERS[stack[-1][0]]:
            opener, parent = stack.pop()
            parent.append(Bracketed(opener, tuple(out)))
            out = parent
        elif isinstance(d, OptionalGroup):
            out.append(OptionalGroup(_nested(d.elements), d.anchor_name, _nested(d.else_elements)))
        elif isinstance(d, OIList):
            out.append(OIList(tuple(_nested(clause) for clause in d.clauses)))
        else:
            out.append(d)
    if stack:
        raise FormatSyntaxError(f"unbalanced brackets in an assembly format: {directives}")
    return tuple(out)

class FormatSyntaxError(ValueError):
    """An assembly format this interpreter cannot read (a mistake in a declaration)."""


_TOKEN = re.compile(
    r"\s*(?:(?P<literal>`(?:[^`\\]|\\.)*`)|(?P<var>\$\w+)|(?P<word>[A-Za-z_][\w-]*)|(?P<punct>[()<>,?:^|]))"
)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        found = _TOKEN.match(text, pos)
        if found is None:
            if text[pos:].strip():
                raise FormatSyntaxError(f"cannot read format at {text[pos:]!r}")
            break
        out.append(found.group(found.lastgroup or "punct"))
        pos = found.end()
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise FormatSyntaxError(f"expected {expected or 'more'} in format {self.text!r}")
        self.pos += 1
        return tok

    def elements(self, stop: tuple[str, ...] = ()) -> tuple[tuple[Directive, ...], str | None]:
        out: list[Directive] = []
        anchor: str | None = None
        while (tok := self.peek()) is not None and tok not in stop:
            out.append(self.element())
            if self.peek() == "^":
                self.take()
                anchor = out[-1].anchor()
        return tuple(out), anchor

    def element(self) -> Directive:
        tok = self.take()
        if tok.startswith("`"):
            return Literal(tok[1:-1].replace("\\`", "`"))
        if tok.startswith("$"):
            return Var(tok[1:])
        if tok == "(":
            return self.optional_group()
        if tok == "attr-dict":
            return AttrDict()
        if tok == "prop-dict":
            return PropDict()
        if tok == "attr-dict-with-keyword":
            return AttrDict(keyword=True)
        if tok in ("type", "qualified"):
            return self.type_of(tok == "qualified")
        if tok == "functional-type":
            self.take("(")
            inputs = self.name_arg()
            self.take(",")
            outputs = self.name_arg()
            self.take(")")
            return FunctionalType(inputs, outputs)
        if tok == "custom":
            return self.custom()
        if tok == "oilist":
            return self.oilist()
        if tok in ("operands", "results", "regions", "successors"):
            return Var(tok)
        raise FormatSyntaxError(f"unknown directive {tok!r} in format {self.text!r}")

    def name_arg(self) -> str:
        tok = self.take()
        return tok[1:] if tok.startswith("$") else tok

    def type_of(self, qualified: bool) -> TypeOf:
        self.take("(")
        if qualified:
            inner = self.element()
            self.take(")")
            if isinstance(inner, TypeOf):
                return TypeOf(inner.name, qualified=True)
            if isinstance(inner, Var):
                return TypeOf(inner.name, qualified=True)
            raise FormatSyntaxError(f"qualified() of {inner!r} in format {self.text!r}")
        name = self.name_arg()
        self.take(")")
        return TypeOf(name)

    def custom(self) -> Custom:
        self.take("<")
        name = self.take()
        self.take(">")
        self.take("(")
        args: list[Directive] = []
        while self.peek() != ")":
            tok = self.peek()
            if tok == "ref":
                self.take()
                self.take("(")
                args.append(self.element())
                self.take(")")
            else:
                args.append(self.element())
            if self.peek() == ",":
                self.take()
        self.take(")")
        return CUSTOM_DIRECTIVES.get(name, Custom)(name, tuple(args))

    def oilist(self) -> OIList:
        self.take("(")
        clauses: list[tuple[Directive, ...]] = []
        while True:
            clause, _ = self.elements(stop=("|", ")"))
            if not clause or not isinstance(clause[0], Literal):
                raise FormatSyntaxError(f"an oilist clause must open with a keyword in format {self.text!r}")
            clauses.append(clause)
            if self.take() == ")":
                return OIList(tuple(clauses))

    def optional_group(self) -> OptionalGroup:
        elements, anchor = self.elements(stop=(")",))
        self.take(")")
        else_elements: tuple[Directive, ...] = ()
        if self.peek() == ":":
            self.take()
            self.take("(")
            else_elements, _ = self.elements(stop=(")",))
            self.take(")")
        self.take("?")
        if anchor is None:
            anchor = first_anchor(elements)
        return OptionalGroup(elements, anchor, else_elements)


@cache
def parse_format(text: str) -> tuple[Directive, ...]:
    """The directives of an assembly format, bracket-nested; raises FormatSyntaxError on a malformed one."""
    reader = _Reader(text)
    elements, _ = reader.elements()
    if reader.peek() is not None:
        raise FormatSyntaxError(f"unexpected {reader.peek()!r} in format {text!r}")
    return _nested(elements)


def variables(directives: tuple[Directive, ...]) -> list[str]:
    """Every `$name` a format mentions, in order (inside groups and hooks too)."""
    return [name for d in directives for name in d.names()]


def _directives(op: OpDef) -> tuple[Directive, ...]:
    """The op's format, without a leading `` ``: the first element is still spaced from the op name
    (mlir-opt writes `index.cmp slt(%a, %b)` for "`` $pred `(` $lhs `,` $rhs `)`")."""
    assert op.format is not None
    directives = parse_format(op.format)
    if directives and isinstance(directives[0], Literal) and directives[0].text == "":
        return directives[1:]
    return directives


def read_format(c: Cursor, st: OpState, op: OpDef) -> None:
    """Read `st.name` by its declaration `op`'s assembly format into `st`."""
    fs = FormatState(op)
    for d in parse_format(op.format or ""):
        d.read(c, st, fs)
    finish(st, fs)


def print_format(p: OpPrinter, op: Operation, definition: OpDef) -> None:
    """Write what follows the op name, by its declaration's assembly format."""
    ctx = FormatContext(p, op, definition)
    for d in _directives(definition):
        d.print(ctx)


class Hover(Spacing):
    """The one-line form of an op (hover, completion): placeholders for values, `[...]` around what may be left out."""

    def __init__(self, op: OpDef) -> None:
        super().__init__()
        self.op = op

    def element(self, text: str) -> None:
        self.space()
        self.write(text)

    def glued(self, text: str) -> None:
        """Text glued to what precedes it (`overflow<nsw, nuw>`)."""
        self.write(text)
        self.should_emit_space, self.last_was_punctuation = True, False

    def optional(self, elements: tuple[Directive, ...]) -> None:
        """` [...]`: what may be left out (a unit attribute's variable stands in its keyword)."""
        self.write(" [")
        self.should_emit_space, self.last_was_punctuation = False, True
        for d in elements:
            if not (isinstance(d, Var) and self.is_unit(d.name)):
                d.render(self)
        self.write("]")

    def is_unit(self, name: str) -> bool:
        attr = self.op.attribute(name)
        return attr is not None and attr.constraint == "UnitAttr"

    def variable(self, name: str) -> None:
        op = self.op
        operand = op.operand(name)
        if operand is not None:
            self.element(f"%{name}" if operand.kind == SINGLE else f"%{name}, ...")
            return
        attr = op.attribute(name)
        if attr is not None and attr.constraint in FLAGS:
            kind = FLAGS[attr.constraint]
            flags = ((kind.all_name,) if kind.all_name else ()) + kind.flags
            joint = kind.separator.strip() + ("" if kind.separator.strip() == "|" else " ")
            self.glued("<" + joint.join(flags[:3]) + (joint + "...>" if len(flags) > 3 else ">"))
        elif attr is not None and attr.constraint in ENUMS:
            cases = ENUMS[attr.constraint].cases
            self.element("|".join(cases[:4]) + ("|..." if len(cases) > 4 else ""))
        elif attr is not None and attr.constraint == "UnitAttr":
            return
        elif any(r.name == name for r in op.regions or ()):
            self.element("{ ... }")
        else:
            self.element(name if attr is None else f"<{name}>")


def _type_placeholder(arg: Arg | None) -> str:
    if arg is None:
        return "T"
    constraint = arg.constraint
    if "MemRef" in constraint:
        return "memref<...>"
    if constraint == "Index":
        return "index"
    if "Vector" in constraint:
        return "vector<...>"
    return "T"


def render_syntax(op: OpDef) -> str:
    """`%result = memref.load %memref[%indices, ...] : memref<...>` for memref.load's format."""
    h = Hover(op)
    for d in _directives(op):
        d.render(h)
    results = [f"%{r.name}" if r.kind == SINGLE else f"%{r.name}..." for r in op.results or ()]
    head = f"{', '.join(results)} = {op.name}" if results else op.name
    return head + "".join(h.parts)
