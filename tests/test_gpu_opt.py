"""gpu-opt: flags, exit codes, diagnostic format, split printing and -verify-diagnostics."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_lsp.cli import gpu_opt
from gpu_lsp.cli.verify_diagnostics import Reported, check, compile_expectation, parse_expectations
from gpu_lsp.passes.catalog import PASSES
from gpu_lsp.passes.registration import gpu_pass

VALID = """\
func.func @f(%n: index) {
  %t = gpu.wait async
  gpu.wait [%t]
  return
}
"""

PRINTED = """\
module {
  func.func @f(%arg0: index) {
    %0 = gpu.wait async
    gpu.wait [%0]
    return
  }
}
"""

REDEFINED = """\
func.func @f(%a: i32) {
  %x = arith.addi %a, %a : i32
  %x = arith.addi %a, %a : i32
  return
}
"""

UNDEFINED = """\
func.func @g() {
  gpu.wait [%missing]
  return
}
"""


def run(tmp_path: Path, text: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run gpu-opt's main on `text` (written to tmp_path/in.mlir); (status, stdout, stderr)."""
    path = tmp_path / "in.mlir"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        argv = [a.replace("{in}", str(path)) for a in args]
        status = gpu_opt.main(argv if "-" in argv or any(a.endswith("in.mlir") for a in argv) else argv + [str(path)])
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return status, out.getvalue(), err.getvalue()


# --- printing and flags -----------------------------------------------------------------------


def test_prints_the_module_like_mlir_opt(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, VALID)
    assert (status, out, err) == (0, PRINTED, "")


@pytest.mark.parametrize("flag", ["-split-input-file", "--split-input-file"])
def test_split_input_file_joins_chunks_with_the_marker(tmp_path: Path, flag: str) -> None:
    status, out, err = run(tmp_path, VALID + "\n// -----\n" + VALID, flag)
    assert status == 0 and err == ""
    assert out == PRINTED + "// -----\n" + PRINTED


def test_without_split_the_marker_is_a_comment(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path, VALID + "\n// -----\nfunc.func @h() {\n  return\n}\n")
    assert status == 0
    assert out.count("module {") == 1 and "@h()" in out and "// -----" not in out


def test_generic_form(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path, VALID, "--mlir-print-op-generic")
    assert status == 0
    assert out.startswith('"builtin.module"() ({\n  "func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({\n')
    assert '%0 = "gpu.wait"() : () -> !gpu.async.token' in out


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "out.mlir"
    status, out, _ = run(tmp_path, VALID, "-o", str(target))
    assert status == 0 and out == ""
    assert target.read_text() == PRINTED
    status, _, _ = run(tmp_path, VALID, f"--o={target}")
    assert status == 0 and target.read_text() == PRINTED


def test_standard_input(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path, "", "-", stdin=VALID)
    assert (status, out) == (0, PRINTED)


def test_standard_input_names_diagnostics_stdin(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, "", "-", stdin=UNDEFINED)
    assert status == 1 and out == ""
    assert err.startswith("<stdin>:2:13: error: use of undeclared SSA value name\n")


@pytest.mark.parametrize("args", [["-bogus"], ["--print-everything"], ["-o"], ["a.mlir", "b.mlir"], ["-verify-diagnostics=1"]])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = gpu_opt.main(args)
    finally:
        sys.stdout, sys.stderr = old
    assert status == 2 and out.getvalue() == ""
    # One line, naming where the usage is (the error contract of every tool).
    assert err.getvalue().startswith("gpu-opt: error: ") and err.getvalue().endswith("(see gpu-opt --help)\n")
    assert err.getvalue().count("\n") == 1


def test_allow_unregistered_dialect_is_accepted(tmp_path: Path) -> None:
    text = 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n'
    status, out, err = run(tmp_path, text, "-allow-unregistered-dialect")
    assert status == 0 and err == ""
    assert '"foo.bar"() : () -> ()' in out


def test_passes_run_in_command_line_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, dict]] = []
    first = gpu_pass("test-first")(lambda module, o: seen.append(("first", o)))
    second = gpu_pass("test-second", options=("opt", "flag"))(lambda module, o: seen.append(("second", o)))
    monkeypatch.setitem(PASSES.items, first.name, first)
    monkeypatch.setitem(PASSES.items, second.name, second)
    status, out, _ = run(tmp_path, VALID, "--test-second=opt=1 flag", "-test-first")
    assert status == 0 and out == PRINTED
    assert seen == [("second", {"opt": "1", "flag": "true"}), ("first", {})]


