"""A layout-free MLIR lexer that feeds the structure parser (syntax/structure.py).

Newlines are whitespace, as in MLIR. The lexer does the work a
one-token-lookahead grammar cannot, from the tokens around (never from line
starts): it tells a result list (`%a, %b =` before an op name) from a use, a
block label (`^bb1(...):`) from a successor, an op name from a keyword, an
attribute dictionary from a region, and it scans types and
attributes with nested brackets into single tokens (parsed later, with a
cache). It also keeps brackets balanced, reporting the first stray or missing
one, so the parser always sees a well-formed structure and one typo yields one
diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gpu_lsp.syntax.names import BARE_ID, STRING_BODY, STRING_LITERAL, SUFFIX_ID, SYMBOL_REF
from gpu_lsp.syntax.tokens import Tok
from gpu_lsp.text import TextRange

_SPACE_CHARS: Final = " \t\r\n"
# First characters that always start the token of that kind in _MASTER (`{` and `<` may start
# longer ones).
_PUNCT_CHARS: Final = "()[]}:,=>*?|"
# Those of them `_lex` reads itself, with no scan: the colon and the brackets it matches.
_SINGLE_TOKENS: Final = ":()[]"
_WORD_START: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
# ASCII characters of the identifiers of names.py, whose runs scan_token reads itself (typed loops
# the compiled build runs faster than a pattern), leaving any other character to the patterns:
# digits, the first characters of a SUFFIX_ID word, all of its characters, a BARE_ID's rest.
_ASCII_DIGITS: Final = "0123456789"
# What `\s` matches in ASCII.
_ASCII_SPACE: Final = " \t\n\r\f\v\x1c\x1d\x1e\x1f"
_ASCII_NAME_START: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$.-"
_ASCII_NAME_CHARS: Final = _ASCII_NAME_START + _ASCII_DIGITS
_ASCII_WORD_CHARS: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$."
_VALUE: Final = re.compile(rf"%{SUFFIX_ID}(?:#\d+)?")
_WORD_REST: Final = re.compile(r"[\w$.]*")
# Whitespace, newlines included, is skipped before each token (MLIR has no lines).
_MASTER: Final = re.compile(
    r"[ \t\r\n]*(?:"
    + "|".join(
        [
            r"(?P<COMMENT>//[^\n]*)",
            rf"(?P<VALUE>%{SUFFIX_ID}(?:#\d+)?)",
            rf"(?P<CARET>\^{SUFFIX_ID})",
            rf"(?P<SYMBOL>{SYMBOL_REF})",
            r"(?P<HASH>#)",
            r"(?P<BANG>!)",
            r"(?P<FLOAT>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?)",
            r"(?P<INT>0x[0-9a-fA-F]+|[-+]?\d+)",
            rf"(?P<STRING>{STRING_LITERAL})",
            rf"(?P<BAREWORD>{BARE_ID})",
            r"(?P<ARROW>->)",
            r"(?P<PROPS><\{)",
            r"(?P<FILEMETA>\{-#)",
            r"(?P<PUNCT>\.\.\.|[()\[\]{}:,=<>*?+\-|])",
        ]
    )
    + ")"
)

# A result list: `%a, %b:2 =` before an op name (`affine.for %i = max ...` is no op start).
_RESULTS: Final = re.compile(
    rf"%{SUFFIX_ID}(?:\s*:\s*\d+)?(?:\s*,\s*%{SUFFIX_ID}(?:\s*:\s*\d+)?)*\s*=(?!=)\s*(?=[A-Za-z_\"])(?!(?:max|min)\b)"
)
# What may follow the `=` of a result list (the lookahead of _RESULTS).
_OP_NAME_START: Final = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"'
_DICT_START: Final = re.compile(rf"\s*(?:\[|(?:{BARE_ID}|{STRING_LITERAL})\s*(?:=(?!=)|,|\}}))")
_EMPTY_BRACES: Final = re.compile(r"\s*\}")
# `{%a, %b}` holding SSA uses only (IREE's dynamic dimensions after a type, `tensor<?xf32>{%d}`):
# no region (one would start with an op) and no dictionary; its braces are punctuation.
_VALUE_BRACES: Final = re.compile(rf"\{{\s*%{SUFFIX_ID}(?:#\d+)?(?:\s*,\s*%{SUFFIX_ID}(?:#\d+)?)*\s*\}}")
_DICT_KEY: Final = re.compile(rf"\s*({BARE_ID})\s*(?:,|\}})")
_LABEL_END: Final = re.compile(r"\s*(\(|:(?!:))")
_COLON: Final = re.compile(r"\s*:(?!:)")
_GENERIC_OPEN: Final = re.compile(r"\s*\(")
_CALLEE_STRING_OPS: Final = frozenset(("llvm.call_intrinsic", "emitc.call_opaque"))
_BRACKET_SCAN: Final = re.compile(r'[<>()\[\]{}"\n]')
_STRING_REST: Final = re.compile(rf'{STRING_BODY}"')
_LINE_OP_START: Final = re.compile(
    rf"[ \t]*(?:%{SUFFIX_ID}(?::\d+)?(?:[ \t]*,[ \t]*%{SUFFIX_ID}(?::\d+)?)*[ \t]*=[ \t]*[A-Za-z_\"]|[A-Za-z_][\w$]*\.[\w$.]+[ \t](?![ \t]*=)|\}}[ \t]*$|\^)"
)

_ALIAS_WORD: Final = re.compile(r"[\w$.\-]*")
_ALIAS_EQ: Final = re.compile(r"\s*=(?!=)")
_BUILTIN_TYPE_WORD: Final = re.compile(
    r"(?:[su]?i(?:0|[1-9]\d*)|bf16|tf32|f16|f32|f64|f80|f128|f(?:4|6|8)E\w+|index|none)"
)
_TYPE_WORDS: Final[dict[str, bool]] = {}  # bare word -> whether it names a builtin type (cache)
_COMPOUND_TYPE_WORDS: Final = frozenset(("memref", "tensor", "vector", "complex", "tuple"))
_COMPOUND_ATTR_WORDS: Final = frozenset(
    ("dense", "dense_resource", "sparse", "array", "affine_map", "affine_set", "strided", "distinct")
)
UNDOTTED_OP_NAMES: Final = frozenset(
    ("return", "call", "call_indirect", "module", "func", "unrealized_conversion_cast", "constant")
)
# Undotted op names that are also keywords of other ops (`memref.global "private" constant @x`):
# op names only where an op must start.
_KEYWORD_OP_NAMES: Final = frozenset(("constant",))

_OPEN_CLOSE: Final = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSERS: Final = {")": "(", "]": "[", "}": "{", ">": "<"}


# Brackets (of structure and inside types and attributes) open at once at most: what is nested
# is read by recursive functions, whose depth this bounds (Python's recursion limit, or the C
# stack of the compiled build).
MAX_NESTING: Final = 100


_OP_STARTS: Final = frozenset(("RESULTS", "ALIAS_DEF", "FILEMETA"))
_NO_LIMIT: Final = 1 << 40  # errors: no budget


class TooDeep(Exception):
    """Brackets nested more than MAX_NESTING deep, the innermost opening at `at`; `inner` of
    them were open inside a token (a type, an attribute), the others are the lexer's."""

    def __init__(self, at: int, inner: int = 0) -> None:
        super().__init__(at)
        self.at = at
        self.inner = inner


