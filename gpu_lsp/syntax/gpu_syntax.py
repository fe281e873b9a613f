"""What upstream's parsers of gpu types and attributes (and of `#nvvm.target`) reject in one token.

MLIR parses `!gpu.<keyword>` with `GPUDialect::parseType` and `#gpu.<mnemonic><...>` with the
dialect's generated attribute parsers, which verify an attribute as soon as it is built
(`getChecked`). A problem there is a parse error. Upstream reports it where its parser stands: the
type keyword, the attribute mnemonic, or the `<` that opens an attribute's parameters. Each enclosing
gpu attribute then adds its own `failed to parse GPU_ObjectAttr parameter 'kernels' ...` error at the
token that follows the failed one. `check(text)` returns these messages for the first problem of one
TYPE or ATTR token's text (positions relative to the text), or None.

Only what the oracle (LLVM 23) was seen to report is modelled; anything this module cannot read
with certainty (aliases, attributes of other dialects, unusual spellings) is left alone, so that a
valid input never gets an error from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_lsp.ir.brackets import comma_ranges, match_close, string_end, unquoted
from gpu_lsp.ir.enums import ENUMS, EnumDef
from gpu_lsp.syntax.names import BARE_ID, WORD_ID

TYPE_CODE = "GPU122"
ATTR_CODE = "GPU123"

# GPUDialect::parseType's keywords.
KNOWN_TYPES = frozenset(
    {"async.token", "mma_matrix", "named_barrier", "sparse.dntensor_handle", "sparse.spmat_handle", "sparse.spgemmop_handle"}
)
# Mnemonics the gpu dialect's attribute parser accepts (LLVM 23).
KNOWN_ATTRS = frozenset(
    {
        "address_space",
        "all_reduce_op",
        "block",
        "broadcast",
        "dim",
        "kernel_metadata",
        "kernel_table",
        "lane",
        "loop_dim_map",
        "mask",
        "mat_transpose_mode",
        "memory_space",
        "mma_element_wise",
        "object",
        "prune_2to4_spmat_flag",
        "scope",
        "select_object",
        "shuffle_mode",
        "spgemm_work_estimation_or_compute_kind",
        "thread",
        "warp",
        "warpgroup",
    }
)
# Attributes implementing (or promising) gpu::TargetAttrInterface.
TARGETS = frozenset({("nvvm", "target"), ("rocdl", "target"), ("xevm", "target"), ("spirv", "target_env")})
OBJECT_FORMATS = frozenset({"offload", "assembly", "bin", "fatbin"})
NVVM_TARGET_KEYS = frozenset({"O", "triple", "chip", "features", "flags", "link", "verifyTarget"})

_ALIAS_OR_ATTR_NAME = re.compile(WORD_ID)  # after `#`: an alias, or a dialect attribute's `dialect.name`
_KEYWORD = re.compile(BARE_ID)  # a keyword, or a dialect type's name after `!`
_INT = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+)")
_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)")
_TYPED_INT = re.compile(r"(-?(?:0x[0-9a-fA-F]+|\d+))(?:\s*:\s*(i\d+|index|si\d+|ui\d+))?")
_KEY_EQ = re.compile(r"([A-Za-z_][\w$]*)\s*=\s*")



@dataclass
class Failure:
    """The messages of one problem, in upstream's order: (text, start, end) relative to the token."""

    code: str
    messages: list[tuple[str, int, int]]
    token_end: int = 0  # end of the token (at the level being scanned) that holds the problem
    foreign: bool = False  # inside another dialect's attribute: its own follow-up errors are unknown


# --- lexical helpers ----------------------------------------------------------------------------


def _skip_ws(s: str, i: int, hi: int | None = None) -> int:
    n = len(s) if hi is None else hi
    while i < n:
        c = s[i]
        if c in " \t\r\n":
            i += 1
        elif s.startswith("//", i):
            j = s.find("\n", i)
            i = n if j < 0 else j + 1
        else:
            break
    return i


def _prev_end(s: str, i: int, lo: int = 0) -> int:
    """Just after the last non-blank character before `i` (where MLIR reports a missing token)."""
    while i > lo and s[i - 1] in " \t\r\n":
        i -= 1
    return i


