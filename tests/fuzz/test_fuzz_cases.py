"""The fuzz suite: mutants of every shipped content file and hostile programs, loaded and played.

Each case (see fuzz_mutations.py and fuzz_hostile.py) runs in a worker process
of its own with a CPU and a memory limit (fuzz_runner.py): it is loaded with
`interpreter.load`; when it loads, a few random games are played under a
decision cap. No case may raise anything but clean errors, hang, run out of
memory, warn, or report an error without a file and a line.

The default run is small (REGLES_FUZZ_CASES cases, 40 unless set); the run
marked slow (`python -m pytest -m slow tests/fuzz`) is 3,000 cases;
`python bench/fuzz.py` runs any number and prints the figures. Failures of
the issues known and tracked (fuzz_known.py) are let through by the main
test, and fail a test expected to fail until they are all mended.
"""
from __future__ import annotations

import os

import pytest

import fuzz_runner as R
from fuzz_known import ISSUES, known_issue

pytestmark = pytest.mark.skipif(not R.CAN_FORK, reason="the fuzz driver forks its workers and limits them (POSIX)")

SEED = 1
CASES = int(os.environ.get("REGLES_FUZZ_CASES", "40"))
SLOW_CASES = 3000
LIMITS = R.Limits(cpu_seconds=5)


@pytest.fixture(scope="module")
def outcomes():
    return R.run_cases(R.make_cases(SEED, CASES), LIMITS, workers=2)


def _listed(failed) -> str:
    return "\n".join(o.line() + (f"\n    frames: {' < '.join(reversed(o.frames))}" if o.frames else "")
                     for o in failed[:20])


def test_no_case_fails_in_an_unknown_way(outcomes):
    unknown = [o for o in outcomes if o.failure and known_issue(o) is None]
    assert not unknown, f"{len(unknown)} cases failed (replay one with python bench/fuzz.py --show NAME):\n" \
                        + _listed(unknown)


def test_the_cases_reach_every_stage(outcomes):
    """The run tests what it means to: cases refused at loading, and cases loaded and played."""
    figures = R.summary(outcomes)
    assert figures["mutants"] > 0 and figures["hostile"] > 0
    assert figures["load errors"] > CASES // 10, figures
    assert figures["loaded"] > CASES // 10, figures
    assert figures["games ended"] > 0 and figures["decisions"] > 0, figures
    # a case that loads is played; a case that does not has errors to say why
    assert all(o.games == LIMITS.games for o in outcomes if o.stage == "loaded" and not o.failure)
    assert all(o.errors > 0 for o in outcomes if o.stage == "load error")


def test_no_case_fails_at_all(outcomes):
    """The default cases no longer meet any known issue either (those left are found by the
    slow run only: a procedure of 20,000 statements, a text of 300,000 errors)."""
    failed = [o for o in outcomes if o.failure]
    issues = sorted({ISSUES[known_issue(o)] for o in failed if known_issue(o)})
    assert not failed, "known issues:\n  " + "\n  ".join(issues) + "\n" + _listed(failed)


@pytest.mark.slow
def test_a_large_run_fails_in_no_unknown_way():
    outcomes = R.run_cases(R.make_cases(SEED + 1, SLOW_CASES), R.Limits(cpu_seconds=10), workers=2)
    unknown = [o for o in outcomes if o.failure and known_issue(o) is None]
    assert not unknown, f"{len(unknown)} cases failed:\n" + _listed(unknown)
    assert R.summary(outcomes)["games"] > SLOW_CASES // 10
