"""ODS assembly formats (`$src `[` $idx `]` attr-dict `:` type($src)`) parsed into directives."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Literal:
    """A keyword or punctuation written as is: `` `to` ``, `` `[` ``."""

    text: str


@dataclass(frozen=True)
class Var:
    """`$name`: an operand, attribute, region or successor of the op."""

    name: str


@dataclass(frozen=True)
class TypeOf:
    """`type($x)`, `type(operands)`, `type(results)`; `qualified(...)` prints the full type."""

    name: str
    qualified: bool = False


@dataclass(frozen=True)
class FunctionalType:
    """`functional-type(operands, results)`: `(i32, f32) -> i64`."""

    inputs: str
    outputs: str


@dataclass(frozen=True)
class AttrDict:
    """`attr-dict` or `attr-dict-with-keyword` (`prop-dict` reads and prints as `attr-dict`)."""

    keyword: bool = False


@dataclass(frozen=True)
class Custom:
    """`custom<Name>($a, type($a))`: a hook by name, read and printed by code."""

    name: str
    args: tuple[Directive, ...]


@dataclass(frozen=True)
class OptionalGroup:
    """`( ... )?`: present when its anchor (`^`, else its first variable) is; `:` else-group optional."""

    elements: tuple[Directive, ...]
    anchor: str | None
    else_elements: tuple[Directive, ...] = ()


@dataclass(frozen=True)
class OIList:
    """`oilist(`a` $a | `b` `(` $b `)`)`: clauses, each opened by its keyword, written in any order, each once."""

    clauses: tuple[tuple[Directive, ...], ...]


Directive = Literal | Var | TypeOf | FunctionalType | AttrDict | Custom | OptionalGroup | OIList


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
                anchor = _anchor_name(out[-1])
        return tuple(out), anchor

    def element(self) -> Directive:
        tok = self.take()
        if tok.startswith("`"):
            return Literal(tok[1:-1].replace("\\`", "`"))
        if tok.startswith("$"):
            return Var(tok[1:])
        if tok == "(":
            return self.optional_group()
        if tok in ("attr-dict", "prop-dict"):
            return AttrDict()
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
        return Custom(name, tuple(args))

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
            anchor = next((n for n in map(_anchor_name, elements) if n is not None), None)
        return OptionalGroup(elements, anchor, else_elements)


def _anchor_name(element: Directive) -> str | None:
    if isinstance(element, Var):
        return element.name
    if isinstance(element, TypeOf):
        return element.name
    if isinstance(element, Custom):
        return next((n for n in map(_anchor_name, element.args) if n is not None), None)
    return None


@cache
def parse_format(text: str) -> tuple[Directive, ...]:
    """The directives of an assembly format; raises FormatSyntaxError on a malformed one."""
    reader = _Reader(text)
    elements, _ = reader.elements()
    if reader.peek() is not None:
        raise FormatSyntaxError(f"unexpected {reader.peek()!r} in format {text!r}")
    return elements


def variables(directives: tuple[Directive, ...]) -> list[str]:
    """Every `$name` a format mentions, in order (inside groups and hooks too)."""
    out: list[str] = []
    for d in directives:
        if isinstance(d, Var):
            out.append(d.name)
        elif isinstance(d, OptionalGroup):
            out.extend(variables(d.elements) + variables(d.else_elements))
        elif isinstance(d, Custom):
            out.extend(variables(d.args))
        elif isinstance(d, OIList):
            for clause in d.clauses:
                out.extend(variables(clause))
    return out
