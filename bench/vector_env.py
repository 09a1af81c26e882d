"""Steps a second of many games stepped together (`interpreter.play.seat_env.vector_env`).

    python bench/vector_env.py                         # Karman Swap at 2 players, N = 1, 8, 64
    python bench/vector_env.py --game etherium --players 4 --steps 3000

It also prints, per shipped game at 4 players, one step of the PettingZoo AEC loop (`last()` with
the observation and mask, then `step`) over one engine decision of random play without
observations, in processor time (`--aec-only` for only these).

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
from interpreter.play.seat_env import vector_env  # noqa: E402


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


def engine_decision(game: str, players: int, games: int = 20, clock=time.perf_counter) -> float:
    """Seconds of one engine decision of random play, no observation."""
    g = interpreter.load(game)
    decisions = 0
    t = clock()
    for i in range(games):
        st = g.new_state(players, i)
        r = random.Random(i)
        while not st.is_terminal():
            st.apply(r.randrange(len(st.legal_actions())))
            decisions += 1
    return (clock() - t) / decisions


def aec_step(game: str, players: int, games: int = 6) -> float:
    """Processor seconds of one step of the PettingZoo AEC loop with its observation, random
    legal actions."""
    from interpreter.rl import env
    e = env(game, players=players)
    rng = np.random.default_rng(0)
    steps = 0
    t = time.process_time()
    for episode in range(games):
        e.reset(seed=episode)
        for _agent in e.agent_iter():
            obs, _, over, cut, _ = e.last()
            if over or cut:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return (time.process_time() - t) / steps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="karman-swap")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=2000, help="steps of the learning seats per measure")
    ap.add_argument("--sizes", default="1,8,64")
    ap.add_argument("--most-processes", type=int, default=8)
    ap.add_argument("--out", default=str(HERE / "vector_env.json"))
    ap.add_argument("--aec-only", action="store_true", help="only the AEC step against the engine decision")
    args = ap.parse_args(argv)
    aec = {}
    for name in ("karman-swap", "seeders-exodus", "etherium"):
        step, decision = aec_step(name, 4), engine_decision(name, 4, 6, time.process_time)
        aec[name] = {"aec_step_seconds": step, "engine_decision_seconds": decision, "ratio": step / decision}
        print(f"{name} 4p: AEC step with observation {step * 1e6:.0f} us, engine decision {decision * 1e6:.0f} us, "
              f"x{step / decision:.2f} (target x2)", flush=True)
    if args.aec_only:
        return 0
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
                                          "engine_decision_seconds": decision, "aec_4p": aec}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
