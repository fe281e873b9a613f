"""gpu-lint's cache: a warm run reads findings instead of analysing, any change that matters misses, output never differs."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from lintkit import BROKEN, FAKE_RULES, VALID, Result

import gpu_lsp
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Related, Severity
from gpu_lsp.lint import cache, check, rules
from gpu_lsp.lint.config import Settings
from gpu_lsp.text import Edit, TextRange

PIPELINE = """\
func.func @pipeline(%a: memref<?xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpu.wait async [%t0, %t1]
  gpu.wait async [%t2]   
  // TODO drop this line, it is long enough to be reported
  return
}
"""


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts analysed (in this process: the tests use at most 3 files or `-j 1`)."""
    seen: list[str] = []
    inner = check.analyze

    def counting(text: str, **version: int) -> list[Diagnostic]:
        seen.append(text)
        return inner(text, **version)

    monkeypatch.setattr(check, "analyze", counting)
    return seen


@pytest.fixture
def tree(write: Callable[[str, str], Path]) -> None:
    write("a.mlir", PIPELINE)
    write("sub/b.mlir", BROKEN)
    write("sub/c.mlir", VALID)


def _entries(root: Path) -> list[Path]:
    return sorted((root / ".gpu-lint-cache").glob("*/*.json"))


@pytest.mark.usefixtures("tree")
def test_warm_run_reads_every_finding_from_the_cache(gpu_lint, analyses, tmp_path: Path) -> None:
    cold = gpu_lint(".")
    assert len(analyses) == 3
    warm = gpu_lint(".")
    assert len(analyses) == 3, "an unchanged tree is not analysed again"
    assert (warm.code, warm.out, warm.err) == (cold.code, cold.out, cold.err)
    assert cold.code == 1 and "GPU003" in cold.out
    folder = tmp_path / ".gpu-lint-cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert len(_entries(tmp_path)) == 3
    assert not list(folder.glob("*/.tmp-*")), "no temporary file is left behind"


@pytest.mark.usefixtures("tree", "fake_rules")
@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_output_is_the_same_with_and_without_the_cache(gpu_lint, analyses, fmt: str) -> None:
    uncached = gpu_lint(".", "--no-cache", "--output-format", fmt)
    cold = gpu_lint(".", "--output-format", fmt)
    warm = gpu_lint(".", "--output-format", fmt)
    assert len(analyses) == 6
    assert (cold.code, cold.out, cold.err) == (uncached.code, uncached.out, uncached.err)
    assert (warm.code, warm.out, warm.err) == (uncached.code, uncached.out, uncached.err)
    assert "GPU390" in uncached.out and "GPU393" in uncached.out  # fixes of each applicability went through the cache


def test_entries_keep_every_field_of_a_diagnostic(tmp_path: Path) -> None:
    store = cache.Cache(tmp_path / "c", Settings(root=tmp_path))
    found = [
        Diagnostic(
            "GPU201",
            "a message ∑",
            TextRange(3, 9),
            Severity.HINT,
            Fix("fix it", (Edit(TextRange(3, 4), "x"), Edit(TextRange(5, 5), "")), Applicability.DISPLAY_ONLY),
            (Related("see here", TextRange(0, 2)),),
            ("unnecessary",),
        ),
        Diagnostic("GPU003", "plain", TextRange(0, 0)),
    ]
    store.store("k", found)
    assert cache.Cache(tmp_path / "c", Settings(root=tmp_path)).load("k") == found


@pytest.mark.usefixtures("tree")
def test_a_changed_file_alone_is_analysed_again(gpu_lint, analyses, write) -> None:
    gpu_lint(".")
    write("sub/c.mlir", VALID + "// edited\n")
    gpu_lint(".")
    assert len(analyses) == 4 and analyses[-1].endswith("// edited\n")


@pytest.mark.usefixtures("tree")
@pytest.mark.parametrize(
    ("options", "again"),
    [
        (["--mlir-version", "22"], 3),
        (["--select", "GPU0"], 3),
        (["--ignore", "GPU3"], 3),
        (["--config", 'severity = { GPU2 = "error" }'], 3),
        (["--per-file-ignores", "b.mlir:GPU3"], 1),
    ],
)
def test_a_changed_setting_misses(gpu_lint, analyses, options: list[str], again: int) -> None:
    gpu_lint(".")
    changed = gpu_lint(".", *options)
    assert len(analyses) == 3 + again
    assert gpu_lint(".", *options, "--no-cache").out == changed.out
    gpu_lint(".")
    assert len(analyses) == 3 + again + 3, "the first settings' entries are still there"


@pytest.mark.usefixtures("tree")
def test_settings_that_do_not_change_findings_hit(gpu_lint, analyses) -> None:
    gpu_lint(".")
    gpu_lint(".", "--output-format", "json", "--exit-zero", "--fail-on", "error", "--unsafe-fixes")
    assert len(analyses) == 3


@pytest.mark.usefixtures("tree")
def test_a_new_version_misses_and_removes_the_old_entries(gpu_lint, analyses, tmp_path, monkeypatch) -> None:
    gpu_lint(".")
    before = _entries(tmp_path)
    monkeypatch.setattr(gpu_lsp, "__version__", gpu_lsp.__version__ + ".post1")
    gpu_lint(".")
    assert len(analyses) == 6
    after = _entries(tmp_path)
    assert len(after) == 3 and not set(before) & set(after)


@pytest.mark.usefixtures("tree")
def test_a_changed_rule_misses(gpu_lint, analyses, monkeypatch) -> None:
    gpu_lint(".")
    changed = dict(FAKE_RULES)
    rule = changed["GPU201"]
    changed["GPU201"] = type(rule)(rule.code, rule.name, rule.severity, rule.doc + "\nMore.", fix=rule.fix)
    monkeypatch.setattr(rules, "_registry", lambda: changed)
    gpu_lint(".")
    assert len(analyses) == 6


