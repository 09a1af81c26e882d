"""Stage 2, validate: each content file against the JSON Schema of its kind.

A file's `kind:` picks its schema in `schemas/`. Validators are built once
per process and reused. Of the errors jsonschema finds, each one is reported
at the key or value it concerns, and among alternatives (`anyOf`) only the
best match is shown, as jsonschema's `best_match` picks it.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache

from ..diagnostics import ContentError, Position
from ..names import did_you_mean
from ..resources import schemas_dir
from ..kinds import kind_of, type_word
from .schema_types import TYPES, equal
from .source import PDict, SourceFile

KINDS = ("game", "expansion", "cards", "keywords", "board", "scenario", "rules-test", "rules")


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    with open(schemas_dir() / f"{kind}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def validator(kind: str):
    """jsonschema's validator of a kind's schema (imported only for a file with errors)."""
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema(kind))


# A yes/no check of a whole file, much faster than jsonschema's walk -----------------
#
# Most files are valid, and jsonschema spends its time building the context of errors that
# are not there. The keywords our schemas use are compiled once into plain functions that
# only say whether a value is valid, with jsonschema's own meaning of each keyword (its type
# predicates and `equal`, as `schema_types` writes them without importing it; `re.search`).
# Only a file they find invalid is given to jsonschema, which finds and describes its errors
# as before. A schema with a keyword not handled here is always left to jsonschema.

_ANNOTATIONS = frozenset(("$schema", "$id", "$comment", "title", "description", "$defs", "default", "examples"))


class _Unsupported(Exception):
    pass


def _all(checks):
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:  # most schemas: a type and one more keyword
        first, second = checks
        return lambda x: first(x) and second(x)
    return lambda x: all(c(x) for c in checks)


def _every(item):
    def check(values):
        for v in values:
            if not item(v):
                return False
        return True
    return check


def _compile(node, root, refs):
    """A function value -> bool saying whether `value` is valid against schema `node`."""
    if node is True:
        return lambda x: True
    if node is False:
        return lambda x: False
    if not isinstance(node, dict):
        raise _Unsupported(repr(node))
    types = TYPES
    is_object, is_array, is_string, is_number = types["object"], types["array"], types["string"], types["number"]
    if node is not root and "$id" in node:
        raise _Unsupported("$id")  # a new base for the references below it
    checks = []
    for key, value in node.items():
        if key in _ANNOTATIONS:
            continue
        if key == "type":
            preds = [types[t] for t in (value if isinstance(value, list) else [value])]
            if len(preds) == 1:
                checks.append(preds[0])
            elif len(preds) == 2:  # most unions (a text or a number...): no generator for each value
                checks.append(lambda x, first=preds[0], second=preds[1]: first(x) or second(x))
            else:
                checks.append(lambda x, preds=preds: any(p(x) for p in preds))
        elif key in ("properties", "patternProperties", "additionalProperties", "required"):
            continue  # checked together below
        elif key == "items":
            if "prefixItems" in node:
                raise _Unsupported("prefixItems")
            every = _every(_compile(value, root, refs))
            checks.append(lambda x, every=every: not is_array(x) or every(x))
        elif key == "minItems":
            checks.append(lambda x, n=value: not is_array(x) or len(x) >= n)
        elif key == "maxItems":
            checks.append(lambda x, n=value: not is_array(x) or len(x) <= n)
        elif key == "minProperties":
            checks.append(lambda x, n=value: not is_object(x) or len(x) >= n)
        elif key == "minLength":
            checks.append(lambda x, n=value: not is_string(x) or len(x) >= n)
        elif key == "maxLength":
            checks.append(lambda x, n=value: not is_string(x) or len(x) <= n)
        elif key == "pattern":
            checks.append(lambda x, p=value: not is_string(x) or re.search(p, x) is not None)
        elif key == "minimum":
            checks.append(lambda x, n=value: not is_number(x) or not x < n)
        elif key == "maximum":
            checks.append(lambda x, n=value: not is_number(x) or not x > n)
        elif key == "const":
            checks.append(lambda x, c=value: equal(x, c))
        elif key == "enum":
            checks.append(lambda x, e=value: any(equal(each, x) for each in e))
        elif key in ("anyOf", "oneOf", "allOf"):
            subs = [_compile(v, root, refs) for v in value]
            if key == "anyOf":
                checks.append(lambda x, subs=subs: any(f(x) for f in subs))
            elif key == "oneOf":
                checks.append(lambda x, subs=subs: sum(1 for f in subs if f(x)) == 1)
            else:
                checks.append(lambda x, subs=subs: all(f(x) for f in subs))
        elif key == "$ref":
            if not isinstance(value, str) or not value.startswith("#/"):
                raise _Unsupported(value)
            checks.append(_reference(value, root, refs))
        else:
            raise _Unsupported(key)
    if any(k in node for k in ("properties", "patternProperties", "additionalProperties", "required")):
        checks.append(_object_check(node, root, refs, is_object))
    if not checks:
        return lambda x: True
    return _all(checks)


def _object_check(node, root, refs, is_object):
    """properties, patternProperties, additionalProperties and required, in one pass over the keys."""
    props = {k: _compile(v, root, refs) for k, v in node.get("properties", {}).items()}
    patterns = [(p, _compile(v, root, refs)) for p, v in node.get("patternProperties", {}).items()]
    joined = "|".join(node.get("patternProperties", {}))
    extra = node.get("additionalProperties", True)
    extra = None if extra is True else _compile(extra, root, refs)
    required = list(node.get("required", []))

    def check(x):
        if not is_object(x):
            return True
        for k in required:
            if k not in x:
                return False
        for k, v in x.items():
            f = props.get(k)
            if f is not None and not f(v):
                return False
            for p, check_value in patterns:
                if re.search(p, k) and not check_value(v):
                    return False
            if extra is not None and f is None and not (joined and re.search(joined, k)) and not extra(v):
                return False
        return True
    return check


def _reference(ref, root, refs):
    """A local reference, compiled once even when it refers to itself."""
    if ref not in refs:
        refs[ref] = None  # being compiled
        target = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                raise _Unsupported(ref)
            target = target[part]
        refs[ref] = _compile(target, root, refs)
    return lambda x: refs[ref](x)


def _quickly_valid(kind: str, data) -> bool:
    quick = quick_check(kind)
    if quick is None:
        return False
    try:
        return quick(data)
    except Exception:  # whatever it is, jsonschema meets it as before
        return False


@lru_cache(maxsize=None)
def quick_check(kind: str):
    """The yes/no check of a kind's schema, or None when it is left to jsonschema."""
    try:
        return _compile(schema(kind), schema(kind), {})
    except _Unsupported:
        return None


