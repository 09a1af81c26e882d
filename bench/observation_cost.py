"""What an observation costs, in machine instructions (Valgrind's callgrind).

    python bench/observation_cost.py                        # every shipped game at 4 players
    python bench/observation_cost.py --game etherium --games 3
    python bench/observation_cost.py --time 9               # processor time, 9 alternated pairs
    python bench/observation_cost.py --in-turn 150 --repeat 3   # processor time, game by game in turn

For the same games (the PettingZoo environment's seeds and random legal actions), the
instructions of one step of the AEC loop (`last()` with the observation and mask, then
`step`), over those of one engine decision: with no observation at all (a blank vector: the
step's own work, its action numbers, mask and wrappers), with the observation vector built at every step
from nothing (`encoding_plain.rebuilt`, what the environment did before), from the plans
kept per seat (`Encoding.encode`), and kept from step to step (`KeptObservations`, what the
environment uses). Timing on a shared machine moves by tens of percent from minute to minute;
these counts do not. Prints a table and writes bench/observation_cost.json.

Both loops choose alike, a random one of the legal action numbers in order (the engine loop
from the action map's numbers, the AEC loop from `info["legal_moves"]`), so that they play the
same games with the same work of the player's own, and what differs is the environment's.
The AEC loop chose among the mask's ones (`np.flatnonzero`) before: on Seeders' mask of
1,628 numbers that is some 2 us a step more than the engine loop's choice, which the step was
charged with.

Each count is of the games alone, in the process that plays them: callgrind starts counting
when the loop calls `os.getppid()` and writes its count when it calls `os.getpgrp()`, two
system calls nothing else makes (`--zero-before`, `--dump-before`). Counting a whole process
less one that only loads the game, as this bench did first, left the load's own variation
(about 0.5% of 2.2 billion instructions, 10 to 30 k a decision) in every figure.

In processor time, two ways, both without Valgrind: `--time PAIRS` runs a process of each
kind (engine decisions alone, steps with the kept observation) one after the other, PAIRS
times; `--in-turn GAMES` plays, in one process, each game once with engine decisions alone,
once through the environment with the kept observation, and once through it with no
observation written (the step's own work), game after game, and sums each kind's time: the
machine's changes of speed, which move single runs by tens of percent here, fall on the three
kinds alike.

glibc copies blocks of more than a few kilobytes with one `rep movsb` instruction, which
Valgrind counts once per byte: the copy of Seeders' observation (55 kB), about 2 us, would
count 55 k instructions, a fifth of an engine decision. The counts are taken with
`GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold` set high, so that glibc copies with its
vector loop instead, counted as the instructions it runs (32 bytes each). `--rep-movsb`
counts as glibc chooses on this machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent

# the AEC loop's steps, the same in both programs below: a random legal number chosen as the
# engine loop chooses, so that both loops play the same games with the same work of the player's
_AEC_STEPS = textwrap.indent('''for agent in e.agent_iter():
    obs, reward, over, cut, info = e.last()
    if over or cut:
        e.step(None)
        continue
    e.step(int(rng.choice(np.array(sorted(info["legal_moves"])))))
    n += 1
''', "    ")

_LOOP = r'''
import os
import sys
import time
sys.path.insert(0, {root!r})
import numpy as np
from interpreter.rl import env
mode, games = {mode!r}, {games}
e = env({game!r}, players={players})
raw = e.unwrapped
rng = np.random.default_rng(0)
n = 0
os.getppid()  # the count starts here
started = time.process_time()
if mode == "built":
    raw._observations.encode = raw.encoding.encode  # the vector built from the plans at each step
if mode == "blank":  # the step's own work: no observation written at all
    blank = np.zeros(raw.encoding.size, np.float32)
    raw._observations.encode = lambda st, seat: blank
if mode == "rebuilt":  # the vector built from nothing at each step, as before the plans
    from interpreter.rl.encoding_plain import rebuilt
    raw._observations.encode = lambda st, seat: rebuilt(raw.encoding, st, seat)
for ep in range(games):
    if mode == "engine":  # the same games, decisions only
        e.reset(seed=ep)
        st = raw.state_
        while not st.is_terminal():
            numbers = raw.actions.numbers(st)
            st.apply(numbers.index(int(rng.choice(np.array(sorted(numbers))))))
            n += 1
        continue
    e.reset(seed=ep)
{aec_steps}os.getpgrp()  # the count is written here
print("SECONDS", time.process_time() - started)
print("DECISIONS", n)
'''


_IN_TURN = r'''
import sys
import time
sys.path.insert(0, {root!r})
import numpy as np
from interpreter.rl import env
games = {games}
e = env({game!r}, players={players})
raw = e.unwrapped
blank = np.zeros(raw.encoding.size, np.float32)
kept_encode = raw._observations.encode


def engine(ep):  # the game's decisions alone, the same random choices
    rng = np.random.default_rng(ep)
    e.reset(seed=ep)
    st, n = raw.state_, 0
    started = time.process_time()
    while not st.is_terminal():
        numbers = raw.actions.numbers(st)
        st.apply(numbers.index(int(rng.choice(np.array(sorted(numbers))))))
        n += 1
    return time.process_time() - started, n


def steps(ep, encode):  # the AEC loop, the observation made by `encode`
    raw._observations.encode = encode
    rng = np.random.default_rng(ep)
    e.reset(seed=ep)
    n = 0
    started = time.process_time()
{aec_steps}    return time.process_time() - started, n


kinds = {{"engine": engine, "kept": lambda ep: steps(ep, kept_encode),
         "blank": lambda ep: steps(ep, lambda st, seat: blank)}}
for ep in range(2):  # warm
    for run in kinds.values():
        run(ep)
total = {{k: [0.0, 0] for k in kinds}}
for ep in range(games):
    for k, run in kinds.items():
        t, n = run(ep)
        total[k][0] += t
        total[k][1] += n
for k, (t, n) in total.items():
    print(k, t / n)
'''


def in_turn(game: str, players: int, games: int, repeat: int) -> dict:
    """Processor time a decision of each kind (engine alone, kept step, step with no observation),
    `repeat` processes each playing `games` games in turn (`_IN_TURN`); the ratios to the engine
    decision of each process, and their median."""
    runs = []
    with tempfile.TemporaryDirectory() as cache:
        _play(game, players, 0, "engine", Path(cache), [])  # the warm cache written first
        for _ in range(repeat):
            code = _IN_TURN.format(root=str(HERE.parent), games=games, game=game, players=players, aec_steps=_AEC_STEPS)
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 env=dict(os.environ, PYTHONHASHSEED="0", XDG_CACHE_HOME=str(cache)))
            got = dict(re.findall(r"^(\w+) ([\d.e-]+)$", run.stdout, re.M))
            if run.returncode != 0 or len(got) != 3:
                raise SystemExit(f"{game} (in turn) did not run:\n{run.stderr[-2000:]}")
            e = float(got["engine"])
            runs.append({"engine_us": e * 1e6, "kept": float(got["kept"]) / e, "blank": float(got["blank"]) / e})
    ratios = sorted(r["kept"] for r in runs)
    return {"games": games, "runs": runs, "median": ratios[len(ratios) // 2], "least": ratios[0], "most": ratios[-1]}


def _play(game: str, players: int, games: int, mode: str, cache: Path, before: list, env: dict | None = None):
    """The finished process that plays `games` games in `mode`, its command led by `before`, and
    the decisions it made."""
    code = _LOOP.format(root=str(HERE.parent), mode=mode, games=games, game=game, players=players,
                        aec_steps=_AEC_STEPS)
    run = subprocess.run([*before, sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONHASHSEED="0", XDG_CACHE_HOME=str(cache), **(env or {})))
    decisions = re.search(r"DECISIONS (\d+)", run.stdout)
    if run.returncode != 0 or decisions is None:
        raise SystemExit(f"{game} ({mode}) did not run:\n{run.stderr[-2000:]}")
    return run, int(decisions.group(1))


def count(game: str, players: int, games: int, mode: str, cache: Path, rep_movsb: bool = False) -> tuple[int, int]:
    """(instructions, decisions) of the loop of one process playing `games` games in `mode`."""
    fixed = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
    env = {} if rep_movsb else {"GLIBC_TUNABLES": "glibc.cpu.x86_rep_movsb_threshold=1000000000"}
    with tempfile.TemporaryDirectory() as out:
        run, decisions = _play(game, players, games, mode, cache,
                               [*fixed, "valgrind", "--tool=callgrind", "--zero-before=getppid",
                                "--dump-before=getpgrp", f"--callgrind-out-file={out}/counts"], env)
        dumped = [p.read_text(errors="replace") for p in Path(out).glob("counts*")]
    found = [re.search(r"^summary:\s+(\d+)", text, re.M) for text in dumped
             if "Trigger: --dump-before=getpgrp" in text]
    if not found or found[0] is None:
        raise SystemExit(f"valgrind did not count {game} ({mode}):\n{run.stderr[-2000:]}")
    return int(found[0].group(1)), decisions


def seconds(game: str, players: int, games: int, mode: str, cache: Path) -> tuple[float, int]:
    """(processor seconds, decisions) of the loop of one process playing `games` games in `mode`,
    without Valgrind."""
    run, decisions = _play(game, players, games, mode, cache, [])
    return float(re.search(r"SECONDS ([\d.e-]+)", run.stdout).group(1)), decisions


def timed(game: str, players: int, games: int, pairs: int) -> dict:
    """A step with its kept observation over an engine decision in processor time: `pairs`
    pairs of processes, each pair one of each run one after the other (in turn which first),
    so that the machine's changes of speed fall on both; the median ratio and the range."""
    ratios = []
    with tempfile.TemporaryDirectory() as cache:
        _play(game, players, 0, "engine", Path(cache), [])  # the warm cache written first
        for i in range(pairs):
            modes = ("engine", "kept") if i % 2 == 0 else ("kept", "engine")
            got = {m: seconds(game, players, games, m, Path(cache)) for m in modes}
            ratios.append(got["kept"][0] / got["engine"][0])
    ratios.sort()
    return {"pairs": pairs, "median": ratios[len(ratios) // 2], "least": ratios[0], "most": ratios[-1]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", help="a shipped game (repeat; default: all three)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--modes", default="engine,blank,rebuilt,built,kept",
                    help="what to count (engine first): the engine alone, the step with no observation, the "
                         "vector from nothing, from the plans, kept")
    ap.add_argument("--rep-movsb", action="store_true",
                    help="let glibc copy large blocks with `rep movsb`, which Valgrind counts a byte at a time")
    ap.add_argument("--time", type=int, default=0, metavar="PAIRS",
                    help="instead of counting, time the kept step over the engine decision in processor time, "
                         "over PAIRS pairs of runs")
    ap.add_argument("--in-turn", type=int, default=0, metavar="GAMES",
                    help="instead of counting, time the three kinds of decision game by game in turn in one process, "
                         "over GAMES games (with --repeat processes)")
    ap.add_argument("--repeat", type=int, default=3, help="processes for --in-turn")
    ap.add_argument("--out", help="where to write the figures (default: bench/observation_cost.json, or "
                                  "bench/observation_time.json with --time)")
    args = ap.parse_args(argv)
    games = args.game or ["karman-swap", "seeders-exodus", "etherium"]
    if args.in_turn:
        times = {}
        for game in games:
            t = times[game] = in_turn(game, args.players, args.in_turn, args.repeat)
            print(f"{game:16s} kept step / engine decision, processor time, in turn: median x{t['median']:.2f} "
                  f"(x{t['least']:.2f} to x{t['most']:.2f} over {args.repeat} processes); with no observation "
                  + ", ".join(f"x{r['blank']:.2f}" for r in t["runs"]), flush=True)
        Path(args.out or HERE / "observation_time.json").write_text(
            json.dumps({"players": args.players, "in_turn": times}, indent=1) + "\n")
        return 0
    if args.time:
        times = {}
        for game in games:
            t = times[game] = timed(game, args.players, args.games, args.time)
            print(f"{game:16s} kept step / engine decision, processor time: median x{t['median']:.2f} "
                  f"(x{t['least']:.2f} to x{t['most']:.2f} over {t['pairs']} pairs)", flush=True)
        Path(args.out or HERE / "observation_time.json").write_text(
            json.dumps({"players": args.players, "games": args.games, "processor_time": times}, indent=1) + "\n")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        return 1
    results = {}
    print(f"{'game':16s} {'decisions':>9s} {'engine':>12s} {'AEC, no observation':>19s} {'AEC, from nothing':>17s} "
          f"{'AEC, from plans':>16s} {'AEC, kept':>16s}  (instructions a decision)")
    for game in games:
        with tempfile.TemporaryDirectory() as cache:
            _play(game, args.players, 0, "engine", Path(cache), [])  # the warm cache written first, read by each count
            row = {}
            for mode in args.modes.split(","):
                total, decisions = count(game, args.players, args.games, mode, Path(cache), args.rep_movsb)
                row[mode] = total / decisions
            row["decisions"] = decisions
        results[game] = row
        e = row["engine"]
        print(f"{game:16s} {row['decisions']:9d} {e / 1e3:10.0f} k "
              + " ".join(f"{row[m] / 1e3:8.0f} k x{row[m] / e:5.2f}" if m in row else f"{'-':>17s}"
                         for m in ("blank", "rebuilt", "built", "kept")), flush=True)
    figures = {"players": args.players, "games": args.games, "rep_movsb": args.rep_movsb,
               "counted": "callgrind, the loop alone", "per_decision": results}
    Path(args.out or HERE / "observation_cost.json").write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