# --- diagnostics ------------------------------------------------------------------------------


def test_error_format_exit_status_and_no_output(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, REDEFINED)
    path = tmp_path / "in.mlir"
    assert status == 1 and out == ""
    assert err == (
        f"{path}:3:3: error: redefinition of SSA value '%x'\n"
        "  %x = arith.addi %a, %a : i32\n"
        "  ^\n"
        f"{path}:2:3: note: previously defined here\n"
        "  %x = arith.addi %a, %a : i32\n"
        "  ^\n"
    )


def test_split_prints_the_chunks_that_verify(tmp_path: Path) -> None:
    text = VALID + "// -----\n" + UNDEFINED + "// -----\n" + VALID
    status, out, err = run(tmp_path, text, "-split-input-file")
    assert status == 1
    assert out == PRINTED + "// -----\n" + "// -----\n" + PRINTED
    assert f"{tmp_path / 'in.mlir'}:8:13: error: use of undeclared SSA value name" in err


def test_linter_findings_are_not_mlir_diagnostics(tmp_path: Path) -> None:
    # An op gpu-lsp does not know yields a hint (GPU006): gpu-opt stays silent (its dialect is unregistered:
    # mlir-opt needs -allow-unregistered-dialect).
    text = "func.func @f() {\n  foo.bar\n  return\n}\n"
    status, out, err = run(tmp_path, text, "-allow-unregistered-dialect")
    assert status == 0 and err == ""
    assert "    foo.bar\n" in out


def test_only_gpu0xx_and_gpu1xx_errors_and_warnings_count() -> None:
    from gpu_lsp.diagnostics.model import Diagnostic, Severity
    from gpu_lsp.text import TextRange

    def d(code: str, severity: Severity) -> Diagnostic:
        return Diagnostic(code, "m", TextRange(0, 1), severity)

    assert gpu_opt.is_mlir_diagnostic(d("GPU003", Severity.ERROR))
    assert gpu_opt.is_mlir_diagnostic(d("GPU104", Severity.WARNING))
    assert not gpu_opt.is_mlir_diagnostic(d("GPU006", Severity.HINT))
    assert not gpu_opt.is_mlir_diagnostic(d("GPU101", Severity.INFO))
    assert not gpu_opt.is_mlir_diagnostic(d("GPU203", Severity.ERROR))
    assert not gpu_opt.is_mlir_diagnostic(d("GPU301", Severity.WARNING))


# --- -verify-diagnostics ----------------------------------------------------------------------

MATCHED = """\
func.func @f(%a: i32) {
  %x = arith.addi %a, %a : i32
  // expected-note @above {{previously defined here}}
  // expected-error @below {{redefinition of SSA value '%x'}}
  %x = arith.addi %a, %a : i32
  return
}

// -----

func.func @g() {
  // expected-error@+1 {{use of undeclared SSA value name}}
  gpu.wait [%missing]
  return
}

// -----

func.func @h() {
  gpu.wait [%missing] // expected-error-re {{use of {{[a-z]+}} SSA value {{[[:alpha:]]+}}}}
  return
}

// -----

func.func @ok() {
  return
}
"""


def test_verify_diagnostics_all_matched(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, MATCHED, "-split-input-file", "-verify-diagnostics")
    assert (status, err) == (0, "")
    assert out == "// -----\n// -----\n// -----\nmodule {\n  func.func @ok() {\n    return\n  }\n}\n"


def test_verify_diagnostics_reports_missing_and_unexpected(tmp_path: Path) -> None:
    text = """\
func.func @g() {
  // expected-error@+1 {{some other message}}
  gpu.wait [%missing]
  return
}
"""
    status, out, err = run(tmp_path, text, "-verify-diagnostics")
    path = tmp_path / "in.mlir"
    assert status == 1 and out == ""
    assert err.splitlines() == [
        f"{path}:3:13: error: unexpected error: use of undeclared SSA value name",
        "  gpu.wait [%missing]",
        "            ^",
        f'{path}:2:6: error: expected error "some other message" was not produced',
        "  // expected-error@+1 {{some other message}}",
        "     ^~~~~~~~~~~~~~~~~~",
    ]


