"""Incremental linting: an edit inside one unit re-lints that unit only, with the full lint's result."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from lsp_samples import OUTLINED
from support import SHARED
from support.typing import PASTED, generated, typing_edits

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.registry import Scope, load_rules
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.engine import parse_document
from gpu_lsp.lsp.settings import EditorSettings

GEN = SHARED / "tools" / "gen_gpu_mlir.py"

# Edits typed inside function bodies: (text to find after the middle of the file, replacement).
BODY_EDITS = [
    ("arith.constant 32 : index", "arith.constant 320 : index"),
    ("arith.constant 320 : index", "arith.constant 32 : index"),
    ("gpu.wait [%t", "gpu.wait [%t9"),  # an undefined token
    ("gpu.wait [%t9", "gpu.wait [%t"),
    ("%c1 = arith.constant 1 : index\n", "%c1 = arith.constant 1 : index\n  %extra = gpu.wait async\n"),
    ("memref.store", "memref.stor"),  # an unknown op
    ("memref.stor ", "memref.store "),
]


def _generated(mode: str) -> str:
    return subprocess.run(
        [sys.executable, str(GEN), "--mode", mode, "--lines", "1500"], check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.parametrize("mode", ["inline", "outlined"])
def test_edits_inside_a_unit_lint_only_it_and_match_a_full_lint(mode: str) -> None:
    text = _generated(mode)
    doc = Document("file:///gen.mlir", text, 1)
    settings = EditorSettings()
    assert doc.analysed(settings).complete
    version = 1
    for needle, replacement in BODY_EDITS:
        start = doc.text.find(needle, len(doc.text) // 2)
        if start < 0:
            continue
        version += 1
        doc.replace(start, start + len(needle), replacement, version)
        snap = doc.analysed(settings)
        assert not snap.complete, f"{needle!r}: expected the quick path"
        assert snap.diagnostics == lint_parsed(snap.parsed, settings), needle
    assert version > 4


def test_random_edits_settle_to_the_full_lint() -> None:
    rng = random.Random(99)
    doc = Document("file:///a.mlir", OUTLINED, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    for version in range(2, 200):
        text = doc.text
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.choice((0, 1, 2)))
        doc.replace(start, end, rng.choice(["", "x", "%t0", " ", "\n", "}", "1"]), version)
        snap = doc.analysed(settings)
        doc.settle(settings)
        assert snap.complete
        assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)  # the incremental parse's lint is a fresh parse's


def test_a_changed_interface_needs_a_full_lint() -> None:
    doc = Document("file:///a.mlir", OUTLINED, 1)
    doc.analysed(EditorSettings())
    start = OUTLINED.index("%factor: f32) kernel")
    doc.replace(start, start + len("%factor: f32"), "%factor: f64", 2)
    snap = doc.analysed(EditorSettings())
    assert snap.complete  # the kernel's signature changed: its launches must be checked again
    assert snap.diagnostics == lint_parsed(snap.parsed, EditorSettings())


def test_suppression_comments_mean_full_lints() -> None:
    text = OUTLINED.replace("    %t4 = gpu.launch_func", "    // gpu-lint: ignore[GPU201]\n    %t4 = gpu.launch_func")
    doc = Document("file:///a.mlir", text, 1)
    llvm22 = EditorSettings(mlir_version=22)  # GPU201 fires on the two-dependency launch
    assert [d.code for d in doc.analysed(llvm22).diagnostics] == []
    start = text.index("arith.constant 16")
    doc.replace(start, start + len("arith.constant 16"), "arith.constant 17", 2)
    snap = doc.analysed(llvm22)
    assert snap.complete and snap.diagnostics == lint_parsed(snap.parsed, llvm22)


def test_settings_change_relints_without_parsing() -> None:
    doc = Document("file:///a.mlir", OUTLINED, 1)
    first = doc.analysed(EditorSettings(mlir_version=22))
    assert [d.code for d in first.diagnostics] == ["GPU201"]
    second = doc.analysed(EditorSettings(mlir_version=22, ignore=("GPU201",)))
    assert second is first and second.diagnostics == []
    newest = doc.analysed(EditorSettings())
    assert newest.parsed is first.parsed and newest.diagnostics == []  # LLVM 23 lowers it


CALLS = """func.func @callee(%a: i32) -> i32 {
  return %a : i32
}

func.func @caller(%x: i32) -> i32 {
  %r = func.call @callee(%x) : (i32) -> i32
  return %r : i32
}

