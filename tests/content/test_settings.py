"""Cards' attributes set at load (`load(settings=...)`, `--set CARD.ATTRIBUTE=VALUE`): the game
plays with the value set, records it in saves and traces, lays it again on replay, and says
what is wrong with a setting that names no card, no attribute or a value of another type."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import interpreter
from interpreter.engine.savefile import SaveError
from interpreter.engine.serial import read_laid
from interpreter.rulings.trace import make_header, replay, write_trace
from interpreter.runs import simulate as S

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runs"))
from test_compare import run_cli, write_duel  # noqa: E402  (the duel: seat 2 wins only with the crown)


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    return write_duel(tmp_path_factory.mktemp("settings") / "duel")


def _winners(game, seeds) -> list:
    out = []
    for seed in seeds:
        state, exc, _ = S.play_game(game, 2, seed, {}, ["random", "random"])
        assert exc is None
        out.append(tuple(state.winners))
    return out


def test_a_value_set_is_played_as_if_printed(duel):
    as_printed = interpreter.load(duel)
    cheap = interpreter.load(duel, settings={"crown.value": "1"})
    assert [c.attrs["value"] for c in cheap.program.defn.cards if c.id == "crown"] == [1]
    assert [c.attrs["value"] for c in as_printed.program.defn.cards if c.id == "crown"] == [5]  # its own copy
    printed, set_ = _winners(as_printed, range(40)), _winners(cheap, range(40))
    assert (1,) in printed  # the crown worth 5 wins seat 2 some games
    assert set(set_) == {(0,)}  # worth 1, seat 2's single card never beats seat 1's two
    assert cheap.layers_json()["set"] == [["crown", "value", 1]]
    assert "set" not in as_printed.layers_json()


def test_a_state_and_a_trace_remember_the_value_set(duel, tmp_path):
    game = interpreter.load(duel)
    cheap = game.with_layers(settings=[("crown", "value", 1)])
    state, exc, _ = S.play_game(cheap, 2, 5, {}, ["random", "random"], trace=True)
    assert exc is None
    restored = game.state_from_json(state.to_json())
    assert restored.program is cheap.program  # the variant with the value set, not the game as printed
    path = tmp_path / "t.jsonl"
    write_trace(path, cheap, make_header(cheap, 2, 5, {}, state.history, agents=["random", "random"], source=duel),
                state.trace)
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["layers"]["set"] == [["crown", "value", 1]]
    assert replay(str(path), out=io.StringIO(), err=io.StringIO()) == 0


@pytest.mark.parametrize("settings,message", [
    ({"crwn.value": 1}, "--set: no card 'crwn' in duel; did you mean 'crown'"),
    ({"crown.valeu": 1}, "a card has no attribute 'valeu'; did you mean 'value'"),
    ({"crown.value": "five"}, "'five' is not a whole number"),
    ({"crown.value": True}, "'true' is not a whole number"),
    (["crown.value"], "write CARD.ATTRIBUTE=VALUE"),
    ([("crown", "value", 1.5)], "is no setting"),
])
def test_a_setting_the_game_cannot_take_is_said_so(duel, settings, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        interpreter.load(duel, settings=settings)


@pytest.mark.parametrize("value", [[["crown", "value"]], "crown.value=1", [["crown", 3, 1]], [["crown", "value", None]]])
def test_a_saved_setting_of_the_wrong_shape_is_said_so(value):
    with pytest.raises(SaveError, match="must be a list of \\[card, attribute, value\\]"):
        read_laid({"expansions": [], "scenario": None, "mods": [], "set": value})


def test_the_command_line_sets_values_and_says_what_it_cannot(duel, tmp_path, capsys):
    out1, out2 = tmp_path / "one.json", tmp_path / "two.json"
    for path, workers in ((out1, "1"), (out2, "2")):
        status, out, err = run_cli(capsys, "simulate", duel, "--set", "crown.value=1", "--games", "30", "-q",
                                   "--workers", workers, "--json", str(path))
        assert status == 0, err
    one, two = (json.loads(p.read_text(encoding="utf-8")) for p in (out1, out2))
    assert one["wins"] == two["wins"] == [30, 0]  # the workers set the value too
    status, out, err = run_cli(capsys, "simulate", duel, "--set", "crown.value=x", "-q")
    assert status == 2 and "--set crown.value: 'x' is not a whole number" in err
    status, out, err = run_cli(capsys, "simulate", duel, "--set", "crown", "-q")
    assert status == 2 and "write CARD.ATTRIBUTE=VALUE" in err
