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


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_example_runs(index):
    code = BLOCKS[index]
    if "pyspiel" in code and importlib.util.find_spec("pyspiel") is None:
        pytest.skip("OpenSpiel is not installed (pip install 'regles[spiel]')")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{PAGE.name} example {index + 1}", "exec"), {})  # noqa: S102 - our own page
    assert BLOCKS and (out.getvalue() or "pyspiel" in code)
