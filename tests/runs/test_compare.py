"""`regles compare`: the same seeds played with and without a change, and the paired
differences between them; cards left out of a game (`load(without=...)`)."""
from __future__ import annotations

import io
import json
import textwrap

import pytest

import interpreter
from interpreter.runs import compare as C
from interpreter.runs import simulate as S
from interpreter.cli import main
from interpreter.rulings.trace import make_header, replay, write_trace

# Seat 1 draws two cards, seat 2 one; the higher total wins, a tie goes to seat 2. With the
# crown (5) in the deck, seat 2 wins whenever it draws it; without it, seat 1 always wins.
GAME = """\
kind: game
id: duel
title: Duel
players: {{min: 2, max: 2}}
attributes:
  value: {{type: number, default: 1}}
zones:
  deck: {{scope: game, visibility: hidden}}
  hand: {{scope: player, visibility: owner}}
counters:
  points: {{scope: player}}
score: points
procedures:
  game: |
    shuffle deck
    let a = players[1]
    let b = players[2]
    repeat 2 times:
      move top(deck) to a.hand
    move top(deck) to b.hand
    for each p in players:
      choose by p "Ready?":
        option "Ready":
          score 0 to p
        option "Go":
          score 0 to p
    for each p in players:
      for each c in p.hand:
        score c.value to p
    if a.points > b.points:
      win a
    else:
      win b
{more}
"""

CARDS = """\
kind: cards
game: duel
start: deck
cards:
  - {id: copper, title: Copper, copies: 3}
  - {id: crown, title: Crown, value: 5}
"""

TESTS = """\
kind: rules-test
game: duel
tests:
  - name: the crown counts five
    given: |
      move card("crown") to players[2].hand
    then:
      - "count(players[2].hand) == 1"
"""


def write_duel(folder, more: str = "", tests: bool = False):
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(more=textwrap.indent(more, "  ")), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    if tests:
        (folder / "tests.yaml").write_text(TESTS, encoding="utf-8")
    return str(folder)


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    return write_duel(tmp_path_factory.mktemp("compare") / "duel", tests=True)


@pytest.fixture(scope="module")
def spare_mod(tmp_path_factory):
    """A mod that changes nothing that is played: a card that starts in no zone."""
    f = tmp_path_factory.mktemp("mod") / "spare.yaml"
    f.write_text("kind: cards\ngame: duel\ncards:\n  - {id: spare, title: Spare, value: 9}\n", encoding="utf-8")
    return str(f)