@dataclass(frozen=True, slots=True)
class LexError:
    """A lexical or bracket-structure error; `noticed`, where a parser reading on finds it, when
    later than its range (a bracket left open: where the lexer closes it)."""

    message: str
    range: TextRange
    noticed: int | None = None


@dataclass(frozen=True, slots=True)
class Comment:
    """A `//` comment, kept for suppressions and semantic tokens."""

    text: str
    range: TextRange


class LexResult:
    """Tokens for the parser plus comments and errors."""

    __slots__ = ("tokens", "comments", "errors", "stopped")

    def __init__(self) -> None:
        self.tokens: list[Tok] = []
        self.comments: list[Comment] = []
        self.errors: list[LexError] = []
        # Where lexing stopped because the error budget was spent (None: it read to the end).
        self.stopped: int | None = None


def scan_balanced(text: str, pos: int, limit: int | None = None) -> tuple[int, bool]:
    """End offset of the bracket group opening at `pos`, and whether it closed.

    Strings are skipped, `->` does not close a `<`. An unclosed group stops
    before a line that starts a new operation, or at `limit`. Raises TooDeep past MAX_NESTING.
    """
    end_limit = len(text) if limit is None else limit
    stack: list[str] = []
    i = pos
    search = _BRACKET_SCAN.search
    while True:
        m = search(text, i, end_limit)
        if m is None:
            return end_limit, False
        ch = m.group()
        j = m.start()
        if ch == '"':
            k = j + 1
            while True:
                q = text.find('"', k, end_limit)
                if q < 0:
                    return end_limit, False
                backslashes = 0
                b = q - 1
                while b >= k and text[b] == "\\":
                    backslashes += 1
                    b -= 1
                if backslashes % 2 == 0:
                    break
                k = q + 1
            i = q + 1
            continue
        if ch == "\n":
            if stack and _LINE_OP_START.match(text, j + 1):
                return j, False
            i = j + 1
            continue
        if ch in _OPEN_CLOSE:
            stack.append(ch)
            if len(stack) > MAX_NESTING:
                raise TooDeep(j, len(stack))
        elif ch == ">" and j > 0 and text[j - 1] == "-":
            pass
        else:
            opener = _CLOSERS[ch]
            if not stack:
                return j, False
            if stack[-1] != opener:
                if opener in stack and ch != ">":
                    while stack and stack[-1] != opener:
                        stack.pop()
                elif ch == ">":
                    i = j + 1
                    continue
                else:
                    return j, False
            stack.pop()
            if not stack:
                return j + 1, True
        i = j + 1


