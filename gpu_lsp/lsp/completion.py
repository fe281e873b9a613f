"""Completion: op names (with gpu.launch / gpu.launch_func snippets), values in scope, tokens,
symbols, block labels, keywords of the op being written, types and attributes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gpu_lsp.ir.core import Block, Operation, Region, Value
from gpu_lsp.ir.opdefs import OPS, has_trait, lookup
from gpu_lsp.ir.printer import keyword_or_string
from gpu_lsp.ir.symbols import is_symbol_table
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import DocumentIndex, document_index, op_at
from gpu_lsp.lsp.ir_queries import kernel_params, signature_text
from gpu_lsp.syntax.cursor import ParseContext
from gpu_lsp.syntax.names import SUFFIX_ID
from gpu_lsp.text import TextRange

# Kinds, named like LSP's CompletionItemKind members (convert.py maps them).
VARIABLE = "Variable"
FUNCTION = "Function"
KEYWORD = "Keyword"
MODULE = "Module"
SNIPPET = "Snippet"
REFERENCE = "Reference"
TYPE = "TypeParameter"
CONSTANT = "Constant"
EVENT = "Event"

_RESULTS = rf"(?:%{SUFFIX_ID}(?::\d+)?(?:\s*,\s*%{SUFFIX_ID}(?::\d+)?)*\s*=\s*)"
_OP_POSITION = re.compile(rf"^\s*({_RESULTS})?([\w.$]*)$")
_VALUE_PREFIX = re.compile(r"%[\w$.\-#]*$")
_BLOCK_PREFIX = re.compile(r"\^[\w$.\-]*$")
_SYMBOL_PREFIX = re.compile(r'@[\w$.\-:@"]*$')
_ATTR_PREFIX = re.compile(r"#[\w$.\-]*$")
_TYPE_SIGIL_PREFIX = re.compile(r"![\w$.\-]*$")
_WORD_PREFIX = re.compile(r"[\w$.\-]*$")
_TYPE_LIST = re.compile(r"(?::|->)[^:=%]*,$")
_OPEN_DEPS = re.compile(r"\basync\s*\[([^\]]*)$")
_OP_ON_LINE = re.compile(rf"^\s*{_RESULTS}?\s*([a-z_]+\.[\w.]+)\b")
_SYNTAX_WORD = re.compile(r"(?<![%@#!\w.$<])([a-z_][a-z_0-9]*)(?![\w.]*[<(]?\s*:)")

_BUILTIN_TYPES = ("index", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "!gpu.async.token")
_SHAPED_TYPES = {
    "memref": ("memref<${1:?}x${2:f32}>", "memref<?xf32>"),
    "vector": ("vector<${1:4}x${2:f32}>", "vector<4xf32>"),
    "tensor": ("tensor<${1:?}x${2:f32}>", "tensor<?xf32>"),
}
_ATTRS = (
    "#gpu.address_space<workgroup>",
    "#gpu.address_space<private>",
    "#gpu.address_space<global>",
    "#gpu.dim<x>",
    "#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>",
)
_ATTR_KEYWORDS = ("true", "false", "unit", "dense<>", "array<i32: >", "affine_map<() -> ()>")
_NOT_KEYWORDS = frozenset(
    ("memref", "index", "name", "attr", "dict", "region", "attributes", "handler", "target", "type", "size", "kind")
)


@dataclass
class CompletionEntry:
    """One completion item in editor terms."""

    label: str
    kind: str
    detail: str = ""
    documentation: str = ""
    insert_text: str | None = None
    snippet: str | None = None
    sort_text: str | None = None
    filter_text: str | None = None
    replace: TextRange | None = None


def complete(snapshot: Snapshot, offset: int, snippets: bool = True) -> list[CompletionEntry]:
    """Completions at `offset`; `snippets` says whether the client takes snippet syntax."""
    text = snapshot.text
    line = snapshot.lines.line_of(offset)
    line_start = snapshot.lines.line_start(line)
    before = text[line_start:offset]
    comment = before.find("//")
    if comment >= 0:
        return []
    ctx = _Completer(snapshot, offset, before, snippets)
    return ctx.run()


class _Completer:
    def __init__(self, snapshot: Snapshot, offset: int, before: str, snippets: bool) -> None:
        self.snapshot = snapshot
        self.offset = offset
        self.before = before
        self.snippets = snippets
        self.index: DocumentIndex = document_index(snapshot)
        self._scope: list[Value] | None = None

    def replace_range(self, prefix: str) -> TextRange:
        return TextRange(self.offset - len(prefix), self.offset)

    @property
    def scope(self) -> list[Value]:
        if self._scope is None:
            self._scope = values_in_scope(self.snapshot, self.offset)
        return self._scope

    def run(self) -> list[CompletionEntry]:
        before = self.before
        m = _VALUE_PREFIX.search(before)
        if m:
            deps = _OPEN_DEPS.search(before)
            return self.values(m.group(), tokens_only=deps is not None, listed=deps.group(1) if deps else "")
        sigils = ((_BLOCK_PREFIX, self.blocks), (_SYMBOL_PREFIX, self.symbols), (_ATTR_PREFIX, self.attributes), (_TYPE_SIGIL_PREFIX, self.types))
        for prefix, complete in sigils:
            m = prefix.search(before)
            if m:
                return complete(m.group())
        m = _OP_POSITION.match(before)
        if m:
            return self.ops(m.group(2), has_results=bool(m.group(1)))
        word_match = _WORD_PREFIX.search(before)
        word = word_match.group() if word_match is not None else ""
        head = before[: len(before) - len(word)].rstrip()
        if head.endswith("=") and "{" in head:  # an attribute value in `{name = ...}`
            return self.attribute_values(word)
        if head.endswith(":") or head.endswith("->") or (head.endswith(",") and _TYPE_LIST.search(head)):
            return self.types(word)
        op_match = _OP_ON_LINE.match(before)
        if op_match:
            return self.keywords(op_match.group(1), word)
        return []

    # --- values, blocks, symbols -----------------------------------------------------------------

    def values(self, prefix: str, tokens_only: bool = False, listed: str = "") -> list[CompletionEntry]:
        out = []
        already = set(re.findall(r"%[\w$.\-#]+", listed))
        seen: set[str] = set()
        for rank, value in enumerate(self.scope):
            if value.name is None:
                continue
            label = "%" + value.name
            if label in seen:
                continue
            seen.add(label)
            is_token = value.type.is_token
            if tokens_only and not is_token:
                continue
            if label in already:
                continue
            detail = str(value.type)
            # Unconsumed tokens first inside a dependency list: they are what is usually meant.
            group = 0 if (tokens_only and not value.uses) else 1
            out.append(
                CompletionEntry(
                    label,
                    EVENT if is_token else VARIABLE,
                    detail,
                    sort_text=f"{group}{rank:06d}",
                    filter_text=label,
                    insert_text=label,
                    replace=self.replace_range(prefix),
                )
            )
        return out

    def blocks(self, prefix: str) -> list[CompletionEntry]:
        op = op_at(self.snapshot.parsed, self.offset)
        region = _region_at(op, self.offset) if op is not None else None
        if region is None and op is not None and op.parent is not None:
            region = op.parent.parent
        if region is None:
            return []
        out = []
        for block in region.blocks:
            if block.label:
                args = ", ".join(f"%{a.name}: {a.type}" for a in block.arguments if a.name)
                out.append(CompletionEntry(block.label, REFERENCE, f"({args})" if args else "", insert_text=block.label, replace=self.replace_range(prefix)))
        return out

    def symbols(self, prefix: str) -> list[CompletionEntry]:
        before = self.before
        kernels_only = "gpu.launch_func" in before
        calls_only = re.search(r"\b(?:func\.)?call\b", before) is not None
        out = []
        for path, op in self.all_symbols():
            if kernels_only and not (op.name == "gpu.func" and "gpu.kernel" in op.attributes):
                continue
            if calls_only and op.name != "func.func":
                continue
            label = "::".join("@" + keyword_or_string(p) for p in path)
            out.append(
                CompletionEntry(
                    label,
                    FUNCTION if op.name in ("gpu.func", "func.func") else MODULE,
                    signature_text(op, self.snapshot.text),
                    insert_text=label,
                    replace=self.replace_range(prefix),
                )
            )
        return out

    def all_symbols(self) -> list[tuple[tuple[str, ...], Operation]]:
        """Every symbol of the chunk at the cursor, with its path from the chunk's module."""
        chunk = self.snapshot.parsed.chunk_at(self.offset)
        out: list[tuple[tuple[str, ...], Operation]] = []

        def visit(table_op: Operation, path: tuple[str, ...]) -> None:
            for name, op in self.index.symbol_table(table_op).items():
                out.append((path + (name,), op))
                if is_symbol_table(op):
                    visit(op, path + (name,))

        visit(chunk.module, ())
        return out

    # --- ops and keywords ------------------------------------------------------------------------

    def ops(self, prefix: str, has_results: bool) -> list[CompletionEntry]:
        replace = self.replace_range(prefix)
        out = []
        for name in sorted(OPS):
            spec = OPS[name]
            if name.startswith("builtin.") or (prefix and not name.startswith(prefix.split(".")[0])):
                continue
            sort = ("0" if name.startswith("gpu.") else "1") + name
            out.append(
                CompletionEntry(
                    name,
                    FUNCTION,
                    spec.summary,
                    documentation=f"```mlir\n{spec.syntax}\n```" if spec.syntax else "",
                    insert_text=name,
                    sort_text=sort,
                    replace=replace,
                )
            )
        if not prefix or "gpu.launch".startswith(prefix[: len("gpu.launch")]) or prefix.startswith("gpu"):
            out.append(self.launch_snippet(replace, has_results))
            out.extend(self.launch_func_snippets(replace, has_results))
        return out

    def _default(self, types: tuple[str, ...], fallback: str, prefer: str | None = None) -> str:
        best = None
        for value in self.scope:
            if value.name is None or str(value.type) not in types:
                continue
            if prefer is not None and value.name == prefer:
                return "%" + value.name
            if best is None:
                best = "%" + value.name
        return best or fallback

    def _latest_token(self) -> str | None:
        for value in self.scope:
            if value.name and value.type.is_token and not value.uses:
                return "%" + value.name
        for value in self.scope:
            if value.name and value.type.is_token:
                return "%" + value.name
        return None

    def _entry(self, label: str, parts: list, detail: str, replace: TextRange, documentation: str = "") -> CompletionEntry:
        """Build snippet and plain forms from a list of str and (default,) placeholders."""
        snippet, plain = [], []
        n = 0
        for part in parts:
            if isinstance(part, tuple):
                n += 1
                snippet.append(f"${{{n}:{_escape_snippet(part[0])}}}")
                plain.append(part[0])
            else:
                snippet.append(_escape_snippet(part))
                plain.append(part)
        return CompletionEntry(
            label,
            SNIPPET,
            detail,
            documentation=documentation,
            insert_text="".join(plain),
            snippet="".join(snippet) if self.snippets else None,
            sort_text="0" + label,
            filter_text=label.split(" ")[0],
            replace=replace,
        )

    def _async_parts(self, has_results: bool) -> list:
        if not has_results:
            return []
        token = self._latest_token()
        return ["async [", (token,), "] "] if token else ["async "]

    def launch_snippet(self, replace: TextRange, has_results: bool) -> CompletionEntry:
        one = self._default(("index",), "%c1", "c1")
        indent = self.before[: len(self.before) - len(self.before.lstrip())]
        parts = ["gpu.launch ", *self._async_parts(has_results)]
        parts += ["blocks(%bx, %by, %bz) in (%gx = ", (one,), ", %gy = ", (one,), ", %gz = ", (one,), ") "]
        parts += ["threads(%tx, %ty, %tz) in (%sx = ", (one,), ", %sy = ", (one,), ", %sz = ", (one,), ") {\n"]
        parts += [indent + "  ", "\n" + indent + "  gpu.terminator\n" + indent + "}"]
        return self._entry("gpu.launch blocks threads", parts, "inline kernel launch", replace)

    def launch_func_snippets(self, replace: TextRange, has_results: bool) -> list[CompletionEntry]:
        out = []
        one = self._default(("index",), "%c1", "c1")
        for path, op in self.all_symbols():
            if op.name != "gpu.func" or "gpu.kernel" not in op.attributes:
                continue
            symbol = "::".join("@" + keyword_or_string(p) for p in path)
            parts = ["gpu.launch_func ", *self._async_parts(has_results), symbol]
            parts += [" blocks in (", (one,), ", ", (one,), ", ", (one,), ") threads in (", (one,), ", ", (one,), ", ", (one,), ")"]
            params = kernel_params(op)
            if params:
                parts.append(" args(")
                for i, param in enumerate(params):
                    if i:
                        parts.append(", ")
                    default = self._default((str(param.type),), f"%{param.name}", param.name)
                    parts += [(default,), f" : {param.type}"]
                parts.append(")")
            sig = signature_text(op, self.snapshot.text)
            out.append(self._entry(f"gpu.launch_func {symbol}", parts, "launch " + symbol, replace, f"```mlir\n{sig}\n```"))
        return out

    def keywords(self, op_name: str, word: str) -> list[CompletionEntry]:
        spec = lookup(op_name)
        if spec is None or not spec.syntax:
            return []
        syntax = spec.syntax.split("{", 1)[0] if spec.has("isolated") or op_name == "gpu.launch" else spec.syntax
        words = []
        for m in _SYNTAX_WORD.finditer(syntax.replace(op_name, " ")):
            w = m.group(1)
            if w in _NOT_KEYWORDS or len(w) < 2 and w not in ("x", "y", "z") or w in words:
                continue
            words.append(w)
        return [
            CompletionEntry(w, KEYWORD, f"{op_name} keyword", insert_text=w, replace=self.replace_range(word))
            for w in words
        ]

    # --- types and attributes ----------------------------------------------------------------------

    def types(self, prefix: str) -> list[CompletionEntry]:
        replace = self.replace_range(prefix)
        out = []
        for t in _BUILTIN_TYPES:
            out.append(CompletionEntry(t, TYPE, "builtin type" if not t.startswith("!") else "async token", insert_text=t, sort_text="1" + t, replace=replace))
        for kw, (snippet, plain) in _SHAPED_TYPES.items():
            out.append(
                CompletionEntry(
                    kw, TYPE, "shaped type", insert_text=plain, snippet=snippet if self.snippets else None, sort_text="2" + kw, replace=replace
                )
            )
        seen = set(_BUILTIN_TYPES)
        for value in self.scope:
            t = str(value.type)
            if t not in seen and not t.startswith("<<"):
                seen.add(t)
                out.append(CompletionEntry(t, TYPE, "type used in scope", insert_text=t, sort_text="0" + t, replace=replace))
        ctx = self.parse_context()
        return out + (_alias_entries(ctx.type_aliases, TYPE, replace) if ctx is not None else [])

    def attribute_values(self, prefix: str) -> list[CompletionEntry]:
        replace = self.replace_range(prefix)
        out = [CompletionEntry(k, KEYWORD, "attribute", insert_text=k, sort_text="0" + k, replace=replace) for k in _ATTR_KEYWORDS]
        return out + self.attributes(prefix)

    def attributes(self, prefix: str) -> list[CompletionEntry]:
        replace = self.replace_range(prefix)
        out = [CompletionEntry(a, CONSTANT, "gpu attribute", insert_text=a, replace=replace) for a in _ATTRS]
        ctx = self.parse_context()
        return out + (_alias_entries(ctx.attr_aliases, CONSTANT, replace) if ctx is not None else [])

    def parse_context(self) -> ParseContext | None:
        """The parse context (aliases defined so far) of the chunk completion runs in; None before any parse."""
        return getattr(self.snapshot.parsed.chunk_at(self.offset), "context", None)