def _split(s: str, lo: int, hi: int) -> list[tuple[int, int]] | None:
    """Top-level comma-separated elements of `s[lo:hi]`, trimmed; None when brackets do not balance."""
    out = comma_ranges(s, lo, hi)
    if out is None:
        return None
    trimmed = []
    for a, b in out:
        a = _skip_ws(s, a, b)
        b = _prev_end(s, b, a)
        trimmed.append((a, b))
    if len(trimmed) == 1 and trimmed[0][0] == trimmed[0][1]:
        return []
    return trimmed


def _array_items(s: str, a: int, b: int) -> list[tuple[int, int]] | None:
    """The elements of the `[...]` spanning exactly `s[a:b]`; None when it is no such array."""
    return _split(s, a + 1, b - 1) if _spans(s, a, b, "[") else None


def _unescape(body: str) -> str:
    from gpu_lsp.syntax.lexer import unescape

    return unescape(body)


def _string_value(s: str, a: int, b: int) -> str | None:
    """The value of a string literal spanning exactly `s[a:b]`, or None."""
    if a < b and s[a] == '"' and string_end(s, a) == b:
        return _unescape(s[a + 1 : b - 1])
    return None


def _spans(s: str, a: int, b: int, opener: str) -> bool:
    """Whether `s[a:b]` is exactly one bracketed group opened by `opener`."""
    return a < b and s[a] == opener and match_close(s, a, b) == b


# --- tokens -------------------------------------------------------------------------------------


@dataclass
class _Tok:
    """A `#dialect.name<...>` / `!dialect<...>` token: its extent and parts."""

    kind: str  # "#" or "!"
    start: int
    end: int
    ident: str  # what follows the sigil, up to `<`
    lt: int  # index of the `<` right after the identifier, or -1

    @property
    def dialect(self) -> str:
        return self.ident.partition(".")[0]

    @property
    def name(self) -> str:
        return self.ident.partition(".")[2]


def _tokens(s: str, lo: int, hi: int):
    """The dialect types and attributes of one lexer level of `s[lo:hi]`, in order."""
    after = lo  # the end of the last token: what lies before it was read with the token
    for j in unquoted(s, lo, hi):
        c = s[j]
        if j < after or not ((c == "#" or c == "!") and j + 1 < hi and (s[j + 1].isalpha() or s[j + 1] == "_")):
            continue
        m = (_ALIAS_OR_ATTR_NAME if c == "#" else _KEYWORD).match(s, j + 1, hi)
        if m is None:  # a letter outside MLIR's identifier characters: not a dialect token
            continue
        end = m.end()
        lt = -1
        if end < hi and s[end] == "<":
            lt = end
            end = match_close(s, end, hi)
            if end < 0:
                return
        ident = m.group(0)
        if "." in ident or lt >= 0:
            yield _Tok(c, j, end, ident, lt)
        after = end


def _scan(s: str, lo: int, hi: int) -> Failure | None:
    """The first problem among the dialect tokens of one level of `s[lo:hi]`."""
    for tok in _tokens(s, lo, hi):
        f = _check_token(s, tok)
        if f is not None:
            f.token_end = tok.end
            return f
    return None


def _check_token(s: str, tok: _Tok) -> Failure | None:
    if tok.dialect == "gpu":
        return _gpu_type(s, tok) if tok.kind == "!" else _gpu_attr(s, tok)
    if tok.kind == "!" and tok.dialect == "llvm" and tok.name:
        f = _llvm_type(tok)
        if f is not None:
            return f
    if tok.kind == "#" and tok.ident == "nvvm.target":
        return _nvvm_target(s, tok)
    if tok.lt >= 0:
        f = _scan(s, tok.lt + 1, tok.end - 1)
        if f is not None:
            f.foreign = True
            return f
    return None


# The keywords of LLVM's type parser (LLVMTypeSyntax.cpp), and those whose parameters are not optional.
_LLVM_TYPES = frozenset(("void", "ppc_fp128", "token", "label", "metadata", "func", "ptr", "vec", "array", "struct", "target", "x86_amx", "x86_mmx"))
_LLVM_PARAMETRIC = frozenset(("func", "vec", "array", "struct", "target"))
# Not a gpu type: the parser's own code (GPU001) reports it.
LLVM_TYPE_CODE = "GPU001"


