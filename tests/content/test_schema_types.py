"""The yes/no schema check's types and equality (content.schema_types) mean what jsonschema's do,
and a file with errors is still described by jsonschema."""
from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator
from jsonschema._utils import equal as jsonschema_equal

from interpreter.content.schema_types import TYPES, equal
from interpreter.content.source import PDict, PList

VALUES = [None, True, False, 0, 1, -3, 2**70, 0.0, 1.0, 2.5, float("nan"), "", "1", "true", "a b",
          [], [1], [True], [1, "x"], [[0]], {}, {"a": 1}, {"a": True}, {"a": [1]}, (1,), PDict(a=1), PList([1]),
          PList([True]), PDict(), b"x"]


@pytest.mark.parametrize("name", sorted(TYPES))
def test_each_type_accepts_what_jsonschema_accepts(name):
    checker = Draft202012Validator.TYPE_CHECKER
    ours = [TYPES[name](v) for v in VALUES]
    theirs = [checker.is_type(v, name) for v in VALUES]
    assert ours == theirs
    assert any(ours) and not all(ours)  # each type tells some values apart


def test_the_types_are_those_of_the_schemas():
    assert set(TYPES) == set(Draft202012Validator.TYPE_CHECKER._type_checkers) - {"any"}


def test_equality_is_jsonschemas():
    pairs = list(itertools.product(VALUES, repeat=2))
    ours = [equal(a, b) for a, b in pairs]
    assert ours == [jsonschema_equal(a, b) for a, b in pairs]
    assert not equal(True, 1) and not equal([False], [0]) and equal({"a": [1]}, PDict(a=PList([1])))


def test_a_load_imports_no_jsonschema():
    """A valid pack is read and checked without jsonschema, which only describes errors."""
    code = ("import sys, interpreter; interpreter.load('karman-swap'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'referencing')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_file_with_errors_is_still_described(tmp_path):
    from interpreter.content.source import load_file
    from interpreter.content.validate import validate
    f = tmp_path / "cards.yaml"
    f.write_text("kind: cards\ngame: karman-swap\ncards:\n  - id: 3\n    copies: two\n", encoding="utf-8")
    src, _ = load_file(str(f))
    errors = validate(src)
    assert errors and all(e.code.startswith("S") for e in errors)
    assert {e.position.line for e in errors} <= {4, 5}
