"""A YAML file that does not read is reported where it goes wrong (content.source): a control
character at its line and column, a byte order mark in mid-file, an alias inside the value it
names, a document its aliases make too large (in values or in text), and never a line past the
end of the file."""
from __future__ import annotations

import shutil
import time

import pytest

from interpreter.content import source
from interpreter.content.source import MAX_TEXT, load_file
from interpreter.diagnostics import ContentError, Position, excerpt, lines_of
from interpreter.rulings.check import check_paths
from gamekit import FIXTURES


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
    assert exc.code == "Y005"
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
    assert exc.code == "Y003"


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


@pytest.mark.parametrize("text, at", [
    ("notes: &loop [a, *loop]\n", (1, 18)),
    ("a: &m {b: [1, {c: *m}]}\n", (1, 19)),
    ("a: &m\n  b:\n    - *m\n", (3, 7)),
])
def test_an_alias_inside_the_value_it_names_is_reported_at_the_alias(text, at):
    exc = error_of(text)
    assert where(exc) == at
    assert exc.message.startswith("YAML error: alias '*") and exc.message.endswith("is inside the value it names")


def _many_aliases(copies: int, text_lines: int = 2000) -> str:
    """A rules-test file whose `when:` text of `text_lines` lines is anchored once and aliased `copies` times."""
    lines = ["kind: rules-test", "game: docs-game", "tests:", "  - name: t0", "    players: 2", "    when: &w |"]
    lines += ["      add 1 to round"] * text_lines
    lines += ["    then: [round > 0]"]
    lines += [f"  - {{name: t{i}, players: 2, when: *w, then: [round > 0]}}" for i in range(1, copies + 1)]
    return "\n".join(lines) + "\n"


def test_a_long_text_aliased_thousands_of_times_stops_the_check_at_the_alias_past_the_bound(tmp_path):
    game = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", game)
    (game / "tests-aliases.yaml").write_text(_many_aliases(3000), encoding="utf-8")
    started = time.process_time()
    report = check_paths([str(game)])
    spent = time.process_time() - started
    # the text is 30,000 characters: 140 copies of it (the anchored one and 139 aliases) pass the bound
    assert 139 * 30_000 < MAX_TEXT < 140 * 30_000
    [error] = report.errors
    line = 2007 + 139
    assert (error.position.line, error.position.column) == (line, 36)
    assert "t139," in report.sources[error.position.path].splitlines()[line - 1]
    assert error.message == ("the document expands to more than 4,194,304 characters of text at alias '*w' "
                             "(aliases expanded)")
    assert "a text of 30,000 characters" in error.hint and error.code == "Y009"
    assert spent < 2.0  # it took more than a minute when each alias was one value, however long


def test_a_text_aliased_within_the_bound_is_read_as_often_as_it_is_named():
    src, errors = load_file("f.yaml", _many_aliases(20, text_lines=50).encode("utf-8"))
    whens = [t["when"] for t in src.data["tests"]]
    assert not errors and len(whens) == 21 and len(set(whens)) == 1 and whens[0].count("\n") == 50
