"""What the engine says of a state in sentences (why a move is not offered, what a condition
read), kept with their parts so that a view may say them in another language.

A `Phrase` is its English text, a `str`, so that whoever joins, prints or compares it reads
English as before; it also keeps its `key` (a template of `ENGLISH`) and its `args`. A view says
it again in another language from those (`view.why`), with that language's template of the same
key, and each part said in that language:

- a `Phrase` within a phrase, again;
- a `Quoted` text, written by the rules (a label, a prompt): in the words the game's vocabulary
  gives it;
- a `Value` of the game (a player, a card, a list): as the language names it;
- a `Noun`, a counter's or zone's name: as the game's vocabulary names it;
- any other part (rules text as written, a name, a number): as it is.
"""
from __future__ import annotations

# key -> the English template; `{0}`, `{1}`... are the parts
ENGLISH = {
    # the answer to "why not?" (engine.why)
    "game_over": "the game is over: no move is possible",
    "no_move": "no move given",
    "unknown": "no option, card or action {0} is known here",
    "offered": "{0} is offered now: option {1} of {2}",
    "not_yours": "it is {0}'s decision now ({1}), not {2}'s",
    "not_among": "{0} is not offered: {1} is not in {2}{3}",
    "not_among_it": "{0} is not offered: it is not in {1}{2}",
    "possible": "{0} is possible now",
    "not_offered": "{0} is not offered: {1} is false",
    "no_action": "{0} has no action to use",
    "not_in_play": "{0} is not possible: {1} is not in play under {2}'s control{3}",
    "no_action_now": "{0} is not possible: no action of a card is offered now, while {1} is asked",
    "other_window": "{0} is not possible now: it is used during {1}, and this decision offers actions during {2}",
    "used": "{0} is not possible: it was used already, once per {1}",
    "condition": "{0} is not possible: its condition {1} is false",
    "cost": "{0} is not possible: its cost {1} cannot be paid",
    "action_possible": "{0} of {1} is possible now",
    "is_in": " (it is in {0})",
    "did_you_mean": "; did you mean {0}?",
    "or": "{0} or {1}",
    "rules_of_procedure": "procedure {0}",
    "rules_of_keyword": "keyword {0}",
    # what a condition read (compile.reasons)
    "is": "{0} is {1}",
    "holds": "{0} holds {1}",
    "is_empty": "{0} is empty",
    "quoted_false": "'{0}' is false",
    "of_classes": " (of {0})",
    "of_no_class": " (of no class)",
    "in_call": "in {0}",
    "in_call_where": "in {0}, where {1}",
    "call_where": "{0}, where {1},",
    "described": "{0} ({1})",
    "gives": "{0} is {1}",
    "gives_nothing": "{0} gives nothing: {1} is empty",
    "left_out": "{0}: {1} is false",
    "left_out_why": "{0}: {1} is false ({2})",
    "leaves_out": "{0} leaves out {1}",
    "more": "and {0} more",
    "an_error": "an error ({0})",
    "has_for_cost": "{0} has {1} {2}, the cost is {3}",
    # the marks between the parts of an answer
    "colon": ": ",
    "semicolon": "; ",
}


class Phrase(str):
    """A sentence of `ENGLISH` filled in: its English text, with its key and parts kept."""

    def __new__(cls, key: str, *args):
        made = super().__new__(cls, ENGLISH[key].format(*args))
        made.key = key
        made.args = args
        return made

    def __reduce__(self):  # pickled (a process pool's answer) as its key and parts
        return Phrase, (self.key, *self.args)


class Quoted(str):
    """A text the rules wrote (a label, a prompt), quoted: 'Pass'. `text` is it unquoted."""

    def __new__(cls, text: str):
        made = super().__new__(cls, f"'{text}'")
        made.text = str(text)
        return made

    def __reduce__(self):
        return Quoted, (self.text,)


class Value(str):
    """A value of the game as English labels it ('player 2', 'Gold Mine'); `value` is it;
    `quoted`, named as a move ('player 2')."""

    def __new__(cls, value, label: str, quoted: bool = False):
        made = super().__new__(cls, f"'{label}'" if quoted else label)
        made.value = value
        made.label = str(label)
        made.quoted = quoted
        return made

    def __reduce__(self):
        return Value, (self.value, self.label, self.quoted)


class Noun(str):
    """The name of one of the game's counters (`kind` 'counter') or zones, which a view says as
    the game's vocabulary names it; `count`, how many it is said of (None: several)."""

    def __new__(cls, name: str, kind: str = "counter", count: int | None = None):
        made = super().__new__(cls, name)
        made.kind = kind
        made.count = count
        return made

    def __reduce__(self):
        return Noun, (str(self), self.kind, self.count)


class Joined(str):
    """Parts joined by `sep` (', ' or '; '), each kept for a view to say again."""

    def __new__(cls, parts, sep: str = ", "):
        parts = tuple(parts)
        made = super().__new__(cls, sep.join(parts))
        made.parts = parts
        made.sep = sep
        return made

    def __reduce__(self):
        return Joined, (self.parts, self.sep)
