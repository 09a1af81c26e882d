"""Write docs/prose.md: every ability of every shipped card and keyword, as prose, in each language.

    python docs/gen_prose_corpus.py            # rewrite docs/prose.md
    python docs/gen_prose_corpus.py --check    # exit 1 if the committed page is out of date

The renderers of `interpreter.language.prose` write the rules of a card as a
rulebook would ("how the engine reads it"). This page is their output for all
the content shipped, kept in the repository and reviewed by reading it: a
change of a renderer shows here as a change of this page (the tests fail until
it is regenerated), and each entry is scanned for what a reader must never see
(`interpreter.language.prose.leaks`).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS))
PAGE = DOCS / "prose.md"
COMMAND = "python docs/gen_prose_corpus.py"

import gen_game_pages as G  # noqa: E402
from interpreter.language.prose import LANGS, Prose  # noqa: E402
from interpreter.language.prose.leaks import internal_words, leaks, untranslated  # noqa: E402

LANG_NAMES = {"en": "English", "fr": "Français"}

# The figures of the corpus before the renderers were reworked (issue 28), measured with today's scan,
# to compare with; and how many abilities the rework changed (in either language, in each).
BEFORE = {"abilities": 321, "words": {"en": (37, 264), "fr": (36, 283)}, "leaks": {"en": 105, "fr": 178},
          "leaky": {"en": 27, "fr": 34}}
CHANGED = {"either": 211, "en": 210, "fr": 186}


class Entry:
    """One ability (of a card or a keyword) in each language."""

    def __init__(self, game: str, where: str, texts: dict, names: dict, internal: dict):
        self.game, self.where, self.texts = game, where, texts
        self.leaks = {lang: leaks(text, lang, names.get(lang, ()), internal.get(lang, ()))
                      for lang, text in texts.items()}


def corpus() -> list:
    """(game title, game folder, [Entry]) for each shipped game: its cards in the order of its packs
    (the game alone, then with its expansions), then its keywords."""
    out = []
    for root in G.shipped_games():
        loaded = G.packs(root)
        base = loaded[0][0]
        names = {lang: untranslated(base, lang) for lang in LANGS}
        entries, seen_cards, seen_keywords = [], set(), set()
        for defn, found in loaded:
            writers = {lang: Prose(defn, found, lang) for lang in LANGS}
            internal = {lang: internal_words(defn, lang) for lang in LANGS}
            for card in defn.cards:
                if card.id in seen_cards:
                    continue
                seen_cards.add(card.id)
                for i, ab in enumerate(card.abilities, 1):
                    texts = {lang: w.ability(ab) for lang, w in writers.items()}
                    entries.append(Entry(root.name, f"{card.title} ({card.id}), ability {i}", texts, names, internal))
            for kw in defn.keywords:
                if (kw.file, kw.pos.line) in seen_keywords:
                    continue
                seen_keywords.add((kw.file, kw.pos.line))
                texts = {lang: w.keyword(kw) for lang, w in writers.items()}
                entries.append(Entry(root.name, f"keyword {kw.name}", texts, names, internal))
        out.append((base.title, root.name, entries))
    return out


def figures(entries: list) -> dict:
    """How many abilities, their words (median, max) per language, and the leaks per language."""
    words = {lang: [len(e.texts[lang].split()) for e in entries] for lang in LANGS}
    return {"abilities": len(entries),
            "words": {lang: (statistics.median(w) if w else 0, max(w, default=0)) for lang, w in words.items()},
            "leaks": {lang: sum(len(e.leaks[lang]) for e in entries) for lang in LANGS},
            "leaky": {lang: sum(1 for e in entries if e.leaks[lang]) for lang in LANGS}}


def _figure_lines(now: dict) -> list:
    out = ["| | " + " | ".join(f"words, {LANG_NAMES[lang]} (median / max)" for lang in LANGS)
           + " | " + " | ".join(f"leaks, {LANG_NAMES[lang]}" for lang in LANGS) + " |",
           "|---|" + "---|" * (2 * len(LANGS))]

    def row(name, f):
        return (f"| {name} ({f['abilities']} abilities) | "
                + " | ".join(f"{_n(f['words'][lang][0])} / {f['words'][lang][1]}" for lang in LANGS) + " | "
                + " | ".join(f"{f['leaks'][lang]} (in {f['leaky'][lang]} abilities)" for lang in LANGS) + " |")
    if BEFORE["abilities"] is not None:
        out.append(row("before the rework", BEFORE))
    out.append(row("now", now))
    return out


def _n(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def page(games=None) -> str:
    """The page, from the corpus `games` (made anew when not given)."""
    games = corpus() if games is None else games
    everything = [e for _, _, entries in games for e in entries]
    out = ["# Prose corpus", "",
           f"<!-- Generated by {COMMAND.split()[-1]} from content/: do not edit by hand. -->", "",
           "What the engine reads on every card and keyword of the shipped games, written as prose by "
           "the renderers (`interpreter/language/prose/`), in English and in French: the view "
           "\"how the engine reads it\" of `regles explain`, and the text of whatever has no printed "
           "text. It is kept here to be read: a change of the renderers shows as a change of this "
           "page. Each text is scanned for what a reader must never see (identifiers of the rules, "
           "braces, rules text in quotes, the placeholder 'item', a word of the other language); "
           "what the scan finds is listed under the text.", "",
           "## Figures", ""]
    out += _figure_lines(figures(everything)) + [""]
    out += [f"The rework of the renderers for issue 28 changed {CHANGED['either']} of the "
            f"{BEFORE['abilities']} abilities ({CHANGED['en']} in English, {CHANGED['fr']} in French). "
            "Words are counted as separated by spaces; an ability of a printed keyword is written "
            "as the keyword's rules with the card's values.", ""]
    for title, folder, entries in games:
        out += [f"## {G.md(title)}", "", f"Game folder: `content/{folder}/`, with all its expansions. "
                "Abilities written alike (a keyword printed on several cards) are shown once.", ""]
        shown: dict = {}
        for e in entries:
            shown.setdefault(tuple(e.texts[lang] for lang in LANGS), []).append(e)
        for same in shown.values():
            e = same[0]
            out += [f"- **{G.md('; '.join(x.where for x in same))}**"]
            for lang in LANGS:
                out.append(f"    - *{lang}:* {G.md(e.texts[lang])}")
                for leak in e.leaks[lang]:
                    out.append(f"        - leak: {G.md(str(leak))}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main(argv) -> int:
    from pagegen import write_or_check
    return write_or_check(PAGE, page(), argv, COMMAND, ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