def _llvm_type(tok: _Tok) -> Failure | None:
    """`!llvm.keyword`: a keyword LLVM's type parser knows, with `<...>` where it needs parameters."""
    name_start = tok.start + len("!llvm.")
    name_end = name_start + len(tok.name)
    if tok.name not in _LLVM_TYPES:
        return Failure(LLVM_TYPE_CODE, [(f"unknown LLVM type: {tok.name}", name_start, name_end)])
    if tok.lt < 0 and tok.name in _LLVM_PARAMETRIC:
        return Failure(LLVM_TYPE_CODE, [("expected '<'", name_end, name_end)])
    return None


def _follow(f: Failure, s: str, hi: int, attr: str, param: str, kind: str) -> Failure:
    """Add the error an enclosing attribute parser emits when parameter `param` failed."""
    if not f.foreign:
        at = _skip_ws(s, f.token_end, hi)
        f.messages.append((f"failed to parse {attr} parameter '{param}' which is to be a `{kind}`", at, at))
    return f


def _nested(s: str, a: int, b: int, hi: int, attr: str, param: str, kind: str) -> Failure | None:
    f = _scan(s, a, b)
    return None if f is None else _follow(f, s, hi, attr, param, kind)


# --- gpu types ----------------------------------------------------------------------------------


def _gpu_type(s: str, tok: _Tok) -> Failure | None:
    if tok.ident == "gpu":  # `!gpu<keyword ...>`
        if tok.lt < 0:
            return None
        at = _skip_ws(s, tok.lt + 1, tok.end - 1)
        if at < tok.end - 1 and s[at] == '"':
            return Failure(TYPE_CODE, [("expected valid keyword", at, string_end(s, at))])
        m = _KEYWORD.match(s, at, tok.end - 1)
        if m is None:
            return None
        keyword, kw_start, kw_end = m.group(0), at, m.end()
    else:
        keyword, kw_start = tok.name, tok.start + 5
        kw_end = kw_start + len(keyword)
        if not keyword:  # `!gpu."foo"`
            return Failure(TYPE_CODE, [("expected valid keyword", kw_start, kw_start)])
    if keyword not in KNOWN_TYPES:
        return Failure(TYPE_CODE, [(f"unknown gpu type: {keyword}", kw_start, kw_end)])
    if keyword == "mma_matrix":
        if tok.lt < 0:
            return Failure(TYPE_CODE, [("expected '<'", kw_end, kw_end)])
        if tok.ident != "gpu":
            return _mma_matrix(s, tok, kw_start)
    if tok.lt >= 0:  # the element type of an mma_matrix, ...
        f = _scan(s, tok.lt + 1, tok.end - 1)
        if f is not None:
            f.foreign = True
            return f
    return None


_MMA_DIMS = re.compile(r"\s*((?:(?:\d+|\?)\s*x\s*)+)")
_MMA_VALID = frozenset({"f16", "f32", "f64", "si8", "ui8", "i32", "si32", "ui32"})
_BUILTIN_SCALAR = re.compile(r"[su]?i\d+|f\d+|bf16|tf32|index|f\d+E\w+")
# Upstream (LLVM 23) also accepts F64 and says "..., F16, F32, or F64"; the corpus' invalid.mlir
# (what gpu-opt is tested against) still expects the older text.
MMA_ELEMENTS_MESSAGE = "MMAMatrixType elements must be SI8, UI8, I32, F16, or F32"


def _mma_matrix(s: str, tok: _Tok, kw_start: int) -> Failure | None:
    """`!gpu.mma_matrix<16x16xf16, "AOp">`: MMAMatrixType::verifyInvariants, at the keyword."""
    lo, hi = tok.lt + 1, tok.end - 1
    els = _split(s, lo, hi)
    if not els or len(els) != 2:
        return None
    a, b = els[0]
    m = _MMA_DIMS.match(s, a, b)
    if m is None:
        return None
    dims = [d.strip() for d in m.group(1).split("x")[:-1]]
    if "?" in dims:
        at = s.index("?", a)
        return Failure(TYPE_CODE, [("expected static shape", at, at + 1)])
    ea = m.end()
    f = _scan(s, ea, b)
    if f is not None:
        f.foreign = True
        return f
    element = s[ea:b]
    operand = _string_value(s, *els[1])
    if operand is None:
        return None
    message = None
    if operand not in ("AOp", "BOp", "COp"):
        message = "operand expected to be one of AOp, BOp or COp"
    elif len(dims) != 2:
        message = "MMAMatrixType must have exactly two dimensions"
    elif element not in _MMA_VALID:
        if not (_BUILTIN_SCALAR.fullmatch(element) or element.startswith(("vector<", "complex<", "tensor<", "memref<"))):
            return None
        message = MMA_ELEMENTS_MESSAGE
    return None if message is None else Failure(TYPE_CODE, [(message, kw_start, tok.end)])


