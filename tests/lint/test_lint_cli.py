"""The check command end to end: every flag, every exit status, bad input, fixes, standard input."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from lintkit import BROKEN, VALID, assert_snapshot

G = ("--output-format", "grouped")
FIXABLE = VALID.replace("gpu.wait async", "gpu.wait async  ").replace("return", "return\t")
TODO = "// TODO tidy\n" + VALID


# --- exit statuses ----------------------------------------------------------


def test_exit_0_when_clean(gpu_lint, write) -> None:
    write("a.mlir", VALID)
    result = gpu_lint(*G)
    assert (result.code, result.out, result.err) == (0, "All checks passed!\n", "")


def test_exit_1_on_findings(gpu_lint, write) -> None:
    write("a.mlir", VALID)
    write("b.mlir", BROKEN)
    result = gpu_lint(*G)
    assert result.code == 1 and result.err == ""
    assert_snapshot("cli-findings-grouped.txt", result.out)


def test_exit_2_on_usage_errors(gpu_lint, write) -> None:
    write("a.mlir", VALID)
    assert gpu_lint("--no-such-flag").code == 2
    assert gpu_lint("--output-format", "xml").code == 2
    assert gpu_lint("--fail-on", "fatal").code == 2
    result = gpu_lint("--jobs", "0")
    assert result.code == 2 and result.err == "gpu-lint: error: --jobs must be at least 1\n"
    result = gpu_lint("--select", "E501")
    assert result.code == 2 and "invalid rule selector 'E501'" in result.err


def test_exit_2_on_configuration_errors(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    write("pyproject.toml", "[tool.gpu-lint]\nselect = 1\n")
    result = gpu_lint(*G)
    assert result.code == 2 and result.out == ""
    assert result.err == "gpu-lint: error: <ROOT>/pyproject.toml [tool.gpu-lint]: 'select' must be a list of strings\n"


def test_exit_zero(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    result = gpu_lint("--exit-zero", *G)
    assert result.code == 0 and "GPU003" in result.out


def test_fail_on(gpu_lint, write, fake_rules) -> None:
    write("todo.mlir", TODO)  # GPU391 is an info
    assert gpu_lint(*G).code == 0
    assert gpu_lint("--fail-on", "info", *G).code == 1
    assert gpu_lint("--fail-on", "hint", *G).code == 1
    write("b.mlir", BROKEN)  # an error
    assert gpu_lint("--fail-on", "error", *G).code == 1
    assert gpu_lint("--fail-on", "error", "todo.mlir", *G).code == 0
    write("gpu-lint.toml", 'fail-on = "info"\n')
    assert gpu_lint("todo.mlir", *G).code == 1


# --- selection --------------------------------------------------------------


def test_select_ignore_extend_select(gpu_lint, write, fake_rules) -> None:
    write("a.mlir", FIXABLE + "// TODO x\n")
    write("b.mlir", BROKEN)

    def codes(*args: str) -> list[str]:
        result = gpu_lint("--output-format", "github", *args)
        return sorted({line.split("title=")[1].split("::")[0] for line in result.out.splitlines()})

    assert codes() == ["GPU003", "GPU390", "GPU391"]
    assert codes("--select", "GPU39") == ["GPU390", "GPU391"]
    assert codes("--select", "GPU39", "--ignore", "GPU391") == ["GPU390"]
    assert codes("--select", "GPU0", "--extend-select", "GPU391") == ["GPU003", "GPU391"]
    assert codes("--ignore", "GPU3,GPU0") == []
    assert codes("--per-file-ignores", "a.mlir:GPU390,GPU391") == ["GPU003"]
    write("pyproject.toml", '[tool.gpu-lint]\nignore = ["GPU003"]\n[tool.gpu-lint.severity]\nGPU390 = "error"\n')
    assert codes() == ["GPU390", "GPU391"]
    assert "::error file=a.mlir" in gpu_lint("--output-format", "github").out
    assert codes("--isolated") == ["GPU003", "GPU390", "GPU391"]
    assert codes("--config", 'ignore = ["GPU391"]') == ["GPU003", "GPU390"]  # an override replaces the key


def test_config_file_option(gpu_lint, write, tmp_path: Path) -> None:
    write("b.mlir", BROKEN)
    write("conf/strict.toml", 'ignore = ["GPU0"]\n')
    result = gpu_lint("--config", "conf/strict.toml", *G)
    assert result.code == 0
    result = gpu_lint("--config", "conf/missing.toml", *G)
    assert result.code == 2 and result.err == "gpu-lint: error: --config: no such file 'conf/missing.toml'\n"


# --- inputs -----------------------------------------------------------------


def test_bad_input_is_one_line_each_and_the_rest_is_checked(gpu_lint, write, tmp_path: Path) -> None:
    write("ok.mlir", VALID)
    write("bad/broken.mlir", BROKEN)
    write("bad/binary.mlir", b"\x7fELF\x00\x01")
    write("bad/latin1.mlir", "// caf\u00e9\n".encode("latin-1"))
    with open(tmp_path / "bad" / "huge.mlir", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    (tmp_path / "empty").mkdir()
    result = gpu_lint(".", "empty", "missing.mlir", *G)
    assert result.code == 2  # a file that cannot be read is an I/O error, whatever else was found
    assert result.err.splitlines() == [
        "warning: empty: no .mlir files found",
        "error: missing.mlir: no such file or folder",
        "error: bad/binary.mlir: binary file (contains NUL bytes), skipped",
        "error: bad/huge.mlir: file too large (52.4 MB; the limit is 10 MB), skipped",
        "error: bad/latin1.mlir: invalid UTF-8 at byte 6, skipped",
    ]
    assert "bad/broken.mlir:\n  2:13 GPU003" in result.out
    assert "Traceback" not in result.out + result.err


def test_an_empty_folder_alone_is_a_warning(gpu_lint, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = gpu_lint("empty", *G)
    assert result.code == 0 and result.err == "warning: empty: no .mlir files found\n"


def test_stdin_with_a_filename(gpu_lint, write) -> None:
    result = gpu_lint("-", "--stdin-filename", "kernels/k.mlir", "--output-format", "github", stdin=BROKEN.encode())
    assert result.code == 1 and result.out.startswith("::error file=kernels/k.mlir,line=2,col=13,")
    result = gpu_lint("-", "--output-format", "github", stdin=VALID.encode())
    assert result.code == 0 and result.out == ""
    write("pyproject.toml", '[tool.gpu-lint.per-file-ignores]\n"kernels/*" = ["GPU0"]\n')
    assert gpu_lint("--stdin-filename", "kernels/k.mlir", *G, stdin=BROKEN.encode()).code == 0
    result = gpu_lint("-", *G, stdin=b"\xff\xfe")
    assert result.code == 2 and result.err == "error: -: invalid UTF-8 at byte 0, skipped\n"


def test_exclude_options(gpu_lint, write) -> None:
    write("src/a.mlir", BROKEN)
    write("gen/b.mlir", BROKEN)
    write(".gitignore", "ignored/\n")
    write("ignored/c.mlir", BROKEN)

    def files(*args: str) -> list[str]:
        out = gpu_lint("--output-format", "github", *args).out
        return sorted({line.split("file=")[1].split(",")[0] for line in out.splitlines()})

    assert files() == ["gen/b.mlir", "src/a.mlir"]
    assert files("--extend-exclude", "gen") == ["src/a.mlir"]
    assert files("--exclude", "src") == ["gen/b.mlir"]  # replaces the defaults; .gitignore still applies
    assert files("--no-respect-gitignore") == ["gen/b.mlir", "ignored/c.mlir", "src/a.mlir"]
    assert files("gen/b.mlir", "--extend-exclude", "gen") == ["gen/b.mlir"]
    assert files("gen/b.mlir", "--extend-exclude", "gen", "--force-exclude") == []
    assert files("ignored/c.mlir", "--force-exclude") == []


# --- output -----------------------------------------------------------------


def test_output_file(gpu_lint, write, tmp_path: Path) -> None:
    write("b.mlir", BROKEN)
    result = gpu_lint("--output-format", "sarif", "-o", "out/report.sarif")
    assert result.code == 2 and "cannot write out/report.sarif" in result.err
    result = gpu_lint("--output-format", "sarif", "--output-file", "report.sarif")
    assert result.code == 1 and result.out == ""
    document = json.loads((tmp_path / "report.sarif").read_text())
    assert [r["ruleId"] for r in document["runs"][0]["results"]] == ["GPU003"]


def test_each_format_through_the_cli(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    write("a.mlir", VALID)
    for fmt in ("text", "concise", "json", "github", "junit", "grouped"):
        result = gpu_lint("--output-format", fmt)
        assert result.code == 1
        assert_snapshot(f"cli-format-{fmt}.txt", result.out)
    result = gpu_lint("--output-format", "sarif")
    assert result.code == 1 and json.loads(result.out)["runs"][0]["results"][0]["ruleId"] == "GPU003"
    assert gpu_lint().out == gpu_lint("--output-format", "text").out
    write("gpu-lint.toml", 'output-format = "github"\n')
    assert gpu_lint().out.startswith("::error file=b.mlir")


def test_statistics_as_json(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    result = gpu_lint("--statistics", "--output-format", "json")
    assert result.code == 1
    assert json.loads(result.out) == [{"code": "GPU003", "name": "undefined-value", "count": 1, "fixable": 0}]


def test_check_is_the_default_command(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    assert gpu_lint("check", "b.mlir", *G).out == gpu_lint("b.mlir", *G).out


def test_statistics(gpu_lint, write, fake_rules) -> None:
    write("a.mlir", FIXABLE + TODO.replace("@ok", "@ok2"))  # one @ok per module (GPU121)
    write("b.mlir", BROKEN)
    result = gpu_lint("--statistics", *G)
    assert result.code == 1
    assert (
        result.out
        == "2\tGPU390\t[*] trailing-whitespace\n1\tGPU003\t    undefined-value\n1\tGPU391\t    todo-comment\n"
    )


def test_jobs_give_the_same_output(gpu_lint, write) -> None:
    for i in range(40):
        write(f"d{i % 3}/f{i:02}.mlir", BROKEN if i % 4 == 0 else VALID)
    serial = gpu_lint("--jobs", "1", "--output-format", "github")
    pooled = gpu_lint("--jobs", "2", "--output-format", "github")
    assert serial.code == pooled.code == 1
    assert serial.out == pooled.out and serial.out.count("\n") == 10


# --- fixes ------------------------------------------------------------------


def test_fix_writes_safe_fixes_and_reports_what_remains(gpu_lint, write, fake_rules, tmp_path: Path) -> None:
    a = write("a.mlir", FIXABLE + "// TODO x\n")
    result = gpu_lint("--fix", *G)
    assert a.read_text() == VALID + "// TODO x\n"
    assert result.code == 0  # the TODO is an info
    assert result.out.endswith("Found 3 diagnostics (2 fixed, 1 remaining: 1 info).\n")
    again = gpu_lint("--fix", *G)
    assert a.read_text() == VALID + "// TODO x\n" and "0 fixed" not in again.out
    assert again.out.endswith("Found 1 diagnostic: 1 info.\n")


def test_unsafe_fixes(gpu_lint, write, fake_rules) -> None:
    a = write("a.mlir", TODO)
    assert gpu_lint("--fix", *G).code == 0 and a.read_text() == TODO
    hint = gpu_lint(*G).out
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option." in hint
    gpu_lint("--fix", "--unsafe-fixes", *G)
    assert a.read_text() == VALID
    write("b.mlir", TODO)
    write("gpu-lint.toml", "fix = true\nunsafe-fixes = true\n")
    gpu_lint("b.mlir", *G)
    assert (a.parent / "b.mlir").read_text() == VALID
    write("c.mlir", TODO)
    gpu_lint("c.mlir", "--no-fix", *G)
    assert (a.parent / "c.mlir").read_text() == TODO


def test_diff_prints_and_writes_nothing(gpu_lint, write, fake_rules) -> None:
    a = write("a.mlir", FIXABLE)
    write("b.mlir", VALID)
    result = gpu_lint("--diff", *G)
    assert result.code == 1 and a.read_text() == FIXABLE
    assert result.err == "Would fix 2 warnings.\n"
    assert_snapshot("cli-diff.txt", result.out)
    clean = gpu_lint("--diff", "b.mlir", *G)
    assert (clean.code, clean.out, clean.err) == (0, "", "No errors would be fixed.\n")


def test_show_fixes(gpu_lint, write, fake_rules) -> None:
    write("a.mlir", FIXABLE)
    write("b.mlir", "// TODO\n" + FIXABLE)
    before = gpu_lint("--show-fixes", *G)
    assert before.out.startswith(
        "Would fix 4 warnings:\n- a.mlir:\n    2 × GPU390 (trailing-whitespace)\n- b.mlir:\n    2 × GPU390 (trailing-whitespace)\n"
    )
    after = gpu_lint("--fix", "--show-fixes", *G)
    assert after.out.startswith("Fixed 4 warnings:\n- a.mlir:\n    2 × GPU390 (trailing-whitespace)\n- b.mlir:\n")
    machine = gpu_lint("--show-fixes", "--output-format", "sarif")
    assert machine.err == "No fixes available.\n" and json.loads(machine.out)


def test_fix_counts_say_the_severities_fixed(gpu_lint, write, fake_rules) -> None:
    """Two warnings and an info fixed are not "3 errors" (issue 26)."""
    write("a.mlir", "// TODO\n" + FIXABLE)
    before = gpu_lint("--show-fixes", "--unsafe-fixes", *G)
    assert before.out.startswith("Would fix 3 diagnostics (2 warnings, 1 info):\n")
    diff = gpu_lint("--diff", "--unsafe-fixes", *G)
    assert diff.err == "Would fix 3 diagnostics (2 warnings, 1 info).\n"
    after = gpu_lint("--fix", "--unsafe-fixes", "--show-fixes", *G)
    assert after.out.startswith("Fixed 3 diagnostics (2 warnings, 1 info):\n")


def test_a_fix_never_breaks_the_parse(gpu_lint, write, fake_rules) -> None:
    a = write("a.mlir", "// BREAK\n" + FIXABLE)
    result = gpu_lint("--fix", *G)
    assert a.read_text() == "// BREAK\n" + VALID
    assert "GPU392" in result.out and result.code == 1


def test_fix_on_stdin_prints_the_fixed_text(gpu_lint, fake_rules) -> None:
    result = gpu_lint("-", "--fix", *G, stdin=FIXABLE.encode())
    assert result.out == VALID and result.err.endswith("Found 2 diagnostics (2 fixed, 0 remaining).\n")
    result = gpu_lint("-", "--diff", stdin=FIXABLE.encode())
    assert result.out.startswith("--- -\n+++ -\n") and result.code == 1


def test_fix_keeps_a_byte_order_mark_and_crlf(gpu_lint, write, fake_rules, tmp_path: Path) -> None:
    path = tmp_path / "w.mlir"
    path.write_bytes(b"\xef\xbb\xbf" + FIXABLE.replace("\n", "\r\n").encode())
    gpu_lint("--fix", *G)
    assert path.read_bytes() == b"\xef\xbb\xbf" + VALID.replace("\n", "\r\n").encode()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fix_with_the_pool(gpu_lint, write, fake_rules, tmp_path: Path, jobs: str) -> None:
    for i in range(12):
        write(f"f{i:02}.mlir", FIXABLE)
    result = gpu_lint("--fix", "--jobs", jobs, *G)
    assert result.code == 0 and result.out.endswith("Found 24 diagnostics (24 fixed, 0 remaining).\n")
    assert all(p.read_text() == VALID for p in tmp_path.glob("*.mlir"))


@pytest.mark.real_registry
def test_selectors_are_checked_against_the_real_registry(gpu_lint, write) -> None:
    write("b.mlir", BROKEN)
    assert gpu_lint("--select", "GPU0,GPU1,GPU2", *G).code == 1
    result = gpu_lint("--select", "GPU8")
    assert (
        result.code == 2
        and result.err == "gpu-lint: error: --select: unknown rule selector 'GPU8' (no rule code starts with it)\n"
    )


@pytest.mark.real_registry
def test_sarif_of_the_examples_validates_with_every_registered_rule(gpu_lint) -> None:
    import jsonschema

    from gpu_lsp.diagnostics.registry import load_rules

    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text())
    examples = Path(__file__).resolve().parents[2] / "examples"
    result = gpu_lint(str(examples), "--isolated", "--output-format", "sarif")
    document = json.loads(result.out)
    jsonschema.Draft4Validator(schema).validate(document)
    run = document["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == sorted(load_rules())
    assert not any("helpUri" in r for r in run["tool"]["driver"]["rules"])
    assert all(r["help"]["markdown"].startswith("## What it does") for r in run["tool"]["driver"]["rules"])
    assert any("fixes" in r for r in run["results"])


@pytest.mark.real_registry
def test_docs_url_links_every_rule_to_its_shipped_page(gpu_lint) -> None:
    import jsonschema

    from gpu_lsp.diagnostics.registry import load_rules

    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text())
    repo = Path(__file__).resolve().parents[2]
    base = (repo / "docs" / "rules").as_uri() + "/"
    example = str(repo / "examples" / "mistakes.mlir")
    config = f'docs-url = "{base}"'
    sarif = json.loads(gpu_lint(example, "--isolated", "--config", config, "--output-format", "sarif").out)
    jsonschema.Draft4Validator(schema).validate(sarif)
    links = {r["id"]: r["helpUri"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert sorted(links) == sorted(load_rules())
    assert all(link == f"{base}{code}.md" and Path(urlparse(link).path).is_file() for code, link in links.items())
    items = json.loads(gpu_lint(example, "--isolated", "--config", config, "--output-format", "json").out)
    assert items and all(item["url"] == links[item["code"]] for item in items)


def test_a_docs_url_that_is_not_a_url_is_a_configuration_error(gpu_lint, write) -> None:
    write("a.mlir", "")
    result = gpu_lint("a.mlir", "--isolated", "--config", 'docs-url = "docs/rules"')
    assert result.code == 2
    assert "'docs-url' must be an http(s) or file URL" in result.err


def test_an_internal_error_is_one_line_and_the_other_files_are_checked(gpu_lint, write, monkeypatch) -> None:
    from gpu_lsp.lint import check

    real = check.analyze

    def flaky(text: str, **version):
        if "@boom" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real(text, **version)

    monkeypatch.setattr(check, "analyze", flaky)
    write("a.mlir", "func.func @boom() {\n  return\n}\n")
    write("b.mlir", BROKEN)
    result = gpu_lint("--output-format", "concise")
    assert result.code == 2 and "b.mlir:2:13: GPU003" in result.out
    assert result.err == "error: a.mlir: internal error while checking: RecursionError: maximum recursion depth exceeded\n"
