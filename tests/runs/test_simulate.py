"""`regles simulate`, the invariants, and random play in the style of
OpenSpiel's random_sim_test on each fixture game: clones behave as the
original, a state saved to JSON mid-game continues the same, the invariants
hold after every step."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
from rich.console import Console

import interpreter
from interpreter.runs import report_text as R
from interpreter.runs import simulate as S
from interpreter.cli import main
from interpreter.engine.invariants import InvariantError, Invariants
from interpreter.engine.values import Rng, ZoneRef

from gamekit import FIXTURES, make_game
GAMES = [("nim", 2, {}), ("nim", 2, {"misere": True, "most": 2}), ("envoys", 2, {}), ("envoys", 3, {}),
         ("envoys", 4, {}), ("broken", 2, {"mode": "fine"}), ("docs-game", 4, {})]


@lru_cache(maxsize=None)
def game(name: str):
    return interpreter.load(str(FIXTURES / name))


def _json(st):
    return json.dumps(st.to_json(), sort_keys=True)


# random play ----------------------------------------------------------------------------

@pytest.mark.parametrize("name,players,options", GAMES)
def test_random_sim(name, players, options):
    g = game(name)
    for seed in range(12):
        rng = Rng(seed)
        st = g.new_state(players=players, seed=seed, options=options)
        inv = Invariants(st)
        saved = None
        steps = 0
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal and len(st.labels()) == len(legal) and st.current_player in range(players)
            obs = st.observation(st.current_player)
            json.dumps(obs)
            assert obs["options"] == st.labels()
            a = legal[rng.below(len(legal))]
            twin = st.clone()
            assert _json(twin) == _json(st)
            st.apply(a)
            twin.apply(a)
            assert _json(twin) == _json(st), "a clone given the same action must reach the same state"
            inv.check(st)
            steps += 1
            if steps == 3:
                saved = (st.to_json(), len(st.history))
        assert st.current_player == -1 and st.legal_actions() == []
        r = st.returns()
        assert len(r) == players and (all(x == 0 for x in r) or sorted(set(r)) in ([1.0], [-1.0, 1.0]))
        if saved is not None:  # restored mid-game, the same choices give the same end
            data, k = saved
            restored = g.state_from_json(json.loads(json.dumps(data)))
            for a in st.history[k:]:
                restored.apply(a)
            assert _json(restored) == _json(st)


def test_clone_does_not_share_state():
    g = game("envoys")
    st = g.new_state(players=2, seed=4)
    before = _json(st)
    c = st.clone()
    while not c.is_terminal():
        c.apply(c.legal_actions()[-1])
    assert _json(st) == before


# invariants ----------------------------------------------------------------------------

def _state():
    g = game("envoys")
    st = g.new_state(players=2, seed=4)
    return st, Invariants(st)


def test_invariants_catch_a_duplicated_card():
    st, inv = _state()
    c = st.zones["hand#0"][0]
    st.zones["hand#1"].append(c)
    with pytest.raises(InvariantError, match=rf"component {int(c)} \(\w+\) is in two places: zones hand#0 and hand#1"):
        inv.check(st)


def test_invariants_catch_a_lost_card():
    st, inv = _state()
    c = st.zones["deck"].pop()
    with pytest.raises(InvariantError, match=rf"component {int(c)} \(\w+\) is in no zone \(the state says deck\)"):
        inv.check(st)
    st.where[c] = None
    with pytest.raises(InvariantError, match=rf"component {int(c)} .* is in no zone \(the state says no zone\)"):
        inv.check(st)


def test_invariants_catch_a_misplaced_card():
    st, inv = _state()
    c = st.zones["hand#0"][0]
    st.where[c] = ZoneRef("hand#1")
    with pytest.raises(InvariantError, match="lies in zone hand#0 but the state says it is in hand#1"):
        inv.check(st)


def test_invariants_catch_counters_out_of_bounds_and_supplies_not_conserved():
    st, inv = _state()
    st.counters["favor#0"] = -1
    with pytest.raises(InvariantError, match="counter favor#0 is -1, below its floor 0"):
        inv.check(st)
    st.counters["favor#0"] = 2  # two favours out of nowhere
    with pytest.raises(InvariantError, match="the supply of favor is not conserved: .* add up to 8, not 6"):
        inv.check(st)
    st.counters["$favor"] = -2
    with pytest.raises(InvariantError, match="the supply of favor is negative"):
        inv.check(st)


def test_kept_counters_go_back_to_their_supply():
    st, inv = _state()
    g = st.program
    patron = next(c for c in g.comps if g.comp_card[c].id == "patron")
    cdef = g.counters["blessing"]  # the engine's spec of the counter, as the rules give it
    st.move(patron, ZoneRef("table#0"), False, None)
    st.add(f"blessing#{int(patron)}", cdef, 3, None)
    assert st.counters["$blessing"] == 1
    inv.check(st)
    st.move(patron, ZoneRef("discard"), False, None)  # blessings are kept only on the table
    assert st.counters["$blessing"] == 4 and st.counters[f"blessing#{int(patron)}"] == 0
    inv.check(st)


def test_initial_values_are_taken_from_the_supply():
    g = game("docs-game")  # coins: supply 50, initial 3
    st = g.blank_state(players=2, seed=1)
    assert st.counters["coins#0"] == 3 and st.counters["coins#1"] == 3 and st.counters["$coins"] == 44
    inv = Invariants(st)
    assert not any("coins" in n for n in inv.notes)


def test_invariants_bound_the_game():
    g = game("broken")
    st = g.new_state(players=1, seed=1, options={"mode": "endless"})
    inv = Invariants(st, max_decisions=50)
    with pytest.raises(InvariantError, match="did not end: more than 50 decisions"):
        while True:
            st.apply(0)
            inv.check(st)


SPARE = """\
kind: cards
game: tiny
cards:
  - {id: spare, title: Spare}
