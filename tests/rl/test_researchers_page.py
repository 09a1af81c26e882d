"""The page for AI researchers runs as written: each of its Python examples (its transcript is checked
with every page's, by tests/docs)."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the page's examples need regles[rl]")


PAGE = Path(__file__).resolve().parents[2] / "docs" / "researchers.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("index", [i for i, b in enumerate(BLOCKS) if "EPISODES" not in b])
def test_each_python_example_runs(index):
    code = BLOCKS[index]
    if "pyspiel" in code and importlib.util.find_spec("pyspiel") is None:
        pytest.skip("OpenSpiel is not installed (pip install 'regles[spiel]')")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{PAGE.name} example {index + 1}", "exec"), {})  # noqa: S102 - our own page
    assert BLOCKS and (out.getvalue() or "pyspiel" in code)


@pytest.mark.slow  # a minute of training: the page's other examples run in the default suite
def test_the_trained_policy_beats_the_untrained_one_as_the_page_says():
    block = next(b for b in BLOCKS if "REINFORCE" in b or "EPISODES" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"{PAGE.name} training example", "exec"), {})  # noqa: S102 - our own page
    got = re.fullmatch(r"against random: (\d+)% before training, (\d+)% after (\d+) games\n", out.getvalue())
    assert got, out.getvalue()
    before, after = int(got.group(1)), int(got.group(2))
    assert after >= before + 15
    assert f"against random: {before}% before training, {after}% after {got.group(3)} games" in \
        PAGE.read_text(encoding="utf-8")
