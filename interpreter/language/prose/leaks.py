"""What prose must never show a reader: `leaks(text, lang)` finds it.

Prose is written for players: a printed rulebook never shows an identifier of
the rules (`spare_tiles`, `you.hand`, `cards_left`), a brace or a `{0}` left
uninterpolated, the words of its bookkeeping (an internal counter) being set,
a number that disagrees with its noun ('1 tokens'), a node written as its rules
text (the renderers' fallback, in quotes), the placeholder noun of a value whose kind is unknown ('item',
'élément'), or a word of the other language ('Take la deuxième carte', 'Keep
both'). Each finding is a `Leak`: its kind and the words found. The word
lists are short and of the language's grammar only (articles, verbs of rules,
connectives), so that a game's proper names (a card's title) are never taken
for a leak; `names` adds a game's own identifiers to look for.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .vocabulary import Vocabulary, declared_names

KINDS = ("identifier", "brace", "fallback", "placeholder noun", "other language", "agreement", "internal name")

# the words of one language that a text of the other should never hold (grammar, not names)
WORDS = {
    "en": {"the", "of", "and", "your", "you", "is", "are", "that", "with", "each", "when", "whenever", "if",
           "then", "play", "use", "neither", "either", "any", "which", "this", "from", "into", "onto",
           "black", "white", "red", "blue", "green", "yellow", "none", "card", "cards", "player", "players",
           "score", "choose", "move", "put", "take", "gain", "lose", "pay", "draw", "discard", "its", "their",
           "yes", "no", "true", "false", "item", "items", "among", "such", "there", "than", "every", "other"},
    "fr": {"le", "la", "les", "du", "des", "et", "votre", "vos", "est", "sont", "avec", "chaque", "quand",
           "si", "puis", "jouez", "utilisez", "aucun", "aucune", "noir", "blanc", "rouge", "bleu", "vert",
           "jaune", "carte", "cartes", "joueur", "joueurs", "marquez", "choisissez", "mettez", "placez",
           "prenez", "gagnez", "perdez", "payez", "piochez", "défaussez", "leur", "leurs", "oui", "non",
           "vrai", "faux", "élément", "éléments", "parmi", "tel", "telle", "tels", "telles", "que", "qui",
           "dans", "sur", "une", "ce", "cette", "ces"},
}
_PLACEHOLDER = {"en": re.compile(r"\b(items?)\b", re.I), "fr": re.compile(r"\b(éléments?)\b", re.I)}
_FALLBACK = {"en": re.compile(r"\bthe rule “"), "fr": re.compile(r"\bla règle « ")}
_SNAKE = re.compile(r"(?<![\w.])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w])")
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?![\w(])")
_BRACES = re.compile(r"\{[^{}]*\}|[{}]")
_ONE_MANY = {"en": re.compile(r"(?<![\d.,])\b1 ((?:[a-z]+ )?[a-z]+[^s\W]s)\b"),
             "fr": re.compile(r"(?<![\d.,])\b1 ((?!des )[a-zé]+s)\b")}
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@dataclass(frozen=True)
class Leak:
    kind: str
    found: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.found}"


# a masculine noun said with a feminine participle or adjective ('ce module est inclinée', 'le premier
# emplacement est active')
_GRAMMAR = {"en": re.compile(r"\bno such an? \w+"),
            "fr": re.compile(r"\b(?:un|le|ce)(?: \w+){1,2} (?:qui )?est (?:pas )?\w+(?:ée|ive)\b")}


def leaks(text: str, lang: str, names=(), internal=()) -> list:
    """What `text`, prose in language `lang`, shows that a reader should not see (see the module);
    `names`: identifiers of the game ('cards_left') to look for as they are written; `internal`: the
    words of its bookkeeping (an internal counter's noun: 'tokens kept aside')."""
    text = str(text)
    out = []
    for m in _BRACES.finditer(text):
        out.append(Leak("brace", m.group(0)))
    for m in _SNAKE.finditer(text):
        out.append(Leak("identifier", m.group(1)))
    for m in _DOTTED.finditer(text):
        out.append(Leak("identifier", m.group(1)))
    for name in names:  # a game's name written as it is declared: 'ending', 'gems'
        if "_" not in name and "." not in name and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            out.append(Leak("identifier", name))
    folded = text.casefold()
    for words in internal:  # bookkeeping set as a value: 'set your tokens kept aside to 2'
        if words and re.search(rf"\b(?:set|fixez)\b[^.;:]{{0,40}}(?<!\w){re.escape(words.casefold())}(?!\w)", folded):
            out.append(Leak("internal name", words))
    if lang in _GRAMMAR:
        for m in _GRAMMAR[lang].finditer(text):
            out.append(Leak("agreement", m.group(0)))
    if lang in _FALLBACK and _FALLBACK[lang].search(text):
        out.append(Leak("fallback", _FALLBACK[lang].search(text).group(0)))
    if lang in _PLACEHOLDER:
        for m in _PLACEHOLDER[lang].finditer(text):
            out.append(Leak("placeholder noun", m.group(1)))
    if lang in _ONE_MANY:
        for m in _ONE_MANY[lang].finditer(text):
            out.append(Leak("agreement", "1 " + m.group(1)))
    other = {"en": "fr", "fr": "en"}.get(lang)
    if other is not None:
        foreign = WORDS[other] - WORDS[lang]
        for word in _WORD.findall(text):
            if word.lower() in foreign:
                out.append(Leak("other language", word))
    return out


def untranslated(defn, lang: str) -> set:
    """The names of a game that its vocabulary gives no words in `lang` (other than English, the
    language identifiers are written in): prose in `lang` that shows one shows an English word."""
    if lang == "en":
        return set()
    vocab = Vocabulary(defn, lang)
    out = set()
    for name, kinds in declared_names(defn).items():
        nouns = [k for k, arity in kinds if arity is None]
        if any(vocab.raw(name, k) is not None for k, _ in kinds) or not nouns:
            continue
        if nouns == ["class"] and vocab.class_noun(name).one != name:
            continue
        out.add(str(name))
    return out


def internal_words(defn, lang: str) -> set:
    """The words prose in `lang` would name a game's bookkeeping with: the nouns of its internal counters."""
    vocab = Vocabulary(defn, lang)
    out = set()
    for name, counter in defn.counters.items():
        if getattr(counter, "internal", False):
            noun = vocab.noun(name, "counter")
            out |= {noun.one, noun.many}
    return out
