"""What kind of value a YAML or JSON value is, in the words every message uses.

A content file (YAML), a saved state, a trace and a request of the web server (JSON) hold the
same few kinds of values; a message that says what was wanted or what was found names them
with these words, and only these: "a mapping", "a list", "a text", "a whole number",
"a number", "true or false", "null"."""
from __future__ import annotations

# the words of the types a JSON schema names (its "type" keyword)
TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "a text", "integer": "a whole number",
              "number": "a number", "boolean": "true or false", "null": "null"}


def kind_of(value) -> str:
    """What `value`, read from YAML or JSON, is, in words: "a mapping", "a whole number"..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a value of Python type {type(value).__name__}"


def type_word(schema_type: str) -> str:
    """The words of a JSON schema type ("object" is "a mapping")."""
    return TYPE_WORDS.get(schema_type, schema_type)