"""


def test_a_changed_callee_relints_its_caller_without_asking_every_unit(monkeypatch) -> None:
    from gpu_lsp.lsp import lint_cache

    text = CALLS + _generated("inline")
    doc = Document("file:///gen.mlir", text, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    asked = []
    real = lint_cache.interface
    monkeypatch.setattr(lint_cache, "interface", lambda unit: asked.append(unit) or real(unit))
    start = text.index("%a: i32) -> i32")
    doc.replace(start, start + len("%a: i32) -> i32"), "%a: i64) -> i64", 2)
    snap = doc.analysed(settings)
    assert not snap.complete, "the quick path: the caller is re-linted with the callee"
    assert snap.diagnostics == lint_parsed(snap.parsed, settings)
    caller = doc.text.index("func.func @caller")
    caller_end = doc.text.index("\n}\n", caller)
    assert any(caller <= d.range.start < caller_end for d in snap.diagnostics), "the call no longer type-checks"
    assert len(asked) <= 3, "the interfaces of the callee (old and new) and of its caller only"


# A host function pasted into the generated outlined file (a container module): it launches a kernel.
PASTED_HOST = """  func.func @pasted(%arg0: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %cst = arith.constant 2.0 : f32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k7_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%arg0 : memref<?xf32>, %arg0 : memref<?xf32>, %cst : f32)
    gpu.wait [%t1]
    return
  }

"""
EXTRA_KERNEL = """    gpu.func @extra(%dst: memref<?xf32>) kernel {
      gpu.return
    }
"""
# Edits of a container module that change what its units define or use, launches kept well formed:
# (text to find after the module's start, replacement).
INTERFACE_EDITS = [
    ("  // fn7:", PASTED_HOST + "  // fn7:"),
    (PASTED_HOST, ""),
    ("    // kernels of fn8\n", "    // kernels of fn8\n" + EXTRA_KERNEL),
    (EXTRA_KERNEL, ""),
    ("func.func @fn20(", "func.func @fn20b("),
    ("@kernels::@k21_0 ", "@kernels::@k21_1 "),  # the same signature
]


def test_interface_edits_of_a_container_module_lint_their_units_and_match_a_full_lint() -> None:
    doc = Document("file:///gen.mlir", _generated("outlined"), 1)
    settings = EditorSettings()
    doc.analysed(settings)
    for version, (needle, replacement) in enumerate(INTERFACE_EDITS, 2):
        start = doc.text.index(needle, doc.text.index("module"))
        doc.replace(start, start + len(needle), replacement, version)
        snap = doc.analysed(settings)
        assert not snap.complete, f"{needle!r}: expected the quick path"
        assert snap.diagnostics == lint_parsed(snap.parsed, settings), needle


LAUNCH_ARGS = "args(%buf : memref<?xf32>, %arg1 : memref<?xf32>, %cst : f32)"


@pytest.mark.parametrize(
    "needle, replacement",
    [
        (LAUNCH_ARGS, "args(%buf : memref<?xf32>, %arg1 : memref<?xf32>, %c : index)"),  # the interface is kept
        ("@kernels::@k9_0 ", "@kernels::@k9_9 "),  # a use changed
    ],
)
def test_a_launch_edited_into_a_bad_kernel_reference_is_linted_whole(needle: str, replacement: str) -> None:
    doc = Document("file:///gen.mlir", _generated("outlined"), 1)
    settings = EditorSettings()
    doc.analysed(settings)
    start = doc.text.index(needle, doc.text.index("func.func @fn9("))
    doc.replace(start, start + len(needle), replacement, 2)
    snap = doc.analysed(settings)
    assert "GPU105" in {d.code for d in snap.diagnostics}
    assert snap.complete, "GPU105's error stops the module's verification: what the other units found goes"
    assert snap.diagnostics == lint_parsed(snap.parsed, settings)
    doc.replace(start, start + len(replacement), needle, 3)
    assert doc.analysed(settings).diagnostics == []


OUT_OF_BOUNDS = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<16xf32>) kernel {
      %tid = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %buf[%tid] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<16xf32>)
    return
  }
}
"""


ALIASED_LAUNCH = """#k = @kernels::@fill
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<16xf32>) kernel {
      gpu.return
    }
    gpu.func @other(%buf: memref<16xi32>) kernel {
      gpu.return
    }
  }
  func.func @main(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func #k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16xf32>)
    return
  }
}
"""


