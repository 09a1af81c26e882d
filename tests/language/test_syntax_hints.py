"""The hints of syntax errors read off the line of the error (language.syntax_errors): each
given for the mistake it names, and not for another error on a line that looks alike."""
from __future__ import annotations

import pytest

from interpreter.diagnostics import ContentError
from interpreter.language import parser

BLOCK = "opens a block of its own"
DOT = "is written with a dot"
EVENT = "a trigger names its event alone"


def _hint(text: str) -> str:
    with pytest.raises(ContentError) as err:
        parser.parse(text, "ability")
    return err.value.hint or ""


@pytest.mark.parametrize("text, word", [
    ("when played: if count(you.hand) > 2: gain 1 coins", "'if'"),
    ("when played: for p in players: gain 1 coins to p", "'for each'"),
    ("when played: for each p in players: gain 1 coins to p", "'for each'"),
    ('action "Go" during main: while you.coins > 0: lose 1 coins', "'while'"),
    ("when played: repeat 2 times: gain 1 coins", "'repeat'"),
])
def test_a_block_written_on_its_headers_line_is_hinted_to_a_line_of_its_own(text, word):
    hint = _hint(text)
    assert BLOCK in hint and hint.startswith(word)


@pytest.mark.parametrize("text", [
    "when played:\n  if count(you.hand) > 2: gain 1 coins to\n",  # a one-line if is sound: the error is another
    'when played:\n  log "then: if you can"\n  gain 1 coins to\n',  # ': if' in a string
    "when played:\n  gain 1 coins to  # then: if\n",  # and in a comment
])
def test_no_block_hint_where_the_line_holds_no_block_after_a_colon(text):
    assert BLOCK not in _hint(text)


def test_of_is_hinted_to_a_dot():
    assert DOT in _hint("when played: gain 1 coins to hand of you")
    assert DOT not in _hint("when played: gain 1 coins to hand you")


def test_an_event_written_with_arguments_is_hinted_to_the_names_of_its_block():
    assert EVENT in _hint("when played(c): gain 1 coins")
    assert EVENT in _hint("when played c: gain 1 coins")
    assert EVENT not in _hint('action "Go"(c): gain 1 coins')  # an action's header: another mistake
