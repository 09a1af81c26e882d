"""Benchmarks of regles: where the time goes, against the targets of the project.

    python bench/run.py [--quick] [--json bench/results.json] [--yardstick PATH] [--yardstick-only]
                        [--check-only] [--search-only]

Prints a table and writes bench/results.json. Every figure is the median of
several runs, with their min and max. This is a benchmark, not a test: it
asserts nothing, it reports.

The yardstick is a hand-written engine of Karman Swap in plain Python, kept
outside the project (../shared/bench/karman_ref.py beside the repository, or
`--yardstick PATH`). It is loaded from its path and run in this same process,
in pairs with our engine (one run of each, the order swapped every pair), so
that both meet the same machine load; the table gives how many times longer
our engine takes per game and per decision, the median of the pairs with min
and max. Without the yardstick, that part is skipped with a message.
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import interpreter  # noqa: E402
from interpreter.rulings.check import check_paths  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from interpreter.resources import content_dir  # noqa: E402

TARGETS = {
    "decisions_per_second": 60_000,
    "seeders-exodus_4p_games_per_second": 100,
    "cards_checked_per_second": 5_000,
    "check_peak_bytes": 1.5e9,  # checking 75,000 cards
    "cold_load_seconds": 0.5,
    "clone_microseconds": 100,
    "clone_speedup_over_deepcopy": 20,
    # time per game of our Karman Swap over the hand-written one's, at 4 players
    "karman-swap_4p_times_the_yardstick": 3,
    # the same, the game played by the native backend (the rules compiled to C)
    "karman-swap_4p_native_times_the_yardstick": 1.5,
}
YARDSTICK_GAME = "karman-swap"
YARDSTICK_PLAYERS = (2, 3, 4)


def summary(samples):
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "runs": len(samples)}


def cold_load(game: str, runs: int, stored: bool = False, first: bool = False):
    """A new process importing regles and loading `game`, in wall time and in processor time
    (the process's own, from its start): with nothing kept on disk from an earlier process (a
    first start, the cache off), or (`stored`) with what an earlier load of the same files
    kept there (compile.warm: a warm start), or (`first`) with the cache on and empty, as a
    user's very first start, which writes the store."""
    code = ("import time; t=time.perf_counter(); import interpreter; "
            f"interpreter.load({game!r}); print(time.perf_counter()-t, time.process_time())")
    env = dict(os.environ)
    # as after an install, which compiles the package's modules: Python keeps their bytecode
    # (a machine that forbids it would time the compiling of every module of regles)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if stored or first:
        env.pop("REGLES_NO_CACHE", None)
    else:
        env["REGLES_NO_CACHE"] = "1"
    wall, cpu = [], []
    with tempfile.TemporaryDirectory() as cache:
        env["XDG_CACHE_HOME"] = cache  # the bench's own, never the user's
        if stored:
            subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=str(HERE.parent), env=env)
        for i in range(runs):
            if first:
                env["XDG_CACHE_HOME"] = os.path.join(cache, str(i))  # empty each time
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(HERE.parent),
                               env=env)
            w, c = r.stdout.strip().splitlines()[-1].split()
            wall.append(float(w))
            cpu.append(float(c))
    return {**summary(wall), "cpu": summary(cpu)}


def warm_load(game: str, runs: int):
    interpreter.load(game)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        interpreter.load(game)
        out.append(time.perf_counter() - t)
    return summary(out)


def cards_checked(runs: int):
    folder = content_dir()
    g_cards = sum(len(interpreter.load(g).program.defn.cards) for g in shipped_games())
    check_paths([str(folder)])
    out = []
    from interpreter.content import source
    from interpreter.language import check_reuse, parser, texts
    for _ in range(runs):
        parser._TREES.clear()  # as a fresh `regles check` would: every text parsed anew
        texts.KEPT_TREES.clear()
        source.KEPT_LOADS.clear()  # and every file read
        check_reuse.KEPT_CHECKS.clear()  # and every ability checked
        t = time.perf_counter()
        check_paths([str(folder)])
        out.append(g_cards / (time.perf_counter() - t))
    return summary(out), g_cards


