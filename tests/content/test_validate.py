"""The quick yes/no schema check against jsonschema itself: on every content and test file,
and on thousands of damaged copies of them, valid exactly when jsonschema finds no error."""
from __future__ import annotations

import copy
import re
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


def _patterns(node):
    """Every pattern of a schema: those of values ('pattern') and of keys ('patternProperties')."""
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        yield from node.get("patternProperties", {})
        for v in node.values():
            yield from _patterns(v)
    elif isinstance(node, list):
        for v in node:
            yield from _patterns(v)


# One value each pattern of the schemas takes: an identifier, a rule ID, a player count.
_SAMPLES = ["ok-id", "SX-NEG-3", "2", "fr", "rules.md"]


@pytest.mark.parametrize("kind", V.KINDS)
def test_every_pattern_matches_a_whole_value_not_a_value_before_a_line_break(kind):
    """A JSON Schema pattern is searched, not matched, and Python's '$' also matches before a
    final line feed: 'ok-id\\n' must not pass for the identifier 'ok-id', nor a pattern accept
    a value it matches only in part."""
    patterns = set(_patterns(V.schema(kind)))
    for p in patterns:
        taken = [s for s in _SAMPLES if re.search(p, s)]
        assert taken, f"no sample value for the pattern {p!r}"
        for s in taken:
            for bad in (s + "\n", s + "\n\n", "\n" + s, s + " ", s + "\x00", "x y " + s):
                assert re.search(p, bad) is None, (p, bad)
    for data in [d for k, d in documents() if k == kind and isinstance(d.get("id"), str)][:1]:
        bad = {**data, "id": data["id"] + "\n"}  # both checks refuse it, the quick one and jsonschema
        assert V.validator(kind).is_valid(data) and not V.validator(kind).is_valid(bad)
        assert not V.quick_check(kind)(bad)
