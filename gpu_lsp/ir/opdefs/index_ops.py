"""The index dialect's op definitions (upstream IndexOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare("index.add", "Addition.", traits="pure", syntax="%r = index.add %a, %b"),
    declare("index.sub", "Subtraction.", traits="pure", syntax="%r = index.sub %a, %b"),
    declare("index.mul", "Multiplication.", traits="pure", syntax="%r = index.mul %a, %b"),
    declare("index.divs", "Signed division.", traits="pure", syntax="%r = index.divs %a, %b"),
    declare("index.divu", "Unsigned division.", traits="pure", syntax="%r = index.divu %a, %b"),
    declare("index.ceildivs", "Signed division rounding up.", traits="pure", syntax="%r = index.ceildivs %a, %b"),
    declare("index.ceildivu", "Unsigned division rounding up.", traits="pure", syntax="%r = index.ceildivu %a, %b"),
    declare("index.floordivs", "Signed division rounding down.", traits="pure", syntax="%r = index.floordivs %a, %b"),
    declare("index.rems", "Signed remainder.", traits="pure", syntax="%r = index.rems %a, %b"),
    declare("index.remu", "Unsigned remainder.", traits="pure", syntax="%r = index.remu %a, %b"),
    declare("index.maxs", "Signed maximum.", traits="pure", syntax="%r = index.maxs %a, %b"),
    declare("index.maxu", "Unsigned maximum.", traits="pure", syntax="%r = index.maxu %a, %b"),
    declare("index.mins", "Signed minimum.", traits="pure", syntax="%r = index.mins %a, %b"),
    declare("index.minu", "Unsigned minimum.", traits="pure", syntax="%r = index.minu %a, %b"),
    declare("index.shl", "Shift left.", traits="pure", syntax="%r = index.shl %a, %b"),
    declare("index.shrs", "Arithmetic shift right.", traits="pure", syntax="%r = index.shrs %a, %b"),
    declare("index.shru", "Logical shift right.", traits="pure", syntax="%r = index.shru %a, %b"),
    declare("index.and", "Bitwise and.", traits="pure", syntax="%r = index.and %a, %b"),
    declare("index.or", "Bitwise or.", traits="pure", syntax="%r = index.or %a, %b"),
    declare("index.xor", "Bitwise xor.", traits="pure", syntax="%r = index.xor %a, %b"),
    declare("index.constant", "An index constant.", traits="constant_like pure", syntax="%c = index.constant 42"),
    declare("index.bool.constant", "An i1 constant.", traits="constant_like pure", syntax="%b = index.bool.constant true"),
    declare("index.cmp", "Compares two index values.", traits="pure", syntax="%b = index.cmp slt(%a, %b)"),
    declare("index.casts", "Signed cast between index and an integer type.", traits="pure", syntax="%r = index.casts %a : i32 to index"),
    declare("index.castu", "Unsigned cast between index and an integer type.", traits="pure", syntax="%r = index.castu %a : i32 to index"),
    declare("index.sizeof", "The width of `index` in bits on the target.", traits="pure", syntax="%n = index.sizeof"),
)
