"""The bounds that keep untrusted content from hanging the engine or exhausting memory.

One budget of work is shared by everything the rules do between two decisions:
every operation the machine runs, every round of a loop compiled to a native
block, every member a comprehension or a built-in function walks through, the
size of every list a built-in makes. It is refilled when a decision is made;
when it runs out the game stops with an error naming the content line that
was running. The other bounds cap what a value or a pack may hold, so that
memory stays bounded too. `docs/language.md` ("Limits") lists them all.

A shared module: the engine keeps to these bounds, the language and the compiler check
content against them, and the content wing refuses a number in a file past MAX_NUMBER.
(The bounds of reading a YAML file, its bytes, nodes and depth, are the content wing's
own: `content/source.py`.)
"""
from __future__ import annotations

# units of work between two decisions: about a second of play on a laptop, far above what
# any turn of the shipped games needs (docs/language.md gives the figures)
WORK_BUDGET = 2_000_000
# the machine adds its operations to the shared budget by batches of this many (so that
# its loop keeps counting in a local variable); the budget may be overrun by this at most
MACHINE_BATCH = 256
# the largest whole number a game may keep in a counter, an attribute or a variable: the
# largest that every JSON reader keeps exactly (2^53 - 1), far above any score
MAX_NUMBER = 2 ** 53 - 1
# the most members of one list the rules may make (a range, a joined list...)
MAX_LIST = 1_000_000
# the most components a zone may hold
MAX_ZONE = 100_000
# the most components a pack may declare, copies included
MAX_COMPONENTS = 250_000
# the most events a trace records between two decisions: past it one event says how many
# were left out (the game itself goes on exactly as it would untraced)
MAX_TRACE_EVENTS = 100_000
# the budget of work of a text with {expressions} (a log line, a prompt): its own, so that
# rendering a text for a trace never changes when the game's budget runs out
TEXT_BUDGET = 100_000
# a list in a text or a trace event: its first members, and lists in lists this deep
SHOWN_MEMBERS = 20
SHOWN_DEPTH = 6


def runaway_message(budget: int) -> str:
    """What the error says when the budget of work runs out."""
    return (f"runaway rules: more than {budget:,} units of work without a decision "
            f"(an endless loop, or loops over very large lists?)")
