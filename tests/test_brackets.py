"""The one bracket scanner: strings skipped whole, `->` closes nothing, mismatches found."""

from __future__ import annotations

from gpu_lsp.ir.brackets import comma_ranges, match_close, split_commas, string_end


def test_split_commas_keeps_brackets_strings_and_arrows_whole() -> None:
    assert split_commas('"a, b", f<x, y>, (i32) -> (), {k = [1, 2]}') == ['"a, b"', "f<x, y>", "(i32) -> ()", "{k = [1, 2]}"]


def test_split_commas_blank_unbalanced_and_empty_pieces() -> None:
    assert split_commas("  ") == []
    assert split_commas("a<b, c") == ["a<b, c"]
    assert split_commas("a, , b,") == ["a", "", "b", ""]
    assert split_commas("a, , b,", drop_empty=True) == ["a", "b"]


def test_match_close_skips_arrows_and_strings_and_rejects_mismatches() -> None:
    text = '<(i32) -> f32, ">">x'
    assert match_close(text, 0) == len(text) - 1
    assert match_close("(a]", 0) == -1
    assert match_close("(a", 0) == -1
    assert match_close("(a)b)", 0, 2) == -1


def test_comma_ranges_are_untrimmed_offsets_or_none() -> None:
    assert comma_ranges("f(a, b), c", 0, 10) == [(0, 7), (8, 10)]
    assert comma_ranges("f(a, b, c", 0, 9) is None


def test_string_end_handles_escapes_and_unterminated_strings() -> None:
    assert string_end('"a\\"b" x', 0) == 6
    assert string_end('"abc', 0) == 4
