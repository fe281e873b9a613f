"""A layout-free MLIR lexer that feeds the structure parser (parser/structure.py).

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

from gpu_lsp.parser.tokens import Tok, make_token
from gpu_lsp.text import TextRange

_BARE = r"[A-Za-z_][\w$.]*"
_SUFFIX = r"(?:[A-Za-z_$.\-][\w$.\-]*|\d+)"
_STRING = r'"(?:[^"\\\n]|\\.)*"'

_SPACES = re.compile(r"[ \t\r\n]*")
# Whitespace, newlines included, is skipped before each token (MLIR has no lines).
_MASTER = re.compile(
    r"[ \t\r\n]*(?:"
    + "|".join(
        [
            r"(?P<COMMENT>//[^\n]*)",
            rf"(?P<VALUE>%{_SUFFIX}(?:#\d+)?)",
            rf"(?P<CARET>\^{_SUFFIX})",
            rf"(?P<SYMBOL>@(?:[A-Za-z_$.\-][\w$.\-]*|{_STRING})(?:::@(?:[A-Za-z_$.\-][\w$.\-]*|{_STRING}))*)",
            r"(?P<HASH>#)",
            r"(?P<BANG>!)",
            r"(?P<FLOAT>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?)",
            r"(?P<INT>0x[0-9a-fA-F]+|[-+]?\d+)",
            rf"(?P<STRING>{_STRING})",
            rf"(?P<BAREWORD>{_BARE})",
            r"(?P<ARROW>->)",
            r"(?P<PROPS><\{)",
            r"(?P<FILEMETA>\{-#)",
            r"(?P<PUNCT>\.\.\.|[()\[\]{}:,=<>*?+\-|])",
        ]
    )
    + ")"
)

# A result list: `%a, %b:2 =` before an op name (`affine.for %i = max ...` is no op start).
_RESULTS = re.compile(
    rf"%{_SUFFIX}(?:\s*:\s*\d+)?(?:\s*,\s*%{_SUFFIX}(?:\s*:\s*\d+)?)*\s*=(?!=)\s*(?=[A-Za-z_\"])(?!(?:max|min)\b)"
)
_DICT_START = re.compile(rf"\s*(?:\[|(?:{_BARE}|{_STRING})\s*(?:=(?!=)|,|\}}))")
_EMPTY_BRACES = re.compile(r"\s*\}")
_DICT_KEY = re.compile(rf"\s*({_BARE})\s*(?:,|\}})")
_LABEL_END = re.compile(r"\s*(\(|:(?!:))")
_COLON = re.compile(r"\s*:(?!:)")
_GENERIC_OPEN = re.compile(r"\s*\(")
_CALLEE_STRING_OPS = frozenset(("llvm.call_intrinsic", "emitc.call_opaque"))
_BRACKET_SCAN = re.compile(r'[<>()\[\]{}"\n]')
_LINE_OP_START = re.compile(
    rf"[ \t]*(?:%{_SUFFIX}(?::\d+)?(?:[ \t]*,[ \t]*%{_SUFFIX}(?::\d+)?)*[ \t]*=[ \t]*[A-Za-z_\"]|[A-Za-z_][\w$]*\.[\w$.]+[ \t](?![ \t]*=)|\}}[ \t]*$|\^)"
)

_ALIAS_WORD = re.compile(r"[\w$.\-]*")
_ALIAS_EQ = re.compile(r"\s*=(?!=)")
_BUILTIN_TYPE_WORD = re.compile(
    r"(?:[su]?i[1-9]\d*|bf16|tf32|f16|f32|f64|f80|f128|f(?:4|6|8)E\w+|index|none)"
)
_TYPE_WORDS: dict[str, bool] = {}  # bare word -> whether it names a builtin type (cache)
_COMPOUND_TYPE_WORDS = frozenset(("memref", "tensor", "vector", "complex", "tuple"))
_COMPOUND_ATTR_WORDS = frozenset(
    ("dense", "dense_resource", "sparse", "array", "affine_map", "affine_set", "strided", "distinct")
)
UNDOTTED_OP_NAMES = frozenset(
    ("return", "call", "call_indirect", "module", "func", "unrealized_conversion_cast", "constant")
)
# Undotted op names that are also keywords of other ops (`memref.global "private" constant @x`):
# op names only where an op must start.
_KEYWORD_OP_NAMES = frozenset(("constant",))

_OPEN_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


@dataclass(frozen=True, slots=True)
class LexError:
    """A lexical or bracket-structure error."""

    message: str
    range: TextRange


@dataclass(frozen=True, slots=True)
class Comment:
    """A `//` comment, kept for suppressions and semantic tokens."""

    text: str
    range: TextRange


class LexResult:
    """Tokens for the parser plus comments and errors."""

    __slots__ = ("tokens", "comments", "errors")

    def __init__(self) -> None:
        self.tokens: list[Tok] = []
        self.comments: list[Comment] = []
        self.errors: list[LexError] = []


def scan_balanced(text: str, pos: int, limit: int | None = None) -> tuple[int, bool]:
    """End offset of the bracket group opening at `pos`, and whether it closed.

    Strings are skipped, `->` does not close a `<`. An unclosed group stops
    before a line that starts a new operation, or at `limit`.
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


