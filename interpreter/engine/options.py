"""The options of a play, checked against what the game declares, whatever their source.

Options come as text from the command line (`--option expert=yes`), as JSON from a
saved game or a trace, as YAML from a scenario or a rules test, and as Python from
code that calls `Game.options`. Text is read as the option's type; any other value
must already be of it: a yes/no option takes true or false, a number option a
whole number, a string option a string, and an option with `values:` one of them
(of the same type: `true` is not the value `1`). Anything else is a ValueError of
one sentence, which the checker reports at the value's place.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..kinds import kind_of
from ..limits import MAX_NUMBER
from ..names import did_you_mean

_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")
# what each kind of option takes, as a message says it
_TAKES = {"boolean": "true or false", "number": "a number", "string": "a text"}


@dataclass(frozen=True)
class OptionSpec:
    """An option the game declares, as the engine holds it: what it takes and reads."""
    name: str
    type: str | None  # its declared type (boolean, number, string), or None
    default: object
    values: tuple | None  # the values it may take, or None: any of its type
    pos: object = None  # where content declared it

    @classmethod
    def of(cls, o) -> "OptionSpec":
        """The option declared as `o` (an option's declaration: name, type, default, values, pos)."""
        return cls(o.name, o.type, o.default, tuple(o.values) if o.values is not None else None, o.pos)

    @property
    def kind(self) -> str | None:
        """The type of the option: its declared `type`, else that of its default (`boolean`,
        `number`, and `string` when it has no `values:`), else None (a choice among its values)."""
        if self.type:
            return self.type
        if isinstance(self.default, bool):
            return "boolean"
        if isinstance(self.default, int):
            return "number"
        if isinstance(self.default, str) and self.values is None:
            return "string"
        return None

    def value(self, value):
        """The value of the option given as `value`: text is read as the option's type, any other
        value must be of it. ValueError saying what the option takes when `value` is not that."""
        kind = self.kind
        said = shown(value)  # as it was given: the text typed, before it is read as a number
        # what a message says it takes: its declared type, else its values, else the type of its default
        takes = _TAKES.get(self.type) or (f"one of {', '.join(map(str, self.values))}" if self.values is not None else
                                       _TAKES.get(kind, "a text, a number or true or false"))
        if isinstance(value, str) and kind in ("boolean", "number"):
            low = value.strip().lower()
            if kind == "boolean" and low in _TRUE + _FALSE:
                return low in _TRUE
            if kind == "number":
                try:
                    value = int(low)
                except ValueError:
                    raise ValueError(f"option '{self.name}' is {takes}, not {said}") from None
        given = _kind_of(value)
        if given is None or kind is not None and given != kind or \
                kind == "number" and isinstance(value, float) and not value.is_integer():  # an option's number is whole
            raise ValueError(f"option '{self.name}' is {takes}, not {said}")
        if kind == "number" and self.values is None and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise ValueError(f"option '{self.name}' is a number from {-MAX_NUMBER:,} to {MAX_NUMBER:,}, not {shown(value)}")
        if kind == "number":
            value = int(value)  # 3.0 from JSON is the number 3
        if self.values is not None:
            for v in self.values:
                if _kind_of(v) == given and v == value:
                    return _plain(v)
            raise ValueError(f"option '{self.name}' is one of {', '.join(map(str, self.values))}, not {said}")
        return value


def _kind_of(value) -> str | None:
    """The option type a value given in JSON, YAML or Python is of, or None (a list, a mapping, null)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return None


MAX_SHOWN = 40  # characters of a value a message shows


def shown(value) -> str:
    """A value given to an option, as a message shows it (a long one cut short)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= MAX_SHOWN else f"'{value[:MAX_SHOWN - 3]}...'"
    if isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        return "a number beyond what a game keeps"
    if isinstance(value, (int, float)):
        return repr(value)
    return kind_of(value)


def _plain(value):
    """A value of the content (a number read with its place in the file) as the plain Python
    value a saved game holds: the same state whether its options came from content or JSON."""
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


def chosen_options(options: dict, given) -> dict:
    """The options of a play: those the game declares (`options`, by name) at their defaults,
    each of `given` (a mapping of names to values, from any source) checked and put in."""
    out = {name: _plain(o.default) for name, o in options.items()}
    if given is None:
        return out
    if not isinstance(given, dict):
        # a ValueError, as for every other thing wrong with the options given
        raise ValueError(f"options are a mapping of option names to values, not {shown(given)}")  # noqa: TRY004
    for key, value in given.items():
        if not isinstance(key, str) or key not in options:
            hint = did_you_mean(key, options) if isinstance(key, str) else None
            raise ValueError(f"unknown option '{key}'" + (f"; {hint}" if hint else "")
                             + (f" (options: {', '.join(options)})" if options else " (this game has none)"))
        out[key] = options[key].value(value)
    return out
