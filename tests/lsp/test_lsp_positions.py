"""Line tables follow edits exactly; offsets <-> LSP positions in UTF-16, UTF-8 and UTF-32."""

from __future__ import annotations

import random

import pytest

from gpu_lsp.lsp.positions import LONG_LINES, UTF8, UTF16, UTF32, LineTable


def test_line_table_of_text() -> None:
    table = LineTable.of("ab\ncd\n\nx")
    assert table.starts == [0, 3, 6, 7]
    assert table.line_of(0) == 0 and table.line_of(3) == 1 and table.line_of(7) == 3
    assert table.line_end(0) == 2 and table.line_end(3) == 8


@pytest.mark.parametrize("text", ["", "x" * 5000, "x" * 5000 + "\n", "\n" + "y" * 3000 + "\n\nz" + "w" * 4000])
def test_line_table_of_a_text_of_long_lines(text: str) -> None:
    assert text.count("\n") * LONG_LINES <= len(text)  # the lines are found by str.find
    expected = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    table = LineTable.of(text)
    assert (table.starts, table.length) == (expected, len(text))


def test_edited_matches_a_fresh_table_under_random_edits() -> None:
    rng = random.Random(7)
    text = "".join(rng.choice("ab\n") for _ in range(200))
    table = LineTable.of(text)
    for _ in range(500):
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.randrange(6))
        new = "".join(rng.choice("xy\n") for _ in range(rng.randrange(5)))
        table = table.edited(start, end, new)
        text = text[:start] + new + text[end:]
        assert table.starts == LineTable.of(text).starts
        assert table.length == len(text)


@pytest.mark.parametrize(
    "encoding, column",
    [(UTF16, 6), (UTF8, 9), (UTF32, 5)],
)
def test_columns_count_code_units(encoding: str, column: int) -> None:
    text = "x\n// é😀 %v\n"
    table = LineTable.of(text)
    offset = text.index(" %v")
    assert table.position(text, offset, encoding) == (1, column)
    assert table.offset(text, 1, column, encoding) == offset


def test_offsets_clamp_to_the_line_and_the_text() -> None:
    text = "abc\nde"
    table = LineTable.of(text)
    assert table.offset(text, 0, 99) == 3
    assert table.offset(text, 5, 0) == len(text)
    assert table.offset(text, -1, 0) == 0
    assert table.position(text, 99) == (1, 2)


def test_a_position_inside_a_surrogate_pair_moves_past_it() -> None:
    text = "😀x"
    table = LineTable.of(text)
    assert table.offset(text, 0, 1) == 1
    assert table.offset(text, 0, 2) == 1
    assert table.offset(text, 0, 3) == 2


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
@pytest.mark.parametrize("text", ["%a = arith.constant 0 : index\n  gpu.wait\n", "// é 𝄞\n%a = \"x\"() : () -> ()\n\n𝄞𝄞 z"])
def test_a_locator_places_every_offset_as_position_does(text: str, encoding: str) -> None:
    """`locator` (one text, many offsets: the JSON of diagnostics and outlines) gives `position`'s
    answer for every offset, past the end and before the start included, ASCII or not."""
    table = LineTable.of(text)
    locate = table.locator(text, encoding)
    assert [locate(at) for at in range(-2, len(text) + 3)] == [table.position(text, at, encoding) for at in range(-2, len(text) + 3)]
