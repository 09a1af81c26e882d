"""Steps a second of many games stepped together (`interpreter.rl.seat_env.vector_env`).

    python bench/vector_env.py                         # Karman Swap at 2 players, N = 1, 8, 64
    python bench/vector_env.py --game etherium --players 4 --steps 3000

A step is one decision of the learning seat, with its observation and mask, the other seats'
decisions made inside it by random agents; the actions are random legal ones. Each N is run
in this process (Gymnasium's SyncVectorEnv) and with one process per game (AsyncVectorEnv,
up to --most-processes games: one process each is Gymnasium's way, and 64 processes on a
machine of a few cores only wait for each other). Beside it, the time of one engine decision
of the same games without observations, to compare with. Prints a table and writes
bench/vector_env.json.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

import interpreter  # noqa: E402
from interpreter.rl.seat_env import vector_env  # noqa: E402


def vector_speed(game: str, players: int, n: int, processes: bool, steps: int) -> dict:
    envs = vector_env(game, n, processes=processes, players=players)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    done = ended = 0
    c, w = time.process_time(), time.perf_counter()
    while done < steps:
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, _, over, _, _ = envs.step(actions)
        done += n
        ended += int(over.sum())
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    envs.close()
    return {"n": n, "processes": processes, "steps": done, "games_ended": ended,
            "steps_per_second": done / wall, "wall_seconds": wall, "parent_cpu_seconds": cpu}


def engine_decision(game: str, players: int, games: int = 20) -> float:
    """Seconds of one engine decision of random play, no observation."""
    g = interpreter.load(game)
    decisions = 0
    t = time.perf_counter()
    for i in range(games):
        st = g.new_state(players, i)
        r = random.Random(i)
        while not st.is_terminal():
            st.apply(r.randrange(len(st.legal_actions())))
            decisions += 1
    return (time.perf_counter() - t) / decisions


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="karman-swap")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=2000, help="steps of the learning seats per measure")
    ap.add_argument("--sizes", default="1,8,64")
    ap.add_argument("--most-processes", type=int, default=8)
    ap.add_argument("--out", default=str(HERE / "vector_env.json"))
    args = ap.parse_args(argv)
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        for processes in (False, True):
            if processes and n > args.most_processes:
                continue
            rows.append(vector_speed(args.game, args.players, n, processes, args.steps))
            r = rows[-1]
            print(f"N={n:3d} {'one process each' if processes else 'in this process':17s} "
                  f"{r['steps_per_second']:8.0f} steps/s ({r['games_ended']} games ended)", flush=True)
    decision = engine_decision(args.game, args.players)
    print(f"one engine decision, random play, no observation: {decision * 1e6:.0f} us "
          f"({1 / decision:.0f} decisions/s)")
    Path(args.out).write_text(json.dumps({"game": args.game, "players": args.players, "rows": rows,
                                          "engine_decision_seconds": decision}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
