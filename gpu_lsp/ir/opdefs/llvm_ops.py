"""The llvm dialect's op definitions (upstream LLVMOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_binary = op_class("llvm", "LLVM `{mnemonic}` instruction.", "%r = {name} %a, %b : T", traits="pure")
_cast = op_class("llvm", "LLVM `{mnemonic}` cast.", "%r = {name} %a : T to U", traits="pure")
_compare = op_class("llvm", "LLVM `{mnemonic}` comparison.", '%b = {name} "slt" %a, %b : T', traits="pure")
_read_loosely = op_class("llvm", "An LLVM dialect operation (read loosely).")
# A value of the result type alone (undef, poison, zero).
_constant_value = op_class("llvm.mlir", ins="", outs="LLVM_Type:$res", traits="constant_like pure", format="attr-dict `:` type($res)")
_intrinsic = op_class("llvm.intr", "The LLVM intrinsic `llvm.{mnemonic}`.")
_pure = op_class("llvm", traits="pure")
_terminator = op_class("llvm", traits="terminator")

OPS: tuple[OpDef, ...] = (
    declare(
        "llvm.func",
        "An LLVM function (definition or declaration).",
        traits="function isolated symbol",
        syntax="llvm.func [linkage] [cconv] @name(%a: T, ...) [-> R] [attributes {...}] [{ ... }]",
    ),
    declare("llvm.return", "Returns from an llvm.func.", ins="Optional<LLVM_Type>:$arg", syntax="llvm.return [%v : T]",
            traits="pure region_return return_like terminator"),
    declare("llvm.call", "Calls a function directly by symbol or indirectly through a pointer.", syntax="%r = llvm.call @f(%a) : (T) -> R"),
    declare(
        "llvm.mlir.global",
        "An LLVM global variable, with an initial value or an initializer region.",
        traits="symbol",
        syntax="llvm.mlir.global [linkage] [constant] @name([value]) [{attrs}] : T [{ ... }]",
    ),
    _pure("mlir.addressof", "The address of a global or function.", syntax="%p = llvm.mlir.addressof @g : !llvm.ptr"),
    declare("llvm.mlir.constant", "An LLVM constant.", traits="constant_like pure", syntax="%c = llvm.mlir.constant(42 : i64) : i64"),
    _constant_value("undef", "An undefined value."),
    _constant_value("poison", "A poison value."),
    _constant_value("zero", "The zero value of a type (null for pointers)."),
    _pure("mlir.none", "The `none` token.", syntax="%v = llvm.mlir.none : T"),
    # Effects by position (upstream's `Arg<LLVM_AnyPointer, "", [MemRead]>:$addr` and friends; the readers are hand-written).
    declare(
        "llvm.load", "Loads a value through a pointer.", syntax="%v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32", effects="MemRead:#0"
    ),
    declare("llvm.store", "Stores a value through a pointer.", syntax="llvm.store %v, %p : f32, !llvm.ptr", effects="MemWrite:#1"),
    _pure(
        "getelementptr",
        "Address arithmetic: a pointer to an element of an aggregate.",
        syntax="%q = llvm.getelementptr [inbounds|nusw|nuw] %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, f32",
    ),
    declare("llvm.alloca", "Allocates stack memory for N elements.", syntax="%p = llvm.alloca %n x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr"),
    _pure("extractvalue", "Extracts a member of a struct or array value.", syntax="%v = llvm.extractvalue %s[0, 1] : !llvm.struct<(...)>"),
    _pure("insertvalue", "Inserts a member into a struct or array value.", syntax="%s2 = llvm.insertvalue %v, %s[0] : !llvm.struct<(...)>"),
    _pure("extractelement", "Extracts an element of a vector.", syntax="%e = llvm.extractelement %v[%i : i32] : vector<4xf32>"),
    _pure("insertelement", "Inserts an element into a vector.", syntax="%v2 = llvm.insertelement %x, %v[%i : i32] : vector<4xf32>"),
    _pure("shufflevector", "Picks elements of two vectors by a static mask.", syntax="%r = llvm.shufflevector %a, %b [0, 1] : vector<2xf32>"),
    declare(
        "llvm.atomicrmw",
        "Atomic read-modify-write through a pointer.",
        syntax="%old = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32",
        effects="MemRead:#0, MemWrite:#0",
    ),
    declare(
        "llvm.cmpxchg",
        "Atomic compare-and-exchange; returns the old value and a success flag.",
        syntax="%r = llvm.cmpxchg %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32",
        effects="MemRead:#0, MemWrite:#0",
    ),
    _terminator("br", "Jumps to a block.", syntax="llvm.br ^bb1(%a : T)"),
    _terminator("cond_br", "Jumps to one of two blocks depending on an i1 condition.", syntax="llvm.cond_br %c, ^bb1(%a : T), ^bb2"),
    _terminator("switch", "Jumps to the block whose case value matches.", syntax="llvm.switch %v : i32, ^default [ 1: ^bb1 ]"),
    _terminator("unreachable", "Marks a point that control never reaches.", syntax="llvm.unreachable"),
    *family(_binary, "add sub mul udiv sdiv urem srem and or xor shl lshr ashr fadd fsub fmul fdiv frem"),
    _pure("fneg", "Float negation.", syntax="%r = llvm.fneg %a : f32"),
    _pure("freeze", "Stops propagation of undef and poison.", syntax="%r = llvm.freeze %a : T"),
    *family(_cast, "bitcast addrspacecast ptrtoint ptrtoaddr inttoptr sext zext trunc fptosi fptoui sitofp uitofp fpext fptrunc"),
    *family(_compare, "icmp fcmp"),
    _pure("select", "Chooses between two values by a condition.", syntax="%r = llvm.select %c, %a, %b : i1, T"),
    *family(
        _read_loosely,
        """
        fence inline_asm module_flags comdat comdat_selector mlir.alias mlir.global_ctors mlir.global_dtors mlir.ifunc linker_options
        named_metadata va_arg call_intrinsic invoke landingpad resume indirectbr blockaddress blocktag dso_local_equivalent
        """,
    ),
    *family(
        _intrinsic,
        """
        abs acos asin assume atan atan2 bitreverse bswap ceil copysign cos cosh ctlz ctpop cttz debugtrap exp exp10 exp2 expect fabs floor fma
        fmuladd frexp fshl fshr get.active.lane.mask is.fpclass ldexp lifetime.end lifetime.start llrint llround log log10 log2 lrint lround
        masked.compressstore masked.expandload masked.gather masked.load masked.scatter masked.store maximum maxnum memcpy memcpy.inline
        memmove memset memset.inline minimum minnum nearbyint pow powi prefetch ptrmask rint round roundeven sadd.sat sadd.with.overflow sin
        sincos sinh smax smin smul.with.overflow sqrt sshl.sat ssub.sat ssub.with.overflow stackrestore stacksave stepvector tan tanh
        threadlocal.address trap trunc uadd.sat uadd.with.overflow ubsantrap umax umin umul.with.overflow ushl.sat usub.sat usub.with.overflow
        vector.deinterleave2 vector.extract vector.insert vector.interleave2 vector.reduce.add vector.reduce.and vector.reduce.fadd
        vector.reduce.fmax vector.reduce.fmaximum vector.reduce.fmin vector.reduce.fminimum vector.reduce.fmul vector.reduce.mul
        vector.reduce.or vector.reduce.smax vector.reduce.smin vector.reduce.umax vector.reduce.umin vector.reduce.xor vscale
        """,
    ),
)
