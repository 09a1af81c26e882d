"""The options of a play, whatever their source: text from the command line is read as the
option's type; a value from JSON or Python must be of it (engine.options)."""
from __future__ import annotations

import json

import pytest

from gamekit import fixture_game


@pytest.fixture(scope="module")
def game():
    return fixture_game("docs-game")  # short: yes/no, default false; market_size: one of 3, 4, 5


@pytest.mark.parametrize("given, taken", [
    ({"short": "yes"}, {"short": True}), ({"short": "Off"}, {"short": False}), ({"short": "1"}, {"short": True}),
    ({"short": True}, {"short": True}), ({"market_size": "5"}, {"market_size": 5}),
    ({"market_size": 3}, {"market_size": 3}), ({"market_size": 5.0}, {"market_size": 5}),  # JSON's 5.0 is 5
    (json.loads('{"short": false, "market_size": 3}'), {"short": False, "market_size": 3}),
])
def test_text_and_values_of_the_right_type_are_taken(game, given, taken):
    assert game.options(given) == {"short": False, "market_size": 4, **taken}


@pytest.mark.parametrize("given, message", [
    ({"short": 17}, "option 'short' is true or false, not 17"),
    ({"short": {}}, "option 'short' is true or false, not a mapping"),
    ({"short": [True]}, "option 'short' is true or false, not a list"),
    ({"short": None}, "option 'short' is true or false, not null"),
    ({"short": 1}, "option 'short' is true or false, not 1"),
    ({"short": "maybe"}, "option 'short' is true or false, not 'maybe'"),
    ({"market_size": True}, "option 'market_size' is one of 3, 4, 5, not true"),  # though True == 1 in Python
    ({"market_size": None}, "option 'market_size' is one of 3, 4, 5, not null"),
    ({"market_size": {"n": 4}}, "option 'market_size' is one of 3, 4, 5, not a mapping"),
    ({"market_size": [4]}, "option 'market_size' is one of 3, 4, 5, not a list"),
    ({"market_size": 4.5}, "option 'market_size' is one of 3, 4, 5, not 4.5"),
    ({"market_size": "9"}, "option 'market_size' is one of 3, 4, 5, not '9'"),
    ({"market_size": 10 ** 400}, "option 'market_size' is one of 3, 4, 5, not a number beyond what a game keeps"),
    ([("short", True)], "options are a mapping of option names to values, not a list"),
    ({3: True}, "unknown option '3' (options: short, market_size)"),
])
def test_a_value_of_another_type_is_refused_in_one_sentence(game, given, message):
    with pytest.raises(ValueError) as err:
        game.options(given)
    assert str(err.value) == message


def test_a_new_state_refuses_them_too(game):
    with pytest.raises(ValueError, match="^option 'short' is true or false, not a list$"):
        game.new_state(2, options={"short": []})
