"""Floats as MLIR prints them (printFloatValue): the shortest exact decimal, or the bits in hex."""

from __future__ import annotations

import math
import struct
from typing import Any

from gpu_lsp.ir import types as T

# (struct format of the bits, struct format of the value, how far the bits are shifted in it): bf16
# is the upper half of an f32.
_LAYOUTS = {"f16": ("<H", "<e", 0), "bf16": ("<I", "<f", 16), "f32": ("<I", "<f", 0), "f64": ("<Q", "<d", 0)}
_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "tf32": 11, "f64": 53, "f80": 64, "f128": 113}


def _round_to(value: float, name: str) -> float:
    """`value` rounded to the precision of float type `name` (best effort for exotic types)."""
    if name == "f64" or math.isnan(value) or math.isinf(value):
        return value
    try:
        if name == "f32":
            return struct.unpack("<f", struct.pack("<f", value))[0]
        if name == "f16":
            return struct.unpack("<e", struct.pack("<e", value))[0]
        if name == "bf16":
            bits = struct.unpack("<I", struct.pack("<f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return struct.unpack("<f", struct.pack("<I", bits))[0]
    except (OverflowError, struct.error):
        return math.copysign(math.inf, value)
    return value


def _repack(x: int | float, packed_as: str, read_as: str) -> Any:
    """`x` (bits, or a value: compiled code must not make the bits a float) packed in struct format
    `packed_as` and read back in `read_as`; None when it does not fit."""
    try:
        return struct.unpack(read_as, struct.pack(packed_as, x))[0]
    except (OverflowError, struct.error):
        return None


def _bits(value: float, name: str) -> int | None:
    """The bit pattern of `value` as float type `name`; None for a type without a layout here, or out of range."""
    layout = _LAYOUTS.get(name)
    if layout is None:
        return None
    bits_format, value_format, shift = layout
    bits = _repack(value, value_format, bits_format)
    return None if bits is None else bits >> shift


def _from_bits(bits: int, name: str) -> float | None:
    """The value of bit pattern `bits` of float type `name`; None for a type without a layout here, or too many bits."""
    layout = _LAYOUTS.get(name)
    if layout is None:
        return None
    bits_format, value_format, shift = layout
    return _repack(bits << shift, bits_format, value_format)


def _apfloat_string(value: float, precision_bits: int, digits: int, max_padding: int, truncate_zero: bool) -> str:
    """llvm::APFloat::toString for a finite value (its exact algorithm, truncation quirks included)."""
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        if not max_padding:
            return sign + ("0.0E+0" if truncate_zero else "0.0" + "0" * max(digits - 1, 0) + "e+00")
        return sign + "0"
    if not digits:
        digits = 2 + precision_bits * 59 // 196
    num, den = abs(value).as_integer_ratio()
    exp = -(den.bit_length() - 1)
    while num and not num & 1:
        num >>= 1
        exp += 1
    if exp >= 0:
        significand = num << exp
        exp = 0
    else:
        significand = num * 5 ** (-exp)
    bits = significand.bit_length()
    required = (digits * 196 + 58) // 59
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10**removable
    buffer = str(significand)
    stripped = buffer.rstrip("0")
    exp += len(buffer) - len(stripped)
    buffer = stripped[::-1]  # least significant digit first, like APFloat
    n = len(buffer)
    if n > digits:
        first = n - digits
        if buffer[first - 1] < "5":
            while first < n and buffer[first] == "0":
                first += 1
            exp += first
            buffer = buffer[first:]
        else:
            chars = list(buffer)
            for i in range(first, n):
                if chars[i] == "9":
                    first += 1
                else:
                    chars[i] = chr(ord(chars[i]) + 1)
                    break
            if first == n:
                exp += first
                buffer = "1"
            else:
                exp += first
                buffer = "".join(chars[first:])
    n = len(buffer)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > digits
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    msf = buffer[::-1]  # most significant first
    if scientific:
        exp += n - 1
        out = msf[0] + "."
        if n == 1 and truncate_zero:
            out += "0"
        else:
            out += msf[1:]
        if not truncate_zero and digits > n - 1:
            out += "0" * (digits - n + 1)
        out += "E" if truncate_zero else "e"
        out += "+" if exp >= 0 else "-"
        e = str(abs(exp))
        if not truncate_zero and len(e) < 2:
            e = "0" + e
        return sign + out + e
    if exp >= 0:
        return sign + msf + "0" * exp
    whole = exp + n
    if whole > 0:
        return sign + msf[:whole] + "." + msf[whole:]
    return sign + "0." + "0" * (-whole) + msf


def float_text(value: float, ty: T.Type | None, spelling: str | None = None) -> str:
    """A float as MLIR's printFloatValue prints it: `1.000000e+00`, shortest exact form, or hex."""
    name = ty.name if isinstance(ty, T.FloatType) else "f64"
    if spelling and spelling.lower().startswith(("0x", "-0x")):
        decoded = _from_bits(int(spelling, 16), name)
        if decoded is None:
            return spelling
        value = decoded
    value = _round_to(value, name)
    if not (math.isnan(value) or math.isinf(value)):
        precision = _PRECISION.get(name)
        if precision is None:
            return spelling or repr(value)
        text = _apfloat_string(value, precision, 6, 0, False)
        if _round_to(float(text), name) == value:
            return text
        text = _apfloat_string(value, precision, 0, 3, True)
        if "." in text:
            return text
    bits = int(spelling, 16) if spelling and spelling.lower().startswith("0x") else _bits(value, name)
    if bits is None:
        return spelling or repr(value)
    return f"0x{bits:X}"
