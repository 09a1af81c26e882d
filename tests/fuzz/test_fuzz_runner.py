"""The fuzz driver itself: it tells each kind of failure apart, and lets sound cases pass.

Each test makes the worker fail one way (the interpreter's `load` replaced, in
the parent, by something that loops, raises, warns, runs out of memory or
dies: the worker is forked, so it inherits the replacement) and checks the
outcome the driver reports. The hang is stopped by the worker's CPU limit,
not by a clock.
"""
from __future__ import annotations

import os
import random
import warnings

import pytest

import fuzz_runner as R
from fuzz_hostile import benign, hostile
from fuzz_mutations import OPERATIONS, mutant, shipped_files
from interpreter import LoadError
from interpreter.diagnostics import Position, Report

pytestmark = pytest.mark.skipif(not R.CAN_FORK, reason="the fuzz driver forks its workers and limits them (POSIX)")

QUICK = R.Limits(cpu_seconds=2, games=1, decisions=50)


@pytest.fixture(autouse=True)
def warm():
    R.warm_up()  # before `load` is replaced: the parent warms up with the real one


def _run_with_load(monkeypatch, fake, limits=QUICK) -> R.Outcome:
    monkeypatch.setattr(R.interpreter, "load", fake)
    (out,) = R.run_cases([benign()], limits, workers=1)
    return out


def test_the_game_of_the_hostile_pieces_loads_and_its_games_end():
    (out,) = R.run_cases([benign()], R.Limits(), workers=1)
    assert (out.stage, out.failure) == ("loaded", None)
    assert out.games == 2 and out.ended == 2 and out.decisions > 0


def test_a_case_that_never_ends_is_stopped_as_a_hang_where_it_spins(monkeypatch):
    def spin_forever(path):
        n = 0
        while True:
            n += 1

    out = _run_with_load(monkeypatch, spin_forever, R.Limits(cpu_seconds=1))
    assert out.failure == "hang"
    assert any("spin_forever" in f for f in out.frames), out.frames


def test_an_exception_is_a_failure_with_its_frames(monkeypatch):
    def broken(path):
        return {}["missing"]

    out = _run_with_load(monkeypatch, broken)
    assert out.failure == "exception" and out.detail == "KeyError: 'missing'"
    assert out.frames[-1].endswith(" broken")


def test_running_out_of_memory_is_a_failure(monkeypatch):
    def hungry(path):
        return bytearray(8 * 1024 ** 3)

    out = _run_with_load(monkeypatch, hungry)
    assert out.failure == "memory"


def test_a_worker_that_dies_is_a_crash(monkeypatch):
    out = _run_with_load(monkeypatch, lambda path: os._exit(3))
    assert out.failure == "crash" and "status 3" in out.detail


def test_a_warning_is_a_failure(monkeypatch):
    def warns(path):
        warnings.warn("'is not' with a literal", SyntaxWarning)
        raise LoadError(Report())

    out = _run_with_load(monkeypatch, warns)
    assert out.failure == "warning" and out.detail.startswith("SyntaxWarning: 'is not' with a literal")


def test_an_error_without_a_line_of_a_file_is_a_failure(monkeypatch):
    def nowhere(path):
        report = Report()
        report.error(Position(str(path)), "something is wrong")
        raise LoadError(report)

    out = _run_with_load(monkeypatch, nowhere)
    assert out.stage == "load error" and out.failure == "no position"


def test_a_clean_error_is_no_failure_and_names_its_line(monkeypatch):
    def clean(path):
        report = Report()
        report.error(Position(os.path.join(path, "game.yaml"), 3, 5), "unknown zone 'dek'")
        raise LoadError(report)

    out = _run_with_load(monkeypatch, clean)
    assert (out.stage, out.failure, out.errors) == ("load error", None, 1)
    assert out.diagnostics == ["game.yaml:3:5: error: unknown zone 'dek'"]


def test_cases_are_remade_from_their_seed_and_index():
    assert mutant(7, 3).files == mutant(7, 3).files and mutant(7, 3).what == mutant(7, 3).what
    assert hostile(7, 3).files == hostile(7, 3).files
    made = {tuple(sorted(mutant(7, i).files.items())) for i in range(20)}
    assert len(made) > 15  # and different indices give different cases


def test_every_shipped_file_can_be_mutated_and_every_mutation_changes_text():
    targets = {rel for _, rel in shipped_files()}
    assert "game.yaml" in targets and "keywords.yaml" in targets
    assert any(r.startswith("cards/") for r in targets) and any(r.startswith("tests/") for r in targets)
    for op in OPERATIONS:
        rng = random.Random(op.__name__)
        base = "kind: game\nprocedures:\n  game: |\n    if round == 1:\n      score 2\n"
        text, said = op(rng, base)
        assert text != base or said.startswith("no "), (op.__name__, said)
