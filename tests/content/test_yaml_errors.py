"""A YAML file that does not read is reported where it goes wrong (content.source): a control
character at its line and column, a byte order mark in mid-file, and never a line past the end
of the file."""
from __future__ import annotations

import pytest

from interpreter.content import source
from interpreter.content.source import load_file
from interpreter.diagnostics import ContentError, Position, code_of, excerpt, lines_of


def error_of(text: str) -> ContentError:
    with pytest.raises(ContentError) as exc:
        load_file("f.yaml", text.encode("utf-8"))
    return exc.value


def where(exc: ContentError) -> tuple:
    return exc.position.line, exc.position.column


def test_a_control_character_is_reported_at_its_line_and_column():
    lines = [f"k{n}: value {n}" for n in range(1, 121)]
    lines[109] = "k110: a bell \x07 rings"  # line 110, column 14
    lines[111] = "k112: \x1b[2J"
    lines[114] = "k115: \x00"
    exc = error_of("\n".join(lines) + "\n")
    assert where(exc) == (110, 14)
    assert exc.message == "file holds a control character (U+0007), which YAML does not read"
    assert code_of(exc.message) == "Y005"
    assert "\\x07" in exc.hint and "2 other lines (112, 115)" in exc.hint
    text = "\n".join(lines)
    assert excerpt(text, exc.position) == ["    k110: a bell \\x07 rings", "                 ^~~~"]


def test_a_control_character_after_accents_and_line_separators_is_placed_by_characters():
    # YAML's C reader counts the bytes before the character; a line is cut at NEL as well
    exc = error_of("title: Déjà vu, à côté\nnotes: \x85more: \x7f\n")
    assert where(exc) == (3, 7)
    assert "U+007F" in exc.message


def test_a_byte_order_mark_in_mid_file_is_named_where_it_is():
    exc = error_of("kind: cards\ncards: []\n\ufeffgame: docs-game\n")
    assert where(exc) == (3, 1)
    assert exc.message == "YAML syntax error: a byte order mark (U+FEFF) in the middle of the file"
    assert code_of(exc.message) == "Y003"


def test_a_file_starting_with_two_byte_order_marks_reads_and_is_placed_as_it_shows():
    src, _ = load_file("f.yaml", "\ufeff\ufeffkind: cards\ncards: []\n".encode("utf-8"))
    assert src.data == {"kind": "cards", "cards": []} and src.data["cards"].pos.line == 2
    # such a file (found by fuzzing) had its error placed on line 4 of 3
    exc = error_of("\ufeff\ufeff- \x85\n{")
    assert where(exc) == (3, 2)


def test_no_error_is_placed_past_the_last_line():
    lines = lines_of("kind: cards\ncards: [a,\n\n")
    assert source.within(Position("f.yaml", 4, 1), lines) == Position("f.yaml", 2, 11)
    assert source.within(Position("f.yaml", 2, 3), lines) == Position("f.yaml", 2, 3)
    assert source.within(Position("f.yaml", 1, 1), []) == Position("f.yaml", 1, 1)  # an empty file
    for text in ("kind: cards\ncards: [a,\n\n", "kind: cards\ncards: {a: 1\n# the end\n", "a: 'open\n\n  \n"):
        exc = error_of(text)
        assert exc.position.line <= len(lines_of(text)), (text, exc.position)
        assert excerpt(text, exc.position), (text, exc.position)  # the line is shown
