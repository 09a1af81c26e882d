"""JSON Schema's types and equality, as jsonschema means them, without importing jsonschema.

The yes/no check of a file (`validate._compile`) needs only what each `type` keyword accepts
and when two values are equal (`const`, `enum`). Importing jsonschema takes about a third of
regles' own import (it brings `referencing`, `attrs`, `rpds`), and most processes never meet an
invalid file; so these follow jsonschema's `_types` and `_utils.equal` for draft 2020-12, and
jsonschema itself is imported only to find and describe the errors of a file the check refuses.
`tests/content/test_schema_types.py` compares both on values of every kind.
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence


def _is_integer(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, float):  # draft 2020-12: 1.0 is an integer
        return x.is_integer()
    return isinstance(x, int)


def _is_number(x) -> bool:
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


TYPES = {
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "integer": _is_integer,
    "null": lambda x: x is None,
    "number": _is_number,
    "object": lambda x: isinstance(x, dict),
    "string": lambda x: isinstance(x, str),
}


class _Unbool:
    """True and False kept apart from 1 and 0, as jsonschema's `unbool` does."""


_TRUE, _FALSE = _Unbool(), _Unbool()


def _unbool(x):
    if x is True:
        return _TRUE
    if x is False:
        return _FALSE
    return x


def equal(one, two) -> bool:
    """Whether two values are equal as JSON Schema says: a truth value never equals a number."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    return _unbool(one) == _unbool(two)
