"""Python bytecodes per decision, by part of the engine and by function: where the work goes,
counted rather than timed.

    python bench/bytecodes.py                              # Karman Swap at 4 players, 10 games
    python bench/bytecodes.py --game seeders-exodus --games 4 --top 30

Python runs a game as bytecodes; Python's tracer can be told to stop at each one
(`frame.f_trace_opcodes`), so a run of random games from fixed seeds gives, for every
function, how many of them it ran. Like the instructions of `instructions.py`, the count is
the same from run to run (the same seeds make the same games), so a change of a few percent
shows where timing it would not; unlike them it says which function ran them. A bytecode is
not a unit of time (a call or an allocation costs more than an addition), but the engine's
loop is made of them, and the parts' shares moved together with the time in every step
measured so far (docs/performance.md).

The parts: the engine's modules by file (`machine.py`, `state.py`, `library.py`...), the
compiled code of the game (`<code>`: the operations of procedures and abilities;
`<function>`: the game functions; `<expr>`: the expressions of choices and labels), and the
built-ins of the language by file (`bytecodes.py` and `random.py` are this script's own loop
of random play). The tracer slows a game about 50 times: a few games are
enough.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402


def count(game, players: int, games: int, first_seed: int = 0):
    """(decisions, Counter of (file, function) -> bytecodes) over `games` random games."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        code = frame.f_code
        key = (code.co_filename, code.co_name)

        def local(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return local
        return local

    play(game, players, 1, first_seed + 10_000)  # codes compiled and kept results made before counting
    sys.settrace(tracer)
    try:
        decisions = play(game, players, games, first_seed)
    finally:
        sys.settrace(None)
    return decisions, counts


def play(game, players: int, games: int, first_seed: int) -> int:
    decisions = 0
    for i in range(games):
        st = game.new_state(players=players, seed=first_seed + i)
        rng = random.Random(i)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
            decisions += 1
    return decisions


def part(filename: str) -> str:
    """The part of the engine or of the game a code object belongs to."""
    if filename.startswith("<"):
        return filename.split(" ")[0].rstrip(">") + ">"
    return Path(filename).name


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="karman-swap", help="a shipped game, or a game folder")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    args = ap.parse_args(argv)
    game = interpreter.load(args.game)
    decisions, counts = count(game, args.players, args.games)
    total = sum(counts.values())
    print(f"{args.game}, {args.players} players, {args.games} games: {decisions} decisions, "
          f"{total / decisions:,.0f} bytecodes a decision")
    parts: collections.Counter = collections.Counter()
    for (filename, _), n in counts.items():
        parts[part(filename)] += n
    print("\nby part")
    for name, n in parts.most_common():
        if n / total >= 0.005:
            print(f"  {name:24} {n / decisions:8.1f} {n / total:6.1%}")
    print("\nby function")
    for (filename, fn), n in counts.most_common(args.top):
        where = filename.strip("<>") if filename.startswith("<") else Path(filename).name
        print(f"  {where[:44]:44} {fn:24} {n / decisions:8.1f} {n / total:6.1%}")


if __name__ == "__main__":
    main()