def written_out(data) -> str:
    """The YAML of `data` with every value written where it is used, no anchor and no alias: a
    card that repeats another's abilities holds its own copy of their texts, at its own place, so
    that each is read, parsed and checked as in a pack of distinct cards (PyYAML writes an object
    met twice once, and an alias to it after; the loader gives the copies the place of the first,
    and the check took them for one text)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data):
            return True
    return yaml.dump(data, Dumper=Dumper, allow_unicode=True)


def copied_cards(extra: int) -> list:
    """`extra` cards for a bench pack: the shipped cards of the Seeders deck again, under new ids."""
    import yaml
    cards = []
    for f in sorted((content_dir() / "seeders-exodus" / "cards").glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        if data.get("start") == "deck":
            cards.extend(data["cards"])
    more = []
    for i in range(extra):
        c = dict(cards[i % len(cards)])
        c["id"] = f"{c['id']}-bench-{i}"
        c.pop("copies", None)
        more.append(c)
    return more


def marginal_cards(runs: int, extra: int = 1000):
    """Cards per second of processor time that a pack's check takes for each card more: the
    Seeders pack (with its expansions and solo mode, no rules test) checked, then a copy of it
    with `extra` more cards (the shipped ones again under new ids, written out in full), in
    pairs whose order alternates. A difference of two checks moves far more than either on a
    shared machine, so the figure is that of the least time of each (what timeit reports: the
    run least disturbed), with the pairs' own figures as its spread."""
    import shutil
    import tempfile
    from interpreter.language import parser
    src = content_dir() / "seeders-exodus"
    more = copied_cards(extra)
    class NoCache(dict):  # every text parsed, even one repeated on several cards
        def __setitem__(self, key, value):
            pass
    saved, parser._TREES = parser._TREES, NoCache()
    from interpreter.content import source
    from interpreter.language import check_reuse, texts
    kept, texts.KEPT_MOST = texts.KEPT_MOST, 0  # nor kept from one check to the next
    kept_bytes, source.KEPT_BYTES = source.KEPT_BYTES, 0  # every file read again
    kept_checks, check_reuse.KEPT_MOST = check_reuse.KEPT_MOST, 0  # every ability checked again
    out, least = [], [float("inf"), float("inf")]

    def timed(pack) -> float:
        t = time.process_time()
        report = check_paths([str(pack)])
        assert report.ok, "the bench pack does not check"
        return time.process_time() - t
    with tempfile.TemporaryDirectory() as tmp:
        base, pack = Path(tmp) / "base", Path(tmp) / "pack"
        for folder in (base, pack):
            shutil.copytree(src, folder)
            shutil.rmtree(folder / "tests", ignore_errors=True)
        (pack / "cards" / "bench.yaml").write_text(written_out(
            {"kind": "cards", "game": "seeders-exodus", "component": "card", "start": "deck", "cards": more}),
            encoding="utf-8")
        timed(base)  # the process's first check builds what every later one finds made
        for i in range(2 * runs):
            if i % 2:
                with_more = timed(pack)
                without = timed(base)
            else:
                without = timed(base)
                with_more = timed(pack)
            out.append(extra / max(1e-9, with_more - without))
            least = [min(least[0], without), min(least[1], with_more)]
    parser._TREES = saved
    texts.KEPT_MOST = kept
    source.KEPT_BYTES = kept_bytes
    check_reuse.KEPT_MOST = kept_checks
    pairs = summary(out)
    return {**pairs, "median": extra / max(1e-9, least[1] - least[0]), "pairs_median": pairs["median"],
            "least_seconds": {"without": least[0], "with": least[1]}}


CHECK_SIZES = (1_000, 10_000, 75_000)  # cards added to a pack, for the check at scale
CARDS_PER_FILE = 2_000  # a content file holds at most 200,000 values (interpreter.limits)


def scale_pack(folder: Path, extra: int) -> None:
    """A copy of the Seeders base pack (no expansion, no rules test) with `extra` more cards:
    the shipped cards of its deck again under new ids, each written out in full (`written_out`),
    in files of CARDS_PER_FILE cards."""
    import shutil
    shutil.copytree(content_dir() / "seeders-exodus", folder)
    for gone in ("tests", "expansions"):
        shutil.rmtree(folder / gone, ignore_errors=True)
    more = copied_cards(extra)
    for k in range(0, extra, CARDS_PER_FILE):
        (folder / "cards" / f"bench-{k // CARDS_PER_FILE:03d}.yaml").write_text(written_out(
            {"kind": "cards", "game": "seeders-exodus", "component": "card", "start": "deck",
             "cards": more[k:k + CARDS_PER_FILE]}), encoding="utf-8")