def wrong_token_offset(text: str, pos: int, start: int, at_end: bool = False) -> int:
    """Where upstream reports "expected ..." for the token at `pos` (Parser::emitWrongTokenError).

    At the end of the input it steps back one character; then it backs up over blank
    lines (and a `//` comment on the line before) to the end of the previous code, so the
    error points just after the last token read. `start` is where the buffer begins.
    """
    if at_end and pos > start:
        pos -= 1
    original = pos
    cut = pos
    while True:
        while cut > start and text[cut - 1] in " \t":
            cut -= 1
        if cut == start:
            return original
        if text[cut - 1] not in "\n\r":
            return cut
        cut -= 1
        line_start = max(text.rfind("\n", start, cut), text.rfind("\r", start, cut))
        comment = text.find("//", line_start + 1 if line_start >= 0 else start, cut)
        if comment >= 0:
            cut = comment


def _is_dict(
    text: str, pos: int, end: int, before: Tok | None, generic: bool, in_brackets: bool, op_names: frozenset[str], attr_mode: bool
) -> bool:
    """Whether the `{` ending at `pos` opens an attribute dictionary rather than a region.

    `attributes {`, a type's attributes in brackets (`(%a: T {llvm.noalias})`), `{key = ...}`,
    `{key, ...}` and `{unit}` (a key that is no op name) are dictionaries; `{}` is one only
    after the operands of a generic op (`"op"() {}`).
    """
    if attr_mode or (before is not None and before.type == "BARE" and before.value == "attributes"):
        return True
    if in_brackets and before is not None and before.type == "TYPE":
        return True
    if _EMPTY_BRACES.match(text, pos, end) is not None:
        return generic and before is not None and before.type == "RPAR"
    if _DICT_START.match(text, pos, end) is None:
        return False
    key = _DICT_KEY.match(text, pos, end)
    return key is None or (key.group(1) not in op_names and key.group(1) not in UNDOTTED_OP_NAMES)


_MODULE_NAMES: Final = ("module", "builtin.module")
# Ops whose custom form reads a region right after the name (their formats start with an
# optional group and then the region): `scf.reduce {tag}` is a region holding an op `tag`.
_REGION_AFTER_NAME: Final = ("scf.reduce", "scf.execute_region")