# --- gpu attributes -----------------------------------------------------------------------------


def _gpu_attr(s: str, tok: _Tok) -> Failure | None:
    """`#gpu.name<params>` or `#gpu<name<params>>`: (mnemonic, its range, params `<` or -1)."""
    if tok.ident == "gpu":
        if tok.lt < 0:
            return None
        body_hi = tok.end - 1
        at = _skip_ws(s, tok.lt + 1, body_hi)
        if at < body_hi and s[at] == '"':
            return Failure(ATTR_CODE, [("expected valid keyword", at, string_end(s, at))])
        m = _KEYWORD.match(s, at, body_hi)
        if m is None:
            return None
        name, name_start, name_end = m.group(0), at, m.end()
        if name not in KNOWN_ATTRS:
            return Failure(ATTR_CODE, [(f"unknown attribute `{name}` in dialect `gpu`", name_start, name_end)])
        enum = _ENUM_ATTRS.get(name)
        if enum is not None and not enum.angled:
            return _enum_case(s, enum, name_end, body_hi)
        lt = _skip_ws(s, name_end, body_hi)
        if lt >= body_hi:
            lt, end = -1, name_end
        elif s[lt] == "<":
            end = match_close(s, lt, body_hi)
            if end < 0 or _skip_ws(s, end, body_hi) != body_hi:
                return None
        elif enum is not None:  # `#gpu<address_space workgroup>`: an angled enum's case needs its `<`
            return Failure(ATTR_CODE, [("expected '<'", name_end, name_end)])
        else:
            return None
    else:
        name, name_start = tok.name, tok.start + 5
        name_end = name_start + len(name)
        lt, end = tok.lt, tok.end
        if not name:  # `#gpu."foo"`
            return Failure(ATTR_CODE, [("expected valid keyword", name_start, name_start)])
    if name not in KNOWN_ATTRS:
        return Failure(ATTR_CODE, [(f"unknown attribute `{name}` in dialect `gpu`", name_start, name_end)])
    if lt < 0:
        # a kernel table's list of kernels is not optional
        return Failure(ATTR_CODE, [("expected '<'", name_end, name_end)]) if name == "kernel_table" else None
    enum = _ENUM_ATTRS.get(name)
    if enum is not None and enum.angled:
        return _enum_case(s, enum, lt + 1, end - 1)
    check = _ATTR_CHECKS.get(name)
    if check is None:
        f = _scan(s, lt + 1, end - 1)
        if f is not None:
            f.foreign = True
        return f
    return check(s, lt, end, _split(s, lt + 1, end - 1))


# The gpu enum attributes: written `#gpu<mnemonic case>`, or `#gpu.mnemonic<case>` where angled.
_ENUM_ATTRS = {e.mnemonic: e for e in ENUMS.values() if e.dialect == "gpu" and e.mnemonic}


def _enum_case(s: str, enum: EnumDef, at: int, hi: int) -> Failure | None:
    """The case of `#gpu<mnemonic case>` (`s[at:hi]`): upstream's errors when it is not one of the enum's keywords."""
    at = _skip_ws(s, at, hi)
    if at < hi and s[at] == '"':
        return None  # a string case: left alone
    follow = f"failed to parse {enum.constraint} parameter 'value' which is to be a `{enum.what}`"
    word = _KEYWORD.match(s, at, hi)
    if word is None:
        return Failure(ATTR_CODE, [("expected valid keyword or string", at, at), (follow, at, at)])
    if word.group(0) in enum.cases:
        return None
    after = _skip_ws(s, word.end(), hi)
    return Failure(ATTR_CODE, [(enum.unknown(word.group(0)), at, word.end()), (follow, after, after)])


