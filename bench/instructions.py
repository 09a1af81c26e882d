"""Machine instructions per game, counted by Valgrind: a measure of speed that noise cannot move.

    python bench/instructions.py                            # every shipped game at 4 players
    python bench/instructions.py --game seeders-exodus --games 6
    python bench/instructions.py --against /path/to/other/checkout   # the same, side by side

On a shared machine the time of one run moves by 10 to 40% from one minute to the next, so
a change of a few percent cannot be timed reliably in a few runs. Valgrind's `cachegrind`
counts the instructions the processor runs instead: the same program, seeds and hash seed give
the same count to a few parts in a million, when the addresses are not randomised (`setarch -R`,
used when it is there; without it, counts move by about 1%). Each figure is the count of a process that loads
the game and plays N random games, less that of one that only loads it (the load is counted
apart, in `run.py`), over N. The game is loaded once beforehand so that both processes take it
from the warm cache. Instructions are not time (a cache miss costs more than an addition),
but a change that removes instructions from the engine's loop removes time: the two moved
together in every change measured so far (docs/performance.md).

Needs `valgrind` on the PATH; it runs about 50 times slower than the program itself, so a few
games are enough.
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# the helper each process runs: load, then N random games from fixed seeds
_PLAY = ("import random, sys; sys.path.insert(0, {root!r}); import interpreter; "
         "game = interpreter.load({game!r}); "
         # every code compiled beforehand (codes are compiled when first run): the games count
         # play, not compiling; a checkout from before that has no `ready`
         "[getattr(code, 'ready', lambda: None)() for code in game.program.codes.values()]\n"
         "states = [game.new_state(players={players}, seed=s) for s in range({games})]\n"
         "for seed, st in enumerate(states):\n"
         "    r = random.Random(seed)\n"
         "    while not st.is_terminal():\n"
         "        st.apply(r.randrange(len(st.legal_actions())))\n")


def _env(cache: Path) -> dict:
    # a cache folder of the measure's own: other processes of the machine (a test suite) write
    # and evict the user's, and a load that compiles costs more than one that reads
    return dict(os.environ, PYTHONHASHSEED="0", XDG_CACHE_HOME=str(cache))


def instructions(root: Path, game: str, players: int, games: int, cache: Path) -> int:
    """Instructions of one process that loads `game` from checkout `root` and plays `games` games."""
    code = _PLAY.format(root=str(root), game=game, players=players, games=games)
    env = _env(cache)
    # the addresses of objects order the sets and dicts keyed by them: without their
    # randomisation (setarch -R) the count of one program is the same to a few parts in a million
    fixed = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
    run = subprocess.run([*fixed, "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, env=env)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind did not count {game} at {players} players:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_game(root: Path, game: str, players: int, games: int) -> int:
    with tempfile.TemporaryDirectory() as cache:
        subprocess.run([sys.executable, "-c", _PLAY.format(root=str(root), game=game, players=players, games=0)],
                       check=True, env=_env(Path(cache)))  # the warm cache written, so that both counts read it
        return (instructions(root, game, players, games, Path(cache))
                - instructions(root, game, players, 0, Path(cache))) // games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", help="a shipped game (repeat; default: all three)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=6, help="random games per count (default 6)")
    ap.add_argument("--against", type=Path, help="another checkout of regles, counted the same way")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        return 2
    games = args.game or ["karman-swap", "seeders-exodus", "etherium"]
    for game in games:
        ours = per_game(HERE.parent, game, args.players, args.games)
        line = f"{game}, {args.players} players: {ours:,} instructions a game"
        if args.against is not None:
            theirs = per_game(args.against, game, args.players, args.games)
            line += f"; {theirs:,} in {args.against} ({(ours - theirs) / theirs:+.1%})"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
