"""The quick yes/no schema check against jsonschema itself: on every content and test file,
and on thousands of damaged copies of them, valid exactly when jsonschema finds no error."""
from __future__ import annotations

import copy
from functools import lru_cache
import random

import pytest

from interpreter.content import validate as V
from interpreter.diagnostics import ContentError
from interpreter.content.source import plain_data as _plain  # YAML values as plain Python ones
from interpreter.content.source import load_file

from gamekit import ROOT


@lru_cache(maxsize=1)
def documents():
    """(kind, data) of every file of the content and the tests that loads, as plain data."""
    out = []
    for folder in ("content", "tests"):
        for f in sorted((ROOT / folder).rglob("*.y*ml")):
            try:
                src, _ = load_file(str(f))
            except ContentError:  # broken on purpose: the loader's tests
                continue
            data = _plain(src.data)
            if isinstance(data, dict) and data.get("kind") in V.KINDS:
                out.append((data["kind"], data))
    return out


POOL = [None, True, False, 0, -1, 1, 101, 1.5, 2.0, float("nan"), "", "x", "Bad Id", "ok-id", "SX-NEG-3",
        "cards", [], ["a"], [1], [""], {}, {"k": 1}, {"id": "a", "title": "A"}]
KEYS = ["id", "title", "kind", "copies", "abilities", "cards", "zones", "name", "extra", "2", "type", "values",
        "pattern", "ability", "params", "tests", "given", "then", "nodes", "edges", "options", "scope"]


def _places(data, path=()):
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _places(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _places(v, path + (i,))


def _damage(data, rng):
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 2)):
        places = list(_places(data))
        path, value = places[rng.randrange(len(places))]
        if not path:
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        choice = rng.random()
        if choice < 0.5:
            parent[path[-1]] = copy.deepcopy(rng.choice(POOL))
        elif choice < 0.7 and isinstance(parent, dict):
            del parent[path[-1]]
        elif choice < 0.85 and isinstance(value, dict):
            value[rng.choice(KEYS)] = copy.deepcopy(rng.choice(POOL))
        elif isinstance(value, list):
            if value and rng.random() < 0.5:
                value.pop(rng.randrange(len(value)))
            else:
                value.append(copy.deepcopy(rng.choice(POOL)))
    return data


def test_every_kind_has_a_quick_check():
    assert all(V.quick_check(kind) is not None for kind in V.KINDS)


def test_quick_check_agrees_with_jsonschema_on_the_files():
    docs = documents()
    assert {kind for kind, _ in docs} == set(V.KINDS)
    for kind, data in docs:
        assert V.quick_check(kind)(data) == V.validator(kind).is_valid(data), (kind, data.get("id"))


@pytest.mark.parametrize("seed", range(4))
def test_quick_check_agrees_with_jsonschema_on_damaged_files(seed):
    rng = random.Random(seed)
    docs = documents()
    verdicts = set()
    for _ in range(500):
        kind, data = docs[rng.randrange(len(docs))]
        damaged = _damage(data, rng)
        quick = V.quick_check(kind)(damaged)
        assert quick == V.validator(kind).is_valid(damaged), (kind, damaged)
        verdicts.add(quick)
    assert verdicts == {True, False}


def test_a_keyword_not_handled_leaves_the_schema_to_jsonschema():
    with pytest.raises(V._Unsupported):
        V._compile({"type": "array", "uniqueItems": True}, {}, {})
    with pytest.raises(V._Unsupported):
        V._compile({"$ref": "other.json#/x"}, {}, {})
