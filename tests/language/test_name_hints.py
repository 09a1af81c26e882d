"""What `regles check` hints at an unknown name: for a word other rules languages use for one
of ours ('this' for `self`), that name; else the nearest name of the kind wanted."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.language.builtins import ALSO_CALLED, FUNCTIONS, PROPERTIES, SPECIAL_NAMES

from gamekit import CARDS, make_game


def _errors(tmp_path, ability: str) -> list:
    cards = CARDS.replace('"when played: gain 1 coins"', ability)
    assert cards != CARDS
    with pytest.raises(interpreter.LoadError) as err:
        make_game(tmp_path, "game: |\n  pass\n", cards)
    return [d for d in err.value.report.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("word, meant", [("this", "self"), ("it", "self"), ("myself", "you"),
                                         ("active_player", "you")])
def test_a_word_of_another_language_is_hinted_to_the_name_it_stands_for(word, meant, tmp_path):
    if meant == "self":
        ability = f'"when played: move {word} to pile"'
    else:
        ability = f'"when played: gain 1 coins to {word}"'
    errors = _errors(tmp_path, ability)
    assert [(e.code, e.message) for e in errors] == [("N010", f"unknown name '{word}'")]
    assert errors[0].hint == f"write '{meant}': {SPECIAL_NAMES[meant].doc}"


def test_a_name_near_one_of_the_game_is_hinted_to_it(tmp_path):
    errors = _errors(tmp_path, '"when played: move slef to pile"')
    assert [(e.code, e.message) for e in errors] == [("N010", "unknown name 'slef'")]
    assert "self" in errors[0].hint and "write" not in errors[0].hint


def test_the_words_hinted_are_no_names_of_the_language():
    # a word the language knows (a function, a property) is never taken for another's word
    assert ALSO_CALLED and not [w for w in ALSO_CALLED if w in FUNCTIONS or w in PROPERTIES or w in SPECIAL_NAMES]
    assert set(ALSO_CALLED.values()) <= set(SPECIAL_NAMES)
