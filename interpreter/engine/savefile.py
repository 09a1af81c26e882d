"""Saved files read safely, and their JSON checked field by field.

Saved states and traces are files, which may be corrupt: not UTF-8, not JSON,
cut short, nested or numbered beyond reason, with fields of the wrong type.
`parse_json` reads JSON text with limits; a `Checker` checks a value's fields
and types; both raise `SaveError`, which names the file, the line and the
field (`frames[2].pc`) at fault.
"""
from __future__ import annotations

import json
import re

from ..kinds import kind_of

INT_LIMIT = 1 << 63  # whole numbers of a game lie within +/- this (the generator's state and the seed aside)


class SaveError(Exception):
    """A saved state or a trace that cannot be used: corrupt, or made under other rules.

    `field` names the part that is wrong (`frames[2].pc`), `file` and `line` where it
    was read, when it was read from a file; `message` says what is wrong."""

    def __init__(self, message: str, field: str | None = None, file=None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.file = str(file) if file is not None else None
        self.line = line

    def located(self, file, line: int | None = None) -> "SaveError":
        """The same error, said of `file` (and `line`) when it says of no file yet."""
        if self.file is None:
            self.file = str(file) if file is not None else None
            self.line = line if self.line is None else self.line
        return self

    def __str__(self):
        where = self.file or ""
        if where and self.line is not None:
            where += f":{self.line}"
        parts = [p for p in (where, self.field) if p]
        return ": ".join(parts + [self.message])


def parse_json(text, file=None, line: int | None = None):
    """The JSON value `text` holds (bytes must be UTF-8); a SaveError when it holds none."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError(f"not UTF-8 text (byte {exc.start + 1} cannot be read)", file=file, line=line) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if line is None else f"column {exc.colno}"
        joint = " " if exc.msg.endswith(" at") else " at "  # 'Unterminated string starting at'
        raise SaveError(f"not valid JSON ({exc.msg}{joint}{where})", file=file, line=line) from None
    except RecursionError:
        raise SaveError("not readable: JSON nested too deeply", file=file, line=line) from None
    except ValueError as exc:  # a number too long to read, NaN or Infinity
        raise SaveError(f"not readable: {exc}", file=file, line=line) from None


def _no_constant(name):
    raise ValueError(f"{name} is no number of a game")


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def field_path(parts) -> str:
    """`frames[2].pc` from ('frames', 2, 'pc'); keys that are not names are quoted."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif _IDENT.match(p):
            out += f".{p}" if out else p
        else:
            out += f"[{json.dumps(p, ensure_ascii=False)}]"
    return out


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Checker:
    """Checks JSON data against what a saved form says, naming the field at fault."""

    def fail(self, path, message: str):
        raise SaveError(message, field_path(path) or None)

    def obj(self, v, path, required, optional=()) -> dict:
        """`v`, a mapping with all the fields `required` and maybe those `optional`, no other."""
        if not isinstance(v, dict):
            self.fail(path, f"must be a mapping, not {kind_of(v)}")
        for k in v:
            if not isinstance(k, str):
                self.fail(path, f"has a key that is not a text: {shown(k)}")
            if k not in required and k not in optional:
                self.fail(path + (k,), "is no field of it" + _listing(list(required) + list(optional)))
        for k in required:
            if k not in v:
                self.fail(path + (k,), "is missing")
        return v

    def mapping(self, v, path) -> dict:
        """`v`, a mapping whose keys are texts (of any names)."""
        return self.obj(v, path, (), tuple(v) if isinstance(v, dict) else ())

    def integer(self, v, path, lo=-INT_LIMIT, hi=INT_LIMIT - 1, what="") -> int:
        if not is_int(v):
            self.fail(path, f"must be a whole number{what}, not {kind_of(v)}")
        if lo is not None and v < lo or hi is not None and v > hi:
            if hi is None:
                self.fail(path, f"is {_short(v)}: it must be at least {lo}")
            if lo is None:
                self.fail(path, f"is {_short(v)}: it must be at most {hi}")
            self.fail(path, f"is {_short(v)}: it must be from {lo} to {hi}{what}")
        return v

    def text(self, v, path) -> str:
        if not isinstance(v, str):
            self.fail(path, f"must be a text, not {kind_of(v)}")
        return v

    def boolean(self, v, path) -> bool:
        if not isinstance(v, bool):
            self.fail(path, f"must be true or false, not {kind_of(v)}")
        return v

    def array(self, v, path) -> list:
        if not isinstance(v, list):
            self.fail(path, f"must be a list, not {kind_of(v)}")
        return v


def shown(v) -> str:
    """`v` as a message quotes it: short, whatever it is."""
    if is_int(v):
        return _short(v)
    if isinstance(v, str):
        return repr(v) if len(v) <= 60 else repr(v[:57]) + "..."
    if v is None or isinstance(v, (bool, float)):
        return repr(v)
    return kind_of(v)


def _short(v: int) -> str:
    if abs(v).bit_length() > 64:  # not written out: Python refuses to write very long numbers
        return f"a number of about {int(abs(v).bit_length() * 0.30103) + 1} digits"
    return str(v)


def _listing(names) -> str:
    return f" (fields: {', '.join(names)})" if names else ""
