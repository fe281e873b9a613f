"""Settings: where they are found, every key, every configuration error (exit 2, naming the key)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lintkit import BROKEN, assert_snapshot

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lint.config import ConfigError, Settings, apply_cli, find_config, load_settings


def test_defaults_without_any_file(tmp_path: Path) -> None:
    settings = load_settings(tmp_path)
    assert settings.config_file is None and settings.root == tmp_path.resolve()
    assert settings.select == ("ALL",) and settings.fail_on is Severity.WARNING and not settings.fix


def test_nearest_pyproject_with_a_table_wins(tmp_path: Path, write) -> None:
    write("pyproject.toml", '[tool.gpu-lint]\nignore = ["GPU3"]\n')
    write("sub/pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.gpu-lint]: skipped
    write("sub/deeper/pyproject.toml", '[tool.gpu-lint]\nignore = ["GPU2"]\n')
    assert load_settings(tmp_path / "sub").ignore == ("GPU3",)
    deeper = load_settings(tmp_path / "sub" / "deeper")
    assert deeper.ignore == ("GPU2",) and deeper.root == (tmp_path / "sub" / "deeper").resolve()


def test_gpu_lint_toml_has_top_level_keys_and_beats_pyproject(tmp_path: Path, write) -> None:
    write("pyproject.toml", '[tool.gpu-lint]\nignore = ["GPU3"]\n')
    write("gpu-lint.toml", 'ignore = ["GPU2"]\n')
    assert find_config(tmp_path) == (tmp_path / "gpu-lint.toml").resolve()
    assert load_settings(tmp_path).ignore == ("GPU2",)
    write(".gpu-lint.toml", 'ignore = ["GPU1"]\n')
    assert load_settings(tmp_path).ignore == ("GPU1",)


def test_every_key(tmp_path: Path, write) -> None:
    write(
        "pyproject.toml",
        """
[tool.gpu-lint]
select = ["GPU0", "GPU2"]
extend-select = ["GPU301"]
ignore = ["GPU201"]
exclude = ["generated"]
extend-exclude = ["third_party/*"]
respect-gitignore = false
fix = true
unsafe-fixes = true
output-format = "sarif"
fail-on = "error"

[tool.gpu-lint.per-file-ignores]
"tests/*.mlir" = ["GPU3"]

