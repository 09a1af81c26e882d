"""Why not? The answer of `state.why_not` (engine.why) as a person reads it.

`regles why TRACE --at EVENT MOVE` asks it of a state replayed from a trace, and
`why MOVE` at a prompt of `regles play` asks it of the game being played:

    'Rest' is not offered: you.coins < 5 is false: you.coins is 5
      tests/fixtures/workshop/game.yaml:54:28
                    option "Rest" if you.coins < 5:
                                     ^~~~~~~~~~~~~

The content line is read from the text of the files the game was loaded from;
everything content wrote is escaped before it is printed.
"""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import excerpt, printable
from .narrate import seat_said
from .narrate_words import Said, words_in
from .texts import texts_of


def render(answer, sources: dict) -> list[str]:
    """The lines telling `answer` (an engine.why.WhyNot); `sources`: path -> text of the
    game's content files (the report of its loading)."""
    lines = [printable(str(answer))]
    where = answer.where
    if where is not None and not answer.legal:
        lines.append(f"  {printable(where)}")
        lines += excerpt(sources.get(where.path), where, "      ")
    if answer.rules and not answer.legal:
        lines.append(printable(f"  rules of {answer.rules_of}, where the choice is asked: {', '.join(answer.rules)}"))
    return lines


def asked(state, within=None, lang: str = "en") -> str:
    """'player 1 is asked 'Your turn' (game.yaml:50)': the decision a state waits for; with
    `within` (a folder), its file named from that folder, as a server names it to a browser
    (never a path of the server's own); in `lang`, its words and the prompt ('Le joueur 1 doit
    répondre à « À vous » (game.yaml:50)')."""
    d = state.pending
    if d is None:
        return words_in(lang).w("game_is_over")
    path = d.pos.path if d.pos is not None else None
    if path is not None and within is not None:
        try:
            path = Path(path).resolve().relative_to(Path(within).resolve()).as_posix()
        except ValueError:
            path = Path(path).name
    at = f" ({path}:{d.pos.line})" if d.pos is not None else ""
    who = seat_said(int(d.player), state.program, lang, first=True)
    return printable(words_in(lang).w("is_asked", who, Said(texts_of(state.program, lang)(d.prompt)), Said(at)))
