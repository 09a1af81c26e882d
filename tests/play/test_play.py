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
from interpreter.play.agents import HumanAgent, Quit, RandomAgent, SeatView
from interpreter.cli import main
from interpreter.view.narrate import Narrator
from interpreter.play.terminal import play_at_terminal
from interpreter.rulings.trace import replay

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
    assert text.startswith("You are player 1, against player 2 (greedy).\n")
    assert "== Nim: 2 players, seed 3 ==" in text
    assert "Take stones:\n   1. Take 1\n   2. Take 2\n   3. Take 3\n" in text
    assert "You chose: Take 1" in text and "Player 2 chose: 'Take " in text
    assert "Stone moved from pile to your taken" in text
    assert "your points: +1 (now 1)" in text
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
    assert status == 0 and text.startswith("You are player 2, against player 1 (random).")
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
        # what moves into another seat's hand is told as cards, never by title (nor in a list of titles)
        if re.search(r" moved from deck to player \d's hand", line):
            assert re.match(r"\s+(a card|\d+ cards) moved", line), line
        assert not re.match(r"Player \d chose: 'Bury", line), line


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
    (["--players", "5"], "is for 2 players, not 5"),
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
    assert "against player 2 (random) and player 3 (greedy)." in out
    assert main(["play", str(FIXTURES / "envoys"), "--players", "3", "--agents", "random,greedy,random"]) == 2
    assert "for the 2 other seats" in capsys.readouterr().err


# what a person is shown -----------------------------------------------------------------------

def play_cli(capsys, monkeypatch, *args, answers="q\n"):
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status = main(["play", *map(str, args)])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_the_rules_bookkeeping_is_shown_only_when_asked(capsys, monkeypatch):
    # Karman Swap declares its seat numbers and sentinels 'internal'; the round is no bookkeeping.
    # Counters come a line per player, team and the game, only those that changed (at the start:
    # those that are not 0), unless --all asks for every one of them every time
    out = play_cli(capsys, monkeypatch, "karman-swap", "--players", "4", "--seed", "2")
    assert re.search(r"^  the game: .*\bround 1\b", out, re.M)
    assert not re.search(r"^  your team: ", out, re.M)  # every score is 0 yet
    assert "turn seat" not in out and "resume seat" not in out and "first seat" not in out
    assert "counters:" not in out and "becomes posed" not in out.lower()
    out = play_cli(capsys, monkeypatch, "karman-swap", "--players", "4", "--seed", "2", "--all")
    game = next(line for line in out.splitlines() if line.startswith("  the game: "))
    assert "turn seat 0" in game and "resume seat -1" in game
    # the classes cards gain, in the game's words, and the events signalled: without --all, none
    quiet = play_cli(capsys, monkeypatch, "karman-swap", "--players", "4", "--seed", "2", answers="1\n" * 40 + "q\n")
    out = play_cli(capsys, monkeypatch, "karman-swap", "--players", "4", "--seed", "2", "--all",
                   answers="1\n" * 40 + "q\n")
    assert re.search(r"^  \S.* becomes a card whose pose was used$", out, re.M)
    assert re.search(r"^\S.* is played on an active planet$", out, re.M)
    assert "a card whose pose was used" not in quiet
    assert not re.search(r"^\S.* is played on an active planet$", quiet, re.M)  # (its optional abilities ask in its words)
    assert re.search(r"^  your team: PP 0, research gems 0", out, re.M)


def test_zones_numbered_by_their_node_come_in_numeric_order(capsys, monkeypatch):
    out = play_cli(capsys, monkeypatch, "seeders-exodus", "--players", "2", "--seed", "2", answers="1\nq\n")
    shown = [int(m) for m in re.findall(r"^  chamber (\d+): ", out, re.M)]
    assert shown == list(range(1, 13))  # not 1, 10, 11, 12, 2...


def test_at_four_players_the_partner_is_named_and_the_outcome_told_in_english(capsys, monkeypatch):
    out = play_cli(capsys, monkeypatch, FIXTURES / "envoys", "--players", "4", "--seed", "4", "--agents", "random",
                   answers="1\n" * 60)
    assert out.startswith("You are player 1, with player 3 (random) as your partner, "
                          "against player 2 (random) and player 4 (random).\n")
    over = next(line for line in out.splitlines() if line.startswith("Game over. "))
    assert re.fullmatch(r"Game over\. (Your team wins \(you and player 3\)|"
                        r"Team 2 wins \(player 2 and player 4\)|No winner)\.", over), over
    won = re.search(r"^== (you and player 3 win|player 2 and player 4 win|no winner) ==$", out, re.M)
    assert won, out[-500:]


def test_a_counter_is_named_as_it_is_said(capsys, monkeypatch):
    # named by the game's vocabulary, in the plural for a number other than 1
    out = play_cli(capsys, monkeypatch, "seeders-exodus", "--players", "2", "--seed", "2", answers="1\nq\n")
    assert re.search(r"^  you: unplaced cubes 30\b", out, re.M) and " of you" not in out
    assert re.search(r"^  player 2: unplaced cubes 30\b", out, re.M)
    assert re.search(r"^  left in supply: resources \d+", out, re.M)
    assert re.search(r"^  player 2's packet: 2 hidden cards$", out, re.M)
    assert re.search(r"^  \(your only option: .+\)$", out, re.M)


