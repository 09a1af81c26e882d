"""Rulings: what the content decides where a rulebook is silent or unclear.

A file of a game, an expansion, a scenario or a card set lists them under `rulings:`,
each with the IDs of the rules it reads (`rules:`), its text and, when the rulebook says
nothing of it at all, `authored: true`. The older form, a note of `notes:` written
"ruling (IDS): text", is still read, as the same ruling; `regles check` warns of it."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Position

# a ruling written as a note: "ruling (AB-CD-3, authored): text" or "ruling: text"
NOTE = re.compile(r"^ruling(?: \(([^()]*)\))?: (.*)$", re.S)
RULE_ID = re.compile(r"^[A-Z0-9]+(-[A-Z0-9]+)*-[0-9]+$")


@dataclass
class RulingDef:
    text: str
    rules: list = field(default_factory=list)  # rule IDs
    authored: bool = False
    pos: Position | None = None

    def line(self) -> str:
        """The ruling in one line, as docs/rulings.md and `regles explain` show it."""
        return line_of(self.rules, self.text, self.authored)


def line_of(rules, text: str, authored: bool = False) -> str:
    inside = [str(r) for r in rules] + (["authored"] if authored else [])
    return f"ruling ({', '.join(inside)}): {text}" if inside else f"ruling: {text}"


def from_note(note: str) -> RulingDef | None:
    """The ruling a note of the older form writes, else None (also when its parentheses hold
    more than rule IDs and 'authored': a note that says more than a ruling entry can)."""
    m = NOTE.match(note)
    if m is None:
        return None
    inside = [p.strip() for p in (m.group(1) or "").split(",") if p.strip()]
    if not all(p == "authored" or RULE_ID.match(p) for p in inside):
        return None
    return RulingDef(m.group(2), [p for p in inside if p != "authored"], "authored" in inside,
                     getattr(note, "pos", None))


def rulings_of(data) -> list[RulingDef]:
    """The rulings of a loaded file (its `rulings:`), in order; an entry the schema refuses is left out."""
    out = []
    for item in data.get("rulings") or [] if isinstance(data, dict) else []:
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            rules = item.get("rules") if isinstance(item.get("rules"), list) else []
            out.append(RulingDef(item["text"], [str(r) for r in rules if isinstance(r, str)],
                                 item.get("authored") is True, getattr(item, "pos", None)))
    return out
