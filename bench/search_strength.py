"""How strong the search agent is: its win rate against random and greedy in every shipped game.

    python bench/search_strength.py [--games 500] [--budget 400] [--players 2] [--workers 2]
                                    [--game ID ...] [--against random,greedy] [--json FILE]

For each game and opponent, the search agent (`mcts:BUDGET`) plays half of the
games in seat 1 and half in seat 2 against that opponent (the other seats, at
more than 2 players, are the opponent too), through `simulate`'s own runner,
so that each game is reproduced from its seed. It prints, and writes as JSON,
the search agent's wins with a 95% interval (Wilson), the opponent's best
seat's, the decisions per second of the whole games, and whether the search
agent wins significantly more often than one seat of the opponent would by
chance (the lower bound of its interval above 1/players). A benchmark, not a
test: it asserts nothing.
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
from interpreter.tools import simulate as S  # noqa: E402
from interpreter.tools.report import wilson  # noqa: E402


def measure(game_id: str, players: int, opponent: str, games: int, budget: int, workers: int, seed: int) -> dict:
    game = interpreter.load(game_id)
    wins = draws = decisions = errors = 0
    played = 0
    t0 = time.perf_counter()
    for seat in range(2):  # the search agent in seat 1, then in seat 2
        agents = [opponent] * players
        agents[seat] = f"mcts:{budget}"
        n = games // 2 + (games % 2 if seat == 0 else 0)
        spec = S.RunSpec(game=game_id, players=players, seed=seed + seat, games=n, agents=agents,
                         options=game.options({}))
        results, _ = S.run(game, spec, workers=workers)
        for r in results:
            played += 1
            decisions += r.decisions
            if r.error is not None:
                errors += 1
            elif r.winners and seat in r.winners:
                wins += 1
                draws += len(r.winners) > 1
    seconds = time.perf_counter() - t0
    low, high = wilson(wins, played)
    return {"game": game_id, "players": players, "opponent": opponent, "budget": budget, "games": played,
            "wins": wins, "shared_wins": draws, "errors": errors, "win_rate": wins / played if played else 0.0,
            "interval": [low, high], "significant": low > 1 / players,
            "decisions_per_second": decisions / seconds if seconds else 0.0, "seconds": seconds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--budget", type=int, default=400, help="iterations a decision (default 400)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", default=[], help="only this game (may be repeated)")
    ap.add_argument("--against", default="random,greedy")
    ap.add_argument("--json", default=str(HERE / "search_strength.json"))
    args = ap.parse_args(argv)
    rows = []
    for game_id in args.game or shipped_games():
        for opponent in [a.strip() for a in args.against.split(",") if a.strip()]:
            row = measure(game_id, args.players, opponent, args.games, args.budget, args.workers, args.seed)
            rows.append(row)
            low, high = row["interval"]
            print(f"{game_id:16} mcts:{args.budget} vs {opponent:7} {row['wins']:4}/{row['games']} "
                  f"{row['win_rate']:6.1%} ({low:.1%}-{high:.1%}) {'significant' if row['significant'] else 'NOT significant'}"
                  f"; {row['decisions_per_second']:.0f} decisions/s, {row['seconds']:.0f} s", flush=True)
    Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    print(f"written {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
