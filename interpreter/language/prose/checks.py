"""What `regles check` says of prose: the vocabulary, and printed texts against the rules.

A keyword's printed text (`text:`, in each language) *disagrees* with its rules
when, compared with the keyword's rendering in that language (`Prose.keyword`):

- the numbers differ: the numbers from 2 up that each names, in digits or as
  number words ('two', 'deux'), are not the same set (0 and 1 are left out:
  'a', 'un', 'one', 'any' say them in a thousand ways);
- or the printed text names a game term its rules never do: a term is a zone,
  counter or class of the game, named by one of its words in that language
  (its vocabulary, singular or plural, accents and case ignored).

A disagreement is a warning at the text, with the rendering as its hint;
warnings never change the exit status of `check`.
"""
from __future__ import annotations

import re
import unicodedata

from ...content.model import GameDef
from ...diagnostics import Report
from .cards import LANGS, Prose
from .vocabulary import check_vocabulary

NUMBER_WORDS = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12, "twice": 2},
    "fr": {"deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8, "neuf": 9, "dix": 10,
           "onze": 11, "douze": 12},
}
_WORD = re.compile(r"\w+")


def plain(text: str) -> str:
    """Text with accents and case folded, for finding words in it."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))
    return bare.casefold().replace("\u2019", "'")


def numbers(text: str, lang: str) -> set:
    """The numbers from 2 up a text names, in digits or in words."""
    words = NUMBER_WORDS.get(lang, {})
    found = set()
    for w in _WORD.findall(plain(text)):
        value = int(w) if w.isdigit() else words.get(w)
        if value is not None and value >= 2:
            found.add(value)
    return found


class Terms:
    """Finds the game terms a text names: for each word found, what it may name (a tuple of keys
    of `nouns`, what each names -> its Noun: one word may name a zone and a class alike)."""

    def __init__(self, nouns: dict):
        self.named: dict = {}
        for key, noun in nouns.items():
            for form in {plain(noun.one), plain(noun.many)}:
                if form.strip():
                    self.named.setdefault(form, set()).add(key)
        # the longest form first: a longer term's words are not found again as a shorter one
        forms = sorted(self.named, key=lambda f: (-len(f), f))
        self.pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, forms)) + r")(?!\w)") if forms else None

    def __call__(self, text: str) -> set:
        if self.pattern is None:
            return set()
        return {tuple(sorted(self.named[m])) for m in self.pattern.findall(plain(text))}


def terms(text: str, nouns: dict) -> set:
    """The game terms a text names (see Terms)."""
    return Terms(nouns)(text)


def disagreement(printed: str, rendered: str, lang: str, nouns: dict, find=None) -> str | None:
    """How a printed text disagrees with the rendering of its rules, or None (`find`: the
    Terms of `nouns`, when made already)."""
    find = find or Terms(nouns)
    said, done = numbers(printed, lang), numbers(rendered, lang)
    problems = []
    if said - done:
        problems.append("it names " + ", ".join(map(str, sorted(said - done))) + ", which its rules do not")
    if done - said:
        problems.append("its rules name " + ", ".join(map(str, sorted(done - said))) + ", which it does not")
    extra = find(printed) - find(rendered)
    if extra:
        words = sorted({nouns[keys[0]].one for keys in extra})
        problems.append("it names " + ", ".join(f"'{w}'" for w in words) + ", which its rules never do")
    return "; ".join(problems) or None


def check_printed_texts(defn: GameDef, findings, report: Report) -> None:
    """A warning for each keyword text that disagrees with the keyword's rules."""
    writers = {}
    for kw in defn.keywords:
        for lang, text in kw.texts.items():
            pos = getattr(text, "pos", kw.pos)
            if lang not in LANGS:
                report.warning("V001", pos, f"keyword '{kw.name}': a text in language '{lang}', which cards are not "
                                    "written in", "languages: " + ", ".join(LANGS))
                continue
            if lang not in writers:
                prose = Prose(defn, findings, lang)
                nouns = prose.renderer.vocab.nouns()
                writers[lang] = (prose, nouns, Terms(nouns))
            prose, nouns, find = writers[lang]
            rendered = prose.keyword(kw)
            why = disagreement(str(text), rendered, lang, nouns, find)
            if why is not None:
                report.warning("W001", pos, f"the printed text ({lang}) of keyword '{kw.name}' disagrees with its rules: {why}",
                               f"its rules read: {rendered}")


def check_prose(defn: GameDef, findings, report: Report, texts: bool = True) -> None:
    """The vocabulary of a pack, and (when `texts`) its keywords' printed texts."""
    check_vocabulary(defn, report, LANGS)
    if texts:
        check_printed_texts(defn, findings, report)
