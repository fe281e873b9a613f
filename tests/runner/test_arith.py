"""arith and math ops in kernels on the NumPy backend, against NumPy/Python computed independently."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import mlir_array, printed_memrefs, run_ok

N = 16
rng = np.random.default_rng(7)
A32 = np.array([7, -7, 100, -100, 2**31 - 1, -(2**31), 5, 0, -1, 13, 1 << 20, -3, 9, 64, -65, 3], dtype=np.int64)
B32 = np.array([2, 2, -3, -3, 2, 3, 5, 7, 1, -4, 3, 2, -9, 31, 4, 33], dtype=np.int64)


def kernel_program(ty: str, rows: list[str], inputs: dict[str, np.ndarray], out_ty: str | None = None) -> str:
    """A kernel with one thread per element: loads %a, %b (and %c) and stores one row per op."""
    out_ty = out_ty or ty
    names = list(inputs)
    globals_ = "\n".join(
        f'  memref.global "private" constant @{n} : memref<{N}x{ty}> = {mlir_array(v, ty)}' for n, v in inputs.items()
    )
    params = ", ".join(f"%{n}: memref<{N}x{ty}>" for n in names)
    loads = "\n".join(f"      %{n.lower()} = memref.load %{n}[%i] : memref<{N}x{ty}>" for n in names)
    body = []
    for k, row in enumerate(rows):
        body.append(f"      %r{k} = {row}")
        body.append(f"      %k{k} = arith.constant {k} : index")
        body.append(f"      memref.store %r{k}, %O[%k{k}, %i] : memref<{len(rows)}x{N}x{out_ty}>")
    host = []
    args = []
    for n in names:
        host.append(f"    %h{n} = memref.get_global @{n} : memref<{N}x{ty}>")
        host.append(f"    %d{n} = gpu.alloc () : memref<{N}x{ty}>")
        host.append(f"    gpu.memcpy %d{n}, %h{n} : memref<{N}x{ty}>, memref<{N}x{ty}>")
        args.append(f"%d{n} : memref<{N}x{ty}>")
    printer = {"i32": "printMemrefI32", "i64": "printMemrefI64", "f32": "printMemrefF32", "f64": "printMemrefF64", "index": "printMemrefInd"}[out_ty]
    return f"""