def _opens_module_body(tokens: list[Tok]) -> bool:
    """Whether a `{` here opens a region whatever it holds: after `module`, `module @name` or `scf.reduce`."""
    k = len(tokens) - 1
    if k >= 0 and tokens[k].type == "OPNAME" and tokens[k].value in _REGION_AFTER_NAME:
        return True
    if k >= 0 and tokens[k].type == "SYMBOL":
        k -= 1
    return k >= 0 and tokens[k].type == "OPNAME" and tokens[k].value in _MODULE_NAMES


def _takes_callee_string(before: Tok | None) -> bool:
    """Whether `before` is the name of an op whose syntax starts with `"callee"(...)`."""
    return before is not None and before.type == "OPNAME" and before.value in _CALLEE_STRING_OPS


def _is_label(text: str, pos: int, end: int, before: Tok | None) -> bool:
    """Whether the `^name` ending at `pos` is a block label: `(args)` and `:` follow.

    A successor can be followed by a type only after `unwind` (`llvm.invoke`).
    """
    m = _LABEL_END.match(text, pos, end)
    if m is None or (before is not None and before.type == "BARE" and before.value == "unwind"):
        return False
    if m.group(1) == ":":
        return True
    close, ok = scan_balanced(text, m.start(1), end)
    return ok and _COLON.match(text, close, end) is not None


class _Frame:
    """Open brackets inside one region (or the top level), and whether its current op is generic."""

    __slots__ = ("stack", "generic")

    def __init__(self) -> None:
        self.stack: list[Tok] = []
        self.generic = False


def _error(errors: list[LexError], message: str, s: int, e: int) -> None:
    errors.append(LexError(message, TextRange(s, max(e, s))))


def _last(tokens: list[Tok]) -> Tok | None:
    """The token read before the current one."""
    return tokens[-1] if tokens else None


def _close_frame_brackets(out: LexResult, frame: _Frame, at: int, reason: str) -> None:
    """Report the brackets still open in `frame` and close them at `at`."""
    while frame.stack:
        opener = frame.stack.pop()
        closer = _OPEN_CLOSE[opener.value]
        out.errors.append(LexError(f"expected '{closer}' {reason}", TextRange(opener.start_pos, opener.end_pos), at))
        out.tokens.append(Tok("RPAR" if closer == ")" else "RSQB", closer, at, at))


def _results_end(text: str, start: int, pos: int, end: int) -> int:
    """Where the result list (_RESULTS) that starts with the value at `start` (ending at `pos`)
    ends; -1 where none does. `:`, `,` or `=` must follow the value; the commonest case, `%a = op`,
    is told here, the others by the pattern."""
    while pos < end and text[pos].isspace():
        pos += 1
    if pos >= end or text[pos] not in ":,=":
        return -1
    if text[pos] == "=" and text.find("#", start, pos) < 0:
        pos += 1
        if pos >= end or text[pos] == "=":
            return -1
        while pos < end and text[pos].isspace():
            pos += 1
        if pos >= end or text[pos] not in _OP_NAME_START:
            return -1
        if not (text.startswith("max", pos) or text.startswith("min", pos)):
            return pos
    elif not _may_go_on(text, pos, end):
        return -1
    results = _RESULTS.match(text, start, end)
    return results.end() if results is not None else -1


def _may_go_on(text: str, pos: int, end: int) -> bool:
    """Whether the result list (_RESULTS) whose first value ends at `pos` may go on to its `=`: False
    where the pattern cannot match (`%a, %b)`, `%a, %b : index`: the first operands of an op); a
    character beyond ASCII is left to the pattern."""
    i = pos
    while True:
        while i < end and text[i] in _ASCII_SPACE:
            i += 1
        if i >= end:
            return False
        c = text[i]
        if c == "=":
            return True
        if c != ":" and c != ",":
            return ord(c) >= 128
        i += 1
        while i < end and text[i] in _ASCII_SPACE:
            i += 1
        if i >= end:
            return False
        if c == ":":  # a result count, `%a:2`
            if text[i] not in _ASCII_DIGITS:
                return ord(text[i]) >= 128
            while i < end and text[i] in _ASCII_DIGITS:
                i += 1
            continue
        if text[i] != "%":  # the next value, `, %b`
            return ord(text[i]) >= 128
        i += 1
        named = i
        while i < end and text[i] in _ASCII_NAME_CHARS:
            i += 1
        if i == named:
            return i < end and ord(text[i]) >= 128


