"""The attribute an ODS default value (`"::mlir::arith::FastMathFlags::none"`) stands for."""

from __future__ import annotations

import re
from functools import cache

from gpu_lsp.ir.attributes import Attribute, BoolAttr, IntegerAttr
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.flags import FLAGS
from gpu_lsp.ir.opdefs.typing import integer_attr_type

_INTEGER = re.compile(r"-?(?:\d+|0x[0-9a-fA-F]+)")  # ODS writes some defaults in hex ("0xf")


@cache
def default_attribute(constraint: str, text: str) -> Attribute | None:
    """The default of a DefaultValued attribute as an Attribute; None when it cannot be built here."""
    case = text.rsplit("::", 1)[-1]
    flags = FLAGS.get(constraint)
    if flags is not None:
        return flags.attribute([case])
    enum = ENUMS.get(constraint)
    # The default names the C++ enumerant, which may differ in case from the keyword (APPROX, approx).
    keyword = next((k for k in enum.cases if k.lower() == case.lower()), None) if enum is not None else None
    if enum is not None and keyword is not None:
        return enum.attribute(keyword)
    if constraint == "BoolAttr" and text in ("true", "false"):
        return BoolAttr(text == "true")
    ty = integer_attr_type(constraint)
    if ty is not None and _INTEGER.fullmatch(text):
        return IntegerAttr(int(text, 16 if "0x" in text else 10), ty)
    return None
