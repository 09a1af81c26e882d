"""How fast the search agent decides, with and without its options, in every shipped game.

    python bench/search_speed.py [--budgets 50,100,400] [--options ,reuse,batch=4,...]
                                 [--decisions 30] [--players 2] [--game ID ...] [--json FILE]

For each game, budget and set of options, the search agent (`mcts:BUDGET:OPTIONS`) plays
seat 1 of games against the random agent (seeds 1, 2, ...) until it has searched
`--decisions` decisions (at 400 iterations, a third of them). It reports its decisions per
second in processor time (its own `act` calls only, not the opponent's nor the rules' between
them), its iterations per second, and the visits at the root of a decision: the budget's
iterations, plus with `reuse` those kept from the decision before. Root visits per second is
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


def measure(game, players: int, spec: str, decisions: int) -> dict:
    """The search agent `spec` in seat 0 of games against random until it has searched
    `decisions` decisions."""
    searched = visits = 0
    seconds = 0.0
    seed = 0
    while searched < decisions:
        seed += 1
        agent = make_agent(spec, agent_seed(seed, 0))
        st = game.new_state(players, seed, game.options({}))
        rng = Rng(seed)
        while not st.is_terminal() and searched < decisions:
            if st.current_player == 0:
                before = agent.searched
                t0 = time.process_time()
                a = agent.act(SeatView(st, 0))
                seconds += time.process_time() - t0
                if agent.searched > before:
                    searched += 1
                    visits += sum(v for _, (v, _) in agent.weighed)
            else:
                a = rng.below(len(st.legal_actions()))
            st.apply(a)
    iterations = int(spec.split(":")[1]) * searched
    return {"spec": spec, "decisions": searched, "seconds": seconds,
            "decisions_per_second": searched / seconds, "iterations_per_second": iterations / seconds,
            "root_visits": visits / searched, "root_visits_per_second": visits / seconds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="50,100,400")
    ap.add_argument("--options", default=DEFAULT_OPTIONS, help="sets of options, comma-separated; '' is none")
    ap.add_argument("--decisions", type=int, default=30)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", action="append", default=[])
    ap.add_argument("--json", default=str(HERE / "search_speed.json"))
    args = ap.parse_args(argv)
    rows = []
    for game_id in args.game or shipped_games():
        game = interpreter.load(game_id)
        for budget in [int(b) for b in args.budgets.split(",")]:
            n = args.decisions if budget < 400 else max(1, args.decisions // 3)
            for options in args.options.split(","):
                spec = f"mcts:{budget}" + (f":{options}" if options else "")
                row = {"game": game_id, "players": args.players, "budget": budget, "options": options,
                       **measure(game, args.players, spec, n)}
                rows.append(row)
                print(f"{game_id:16} {spec:36} {row['decisions_per_second']:7.2f} decisions/s "
                      f"{row['iterations_per_second']:7.0f} iterations/s  root visits {row['root_visits']:6.1f} "
                      f"({row['root_visits_per_second']:6.0f}/s)", flush=True)
                Path(args.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"written {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