def test_verify_diagnostics_wrong_line_is_a_mismatch(tmp_path: Path) -> None:
    text = "func.func @g() {\n  // expected-error {{use of undeclared SSA value name}}\n  gpu.wait [%missing]\n  return\n}\n"
    status, _, err = run(tmp_path, text, "--verify-diagnostics")
    assert status == 1
    assert "unexpected error: use of undeclared SSA value name" in err
    assert 'expected error "use of undeclared SSA value name" was not produced' in err


def test_verify_diagnostics_expectation_without_diagnostic(tmp_path: Path) -> None:
    text = "// expected-warning @+1 {{never}}\nfunc.func @g() {\n  return\n}\n"
    status, out, err = run(tmp_path, text, "-verify-diagnostics")
    assert status == 1
    assert 'expected warning "never" was not produced' in err
    assert out.startswith("module {")  # the chunk itself verified, so it is printed


def test_verify_diagnostics_bad_regex(tmp_path: Path) -> None:
    text = "func.func @g() {\n  gpu.wait [%missing] // expected-error-re {{use of {{[a-z}}\n  return\n}\n"
    status, _, err = run(tmp_path, text, "-verify-diagnostics")
    assert status == 1
    assert "found start of regex with no end '}}'" in err or "invalid regex" in err


def test_expectation_designators() -> None:
    lines = [
        "op1",  # 10
        "// expected-error @above {{a}}",  # 11
        "// expected-error @below {{b}}",  # 12
        "// expected-note @below {{c}}",  # 13
        "op2",  # 14
        "op3 // expected-remark {{d}}",  # 15
        "// expected-warning@-5 {{e}}",  # 16
        "// expected-error @+2 {{f}}",  # 17
        "// expected-error @unknown {{g}}",  # 18
        "// expected-error @below {{dangling}}",  # 19
    ]
    found, problems = parse_expectations(lines, 10)
    assert not problems
    assert [(e.kind, e.text, e.line) for e in found] == [
        ("error", "a", 10),
        ("error", "b", 14),
        ("note", "c", 14),
        ("remark", "d", 15),
        ("warning", "e", 11),
        ("error", "f", 19),
        ("error", "g", None),
        ("error", "dangling", 19),
    ]


def test_near_miss_and_notes_and_unknown_locations() -> None:
    found, _ = parse_expectations(
        ["bad op // expected-error {{boom}}", "// expected-error @unknown {{nowhere}}", "other"], 1
    )
    problems = check(found, [Reported("warning", "boom", 1, 1, [Reported("note", "see here", 3, 1)])])
    messages = [p.message for p in problems]
    assert messages == [
        "'warning' diagnostic emitted when expecting a 'error'",
        "unexpected note: see here",
        'expected error "boom" was not produced',
        'expected error "nowhere" was not produced',
    ]
    found, _ = parse_expectations(["// expected-error @unknown {{nowhere}}"], 1)
    assert check(found, [Reported("error", "from nowhere", 0, 0)]) == []


def test_regex_expectations() -> None:
    assert compile_expectation("op {{[0-9]+}} is bad").search("the op 42 is bad")
    assert not compile_expectation("a.b").search("axb")  # literal text is escaped
    assert compile_expectation("{{[[:digit:]]+}} args").search("3 args")
    with pytest.raises(ValueError):
        compile_expectation("x {{oops")


def test_console_script_runs(tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(VALID)
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_opt", "--split-input-file", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == PRINTED


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-o"], "option -o needs a file name"),
        (["--mlir-version"], "option --mlir-version needs a version"),
        (["--pass-pipeline"], "option --pass-pipeline needs a pipeline"),
    ],
)
def test_an_option_without_its_value_is_a_usage_error(argv: list[str], message: str) -> None:
    with pytest.raises(gpu_opt.UsageError, match=message):
        gpu_opt.parse_args(argv)


def test_an_option_value_is_read_after_its_equals_sign_or_as_the_next_argument() -> None:
    joined = gpu_opt.parse_args(["--mlir-version=22", "-o=out.mlir", "in.mlir"])
    separate = gpu_opt.parse_args(["--mlir-version", "22", "-o", "out.mlir", "in.mlir"])
    for opts in (joined, separate):
        assert (opts.mlir_version, opts.output, opts.input) == (22, "out.mlir", "in.mlir")
