"""Fingerprints of whole games, to show that a change of the engine changes no game.

    python bench/trace_digest.py --games 200 --out before.json    # on the old code
    python bench/trace_digest.py --games 200 --compare before.json  # on the new code

For every shipped game and player count it plays `--games` games with the
trace on, from fixed seeds: most with random choices, every tenth with a
one-step lookahead on the score (which clones the state and applies each
option, as the greedy bot does). Each game gives one SHA-256 of everything
it produced: every event of its trace as JSON text (the content line of each
included), the choices, the final state as `to_json()` writes it, scores,
returns and what each seat observes at the end. Only the public step API is
used, so the same script runs on any version of the engine.

With `--compare`, the first game whose fingerprint differs is named (game,
player count, index, seed) and the exit status is 1.

When the content itself was edited between the two runs, the content lines
events name have moved: `--lines-as-of REV` reads each `at` as the line it
was at in git revision REV of the same file (lines matched by difflib), so
that only what the engine does is compared. When content moved to other files
(a game file split into rules files), `--without-places` leaves the `at` of
every event out instead, on both runs.

`--game NAME` (repeated) digests only those games.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import interpreter  # noqa: E402

GAMES = ("karman-swap", "seeders-exodus", "etherium")


def _text(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, default=str)


class WithoutPlaces:
    """Leaves the content place (`at`) of each event out."""

    def event(self, ev: dict) -> dict:
        return {k: v for k, v in ev.items() if k != "at"}


class LinesAsOf:
    """Maps the line of a content file to the line it was at in a git revision."""

    def __init__(self, rev: str):
        self.rev = rev
        self.maps: dict = {}

    def line_map(self, path: str) -> dict:
        known = self.maps.get(path)
        if known is None:
            rel = Path(path).resolve().relative_to(HERE.parent).as_posix()
            old = subprocess.run(["git", "show", f"{self.rev}:{rel}"], capture_output=True, text=True,
                                 cwd=HERE.parent).stdout.splitlines()
            new = Path(path).read_text(encoding="utf-8").splitlines()
            known = {}
            for a, b, size in difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks():
                for k in range(size):
                    known[b + k + 1] = a + k + 1
            self.maps[path] = known
        return known

    def event(self, ev: dict) -> dict:
        at = ev.get("at")
        if not isinstance(at, str):
            return ev
        path, _, line = at.rpartition(":")
        old = self.line_map(path).get(int(line))
        return {**ev, "at": f"{path}:{old if old is not None else 'new ' + line}"}


def lookahead_choice(state, rng: random.Random) -> int:
    """The option whose outcome scores best for the player deciding (ties drawn by `rng`)."""
    seat = state.current_player
    values = []
    for a in state.legal_actions():
        copy = state.clone()
        copy.apply(a)
        values.append(copy.scores()[seat])
    best = max(values)
    ties = [a for a, v in zip(state.legal_actions(), values) if v == best]
    return ties[rng.randrange(len(ties))]


def game_digest(game, players: int, seed: int, lookahead: bool, lines=None) -> str:
    h = hashlib.sha256()
    rng = random.Random(seed)
    state = game.new_state(players, seed, trace=True)
    while not state.is_terminal():
        acts = state.legal_actions()
        a = lookahead_choice(state, rng) if lookahead else acts[rng.randrange(len(acts))]
        h.update(_text([state.prompt, state.labels(), a]).encode())
        state.apply(a)
    for ev in state.trace:
        h.update(_text(lines.event(ev) if lines is not None else ev).encode())
        h.update(b"\n")
    saved = state.to_json()
    saved.pop("fingerprint", None)  # names the engine's source: the same games under a changed engine must match
    h.update(_text(saved).encode())
    h.update(_text([state.scores(), state.returns()]).encode())
    for s in range(players):
        h.update(_text(state.observation(s)).encode())
    return h.hexdigest()


def digests(games: int, lines=None, names=GAMES) -> dict:
    out = {}
    for name in names:
        game = interpreter.load(name)
        for players in range(game.min_players, game.max_players + 1):
            key = f"{name}/{players}p"
            out[key] = [game_digest(game, players, 1000 + i, i % 10 == 9, lines) for i in range(games)]
            print(f"{key}: {games} games", file=sys.stderr)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per game and player count (default 200)")
    ap.add_argument("--out", help="write the fingerprints to this JSON file")
    ap.add_argument("--compare", help="compare with the fingerprints of this JSON file")
    ap.add_argument("--lines-as-of", metavar="REV", help="read the content lines of events as of this git revision")
    ap.add_argument("--without-places", action="store_true", help="leave the content place of each event out")
    ap.add_argument("--game", action="append", help="digest only this game (repeat for more)")
    args = ap.parse_args(argv)
    lines = LinesAsOf(args.lines_as_of) if args.lines_as_of else WithoutPlaces() if args.without_places else None
    found = digests(args.games, lines, tuple(args.game) if args.game else GAMES)
    if args.out:
        Path(args.out).write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        for key, values in found.items():
            old = before.get(key)
            if old is None:
                print(f"{key}: not in {args.compare}")
                return 1
            for i, (a, b) in enumerate(zip(old, values)):
                if a != b:
                    print(f"{key}: game {i} (seed {1000 + i}) differs")
                    return 1
            if len(old) != len(values):
                print(f"{key}: {len(old)} games before, {len(values)} now: compare the same number")
                return 1
        total = sum(len(v) for v in found.values())
        print(f"{total} games in {len(found)} game and player counts: every fingerprint identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