def _target_kind(s: str, a: int, b: int) -> str | None:
    """'target' for an attribute implementing gpu::TargetAttrInterface, 'other' for one that surely
    does not, None when it cannot be told (an alias, another dialect's attribute)."""
    if a >= b:
        return None
    c = s[a]
    if c == "#":
        m = _ALIAS_OR_ATTR_NAME.match(s, a + 1, b)
        if m is None:
            return None
        end = m.end()
        if end < b and s[end] == "<":
            end = match_close(s, end, b)
        if end != b:
            return None
        dialect, _, name = m.group(0).partition(".")
        if (dialect, name) in TARGETS:
            return "target"
        if dialect == "gpu":
            return "other"
        return None
    if _NUMBER.fullmatch(s, a, b) or _string_value(s, a, b) is not None:
        return "other"
    if s[a:b] in ("true", "false", "unit"):
        return "other"
    if _spans(s, a, b, "[") or _spans(s, a, b, "{"):
        return "other"
    return None


def _simple_value(s: str, a: int, b: int) -> bool:
    """A number or string literal spanning `s[a:b]` (an attribute of a known kind and extent)."""
    return bool(_NUMBER.fullmatch(s, a, b)) or _string_value(s, a, b) is not None


def _invalid_kind(s: str, a: int, b: int, hi: int, attr: str, param: str, kind: str) -> Failure:
    """A number where a parameter needs a string or dictionary: `FieldParser`'s two errors."""
    at = _skip_ws(s, b, hi + 1)
    return Failure(
        ATTR_CODE,
        [
            ("invalid kind of attribute specified", a, b),
            (f"failed to parse {attr} parameter '{param}' which is to be a `{kind}`", at, at),
        ],
    )


def _object(s: str, lt: int, end: int, els: list[tuple[int, int]] | None) -> Failure | None:
    """`#gpu.object<target, [properties = {...},] [kernels = #gpu.kernel_table<...>,] [format =] "...">`."""
    attr = "GPU_ObjectAttr"
    hi = end - 1
    if not els:
        return None
    ta, tb = els[0]
    f = _nested(s, ta, tb, hi, attr, "target", "Attribute")
    if f is not None:
        return f
    target = _target_kind(s, ta, tb)
    i = 1
    for key, kind, opener in (("properties", "DictionaryAttr", "{"), ("kernels", "KernelTableAttr", "#")):
        if i == len(els):
            at = els[i - 1][1]
            return Failure(ATTR_CODE, [("expected ','", at, at)])
        a, b = els[i]
        m = _KEY_EQ.match(s, a, b)
        if m is None or m.group(1) != key:
            continue
        va = m.end()
        f = _nested(s, va, b, hi, attr, key, kind)
        if f is not None:
            return f
        if opener == "{" and not _spans(s, va, b, "{"):
            return _invalid_kind(s, va, b, hi, attr, key, kind) if _simple_value(s, va, b) else None
        if opener == "#" and not s.startswith("#gpu.kernel_table", va):
            return None
        i += 1
    if i == len(els):
        at = els[i - 1][1]
        return Failure(ATTR_CODE, [("expected ','", at, at)])
    a, b = els[i]
    m = _KEYWORD.match(s, a, b)
    va = a
    if m is not None and s[a:b] not in ("true", "false", "unit"):
        kw_end = m.end()
        if m.group(0) not in OBJECT_FORMATS:
            return Failure(ATTR_CODE, [("expected keyword for GPU object format", a, kw_end)])
        eq = _skip_ws(s, kw_end, b)
        if eq >= b or s[eq] != "=":
            return Failure(ATTR_CODE, [("expected '='", kw_end, kw_end), ("expected an equal sign", a, kw_end)])
        va = _skip_ws(s, eq + 1, b)
    if _string_value(s, va, b) is None:
        return _invalid_kind(s, va, b, hi, attr, "object", "StringAttr") if _NUMBER.fullmatch(s, va, b) else None
    if i + 1 != len(els):
        return Failure(ATTR_CODE, [("expected '>'", b, b)])
    if target == "other":
        return Failure(ATTR_CODE, [("the target attribute must implement or promise the `gpu::TargetAttrInterface`", lt, end)])
    return None


