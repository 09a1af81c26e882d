"""Saves of the shipped games damaged at random, thousands at a time: how many are let through.

    python bench/save_damage.py --damages 3000 --seed 1
    python bench/save_damage.py --damages 3000 --seed 1 --json   # the figures as JSON

Each damaged save is a save of a shipped game part-way through a random game
with one random damage (see tests/savedamage.py, which the test suite runs a
few hundred of in tests/engine/test_saves.py). It prints how many were
refused, how many loaded into the very state saved, and how many were
*accepted with a different state*, with some examples; and any failure (a
message in Python's words, an exception other than a SaveError or a located
GameFault), with exit status 1 if there is one.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import savedamage as D  # noqa: E402  (the path is set just above)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--damages", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--saves", type=int, default=3, help="seeds of the games saved, per game and player count")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    saves = D.real_saves(seeds=range(1, args.saves + 1))
    fates = D.run(saves, args.damages, args.seed)
    figures = {"saves": len(saves), "damages": args.damages, "seed": args.seed, "unchanged": fates.unchanged,
               "refused": fates.refused, "loaded_same": fates.same, "accepted_different": fates.different,
               "failures": len(fates.failures), "seconds": round(time.perf_counter() - start, 1)}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        tried = fates.tried()
        print(f"{args.damages} damages of {len(saves)} saves (seed {args.seed}): {fates.unchanged} changed nothing")
        print(f"  refused:                        {fates.refused}")
        print(f"  loaded, the state saved:        {fates.same}")
        print(f"  accepted with a different state: {fates.different} "
              f"({100 * fates.different / max(tried, 1):.1f}% of {tried})")
        for where, loaded, saved in fates.loaded_different[:10]:
            differing = ", ".join(k for k, v in loaded.items() if saved.get(k) != v)
            print(f"    {where} (differs in: {differing})")
    for failure in fates.failures[:30]:
        print(f"FAILURE {failure}", file=sys.stderr)
    return 1 if fates.failures else 0


if __name__ == "__main__":
    sys.exit(main())
