"""The spirv dialect's op definitions (upstream SPIRV*Ops.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_binary = op_class("spirv", "SPIR-V Op{mnemonic}.", "%r = {name} %a, %b : T", traits="pure")
_unary = op_class("spirv", "SPIR-V Op{mnemonic}.", "%r = {name} %a : T", traits="pure")
_convert = op_class("spirv", "SPIR-V Op{mnemonic}.", "%r = {name} %a : T to U", traits="pure")
_read_loosely = op_class("spirv", "SPIR-V {mnemonic} (read loosely).")
_pure = op_class("spirv", traits="pure")
_access_chain = op_class("spirv", syntax="%p = {name} %base[%i] : !spirv.ptr<T, SC>, i32 -> !spirv.ptr<U, SC>", traits="pure")
_terminator = op_class("spirv", traits="terminator")
_return = op_class("spirv", traits="region_return return_like terminator")

OPS: tuple[OpDef, ...] = (
    declare(
        "spirv.module",
        "A SPIR-V module: addressing and memory model, required capabilities, and its functions and globals.",
        traits="isolated no_terminator symbol symbol_table",
        syntax="spirv.module [@name] Logical GLSL450 [requires #spirv.vce<...>] { ... }",
    ),
    declare(
        "spirv.func",
        "A SPIR-V function with its function control.",
        traits="function isolated symbol",
        syntax='spirv.func @name(%a: T) [-> R] "None" [attributes {...}] { ... }',
    ),
    declare(
        "spirv.GlobalVariable",
        "A module-level variable (built-ins, bindings).",
        traits="symbol",
        syntax='spirv.GlobalVariable @v [built_in("...")] : !spirv.ptr<T, Input>',
    ),
    declare("spirv.Variable", "A function-local variable.", syntax="%v = spirv.Variable [init(%x)] : !spirv.ptr<T, Function>"),
    declare("spirv.Constant", "A constant value.", traits="constant_like pure", syntax="%c = spirv.Constant 5 : i64"),
    _pure("Undef", "An undefined value.", syntax="%u = spirv.Undef : T"),
    _pure("mlir.addressof", "The address of a global variable.", syntax="%p = spirv.mlir.addressof @v : !spirv.ptr<T, Input>"),
    declare("spirv.Load", "Loads through a pointer.", syntax='%v = spirv.Load "StorageClass" %p ["Aligned", 4] : T'),
    declare("spirv.Store", "Stores through a pointer.", syntax='spirv.Store "StorageClass" %p, %v ["Aligned", 4] : T'),
    _pure("CompositeExtract", "Extracts a member of a composite.", syntax="%e = spirv.CompositeExtract %v[0 : i32] : vector<3xi64>"),
    _pure("CompositeInsert", "Inserts a member into a composite.", syntax="%r = spirv.CompositeInsert %x, %v[0 : i32] : f32 into vector<3xf32>"),
    _pure("CompositeConstruct", "Builds a composite from its members.", syntax="%v = spirv.CompositeConstruct %a, %b : (f32, f32) -> vector<2xf32>"),
    _access_chain("AccessChain", "A pointer into a composite."),
    _access_chain("PtrAccessChain", "A pointer into a composite, offset by an element index."),
    _access_chain("InBoundsPtrAccessChain", "An in-bounds pointer into a composite, offset by an element index."),
    *family(
        _binary,
        """
        IAdd ISub IMul SDiv UDiv SMod SRem UMod FAdd FSub FMul FDiv FRem FMod BitwiseAnd BitwiseOr BitwiseXor
        ShiftLeftLogical ShiftRightArithmetic ShiftRightLogical LogicalAnd LogicalOr
        IEqual INotEqual SLessThan SLessThanEqual SGreaterThan SGreaterThanEqual ULessThan ULessThanEqual UGreaterThan UGreaterThanEqual
        FOrdEqual FOrdNotEqual FOrdLessThan FOrdLessThanEqual FOrdGreaterThan FOrdGreaterThanEqual
        FUnordEqual FUnordNotEqual FUnordLessThan FUnordLessThanEqual FUnordGreaterThan FUnordGreaterThanEqual LogicalEqual LogicalNotEqual
        """,
    ),
    *family(_unary, "FNegate SNegate Not LogicalNot"),
    *family(_convert, "ConvertFToS ConvertFToU ConvertSToF ConvertUToF SConvert UConvert FConvert Bitcast ConvertPtrToU ConvertUToPtr"),
    _pure("Select", "Chooses between two values by a condition.", syntax="%r = spirv.Select %c, %a, %b : i1, T"),
    _terminator("Branch", "Jumps to a block.", syntax="spirv.Branch ^bb1(%a : T)"),
    _terminator("BranchConditional", "Jumps to one of two blocks depending on a condition.", syntax="spirv.BranchConditional %c, ^bb1, ^bb2"),
    _return("Return", "Returns from a spirv.func without a value.", syntax="spirv.Return"),
    _return("ReturnValue", "Returns a value from a spirv.func.", syntax="spirv.ReturnValue %v : T"),
    *family(_read_loosely, "EntryPoint ExecutionMode mlir.loop mlir.selection"),
    _read_loosely("mlir.merge", traits="region_return terminator"),
    *family(_read_loosely, "ControlBarrier MemoryBarrier SpecConstant SpecConstantComposite mlir.referenceof"),
    _read_loosely("Unreachable", traits="terminator"),
    _read_loosely("Kill", traits="terminator"),
    *family(
        _read_loosely,
        """
        FunctionCall GroupNonUniformBallot GroupNonUniformBroadcast GroupNonUniformShuffle GroupNonUniformShuffleXor GroupNonUniformShuffleUp
        GroupNonUniformShuffleDown GroupNonUniformElect GroupNonUniformIAdd GroupNonUniformFAdd GroupNonUniformFMax GroupNonUniformFMin
        AtomicIAdd EXT.AtomicFAdd AtomicCompareExchange AtomicExchange AtomicAnd AtomicOr AtomicXor AtomicSMax AtomicSMin AtomicUMax AtomicUMin
        CopyMemory IsNan IsInf Dot
        """,
    ),
)