def _alias_entries(aliases: Mapping[str, object], kind: str, replace: TextRange) -> list[CompletionEntry]:
    return [CompletionEntry(name, kind, f"alias: {value}", insert_text=name, sort_text="0" + name, replace=replace) for name, value in aliases.items()]


def _escape_snippet(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _region_at(op: Operation, offset: int) -> Region | None:
    for region in op.regions:
        if region.span is not None and region.span.range.start < offset < region.span.range.end:
            return region
    return None


def _block_at(region: Region, offset: int) -> Block | None:
    """The block of `region` whose text contains `offset` (blocks start at their labels)."""
    current = region.blocks[0] if region.blocks else None
    for block in region.blocks[1:]:
        if block.label_span is not None and block.label_span.range.start <= offset:
            current = block
    return current


def values_in_scope(snapshot: Snapshot, offset: int) -> list[Value]:
    """Values visible at `offset`, nearest definition first (MLIR's dominance within a block,
    enclosing regions up to the first isolated-from-above op)."""
    parsed = snapshot.parsed
    op = op_at(parsed, offset)
    out: list[Value] = []
    if op is None:
        return out
    region = _region_at(op, offset)
    if region is not None:
        block = _block_at(region, offset)
        limit = offset
    else:
        block = op.parent
        limit = op.range.start if op.range is not None else offset
    while block is not None:
        for child in reversed(block.operations):
            rng = child.range
            if rng is not None and rng.end <= limit:
                out.extend(child.results)
        out.extend(reversed(block.arguments))
        region_of_block = block.parent
        if region_of_block is not None and region_of_block.blocks and region_of_block.blocks[0] is not block:
            out.extend(reversed(region_of_block.blocks[0].arguments))
        parent = block.parent_op
        if parent is None or has_trait(parent.name, "isolated") or parent.facts.implicit:
            break
        limit = parent.range.start if parent.range is not None else limit
        block = parent.parent
    return out

