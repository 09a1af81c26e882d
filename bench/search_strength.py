"""How strong the search agent is: its win rate against random and greedy in every shipped game.

    python bench/search_strength.py [--games 500] [--budget 400] [--players 2] [--workers 2]
                                    [--game ID ...] [--against random,greedy] [--json FILE]

For each game and opponent, the search agent (`mcts:BUDGET`) plays half of the
games in seat 1 and half in seat 2 against that opponent (the other seats, at
more than 2 players, are the opponent too), through `simulate`'s own runner,
so that each game is reproduced from its seed. It prints, and writes as JSON,
the search agent's wins with a 95% interval (Wilson), the decisions per second
of the whole games, and whether it wins significantly more often than one
seat would by chance (the lower bound of its interval above 1/players).

The games are played in chunks of CHUNK (half in each seat), and each chunk is
written to the JSON file as soon as it is played: a run stopped part-way goes
on where it stopped when started again with the same arguments (a run of 500
games of `mcts:400` takes hours). A benchmark, not a test: it asserts nothing.
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
from interpreter.runs import simulate as S  # noqa: E402
from interpreter.runs.statistics import wilson  # noqa: E402

CHUNK = 50  # games played and written at once: 25 in each seat
PAIR = ("game", "players", "opponent", "budget")  # what a row of results is about


def play_chunk(game, game_id: str, players: int, opponent: str, budget: int, seat: int, index: int, games: int,
               workers: int, seed: int) -> dict:
    """`games` games with the search agent in `seat` (from 0), seeded from (seed, seat, index)."""
    agents = [opponent] * players
    agents[seat] = f"mcts:{budget}"
    spec = S.RunSpec(game=game_id, players=players, seed=seed * 1_000_003 + index * 2 + seat, games=games,
                     agents=agents, options=game.options({}))
    t0 = time.perf_counter()
    results, _ = S.run(game, spec, workers=workers)
    chunk = {"game": game_id, "players": players, "opponent": opponent, "budget": budget, "seat": seat,
             "chunk": index, "games": len(results), "wins": 0, "shared_wins": 0, "errors": 0, "decisions": 0,
             "seconds": time.perf_counter() - t0}
    for r in results:
        chunk["decisions"] += r.decisions
        if r.error is not None:
            chunk["errors"] += 1
        elif r.winners and seat in r.winners:
            chunk["wins"] += 1
            chunk["shared_wins"] += len(r.winners) > 1
    return chunk


def summary(chunks: list, players: int) -> dict:
    games = sum(c["games"] for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    seconds = sum(c["seconds"] for c in chunks)
    low, high = wilson(wins, games) if games else (0.0, 1.0)
    return {"games": games, "wins": wins, "shared_wins": sum(c["shared_wins"] for c in chunks),
            "errors": sum(c["errors"] for c in chunks), "win_rate": wins / games if games else 0.0,
            "interval": [low, high], "significant": low > 1 / players,
            "decisions_per_second": sum(c["decisions"] for c in chunks) / seconds if seconds else 0.0,
            "seconds": seconds}


def _budget(text: str):
    """A budget as the JSON keeps it: a whole number of iterations stays a number (the rows of
    earlier runs), anything else ('0.05s', '100:reuse') a string, checked as `mcts:` checks it."""
    from interpreter.play.mcts import parse_search
    try:
        parse_search(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return int(text) if text.isdigit() else text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--budget", type=_budget, default=400,
                    help="iterations a decision (default 400), or seconds ('0.05s'), then the search's options "
                         "('100:reuse:batch=4')")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", default=[], help="only this game (may be repeated)")
    ap.add_argument("--against", default="random,greedy")
    ap.add_argument("--json", default=str(HERE / "search_strength.json"))
    args = ap.parse_args(argv)
    out = Path(args.json)
    done = json.loads(out.read_text(encoding="utf-8")).get("chunks", []) if out.exists() else []
    for game_id in args.game or shipped_games():
        game = interpreter.load(game_id)
        for opponent in [a.strip() for a in args.against.split(",") if a.strip()]:
            same = dict(zip(PAIR, (game_id, args.players, opponent, args.budget)))
            mine = [c for c in done if all(c[k] == v for k, v in same.items())]
            index = 0
            while sum(c["games"] for c in mine) < args.games:
                for seat in range(2):
                    if any(c["chunk"] == index and c["seat"] == seat for c in mine):
                        continue
                    left = args.games - sum(c["games"] for c in mine)
                    n = min(CHUNK // 2, max(1, left // 2) if seat == 0 else left)  # the seats alike
                    if n <= 0:
                        break
                    chunk = play_chunk(game, game_id, args.players, opponent, args.budget, seat, index, n,
                                       args.workers, args.seed)
                    mine.append(chunk)
                    done.append(chunk)
                    out.write_text(json.dumps({"chunks": done}, indent=1) + "\n", encoding="utf-8")
                index += 1
            row = {**same, **summary(mine, args.players)}
            low, high = row["interval"]
            print(f"{game_id:16} mcts:{args.budget} vs {opponent:7} {row['wins']:4}/{row['games']} "
                  f"{row['win_rate']:6.1%} ({low:.1%}-{high:.1%}) "
                  f"{'significant' if row['significant'] else 'NOT significant'}"
                  f"; {row['decisions_per_second']:.0f} decisions/s", flush=True)
    # The rows summarise every pair measured so far, not only this run's, so that the file stays whole.
    pairs: dict = {}
    for c in done:
        pairs.setdefault(tuple(c[k] for k in PAIR), []).append(c)
    rows = [{**dict(zip(PAIR, pair)), **summary(chunks, pair[1])}
            for pair, chunks in sorted(pairs.items(), key=lambda kv: tuple(map(str, kv[0])))]
    out.write_text(json.dumps({"chunks": done, "rows": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