@pytest.mark.parametrize("needle, replacement", [("memref<16xf32>) kernel", "memref<16xi32>) kernel"), ("@kernels::@fill", "@kernels::@other")])
def test_a_launch_written_with_an_alias_is_linted_again_when_its_kernel_changes(needle: str, replacement: str) -> None:
    """`gpu.launch_func #k` names its kernel only in the alias: a changed signature of that kernel,
    or the alias made to name another, still re-checks the launch (it was left stale, GPU105 missed)."""
    doc = Document("file:///aliased.mlir", ALIASED_LAUNCH, 1)
    settings = EditorSettings()
    assert doc.analysed(settings).diagnostics == []
    at = doc.text.index(needle)
    doc.replace(at, at + len(needle), replacement, 2)
    snap = doc.analysed(settings)
    assert [d.code for d in snap.diagnostics] == ["GPU105"]
    assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)


def test_a_kernel_linted_alone_is_checked_with_its_launches() -> None:
    """An edit in a `gpu.module` re-lints it alone; its kernels' launches are in other units, and
    what they fix (32 threads here, one past the buffer's 16 elements) still counts."""
    doc = Document("file:///k.mlir", OUT_OF_BOUNDS, 1)
    settings = EditorSettings()
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU417"]
    start = OUT_OF_BOUNDS.index("1.0 : f32")
    doc.replace(start, start + 3, "2.0", 2)
    snap = doc.analysed(settings)
    assert not snap.complete, "the quick path"
    assert [d.code for d in snap.diagnostics] == ["GPU417"]
    assert snap.diagnostics == lint_parsed(snap.parsed, settings)


def _container_edits(text: str, rng: random.Random, count: int):
    """Typing in a container module (`support.typing`) mixed with edits of what its units define
    and use: a launch pointed at another kernel, a host function renamed, one pasted indented."""
    typed = typing_edits(text, rng, count)
    for _ in range(count):
        kind = rng.choice(("typed", "kernel", "rename", "paste"))
        if kind == "kernel":
            launches = [m.start() + 1 for m in re.finditer(r"@k\d+_[01] ", text)]
            if not launches:
                continue
            pos = rng.choice(launches)
            old = text[pos : text.index(" ", pos)]
            new = old[:-1] + ("1" if old.endswith("0") else "0")  # the kernels of a pair take the same arguments
        elif kind == "rename":
            names = [m.start(1) for m in re.finditer(r"func\.func @(fn\d+)", text)]
            if not names:
                continue
            pos = rng.choice(names)
            old, new = text[pos : text.index("(", pos)], f"renamed{rng.randrange(10**6)}"
        elif kind == "paste":
            pos = text.find("\n  func.func @", rng.randrange(len(text))) + 1
            if pos == 0:
                continue
            old, new = "", "".join("  " + line for line in PASTED.splitlines(keepends=True)) + "\n"
        else:
            step = next(typed, None)
            if step is None:
                continue
            start, end, new = step
            yield start, end, new
            text = text[:start] + new + text[end:]
            typed = typing_edits(text, rng, count)
            continue
        yield pos, pos + len(old), new
        text = text[:pos] + new + text[pos + len(old) :]


