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
    def spin_forever(path, *args, **kwargs):
        n = 0
        while True:
            n += 1

    out = _run_with_load(monkeypatch, spin_forever, R.Limits(cpu_seconds=1))
    assert out.failure == "hang"
    assert any("spin_forever" in f for f in out.frames), out.frames


def test_an_exception_is_a_failure_with_its_frames(monkeypatch):
    def broken(path, *args, **kwargs):
        return {}["missing"]

    out = _run_with_load(monkeypatch, broken)
    assert out.failure == "exception" and out.detail == "KeyError: 'missing'"
    assert out.frames[-1].endswith(" broken")


def test_running_out_of_memory_is_a_failure(monkeypatch):
    def hungry(path, *args, **kwargs):
        return bytearray(8 * 1024 ** 3)

    out = _run_with_load(monkeypatch, hungry)
    assert out.failure == "memory"


def test_a_worker_that_dies_is_a_crash(monkeypatch):
    out = _run_with_load(monkeypatch, lambda path, *args, **kwargs: os._exit(3))
    assert out.failure == "crash" and "status 3" in out.detail


def test_a_warning_is_a_failure(monkeypatch):
    def warns(path, *args, **kwargs):
        warnings.warn("'is not' with a literal", SyntaxWarning)
        raise LoadError(Report())

    out = _run_with_load(monkeypatch, warns)
    assert out.failure == "warning" and out.detail.startswith("SyntaxWarning: 'is not' with a literal")


def test_an_error_without_a_line_of_a_file_is_a_failure(monkeypatch):
    def nowhere(path, *args, **kwargs):
        report = Report()
        report.error("E000", Position(str(path)), "something is wrong")
        raise LoadError(report)

    out = _run_with_load(monkeypatch, nowhere)
    assert out.stage == "load error" and out.failure == "no position"


def test_a_clean_error_is_no_failure_and_names_its_line(monkeypatch):
    def clean(path, *args, **kwargs):
        report = Report()
        report.error("N001", Position(os.path.join(path, "game.yaml"), 3, 5), "unknown zone 'dek'")
        raise LoadError(report)

    out = _run_with_load(monkeypatch, clean)
    assert (out.stage, out.failure, out.errors) == ("load error", None, 1)
    assert out.diagnostics == ["game.yaml:3:5: error[N001]: unknown zone 'dek'"]


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


def test_an_error_past_the_last_line_of_its_file_is_a_failure(monkeypatch):
    def past(path, *args, **kwargs):
        report = Report()
        lines = len(open(os.path.join(path, "game.yaml"), encoding="utf-8").read().splitlines())
        report.error("E000", Position(os.path.join(path, "game.yaml"), lines + 1, 1), "unexpected end of file")
        raise LoadError(report)

    out = _run_with_load(monkeypatch, past)
    assert (out.stage, out.failure) == ("load error", "past the end")
    assert "game.yaml:" in out.detail and "lines)" in out.detail


@pytest.mark.parametrize("kind", R.NEW_KINDS)
def test_cases_of_every_kind_are_remade_from_their_names(kind):
    if kind == "web":
        pytest.importorskip("starlette")
    first = [R.case_named(f"{kind}:7:{i}") for i in range(6)]
    again = [R.case_named(f"{kind}:7:{i}") for i in range(6)]
    assert [(c.name, c.kind, c.what, c.files, repr(c.data)) for c in first] == \
           [(c.name, c.kind, c.what, c.files, repr(c.data)) for c in again]
    assert all(c.name == f"{kind}:7:{i}" and c.kind == kind and c.what for i, c in enumerate(first))
    assert len({repr((c.files, c.data)) for c in first}) == 6  # and different indices give different cases


def test_every_tree_mutation_changes_the_tree_it_is_given():
    import yaml

    from fuzz_yaml_tree import TREE_OPERATIONS, clone, write
    text = "kind: cards\ngame: g\ncards:\n  - {id: a, title: A, abilities: [\"when played: gain 1 coins\"]}\n" \
           "  - {id: b, title: B, value: 2}\n"
    base = yaml.compose(text, Loader=yaml.SafeLoader)
    for op in TREE_OPERATIONS:
        for k in range(3):
            root = clone(base)
            said = op(random.Random(f"{op.__name__}:{k}"), root, None, "cards.yaml")
            assert write(root) != write(base) or said.startswith("no "), (op.__name__, said)


def test_a_derivation_of_the_grammar_parses():
    from fuzz_grammar import derive
    from interpreter.diagnostics import ContentError
    from interpreter.language.parser import parse
    failed = []
    for k in range(60):
        rng = random.Random(f"derive:{k}")
        start = ("procedure", "ability", "condition")[k % 3]
        text = derive(rng, start, 20)
        try:
            parse(text, start)
        except ContentError as exc:
            failed.append((text, str(exc)))
    assert len(failed) <= 6, failed[:3]


def test_the_web_oracle_tells_a_server_error_a_bad_refusal_and_a_leak_apart():
    import fuzz_web as W

    class Answer:
        def __init__(self, status, body):
            self.status_code, self.content = status, body.encode()

    get = {"method": "GET"}
    assert W._judge(Answer(500, '{"error": "the server failed"}'), get, [], None)[0] == "server error"
    assert W._judge(Answer(503, '{"error": "too many tables in play"}'), get, [], None) is None
    assert W._judge(Answer(404, "<html>not found</html>"), get, [], None)[0] == "bad answer"
    assert W._judge(Answer(400, '{"error": "no", "trace": 1}'), get, [], None)[0] == "bad answer"
    assert W._judge(Answer(400, '{"error": "no game:\\nline 2"}'), get, [], None)[0] == "bad answer"
    assert W._judge(Answer(400, '{"error": "no file /srv/data/x"}'), get, ["/srv/data"], None)[0] == "leak"
    assert W._judge(Answer(200, f'{{"x": "{W.MARKER}"}}'), get, [], None)[0] == "leak"
    assert W._judge(Answer(200, '{"x": "root:x:0:0"}'), get, [], "root:x:0:0")[0] == "leak"
    assert W._judge(Answer(404, '{"error": "no page or resource at /x"}'), get, ["/srv/data"], None) is None


def test_an_lsp_frame_counts_its_length_once_its_placeholders_are_filled():
    import fuzz_lsp as L
    frame = L._frame(b'{"uri": "{root}/a.yaml"}')
    built = L._built(frame, "file:///tmp/w")
    head, body = built.split(b"\r\n\r\n", 1)
    assert body == b'{"uri": "file:///tmp/w/a.yaml"}' and head == f"Content-Length: {len(body)}".encode()
    lie = L._built(L._frame(b"{}", 7), "x")  # a length told wrong stays as wrong as it was told
    assert lie.startswith(b"Content-Length: 7\r\n")