# every text parsed, even one repeated on several cards (the copies repeat the shipped texts,
# which a real pack of that size would not): the parser keeps no tree
_CHECK_ONE = ("import resource, sys, time; sys.path.insert(0, {root!r}); "
              "from interpreter.language import parser; "
              "parser._TREES = type('NoCache', (dict,), {{'__setitem__': lambda self, k, v: None}})(); "
              "from interpreter.rulings.check import check_paths; "
              "c, w = time.process_time(), time.perf_counter(); r = check_paths([{pack!r}]); "
              "print(r.ok, time.process_time() - c, time.perf_counter() - w, "
              "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")


def check_at_scale(sizes, runs: int):
    """`regles check` of a pack with N more cards, each run in a fresh process with every text
    parsed, even one repeated: cards added per second of processor time (the base pack's own
    check counted in), wall time, and the process's peak resident memory."""
    import tempfile
    from interpreter.content.source import NATIVE_SETUP
    from interpreter.content.yaml_native import native_reader
    # the native YAML reader (of files of NATIVE_FROM bytes or more) built before the runs, as a
    # user's first check of a large pack builds it once; the table says which reader read
    native = native_reader(NATIVE_SETUP) is not None
    out = {"yaml_reader": "native (libyaml, built in C)" if native else "Python (PyYAML's composer)"}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            pack = Path(tmp) / f"pack-{n}"
            scale_pack(pack, n)
            cpu, wall, peak = [], [], []
            for _ in range(runs):
                r = subprocess.run([sys.executable, "-c", _CHECK_ONE.format(root=str(HERE.parent), pack=str(pack))],
                                   capture_output=True, text=True)
                ok, c, w, rss = r.stdout.split()
                assert ok == "True", f"the bench pack of {n} cards does not check: {r.stderr[-500:]}"
                cpu.append(float(c))
                wall.append(float(w))
                peak.append(int(rss) * 1024)  # ru_maxrss is in kB on Linux
            out[n] = {"cards_per_cpu_second": summary([n / c for c in cpu]), "cpu_seconds": summary(cpu),
                      "wall_seconds": summary(wall), "peak_bytes": max(peak)}
    return out


def marginal_row(mcps: dict) -> tuple:
    """The table's row of `marginal_cards`, judged against the target."""
    return ("cards checked per second (1,000 more in a pack, least times)",
            f"{mcps['median']:.0f} (pairs {mcps['min']:.0f}-{mcps['max']:.0f})",
            _verdict(mcps["median"] >= TARGETS["cards_checked_per_second"], TARGETS["cards_checked_per_second"]))


def check_rows(scale: dict, rows: list) -> None:
    """The table's rows of `check_at_scale`, the largest pack judged against the target."""
    rows.append(("YAML reader of a pack's large files", scale.get("yaml_reader", "?"), ""))
    for n, v in scale.items():
        if n == "yaml_reader":
            continue
        rate, peak = v["cards_per_cpu_second"]["median"], v["peak_bytes"]
        verdict = ""
        if n == max(CHECK_SIZES):
            verdict = _verdict(rate >= TARGETS["cards_checked_per_second"] and peak <= TARGETS["check_peak_bytes"],
                               f"{TARGETS['cards_checked_per_second']} cards/s in "
                               f"{TARGETS['check_peak_bytes'] / 1e9:.1f} GB")
        rows.append((f"check a pack with {n:,} more cards (CPU, peak memory)",
                     f"{rate:.0f} cards/s ({v['cpu_seconds']['median']:.1f} s), {peak / 1e6:.0f} MB", verdict))