def test_a_save_file_that_cannot_be_written_is_said_before_the_game(capsys, tmp_path):
    assert main(["play", str(FIXTURES / "nim"), "--save", str(tmp_path / "missing" / "t.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert "--save: cannot write" in err and "no such folder" in err and out == ""


def test_a_person_deciding_again_is_shown_only_what_changed():
    # Bids: each player makes a sealed bid, then a stake, one after the other
    status, text = play("bids", 2, 1, "3\n2\n")
    assert status == 0
    screens = text.split("-- what you see")
    # the first decision shows the whole screen; the second, right after, only what changed
    assert len(screens) == 2
    changed = text[text.index("-- changed --"):text.index("Your stake:")]
    assert "your sealed: High" in changed and "deck: Low, Mid\n" in changed
    assert "points" not in changed  # the counters that did not change are not shown again


def test_a_whole_screen_shows_every_counter_not_only_those_that_changed(capsys, monkeypatch):
    # after the other seats decided, the screen is whole again: its zones all of them, and so its
    # counters, those that did not change since the last screen too (the cubes placed a turn ago)
    out = play_cli(capsys, monkeypatch, "seeders-exodus", "--players", "3", "--seed", "1", answers="1\n" * 60 + "q\n")
    screens = out.split("-- what you see")[1:]
    found = [re.search(r"^  you: (.*)$", screen, re.M) for screen in screens]
    assert all(found), [screen[-400:] for screen, m in zip(screens, found, strict=True) if not m][:1]
    mine = [m.group(1) for m in found]
    placed = [line for line in mine if "influence cubes" in line or "influence cube " in line]
    assert len(placed) >= 2, mine
    for line in mine:
        assert "place in the turn order 1" in line, line  # set at the start, never changed since
    first = re.search(r"influence cubes? \((.*?)\)|influence cube at (chamber \d+ = \d+)", placed[0])
    for place in (first.group(1) or first.group(2)).split(", "):
        chamber = place.split(" = ")[0]
        assert chamber in placed[1], (placed[0], placed[1])  # cubes stay where they were placed


def test_a_card_s_action_is_offered_with_what_it_does_and_a_card_is_shown_on_request():
    # the workshop: night comes, and the lamp on the bench offers its action
    g = game("workshop")
    out = io.StringIO()
    human = HumanAgent(io.StringIO("? 1\n? Saw\n? 9\n? nothing-like-this\nq\n"), out)
    st = g.new_state(2, 1)
    while st.pending is not None and not any(label.startswith("Light") for label in st.labels()):
        st.apply(next(i for i, label in enumerate(st.labels()) if label in ("Night", "Rest", "Stop")))
    with pytest.raises(Quit):
        human.act(SeatView(st, st.current_player))
    text = out.getvalue()
    assert "   1. Light\n      During night, you may tap this card to score 1 point" in text  # what it does
    assert "  Lamp\n    sort: Tool; value: 1\n    During night, you may tap this card" in text  # '? 1'
    assert "  Saw\n    sort: Tool; value: 3\n    During day, " in text and "pay 2 coins to score 2" in text
    assert "no option 9: the options are numbered 1 to 3" in text
    assert "no card 'nothing-like-this'" in text


def test_an_optional_ability_is_asked_with_what_it_does_in_the_language_chosen():
    g = interpreter.load("karman-swap")
    out = io.StringIO()
    human = HumanAgent(io.StringIO("? 1\n" + "1\n" * 40), out, lang="fr")
    play_at_terminal(g, 2, 1, g.options({}), ["greedy"], seat=0, human=human, out=out)
    text = out.getvalue()
    assert "  Mirelle\n    " in text  # '? 1': the planet of the first option, as printed
    # the question in French too: what happened (the event's French phrase), then whether to use it
    asked = re.search(r"\nOn joue (.+) sur une planète active : l'utiliser \?\n      \((.+)\)\n   1\. oui\n"
                      r"   2\. non\n", text)
    assert asked, text[-3000:]
    assert "(posed)" not in text and "\n   1. yes" not in text
    # the pose as the card prints it, in French: its keyword, then the keyword's printed text
    face = asked.group(2).split(" : ")[1]
    g_fr = [kw.texts["fr"] for kw in g.program.defn.keywords if kw.texts.get("fr")]
    assert face in [str(t) for t in g_fr] and face[:1].isupper() and "{" not in face


def test_bot_shows_what_the_last_bot_weighed_at_its_decision():
    # before any bot has decided, 'bot' says so; after the greedy bot's first move of Nim, it
    # shows each of its options with the value greedy gave it, and the one it took
    status, text = play("nim", 2, 3, "bot\n1\nbot\n" + "1\n" * 20)
    assert status == 0
    assert "no bot has weighed options yet in this game" in text
    shown = text.split("player 2, asked '", 1)[1].split("your choice", 1)[0]
    assert "greedy weighs each option by its outcome for the seat and the game's heuristic after it" in shown
    rows = [line for line in shown.splitlines() if re.match(r"^    [* ][> ] \S", line)]
    assert len(rows) >= 2 and sum(1 for line in rows if line.startswith("    *")) == 1
    said = re.search(r"Player 2 chose: '([^']+)'", text)
    assert said and any(said.group(1).strip() in line for line in rows if line.startswith("    *"))
