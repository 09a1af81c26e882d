"""The fuzz corpus: every input the fuzz suite found breaking the interpreter, replayed.

Each folder of tests/fuzz/corpus/ is a small game (made smaller by hand from
the case the fuzzer found) and a file `expected.txt` saying what loading and
playing it must give:

    # what the input is and how it broke the interpreter
    # found: bench/fuzz.py case 1:103
    # xfail: digits                    (a key of fuzz_known.ISSUES, until the issue is mended)
    # memory: 200                      (MB the case may use, when not the default)
    # expect: errors | refused | plays | clean
    game.yaml:23:8: error[E000]: ...         (with 'errors': the diagnostics, exactly;
                                        with 'refused': the start of each)

`errors`: the game does not load, and its diagnostics are exactly the lines
listed (paths inside the folder); `refused`: it does not load, and each
diagnostic starts as listed (`game.yaml:12`: the place is known, the words
not yet); `plays`: it loads and its games are played (ended, capped or
stopped by a clean fault); `clean`: either, as long as the fuzz oracle holds
(no exception, hang, warning, or error without a line). A case marked
`xfail` with the key of a known issue (fuzz_known.py) is expected to fail
(not strictly) until the issue is mended; then its mark goes, and its
expectation is made exact.

Every case runs in a worker process under a CPU and a memory limit
(fuzz_runner.py), as the fuzz runs do.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import fuzz_runner as R
from fuzz_known import ISSUES
from fuzz_mutations import Case

pytestmark = pytest.mark.skipif(not R.CAN_FORK, reason="the fuzz driver forks its workers and limits them (POSIX)")

CORPUS = Path(__file__).resolve().parent / "corpus"
LIMITS = R.Limits(cpu_seconds=3)
EXPECTS = ("errors", "refused", "plays", "clean")


def read_expected(folder: Path) -> tuple[dict, list]:
    meta, lines = {}, []
    for line in (folder / "expected.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            key, sep, value = line[1:].strip().partition(":")
            if sep and key in ("found", "xfail", "expect", "memory"):
                meta[key] = value.strip()
        elif line.strip():
            lines.append(line)
    return meta, lines


ENTRIES = sorted(p.parent.name for p in CORPUS.glob("*/expected.txt"))


def _param(name: str):
    meta, _ = read_expected(CORPUS / name)
    if "xfail" not in meta:
        return pytest.param(name, id=name)
    reason = ISSUES.get(meta["xfail"], meta["xfail"])
    return pytest.param(name, marks=[pytest.mark.xfail(reason=reason, strict=False)], id=name)


def _limits(name: str) -> R.Limits:
    meta, _ = read_expected(CORPUS / name)
    return R.Limits(LIMITS.cpu_seconds, int(meta["memory"])) if "memory" in meta else LIMITS


@pytest.fixture(scope="module")
def replayed() -> dict:
    out = {}
    for limits in sorted({_limits(name) for name in ENTRIES}, key=repr):
        names = [name for name in ENTRIES if _limits(name) == limits]
        cases = [Case(f"corpus:{name}", "corpus", CORPUS / name, target=f"corpus/{name}") for name in names]
        out.update(zip(names, R.run_cases(cases, limits, workers=2)))
    return out


def test_every_entry_says_what_to_expect():
    assert ENTRIES, "the corpus is empty"
    for name in ENTRIES:
        meta, lines = read_expected(CORPUS / name)
        assert meta.get("expect") in EXPECTS, f"{name}: '# expect:' must be one of {EXPECTS}"
        if meta["expect"] in ("plays", "clean"):
            assert not lines, f"{name}: diagnostics listed only with 'expect: errors' or 'refused'"
        if meta["expect"] == "errors":
            assert lines, f"{name}: 'expect: errors' lists the diagnostics"
        assert (CORPUS / name / "game.yaml").is_file(), f"{name}: no game.yaml"
        # an issue mended (gone from fuzz_known.py) takes the xfail marks of its entries with it
        assert "xfail" not in meta or meta["xfail"] in ISSUES, f"{name}: xfail names no known issue"


@pytest.mark.parametrize("name", [_param(n) for n in ENTRIES])
def test_corpus_entry(name, replayed):
    meta, lines = read_expected(CORPUS / name)
    out = replayed[name]
    assert out.failure is None, out.line() + "\n    frames: " + " < ".join(reversed(out.frames))
    if meta["expect"] == "errors":
        assert out.stage == "load error", f"{name} loaded; expected:\n" + "\n".join(lines)
        assert out.diagnostics == lines
    elif meta["expect"] == "refused":
        assert out.stage == "load error", f"{name} loaded; expected errors at:\n" + "\n".join(lines)
        assert not lines or len(out.diagnostics) == len(lines) and all(d.startswith(w) for d, w in zip(out.diagnostics, lines)), \
            "\n".join(out.diagnostics)
    elif meta["expect"] == "plays":
        assert out.stage == "loaded", "\n".join(out.diagnostics)
        assert out.games == LIMITS.games