@pytest.mark.parametrize("seed", [3, 11])
def test_edits_of_a_container_module_settle_to_the_full_lint(seed: int) -> None:
    """Whatever the quick path lints of a container module (GPU105 at its units' launches), the
    settle gives the full lint's result; the quick path is taken for most edits."""
    rng = random.Random(seed)
    text = generated("outlined", 400)
    doc = Document("file:///gen.mlir", text, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    quick = 0
    for version, (start, end, new) in enumerate(_container_edits(text, rng, 12), 2):
        doc.replace(start, end, new, version)
        snap = doc.analysed(settings)
        fresh = lint_parsed(parse_document(doc.text), settings)
        if not snap.complete:
            quick += 1
            assert _exact(snap.diagnostics) == _exact(fresh), (start, end, new)
        doc.settle(settings)
        assert snap.complete and snap.diagnostics == fresh, (start, end, new)
    # Seed 11 pastes a function twice into the written module from its 4th edit on: GPU121 there is a
    # check of that module once all its ops verified, so every later edit in it is linted whole (the
    # module is the whole file). Edits elsewhere keep a finding of two units (the tests below).
    assert quick >= 2, "the quick path"


def _exact(found: list) -> list:
    """The findings a quick lint gives exactly: the parser's, those of rules whose findings lie in
    one unit, and GPU105's (checked at each re-linted unit's launches); the whole-module rules'
    wait for the settle."""
    rules = load_rules()
    return [d for d in found if d.code not in rules or rules[d.code].scope is not Scope.MODULE or d.code == "GPU105"]


def _relinted(monkeypatch) -> list[str]:
    """The names of the units the quick path lints (recorded as it lints them)."""
    from gpu_lsp.ir.symbols import symbol_name
    from gpu_lsp.lsp.lint_cache import IncrementalLinter

    seen: list[str] = []
    lint_unit = IncrementalLinter._lint_unit

    def recording(chunk, unit, *args):
        seen.append(symbol_name(unit) or unit.name)
        return lint_unit(chunk, unit, *args)

    monkeypatch.setattr(IncrementalLinter, "_lint_unit", staticmethod(recording))
    return seen


def test_a_kernel_edit_relints_that_kernel_only(monkeypatch) -> None:
    """A `gpu.module`'s kernels are units of their own: a keystroke in one re-lints it alone (the
    whole `gpu.module`, half an outlined file, was re-linted), with the full lint's result; a
    finding of another kernel is kept and moves with it."""
    text = generated("outlined", 400)
    store = text.rindex("memref.store %p, %dst[%i]")  # a race in the last kernel that stores so
    text = text[:store] + "memref.store %p, %dst[%bid]" + text[store + len("memref.store %p, %dst[%i]") :]
    doc = Document("file:///k.mlir", text, 1)
    settings = EditorSettings()
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU416"]
    seen = _relinted(monkeypatch)
    for version, (where, new) in enumerate((("@", "%s = arith.addf"), ("", "@%s = arith.addf"), ("\n", "%s = arith.addf")), 2):
        at = doc.text.index(new if where == "" else new, len(doc.text) // 4)
        doc.replace(at, at + (1 if where == "" else 0), where, version)
        snap = doc.analysed(settings)
        assert not snap.complete, "the quick path"
        assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)
    race = [d for d in snap.diagnostics if d.code == "GPU416"]
    racy = doc.text.rindex("gpu.func @k", 0, doc.text.index("memref.store %p, %dst[%bid]"))
    assert race and racy < race[0].range.start < doc.text.index("memref.store %p, %dst[%bid]"), "its finding moved with it"
    assert len(seen) == 3 and len(set(seen)) == 1 and seen[0].startswith("k"), seen
    assert doc.text.index(f"gpu.func @{seen[0]}(") < racy, "the edited kernel is before the racy one"


def _typed(doc: Document, edits: list[tuple[str, str, str]], settings: EditorSettings) -> list[bool]:
    """Apply each (anchor, old, new) edit (`old` replaced at the first `anchor`, which starts with
    it) and check the result equals a fresh full lint; whether each took the quick path."""
    quick = []
    for version, (anchor, old, new) in enumerate(edits, 2):
        at = doc.text.index(anchor)
        doc.replace(at, at + len(old), new, version)
        snap = doc.analysed(settings)
        assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings), (anchor, new)
        quick.append(not snap.complete)
        doc.settle(settings)
    return quick


def _kernel(text: str, name: str) -> str:
    """The text of the `gpu.func @name` of a generated outlined file, its indentation to its `}`."""
    start = text.rindex("\n", 0, text.index(f"gpu.func @{name}(")) + 1
    return text[start : text.index("\n    }\n", start) + len("\n    }\n")]


def test_a_symbol_defined_twice_in_a_gpu_module_keeps_edits_elsewhere_quick() -> None:
    """A kernel defined twice (GPU121, on the second definition with a note at the first: a finding
    of two units) keeps the host functions' edits on the quick path with the full lint's result;
    an edit in that `gpu.module` is linted whole (its check of the module sees the change)."""
    text = generated("outlined", 400)
    twice = _kernel(text, "k1_1")
    text = text.replace(twice, twice + twice)
    doc = Document("file:///twice.mlir", text, 1)
    settings = EditorSettings()
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU121"]
    edits = [
        ("%c = arith.constant 32 : index\n    %cst", "%c = arith.constant 32", "%c = arith.constant 64"),
        ("    %t0 = gpu.wait async\n", "", "    %extra = arith.constant 7 : index\n"),
        ("@kernels::@k3_0", "@kernels::@k3_0", "@kernels::@k3_1"),
    ]
    assert _typed(doc, edits, settings) == [True, True, True]
    assert _typed(doc, [("%s = arith.addf %a, %b : f32\n      %p", "%s", "%s2 = arith.addf %a, %b : f32\n      %s")], settings) == [False]
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU121"]