def run_cli(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# cards left out -------------------------------------------------------------------------

def test_without_leaves_every_copy_out_and_the_rules_tests(duel):
    game = interpreter.load(duel, tests=True)
    assert [t.name for t in game.program.defn.tests] == ["the crown counts five"]
    less = interpreter.load(duel, without=["copper"], tests=True)
    assert [c.id for c in less.program.defn.cards] == ["crown"]
    assert less.program.defn.tests == []  # they may set up the card left out
    st = less.new_state(2, seed=3)
    assert sum(len(z) for z in st.zones.values()) == 1  # the crown alone: no copper was dealt
    assert less.layers_json()["without"] == ["copper"]
    assert "without" not in game.layers_json()


def test_without_an_unknown_card_names_the_likely_one(duel):
    with pytest.raises(ValueError, match="no card 'crwn' in duel; did you mean 'crown'"):
        interpreter.load(duel, without=["crwn"])


def test_a_state_and_a_trace_of_a_game_without_a_card_restore_it(duel, tmp_path):
    game = interpreter.load(duel)
    less = game.with_layers(without=["crown"])
    state, exc, _ = S.play_game(less, 2, 5, {}, ["random", "random"], trace=True)
    assert exc is None
    restored = game.state_from_json(state.to_json())
    assert restored.program is less.program  # the variant without the crown, not the whole game
    path = tmp_path / "t.jsonl"
    write_trace(path, less, make_header(less, 2, 5, {}, state.history, agents=["random", "random"], source=duel),
                state.trace)
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["layers"]["without"] == ["crown"]
    assert replay(str(path), out=io.StringIO(), err=io.StringIO()) == 0


# the comparison --------------------------------------------------------------------------

def test_removing_the_strong_card_raises_seat_one_s_win_rate(duel, tmp_path, capsys):
    out_json = tmp_path / "c.json"
    status, out, err = run_cli(capsys, "compare", duel, "--without", "crown", "--games", "300", "--seed", "4",
                               "--json", str(out_json), "-q")
    assert status == 0, err
    d = json.loads(out_json.read_text(encoding="utf-8"))
    assert d["pairs"] == 300 and d["change"] == {"without": ["crown"], "titles": ["Crown"]}
    one, two = (row["win_rate"] for row in d["seats"])
    assert one["changed"] == 1.0  # without the crown seat 1 always has the higher total
    assert 0.6 < one["base"] < 0.9  # with it, seat 2 wins when it draws the crown (1 in 4)
    assert one["difference"]["mean"] > 0 and one["difference"]["low"] > 0  # the interval excludes 0
    assert two["difference"]["mean"] < 0 and two["difference"]["high"] < 0
    score = d["seats"][0]["mean_score"]["difference"]
    assert score["high"] < 0  # seat 1 loses the crown's points when it drew it
    assert "win rate" in out and "without Crown" in out and "95% CI" in out


def test_identical_arms_give_exactly_no_difference(duel, spare_mod, tmp_path, capsys):
    # common random numbers: game i of both arms has the same seed and the same agents' seeds
    out_json = tmp_path / "same.json"
    status, _, err = run_cli(capsys, "compare", duel, "--variant", spare_mod, "--games", "80", "--json",
                             str(out_json), "-q", "--workers", "2")
    assert status == 0, err
    d = json.loads(out_json.read_text(encoding="utf-8"))
    assert d["pairs"] == 80
    figures = [row["mean_score"] for row in d["seats"]] + [d["decisions_per_game"]]
    for f in figures:
        assert f["base"] == f["changed"]
        assert f["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "pairs": 80}
    for row in d["seats"]:  # Newcombe's interval: no discordant pair in 80 still leaves a little doubt
        f = row["win_rate"]
        assert f["base"] == f["changed"] and f["difference"]["mean"] == 0.0 and f["difference"]["pairs"] == 80
        assert -0.05 < f["difference"]["low"] < 0 < f["difference"]["high"] < 0.05
    assert 0 < d["seats"][0]["win_rate"]["base"] < 1  # the games themselves differ from one seed to the next


def test_paired_interval():
    assert C.paired([]) == {"mean": None, "low": None, "high": None, "pairs": 0}
    assert C.paired([1]) == {"mean": 1, "low": None, "high": None, "pairs": 1}
    d = C.paired([0, 1, 0, 1])  # mean 0.5, sd 0.5774, half 1.96 * 0.5774 / 2
    assert d["mean"] == 0.5 and d["low"] == pytest.approx(0.5 - 0.5658, abs=1e-3)
    assert d["high"] == pytest.approx(0.5 + 0.5658, abs=1e-3)


# usage errors ---------------------------------------------------------------------------

def test_a_card_named_in_the_rules_cannot_be_left_out(tmp_path, capsys):
    game = write_duel(tmp_path / "named", more="crowned:\n  params: [p]\n  body: |\n"
                                               "    move card(\"crown\") to p.hand\n")
    status, _, err = run_cli(capsys, "compare", game, "--without", "crown", "--games", "2")
    assert status == 2
    assert "--without crown: the rules name this card by id" in err
    assert "game.yaml:" in err  # where it is named


@pytest.mark.parametrize("args,message", [
    (["--without", "crwn"], "no card 'crwn' in duel; did you mean 'crown'"),
    (["--without", ","], "--without takes the ids of cards"),
    (["--variant", "/no/such/mod"], "--variant /no/such/mod: no such file or folder"),
    (["--without", "crown", "--games", "0"], "--games must be at least 1"),
    (["--without", "crown", "--agents", "nobody"], "nobody"),
    (["--without", "crown", "--variant", "x"], "not allowed with argument"),
    ([], "one of the arguments --without --variant --change is required"),
])
def test_usage_errors(duel, capsys, args, message):
    status, _, err = run_cli(capsys, "compare", duel, *args)
    assert status == 2
    assert message in err


def test_a_variant_that_does_not_check_is_a_content_error(duel, tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: cards\ngame: duel\nstart: nowhere\ncards:\n  - {id: x, title: X}\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "compare", duel, "--variant", str(bad), "--games", "2")
    assert status == 1
    assert "bad.yaml:3:8: error[N001]: unknown zone 'nowhere'" in err
