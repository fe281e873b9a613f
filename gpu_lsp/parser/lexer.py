"""A layout-aware MLIR lexer that feeds Lark's LALR parser.

It does the work a one-token-lookahead grammar cannot: it tells a result list
(`%a, %b =`) at the start of an operation from a use, a block label from a
successor, an attribute dictionary from a region, and it scans types and
attributes with nested brackets into single tokens (parsed later, with a
cache). It also keeps brackets balanced, reporting the first stray or missing
one, so the parser always sees a well-formed structure and one typo yields one
diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark.lexer import Token

from gpu_lsp.text import TextRange

_new_str = str.__new__


def _tok(kind: str, value: str, start: int, end: int) -> Token:
    """A Lark token without Lark's constructor overhead (the lexer makes ~10 per line)."""
    tok = _new_str(Token, value)
    tok.type = kind
    tok.value = value
    tok.start_pos = start
    tok.end_pos = end
    tok.line = tok.column = tok.end_line = tok.end_column = None
    return tok

_BARE = r"[A-Za-z_][\w$.]*"
_SUFFIX = r"(?:[A-Za-z_$.\-][\w$.\-]*|\d+)"
_STRING = r'"(?:[^"\\\n]|\\.)*"'

_SPACES = re.compile(r"[ \t\r]*")
_MASTER = re.compile(
    r"[ \t\r]*(?:"
    + "|".join(
        [
            r"(?P<NL>\n)",
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

_RESULTS = re.compile(
    rf"%{_SUFFIX}(?::\d+)?(?:[ \t]*,[ \t]*%{_SUFFIX}(?::\d+)?)*[ \t]*=(?!=)[ \t]*(?=[A-Za-z_\"])"
)
_DICT_START = re.compile(rf"[ \t]*(?:\}}|\[|(?:{_BARE}|{_STRING})[ \t]*(?:=|,|\}}))|\s*(?:{_BARE}|{_STRING})[ \t]*=(?!=)")
_DICT_KEY = re.compile(rf"[ \t]*({_BARE})[ \t]*(?:,|\}})")
_BRACKET_SCAN = re.compile(r'[<>()\[\]{}"\n]')
_LINE_OP_START = re.compile(
    rf"[ \t]*(?:%{_SUFFIX}(?::\d+)?(?:[ \t]*,[ \t]*%{_SUFFIX}(?::\d+)?)*[ \t]*=[ \t]*[A-Za-z_\"]|[A-Za-z_][\w$]*\.[\w$.]+[ \t](?![ \t]*=)|\}}[ \t]*$|\^)"
)

_ALIAS_WORD = re.compile(r"[\w$.\-]*")
_ALIAS_EQ = re.compile(r"[ \t]*=(?!=)")
_BUILTIN_TYPE_WORD = re.compile(
    r"(?:[su]?i[1-9]\d*|bf16|tf32|f16|f32|f64|f80|f128|f(?:4|6|8)E\w+|index|none)"
)
_COMPOUND_TYPE_WORDS = frozenset(("memref", "tensor", "vector", "complex", "tuple"))
_COMPOUND_ATTR_WORDS = frozenset(
    ("dense", "dense_resource", "sparse", "array", "affine_map", "affine_set", "strided", "distinct")
)
UNDOTTED_OP_NAMES = frozenset(
    ("return", "call", "call_indirect", "module", "func", "unrealized_conversion_cast", "constant")
)

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
        self.tokens: list[Token] = []
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


class ItemsToken(Token):
    """A run of atom tokens (no brackets, no op starts) handed to the parser as one token."""

    __slots__ = ("atoms",)


def items_token(atoms: list[Token]) -> ItemsToken:
    tok = Token.__new__(ItemsToken, "ITEMS", "", atoms[0].start_pos, None, None, None, None, atoms[-1].end_pos)
    tok.atoms = atoms
    return tok


class _Frame:
    """Open brackets inside one region (or the top level)."""

    __slots__ = ("stack",)

    def __init__(self) -> None:
        self.stack: list[Token] = []


def tokenize(
    text: str,
    op_names: frozenset[str] = frozenset(),
    start: int = 0,
    end: int | None = None,
    attr_mode: bool = False,
) -> LexResult:
    """Lex `text[start:end]` into parser tokens (offsets are absolute).

    In `attr_mode` (the inside of an attribute dictionary) nothing starts an
    operation, a block or a region.
    """
    out = LexResult()
    tokens = out.tokens
    append = tokens.append
    errors = out.errors
    end = len(text) if end is None else end
    match = _MASTER.match
    frames = [_Frame()]
    line_start = not attr_mode
    expect_op = not attr_mode
    pos = start

    def error(message: str, s: int, e: int) -> None:
        errors.append(LexError(message, TextRange(s, max(e, s))))

    pending: list[Token] = []
    pend = append if attr_mode else pending.append

    def flush() -> None:
        """Hand the atoms read since the last bracket or op start to the parser as one ITEMS token."""
        nonlocal pending, pend
        if pending:
            append(items_token(pending))
            pending = []
            pend = pending.append

    def close_frame_brackets(frame: _Frame, at: int, reason: str) -> None:
        while frame.stack:
            opener = frame.stack.pop()
            closer = _OPEN_CLOSE[opener.value]
            error(f"expected '{closer}' {reason}", opener.start_pos, opener.end_pos)
            flush()
            append(_tok("RPAR" if closer == ")" else "RSQB", closer, at, at))

    while pos < end:
        m = match(text, pos, end)
        if m is None:
            pos = _SPACES.match(text, pos, end).end()
            if pos >= end:
                break
            error(f"unexpected character '{text[pos]}'", pos, pos + 1)
            pos += 1
            continue
        kind = m.lastgroup
        s = m.start(kind)
        pos = e = m.end()
        if kind == "NL":
            line_start = not attr_mode
            continue
        if kind == "COMMENT":
            out.comments.append(Comment(m.group(kind), TextRange(s, e)))
            continue
        frame = frames[-1]
        at_line_start = line_start
        line_start = False

        if kind == "VALUE":
            if (at_line_start or expect_op) :
                r = _RESULTS.match(text, s, end)
                if r is not None:
                    if frame.stack:
                        close_frame_brackets(frame, s, "before the next operation")
                    pos = r.end()
                    flush()
                    append(_tok("RESULTS", text[s:pos], s, pos))
                    expect_op = True
                    continue
            pend(_tok("VALUE", m.group(kind), s, e))
            expect_op = False
            continue

        if kind == "BAREWORD":
            word = m.group(kind)
            dotted = "." in word
            if not attr_mode and (
                expect_op
                or (dotted and (not frame.stack or at_line_start))
                or (at_line_start and not frame.stack and word in UNDOTTED_OP_NAMES and not (e < end and text[e] == "("))
            ):
                if frame.stack:
                    close_frame_brackets(frame, s, "before the next operation")
                flush()
                append(_tok("OPNAME", word, s, e))
                expect_op = False
                continue
            expect_op = False
            if word in _COMPOUND_TYPE_WORDS and e < end and text[e] == "<":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    error(f"unbalanced '<' in '{word}' type", e, e + 1)
                pos = close
                pend(_tok("TYPE", text[s:pos], s, pos))
                continue
            if word in _COMPOUND_ATTR_WORDS and e < end and text[e] in "<[":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    error(f"unbalanced '{text[e]}' in '{word}' attribute", e, e + 1)
                pos = close
                if word == "distinct" and pos < end and text[pos] == "<":
                    pos, ok = scan_balanced(text, pos, end)
                pend(_tok("ATTR", text[s:pos], s, pos))
                continue
            if word == "loc" and e < end and text[e] == "(":
                close, ok = scan_balanced(text, e, end)
                if not ok:
                    error("unbalanced '(' in location", e, e + 1)
                pos = close
                pend(_tok("LOC", text[s:pos], s, pos))
                continue
            if _BUILTIN_TYPE_WORD.fullmatch(word):
                pend(_tok("TYPE", word, s, e))
                continue
            pend(_tok("BARE", word, s, e))
            continue

        if kind == "STRING":
            if expect_op:
                if frame.stack and at_line_start:
                    close_frame_brackets(frame, s, "before the next operation")
                flush()
                append(_tok("OPNAME", m.group(kind), s, e))
                expect_op = False
                continue
            if at_line_start and not frame.stack and not attr_mode:
                flush()
                append(_tok("OPNAME", m.group(kind), s, e))
                continue
            pend(_tok("STRING", m.group(kind), s, e))
            continue

        if kind == "HASH" or kind == "BANG":
            # `#alias`, `#dialect.attr<...>`, `!dialect.type<...>`, `!alias`
            w = _ALIAS_WORD.match(text, e, end)
            pos = w.end() if w else e
            if pos < end and text[pos] in "<" and pos > e:
                pos, ok = scan_balanced(text, pos, end)
                if not ok:
                    error(f"unbalanced '<' in '{text[s:e + 20].split()[0]}'", s, s + 1)
            elif pos < end and text[pos] == "<" and pos == e:
                pos, ok = scan_balanced(text, pos, end)
            if pos == e:
                error(f"expected an identifier after '{m.group(kind)}'", s, e)
                continue
            word = text[s:pos]
            if at_line_start and not frame.stack and len(frames) == 1:
                q = _ALIAS_EQ.match(text, pos, end)
                if q is not None:
                    pos = q.end()
                    flush()
                    append(_tok("ALIAS_DEF", word, s, pos))
                    expect_op = False
                    continue
            pend(_tok("ATTR" if kind == "HASH" else "TYPE", word, s, pos))
            expect_op = False
            continue

        if kind == "CARET":
            if at_line_start and not frame.stack:
                flush()
                append(_tok("BLOCK_LABEL", m.group(kind), s, e))
                expect_op = False
            else:
                pend(_tok("BLOCK_REF", m.group(kind), s, e))
            continue

        expect_op = False
        if kind == "SYMBOL":
            pend(_tok("SYMBOL", m.group(kind), s, e))
            continue
        if kind == "FLOAT":
            pend(_tok("FLOAT", m.group(kind), s, e))
            continue
        if kind == "INT":
            pend(_tok("INT", m.group(kind), s, e))
            continue
        if kind == "ARROW":
            pend(_tok("PUNCT", "->", s, e))
            continue
        if kind == "PROPS":
            close, ok = scan_balanced(text, s + 1, end)
            if not ok:
                error("unbalanced '{' in properties", s, e)
            pos = close
            if pos < end and text[pos] == ">":
                pos += 1
            else:
                error("expected '>' to close properties", pos, pos)
            pend(_tok("PROPS", text[s:pos], s, pos))
            continue
        if kind == "FILEMETA":
            close = text.find("#-}", e, end)
            pos = end if close < 0 else close + 3
            if close < 0:
                error("expected '#-}' to close the file metadata", s, e)
            flush()
            append(_tok("FILEMETA", text[s:pos], s, pos))
            continue

        ch = m.group(kind)
        if ch == "{":
            if attr_mode or _DICT_START.match(text, e, end) is not None:
                key = _DICT_KEY.match(text, e, end)
                if key is None or (key.group(1) not in op_names and key.group(1) != "return"):
                    close, ok = scan_balanced(text, s, end)
                    if not ok:
                        error("expected '}' to close the attribute dictionary", s, e)
                    pos = close
                    pend(_tok("DICT", text[s:pos], s, pos))
                    continue
            tok = _tok("LBRACE", "{", s, e)
            flush()
            append(tok)
            frame.stack.append(tok)
            frames.append(_Frame())
            expect_op = True
            continue
        if ch == "}":
            if len(frames) == 1:
                error("unexpected '}'", s, e)
                continue
            if frame.stack:
                close_frame_brackets(frame, s, "before '}'")
            frames.pop()
            frames[-1].stack.pop()
            flush()
            append(_tok("RBRACE", "}", s, e))
            continue
        if ch == "(" or ch == "[":
            tok = _tok("LPAR" if ch == "(" else "LSQB", ch, s, e)
            flush()
            append(tok)
            frame.stack.append(tok)
            continue
        if ch == ")" or ch == "]":
            opener = "(" if ch == ")" else "["
            if frame.stack and frame.stack[-1].value == opener:
                frame.stack.pop()
                flush()
                append(_tok("RPAR" if ch == ")" else "RSQB", ch, s, e))
                continue
            if any(t.value == opener for t in frame.stack):
                while frame.stack[-1].value != opener:
                    inner = frame.stack.pop()
                    closer = _OPEN_CLOSE[inner.value]
                    error(f"expected '{closer}'", inner.start_pos, inner.end_pos)
                    flush()
                    append(_tok("RPAR" if closer == ")" else "RSQB", closer, s, s))
                frame.stack.pop()
                flush()
                append(_tok("RPAR" if ch == ")" else "RSQB", ch, s, e))
                continue
            error(f"unexpected '{ch}'", s, e)
            continue
        if ch == ":":
            pend(_tok("COLON", ":", s, e))
            continue
        pend(_tok("PUNCT", ch, s, e))

    while len(frames) > 1:
        frame = frames.pop()
        close_frame_brackets(frame, end, "at the end of the input")
        opener = frames[-1].stack.pop()
        error("expected '}' to close this region", opener.start_pos, opener.end_pos)
        flush()
        append(_tok("RBRACE", "}", end, end))
    close_frame_brackets(frames[0], end, "at the end of the input")
    flush()
    return out