def test_a_finding_of_two_units_moves_with_each() -> None:
    """A launch whose block size contradicts its kernel's `known_block_size` (GPU413 at the launch,
    a note at the kernel) is kept through edits that move the launch and the kernel apart, each of
    its ranges with its own unit; an edit of the launch's function finds it again."""
    text = generated("outlined", 400)
    header = "gpu.func @k1_0(%dst: memref<?xf32>, %src: memref<?xf32>, %cst: f32) kernel"
    text = text.replace(header, header + " attributes {known_block_size = array<i32: 128, 1, 1>}")
    doc = Document("file:///known.mlir", text, 1)
    settings = EditorSettings()
    found = doc.analysed(settings).diagnostics
    assert [(d.code, len(d.related)) for d in found] == [("GPU413", 1)]
    edits = [
        ("      %s = arith.addf", "", "      %unused = arith.constant 0 : index\n"),  # the first kernel: both move
        ("    // kernels of fn2\n", "", "    // the kernels of fn2, both\n"),  # after the kernel: the launch moves
        ("    %c = arith.constant 32 : index\n", "", "    %c32 = arith.constant 32 : index\n"),  # fn0, before the launch's function
        ("@kernels::@k1_1 blocks", "@kernels::@k1_1", "@kernels::@k1_0"),  # the launch's function
    ]
    assert _typed(doc, edits, settings) == [True, True, True, True]
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU413", "GPU413"]


def test_one_name_in_two_modules_is_no_redefinition() -> None:
    """A host function named as a kernel (two symbol tables) is no symbol defined twice: renaming
    another function keeps the quick path (a name defined twice anywhere meant full lints)."""
    text = generated("outlined", 400)
    text = text.replace("  // fn0: two gpu.launch_func calls\n", "  func.func private @k0_0()\n  // fn0: two gpu.launch_func calls\n")
    doc = Document("file:///names.mlir", text, 1)
    settings = EditorSettings()
    assert doc.analysed(settings).diagnostics == []
    assert _typed(doc, [("@fn4(", "@fn4", "@fn4_renamed")], settings) == [True]


def test_a_place_the_reader_records_moves_with_its_op() -> None:
    """An unnamed `async` (GPU100, where the reader found the keyword) is reported at the keyword
    after an edit before its op moved it, by the quick lint and by the settle; both were one edit
    behind (the reader's offsets in the text were kept as they were)."""
    text = "func.func @a() {\n  return\n}\nfunc.func @b() {\n  gpu.wait async\n  return\n}\n"
    doc = Document("file:///unnamed.mlir", text, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    for version in (2, 3):
        doc.replace(len("func.func @a() {\n"), len("func.func @a() {\n"), "  %c = arith.constant 1 : index\n", version)
        for snap in (doc.analysed(settings), doc.settle(settings) or doc.analysed(settings)):
            (found,) = [d for d in snap.diagnostics if d.code == "GPU100"]
            assert doc.text[found.range.start : found.range.end] == "async"
            assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)


def test_a_kernel_edit_in_a_module_with_an_error_of_its_own_is_linted_whole() -> None:
    """A `gpu.module` failing its own checks stops its verification there (its kernels are not
    verified): a kernel linted alone would be, so an edit of one takes a full lint."""
    text = generated("outlined", 200).replace("gpu.module @kernels {", "gpu.module @kernels [1] {")
    doc = Document("file:///k.mlir", text, 1)
    settings = EditorSettings()
    assert [d.code for d in doc.analysed(settings).diagnostics] == ["GPU141"]
    at = doc.text.index("%s = arith.addf")
    doc.replace(at, at, "%q = arith.addf %a, %b : f32\n      ", 2)
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == lint_parsed(parse_document(doc.text), settings)


