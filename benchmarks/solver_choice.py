"""z3 against islpy on the queries the kernel checks ask over the labelled suite: the measurement behind the choice of z3.

Not a test. Run from the repository root (islpy is not a dependency: `pip install islpy` first):

    .venv/bin/python benchmarks/solver_choice.py

Every query z3 answers while the suite is checked is recorded, translated into an isl set (the
integer points of a Presburger formula: sums, products by constants, floor division and modulo
by constants, comparisons, and, or, not) and decided again by islpy (`is_empty`, then
`sample_point` for a witness). Queries isl cannot express (a product of two unknowns, a select)
are counted apart. Both solvers' times are per query, from the built formula to the answer.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import z3  # noqa: E402
from sanitizer.kernel_findings import findings  # noqa: E402
from sanitizer.suite_loader import load_suite  # noqa: E402

from gpu_lsp.diagnostics.registry import load_rules  # noqa: E402

_ARITH = {z3.Z3_OP_ADD: " + ", z3.Z3_OP_SUB: " - ", z3.Z3_OP_MUL: " * "}
_COMPARE = {z3.Z3_OP_LE: " <= ", z3.Z3_OP_LT: " < ", z3.Z3_OP_GE: " >= ", z3.Z3_OP_GT: " > ", z3.Z3_OP_EQ: " = "}


class Inexpressible(Exception):
    """A term outside Presburger arithmetic."""


def to_isl(e: z3.ExprRef, names: set[str]) -> str:
    """A z3 formula over integers in isl's syntax; the names of its variables are added to `names`."""
    k = e.decl().kind()
    kids = e.children()
    if z3.is_int_value(e):
        return str(e.as_long())
    if z3.is_true(e):
        return "0 = 0"
    if z3.is_false(e):
        return "1 = 0"
    if z3.is_const(e) and k == z3.Z3_OP_UNINTERPRETED:
        names.add(str(e))
        return str(e)
    if k in _ARITH:
        if k == z3.Z3_OP_MUL and sum(1 for c in kids if not z3.is_int_value(c)) > 1:
            raise Inexpressible("product of unknowns")
        return "(" + _ARITH[k].join(to_isl(c, names) for c in kids) + ")"
    if k == z3.Z3_OP_UMINUS:
        return f"(-{to_isl(kids[0], names)})"
    if k in (z3.Z3_OP_IDIV, z3.Z3_OP_DIV, z3.Z3_OP_MOD) and z3.is_int_value(kids[1]):
        a, b = to_isl(kids[0], names), kids[1].as_long()
        return f"floor({a}/{b})" if k != z3.Z3_OP_MOD else f"({a} mod {b})"
    if k in _COMPARE:
        return "(" + _COMPARE[k].join(to_isl(c, names) for c in kids) + ")"
    if k == z3.Z3_OP_DISTINCT:
        a, b = (to_isl(c, names) for c in kids)
        return f"({a} < {b} or {a} > {b})"
    if k == z3.Z3_OP_AND:
        return "(" + " and ".join(to_isl(c, names) for c in kids) + ")" if kids else "0 = 0"
    if k == z3.Z3_OP_OR:
        return "(" + " or ".join(to_isl(c, names) for c in kids) + ")" if kids else "1 = 0"
    if k == z3.Z3_OP_NOT:
        return f"(not {to_isl(kids[0], names)})"
    raise Inexpressible(str(e.decl()))


def main() -> int:
    try:
        import islpy as isl
    except ImportError:
        print("islpy is not installed: pip install islpy")
        return 1
    load_rules()  # the rule modules first: the sanitizer modules are imported through them
    from gpu_lsp.diagnostics.sanitizer import solver

    recorded: list[list] = []
    original = solver._solve

    def recording(s: z3.Solver, facts: list):
        recorded.append(list(facts))
        return original(s, facts)

    solver._solve = recording
    for kernel in load_suite():
        findings(kernel)
    z3_ms, isl_ms, agree, skipped = [], [], 0, 0
    for facts in recorded:
        s = z3.Solver()
        s.set("timeout", 2000)
        t0 = time.perf_counter()
        s.add(*facts)
        verdict = s.check()
        if verdict == z3.sat:
            s.model()
        z3_ms.append((time.perf_counter() - t0) * 1e3)
        names: set[str] = set()
        try:
            body = " and ".join(to_isl(f, names) for f in facts) or "0 = 0"
        except Inexpressible:
            skipped += 1
            continue
        t0 = time.perf_counter()
        space = isl.Set("{ [" + ", ".join(sorted(names)) + "] : " + body + " }")
        empty = space.is_empty()
        if not empty:
            space.sample_point()
        isl_ms.append((time.perf_counter() - t0) * 1e3)
        agree += (verdict == z3.unsat) == empty
    expressed = len(isl_ms)
    print(f"queries: {len(recorded)} over the suite; isl expresses {expressed}, {skipped} not (products of unknowns, selects)")
    for name, times in (("z3", z3_ms), ("islpy", isl_ms)):
        if times:
            print(f"{name:6} median {statistics.median(times):.2f} ms, worst {max(times):.1f} ms, total {sum(times):.0f} ms")
    print(f"same verdict on {agree}/{expressed} queries both express")
    return 0


if __name__ == "__main__":
    sys.exit(main())