def test_the_package_fingerprint_follows_its_files(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    module = package / "sub" / "rule.py"
    module.write_text("X = 1\n")
    monkeypatch.setattr(gpu_lsp, "__file__", str(package / "__init__.py"))
    fingerprint = cache.package_fingerprint.__wrapped__
    first = fingerprint()
    assert fingerprint() == first
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))
    assert fingerprint() != first


@pytest.mark.usefixtures("tree")
@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe garbage", b"[1, 2]", b'{"format": 1, "key": "other", "diagnostics": []}', b"{\"format\": 1"]
)
def test_a_corrupt_or_foreign_entry_is_a_miss(gpu_lint, analyses, tmp_path, content: bytes) -> None:
    cold = gpu_lint(".")
    for entry in _entries(tmp_path):
        entry.write_bytes(content)
    warm = gpu_lint(".")
    assert len(analyses) == 6
    assert (warm.code, warm.out, warm.err) == (cold.code, cold.out, cold.err)


@pytest.mark.usefixtures("tree")
def test_a_malformed_entry_with_the_right_key_is_a_miss(gpu_lint, analyses, tmp_path) -> None:
    cold = gpu_lint(".")
    for entry in _entries(tmp_path):
        data = json.loads(entry.read_text())
        data["diagnostics"] = [{"code": 3, "range": "x"}]
        entry.write_text(json.dumps(data))
    assert gpu_lint(".").out == cold.out
    assert len(analyses) == 6


@pytest.mark.usefixtures("tree")
def test_an_unusable_cache_folder_only_disables_the_cache(gpu_lint, analyses, write) -> None:
    write("blocked", "a file where the cache folder would be\n")
    cold = gpu_lint(".", "--cache-dir", "blocked")
    warm = gpu_lint(".", "--cache-dir", "blocked")
    assert len(analyses) == 6
    assert (warm.code, warm.out, warm.err) == (cold.code, cold.out, cold.err) and cold.err == ""


@pytest.mark.usefixtures("tree")
def test_no_cache_neither_reads_nor_writes(gpu_lint, analyses, tmp_path) -> None:
    gpu_lint(".", "--no-cache")
    gpu_lint(".", "--no-cache")
    assert len(analyses) == 6
    assert not (tmp_path / ".gpu-lint-cache").exists()


@pytest.mark.usefixtures("tree")
def test_cache_dir_setting_and_option(gpu_lint, analyses, tmp_path, write) -> None:
    write("pyproject.toml", '[tool.gpu-lint]\ncache-dir = "build-cache/lint"\n')
    gpu_lint("b.mlir", cwd=tmp_path / "sub")  # the setting is relative to the project root, not the cwd
    assert len(list((tmp_path / "build-cache" / "lint").glob("*/*.json"))) == 1
    gpu_lint(".", "--cache-dir", "here", cwd=tmp_path / "sub")  # the option is relative to the cwd
    assert len(list((tmp_path / "sub" / "here").glob("*/*.json"))) == 2
    assert not (tmp_path / ".gpu-lint-cache").exists()
    assert 'cache-dir = "build-cache/lint"' in gpu_lint("--show-settings").out


def test_cache_dir_must_be_a_string(gpu_lint, write) -> None:
    write("gpu-lint.toml", "cache-dir = 3\n")
    result = gpu_lint(".")
    assert result.code == 2 and "'cache-dir' must be a folder name" in result.err


@pytest.mark.usefixtures("fake_rules")
def test_fix_bypasses_the_cache(gpu_lint, analyses, write) -> None:
    path = write("a.mlir", PIPELINE)
    gpu_lint(".")
    cached = len(analyses)
    result: Result = gpu_lint(".", "--fix")
    assert len(analyses) > cached
    assert "   \n" not in path.read_text() and result.code in (0, 1)
    assert "GPU390" not in gpu_lint(".").out


def test_concurrent_writers_never_expose_half_an_entry(tmp_path: Path) -> None:
    found = [Diagnostic("GPU201", "m" * 2000, TextRange(i, i + 1)) for i in range(50)]
    writers = [cache.Cache(tmp_path / "c", Settings(root=tmp_path)) for _ in range(4)]
    seen: list[object] = []

    def write() -> None:
        for _ in range(30):
            writers[0].store("k", found)

    threads = [threading.Thread(target=write) for _ in range(3)]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        seen.append(writers[1].load("k"))
    for thread in threads:
        thread.join()
    assert all(s is None or s == found for s in seen)
    assert writers[2].load("k") == found
    assert not list((tmp_path / "c").glob("*/.tmp-*"))


@pytest.mark.usefixtures("tree")
def test_a_file_edited_while_it_is_checked_is_not_stored(gpu_lint, analyses, tmp_path, monkeypatch) -> None:
    real = cache.check_all

    def edit_first(targets, *rest):
        path = tmp_path / "sub" / "c.mlir"
        path.write_text(VALID + "// edited meanwhile\n")
        os.utime(path, ns=(2_000_000_000, 2_000_000_000))
        return real(targets, *rest)

    monkeypatch.setattr(cache, "check_all", edit_first)
    gpu_lint(".")
    monkeypatch.setattr(cache, "check_all", real)
    assert len(_entries(tmp_path)) == 2, "the edited file's findings are not kept under its old text's key"
    gpu_lint(".")
    assert len(analyses) == 4 and analyses[-1].endswith("// edited meanwhile\n")