def scan_token(text: str, pos: int, end: int) -> tuple[str, int, int]:
    """The kind (a group of _MASTER) and span of the token at `pos`, where no whitespace is;
    ("", pos, pos) when none starts there. The most common first characters are told apart
    here, the others by _MASTER."""
    c = text[pos]
    if c in _PUNCT_CHARS:
        return "PUNCT", pos, pos + 1
    if c in _WORD_START:
        i = pos + 1
        while i < end and text[i] in _ASCII_WORD_CHARS:
            i += 1
        if i < end and ord(text[i]) >= 128:  # `\w` holds non-ASCII letters and digits
            rest = _WORD_REST.match(text, pos + 1, end)  # always matches
            i = rest.end() if rest is not None else pos + 1
        return "BAREWORD", pos, i
    if c == "%":
        i = pos + 1
        first = text[i] if i < end else ""
        if first != "" and first in _ASCII_NAME_CHARS:
            chars = _ASCII_NAME_CHARS if first in _ASCII_NAME_START else _ASCII_DIGITS
            i += 1
            while i < end and text[i] in chars:
                i += 1
            if i >= end or (text[i] != "#" and ord(text[i]) < 128):
                return "VALUE", pos, i
        value = _VALUE.match(text, pos, end)
        if value is not None:
            return "VALUE", pos, value.end()
    elif c == "{":
        if text.startswith("{-#", pos, end):
            return "FILEMETA", pos, pos + 3
        return "PUNCT", pos, pos + 1
    elif c == "<":
        if text.startswith("<{", pos, end):
            return "PROPS", pos, pos + 2
        return "PUNCT", pos, pos + 1
    m = _MASTER.match(text, pos, end)
    if m is None:
        return "", pos, pos
    kind = m.lastgroup or ""  # every alternative of _MASTER is a named group
    s, e = m.span(kind)
    return kind, s, e


def tokenize(
    text: str,
    op_names: frozenset[str] = frozenset(),
    start: int = 0,
    end: int | None = None,
    attr_mode: bool = False,
    budget: int | None = None,
) -> LexResult:
    """Lex `text[start:end]` into parser tokens (offsets are absolute).

    With a `budget`, lexing stops before the next token once that many errors are found
    (`LexResult.stopped`): the brackets still open are closed there, as at the end.

    In `attr_mode` (the inside of an attribute dictionary) nothing starts an
    operation, a block or a region. Brackets nested more than MAX_NESTING deep are an error:
    the top-level op they are in is left out (the readers of what is nested recurse), and
    lexing goes on after it.
    """
    out = LexResult()
    end = len(text) if end is None else end
    pos = start
    resumed = False
    while True:
        frames = [_Frame()]
        first = len(out.tokens)
        deep: TooDeep | None = None
        try:
            _lex(out, frames, text, op_names, pos, end, attr_mode, _NO_LIMIT if budget is None else budget)
        except TooDeep as raised:
            deep = raised
        if resumed:
            _drop_until_op(out.tokens, first)
        if deep is None or out.stopped is not None:
            return out
        _error(out.errors, f"brackets nested more than {MAX_NESTING} deep", deep.at, deep.at + 1)
        _drop_open_op(out.tokens)
        pos = _after_brackets(text, deep.at + 1, end, _nesting(frames) + deep.inner)
        resumed = True


def _drop_until_op(tokens: list[Tok], first: int) -> None:
    """Drop the tokens from `first` to the first op start outside brackets: the rest of an op
    left out (`tokenize` goes on after its brackets)."""
    depth = 0
    for i in range(first, len(tokens)):
        kind = tokens[i].type
        if depth == 0 and (kind in _OP_STARTS or kind == "OPNAME"):
            del tokens[first:i]
            return
        if kind == "LPAR" or kind == "LSQB" or kind == "LBRACE":
            depth += 1
        elif kind == "RPAR" or kind == "RSQB" or kind == "RBRACE":
            depth -= 1
    del tokens[first:]


