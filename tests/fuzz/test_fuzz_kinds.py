"""The fuzz suite's other kinds of cases: YAML trees mutated, aliases, rules texts generated from the
grammar, requests to the web server, frames to the language server.

Each kind is made by its module (fuzz_yaml_tree.py, fuzz_aliases.py,
fuzz_grammar.py, fuzz_web.py, fuzz_lsp.py) and run by fuzz_runner.py, each
case in a worker process of its own under a CPU and a memory limit. The
default run is a few dozen cases of each kind, all in one run of the workers;
the slow run (`python -m pytest -m slow tests/fuzz`) a few hundred of each.
Failures of known, tracked issues (fuzz_known.py) are let through.
"""
from __future__ import annotations

import pytest

import fuzz_runner as R
from fuzz_known import known_issue

pytestmark = pytest.mark.skipif(not R.CAN_FORK, reason="the fuzz driver forks its workers and limits them (POSIX)")

SEED = 1
DEFAULT = {"lsp": 2, "web": 8, "aliases": 10, "yaml-tree": 16, "grammar": 24}  # the slowest first
SLOW = {"yaml-tree": 600, "aliases": 200, "grammar": 600, "web": 200, "lsp": 40}
LIMITS = R.Limits(cpu_seconds=5)


def _needs(kind: str) -> None:
    if kind == "web":
        pytest.importorskip("starlette")
        pytest.importorskip("httpx2")
    if kind == "lsp":
        pytest.importorskip("pygls")


@pytest.fixture(scope="module")
def outcomes():
    cases = []
    for kind, n in DEFAULT.items():
        try:
            _needs(kind)
        except pytest.skip.Exception:
            continue
        cases += R.kind_cases(kind, SEED, n)
    return R.run_cases(cases, LIMITS, workers=2)


def _listed(failed) -> str:
    return "\n".join(o.line() + (f"\n    frames: {' < '.join(reversed(o.frames))}" if o.frames else "")
                     for o in failed[:20])


def test_no_case_of_the_other_kinds_fails_in_an_unknown_way(outcomes):
    unknown = [o for o in outcomes if o.failure and known_issue(o) is None]
    assert not unknown, f"{len(unknown)} cases failed (replay one with python bench/fuzz.py --show NAME):\n" \
                        + _listed(unknown)


def _of(outcomes, kind):
    return [o for o in outcomes if o.kind == kind]


def test_yaml_tree_mutants_are_refused_at_their_lines_and_some_still_play(outcomes):
    mine = _of(outcomes, "yaml-tree")
    assert len(mine) == DEFAULT["yaml-tree"]
    refused = [o for o in mine if o.stage == "load error"]
    assert refused and any(o.stage == "loaded" and o.games for o in mine)
    # every diagnostic names a line of its file (the runner fails a case otherwise): here, that they have one
    assert all(o.diagnostics and all(":" in d for d in o.diagnostics) for o in refused)


def test_alias_cases_load_or_are_refused_and_some_are_refused_for_their_size(outcomes):
    mine = _of(outcomes, "aliases")
    assert len(mine) == DEFAULT["aliases"]
    assert any(o.stage == "loaded" for o in mine) and any(o.stage == "load error" for o in mine)


def test_generated_texts_mostly_parse_and_some_check_and_play(outcomes):
    from fuzz_grammar import grammar_figures
    figures = grammar_figures(outcomes)
    assert figures["texts"] == DEFAULT["grammar"]
    assert figures["parse"] >= figures["texts"] * 0.8, figures
    assert figures["check"] > 0 and figures["play"] > 0, figures


def test_web_cases_send_requests_that_the_server_answers(outcomes):
    mine = _of(outcomes, "web")
    if not mine:
        pytest.skip("the web server's packages are not installed")
    sent = sum(o.requests for o in mine)
    assert sent >= 4 * len(mine)
    statuses = {}
    for o in mine:
        for code, n in o.statuses.items():
            statuses[code] = statuses.get(code, 0) + n
    # refused (4xx) and accepted (2xx) requests both
    assert any(c.startswith("2") for c in statuses) and any(c.startswith("4") for c in statuses), statuses
    assert sum(o.answered for o in mine if not o.failure) == sum(o.requests for o in mine if not o.failure)


def test_lsp_cases_ask_the_server_after_each_burst(outcomes):
    mine = _of(outcomes, "lsp")
    if not mine:
        pytest.skip("the language server's packages are not installed")
    assert all(o.requests > 0 for o in mine)
    assert all(o.answered == len(R.case_named(o.name).data) for o in mine if not o.failure)


@pytest.mark.slow
def test_a_large_run_of_the_other_kinds_fails_in_no_unknown_way():
    cases = []
    for kind, n in SLOW.items():
        try:
            _needs(kind)
        except pytest.skip.Exception:
            continue
        cases += R.kind_cases(kind, SEED + 1, n)
    outcomes = R.run_cases(cases, R.Limits(cpu_seconds=10), workers=2)
    unknown = [o for o in outcomes if o.failure and known_issue(o) is None]
    assert not unknown, f"{len(unknown)} cases failed:\n" + _listed(unknown)
