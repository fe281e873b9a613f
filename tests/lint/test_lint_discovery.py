"""Which files are checked (folders, .gitignore, exclude, stdin) and how bad input is reported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lintkit import BROKEN, VALID

from gpu_lsp.lint import discovery
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.discovery import decode, discover, read_source
from gpu_lsp.lint.gitignore import GitIgnore, parse_line


def names(paths: list[str], tmp_path: Path, **kw) -> list[str]:
    settings = kw.pop("settings", Settings(root=tmp_path))
    targets, problems = discover(paths, settings, cwd=tmp_path, **kw)
    return [t.display for t in targets] + [p.line() for p in problems]


def test_folders_are_walked_for_mlir_files_sorted_and_deduplicated(tmp_path: Path, write) -> None:
    for name in (
        "b.mlir",
        "a/z.mlir",
        "a/y.txt",
        "a/c/d.mlir",
        "build/x.mlir",
        ".venv/x.mlir",
        "node_modules/p/x.mlir",
    ):
        write(name, VALID)
    assert names([], tmp_path) == ["a/c/d.mlir", "a/z.mlir", "b.mlir"]
    assert names(["b.mlir", ".", "a/z.mlir"], tmp_path) == ["a/c/d.mlir", "a/z.mlir", "b.mlir"]
    # A file named explicitly is checked even inside an excluded folder (unless --force-exclude).
    assert names(["build/x.mlir"], tmp_path) == ["build/x.mlir"]
    assert names(["build/x.mlir"], tmp_path, force_exclude=True) == []


def test_exclude_and_extend_exclude(tmp_path: Path, write) -> None:
    for name in ("keep/a.mlir", "gen/b.mlir", "src/gen/c.mlir", "src/d_generated.mlir", "build/e.mlir"):
        write(name, VALID)
    s = Settings(root=tmp_path, extend_exclude=("gen", "*_generated.mlir"))
    assert names([], tmp_path, settings=s) == ["keep/a.mlir"]
    s = Settings(root=tmp_path, exclude=("src/gen",))  # replaces the defaults: build/ is back
    assert names([], tmp_path, settings=s) == ["build/e.mlir", "gen/b.mlir", "keep/a.mlir", "src/d_generated.mlir"]


def test_gitignore_is_honoured(tmp_path: Path, write) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    write(".git/info/exclude", "local.mlir\n")
    write(".gitignore", "# comment\n*.gen.mlir\n/out/\ntmp*/\n!keep.gen.mlir\nsub/only_here.mlir\n")
    write("sub/.gitignore", "nested.mlir\n!/again.mlir\n")
    for name in (
        "a.mlir",
        "a.gen.mlir",
        "keep.gen.mlir",
        "local.mlir",
        "out/b.mlir",
        "x/out/c.mlir",
        "tmpdir/d.mlir",
        "tmpfile.mlir",
        "sub/nested.mlir",
        "sub/only_here.mlir",
        "sub/e.mlir",
        "sub/again.mlir",
        "x/sub/only_here.mlir",
        "x/nested.mlir",
    ):
        write(name, VALID)
    assert names([], tmp_path) == [
        "a.mlir",
        "keep.gen.mlir",
        "sub/again.mlir",
        "sub/e.mlir",
        "tmpfile.mlir",
        "x/nested.mlir",
        "x/out/c.mlir",
        "x/sub/only_here.mlir",
    ]
    # The ignore files of the repository apply when a sub-folder is given.
    assert names(["sub"], tmp_path) == ["sub/again.mlir", "sub/e.mlir"]
    s = Settings(root=tmp_path, respect_gitignore=False)
    assert len(names([], tmp_path, settings=s)) == 14
    assert names(["a.gen.mlir", "sub/nested.mlir", "a.mlir"], tmp_path, force_exclude=True) == ["a.mlir"]


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "ignored"),
    [
        ("*.mlir", "a/b/c.mlir", False, True),
        ("/c.mlir", "a/c.mlir", False, False),
        ("a/*.mlir", "a/b/c.mlir", False, False),
        ("a/**/c.mlir", "a/b/d/c.mlir", False, True),
        ("a/**/c.mlir", "a/c.mlir", False, True),
        ("**/c.mlir", "x/c.mlir", False, True),
        ("a/**", "a/x/y.mlir", False, True),
        ("d/", "d", False, False),
        ("d/", "x/d", True, True),
        ("c?.mlir", "c1.mlir", False, True),
        ("c[0-9].mlir", "c5.mlir", False, True),
        ("c[!0-9].mlir", "c5.mlir", False, False),
        ("\\#x.mlir", "#x.mlir", False, True),
        ("\\!x.mlir", "!x.mlir", False, True),
        ("x.mlir\\ ", "x.mlir ", False, True),
        ("x.mlir   ", "x.mlir", False, True),
    ],
)
def test_gitignore_patterns(tmp_path: Path, pattern: str, path: str, is_dir: bool, ignored: bool) -> None:
    ignore = GitIgnore(tmp_path, [pattern])
    assert bool(ignore.decide(tmp_path / path, is_dir)) is ignored


def test_gitignore_blank_and_comment_lines() -> None:
    assert (
        parse_line("") is None and parse_line("# x") is None and parse_line("   ") is None and parse_line("/") is None
    )


def test_stdin_and_its_filename(tmp_path: Path) -> None:
    targets, _ = discover(["-"], Settings(root=tmp_path), cwd=tmp_path)
    assert [(t.path, t.display) for t in targets] == [(None, "-")]
    targets, _ = discover([], Settings(root=tmp_path), stdin_filename="src/k.mlir", cwd=tmp_path)
    assert [(t.path, t.display) for t in targets] == [(None, "src/k.mlir")]
    s = Settings(root=tmp_path, extend_exclude=("src",))
    assert discover(["-"], s, stdin_filename="src/k.mlir", force_exclude=True, cwd=tmp_path)[0] == []


def test_missing_paths_and_empty_folders_are_one_line_problems(tmp_path: Path, write) -> None:
    (tmp_path / "empty").mkdir()
    write("docs/readme.txt", "x")
    assert names(["empty", "docs", "nope.mlir"], tmp_path) == [
        "warning: empty: no .mlir files found",
        "warning: docs: no .mlir files found",
        "error: nope.mlir: no such file or folder",
    ]


def test_reading_bad_input(tmp_path: Path, write) -> None:
    assert decode(b"func.func @f() {\x00}") == "binary file (contains NUL bytes), skipped"
    assert decode("caf\u00e9".encode("latin-1")) == "invalid UTF-8 at byte 3, skipped"
    assert decode("\ufeff// x\n".encode()).text == "// x\n" and decode("\ufeff// x\n".encode()).bom
    big = tmp_path / "big.mlir"
    with open(big, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    assert read_source(str(big)) == "file too large (52.4 MB; the limit is 10 MB), skipped"
    fifo = tmp_path / "pipe.mlir"
    os.mkfifo(fifo)
    assert read_source(str(fifo)) == "not a regular file, skipped"
    assert read_source(str(tmp_path / "gone.mlir")) == "cannot read: No such file or directory"
    (tmp_path / "dangling.mlir").symlink_to(tmp_path / "nowhere.mlir")
    assert read_source(str(tmp_path / "dangling.mlir")) == "cannot read: No such file or directory"


def test_unreadable_file(tmp_path: Path, write, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write("secret.mlir", BROKEN)
    real_open = open

    def deny(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(discovery, "open", deny, raising=False)
    assert read_source(str(path)) == "cannot read: Permission denied"


def test_an_unreadable_folder_is_one_line(tmp_path: Path, write, monkeypatch: pytest.MonkeyPatch) -> None:
    write("ok/a.mlir", VALID)
    write("locked/b.mlir", VALID)
    real_scandir = os.scandir

    def deny(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", deny)
    assert names([], tmp_path) == ["ok/a.mlir", "error: locked: cannot read folder, skipped"]


def test_a_file_name_that_is_not_utf8_is_shown_with_replacement_characters(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9.mlir"
    with open(raw, "w") as handle:
        handle.write(VALID)
    assert names([], tmp_path) == ["caf\ufffd.mlir"]
