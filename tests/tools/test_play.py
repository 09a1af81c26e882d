"""`regles play`: a person plays a seat at the terminal against bots, picks among
numbered options, and is told every event, never what their seat may not see."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from functools import lru_cache

import pytest

import interpreter
from interpreter.tools.agents import HumanAgent, RandomAgent, SeatView
from interpreter.tools.cli import main
from interpreter.tools.narrate import Narrator
from interpreter.tools.play import play_at_terminal
from interpreter.tools.trace import replay

from gamekit import FIXTURES


@lru_cache(maxsize=None)
def game(name: str):
    return interpreter.load(str(FIXTURES / name))


def play(name, players, seed, answers, bots=("greedy",), seat=0, options=None, save=None):
    g = game(name)
    out = io.StringIO()
    human = HumanAgent(io.StringIO(answers), out)
    status = play_at_terminal(g, players, seed, g.options(options), list(bots), seat=seat, human=human,
                              save=save, out=out)
    return status, out.getvalue()


def test_a_whole_game(tmp_path, capsys):
    status, text = play("nim", 2, 3, "1\n" * 20, save=str(tmp_path / "t.jsonl"))
    assert status == 0
    assert text.startswith("You are player 1; the others: player 2 (greedy)")
    assert "== Nim: 2 players, seed 3 ==" in text
    assert "Take stones:\n   1. Take 1\n   2. Take 2\n   3. Take 3\n" in text
    assert "You chose: Take 1" in text and "Player 2 chose: Take " in text
    assert "Stone moved from pile to your taken" in text
    assert "points of you: +1 (now 1)" in text
    assert "Game over. " in text and re.search(r"Scores: you \d+, player 2 \d+", text)
    assert "Trace saved to" in text
    assert replay(tmp_path / "t.jsonl") == 0
    assert "identical" in capsys.readouterr().out


def test_quit_and_end_of_input_leave_cleanly(tmp_path):
    status, text = play("nim", 2, 3, "q\n", save=str(tmp_path / "t.jsonl"))
    assert status == 0 and "Game left unfinished." in text
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["result"]["finished"] is False and header["choices"] == []
    status, text = play("nim", 2, 3, "2\n")  # then the input ends
    assert status == 0 and "Game left unfinished." in text and "You chose: Take 2" in text


def test_bad_input_asks_again():
    status, text = play("nim", 2, 3, "hello\n7\n-1\n1\nq\n")
    assert status == 0
    assert text.count("please type a number from 1 to 3, or q to quit") == 3
    assert "You chose: Take 1" in text


def test_the_person_may_play_another_seat():
    status, text = play("nim", 2, 3, "1\n" * 20, seat=1, bots=("random",))
    assert status == 0 and text.startswith("You are player 2; the others: player 1 (random)")
    assert text.index("Player 1 chose") < text.index("You chose")


def test_a_fault_of_the_rules_ends_the_game_with_status_1(tmp_path, capsys):
    status, text = play("broken", 1, 1, "2\n", options={"mode": "fault"}, bots=(),
                        save=str(tmp_path / "t.jsonl"))
    err = capsys.readouterr().err
    assert status == 1 and "the game cannot go on" in err and "exploded in turn 1" in err
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["error"]["type"] == "GameFault"


# what a seat may see ----------------------------------------------------------------------

def test_play_never_tells_what_the_seat_may_not_see():
    # envoys at 4: hands are seen by their owner, 'shown' by the team (seats 1 and 3 are partners),
    # the deck and the vaults by nobody
    status, text = play("envoys", 4, 5, "1\n" * 40, bots=("random",))
    assert status == 0
    assert "a card moved from deck to player 2's hand" in text
    assert re.search(r"\w+ moved from deck to your hand", text)
    for line in text.splitlines():
        assert not re.match(r"\s+\w+ moved from deck to player \d's hand", line), line
        assert not re.match(r"Player \d chose: Bury", line), line


OWN_TEAM = {0, 2}


def seen_by_seat0(zone):
    """Whether seat 0 of a 4-player envoys game sees a zone: the oracle of the test."""
    if zone is None:
        return False
    base, _, owner = zone.partition("#")
    if base in ("table", "discard"):
        return True
    if base == "hand":
        return owner == "0"
    if base == "shown":
        return int(owner) in OWN_TEAM
    return False  # deck, vault


@pytest.mark.parametrize("seed", range(8))
def test_narration_matches_an_independent_oracle(seed):
    g = game("envoys")
    titles = {c.title for c in g.program.comp_card}
    st = g.new_state(players=4, seed=seed, trace=True)
    out = io.StringIO()
    narrator = Narrator(st, 0, out)
    agents = [RandomAgent(seed + i) for i in range(4)]
    narrator.flush()
    while not st.is_terminal():
        p = st.current_player
        a = agents[p].act(SeatView(st, p))
        narrator.before(st)
        label = st.action_label(a)
        first = len(st.trace)
        st.apply(a)
        for ev in st.trace[first:]:
            line = narrator.tell(ev) or ""
            named = [t for t in titles if t in line]
            if ev["type"] == "move":
                if seen_by_seat0(ev["from"]) or seen_by_seat0(ev["to"]):
                    assert g.program.comp_card[ev["id"]].title in line
                else:
                    assert not named and line.startswith("  a card moved"), line
            if ev["type"] == "choice" and ev["player"] != 1 and not ev["auto"]:
                if label.startswith("Bury") or (label.startswith("Show") and p not in OWN_TEAM):
                    assert not named and "an option you cannot see" in line, line
                if label.startswith("Play"):
                    assert label in line
        narrator.done = len(st.trace)


def test_narrator_for_everyone_tells_all():
    g = game("envoys")
    st = g.new_state(players=2, seed=1, trace=True)
    rng = RandomAgent(1)
    while not st.is_terminal():
        st.apply(rng.act(SeatView(st, st.current_player)))
    out = io.StringIO()
    everyone, seat0 = Narrator(st, None, out), Narrator(st, 0, io.StringIO())
    everyone.flush()
    told = out.getvalue()
    moves = [ev for ev in st.trace if ev["type"] == "move"]
    hidden_from_seat0 = 0
    for ev in moves:
        title = g.program.comp_card[ev["id"]].title
        line = everyone.tell(ev)
        assert line.startswith(f"  {title} moved") and line in told, line
        hidden_from_seat0 += seat0.tell(ev).startswith("  a card moved")
    # the moves include some a seat is not told: everyone's narrator names those too
    assert moves and hidden_from_seat0 > 0


# the command --------------------------------------------------------------------------------

def test_play_command_in_a_subprocess(tmp_path):
    trace = tmp_path / "game.jsonl"
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(FIXTURES / "nim"), "--seed", "2",
                        "--save", str(trace)], input="1\n" * 20, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Game over." in r.stdout and "Traceback" not in r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", str(FIXTURES / "nim")], input="q\n",
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Game left unfinished." in r.stdout


@pytest.mark.parametrize("args,message", [
    (["--players", "5"], "is for 2 to 2 players, not 5"),
    (["--seat", "3"], "--seat is a seat from 1 to 2, not 3"),
    (["--agents", "wise"], "unknown agent 'wise'"),
    (["--option", "nope=1"], "unknown option 'nope'"),
])
def test_play_usage_errors(capsys, args, message):
    assert main(["play", str(FIXTURES / "nim"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_play_agents_for_the_other_seats(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", str(FIXTURES / "envoys"), "--players", "3", "--agents", "random,greedy"]) == 0
    out = capsys.readouterr().out
    assert "the others: player 2 (random), player 3 (greedy)" in out
    assert main(["play", str(FIXTURES / "envoys"), "--players", "3", "--agents", "random,greedy,random"]) == 2
    assert "for the 2 other seats" in capsys.readouterr().err