def _select_object(s: str, lt: int, end: int, els: list[tuple[int, int]] | None) -> Failure | None:
    """`#gpu.select_object<index or target>`."""
    attr = "GPU_SelectObjectAttr"
    hi = end - 1
    if els is None:
        return None
    if not els:
        return Failure(
            ATTR_CODE,
            [
                ("expected attribute value", lt + 1, lt + 1),
                (f"failed to parse {attr} parameter 'target' which is to be a `Attribute`", hi, hi),
            ],
        )
    if len(els) != 1:
        return None
    a, b = els[0]
    f = _nested(s, a, b, hi, attr, "target", "Attribute")
    if f is not None:
        return f
    value: int | None = None
    text = s[a:b]
    if text in ("true", "false"):
        value = -1 if text == "true" else 0  # an i1 read back signed
    else:
        m = _TYPED_INT.fullmatch(s, a, b)
        if m is not None:
            ty = m.group(2) or "i64"
            if ty.startswith(("si", "ui")):
                return None
            width = 64 if ty == "index" else int(ty[1:])
            raw = int(m.group(1), 0) if not m.group(1).startswith("-") else -int(m.group(1)[1:], 0)
            if not (-(1 << (width - 1)) <= raw < (1 << width)):
                return None
            value = raw - (1 << width) if raw >= (1 << (width - 1)) else raw
    if value is not None:
        if value < 0:
            return Failure(ATTR_CODE, [("the object index must be positive", lt, end)])
        return None
    if _target_kind(s, a, b) == "other":
        return Failure(ATTR_CODE, [("the target attribute must be a GPU Target attribute", lt, end)])
    return None


def _metadata(s: str, lt: int, end: int, els: list[tuple[int, int]] | None) -> Failure | None:
    """`#gpu.kernel_metadata<"name", function-type[, arg_attrs = [...]][, metadata = {...}]>`."""
    attr = "GPU_KernelMetadataAttr"
    hi = end - 1
    if not els:
        return None
    name = _string_value(s, *els[0])
    if name is None:
        return None
    if len(els) == 1:
        at = els[0][1]
        return Failure(ATTR_CODE, [("expected ','", at, at)])
    fa, fb = els[1]
    f = _nested(s, fa, fb, hi, attr, "function_type", "Type")
    if f is not None:
        return f
    seen: set[str] = set()
    non_dict = False
    for a, b in els[2:]:
        m = _KEY_EQ.match(s, a, b)
        if m is None or m.group(1) in seen or m.group(1) not in ("arg_attrs", "metadata"):
            return None
        key = m.group(1)
        seen.add(key)
        va = m.end()
        f = _nested(s, va, b, hi, attr, key, "ArrayAttr" if key == "arg_attrs" else "DictionaryAttr")
        if f is not None:
            return f
        if key == "metadata":
            if not _spans(s, va, b, "{"):
                return None
            continue
        items = _array_items(s, va, b)
        if items is None:
            return None
        for ia, ib in items:
            if _spans(s, ia, ib, "{"):
                continue
            if s[ia] == "#" and _target_kind(s, ia, ib) is None:
                continue  # an alias (maybe of a dictionary) or another dialect's attribute
            non_dict = True
    if name == "":
        return Failure(ATTR_CODE, [("the kernel name can't be empty", lt, end)])
    if non_dict:
        return Failure(ATTR_CODE, [("all attributes in the array must be a dictionary attribute", lt, end)])
    return None


def _metadata_name(s: str, a: int, b: int) -> str | None:
    """The kernel name of a `#gpu.kernel_metadata<...>` (pretty or `#gpu<...>` form) spanning `s[a:b]`."""
    for prefix in ("#gpu.kernel_metadata<", "#gpu<kernel_metadata<"):
        if s.startswith(prefix, a):
            lt = a + len(prefix) - 1
            close = match_close(s, lt, b)
            if close < 0:
                return None
            if prefix.startswith("#gpu<"):
                if _skip_ws(s, close, b - 1) != b - 1 or s[b - 1] != ">":
                    return None
            elif close != b:
                return None
            els = _split(s, lt + 1, close - 1)
            return _string_value(s, *els[0]) if els else None
    return None