def test_a_module_is_not_linted_again_for_its_ops_uses() -> None:
    """A function of a `gpu.module` renamed into another op: the kernel calling it is linted again
    (it uses a symbol whose definition changed), not the `gpu.module` (its interface is its own: its
    ops are units of their own), whose lint would report each of its ops' findings a second time."""
    text = (
        "gpu.module @m {\n  // @k calls @hello\n  func.func @hello(%arg0: f32) {\n    return\n  }\n  gpu.func @k(%a: f32) kernel {\n"
        "    func.call @hello(%a) : (f32) -> ()\n    gpu.return\n  }\n}\nfunc.func @host() {\n  return\n}\n"
    )
    doc = Document("file:///m.mlir", text, 1)
    settings = EditorSettings()
    assert doc.analysed(settings).diagnostics == []
    at = text.index("func.func @hello")
    doc.replace(at, at + len("func.func"), "arith.constant", 2)
    snap = doc.analysed(settings)
    fresh = lint_parsed(parse_document(doc.text), settings)
    assert fresh and _exact(snap.diagnostics) == _exact(fresh)


def test_quick_lints_of_mutated_corpus_modules_equal_full_lints() -> None:
    """Corpus files with a `gpu.module` (its ops units of their own), each mutated a few times over:
    what a quick lint gives exactly equals a fresh parse's full lint, and the settle equals it."""
    from support.corpus import all_corpus_files
    from support.mutate import mutate

    rng = random.Random(21)
    settings = EditorSettings()
    files = [path for path in all_corpus_files() if "gpu.module" in path.read_text() and len(path.read_text()) < 20_000]
    quick = 0
    for path in files:
        doc = Document("file:///m.mlir", path.read_text(), 1)
        doc.analysed(settings)
        for version in range(2, 5):
            mutant = mutate(doc.text, rng)
            if mutant is None:
                continue
            old = doc.text
            start = next((i for i, (a, b) in enumerate(zip(old, mutant[0])) if a != b), min(len(old), len(mutant[0])))
            tail = 0
            while tail < min(len(old), len(mutant[0])) - start and old[len(old) - 1 - tail] == mutant[0][len(mutant[0]) - 1 - tail]:
                tail += 1
            doc.replace(start, len(old) - tail, mutant[0][start : len(mutant[0]) - tail], version)
            snap = doc.analysed(settings)
            fresh = lint_parsed(parse_document(doc.text), settings)
            if not snap.complete:
                quick += 1
                assert _exact(snap.diagnostics) == _exact(fresh), (path.name, mutant[1])
            doc.settle(settings)
            assert doc.analysed(settings).diagnostics == fresh, (path.name, mutant[1])
    assert quick > 40, "the quick path"


def test_a_fix_names_its_token_as_the_function_sees_names() -> None:
    """A fix's new token takes the first name free in its function (another function's `%t0` does not
    clash): a quick lint of the function, which sees only it, names it as the full lint does (the
    full lint avoided every name of the file, so the two fixes differed)."""
    text = (
        "func.func @a() {\n  %t0 = gpu.wait async\n  gpu.wait [%t0]\n  return\n}\n"
        "func.func @b() {\n  %c = arith.constant 1 : index\n  gpu.wait async\n  return\n}\n"
    )
    doc = Document("file:///names.mlir", text, 1)
    settings = EditorSettings()
    (named,) = [d for d in doc.analysed(settings).diagnostics if d.code == "GPU100"]
    assert named.fix is not None and named.fix.edits[0].new_text == "%t0 = "
    at = doc.text.index("1 : index")
    doc.replace(at, at + 1, "2", 2)
    snap = doc.analysed(settings)
    assert not snap.complete, "the quick path"
    assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)
    (named,) = [d for d in snap.diagnostics if d.code == "GPU100"]
    assert named.fix is not None and named.fix.edits[0].new_text == "%t0 = "


def test_a_function_whose_head_is_deleted_is_linted_whole() -> None:
    """Deleting a function's first line leaves its body's ops at the top level, units of their own that
    share values: linted one at a time, the launch saw its operands without their definitions (GPU117,
    "does not dominate", which the file's lint does not report); found by a quick-vs-full sweep."""
    text = (
        "func.func @a() {\n  return\n}\nfunc.func @b() {\n  %c1 = arith.constant 1 : index\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {\n"
        "    %x = arith.addi %c1, %c1 : index\n    gpu.terminator\n  }\n  return\n}\n"
    )
    doc = Document("file:///head.mlir", text, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    at = text.index("func.func @b() {\n")
    doc.replace(at, at + len("func.func @b() {\n"), "", 2)
    snap = doc.analysed(settings)
    assert "GPU117" not in {d.code for d in snap.diagnostics}
    assert snap.diagnostics == lint_parsed(parse_document(doc.text), settings)