_MODULE_NAMES = ("module", "builtin.module")


def _opens_module_body(tokens: list[Tok]) -> bool:
    """Whether a `{` here follows `module` or `module @name`: builtin.module's region, never a dictionary."""
    k = len(tokens) - 1
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
        _error(out.errors, f"expected '{closer}' {reason}", opener.start_pos, opener.end_pos)
        out.tokens.append(make_token("RPAR" if closer == ")" else "RSQB", closer, at, at))


def tokenize(
    text: str,
    op_names: frozenset[str] = frozenset(),
    start: int = 0,
    end: int | None = None,
    attr_mode: bool = False,
) -> LexResult:
    """Lex `text[start:end]` into parser tokens (offsets are absolute).

    In `attr_mode` (the inside of an attribute dictionary) nothing starts an
    operation, a block or a region. No nested functions here: compiled by mypyc, they would
    share an environment object with this frame, a reference cycle holding every token until
    the cyclic collector runs (and the language server freezes it during an open).
    """
    out = LexResult()
    tokens = out.tokens
    append = tokens.append
    errors = out.errors
    end = len(text) if end is None else end
    match = _MASTER.match
    frames = [_Frame()]
    expect_op = not attr_mode
    pos = start

    while pos < end:
        m = match(text, pos, end)
        if m is None:
            spaces = _SPACES.match(text, pos, end)
            pos = spaces.end() if spaces is not None else pos
            if pos >= end:
                break
            _error(errors, f"unexpected character '{text[pos]}'", pos, pos + 1)
            pos += 1
            continue
        kind = m.lastgroup or ""  # every alternative of _MASTER is a named group
        s, e = m.span(kind)
        pos = e
        if kind == "COMMENT":
            out.comments.append(Comment(text[s:e], TextRange(s, e)))
            continue
        frame = frames[-1]

        if kind == "VALUE":
            before = tokens[-1] if tokens else None
            # a result list never follows a comma (skipping that keeps long operand lists linear)
            if not attr_mode and not (before is not None and before.value == ","):
                r = _RESULTS.match(text, s, end)
                if r is not None:
                    if frame.stack:
                        _close_frame_brackets(out, frame, s, "before the next operation")
                    pos = r.end()
                    append(make_token("RESULTS", text[s:pos], s, pos))
                    expect_op = True
                    continue
            append(make_token("VALUE", text[s:e], s, e))
            expect_op = False
            continue

        if kind == "PUNCT":
            expect_op = False
            ch = text[s:e]
            if ch == "{":
                if not _opens_module_body(tokens) and _is_dict(
                    text, e, end, _last(tokens), frame.generic, bool(frame.stack), op_names, attr_mode
                ):
                    close, ok = scan_balanced(text, s, end)
                    if not ok:
                        _error(errors, "expected '}' to close the attribute dictionary", s, e)
                    pos = close
                    append(make_token("DICT", text[s:pos], s, pos))
                    continue
                tok = make_token("LBRACE", "{", s, e)
                append(tok)
                frame.stack.append(tok)
                frames.append(_Frame())
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
                append(make_token("RBRACE", "}", s, e))
                continue
            if ch == "(" or ch == "[":
                tok = make_token("LPAR" if ch == "(" else "LSQB", ch, s, e)
                append(tok)
                frame.stack.append(tok)
                continue
            if ch == ")" or ch == "]":
                opener = "(" if ch == ")" else "["
                if frame.stack and frame.stack[-1].value == opener:
                    frame.stack.pop()
                    append(make_token("RPAR" if ch == ")" else "RSQB", ch, s, e))
                    continue
                if any(t.value == opener for t in frame.stack):
                    while frame.stack[-1].value != opener:
                        inner = frame.stack.pop()
                        closer = _OPEN_CLOSE[inner.value]
                        _error(errors, f"expected '{closer}'", inner.start_pos, inner.end_pos)
                        append(make_token("RPAR" if closer == ")" else "RSQB", closer, s, s))
                    frame.stack.pop()
                    append(make_token("RPAR" if ch == ")" else "RSQB", ch, s, e))
                    continue
                _error(errors, f"unexpected '{ch}'", s, e)
                continue
            if ch == ":":
                append(make_token("COLON", ":", s, e))
                continue
            append(make_token("PUNCT", ch, s, e))
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
                append(make_token("OPNAME", word, s, e))
                frame.generic = False
                expect_op = False
                continue
            expect_op = False
            if word in _COMPOUND_TYPE_WORDS and e < end and text[e] == "<":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, f"unbalanced '<' in '{word}' type", e, e + 1)
                pos = close
                append(make_token("TYPE", text[s:pos], s, pos))
                continue
            if word in _COMPOUND_ATTR_WORDS and e < end and text[e] in "<[":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, f"unbalanced '{text[e]}' in '{word}' attribute", e, e + 1)
                pos = close
                if word == "distinct" and pos < end and text[pos] == "<":
                    pos, ok = scan_balanced(text, pos, end)
                append(make_token("ATTR", text[s:pos], s, pos))
                continue
            if word == "loc" and e < end and text[e] == "(":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    _error(errors, "unbalanced '(' in location", e, e + 1)
                pos = close
                append(make_token("LOC", text[s:pos], s, pos))
                continue
            is_type = _TYPE_WORDS.get(word)
            if is_type is None:
                is_type = _TYPE_WORDS[word] = _BUILTIN_TYPE_WORD.fullmatch(word) is not None
                if len(_TYPE_WORDS) > 10000:
                    _TYPE_WORDS.clear()
            if is_type:
                append(make_token("TYPE", word, s, e))
                continue
            append(make_token("BARE", word, s, e))
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
                append(make_token("OPNAME", text[s:e], s, e))
                frame.generic = True
                expect_op = False
                continue
            append(make_token("STRING", text[s:e], s, e))
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
                    append(make_token("ALIAS_DEF", word, s, pos))
                    expect_op = False
                    continue
            append(make_token("ATTR" if kind == "HASH" else "TYPE", word, s, pos))
            expect_op = False
            continue

        if kind == "CARET":
            if not attr_mode and not frame.stack and _is_label(text, e, end, _last(tokens)):
                append(make_token("BLOCK_LABEL", text[s:e], s, e))
                expect_op = False
            else:
                append(make_token("BLOCK_REF", text[s:e], s, e))
            continue

        expect_op = False
        if kind == "SYMBOL":
            append(make_token("SYMBOL", text[s:e], s, e))
            continue
        if kind == "FLOAT":
            append(make_token("FLOAT", text[s:e], s, e))
            continue
        if kind == "INT":
            append(make_token("INT", text[s:e], s, e))
            continue
        if kind == "ARROW":
            append(make_token("PUNCT", "->", s, e))
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
            append(make_token("PROPS", text[s:pos], s, pos))
            continue
        if kind == "FILEMETA":
            close = text.find("#-}", e, end)
            pos = end if close < 0 else close + 3
            if close < 0:
                _error(errors, "expected '#-}' to close the file metadata", s, e)
            append(make_token("FILEMETA", text[s:pos], s, pos))
            continue

    if len(frames) > 1:
        # upstream reads on for the next operation of the open region and finds the end
        at = wrong_token_offset(text, end, start, at_end=True)
        _error(errors, "expected operation name in quotes", at, at)
    while len(frames) > 1:
        frame = frames.pop()
        _close_frame_brackets(out, frame, end, "at the end of the input")
        frames[-1].stack.pop()
        append(make_token("RBRACE", "}", end, end))
    _close_frame_brackets(out, frames[0], end, "at the end of the input")
    return out