def _kernel_table(s: str, lt: int, end: int, els: list[tuple[int, int]] | None) -> Failure | None:
    """`#gpu.kernel_table<[#gpu.kernel_metadata<...>, ...]>`: names unique."""
    attr = "GPU_KernelTableAttr"
    param = ("kernel_table", "::llvm::ArrayRef<KernelMetadataAttr>")
    hi = end - 1
    if not els:
        return None
    a, b = els[0]
    items = _array_items(s, a, b) if len(els) == 1 else None
    if items is None:
        return None
    if not items:  # `[]`: the list wants at least one kernel
        at = _prev_end(s, b - 1)
        follow = f"failed to parse {attr} parameter '{param[0]}' which is to be a `{param[1]}`"
        return Failure(ATTR_CODE, [("expected '<'", at, at), (follow, b - 1, b - 1)])
    names: list[str] = []
    for ia, ib in items:
        f = _nested(s, ia, ib, hi, attr, *param)
        if f is not None:
            return f
        if _INT.fullmatch(s, ia, ib):
            at = _prev_end(s, ia)
            return Failure(
                ATTR_CODE,
                [("expected '<'", at, at), (f"failed to parse {attr} parameter '{param[0]}' which is to be a `{param[1]}`", ia, ia)],
            )
        name = _metadata_name(s, ia, ib)
        if name is None:
            return None
        names.append(name)
    if len(set(names)) != len(names):
        return Failure(ATTR_CODE, [("expected all kernels to be uniquely named", lt, end)])
    return None


# The checks of gpu attributes' parameters: each gets `#gpu.name<...>`'s `<` and end, and the
# parameters split at their top-level commas (None: not balanced).
_ATTR_CHECKS = {
    "object": _object,
    "select_object": _select_object,
    "kernel_metadata": _metadata,
    "kernel_table": _kernel_table,
}


# --- #nvvm.target -------------------------------------------------------------------------------


def _nvvm_target(s: str, tok: _Tok) -> Failure | None:
    """NVVMTargetAttr::verify: the optimisation level, a non-empty triple and chip, string `link`s."""
    if tok.lt < 0:
        return None
    lt, end = tok.lt, tok.end
    els = _split(s, lt + 1, end - 1)
    if els is None:
        return None
    f = _scan(s, lt + 1, end - 1)
    if f is not None:
        f.foreign = True
        return f
    values: dict[str, tuple[int, int]] = {}
    for a, b in els:
        m = _KEY_EQ.match(s, a, b)
        if m is None:
            return None
        if m.group(1) not in NVVM_TARGET_KEYS or m.group(1) in values:
            at = m.end()
            return Failure(ATTR_CODE, [(f"duplicate or unknown struct parameter name: {m.group(1)}", at, at)])
        values[m.group(1)] = (m.end(), b)
    opt = 2
    if "O" in values:
        a, b = values["O"]
        if not _INT.fullmatch(s, a, b):
            return None
        opt = int(s[a:b], 0) if s[a] != "-" else -int(s[a + 1 : b], 0)
        if not (-(1 << 31) <= opt < (1 << 31)):
            return None
    strings = {}
    for key in ("triple", "chip", "features"):
        if key in values:
            strings[key] = _string_value(s, *values[key])
            if strings[key] is None:
                return None
    if "flags" in values and not _spans(s, *values["flags"], "{"):
        a, b = values["flags"]
        if _simple_value(s, a, b):
            return _invalid_kind(s, a, b, end - 1, "NVVM_TargetAttr", "flags", "DictionaryAttr")
        return None
    bad_link = False
    if "link" in values:
        a, b = values["link"]
        items = _array_items(s, a, b)
        if items is None:
            return None
        for ia, ib in items:
            if _string_value(s, ia, ib) is not None:
                continue
            if _target_kind(s, ia, ib) == "other" or s[ia : ia + 1] == "#" and _target_kind(s, ia, ib) == "target":
                bad_link = True
            else:
                return None
    message = None
    if not 0 <= opt <= 3:
        message = "The optimization level must be a number between 0 and 3."
    elif strings.get("triple") == "":
        message = "The target triple cannot be empty."
    elif strings.get("chip") == "":
        message = "The target chip cannot be empty."
    elif bad_link:
        message = "All the elements in the `link` array must be strings."
    return None if message is None else Failure(ATTR_CODE, [(message, lt, end)])


# --- entry point --------------------------------------------------------------------------------

_CACHE: dict[str, tuple | None] = {}


def check(text: str) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
    """The first problem of one TYPE/ATTR token's text: `(code, ((message, start, end), ...))`
    with positions relative to `text`, in upstream's order; None when upstream accepts it."""
    if "gpu" not in text and "nvvm.target" not in text and "!llvm." not in text:
        return None
    if text in _CACHE:
        return _CACHE[text]
    f = _scan(text, 0, len(text))
    result = None if f is None else (f.code, tuple(f.messages))
    if len(_CACHE) > 20000:
        _CACHE.clear()
    _CACHE[text] = result
    return result
