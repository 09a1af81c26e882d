"""What `regles check` hints at a name it cannot take: for an unknown word other rules languages
use for one of ours ('this' for `self`), that name, else the nearest name of the kind wanted; for
a counter or zone kept per owner and named alone, how its owner is named; for a zone where a
number is wanted, its count."""
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


def _mod_errors(tmp_path, *abilities: str) -> list:
    """The errors of a Karman Swap mod of one card with `abilities` (its points are kept per team,
    its gems per card)."""
    from interpreter.rulings.check import check_paths
    folder = tmp_path / "mod"
    folder.mkdir()
    said = "\n".join(f"      - {a!r}" for a in abilities).replace("'", '"')
    (folder / "cards.yaml").write_text(f"""kind: cards
game: karman-swap
component: card
cards:
  - id: hinted
    title: Hinted
    colour: Rouge
    value: 3
    abilities:
{said}
""", encoding="utf-8")
    return [d for d in check_paths([str(folder)]).diagnostics if d.severity == "error"]


def test_a_counter_kept_per_owner_is_hinted_to_how_its_owner_is_named(tmp_path):
    errors = _mod_errors(tmp_path, "when posed: add 1 to pp", "when posed: add 1 to boost")
    assert [(e.message, e.hint) for e in errors] == [
        ("counter 'pp' is kept per team: say whose", "e.g. 'you.team.pp', your team's"),
        ("counter 'boost' is kept per card: say whose", "e.g. 'self.boost', the card's own")]


def test_a_zone_where_a_number_is_wanted_is_hinted_to_its_count(tmp_path):
    errors = _mod_errors(tmp_path, "when posed: add you.hand to you.team.pp")
    assert [(e.message, e.hint) for e in errors] == [
        ("the amount must be a number, not a zone", "how many it holds is a number: 'count(you.hand)'")]
