"""A card's face in one language: what it prints, taken from the content first.

The face of a card, in language `lang`, is:

1. the card's own `text:` in `lang`, when it has one: the whole printed text of
   the card, one line of the face per line of the text (a card with no ability
   and a text in other languages only prints that text, the game's language first);
2. else one line per ability:
   - a printed keyword whose `text:` is given in `lang`: the keyword's words as
     the card prints them, then that text with its parameters bound
     ("Bonus 2 - Harbour: score 2 points for each Harbour you own");
   - a printed keyword whose last parameter is an effect ("Activation 2:
     EFFECT"): its words, then the effect the card prints, as prose (the
     keyword's own text is a reminder of the rulebook, shown by `explain`);
   - anything else: generated prose (`Prose.ability`), "how the engine reads it".

Generated prose *fits* a face when the renderer wrote every node of it (no
rules text quoted), it holds no brace, dotted name or `snake_case` identifier,
and it is at most `FACE_WORDS` words long. `check_faces` warns (W002) of each
card with an ability whose face is generated prose that does not fit, so that
its content gives the card a `text:`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

FACE_WORDS = 40  # words of generated prose a card face can hold at a readable size
_LEAK = re.compile(r"[{}]|\b[A-Za-z]\w*_\w+\b|\b[a-z]\w*\.[a-z]\w*\b")


@dataclass(frozen=True)
class FaceLine:
    """One line of a face: the printed keyword's words (or ''), what it says, and where the
    words come from: 'card' (the card's text), 'keyword' (a keyword's text), 'prose' (generated)."""
    name: str
    text: str
    source: str
    lang: str = ""  # the language of a card's text printed in another than the one asked


def card_text(card, lang: str) -> str | None:
    """The card's own printed text in `lang`, or None."""
    text = getattr(card, "texts", {}).get(lang)
    return str(text).strip() or None if text is not None else None


def words(text: str) -> int:
    return len(str(text).split())


def fits(text: str, fell_back: bool = False) -> bool:
    """Whether generated prose may stand on a card's face (see the module's docstring)."""
    return not fell_back and not _LEAK.search(str(text)) and words(text) <= FACE_WORDS


@lru_cache(maxsize=256)
def _parameters_pattern(names: tuple) -> re.Pattern:
    """The pattern of a keyword's parameters, each a whole word, the longest first: made once
    per keyword's parameters, not once per card that prints the keyword."""
    return re.compile(r"(?<![\w])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w])")


def bound_text(text: str, use, say) -> str:
    """A keyword's printed text with the values a card prints for its parameters: each
    parameter's letter (a whole word, as the pattern writes it) becomes `say(param, value)`."""
    names = [p for p in use.keyword.params if p in use.bindings]
    if not names:
        return str(text)
    return _parameters_pattern(tuple(names)).sub(lambda m: say(m.group(1), use.bindings[m.group(1)]), str(text))


def face_lines(prose, card) -> list:
    """The FaceLines of `card` in the language of `prose` (see the module's docstring)."""
    own, lang = card_text(card, prose.lang), ""
    if own is None and not card.abilities and card.texts:
        # a card that prints only text, not in this language: its text as printed (the game's
        # language first), rather than a blank face
        lang = prose.defn.language if prose.defn.language in card.texts else sorted(card.texts)[0]
        own = card_text(card, lang)
    if own is not None:
        return [FaceLine("", line.strip(), "card", lang) for line in own.splitlines() if line.strip()]
    return [ability_face(prose, ab) for ab in card.abilities]


def face_source(prose, ab) -> str:
    """Where the face of ability `ab` comes from when its card has no text of its own: "effect"
    (a keyword's effect, written after its ':', in prose), "keyword" (the keyword's printed text
    with the card's values) or "prose" (generated from the ability)."""
    use = prose.uses.get(ab)
    if use is not None:
        kw = use.keyword
        effect = kw.effect_param
        if effect is not None and isinstance(use.bindings.get(effect), list):
            return "effect"
        printed = kw.texts.get(prose.lang)
        if printed is not None and str(printed).strip():
            return "keyword"
    return "prose"


def ability_face(prose, ab) -> FaceLine:
    """One ability's line of a face, when its card has no text of its own."""
    name = prose.printed_name(ab) or ""
    source = face_source(prose, ab)
    if source == "effect":
        use = prose.uses[ab]
        return FaceLine(name, prose.effect(use, use.bindings[use.keyword.effect_param]), "prose")
    if source == "keyword":
        use = prose.uses[ab]
        return FaceLine(name, bound_text(str(use.keyword.texts[prose.lang]).strip(), use, prose.parameter), "keyword")
    return FaceLine(name, prose.ability(ab), "prose")


def unfit_abilities(prose, card, unfit=None) -> list:
    """The abilities of `card` whose face, in the language of `prose`, is generated prose that
    does not fit: (ability, its prose, why). `unfit`: how each ability's verdict is had (by
    default `unfit_ability`; a check of several packs takes it again, language.check_reuse)."""
    if card_text(card, prose.lang) is not None:
        return []
    out = []
    for ab in card.abilities:
        found = (unfit or unfit_ability)(prose, ab)
        if found is not None:
            out.append((ab, *found))
    return out


def unfit_ability(prose, ab) -> tuple | None:
    """(its prose, why) when the face of ability `ab` is generated prose that does not fit (its
    card has no text of its own in the language of `prose`), else None."""
    if face_source(prose, ab) == "keyword":  # printed by its keyword: nothing to write
        return None
    before = len(prose.fallbacks)
    line = ability_face(prose, ab)
    fell_back = len(prose.fallbacks) > before
    if fits(line.text, fell_back):
        return None
    why = ("the engine cannot write all of it" if fell_back else
           "it holds a name of the rules language" if _LEAK.search(line.text) else
           f"it is {words(line.text)} words long (a face holds {FACE_WORDS})")
    return line.text, why
