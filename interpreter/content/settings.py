"""Values of cards' attributes set at load, without editing a file (`--set CARD.ATTRIBUTE=VALUE`).

A designer tuning a number (`regles tune`, `simulate --set`, `compare --set`) plays the game
with one printed value changed: the card's attribute is set in the pack once it is read and
laid, before it is checked, so the checker sees the value as if it were printed (and a rule
that reads it compiles as ever). What is set is recorded with what is laid over the game, in
saves and traces, so that a replay sets it again.

A setting names a card by id and one of the attributes its kind declares; its value is text
as typed on the command line, or a value of the attribute's type (from a trace): a whole
number, true or false, a text, or one of the values of a class attribute. A setting that
names no card, no attribute of the card's kind, or a value of another type is a ValueError
that says which, as an unknown card of `--without` is.
"""
from __future__ import annotations

import re

from ..diagnostics import cut
from ..names import did_you_mean, fold
from .model import GameDef

_WHOLE = re.compile(r"[+-]?\d{1,18}")
MAX_SETTINGS = 100  # settings of one load: a bound on untrusted input (a trace's header)


def parse_setting(text: str) -> tuple:
    """('card', 'attribute', 'value') of `CARD.ATTRIBUTE=VALUE` as typed; ValueError when it is not
    of that shape. The card's id may hold dots: the attribute is after the last dot before '='."""
    name, eq, value = str(text).partition("=")
    card, dot, attribute = name.strip().rpartition(".")
    if not eq or not dot or not card.strip() or not attribute.strip():
        raise ValueError(f"--set {cut(str(text), 60)!s}: write CARD.ATTRIBUTE=VALUE (for example goblin.cost=2)")
    return card.strip(), attribute.strip(), value.strip()


def settings_of(given) -> tuple:
    """Settings as `Chosen` keeps them, a tuple of (card, attribute, value), from what a caller
    gives: a mapping {'CARD.ATTRIBUTE': value}, or items each a (card, attribute, value) or a
    text 'CARD.ATTRIBUTE=VALUE'. ValueError when one is of none of these shapes."""
    if not given:
        return ()
    if isinstance(given, dict):
        items = [(*parse_setting(f"{k}=")[:2], v) for k, v in given.items()]
    else:
        items = [parse_setting(x) if isinstance(x, str) else tuple(x) if isinstance(x, (list, tuple)) else (x,)
                 for x in given]
    for item in items:
        if not (len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)
                and isinstance(item[2], (str, int, bool))):
            raise ValueError(f"--set: {cut(str(item), 60)} is no setting (a card, an attribute and a value)")
    # true as text: True == 1 in Python, and the programs kept are found by what is chosen
    return tuple((c, a, ("true" if v else "false") if isinstance(v, bool) else v) for c, a, v in items)


def set_values(defn: GameDef, settings) -> None:
    """Set each (card, attribute, value) of `settings` in the pack `defn`, and record them
    (`defn.settings`, with each value of its attribute's type). ValueError says what a setting
    names that the pack does not have, or a value its attribute cannot hold."""
    settings = settings_of(settings)
    if not settings:
        return
    if len(settings) > MAX_SETTINGS:
        raise ValueError(f"--set: {len(settings)} settings, more than {MAX_SETTINGS}")
    cards = {fold(c.id): c for c in defn.cards}
    done = {}
    for name, attribute, value in settings:
        card = cards.get(fold(name))
        if card is None:
            hint = did_you_mean(name, [c.id for c in defn.cards])
            raise ValueError(f"--set: no card '{cut(name, 60)}' in {defn.id}" + (f"; {hint}" if hint else ""))
        allowed = [a for a in defn.components.get(card.component, list(defn.attributes)) if a in defn.attributes]
        if attribute not in allowed:
            hint = did_you_mean(attribute, allowed)
            raise ValueError(f"--set {card.id}.{cut(attribute, 40)}: a {card.component} has no attribute "
                             f"'{cut(attribute, 40)}'" + (f"; {hint}" if hint else f" (its attributes: {', '.join(allowed)})"))
        typed = _typed(defn, defn.attributes[attribute], value, f"--set {card.id}.{attribute}")
        card.attrs[attribute] = typed
        done[(card.id, attribute)] = typed  # a second setting of one attribute wins, as on a command line
    defn.settings = [[card, attribute, value] for (card, attribute), value in done.items()]


def _typed(defn: GameDef, attr, value, where: str):
    """`value` (text as typed, or a value of JSON) as a value of attribute `attr`."""
    shown = cut(str(value), 40)
    if attr.type == "number":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            return int(value)
        raise ValueError(f"{where}: '{shown}' is not a whole number")
    if attr.type == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ValueError(f"{where}: '{shown}' is not true or false")
    if not isinstance(value, str):
        raise ValueError(f"{where}: '{shown}' is not a text")
    if attr.type == "class":
        known = {fold(v): v for v in attr.values}
        known.update({k: k for k, (a, _) in defn.classes.items() if a == attr.name})
        if fold(value) not in known:
            hint = did_you_mean(value, list(attr.values))
            raise ValueError(f"{where}: '{shown}' is not a value of '{attr.name}'"
                             + (f"; {hint}" if hint else f" (values: {', '.join(map(str, attr.values))})"))
    return value
