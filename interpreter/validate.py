"""Stage 2, validate: each content file against the JSON Schema of its kind.

A file's `kind:` picks its schema in `schemas/`. Validators are built once
per process and reused. Of the errors jsonschema finds, each one is reported
at the key or value it concerns, and among alternatives (`anyOf`) only the
best match is shown, as jsonschema's `best_match` picks it.
"""
from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match, relevance

from .diagnostics import ContentError, Position
from .names import did_you_mean
from .resources import schemas_dir
from .source import PDict, SourceFile, type_name

KINDS = ("game", "cards", "keywords", "board", "scenario", "rules-test")


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    with open(schemas_dir() / f"{kind}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(kind))


def file_kind(src: SourceFile) -> str:
    """The kind of a loaded file; raises ContentError when it has none or a wrong one."""
    data = src.data
    top = Position(src.path, 1, 1)
    if not isinstance(data, dict):
        raise ContentError(f"a content file must be a mapping of keys to values, not {type_name(data)}",
                           getattr(data, "pos", top), "start the file with 'kind: ...'")
    if "kind" not in data:
        raise ContentError("missing key 'kind'", getattr(data, "pos", top),
                           "say which kind of file this is: " + ", ".join(KINDS))
    kind = data["kind"]
    if not isinstance(kind, str):
        raise ContentError(f"'kind' must be a string, not {type_name(kind)}",
                           getattr(kind, "pos", data.key_pos.get("kind", data.pos) if isinstance(data, PDict) else top),
                           "the kinds are: " + ", ".join(KINDS))
    if kind not in KINDS:
        where = getattr(kind, "pos", data.pos)
        hint = did_you_mean(str(kind), KINDS) if isinstance(kind, str) else None
        raise ContentError(f"unknown kind {_show(kind)}; expected one of: " + ", ".join(KINDS), where,
                           hint or "the kinds are: " + ", ".join(KINDS))
    return kind


def _show(value) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return json.dumps(value) if not isinstance(value, (dict, list)) else type_name(value)


def _locate(data, path) -> tuple[object, object]:
    """The value at `path` and the nearest container holding positions."""
    node = data
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return node


def _key_position(container, key, fallback: Position) -> Position:
    if isinstance(container, PDict) and key in container.key_pos:
        return container.key_pos[key]
    return fallback


def _dotted(path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null"}


def _describe(error) -> tuple[str, str | None]:
    v = error.validator
    if v == "type":
        types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return f"expected {wanted}, found {type_name(error.instance)}", None
    if v in ("enum", "const"):
        allowed = error.validator_value if v == "enum" else [error.validator_value]
        hint = did_you_mean(str(error.instance), [str(a) for a in allowed]) if isinstance(error.instance, str) else None
        return f"{_show(error.instance)} is not allowed here; expected " + ", ".join(_show(a) for a in allowed), hint
    if v == "pattern":
        if error.validator_value.startswith("^[a-z0-9]"):
            return (f"{_show(error.instance)} is not a valid identifier",
                    "identifiers use lower-case letters, digits, '-' and '_', e.g. 'fille-de-joie'")
        if "A-Z0-9" in error.validator_value:
            return f"{_show(error.instance)} is not a rule ID", "rule IDs look like 'SX-NEG-3'"
        return f"{_show(error.instance)} does not match the pattern {error.validator_value}", None
    if v == "minItems":
        return f"expected at least {error.validator_value} item{'s' if error.validator_value != 1 else ''}", None
    if v == "maxItems":
        return f"expected at most {error.validator_value} items", None
    if v == "minLength":
        return "expected a non-empty string", None
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return f"expected a number {word} {error.validator_value}, found {error.instance}", None
    return error.message, None


def validate(src: SourceFile) -> list[ContentError]:
    """All schema errors of one file (empty when it is valid)."""
    try:
        kind = file_kind(src)
    except ContentError as exc:
        return [exc]
    data = src.data
    errors = []
    for error in sorted(validator(kind).iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if error.validator in ("anyOf", "oneOf") and error.context:
            error = best_match(error.context, key=relevance)
        errors.extend(_to_content_errors(error, data))
    return errors


def _to_content_errors(error, data) -> list[ContentError]:
    path = list(error.absolute_path)
    node = _locate(data, path)
    parent = _locate(data, path[:-1]) if path else None
    fallback = getattr(node, "pos", None) or getattr(parent, "pos", None) or getattr(data, "pos", None)
    where = _dotted(path)
    prefix = f"{where}: " if where else ""
    if error.validator == "additionalProperties" and isinstance(node, dict):
        allowed = list(error.schema.get("properties", {}))
        extras = [k for k in node if k not in allowed and not any(
            __import__("re").match(p, k) for p in error.schema.get("patternProperties", {}))]
        out = []
        for key in extras:
            pos = _key_position(node, key, fallback)
            out.append(ContentError(f"{prefix}unknown key '{key}'", pos,
                                    did_you_mean(key, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)))
        return out
    if error.validator == "required":
        missing = [k for k in error.validator_value if not (isinstance(node, dict) and k in node)]
        return [ContentError(f"{prefix}missing required key '{k}'", fallback,
                             None) for k in missing]
    message, hint = _describe(error)
    pos = fallback
    if path and isinstance(parent, PDict) and isinstance(path[-1], str) and not hasattr(node, "pos"):
        pos = _key_position(parent, path[-1], fallback)
    return [ContentError(prefix + message, pos, hint)]