"""


def test_a_component_with_no_starting_zone_is_not_required_in_one(tmp_path):
    make_game(tmp_path, textwrap.dedent("""\
        game: |
          move deck to players[1].hand
          choose c from players[1].hand by players[1] "Card to play"
          move c to players[1].table
        """))
    (tmp_path / "tiny" / "spare.yaml").write_text(SPARE, encoding="utf-8")  # a card file with no start
    g = interpreter.load(str(tmp_path / "tiny"))
    spare = int(g.program.cards_by_id["spare"][0])
    st = g.new_state(players=2, seed=1)
    assert st.where[spare] is None
    inv = Invariants(st)  # checks the state it starts from
    st.apply(0)
    inv.check(st)
    assert st.where[spare] is None and st.is_terminal()
    # a placed component, though, must stay in a zone
    played = st.zones["table#0"][0]
    st.zones["table#0"].remove(played)
    with pytest.raises(InvariantError, match=rf"component {int(played)} \(\w+\) is in no zone"):
        inv.check(st)


# runs ------------------------------------------------------------------------------------

def spec(name, players=2, games=20, seed=1, agents=None, options=None, **kw):
    g = game(name)
    return g, S.RunSpec(str(FIXTURES / name), players, seed, games, agents or ["random"] * players,
                        g.options(options), **kw)


def summary(name, workers=1, **kw):
    g, sp = spec(name, **kw)
    results, seconds = S.run(g, sp, workers)
    return R.summarise(g, sp, results, seconds)


def test_same_seed_same_results_different_seed_different():
    a = summary("envoys", players=3, games=30, seed=5, agents=["greedy", "random", "random"])
    b = summary("envoys", players=3, games=30, seed=5, agents=["greedy", "random", "random"])
    c = summary("envoys", players=3, games=30, seed=6, agents=["greedy", "random", "random"])
    assert R.comparable(a) == R.comparable(b)
    assert R.comparable(a) != R.comparable(c)


def test_workers_do_not_change_results(tmp_path):
    one = summary("envoys", players=4, games=40, seed=3, agents=["greedy", "random", "random", "greedy"])
    two = summary("envoys", players=4, games=40, seed=3, agents=["greedy", "random", "random", "greedy"],
                  workers=2)
    assert R.comparable(one) == R.comparable(two)


def test_summary_counts_wins_draws_and_teams():
    s = summary("envoys", players=4, games=60, seed=2)
    assert s["games"] == 60 and s["completed"] == 60 and s["errors"] == []
    assert s["teams"] == [[1, 3], [2, 4]]
    assert s["wins"][0] == s["wins"][2] == s["team_wins"][0]
    assert sum(s["team_wins"]) + s["draws"] == 60
    assert s["draws"] > 0
    for r in s["win_rates"] + s["team_win_rates"]:
        assert 0 <= r["low"] <= r["rate"] <= r["high"] <= 1
    assert len(s["mean_scores"]) == 4 and s["decisions_per_game"] > 0
    assert s["games_per_second"] > 0 and s["decisions_per_second"] > 0
    assert "teams" not in summary("envoys", players=2, games=5)


def fabricated(name, players, outcomes, credits=None, **kw):
    """The summary of a run whose games ended with the given winners (seats from 0)."""
    g, sp = spec(name, players=players, games=len(outcomes), **kw)
    results = [S.GameResult(i, S.seed_for(1, i), list(w) if w else None, [0] * players, 10,
                            credits=(credits or {}).get(i, []))
               for i, w in enumerate(outcomes)]
    return R.summarise(g, sp, results, 1.0)


def render(summary) -> str:
    out = io.StringIO()
    R.render(summary, Console(file=out, width=120))
    return out.getvalue()


def test_a_win_rate_s_interval_stays_on_one_line_in_a_narrow_terminal():
    """'30.7%–60.2%', a range closed up around its dash: a seats' table as wide as a shipped game's
    with a column of its own (rounds won) at 80 columns is kept whole, no interval broken over two
    lines (this one, narrower, at 58)."""
    s = fabricated("envoys", 2, [(0,), (1,), (0,), (0,), (1,), None])
    out = io.StringIO()
    R.render(s, Console(file=out, width=58))
    rows = [line for line in out.getvalue().splitlines() if line.startswith("│")]
    assert rows and all(re.search(r"\d%–\d", line) for line in rows if "random" in line or "greedy" in line), rows
    assert all(len(line) <= 58 for line in out.getvalue().splitlines() if line[:1] in "┏┃┡│└"), out.getvalue()
    assert not any(re.search(r"%\s*–\s*│|│\s*\d+\.\d%\s*│\s*$", line) for line in rows)


def test_a_team_win_counts_once_and_a_tie_is_no_win():
    # envoys at 4: seats 1 and 3 against 2 and 4
    s = fabricated("envoys", 4, [(0, 2), (0, 2), (1, 3), (0, 1, 2, 3), None])
    assert s["team_wins"] == [2, 1] and s["team_tied"] == [1, 1]
    assert (s["won"], s["ties"], s["draws"], s["completed"]) == (3, 1, 1, 5)
    assert s["team_win_rates"][0]["rate"] == 0.4
    text = render(s)
    seats, teams = text.split("teams", 1)
    assert "wins" not in seats and "win rate" not in seats  # the seat table leaves wins to the teams
    assert re.search(r"│ +1 │ 1 \(random\), 3 \(random\) │ +2 │ +1 │ +40\.0% │", teams)
    assert "completed 5 of 5 games: 3 won, 1 tied (the win shared by rival teams), 1 with no winner" in text


def test_a_tie_between_players_is_counted_apart():
    s = fabricated("envoys", 3, [(0,), (0, 1), (2,), None], credits={1: [["herald", 0, 3]], 0: [["herald", 0, 1]]},
                   by=["colour"])
    assert s["wins"] == [1, 0, 1] and s["tied"] == [1, 1, 0]
    assert (s["won"], s["ties"], s["draws"]) == (2, 1, 1)
    assert "teams" not in s
    # a card that scored for seat 1 in a game won and in a game tied: its seat won 1 of the 2
    [card] = s["cards"]
    assert card["card"] == "herald" and card["points_per_game"] == 1.0 and card["owner_win_rate"]["rate"] == 0.5
    [red] = s["by"]["colour"]
    assert red["value"] == "Red" and red["lead_win_rate"]["rate"] == 0.5
    text = render(s)
    # the card named by its title, as the table of what cards do names it
    assert card["title"] == "Herald" and re.search(r"│ Herald +│ +1\.00 │", text), text
    assert re.search(r"│ +1 │ random │ +1 │ +1 │ +25\.0% │", text)


def test_wilson_interval():
    assert R.wilson(0, 10)[0] == 0.0
    low, high = R.wilson(5, 10)
    assert abs(low - 0.2366) < 1e-3 and abs(high - 0.7634) < 1e-3
    assert R.wilson(0, 0) == (0.0, 1.0)


def test_errors_are_recorded_and_the_run_goes_on(tmp_path):
    s = summary("broken", players=1, games=12, seed=4, options={"mode": "fault"}, trace_dir=str(tmp_path))
    errors = s["errors"]
    assert 0 < len(errors) < 12 and s["completed"] == 12 - len(errors)
    for e in errors:
        assert set(e) == {"seed", "index", "message", "trace"}
        assert "broken/game.yaml:" in e["message"] and "failed: exploded in turn" in e["message"]
        assert e["seed"] == S.seed_for(4, e["index"])
        lines = Path(e["trace"]).read_text().splitlines()
        header = json.loads(lines[0])
        assert header["seed"] == e["seed"] and header["error"]["type"] == "GameFault"
        assert [json.loads(x)["type"] for x in lines[-2:]] == ["choice", "fail"]
        assert json.loads(lines[-2])["label"] == "Explode"


def test_a_game_that_does_not_end_is_an_error(tmp_path):
    s = summary("broken", players=1, games=1, options={"mode": "endless"}, max_decisions=100,
                trace_dir=str(tmp_path))
    assert [e["message"] for e in s["errors"]] == ["did not end: more than 100 decisions"]


def test_greedy_lookahead_fault_is_the_game_s_error(tmp_path):
    s = summary("broken", players=2, games=3, options={"mode": "fault"}, agents=["greedy", "greedy"],
                trace_dir=str(tmp_path))
    assert len(s["errors"]) == 3  # greedy looks at Explode first thing: the fault is found and reported


# the command -------------------------------------------------------------------------------

def run_cli(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_simulate_command_json(tmp_path, capsys):
    nim = str(FIXTURES / "nim")
    files = []
    for workers in ("1", "2"):
        f = tmp_path / f"run{workers}.json"
        status, out, err = run_cli(capsys, "simulate", nim, "--games", "30", "--seed", "9", "--agents",
                                   "greedy,random", "--check", "--json", str(f), "--workers", workers)
        assert status == 0, err
        assert "win rate" in out and "95% CI" in out and "games/s" in out and "decisions/s" in out
        assert "━" not in err  # no progress bar when stderr is not a terminal
        files.append(json.loads(f.read_text()))
    for key in ("games", "errors", "wins", "mean_scores", "decisions_per_game", "games_per_second",
                "decisions_per_second", "draws", "win_rates"):
        assert key in files[0]
    assert R.comparable(files[0]) == R.comparable(files[1])
    assert files[0]["agents"] == ["greedy", "random"] and files[0]["games"] == 30


def test_simulate_command_errors_exit_1(tmp_path, capsys):
    status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "broken"), "--games", "5", "--seed", "4",
                               "--trace-dir", str(tmp_path / "tr"))
    assert status == 1
    assert "error in game " in out and "(seed " in out and "trace: " in out
    assert list((tmp_path / "tr").iterdir())


@pytest.mark.parametrize("args,message", [
    (["--players", "3"], "Nim is for 2 players, not 3"),
    (["--option", "colour=red"], "unknown option 'colour'"),
    (["--option", "most=9"], "option 'most' is one of 2, 3, not '9'"),
    (["--option", "most"], "--option takes KEY=VALUE"),
    (["--agents", "clever"], "unknown agent 'clever'"),
    (["--agents", "random,random,random"], "3 agents for 2 players"),
    (["--games", "0"], "--games must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--by", "wieght"], "--by: nim has no attribute 'wieght'; did you mean 'weight'? (attributes: weight)"),
    (["--json", "no-such-folder/run.json"], "--json: cannot write no-such-folder/run.json: no such folder"),
    (["--json", "."], "--json: . is a folder; give a file name"),
])
def test_simulate_usage_errors_exit_2(capsys, args, message):
    status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), *args)
    assert status == 2 and message in err


def test_output_paths_are_checked_before_the_first_game(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    for args, message in [(["--trace-dir", str(afile / "traces")], f"{afile} is not a folder"),
                          (["--trace-dir", str(afile)], f"{afile} is not a folder"),
                          (["--json", str(afile / "run.json")], "no such folder")]:
        status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--games", "5", *args)
        assert status == 2 and message in err, err
        assert out == "" and "playing" not in err  # no game was played
    status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--games", "2",
                               "--trace-dir", str(tmp_path / "new" / "traces"), "--json", str(tmp_path / "r.json"))
    assert status == 0 and json.loads((tmp_path / "r.json").read_text())["games"] == 2


def _as_at_a_terminal() -> None:
    """The command's process as a shell starts it: Ctrl-C neither ignored nor blocked. A test
    process may have inherited either (a signal ignored or blocked is kept across exec), and
    the command would then play its ten million games."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_reports_the_games_played_without_tracebacks(workers):
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", str(FIXTURES / "envoys"), "-n", "4",
                             "--games", "10000000", "--workers", workers], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_as_at_a_terminal)
    try:
        started = proc.stderr.readline()  # said once the games are under way
        assert started.startswith("playing 10000000 games of envoys"), started
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: to the parent and its workers
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err
    played = int(re.search(r"interrupted: (\d+) of 10000000 games played", out).group(1))
    assert re.search(rf"completed {played} of {played} games? played", out), out
    assert "teams" in out and "decisions per game" in out
    assert f"the report covers the {played} game" in err


