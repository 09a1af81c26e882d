"""Faults of a running game name zones and components as the rules do ("player 1's table",
'Two (component 1)'), never by the keys a state keeps them under (`table#0`)."""
from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.engine.state import GameFault

from gamekit import CARDS, GAME


def _load(tmp_path, procedures: str, zones_extra: str = ""):
    folder = tmp_path / "tiny"
    folder.mkdir()
    text = GAME.format(procedures=textwrap.indent(procedures, "  "))
    text = text.replace("table: {scope: player, in_play: true}", "table: {scope: player, in_play: true, capacity: 1}")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return interpreter.load(str(folder))


def test_a_full_zone_of_a_player_is_named_as_players_name_it(tmp_path):
    game = _load(tmp_path, 'game: |\n  move card("one") to players[2].table\n  move card("two") to players[2].table\n')
    with pytest.raises(GameFault) as fault:
        game.new_state(2, 1)
    assert "player 2's table is full (it holds at most 1)" in str(fault.value)
    assert "#" not in str(fault.value)


def test_a_component_given_where_a_player_is_wanted_is_named_by_its_card(tmp_path):
    game = _load(tmp_path, 'game: |\n  win card("two")\n')
    with pytest.raises(GameFault) as fault:
        game.new_state(2, 1)
    assert "only players or teams can win, not Two (component 1)" in str(fault.value)

