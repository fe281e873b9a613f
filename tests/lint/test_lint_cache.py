"""gpu-lint's cache: an unchanged file is not analysed again; a change of the file, of a setting
the analysis reads, of gpu-lint's version or of its rules analyses it again; `--no-cache` and
`cache-dir`."""

from __future__ import annotations

import pytest
from lintkit import BROKEN, VALID

from gpu_lsp.lint import cache, check

G = ("--output-format", "concise", "--jobs", "1")


@pytest.fixture
def analysed(monkeypatch) -> list[str]:
    """The texts analysed (not taken from the cache), in order."""
    seen: list[str] = []
    real = check.analyze

    def counting(text: str, *, mlir_version: int) -> list:
        seen.append(text)
        return real(text, mlir_version=mlir_version)

    monkeypatch.setattr(check, "analyze", counting)
    monkeypatch.setattr(cache, "rule_set", cache.rule_set.__wrapped__)  # no memo across tests
    return seen


def test_an_unchanged_tree_is_not_analysed_again(gpu_lint, write, tmp_path, analysed) -> None:
    write("a.mlir", VALID)
    write("b.mlir", BROKEN)
    first = gpu_lint(*G)
    assert len(analysed) == 2 and first.code == 1
    assert (tmp_path / ".gpu-lint-cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    second = gpu_lint(*G)
    assert len(analysed) == 2, "both from the cache"
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    assert gpu_lint(*G, "--ignore", "GPU0").code == 0 and len(analysed) == 2, "selection applies to cached findings"


def test_a_changed_file_setting_version_or_rule_set_is_analysed_again(gpu_lint, write, analysed, monkeypatch) -> None:
    path = write("a.mlir", VALID)
    gpu_lint(*G)
    path.write_text(BROKEN, encoding="utf-8")
    assert gpu_lint(*G).code == 1 and analysed[-1] == BROKEN and len(analysed) == 2
    gpu_lint(*G, "--mlir-version", "20")
    assert len(analysed) == 3, "a setting the analysis reads"
    gpu_lint(*G, "--mlir-version", "20")
    assert len(analysed) == 3
    monkeypatch.setattr(cache, "__version__", "0.0.0-other")
    gpu_lint(*G, "--mlir-version", "20")
    assert len(analysed) == 4, "another gpu-lint version"
    codes = cache.known_codes()
    monkeypatch.setattr(cache, "known_codes", lambda: codes - {sorted(codes)[-1]})
    gpu_lint(*G, "--mlir-version", "20")
    assert len(analysed) == 5, "another rule set"


def test_no_cache_and_the_cache_directory(gpu_lint, write, tmp_path, analysed) -> None:
    write("a.mlir", VALID)
    gpu_lint(*G, "--no-cache")
    gpu_lint(*G, "--no-cache")
    assert len(analysed) == 2 and not (tmp_path / ".gpu-lint-cache").exists()
    gpu_lint(*G, "--cache-dir", "elsewhere")
    assert (tmp_path / "elsewhere" / ".gitignore").is_file() and len(analysed) == 3
    write("pyproject.toml", '[tool.gpu-lint]\ncache-dir = "build-cache"\n')
    (tmp_path / "sub").mkdir()
    gpu_lint(*G, "..", cwd=tmp_path / "sub")
    assert (tmp_path / "build-cache" / ".gitignore").is_file(), "relative to the project root"
    bad = gpu_lint(*G, "--config", "cache-dir = 3")
    assert bad.code == 2 and bad.err.count("\n") == 1 and "'cache-dir' must be" in bad.err


def test_an_unreadable_cache_entry_is_analysed_again(gpu_lint, write, tmp_path, analysed) -> None:
    write("a.mlir", BROKEN)
    first = gpu_lint(*G)
    entries = [p for p in (tmp_path / ".gpu-lint-cache").rglob("*") if p.is_file() and p.name != ".gitignore"]
    assert len(entries) == 1
    entries[0].write_bytes(b"not a pickle")
    assert gpu_lint(*G).out == first.out and len(analysed) == 2