def file_kind(src: SourceFile) -> str:
    """The kind of a loaded file; raises ContentError when it has none or a wrong one."""
    data = src.data
    top = Position(src.path, 1, 1)
    if not isinstance(data, dict):
        raise ContentError("Y008", f"a content file must be a mapping of keys to values, not {kind_of(data)}",
                           getattr(data, "pos", top), "start the file with 'kind: ...'")
    if "kind" not in data:
        raise ContentError("S002", "missing key 'kind'", getattr(data, "pos", top),
                           "say which kind of file this is: " + ", ".join(KINDS))
    kind = data["kind"]
    if not isinstance(kind, str):
        raise ContentError("T003", f"'kind' must be a text, not {kind_of(kind)}",
                           getattr(kind, "pos", data.key_pos.get("kind", data.pos) if isinstance(data, PDict) else top),
                           "the kinds are: " + ", ".join(KINDS))
    if kind not in KINDS:
        where = getattr(kind, "pos", data.pos)
        hint = did_you_mean(str(kind), KINDS) if isinstance(kind, str) else None
        raise ContentError("S009", f"unknown kind {_show(kind)}; expected one of: " + ", ".join(KINDS), where,
                           hint or "the kinds are: " + ", ".join(KINDS))
    return kind


def _show(value) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return json.dumps(value) if not isinstance(value, (dict, list)) else kind_of(value)


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




def _read_as_mapping(value, wanted) -> str | None:
    """When a text was wanted and YAML read a mapping of one entry, the text had ': ' in it,
    unquoted (`- when played: gain 1 coin`): say so, and show it quoted."""
    if "string" not in wanted or not isinstance(value, dict) or len(value) != 1:
        return None
    [(key, rest)] = value.items()
    if not isinstance(key, str) or not isinstance(rest, (str, int, float, type(None))):
        return None
    text = f"{key}: {rest}" if rest is not None else f"{key}:"
    return (f"YAML read this as a mapping because of the ': ' in it; quote the whole text: "
            f"\"{text.replace(chr(34), chr(92) + chr(34))}\", or write it as a block after '|'")


# words other languages and tools use for a word of the schemas ('int' for 'number'): hinted to it
# where the schema takes it
_ALSO_WRITTEN = {"int": "number", "integer": "number", "float": "number", "str": "string", "text": "string",
                 "bool": "boolean", "array": "list", "secret": "hidden", "private": "owner", "shared": "public"}