module attributes {{gpu.container_module}} {{
{globals_}
  gpu.module @k {{
    gpu.func @f({params}, %O: memref<{len(rows)}x{N}x{out_ty}>) kernel {{
      %i = gpu.thread_id x
{loads}
{chr(10).join(body)}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %cn = arith.constant {N} : index
{chr(10).join(host)}
    %dO = gpu.alloc () : memref<{len(rows)}x{N}x{out_ty}>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args({", ".join(args)}, %dO : memref<{len(rows)}x{N}x{out_ty}>)
    %hO = memref.alloc () : memref<{len(rows)}x{N}x{out_ty}>
    gpu.memcpy %hO, %dO : memref<{len(rows)}x{N}x{out_ty}>, memref<{len(rows)}x{N}x{out_ty}>
    %u = memref.cast %hO : memref<{len(rows)}x{N}x{out_ty}> to memref<*x{out_ty}>
    call @{printer}(%u) : (memref<*x{out_ty}>) -> ()
    return
  }}
  func.func private @{printer}(memref<*x{out_ty}>)
}}
"""


def wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_OPS = {
    "addi": lambda a, b, u: a + b,
    "subi": lambda a, b, u: a - b,
    "muli": lambda a, b, u: a * b,
    "divsi": lambda a, b, u: tdiv(a, b),
    "remsi": lambda a, b, u: a - tdiv(a, b) * b,
    "divui": lambda a, b, u: u(a) // u(b),
    "remui": lambda a, b, u: u(a) % u(b),
    "ceildivsi": lambda a, b, u: -((-a) // b),
    "ceildivui": lambda a, b, u: -((-u(a)) // u(b)),
    "floordivsi": lambda a, b, u: a // b,
    "andi": lambda a, b, u: a & b,
    "ori": lambda a, b, u: a | b,
    "xori": lambda a, b, u: a ^ b,
    "maxsi": lambda a, b, u: max(a, b),
    "minsi": lambda a, b, u: min(a, b),
    "maxui": lambda a, b, u: a if u(a) >= u(b) else b,
    "minui": lambda a, b, u: a if u(a) <= u(b) else b,
}


@pytest.mark.parametrize("ty, bits", [("i32", 32), ("i64", 64)])
def test_integer_binary_ops(ty: str, bits: int) -> None:
    a = A32.copy()
    b = B32.copy()
    if bits == 64:
        a = a * 3_000_000_007
    safe = (a != -(2 ** (bits - 1))) | (b != -1)
    assert safe.all()
    rows = [f"arith.{op} %a, %b : {ty}" for op in INT_OPS]
    shift_rows = [f"arith.{op} %a, %s : {ty}" for op in ("shli", "shrsi", "shrui")]
    text = kernel_program(ty, rows, {"A": a, "B": b})
    # shift amounts in range: %s = %b & (bits - 1)
    text = text.replace("      %r0 = ", f"      %mask = arith.constant {bits - 1} : {ty}\n      %s = arith.andi %b, %mask : {ty}\n      %r0 = ", 1)
    got = printed_memrefs(run_ok(text).stdout)[0]
    u = lambda v: v & ((1 << bits) - 1)  # noqa: E731
    for k, (name, fn) in enumerate(INT_OPS.items()):
        want = [wrap(fn(int(x), int(y), u), bits) for x, y in zip(a, b)]
        assert got[k].astype(np.int64).tolist() == want, name
    text = kernel_program(ty, shift_rows, {"A": a, "B": b})
    text = text.replace("      %r0 = ", f"      %mask = arith.constant {bits - 1} : {ty}\n      %s = arith.andi %b, %mask : {ty}\n      %r0 = ", 1)
    got = printed_memrefs(run_ok(text).stdout)[0]
    for k, name in enumerate(("shli", "shrsi", "shrui")):
        want = []
        for x, y in zip(a, b):
            s = int(y) & (bits - 1)
            x = int(x)
            r = {"shli": x << s, "shrsi": x >> s, "shrui": u(x) >> s}[name]
            want.append(wrap(r, bits))
        assert got[k].astype(np.int64).tolist() == want, name


FA = np.array([1.5, -2.25, 0.0, -0.0, 3.0, 1e30, -1e-3, 7.0, 2.0, -8.5, 100.0, 0.125, 5.5, -3.75, 9.0, 1.0], dtype=np.float32)
FB = np.array([0.5, 4.0, -1.0, 2.0, -3.0, 1e30, 2e-3, -2.0, 0.3, 2.5, -7.0, 8.0, 5.5, 1.25, -9.5, 3.0], dtype=np.float32)


def test_float_ops_compare_and_select() -> None:
    ops = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"]
    rows = [f"arith.{op} %a, %b : f32" for op in ops]
    rows.append("arith.negf %a : f32")
    text = kernel_program("f32", rows, {"A": FA, "B": FB})
    got = printed_memrefs(run_ok(text).stdout)[0]
    a, b = FA.astype(np.float32), FB.astype(np.float32)
    with np.errstate(all="ignore"):
        want = [a + b, a - b, a * b, a / b, np.fmod(a, b), np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b), -a]
    for k, w in enumerate(want):
        # printMemref prints 6 significant digits
        np.testing.assert_allclose(got[k], w.astype(np.float64), rtol=1e-5, atol=1e-30, err_msg=ops[k] if k < len(ops) else "negf")


def test_cmpf_cmpi_select_and_casts() -> None:
    preds_f = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true", "false"]
    rows = []
    for p in preds_f:
        rows.append(f"arith.cmpf {p}, %a, %b : f32\n      %e{p} = arith.extui %r{len(rows)} : i1 to i32\n      %z{p} = arith.sitofp %e{p} : i32 to f32")
    # the row value must be the float: rewrite each row's store to store %z
    a = FA.copy()
    b = FB.copy()
    a[3] = np.nan
    b[5] = np.nan
    b[6] = a[6]
    text = kernel_program("f32", rows, {"A": a, "B": b})
    for k, p in enumerate(preds_f):
        text = text.replace(f"memref.store %r{k}, %O[%k{k}", f"memref.store %z{p}, %O[%k{k}")
    got = printed_memrefs(run_ok(text).stdout)[0]
    uno = np.isnan(a) | np.isnan(b)
    table = {
        "oeq": a == b, "ogt": a > b, "oge": a >= b, "olt": a < b, "ole": a <= b, "one": (a != b) & ~uno, "ord": ~uno,
        "ueq": (a == b) | uno, "ugt": (a > b) | uno, "uge": (a >= b) | uno, "ult": (a < b) | uno, "ule": (a <= b) | uno,
        "une": a != b, "uno": uno, "true": np.ones(N, bool), "false": np.zeros(N, bool),
    }
    for k, p in enumerate(preds_f):
        assert got[k].tolist() == table[p].astype(float).tolist(), p


def test_casts_between_integers_floats_and_index() -> None:
    rows = [
        "arith.extsi %a8 : i8 to i32",
        "arith.extui %a8 : i8 to i32",
        "arith.trunci %a : i32 to i8\n      %t2 = arith.extsi %r2 : i8 to i32",
        "arith.index_cast %a : i32 to index\n      %t3 = arith.index_cast %r3 : index to i32",
        "arith.sitofp %a : i32 to f32\n      %t4 = arith.fptosi %r4 : f32 to i32",
        "arith.uitofp %a8 : i8 to f32\n      %t5 = arith.fptoui %r5 : f32 to i32",
        "arith.bitcast %a : i32 to f32\n      %t6 = arith.bitcast %r6 : f32 to i32",
        "arith.cmpi slt, %a, %b : i32\n      %t7 = arith.extsi %r7 : i1 to i32",
        "arith.cmpi ult, %a, %b : i32\n      %t8 = arith.extui %r8 : i1 to i32",
        "arith.select %r7, %a, %b : i32",
        "arith.index_castui %a8 : i8 to index\n      %t10 = arith.index_cast %r10 : index to i32",
    ]
    text = kernel_program("i32", rows, {"A": A32, "B": B32})
    text = text.replace("      %r0 = ", "      %a8 = arith.trunci %a : i32 to i8\n      %r0 = ", 1)
    for k in (2, 3, 4, 5, 6, 7, 8, 10):
        text = text.replace(f"memref.store %r{k}, %O[%k{k}", f"memref.store %t{k}, %O[%k{k}")
    got = printed_memrefs(run_ok(text).stdout)[0].astype(np.int64)
    a = A32.astype(np.int64)
    b = B32.astype(np.int64)
    a8 = np.array([wrap(int(x), 8) for x in a])
    want = [
        a8,
        a8 & 0xFF,
        a8,
        a,
        a,  # i32 -> f32 -> i32 for values exactly representable or rounded then truncated below
        a8 & 0xFF,
        a,
        -(a < b).astype(np.int64),
        ((a & 0xFFFFFFFF) < (b & 0xFFFFFFFF)).astype(np.int64),
        np.where(a < b, a, b),
        a8 & 0xFF,
    ]
    f = a.astype(np.float32).astype(np.float64)
    want[4] = np.array([wrap(int(np.clip(x, -(2**31), 2**31 - 1)), 32) if x < 2**31 else -(2**31) for x in f])
    for k, w in enumerate(want):
        assert got[k].tolist() == list(w), rows[k]


MATH = {
    "sqrt": np.sqrt, "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    "floor": np.floor, "ceil": np.ceil, "absf": np.abs, "rsqrt": lambda x: 1 / np.sqrt(x),
    "exp2": np.exp2, "log2": np.log2, "erf": np.vectorize(math.erf), "round": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5),
    "trunc": np.trunc, "atan": np.arctan, "cbrt": np.cbrt, "log1p": np.log1p,
}


def test_math_functions() -> None:
    x = np.abs(FA) + 0.5
    x[5] = 2.5  # avoid overflow in exp
    binary = ["math.powf %a, %b : f32", "math.fma %a, %b, %a : f32", "math.atan2 %a, %b : f32", "math.copysign %a, %b : f32"]
    rows = [f"math.{n} %a : f32" for n in MATH] + binary
    text = kernel_program("f32", rows, {"A": x, "B": FB})
    got = printed_memrefs(run_ok(text).stdout)[0]
    xs = x.astype(np.float64)
    bs = FB.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [fn(xs) for fn in MATH.values()] + [np.power(xs, bs), xs * bs + xs, np.arctan2(xs, bs), np.copysign(xs, bs)]
        want = [w.astype(np.float32).astype(np.float64) for w in want]  # f32 results (exp may overflow to inf)
    for k, w in enumerate(want):
        np.testing.assert_allclose(got[k], w, rtol=2e-5, atol=1e-30, err_msg=rows[k])


def test_integer_math() -> None:
    rows = ["math.absi %a : i32", "math.ctlz %a : i32", "math.cttz %a : i32", "math.ctpop %a : i32", "math.ipowi %p, %e : i32", "math.ipowi %p, %ne : i32"]
    text = kernel_program("i32", rows, {"A": A32, "B": B32})
    setup = (
        "      %c3 = arith.constant 3 : i32\n      %e = arith.remui %b, %c3 : i32\n      %p = arith.remsi %a, %c3 : i32\n"
        "      %z = arith.constant 0 : i32\n      %ne = arith.subi %z, %e : i32\n"
    )
    text = text.replace("      %r0 = ", setup + "      %r0 = ", 1)
    got = printed_memrefs(run_ok(text).stdout)[0].astype(np.int64)
    a = [int(v) & 0xFFFFFFFF for v in A32]
    assert got[0].tolist() == [wrap(abs(int(v)), 32) for v in A32]
    assert got[1].tolist() == [32 - v.bit_length() for v in a]
    assert got[2].tolist() == [(v & -v).bit_length() - 1 if v else 32 for v in a]
    assert got[3].tolist() == [bin(v).count("1") for v in a]
    want = []
    for x, y in zip(A32, B32):
        e = (int(y) & 0xFFFFFFFF) % 3
        p = int(x) - tdiv(int(x), 3) * 3
        want.append(wrap(p**e, 32))
    assert got[4].tolist() == want
    want = []
    for x, y in zip(A32, B32):
        e = (int(y) & 0xFFFFFFFF) % 3
        p = int(x) - tdiv(int(x), 3) * 3
        want.append(1 if e == 0 or p == 1 else ((-1) ** e if p == -1 else 0))
    assert got[5].tolist() == want


INDEX_OPS = {"add": "addi", "sub": "subi", "mul": "muli", "divs": "divsi", "rems": "remsi", "divu": "divui", "remu": "remui",
             "ceildivs": "ceildivsi", "floordivs": "floordivsi", "maxs": "maxsi", "mins": "minsi", "maxu": "maxui",
             "minu": "minui", "and": "andi", "or": "ori", "xor": "xori"}


def index_program() -> str:
    rows = [f"index.{op} %a, %b\n      %t{k} = index.casts %r{k} : index to i64" for k, op in enumerate(INDEX_OPS)]
    rows.append(f"index.cmp slt(%a, %b)\n      %t{len(INDEX_OPS)} = arith.extui %r{len(INDEX_OPS)} : i1 to i64")
    text = kernel_program("index", rows, {"A": A32, "B": B32}, out_ty="i64")
    for k in range(len(rows)):
        text = text.replace(f"memref.store %r{k}, %O[%k{k}", f"memref.store %t{k}, %O[%k{k}")
    return text


def test_index_dialect_ops() -> None:
    names = INDEX_OPS
    text = index_program()
    got = printed_memrefs(run_ok(text).stdout)[0]
    u = lambda v: v & ((1 << 64) - 1)  # noqa: E731
    for k, arith in enumerate(names.values()):
        want = [wrap(INT_OPS[arith](int(x), int(y), u), 64) for x, y in zip(A32, B32)]
        assert got[k].tolist() == want, arith
    assert got[len(names)].tolist() == (A32 < B32).astype(int).tolist()
