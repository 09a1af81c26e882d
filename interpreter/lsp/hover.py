"""Hover: what the name under the cursor stands for, as Markdown.

A card id or title shows the card (its title, attributes and abilities, each
keyword with its printed text); a keyword used on a card or its pattern shows
the keyword's printed text and what its parameters are bound to; a procedure,
function or built-in shows how it is called and what it does. Content is
shown, never obeyed: every text of a file is escaped for Markdown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..content.model import CardDef, GameDef, KeywordDef
from ..language.builtins import FUNCTIONS, SPECIAL_NAMES
from ..language.prose import Prose
from .lookup import find, word_at

_MARKDOWN = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")


@dataclass(frozen=True)
class Hover:
    text: str  # Markdown
    line: int
    start: int
    end: int


def hover(defn: GameDef, findings, sources: dict, path: str, lines: list[str], line: int, column: int
          ) -> Hover | None:
    """The hover at (line, column) of file `path`; `sources`: the texts of the pack's files."""
    text = lines[line] if 0 <= line < len(lines) else ""
    hit = word_at(text, column)
    start, end = (hit[1], hit[2]) if hit else (column, column)
    found = find(defn, findings, path, lines, line, column) if defn is not None else None
    if found is not None and found.what in ("card", "keyword"):
        return Hover(hover_text(defn, findings, found.thing, sources, found.bindings), line, start, end)
    if found is not None:
        return Hover(_definition(found), line, start, end)
    if hit and hit[0] in FUNCTIONS:
        f = FUNCTIONS[hit[0]]
        return Hover(_code(" / ".join(f.forms)) + "\n\n" + md(f.doc) + "\n\n*built-in function*", line, start, end)
    if hit and hit[0] in SPECIAL_NAMES:
        return Hover(f"`{hit[0]}`: {md(SPECIAL_NAMES[hit[0]].doc)}", line, start, end)
    return None


def hover_text(defn: GameDef, findings, thing, sources: dict, bindings: dict | None = None) -> str:
    """A card or a keyword as a modder reads it: the keyword's printed text and what its rules
    say, written as prose (language.prose); the card as it would be printed."""
    prose = Prose(defn, findings, "en")
    if isinstance(thing, KeywordDef):
        head = f"**{md(thing.pattern)}**"
        if thing.params:
            head += " (" + ", ".join(f"{md(p)}: {md(t)}" for p, t in thing.params.items()) + ")"
        out = [head]
        if bindings:
            out.append("here " + ", ".join(f"{md(p)} = {md(_shown(v))}" for p, v in bindings.items()))
        printed = thing.texts.get("en") or next(iter(thing.texts.values()), None)
        out.append(f"*printed:* {md(str(printed))}" if printed else "*no printed text*")
        out.append(f"*its rules:* {md(prose.keyword(thing))}")
        out.append(f"*keyword, {md(_where(thing.pos))}*")
        return "\n\n".join(out)
    card: CardDef = thing
    head = f"**{md(card.title)}** `{card.id}`" + (f" ×{card.copies}" if card.copies != 1 else "")
    attrs = " · ".join(f"{md(k)}: {md(_shown(v))}" for k, v in card.attrs.items())
    out = [head] + ([attrs] if attrs else [])
    out += [f"- {md(line)}" for line in prose.face_texts(card)]
    out.append(f"*card, {md(_where(card.pos))}*")
    return "\n\n".join(out)


def _definition(found) -> str:
    thing = found.thing
    if found.what in ("procedure", "function"):
        params = ", ".join(map(str, thing.params))
        call = f"call {thing.name}({params})" if found.what == "procedure" else f"{thing.name}({params})"
        body = _code(str(thing.text).strip()) if thing.text else ""
        return _code(call) + ("\n\n" + body if body else "") + f"\n\n*{found.what}, {md(_where(found.pos))}*"
    owner = "the game" if thing.scope.is_game else f"each {md(str(thing.scope))}"
    return f"`{thing.name}`: {found.what} of {owner}\n\n*{md(_where(found.pos))}*"


def _where(pos) -> str:
    return f"{pos.path}:{pos.line}"


def _shown(value) -> str:
    if isinstance(value, list):
        return ", ".join(map(_shown, value))
    return str(value)


def md(text) -> str:
    """Content text shown as itself in Markdown: its markup characters escaped."""
    return _MARKDOWN.sub(r"\\\1", str(text))


def _code(text: str) -> str:
    """A fenced block that no run of backticks in `text` can close."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", text)), default=0))
    return f"{fence}\n{text}\n{fence}"