def test_simulate_unknown_game_is_a_usage_error(capsys, tmp_path):
    status, _, err = run_cli(capsys, "simulate", "no-such-game")
    assert status == 2 and "no such game" in err
    status, _, err = run_cli(capsys, "simulate", str(tmp_path))
    assert status == 2 and "not a game folder" in err


def test_simulate_content_errors_exit_1(capsys, tmp_path):
    bad = tmp_path / "nim"
    bad.mkdir()
    for f in (FIXTURES / "nim").rglob("*.yaml"):
        target = bad / f.relative_to(FIXTURES / "nim")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.read_text().replace("score 1 to p", "scroe 1 to p"))
    status, out, err = run_cli(capsys, "simulate", str(bad))
    assert status == 1 and "game.yaml:" in err and "error[N009]:" in err


def test_simulate_shipped_game_completes_every_game(capsys, tmp_path):
    """Random games of a shipped game, with the invariants checked after every step, all end
    without an error, so no trace of a failed game is written."""
    f = tmp_path / "s.json"
    status, out, err = run_cli(capsys, "simulate", "seeders-exodus", "--games", "3", "--json", str(f),
                               "--trace-dir", str(tmp_path / "tr"), "--check")
    data = json.loads(f.read_text())
    assert data["errors"] == [], data["errors"]
    assert status == 0, err
    assert data["games"] == data["completed"] == 3
    assert "completed 3 of 3 games: " in out and "; 0 errors" in out
    assert not (tmp_path / "tr").exists()


def test_simulate_with_a_mod_tells_of_cards_that_never_enter_play(tmp_path, capsys):
    mod = tmp_path / "my-cards.yaml"
    mod.write_text("kind: cards\ngame: nim\ncomponent: stone\ncards:\n  - {id: pebble, title: Pebble}\n",
                   encoding="utf-8")
    status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--with", str(mod), "--games", "2")
    assert status == 0, err
    assert "my-cards.yaml:5:5: warning[D005]: card 'pebble' never enters a zone" in err and "add 'start:" in err
    mod.write_text("kind: cards\ngame: nim\ncomponent: stone\nstart: pile\ncards:\n  - {id: pebble, title: Pebble}\n",
                   encoding="utf-8")
    status, out, err = run_cli(capsys, "simulate", str(FIXTURES / "nim"), "--with", str(mod), "--games", "2")
    assert status == 0 and "warning" not in err