[tool.gpu-lint.severity]
GPU2 = "error"
GPU203 = "hint"
""",
    )
    s = load_settings(tmp_path)
    assert s.select == ("GPU0", "GPU2") and s.extend_select == ("GPU301",) and s.ignore == ("GPU201",)
    assert s.exclude == ("generated",) and s.extend_exclude == ("third_party/*",)
    assert not s.respect_gitignore and s.fix and s.unsafe_fixes
    assert s.output_format == "sarif" and s.fail_on is Severity.ERROR
    assert s.per_file_ignores == (("tests/*.mlir", ("GPU3",)),)
    assert s.severity_of("GPU202", Severity.WARNING) is Severity.ERROR
    assert s.severity_of("GPU203", Severity.WARNING) is Severity.HINT
    assert s.severity_of("GPU101", Severity.WARNING) is Severity.WARNING
    assert s.is_enabled("GPU001") and s.is_enabled("GPU202") and s.is_enabled("GPU301")
    assert not s.is_enabled("GPU201") and not s.is_enabled("GPU101") and not s.is_enabled("GPU302")
    assert s.is_enabled("GPU001", str(tmp_path / "tests" / "a.mlir"))
    assert not s.is_enabled("GPU301", str(tmp_path / "tests" / "a.mlir"))
    assert s.is_enabled("GPU301", str(tmp_path / "src" / "a.mlir"))


def test_the_more_specific_selector_wins_and_ignore_wins_ties() -> None:
    s = Settings(select=("GPU2",), ignore=("GPU20",), extend_select=("GPU201",))
    assert s.is_enabled("GPU201") and not s.is_enabled("GPU202") and s.is_enabled("GPU210")
    assert not Settings(select=("GPU2",), ignore=("GPU2",)).is_enabled("GPU201")
    assert not Settings(select=("ALL",), ignore=("ALL",)).is_enabled("GPU201")


def test_per_file_ignores_match_names_and_paths(tmp_path: Path) -> None:
    s = Settings(per_file_ignores=(("*_test.mlir", ("GPU2",)), ("gen/**", ("ALL",))), root=tmp_path)
    assert not s.is_enabled("GPU201", str(tmp_path / "deep" / "x_test.mlir"))
    assert s.is_enabled("GPU101", str(tmp_path / "deep" / "x_test.mlir"))
    assert not s.is_enabled("GPU101", str(tmp_path / "gen" / "a" / "b.mlir"))
    assert s.is_enabled("GPU101", str(tmp_path / "src" / "b.mlir"))


CONFIG_ERRORS = [
    ("unknown-key", "[tool.gpu-lint]\nline_length = 3\n", "unknown key 'line_length'"),
    (
        "unknown-key-hint",
        "[tool.gpu-lint]\nextend_select = []\n",
        "unknown key 'extend_select' (did you mean 'extend-select'?)",
    ),
    ("not-a-list", '[tool.gpu-lint]\nselect = "GPU2"\n', "'select' must be a list of strings"),
    ("bad-selector", '[tool.gpu-lint]\nignore = ["E501"]\n', "invalid rule selector 'E501'"),
    ("bad-bool", '[tool.gpu-lint]\nfix = "yes"\n', "'fix' must be true or false"),
    (
        "bad-severity",
        '[tool.gpu-lint.severity]\nGPU2 = "fatal"\n',
        "'severity.GPU2' must be one of hint, info, warning, error (got 'fatal')",
    ),
    ("severity-not-table", '[tool.gpu-lint]\nseverity = "error"\n', "'severity' must be a table of code = level"),
    (
        "per-file-not-table",
        '[tool.gpu-lint]\nper-file-ignores = ["a"]\n',
        "'per-file-ignores' must be a table of glob = [codes]",
    ),
    ("per-file-bad-code", '[tool.gpu-lint.per-file-ignores]\n"a.mlir" = ["X1"]\n', "invalid rule selector 'X1'"),
    ("bad-format", '[tool.gpu-lint]\noutput-format = "xml"\n', "'output-format' must be one of"),
    ("bad-fail-on", '[tool.gpu-lint]\nfail-on = "never"\n', "'fail-on' must be one of"),
    ("not-a-table", "[tool]\ngpu-lint = 3\n", "[tool.gpu-lint] must be a table"),
    ("invalid-toml", "[tool.gpu-lint\nselect = [\n", "invalid TOML"),
]


@pytest.mark.parametrize(("name", "content", "message"), CONFIG_ERRORS, ids=[c[0] for c in CONFIG_ERRORS])
def test_configuration_errors_exit_2_with_one_line_naming_the_problem(gpu_lint, write, name, content, message) -> None:
    write("pyproject.toml", content)
    write("a.mlir", BROKEN)
    result = gpu_lint("a.mlir")
    assert result.code == 2 and result.out == ""
    assert message in result.err
    assert result.err.count("\n") == 1 and result.err.startswith("gpu-lint: error: <ROOT>/pyproject.toml")
    assert "Traceback" not in result.err
    assert_snapshot(f"config-error-{name}.txt", result.err)


def test_unknown_code_against_the_registry(tmp_path: Path, write) -> None:
    write("gpu-lint.toml", 'select = ["GPU7"]\n')
    with pytest.raises(ConfigError, match="unknown rule selector 'GPU7' \\(no rule code starts with it\\)"):
        load_settings(tmp_path, known=frozenset({"GPU201"}))


def test_config_option_takes_a_file_or_inline_overrides(tmp_path: Path, write) -> None:
    write("pyproject.toml", '[tool.gpu-lint]\nignore = ["GPU3"]\n')
    write("other/custom.toml", 'ignore = ["GPU2"]\nfix = true\n')
    s = load_settings(tmp_path, [str(tmp_path / "other" / "custom.toml")])
    assert s.ignore == ("GPU2",) and s.fix and s.config_file == (tmp_path / "other" / "custom.toml").resolve()
    s = load_settings(tmp_path, ["fix = true", 'severity = { GPU2 = "error" }'])
    assert s.ignore == ("GPU3",) and s.fix and s.severity == (("GPU2", Severity.ERROR),)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.toml"], "--config: no such file 'missing.toml'"),
        (["a.toml", "b.toml"], "only one configuration file"),
        (["fix = maybe"], "invalid TOML"),
        (["colour = true"], "unknown key 'colour'"),
    ],
)
def test_config_option_errors(tmp_path: Path, write, monkeypatch, args, message) -> None:
    write("a.toml", "")
    write("b.toml", "")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_settings(tmp_path, args)


def test_isolated_ignores_files(tmp_path: Path, write) -> None:
    write("pyproject.toml", "[tool.gpu-lint]\nline_length = 1\n")
    assert load_settings(tmp_path, isolated=True).config_file is None
    with pytest.raises(ConfigError, match="cannot be used together"):
        load_settings(tmp_path, [str(tmp_path / "pyproject.toml")], isolated=True)


def test_command_line_layers_over_the_file() -> None:
    base = Settings(select=("GPU1",), ignore=("GPU101",), extend_exclude=("a",))
    s = apply_cli(
        base,
        None,
        select=["GPU2"],
        ignore=["GPU202"],
        extend_select=["GPU3"],
        extend_exclude=["b"],
        per_file_ignores=["x.mlir:GPU2,GPU3"],
        fix=True,
        output_format=None,
    )
    assert s.select == ("GPU2",) and s.ignore == ("GPU101", "GPU202") and s.extend_select == ("GPU3",)
    assert s.extend_exclude == ("a", "b") and s.per_file_ignores == (("x.mlir", ("GPU2", "GPU3")),) and s.fix
    with pytest.raises(ConfigError, match="expected GLOB:CODE"):
        apply_cli(base, None, per_file_ignores=["nocolon"])
    with pytest.raises(ConfigError, match="--select: invalid rule selector 'gpu2'"):
        apply_cli(base, None, select=["gpu2"])


def test_show_settings(gpu_lint, write) -> None:
    write(
        "pyproject.toml",
        '[tool.gpu-lint]\nselect = ["GPU0"]\nfail-on = "error"\n[tool.gpu-lint.per-file-ignores]\n"t/*" = ["GPU00"]\n',
    )
    result = gpu_lint("--show-settings", "--extend-select", "GPU2", "--config", "fix = true")
    assert result.code == 0
    assert_snapshot("show-settings.txt", result.out)