def find_yardstick(given: str | None):
    """The path of the hand-written engine, or None. Beside the repository, or beside its main
    checkout when this is a second worktree of it."""
    if given:
        return Path(given) if Path(given).is_file() else None
    roots = [HERE.parent]
    r = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], capture_output=True,
                       text=True, cwd=str(HERE.parent))
    if r.returncode == 0 and r.stdout.strip():
        roots.append(Path(r.stdout.strip()).parent)
    for root in roots:
        path = root.parent / "shared" / "bench" / "karman_ref.py"
        if path.is_file():
            return path
    return None


def load_yardstick(path: Path):
    spec = importlib.util.spec_from_file_location("yardstick_karman", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def versus_yardstick(game, ref, players: int, games: int, pairs: int):
    """Pairs of runs, ours and the yardstick's, alternating which goes first. Each ratio is
    ours over the yardstick's time (per game, per decision): 3 means three times as long. The
    yardstick plays more games a run, so that both runs last about as long. Times are wall
    time, and processor time as well (`*_cpu`: what another process on the machine takes
    from a run's wall time, it does not take from its processor time)."""
    ratios_g, ratios_d, ours_g, ours_d, hand_g, hand_d = [], [], [], [], [], []
    cpu_g, cpu_d = [], []
    native_g, native_cpu_g, native_gps, native_dps = [], [], [], []
    ref_games = games * 8
    compiled = native_game(game)
    for k in range(pairs):
        def hand():
            c = time.process_time()
            out = ref.run(players, ref_games, 1 + k)
            cpu = time.process_time() - c
            if out.get("errors"):
                raise SystemExit(f"the yardstick failed {out['errors']} games: {out.get('error_seeds')}")
            decisions = out["decisions_per_second"] / out["games_per_second"] * ref_games
            return out["games_per_second"], out["decisions_per_second"], cpu / ref_games, cpu / decisions

        def ours():
            c = time.process_time()
            g, d = playouts(game, players, games, 1, first_seed=100_000 * (k + 1))
            cpu = time.process_time() - c
            decisions = d["median"] / g["median"] * games
            return g["median"], d["median"], cpu / games, cpu / decisions

        def in_c(k=k):
            c = time.process_time()
            g, d = native_playouts(compiled, players, ref_games, 1, first_seed=100_000 * (k + 1))
            return g["median"], d["median"], (time.process_time() - c) / ref_games

        if k % 2 == 0:
            og, od, ocg, ocd = ours()
            hg, hd, hcg, hcd = hand()
        else:
            hg, hd, hcg, hcd = hand()
            og, od, ocg, ocd = ours()
        if compiled is not None:
            ng, nd, ncg = in_c()
            native_gps.append(ng)
            native_dps.append(nd)
            native_g.append(hg / ng)
            native_cpu_g.append(ncg / hcg)
        ours_g.append(og)
        ours_d.append(od)
        hand_g.append(hg)
        hand_d.append(hd)
        ratios_g.append(hg / og)
        ratios_d.append(hd / od)
        cpu_g.append(ocg / hcg)
        cpu_d.append(ocd / hcd)
    return {"times_per_game": summary(ratios_g), "times_per_decision": summary(ratios_d),
            "times_per_game_cpu": summary(cpu_g), "times_per_decision_cpu": summary(cpu_d),
            "ours_games_per_second": summary(ours_g), "ours_decisions_per_second": summary(ours_d),
            "yardstick_games_per_second": summary(hand_g), "yardstick_decisions_per_second": summary(hand_d),
            "pairs": pairs, "games_per_run": {"ours": games, "yardstick": ref_games},
            **({"native": {"times_per_game": summary(native_g), "times_per_game_cpu": summary(native_cpu_g),
                           "games_per_second": summary(native_gps), "decisions_per_second": summary(native_dps)}}
               if native_g else {"native": {"skipped": NATIVE_WHY.get(game.id, "")}})}


NATIVE_WHY: dict = {}  # game id -> why the native backend does not play it


def native_game(game):
    """The game compiled by the native backend, or None (why: NATIVE_WHY)."""
    try:
        from interpreter.native import NativeGame, NoCompiler, NotNative
    except ImportError as exc:
        NATIVE_WHY[game.id] = str(exc)
        return None
    try:
        return NativeGame(game)
    except (NotNative, NoCompiler) as exc:
        NATIVE_WHY[game.id] = str(exc).splitlines()[0][:160]  # a row of the table: its first line
        return None


def native_playouts(compiled, players: int, games: int, runs: int, first_seed: int = 0):
    """(games/s, decisions/s) of random play on the native backend, in wall time (processor
    time as the second's "cpu"): each game begun in Python (its blank state, as the Python
    backend lays it) and played to its end in C by the seats' random agents."""
    from interpreter.play.agents import agent_seed
    per_game, per_decision, per_cpu = [], [], []
    for r in range(runs):
        decisions = 0
        t, c = time.perf_counter(), time.process_time()
        for i in range(games):
            seed = first_seed + r * 10_000 + i
            st = compiled.new_state(players=players, seed=seed)
            decisions += st.random_play([agent_seed(seed, s) for s in range(players)])
        el, cpu = time.perf_counter() - t, time.process_time() - c
        per_game.append(games / el)
        per_decision.append(decisions / el)
        per_cpu.append(decisions / max(cpu, 1e-9))
    return summary(per_game), {**summary(per_decision), "cpu": summary(per_cpu)}


def yardstick_rows(results: dict, rows: list, path, games: int, pairs: int, looked_for: str) -> None:
    if path is None:
        results["yardstick"] = {"skipped": f"not found: {looked_for}"}
        rows.append(("ours against the hand-written yardstick", f"skipped: not found ({looked_for})", ""))
        return
    ref = load_yardstick(path)
    game = interpreter.load(YARDSTICK_GAME)
    out = results["yardstick"] = {"path": str(path)}
    for players in YARDSTICK_PLAYERS:
        r = out[f"{YARDSTICK_GAME}/{players}p"] = versus_yardstick(game, ref, players, games, pairs)
        g, d = r["times_per_game"], r["times_per_decision"]
        target = TARGETS["karman-swap_4p_times_the_yardstick"] if players == 4 else None
        rows.append((f"{YARDSTICK_GAME} {players}p, ours / hand-written time",
                     f"x{g['median']:.2f} per game ({g['min']:.2f}-{g['max']:.2f}), "
                     f"x{d['median']:.2f} per decision ({d['min']:.2f}-{d['max']:.2f})",
                     _verdict(g["median"] <= target, f"x{target} or less", "per game") if target else ""))
        gc_, dc = r["times_per_game_cpu"], r["times_per_decision_cpu"]
        rows.append((f"  the same in processor time",
                     f"x{gc_['median']:.2f} per game ({gc_['min']:.2f}-{gc_['max']:.2f}), "
                     f"x{dc['median']:.2f} per decision ({dc['min']:.2f}-{dc['max']:.2f})", ""))
        rows.append((f"  ours / hand-written, games/s and decisions/s",
                     f"{r['ours_games_per_second']['median']:.1f} / {r['yardstick_games_per_second']['median']:.1f}, "
                     f"{r['ours_decisions_per_second']['median']:.0f} / "
                     f"{r['yardstick_decisions_per_second']['median']:.0f}", ""))
        nat = r["native"]
        if "skipped" in nat:
            rows.append(("  native backend / hand-written time", f"skipped: {nat['skipped']}", ""))
            continue
        ng, ncg = nat["times_per_game"], nat["times_per_game_cpu"]
        target = TARGETS["karman-swap_4p_native_times_the_yardstick"] if players == 4 else None
        rows.append(("  native backend / hand-written time",
                     f"x{ng['median']:.2f} per game ({ng['min']:.2f}-{ng['max']:.2f}); "
                     f"processor time x{ncg['median']:.2f}; {nat['games_per_second']['median']:.0f} games/s, "
                     f"{nat['decisions_per_second']['median']:.0f} decisions/s",
                     _verdict(ng["median"] <= target, f"x{target} or less", "per game") if target else ""))


def playouts(game, players: int, games: int, runs: int, first_seed: int = 0):
    """(games/s, decisions/s) of random play in wall time; the decisions/s in processor time
    are kept as the second's "cpu" entry."""
    per_game, per_decision, per_cpu = [], [], []
    for r in range(runs):
        decisions = 0
        t, c = time.perf_counter(), time.process_time()
        for i in range(games):
            st = game.new_state(players=players, seed=first_seed + r * 10_000 + i)
            rng = random.Random(i)
            while not st.is_terminal():
                acts = st.legal_actions()
                st.apply(acts[rng.randrange(len(acts))])
                decisions += 1
        el, cpu = time.perf_counter() - t, time.process_time() - c
        per_game.append(games / el)
        per_decision.append(decisions / el)
        per_cpu.append(decisions / max(cpu, 1e-9))
    return summary(per_game), {**summary(per_decision), "cpu": summary(per_cpu)}


def mid_game_state(game, players: int, steps: int = 60):
    st = game.new_state(players=players, seed=7)
    rng = random.Random(7)
    for _ in range(steps):
        if st.is_terminal():
            break
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    return st


def clone_times(game, players: int, runs: int):
    st = mid_game_state(game, players)
    n = 2000
    clones, deeps = [], []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(n):
            st.clone()
        clones.append((time.perf_counter() - t) / n * 1e6)
        t = time.perf_counter()
        for _ in range(20):
            # the static game (rules, compiled code) is shared, as clone() shares it: only the state is copied
            copy.deepcopy(st, {id(st.program): st.program})
        deeps.append((time.perf_counter() - t) / 20 * 1e6)
    return summary(clones), summary(deeps)


SEARCH_BUDGETS = (50, 100, 400)  # the search agent's iterations a decision (`mcts:N`)
SEARCH_PLAYERS = 4


def search_speed(game, players: int, budget: int, decisions: int):
    """Decisions a second of the search agent (`mcts:BUDGET`), each seat's own, from the
    states of one random game (every seventh decision with a choice), in processor time and
    in wall time."""
    from interpreter.play.agents import SeatView
    from interpreter.play.mcts import MctsAgent
    st = game.new_state(players=players, seed=11)
    rng = random.Random(11)
    states, step = [], 0
    while not st.is_terminal() and len(states) < decisions:
        acts = st.legal_actions()
        if len(acts) > 1 and step % 7 == 0:
            states.append(st.clone())
        st.apply(acts[rng.randrange(len(acts))])
        step += 1
    agent = MctsAgent(1, str(budget))
    c, w = time.process_time(), time.perf_counter()
    for s in states:
        agent.act(SeatView(s, s.current_player))
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    return {"decisions": len(states), "per_cpu_second": len(states) / cpu, "per_second": len(states) / wall,
            "iterations_per_cpu_second": agent.searched / cpu}


def search_rows(results: dict, rows: list, decisions: int) -> None:
    out = results["search"] = {}
    for name in shipped_games():
        game = interpreter.load(name)
        players = min(max(SEARCH_PLAYERS, game.min_players), game.max_players)
        for budget in SEARCH_BUDGETS:
            r = out[f"{name}/{players}p/mcts:{budget}"] = search_speed(game, players, budget, decisions)
            rows.append((f"{name} {players}p, search agent mcts:{budget}",
                         f"{r['per_cpu_second']:.1f} decisions/s CPU ({r['per_second']:.1f} wall), "
                         f"{r['iterations_per_cpu_second']:.0f} iterations/s", ""))


def peak_memory(game, players: int):
    tracemalloc.start()
    st = game.new_state(players=players, seed=1)
    rng = random.Random(1)
    while not st.is_terminal():
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs and games")
    ap.add_argument("--json", default=str(HERE / "results.json"))
    ap.add_argument("--yardstick", metavar="PATH",
                    help="the hand-written engine to compare with (default: ../shared/bench/karman_ref.py)")
    ap.add_argument("--yardstick-only", action="store_true",
                    help="only the comparison with the yardstick (the rest of the JSON file is kept)")
    ap.add_argument("--check-only", action="store_true",
                    help="only the check: packs of 1,000, 10,000 and 75,000 more cards, and a pack's marginal card "
                         "(the rest of the JSON file is kept)")
    ap.add_argument("--load-only", action="store_true",
                    help="only the loads of each shipped game: first process, warm start, again in-process "
                         "(the rest of the JSON file is kept)")
    ap.add_argument("--search-only", action="store_true",
                    help="only the search agent's decisions per second (the rest of the JSON file is kept)")
    args = ap.parse_args(argv)
    runs = 3 if args.quick else 5
    games_per_run = 10 if args.quick else 40
    pairs = 3 if args.quick else 7
    yardstick = find_yardstick(args.yardstick)
    looked_for = args.yardstick or "../shared/bench/karman_ref.py beside the repository"
    if yardstick is None:
        print(f"the yardstick was not found ({looked_for}): the comparison with it is skipped; "
              "give its path with --yardstick PATH", file=sys.stderr)
    results = {"machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                           "cores": os.cpu_count()}, "load": {}, "play": {}, "clone": {}, "memory": {}}
    rows = []
    if args.check_only:
        scale = check_at_scale(CHECK_SIZES, runs)
        check_rows(scale, rows)
        mcps = marginal_cards(runs)
        rows.append(marginal_row(mcps))
        _write_part(args.json, rows, "check_at_scale", {str(n): v for n, v in scale.items()}, "the check's",
                    {"cards_checked_per_second_marginal": mcps})
        return
    if args.search_only:
        search_rows(results, rows, 6 if args.quick else 12)
        _write_part(args.json, rows, "search", results["search"], "the search agent's")
        return
    if args.load_only:
        load_rows(results, rows, runs)
        _write_part(args.json, rows, "load", results["load"], "the loads'")
        return
    yardstick_rows(results, rows, yardstick, games_per_run, pairs, looked_for)
    if args.yardstick_only:
        _write_part(args.json, rows, "yardstick", results["yardstick"], "the yardstick's")
        return
    load_rows(results, rows, runs)
    cps, ncards = cards_checked(runs)
    results["cards_checked_per_second"] = cps
    rows.append((f"whole shipped content checked ({ncards} cards)", f"{cps['median']:.0f} cards/s", ""))
    scale = check_at_scale(CHECK_SIZES[:2] if args.quick else CHECK_SIZES, 1 if args.quick else 3)
    results["check_at_scale"] = {str(n): v for n, v in scale.items()}
    check_rows(scale, rows)
    mcps = marginal_cards(runs)
    results["cards_checked_per_second_marginal"] = mcps
    rows.append(marginal_row(mcps))
    worst_dps = None
    for name, game in [(n, interpreter.load(n)) for n in shipped_games()] + _solo_modes():
        for players in range(game.min_players, game.max_players + 1):
            gps, dps = playouts(game, players, games_per_run, runs)
            results["play"][f"{name}/{players}p"] = {"games_per_second": gps, "decisions_per_second": dps}
            target = TARGETS.get(f"{name}_{players}p_games_per_second")
            rows.append(_play_row(f"{name} {players}p random playouts", gps, dps, target))
            if name in shipped_games():  # (a solo mode counts only the player's decisions, not its automaton's)
                worst_dps = dps["median"] if worst_dps is None else min(worst_dps, dps["median"])
            compiled = native_game(game)
            if compiled is None:
                results["play"][f"{name}/{players}p"]["native"] = {"skipped": NATIVE_WHY[game.id]}
                if players == game.min_players:
                    rows.append((f"  {name} on the native backend", f"not run: {NATIVE_WHY[game.id]}", ""))
                continue
            ngps, ndps = native_playouts(compiled, players, games_per_run * 10, runs)
            results["play"][f"{name}/{players}p"]["native"] = {"games_per_second": ngps,
                                                               "decisions_per_second": ndps}
            rows.append(_play_row(f"  {name} {players}p on the native backend", ngps, ndps, target))
    rows.append(("slowest decisions per second", f"{worst_dps:.0f}",
                 _verdict(worst_dps >= TARGETS["decisions_per_second"], TARGETS["decisions_per_second"])))
    base = {k: v for k, v in results["play"].items() if k.split("/")[0] in shipped_games()}
    native = [v["native"]["decisions_per_second"]["median"] for v in base.values()
              if "decisions_per_second" in v.get("native", {})]
    if native:
        whole = len(native) == len(base)
        rows.append(("  slowest on the native backend" + ("" if whole else " (of the games it runs)"),
                     f"{min(native):.0f}", _verdict(min(native) >= TARGETS["decisions_per_second"] and whole,
                                                    TARGETS["decisions_per_second"])))
    for name in shipped_games():
        game = interpreter.load(name)
        players = game.max_players
        c, d = clone_times(game, players, runs)
        results["clone"][f"{name}/{players}p"] = {"clone_us": c, "deepcopy_us": d, "speedup": d["median"] / c["median"]}
        rows.append((f"clone {name} {players}p (deepcopy)", f"{c['median']:.1f} us ({d['median']:.0f} us, x{d['median'] / c['median']:.0f})",
                     _verdict(c["median"] <= TARGETS["clone_microseconds"] and d["median"] / c["median"] >= 20,
                              "<100 us, x20")))
        results["memory"][f"{name}/{players}p"] = peak_memory(game, players)
        rows.append((f"peak memory of one {name} {players}p game", f"{results['memory'][f'{name}/{players}p'] / 1e3:.0f} kB", ""))
    search_rows(results, rows, 6 if args.quick else 12)
    results["targets"] = TARGETS
    _print_rows(rows)
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten {args.json}")
    if any(r[2].startswith("SHORT") for r in rows):
        print("where the time goes and why a target is short: docs/performance.md")


def _solo_modes() -> list:
    """(name, game) of each shipped game's solo mode, at its default level: the automaton's
    decisions are the rules', not the random agents' (not counted as decisions)."""
    from interpreter.content.layers import available_expansions
    out = []
    for name in shipped_games():
        for layer in available_expansions(interpreter.resources.content_dir() / name).values():
            if layer.solo is not None:  # an expansion that is its game's solo mode (`solo:`)
                out.append((f"{name} {layer.id}", interpreter.load(name).with_layers([layer.id], None, None)))
    return out


def _play_row(what: str, gps: dict, dps: dict, target) -> tuple:
    """A row of random playouts: games and decisions a second, judged against the targets."""
    verdict = _verdict(dps["median"] >= TARGETS["decisions_per_second"], TARGETS["decisions_per_second"], "decisions/s")
    if target:
        verdict = _verdict(gps["median"] >= target, target, "games/s") + "; " + verdict
    return (what, f"{gps['median']:.1f} games/s, {dps['median']:.0f} decisions/s "
                  f"({dps['cpu']['median']:.0f} of processor time)", verdict)


def load_rows(results: dict, rows: list, runs: int) -> None:
    """The three loads of each shipped game, the first process judged against the target."""
    for name in shipped_games():
        results["load"][name] = {"cold_seconds": cold_load(name, runs),
                                 "first_seconds": cold_load(name, runs, first=True),
                                 "stored_seconds": cold_load(name, runs, stored=True),
                                 "warm_seconds": warm_load(name, runs)}
        got = results["load"][name]
        cold, stored, first = got["cold_seconds"], got["stored_seconds"], got["first_seconds"]
        rows.append((f"load {name} (first process / warm start / again in-process)",
                     f"{cold['median']:.3f} s / {stored['median']:.3f} s / {got['warm_seconds']['median']:.3f} s",
                     _verdict(cold["median"] <= TARGETS["cold_load_seconds"], f"{TARGETS['cold_load_seconds']} s cold")))
        rows.append(("  processor time of the whole process (Python's own start in)",
                     f"{cold['cpu']['median']:.3f} s / {stored['cpu']['median']:.3f} s", ""))
        rows.append(("  a first process that writes the store (cache on, empty)",
                     f"{first['median']:.3f} s ({first['cpu']['median']:.3f} s of processor time)", ""))


def _write_part(path: str, rows: list, key: str, value, whose: str, more: dict | None = None) -> None:
    """Print `rows`, and write `value` as part `key` of the JSON file at `path` (and the parts of
    `more`), the other figures of the file kept as they are."""
    _print_rows(rows)
    out = Path(path)
    kept = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    kept[key] = value
    kept.update(more or {})
    out.write_text(json.dumps(kept, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten {whose} part of {path}")


def _print_rows(rows) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'median':<40}  target")
    for label, value, verdict in rows:
        print(f"{label:<{width}}  {value:<40}  {verdict}")


def _verdict(ok: bool, target, unit: str = "") -> str:
    return ("met" if ok else "SHORT") + f" (target {target}{' ' + unit if unit else ''})"


if __name__ == "__main__":
    main()