def _after_brackets(text: str, pos: int, end: int, open_count: int) -> int:
    """Where `open_count` brackets open before `pos` are all closed (strings skipped, `->` no
    bracket; without a count of its own for each kind), or `end`."""
    search = _BRACKET_SCAN.search
    while open_count > 0:
        m = search(text, pos, end)
        if m is None:
            return end
        ch = m.group()
        j = m.start()
        pos = j + 1
        if ch == '"':
            closing = _STRING_REST.match(text, pos, end)
            pos = closing.end() if closing is not None else end
        elif ch in _OPEN_CLOSE:
            open_count += 1
        elif ch != "\n" and not (ch == ">" and j > 0 and text[j - 1] == "-"):
            open_count -= 1
    return pos


def _drop_open_op(tokens: list[Tok]) -> None:
    """Drop the tokens of the top-level op (or alias) still open: everything from the last op
    start outside brackets on (what precedes it is balanced)."""
    depth = 0
    cut = 0
    previous = ""
    for i, tok in enumerate(tokens):
        kind = tok.type
        if kind == "LPAR" or kind == "LSQB" or kind == "LBRACE":
            depth += 1
        elif kind == "RPAR" or kind == "RSQB" or kind == "RBRACE":
            depth -= 1
        elif depth == 0 and (kind in _OP_STARTS or (kind == "OPNAME" and previous != "RESULTS")):
            cut = i
        previous = kind
    del tokens[cut:]


def _nesting(frames: list[_Frame]) -> int:
    """How many brackets (regions included) are open."""
    total = 0
    for frame in frames:
        total += len(frame.stack)
    return total


