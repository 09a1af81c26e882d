"""Large fuzz runs: thousands of mutants of the shipped content, hostile programs, and the other kinds.

    python bench/fuzz.py --cases 3000 --seed 1                 # a run, with its figures
    python bench/fuzz.py --cases 3000 --seed 1 --out run.json  # and every outcome, as JSON
    python bench/fuzz.py --kinds yaml-tree,aliases,grammar,web,lsp --cases 500   # 500 cases of each kind
    python bench/fuzz.py --kinds yaml-tree=800,lsp=40          # 800 YAML tree mutants, 40 language server cases
    python bench/fuzz.py --show 1:17 --dump /tmp/case          # one case: what it is, and its game folder
    python bench/fuzz.py --show yaml-tree:1:17                 # a case of another kind, by its name

Without --kinds, a run is the mix of mutants and hostile programs (case i of
seed S named "S:i"); with --kinds, --cases cases of each kind named (or N of
a kind named KIND=N), case i of kind K named "K:S:i". The kinds: mutant, hostile, yaml-tree, aliases,
grammar, web, lsp (tests/fuzz/fuzz_*.py say what each sends).

Case i of a run seeded S is remade from "S:i" alone (see tests/fuzz/), so a
failure found here is replayed with --show and turned into a corpus entry of
tests/fuzz/corpus/. The default test suite runs a small budget of the same
cases (tests/fuzz/test_fuzz_cases.py); `python -m pytest -m slow` a larger one.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fuzz")]

import fuzz_runner as R  # noqa: E402  (the path is set just above)
from fuzz_known import known_issue  # noqa: E402


def case_named(name: str, hostile_share: int):
    return R.case_named(name, hostile_share)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first case index (to split a run)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cpu", type=int, default=10, help="CPU seconds per case")
    ap.add_argument("--memory", type=int, default=1500, help="MB of memory per case")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--hostile-share", type=int, default=4, help="every Nth case is a hostile program")
    ap.add_argument("--kinds", help="comma-separated kinds of case, --cases of each: " + ", ".join(R.KINDS))
    ap.add_argument("--out", help="write every outcome as JSON here")
    ap.add_argument("--show", help="a case SEED:INDEX: print what it is and run it")
    ap.add_argument("--dump", help="with --show: write the case's game folder here")
    args = ap.parse_args(argv)
    limits = R.Limits(args.cpu, args.memory, args.games, args.decisions)
    if args.show:
        case = case_named(args.show, args.hostile_share)
        print(case.describe())
        if args.dump and case.driver == "load":
            R.write_case(case, Path(args.dump))
            print(f"written to {args.dump}")
        (out,) = R.run_cases([case], limits, workers=1)
        print(json.dumps(asdict(out), indent=2, ensure_ascii=False))
        return 0
    if args.kinds:
        counts = {}
        for item in (k.strip() for k in args.kinds.split(",") if k.strip()):
            kind, _, n = item.partition("=")
            counts[kind] = int(n) if n else args.cases
        unknown = [k for k in counts if k not in R.KINDS]
        if unknown:
            ap.error(f"unknown kinds {unknown}; kinds: {', '.join(R.KINDS)}")
        made = [R.kind_cases(k, args.seed, n, args.start) for k, n in counts.items()]
        # interleaved, so that a run cut short has some of each kind
        cases = [c for row in itertools.zip_longest(*made) for c in row if c is not None]
    else:
        cases = [case_named(f"{args.seed}:{i}", args.hostile_share) for i in range(args.start, args.start + args.cases)]
    t0 = time.monotonic()
    done = [0]

    def progress(out):
        done[0] += 1
        if out.failure:
            print(out.line(), flush=True)
        if done[0] % 100 == 0:
            print(f"... {done[0]}/{len(cases)} in {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)

    outcomes = R.run_cases(cases, limits, args.workers, progress)
    figures = R.summary(outcomes)
    figures["seconds"] = round(time.monotonic() - t0)
    if any(o.kind == "grammar" for o in outcomes):
        from fuzz_grammar import grammar_figures
        figures["grammar texts"] = grammar_figures(outcomes)
    known: dict = {}
    for o in outcomes:
        if o.failure:
            issue = known_issue(o) or "unknown"
            known[issue] = known.get(issue, 0) + 1
    figures["failures by issue"] = dict(sorted(known.items()))
    print(json.dumps(figures, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps({"figures": figures, "outcomes": [asdict(o) for o in outcomes]},
                                             indent=1, ensure_ascii=False), encoding="utf-8")
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