def shape_hint(schema: dict, key=None, keys: bool = True) -> str | None:
    """How a mapping `schema` wants is written: its first example (the schema's `examples`, as
    a YAML flow mapping under `key`), else (with `keys`) its keys."""
    examples = schema.get("examples") if isinstance(schema, dict) else None
    if examples:
        return "e.g. " + (f"{key}: " if isinstance(key, str) else "") + _flow(examples[0])
    named = list(schema.get("properties", {})) if keys and isinstance(schema, dict) else []
    return "its keys: " + ", ".join(named) if named else None


def _flow(value) -> str:
    """`value` written as YAML's flow style: {min: 2, max: 4}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, (int, float)) or str(value).isidentifier() else json.dumps(value)


def _describe(error) -> tuple[str, str, str | None]:
    v = error.validator
    if v == "type":
        types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        wanted = " or ".join(type_word(t) for t in types)
        hint = _read_as_mapping(error.instance, types)
        if hint is None and "object" in types:
            hint = shape_hint(error.schema, error.path[-1] if error.path else None)
        return "S003", f"expected {wanted}, found {kind_of(error.instance)}", hint
    if v in ("enum", "const"):
        allowed = error.validator_value if v == "enum" else [error.validator_value]
        hint = did_you_mean(str(error.instance), [str(a) for a in allowed]) if isinstance(error.instance, str) else None
        meant = _ALSO_WRITTEN.get(error.instance) if isinstance(error.instance, str) else None
        if hint is None and meant in allowed:  # a word of a programming language or of other tools
            hint = f"write '{meant}'"
        return "S004", f"{_show(error.instance)} is not allowed here; expected " + ", ".join(_show(a) for a in allowed), hint
    if v == "pattern":
        if error.validator_value.startswith("^[a-z0-9]"):
            return ("S005", f"{_show(error.instance)} is not a valid identifier",
                    "identifiers use lower-case letters, digits, '-' and '_', e.g. 'fille-de-joie'")
        if "A-Z0-9" in error.validator_value:
            return "S006", f"{_show(error.instance)} is not a rule ID", "rule IDs look like 'SX-NEG-3'"
        return "S004", f"{_show(error.instance)} does not match the pattern {error.validator_value}", None
    if v == "minItems":
        return "S007", f"expected at least {error.validator_value} item{'s' if error.validator_value != 1 else ''}", None
    if v == "maxItems":
        return "S007", f"expected at most {error.validator_value} items", None
    if v == "minProperties":
        allowed = list(error.schema.get("properties", {}))
        return ("S007", f"expected at least {error.validator_value} key{'s' if error.validator_value != 1 else ''}",
                "its keys: " + ", ".join(allowed) if allowed else None)
    if v == "minLength":
        return "S010", "expected a non-empty text", None
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return "S008", f"expected a number {word} {error.validator_value}, found {error.instance}", None
    return "E000", error.message, None


def validate(src: SourceFile) -> list[ContentError]:
    """All schema errors of one file (empty when it is valid)."""
    try:
        kind = file_kind(src)
    except ContentError as exc:
        return [exc]
    data = src.data
    if _quickly_valid(kind, data):
        return []
    from jsonschema.exceptions import best_match, relevance
    errors = []
    for error in sorted(validator(kind).iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if error.validator in ("anyOf", "oneOf") and error.context:
            # the alternative of the value's own type when there is one ({de: ...} where a text or
            # a mapping of 'en', 'fr' is wanted: the unknown key, not "expected a text"), else the
            # first that fails at the value itself
            fits = best_match([error], key=relevance)
            error = fits if fits is not error else best_match(error.context, key=relevance)
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
            out.append(ContentError("S001", f"{prefix}unknown key '{key}'", pos,
                                    did_you_mean(key, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)))
        return out
    if error.validator == "required":
        missing = [k for k in error.validator_value if not (isinstance(node, dict) and k in node)]
        return [ContentError("S002", f"{prefix}missing required key '{k}'", fallback,
                             # (its example only: the key missing is named already)
                             shape_hint(error.schema, path[-1] if path else None, keys=False)) for k in missing]
    code, message, hint = _describe(error)
    pos = fallback
    if path and isinstance(parent, PDict) and isinstance(path[-1], str) and not hasattr(node, "pos"):
        pos = _key_position(parent, path[-1], fallback)
    return [ContentError(code, prefix + message, pos, hint)]