def _lex(
    out: LexResult, frames: list[_Frame], text: str, op_names: frozenset[str], start: int, end: int, attr_mode: bool, budget: int
) -> None:
    """`tokenize`'s loop. No nested functions here: compiled by mypyc, they would share an
    environment object with this frame, a reference cycle holding every token until the cyclic
    collector runs (and the language server freezes it during an open)."""
    tokens = out.tokens
    append = tokens.append
    errors = out.errors
    expect_op = not attr_mode
    pos = start
    value_brace_close = -1  # the `}` of a `{%a, %b}` value list being lexed

    while True:
        while pos < end and text[pos] in _SPACE_CHARS:
            pos += 1
        if pos >= end:
            break
        if len(errors) >= budget:
            out.stopped = end = pos
            break
        c = text[pos]
        if c == "," or c == "=":  # the commonest tokens, never brackets or op starts: no frame work
            append(Tok("PUNCT", c, pos, pos + 1))
            pos += 1
            expect_op = False
            continue
        if c in _SINGLE_TOKENS:  # always these tokens: read without a scan
            s = pos
            pos = e = s + 1
            expect_op = False
            if c == ":":
                append(Tok("COLON", ":", s, e))
                continue
            frame = frames[-1]
            if c == "(" or c == "[":
                tok = Tok("LPAR" if c == "(" else "LSQB", c, s, e)
                append(tok)
                frame.stack.append(tok)
                if _nesting(frames) > MAX_NESTING:
                    raise TooDeep(s)
                continue
            opener = "(" if c == ")" else "["
            if frame.stack and frame.stack[-1].value == opener:
                frame.stack.pop()
                append(Tok("RPAR" if c == ")" else "RSQB", c, s, e))
                continue
            if any(t.value == opener for t in frame.stack):
                while frame.stack[-1].value != opener:
                    inner = frame.stack.pop()
                    closer = _OPEN_CLOSE[inner.value]
                    _error(errors, f"expected '{closer}'", inner.start_pos, inner.end_pos)
                    append(Tok("RPAR" if closer == ")" else "RSQB", closer, s, s))
                frame.stack.pop()
                append(Tok("RPAR" if c == ")" else "RSQB", c, s, e))
                continue
            _error(errors, f"unexpected '{c}'", s, e)
            continue
        kind, s, e = scan_token(text, pos, end)
        if not kind and text[s] == "@":  # upstream's lexAtIdentifier, at the character after the `@`
            _error(errors, "@ identifier expected to start with letter or '_'", s + 1, min(s + 2, end))
            pos = s + 1
            continue
        if not kind:
            _error(errors, f"unexpected character '{text[s]}'", s, s + 1)
            pos = s + 1
            continue
        pos = e
        if kind == "COMMENT":
            out.comments.append(Comment(text[s:e], TextRange(s, e)))
            continue
        frame = frames[-1]

        if kind == "VALUE":
            before = tokens[-1] if tokens else None
            # a result list never follows a comma (skipping that keeps long operand lists linear)
            if not attr_mode and not (before is not None and before.value == ","):
                results_end = _results_end(text, s, e, end)
                if results_end >= 0:
                    if frame.stack:
                        _close_frame_brackets(out, frame, s, "before the next operation")
                    pos = results_end
                    append(Tok("RESULTS", text[s:pos], s, pos))
                    expect_op = True
                    continue
            append(Tok("VALUE", text[s:e], s, e))
            expect_op = False
            continue

        if kind == "PUNCT":
            expect_op = False
            ch = text[s:e]
            if ch == "{" and not attr_mode:
                braces = _VALUE_BRACES.match(text, s, end)
                if braces is not None:
                    value_brace_close = braces.end() - 1
                    append(Tok("PUNCT", ch, s, e))
                    continue
            if ch == "}" and s == value_brace_close:
                append(Tok("PUNCT", ch, s, e))
                continue
            if ch == "{":
                if not _opens_module_body(tokens) and _is_dict(
                    text, e, end, _last(tokens), frame.generic, bool(frame.stack), op_names, attr_mode
                ):
                    close, ok = scan_balanced(text, s, end)
                    if not ok:
                        _error(errors, "expected '}' to close the attribute dictionary", s, e)
                    pos = close
                    append(Tok("DICT", text[s:pos], s, pos))
                    continue
                tok = Tok("LBRACE", "{", s, e)
                append(tok)
                frame.stack.append(tok)
                frames.append(_Frame())
                if _nesting(frames) > MAX_NESTING:
                    raise TooDeep(s)
                expect_op = True
                continue
            if ch == "}":
                if len(frames) == 1:
                    at = wrong_token_offset(text, s, start)
                    _error(errors, "expected operation name in quotes", at, at if at != s else e)
                    continue
                if frame.stack:
                    _close_frame_brackets(out, frame, s, "before '}'")
                frames.pop()
                frames[-1].stack.pop()
                append(Tok("RBRACE", "}", s, e))
                continue
            append(Tok("PUNCT", ch, s, e))
            continue

        if kind == "BAREWORD":
            word = text[s:e]
            dotted = "." in word
            if not attr_mode and (
                expect_op
                or (
                    not frame.stack
                    and (
                        dotted
                        or (word in UNDOTTED_OP_NAMES and word not in _KEYWORD_OP_NAMES and not (e < end and text[e] == "("))
                    )
                )
            ):
                if frame.stack:
                    _close_frame_brackets(out, frame, s, "before the next operation")
                append(Tok("OPNAME", word, s, e))
                frame.generic = False
                expect_op = False
                continue
            expect_op = False
            after = text[e] if e < end else ""
            if after == "<" and word in _COMPOUND_TYPE_WORDS:
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, f"unbalanced '<' in '{word}' type", e, e + 1)
                pos = close
                append(Tok("TYPE", text[s:pos], s, pos))
                continue
            if (after == "<" or after == "[") and word in _COMPOUND_ATTR_WORDS:
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, f"unbalanced '{after}' in '{word}' attribute", e, e + 1)
                pos = close
                if word == "distinct" and pos < end and text[pos] == "<":
                    pos, ok = scan_balanced(text, pos, end)
                append(Tok("ATTR", text[s:pos], s, pos))
                continue
            if after == "(" and word == "loc":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, "unbalanced '(' in location", e, e + 1)
                pos = close
                append(Tok("LOC", text[s:pos], s, pos))
                continue
            is_type = _TYPE_WORDS.get(word)
            if is_type is None:
                is_type = _TYPE_WORDS[word] = _BUILTIN_TYPE_WORD.fullmatch(word) is not None
                if len(_TYPE_WORDS) > 10000:
                    _TYPE_WORDS.clear()
            if is_type:
                append(Tok("TYPE", word, s, e))
                continue
            append(Tok("BARE", word, s, e))
            continue

        if kind == "STRING":
            if not attr_mode and (
                expect_op
                or (
                    not frame.stack
                    and _GENERIC_OPEN.match(text, e, end) is not None
                    and not _takes_callee_string(_last(tokens))
                )
            ):
                append(Tok("OPNAME", text[s:e], s, e))
                frame.generic = True
                expect_op = False
                continue
            append(Tok("STRING", text[s:e], s, e))
            continue

        if kind == "HASH" or kind == "BANG":
            # `#alias`, `#dialect.attr<...>`, `!dialect.type<...>`, `!alias`
            w = _ALIAS_WORD.match(text, e, end)
            pos = w.end() if w else e
            if pos < end and text[pos] in "<" and pos > e:
                pos, ok = scan_balanced(text, pos, end)
                if not ok:
                    _error(errors, f"unbalanced '<' in '{text[s:e + 20].split()[0]}'", s, s + 1)
            elif pos < end and text[pos] == "<" and pos == e:
                pos, ok = scan_balanced(text, pos, end)
            if pos == e:
                _error(errors, f"expected an identifier after '{text[s:e]}'", s, e)
                continue
            word = text[s:pos]
            if not attr_mode and not frame.stack and len(frames) == 1:
                q = _ALIAS_EQ.match(text, pos, end)
                if q is not None:
                    pos = q.end()
                    append(Tok("ALIAS_DEF", word, s, pos))
                    expect_op = False
                    continue
            append(Tok("ATTR" if kind == "HASH" else "TYPE", word, s, pos))
            expect_op = False
            continue

        if kind == "CARET":
            if not attr_mode and not frame.stack and _is_label(text, e, end, _last(tokens)):
                append(Tok("BLOCK_LABEL", text[s:e], s, e))
                expect_op = False
            else:
                append(Tok("BLOCK_REF", text[s:e], s, e))
            continue

        expect_op = False
        if kind == "SYMBOL":
            append(Tok("SYMBOL", text[s:e], s, e))
            continue
        if kind == "FLOAT":
            append(Tok("FLOAT", text[s:e], s, e))
            continue
        if kind == "INT":
            append(Tok("INT", text[s:e], s, e))
            continue
        if kind == "ARROW":
            append(Tok("PUNCT", "->", s, e))
            continue
        if kind == "PROPS":
            close, ok = scan_balanced(text, s + 1, end)
            if not ok:
                _error(errors, "unbalanced '{' in properties", s, e)
            pos = close
            if pos < end and text[pos] == ">":
                pos += 1
            else:
                _error(errors, "expected '>' to close properties", pos, pos)
            append(Tok("PROPS", text[s:pos], s, pos))
            continue
        if kind == "FILEMETA":
            close = text.find("#-}", e, end)
            pos = end if close < 0 else close + 3
            if close < 0:
                _error(errors, "expected '#-}' to close the file metadata", s, e)
            append(Tok("FILEMETA", text[s:pos], s, pos))
            continue

    if len(frames) > 1:
        # upstream reads on for the next operation of the open region and finds the end
        at = wrong_token_offset(text, end, start, at_end=True)
        _error(errors, "expected operation name in quotes", at, at)
    while len(frames) > 1:
        frame = frames.pop()
        _close_frame_brackets(out, frame, end, "at the end of the input")
        frames[-1].stack.pop()
        append(Tok("RBRACE", "}", end, end))
    _close_frame_brackets(out, frames[0], end, "at the end of the input")

def unquote_symbol(name: str) -> str:
    """A symbol's name as written after `@` (bare, or a string literal) -> the name."""
    return unescape(name[1:-1]) if name.startswith('"') else name


def unescape(body: str) -> str:
    """Undo MLIR string escapes (`\\n`, `\\"`, `\\\\`, `\\XX` hex)."""
    if "\\" not in body:
        return body
    out = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in '"\\':
            out.append(nxt)
            i += 2
        elif nxt == "n":
            out.append("\n")
            i += 2
        elif nxt == "t":
            out.append("\t")
            i += 2
        elif i + 2 < n and all(c in "0123456789abcdefABCDEF" for c in body[i + 1 : i + 3]):
            out.append(chr(int(body[i + 1 : i + 3], 16)))
            i += 3
        else:
            out.append(nxt)
            i += 2
    return "".join(out)
