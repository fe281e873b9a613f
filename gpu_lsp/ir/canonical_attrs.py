"""The text mlir-opt prints for the gpu, nvvm and rocdl attributes kept as text, however they were written.

`#gpu.select_object<1>` types its index (`<1 : i64>`); `#gpu.object` leaves out the default `fatbin =` and writes its kernel table in the short
form `kernels = <[...]>`; `#gpu.kernel_table` sorts its entries by name; `#nvvm.target`
and `#rocdl.target` leave out parameters at their default and write the others in the
declared order; a dictionary inside them sorts its keys and types its integers (`: i64`)
and floats (`: f64`). The defaults are those of the oracle's MLIR (checked in
tests/test_canonical_attrs.py).
"""

from __future__ import annotations

import re
from typing import Final

from gpu_lsp.ir.attributes import DialectAttr
from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.floats import float_text

# Each target's parameters in declared order, with the text of its default (None: no default to elide).
_TARGET_PARAMS: Final[dict[str, tuple[tuple[str, str | None], ...]]] = {
    "nvvm": (("O", "2"), ("triple", '"nvptx64-nvidia-cuda"'), ("chip", '"sm_75"'), ("features", '""'), ("flags", None), ("link", None)),
    "rocdl": (
        ("O", "2"), ("triple", '"amdgcn-amd-amdhsa"'), ("chip", '"gfx900"'), ("features", '""'), ("abi", '"600"'),
        ("flags", None), ("link", None),
    ),
}
_DEFAULT_OBJECT_FORMAT: Final = "fatbin"
_INTEGER: Final = re.compile(r"-?\d+")
_FLOAT: Final = re.compile(r"-?\d+\.\d*(?:[eE][-+]?\d+)?")
_KEY: Final = re.compile(r'^("(?:[^"\\]|\\.)*"|[A-Za-z_][\w.$-]*)\s*(?:=\s*(.*))?$', re.S)


def canonical_attr(attr: DialectAttr) -> DialectAttr:
    """`attr` with the body mlir-opt prints for it; other attributes as they are."""
    body = attr.body
    if body is None:
        return attr
    key = (attr.dialect, attr.name)
    if key == ("gpu", "object"):
        return DialectAttr("gpu", "object", _object(body))
    if key == ("gpu", "kernel_table"):
        return DialectAttr("gpu", "kernel_table", _table(body))
    if key == ("gpu", "select_object") and _INTEGER.fullmatch(body):
        return DialectAttr("gpu", "select_object", f"{body} : i64")
    if key == ("gpu", "select_object") and not body:
        return DialectAttr("gpu", "select_object")
    if key == ("gpu", "kernel_metadata"):
        return DialectAttr("gpu", "kernel_metadata", _metadata(body))
    if key == ("spirv", "target_env"):  # TargetEnvAttr's printer writes `api=` without blanks
        return DialectAttr("spirv", "target_env", _API.sub("api=", body))
    if attr.name == "target" and attr.dialect in _TARGET_PARAMS:
        body = _target(attr.dialect, body)
        return DialectAttr(attr.dialect, "target", body or None)
    return attr


_API = re.compile(r"(?<=, )api = ")


def _hash_parts(text: str) -> tuple[str, str, str | None] | None:
    """`#dialect.name<body>` as (dialect, name, body); None for any other text."""
    if not text.startswith("#") or "." not in text.split("<", 1)[0]:
        return None
    lt = text.find("<")
    head = text[1:] if lt < 0 else text[1:lt]
    if lt >= 0 and not text.endswith(">"):
        return None
    dialect, _, name = head.partition(".")
    return dialect, name, None if lt < 0 else text[lt + 1 : -1]


def _nested(text: str) -> str:
    """A parameter that is itself a gpu/nvvm/rocdl attribute, printed canonically."""
    parts = _hash_parts(text)
    if parts is None:
        return text
    return str(canonical_attr(DialectAttr(*parts)))


def _object(body: str) -> str:
    params = split_commas(body)
    if not params:
        return body
    out = [_nested(params[0])]
    for param in params[1:]:
        name, _, value = param.partition(" = ")
        if name == "properties":
            out.append(f"properties = {_dictionary(value)}")
        elif name == "kernels":
            out.append(f"kernels = {_short_table(value)}")
        elif name == _DEFAULT_OBJECT_FORMAT and value.startswith('"'):
            out.append(value)
        else:
            out.append(param)
    return ", ".join(out)


def _short_table(value: str) -> str:
    """`#gpu.kernel_table<[...]>` as an object's `kernels` parameter: `<[...]>`, sorted."""
    for prefix in ("#gpu.kernel_table<", "<"):
        if value.startswith(prefix) and value.endswith(">"):
            return f"<{_table(value[len(prefix) : -1])}>"
    return value


def _table(body: str) -> str:
    """The entries of a kernel table sorted by kernel name, each printed canonically."""
    if not (body.startswith("[") and body.endswith("]")):
        return body
    entries = [_nested(e) for e in split_commas(body[1:-1])]
    return "[" + ", ".join(sorted(entries, key=_kernel_name)) + "]"


def _kernel_name(entry: str) -> str:
    parts = _hash_parts(entry)
    if parts is None or parts[2] is None:
        return entry
    return split_commas(parts[2])[0]


def _metadata(body: str) -> str:
    params = split_commas(body)
    out = []
    for param in params:
        name, _, value = param.partition(" = ")
        out.append(f"{name} = {_dictionary(value)}" if name == "metadata" else param)
    return ", ".join(out)


def _target(dialect: str, body: str) -> str:
    """A target's parameters: the default-valued left out, the rest in declared order."""
    written: dict[str, str] = {}
    for param in split_commas(body):
        name, eq, value = param.partition(" = ")
        if not eq:
            return body
        written[name] = value
    declared = _TARGET_PARAMS[dialect]
    if set(written) - {name for name, _ in declared}:
        return body
    kept = []
    for name, default in declared:
        given = written.get(name)
        if given is None or given == default:
            continue
        kept.append(f"{name} = {_dictionary(given) if name == 'flags' else given}")
    return ", ".join(kept)


def _dictionary(text: str) -> str:
    """A dictionary attribute's text as mlir-opt prints it: keys sorted, bare numbers typed."""
    if not (text.startswith("{") and text.endswith("}")):
        return text
    entries: list[tuple[str, str]] = []
    for entry in split_commas(text[1:-1]):
        found = _KEY.match(entry)
        if found is None:
            return text
        key, value = found.group(1), found.group(2)
        entries.append((key.strip('"') if key.startswith('"') else key, entry if value is None else f"{key} = {_value(value)}"))
    entries.sort(key=lambda kv: kv[0])
    return "{" + ", ".join(e for _, e in entries) + "}"


def _value(text: str) -> str:
    if _INTEGER.fullmatch(text):
        return f"{text} : i64"
    if _FLOAT.fullmatch(text):
        return f"{float_text(float(text), None, text)} : f64"
    if text.startswith("{"):
        return _dictionary(text)
    return _nested(text)
