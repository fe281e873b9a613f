"""The built-in dialects declared as data (`ir/opdefs/data/*.ops.toml`): every file reads without a mistake."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gpu_lsp.ir.opdefs import OPS, built_in_data
from gpu_lsp.ir.opdefs.built_in_data import DATA, DIALECTS, built_in_ops
from gpu_lsp.ir.opdefs.user_ops import read_definitions


def _declared_names(dialect: str) -> int:
    """How many ops the file lists: its `[ops.<name>]` tables and its classes' members."""
    data = tomllib.loads((DATA / f"{dialect}.ops.toml").read_text(encoding="utf-8"))
    members = sum(len(table.get("members", "").split()) for table in data.get("classes", {}).values())
    return len(data.get("ops", {})) + members


def test_the_data_folder_holds_one_file_per_listed_dialect() -> None:
    assert sorted(path.name for path in DATA.glob("*.toml")) == sorted(f"{dialect}.ops.toml" for dialect in DIALECTS)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_built_in_file_reads_without_a_mistake(dialect: str) -> None:
    found = read_definitions((DATA / f"{dialect}.ops.toml").read_text(encoding="utf-8"), built_in=True)
    assert found.errors == ()
    assert len(found.ops) == _declared_names(dialect) > 0
    assert {op.name for op in found.ops} == {name for name, op in OPS.items() if op.dialect == dialect}
    assert all(OPS[op.name] is not op and OPS[op.name] == op for op in found.ops)


def test_a_mistake_in_a_built_in_file_is_an_error_not_a_missing_op(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.ops.toml").write_text('dialect = "t"\n[ops.a]\ntraits = ["Comutative"]\n', encoding="utf-8")
    monkeypatch.setattr(built_in_data, "DATA", tmp_path)
    with pytest.raises(ValueError, match=r"t\.ops\.toml:3:12: error: unknown trait 'Comutative'"):
        built_in_ops("t")


def test_the_package_data_names_the_files() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["gpu_lsp"]
    package = Path(built_in_data.__file__).parents[2]
    assert all(any(path in package.glob(pattern) for pattern in patterns) for path in DATA.glob("*.toml"))
