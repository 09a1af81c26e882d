"""What `regles check` says of card faces: W002 for a card that prints nothing readable.

A card's face (`printed`) is its own text, else its keywords' printed texts,
else generated prose. Where an ability's face would be generated prose that
does not fit (`printed.fits`), the card needs a `text:` of its own: a warning
at the ability, in each language the game is printed in (its `language:`, then
each language its vocabulary gives words in).
"""
from __future__ import annotations

from ...content.model import GameDef
from ...diagnostics import Report
from .cards import LANGS, Prose
from ..check_reuse import face_checks
from .printed import unfit_abilities


def face_languages(defn: GameDef) -> list:
    """The languages a game's faces are checked in: its own, then those its vocabulary gives."""
    first = getattr(defn, "language", None) or "en"
    return [lang for lang in dict.fromkeys([first, *sorted(defn.vocabulary or {})]) if lang in LANGS]


def check_faces(defn: GameDef, findings, report: Report) -> None:
    """W002 for each ability with neither printed text nor prose that fits its card's face."""
    for lang in face_languages(defn):
        prose = Prose(defn, findings, lang)
        faces = face_checks(prose)  # within a check of several packs, each ability's face once
        for card in defn.cards:
            for ab, _text, why in unfit_abilities(prose, card, faces.unfit if faces is not None else None):
                report.warning("W002", ab.pos, f"card '{card.id}' has no printed face in '{lang}': neither a printed "
                                       f"text nor prose that fits ({why})",
                               f"give the card the text it prints: text: {{{lang}: \"...\"}}")
