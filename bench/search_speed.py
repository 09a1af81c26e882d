"""How fast the search agent decides, with and without its options, in every shipped game.

    python bench/search_speed.py [--budgets 50,100,400] [--options ,reuse,batch=4,...]
                                 [--decisions 30] [--every 3] [--players 2] [--game ID ...] [--json FILE]

For each game and budget, the search agents of every set of options (`mcts:BUDGET:OPTIONS`)
decide in turn at the same decisions of seat 1 in games against the random agent (seeds 1,
2, ...), the first set's choice played (today's agent, by default), every `--every`-th
decision with a choice timed until `--decisions` are (at 400 iterations, a third of them).
It reports each one's decisions per second in processor time (its own `act` calls only), its
iterations per second, and the visits at the root of a decision: the budget's iterations,
plus with `reuse` those kept from the decision before. Root visits per second is
what a kept tree buys: more of the search for the same time. A benchmark: it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import interpreter  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from interpreter.engine.values import Rng  # noqa: E402
from interpreter.play.agents import SeatView, agent_seed, make_agent  # noqa: E402

DEFAULT_OPTIONS = ",reuse,batch=4,reuse:batch=4,rollout=heuristic,depth=10"


def measure(game, players: int, specs: list, decisions: int, every: int) -> list:
    """Each search agent of `specs` decides at the same decisions of seat 0 (every `every`-th
    where there is a choice, until `decisions` of them), in games against random; the first
    spec's choice is the one played, so every agent is timed on the same positions and a kept
    tree follows the game a search of its kind plays."""
    searched = seed = 0
    seconds = [0.0] * len(specs)
    visits = [0] * len(specs)
    while searched < decisions:
        seed += 1
        agents = [make_agent(spec, agent_seed(seed, 0)) for spec in specs]
        st = game.new_state(players, seed, game.options({}))
        rng = Rng(seed)
        met = 0
        while not st.is_terminal() and searched < decisions:
            if st.current_player != 0:
                st.apply(rng.below(len(st.legal_actions())))
                continue
            choice = len(st.legal_actions()) > 1
            met += choice
            timed = choice and met % every == 0
            picks = []
            for i, agent in enumerate(agents):
                if not (timed or i == 0 or agent.search.reuse):  # (a kept tree must see every decision)
                    picks.append(None)
                    continue
                t0 = time.process_time()
                picks.append(agent.act(SeatView(st, 0)))
                if timed:
                    seconds[i] += time.process_time() - t0
                    visits[i] += sum(v for _, (v, _) in agent.weighed)
            searched += timed
            st.apply(picks[0])
    rows = []
    for spec, s, v in zip(specs, seconds, visits):
        iterations = int(spec.split(":")[1]) * searched
        rows.append({"spec": spec, "decisions": searched, "seconds": s, "decisions_per_second": searched / s,
                     "iterations_per_second": iterations / s, "root_visits": v / searched,
                     "root_visits_per_second": v / s})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="50,100,400")
    ap.add_argument("--options", default=DEFAULT_OPTIONS, help="sets of options, comma-separated; '' is none")
    ap.add_argument("--decisions", type=int, default=30)
    ap.add_argument("--every", type=int, default=3, help="time every N-th decision of seat 1 (spread over the game)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", action="append", default=[])
    ap.add_argument("--json", default=str(HERE / "search_speed.json"))
    args = ap.parse_args(argv)
    rows = []
    for game_id in args.game or shipped_games():
        game = interpreter.load(game_id)
        for budget in [int(b) for b in args.budgets.split(",")]:
            n = args.decisions if budget < 400 else max(1, args.decisions // 3)
            specs = [f"mcts:{budget}" + (f":{o}" if o else "") for o in args.options.split(",")]
            for options, row in zip(args.options.split(","), measure(game, args.players, specs, n, args.every)):
                row = {"game": game_id, "players": args.players, "budget": budget, "options": options, **row}
                rows.append(row)
                print(f"{game_id:16} {row['spec']:36} {row['decisions_per_second']:7.2f} decisions/s "
                      f"{row['iterations_per_second']:7.0f} iterations/s  root visits {row['root_visits']:6.1f} "
                      f"({row['root_visits_per_second']:6.0f}/s)", flush=True)
            Path(args.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"written {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
