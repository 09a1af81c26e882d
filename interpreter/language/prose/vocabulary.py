"""The words a game names its things with, in one language: its `vocabulary:`.

A game file (and each expansion file) may give, for each language, the words
of the names it declares: a noun for a zone, counter, class, attribute, window,
component kind, kind of board node (`node:district`) or argument of an event (`hand: main`, `coin: [pièce,
pièces, f]`), and a phrase whose `{0}`, `{1}`... are the arguments for an
event, procedure or function (`destroyed: "{0} is destroyed"`, `draw: "draw a
card into {0}"`). A name without words is written from its identifier
(`spare_tiles` -> "spare tiles"), so a game renders without any
vocabulary. `check_vocabulary` reports the words of unknown names and of the
wrong shape, like every other check error.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...content.model import GameDef
from ...diagnostics import Report
from ...names import did_you_mean, fold

GENDERS = ("m", "f")
_PLACEHOLDER = re.compile(r"\{([0-9]+)\}")  # ASCII digits: str.format reads no other as an argument's number
_BRACES = re.compile(r"[{}]")

IDENTIFIERS_LANG = "en"  # the language a name without words is read in, from its identifier's words


@dataclass(frozen=True)
class Noun:
    """A noun: its singular, its plural and its gender (in a language that has one)."""
    one: str
    many: str
    gender: str = "m"
    into: str | None = None  # of a zone: the preposition a move into it takes ('sur'), where the language's own does not fit


def singular(word: str) -> str:
    """The singular of a plural noun written from an identifier: `gems` -> 'gem', `tiles` -> 'tile'."""
    if len(word) > 2 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def plural(word: str) -> str:
    """The plural a noun written from an identifier is given: an 's', unless it has one."""
    return word if word[-1:] in ("s", "x", "z") else word + "s"


def words_of(identifier: str) -> str:
    """An identifier as words: `spare_tiles` -> 'spare tiles'."""
    return " ".join(part for part in str(identifier).split("_") if part) or str(identifier)


def as_noun(value) -> Noun | None:
    """A noun as the vocabulary writes it (a word, [one, many], [one, many, gender] or
    {one, many, gender}), or None when it is none of those."""
    if isinstance(value, str) and value.strip():
        return Noun(str(value), plural(str(value)))
    if isinstance(value, list) and 2 <= len(value) <= 3 and all(isinstance(v, str) and v.strip() for v in value):
        gender = str(value[2]) if len(value) == 3 else "m"
        return Noun(str(value[0]), str(value[1]), gender) if gender in GENDERS else None
    if isinstance(value, dict) and isinstance(value.get("one"), str):
        many = value.get("many")
        gender, into = value.get("gender", "m"), value.get("into")
        if gender not in GENDERS or (many is not None and not isinstance(many, str)) or \
                (into is not None and not (isinstance(into, str) and into.strip())):
            return None
        return Noun(str(value["one"]), str(many) if many else plural(str(value["one"])), str(gender),
                    str(into) if into is not None else None)
    return None


class Vocabulary:
    """The words of one language for one pack's names, with their defaults."""

    def __init__(self, defn: GameDef, lang: str):
        self.defn = defn
        self.lang = lang
        self.entries = {str(name): value for name, (value, _) in defn.vocabulary.get(lang, {}).items()}
        self.folded = {fold(name): value for name, value in self.entries.items()}  # classes are matched folded

    def raw(self, name: str, kind: str | None = None):
        """What the vocabulary writes for a declared name (as `KIND:NAME` first, when a name
        is two things), or None."""
        if kind is not None:
            found = self.entries.get(f"{kind}:{name}")
            if found is not None:
                return found
        return self.entries.get(str(name))

    def noun(self, name: str, kind: str | None = None) -> Noun:
        """The noun of a zone, counter, attribute, window, component kind, kind of board node or argument."""
        found = as_noun(self.raw(name, kind))
        if found is not None:
            return found
        word = words_of(name)  # 'spare_tiles': a spare tile, spare tiles
        return Noun(singular(word), plural(word))

    def class_noun(self, name: str) -> Noun:
        """The noun of a class, named by its printed name or one of its aliases."""
        found = self.class_words(name)
        word = self._printed(name)
        return found if found is not None else Noun(word, plural(word))

    def class_words(self, name: str) -> Noun | None:
        """The noun the vocabulary gives a class (named by its printed name or an alias), or None."""
        word = self._printed(name)
        found = as_noun(self.entries.get(f"class:{word}", self.entries.get(word)))
        if found is None:  # written with other accents or case: 'Etage' for 'Étage'
            found = as_noun(self.folded.get(fold(word)))
        return found

    def _printed(self, name: str) -> str:
        printed = self.defn.classes.get(fold(str(name)))
        return printed[1] if printed else str(name)

    def label(self, text: str) -> str:
        """A menu's label in this language: the vocabulary's `label:TEXT`, else as written."""
        found = self.entries.get(f"label:{text}")
        return str(found) if isinstance(found, str) and found.strip() else str(text)

    def value(self, text: str, many: bool = False) -> str:
        """A text the rules compare with or fill in (`"red"`), in this language: the vocabulary's
        `value:TEXT` (a word, or a noun whose plural is said when `many`: after a number other
        than one), else as written."""
        found = self.value_noun(text)
        if found is None:
            return str(text)
        return found.many if many else found.one

    def value_words(self, text: str) -> str | None:
        """What the vocabulary writes for a value a card prints or the rules write: `value:TEXT`
        (a noun: its singular), else an entry of the name itself written as a text; None."""
        noun = self.value_noun(text)
        if noun is not None:
            return noun.one
        found = self.entries.get(str(text))
        return found if isinstance(found, str) else None

    def value_noun(self, text: str) -> Noun | None:
        """The words of `value:TEXT` as a noun (one word: the same in the plural), or None."""
        found = self.entries.get(f"value:{text}")
        if isinstance(found, str):
            return Noun(found, found) if found.strip() else None
        return as_noun(found)

    def template(self, name: str, kind: str) -> str | None:
        """The phrase of an event, procedure or function, with {0}... for its arguments, or None."""
        found = self.raw(name, kind)
        return str(found) if isinstance(found, str) else None

    def nouns(self) -> dict:
        """Every noun of the game's zones, counters and classes (vocabulary or default): the game
        terms a printed text may name, by what they name ("counter:resource")."""
        d = self.defn
        out = {}
        for kind, names in (("zone", d.zones), ("counter", d.counters)):
            for name in names:
                out[f"{kind}:{name}"] = self.noun(name, kind)
        for _, printed in d.classes.values():
            out[f"class:{fold(printed)}"] = self.class_noun(printed)
        return out


KINDS = ("zone", "counter", "attribute", "component", "window", "event", "argument", "procedure", "function",
         "class", "node", "option", "value", "label", "you", "they")
FREE = ("value", "label", "you", "they")
SAID_OF_COUNTERS = {"set": 2, "when": 1}  # phrases of what a counter means: 'set:NAME' {0} holder {1} value  # words for a text of the rules (a value, a menu's label), not for a declared name


def declared_names(defn: GameDef) -> dict:
    """Each name a vocabulary may give words to -> what it is: a list of (kind, number of
    arguments), the number None for a noun."""
    out: dict = {}

    def add(name, kind, arity=None):
        found = out.setdefault(str(name), [])
        if (kind, arity) not in found:
            found.append((kind, arity))
    for kind, table in (("zone", defn.zones), ("counter", defn.counters), ("attribute", defn.attributes),
                        ("component", defn.components)):
        for name in table:
            add(name, kind)
    for w in defn.windows:
        add(w, "window")
    for name in defn.options:  # what the start of a game asks ('variant': « variante »)
        add(name, "option")
    for name, args in defn.events.items():
        add(name, "event", len(args))
        for a in args:
            add(a, "argument")
    for name, proc in defn.procedures.items():
        if "@" not in name:  # a hook is no name of the rules
            add(name, "procedure", len(proc.params))
    for name, f in defn.functions.items():
        add(name, "function", len(f.params))
    for _, printed in defn.classes.values():
        add(printed, "class")
    for board in defn.boards:  # a kind of board node: 'a district' for a member of nodes("district")
        for attrs in board.nodes.values():
            if isinstance(attrs, dict) and isinstance(attrs.get("kind"), str):
                add(attrs["kind"], "node")
    return out


# what the words of a free key (KIND:TEXT) may be, by kind: (what it must be, the hint)
_FREE_VALUES = {
    "value": ("a text or a noun", "a text, or a noun: [singular, plural] or [singular, plural, gender], its plural "
                                  "said after a number other than one"),
    "you": ("a text or a list of texts", "a text, or a list of texts, one for each seat the text names"),
    None: ("a text", "e.g. 'label:Keep both': \"Garder les deux\""),
}


def check_vocabulary(defn: GameDef, report: Report, langs: tuple) -> None:
    """Every language of `vocabulary:` has a renderer; every name is declared; a noun is a noun,
    a phrase names only the arguments there are."""
    known = declared_names(defn)
    for board in defn.boards:  # an attribute board nodes give themselves (an option shows it: 'height 2')
        for attrs in board.nodes.values():
            for key in attrs if isinstance(attrs, dict) else ():
                if key not in ("id", "kind", "name") and ("attribute", None) not in known.get(str(key), []):
                    known.setdefault(str(key), []).append(("attribute", None))
    for lang, words in defn.vocabulary.items():
        if lang not in langs:
            first = next(iter(words.values()), (None, defn.pos))[1]
            report.error("V001", first, f"vocabulary for language '{lang}', which cards are not written in",
                         did_you_mean(lang, langs) or "languages: " + ", ".join(langs))
            continue
        for name, (value, pos) in words.items():
            free = ":" in str(name) and str(name).split(":", 1)[0] in FREE
            kind, _, bare = str(name).partition(":") if free else str(name).rpartition(":")
            if kind in SAID_OF_COUNTERS:
                if bare not in defn.counters:
                    report.error("V001", pos, f"vocabulary ({lang}) for {kind}:{bare}, which is no counter",
                                 did_you_mean(bare, list(defn.counters)) or "write set:COUNTER or when:COUNTER")
                else:
                    _check_phrase(report, lang, name, kind, SAID_OF_COUNTERS[kind], value, getattr(value, "pos", pos))
                continue
            if free:
                if isinstance(value, list) and not all(isinstance(v, str) for v in value):
                    continue  # the schema names each item that is no text (S003): one error, not two
                noun = kind == "value" and not isinstance(value, str) and as_noun(value) is not None
                # told to a seat: a text, or one per seat the text names (a list)
                forms = kind == "you" and isinstance(value, list) and all(
                    isinstance(v, str) and v.strip() for v in value)
                if not noun and not forms and (not isinstance(value, str) or not value.strip()):
                    wanted, hint = _FREE_VALUES.get(kind, _FREE_VALUES[None])
                    report.error("T003", getattr(value, "pos", pos), f"vocabulary ({lang}) for {kind} '{bare}' must be {wanted}",
                                 hint)
                continue
            found = known.get(bare) or [k for n, kinds in known.items() if fold(n) == fold(bare)
                                        for k in kinds if k[0] == "class"]
            if kind:
                found = [k for k in found if k[0] == kind]
            if not found:
                report.error("V001", pos, f"vocabulary ({lang}) for unknown {kind or 'name'} '{bare}'",
                             did_you_mean(bare, list(known)) if kind in ("", *KINDS) else
                             "write NAME, or KIND:NAME where KIND is one of " + ", ".join(KINDS))
                continue
            _check_words(report, lang, name, found, value, getattr(value, "pos", pos))


def _check_words(report, lang, name, kinds, value, at) -> None:
    phrases = [(k, n) for k, n in kinds if n is not None]
    nouns = [k for k, n in kinds if n is None]
    if phrases and nouns:
        both = f"'{name}' is both {_a(nouns[0])} and {_a(phrases[0][0])}"
        if not isinstance(value, str) or _PLACEHOLDER.search(value):
            report.error("N013", at, f"vocabulary ({lang}): {both}: these words cannot be said of both",
                         f"give each its words: '{nouns[0]}:{name}' and '{phrases[0][0]}:{name}'")
            return
    for kind, arity in phrases:
        _check_phrase(report, lang, name, kind, arity, value, at)
    for kind in nouns:
        if as_noun(value) is None:
            report.error("V001", at, f"vocabulary ({lang}) for {kind} '{name}' is no noun",
                         "write a word, [singular, plural] or [singular, plural, gender] (gender m or f)")
            return
        if isinstance(value, str) and _BRACES.search(value):
            report.error("N015", at, f"vocabulary ({lang}) for {kind} '{name}' holds '{{' or '}}'",
                         "a noun takes no arguments: only events, procedures and functions do")
            return


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _check_phrase(report, lang, name, kind, arity, value, at) -> None:
    if not isinstance(value, str) or not value.strip():
        report.error("T003", at, f"vocabulary ({lang}) for {kind} '{name}' must be a phrase (a text)",
                     "e.g. \"draw a card into {0}\": {0}, {1}... stand for its arguments")
        return
    for m in _PLACEHOLDER.finditer(value):
        if len(m.group(1)) > 3 or int(m.group(1)) >= arity:  # (a number of thousands of digits is not read)
            report.error("T001", at, f"vocabulary ({lang}) for {kind} '{name}' names argument {{{m.group(1)}}}, but it "
                             f"takes {arity} argument{'s' if arity != 1 else ''}",
                         "its arguments are {0}" + "".join(f", {{{i}}}" for i in range(1, arity)) if arity
                         else "it takes no argument: write no {0}")
            return
    if _BRACES.search(_PLACEHOLDER.sub("", value)):
        report.error("V001", at, f"vocabulary ({lang}) for {kind} '{name}' has a '{{' or '}}' that names no argument",
                     "arguments are written {0}, {1}...")


_EXPRESSION = re.compile(r"\{([^{}]*)\}")


def check_name_words(defn: GameDef, report: Report) -> None:
    """In a language whose vocabulary gives words to some zones (or counters), a zone (or a
    counter not `internal`) without words is a warning (W005): the table names it by the words
    of its identifier ('Votre power'). Not in English, the language identifiers are read in
    ('spare_tiles' is "spare tiles"), where a name needs words only when its
    identifier's are not the right ones."""
    for lang, words in defn.vocabulary.items():
        if lang == IDENTIFIERS_LANG:
            continue
        named = {str(name) for name in words}
        for kind, declared in (("zone", defn.zones), ("counter", defn.counters)):
            shown = {n: d for n, d in declared.items() if not getattr(d, "internal", False)}
            missing = [(n, d) for n, d in shown.items() if f"{kind}:{n}" not in named and n not in named]
            if len(missing) == len(shown):  # the language names none of them: not asked for their words
                continue
            for name, d in missing:
                report.warning("W005", d.pos, f"{kind} '{name}' has no words in '{lang}', although the "
                                              f"vocabulary gives other {kind}s words in it",
                               f"add to vocabulary: {lang}: \"{kind}:{name}\": [one, many]")


def check_text_words(defn: GameDef, shown: dict, report: Report) -> None:
    """The words of the texts the rules show (`label:TEXT` of a vocabulary, for a prompt, an
    option's label, an action's name, a log line or a failure): each fills in the {expressions}
    of its text, no other; and in a language whose vocabulary gives any text words, a text the
    rules show without words is a warning (W004), as a player reading that language would meet
    it in the language of the rules. `shown`: the checker's texts, (text, position) -> parts."""
    first: dict[str, object] = {}
    for text, pos in shown:
        first.setdefault(str(text), pos)
    for lang, words in defn.vocabulary.items():
        replaced = _replaced(defn)
        _check_yours(lang, words, first, report, replaced)
        _check_theirs(lang, words, first, report, replaced)
        given = {str(name)[len("label:"):]: (value, pos) for name, (value, pos) in words.items()
                 if str(name).startswith("label:")}
        if not given:
            continue
        for source, (value, pos) in given.items():
            if isinstance(value, str):
                _check_same_expressions(report, getattr(value, "pos", pos), f"vocabulary ({lang}) for the text "
                                        f"\"{source}\"", source, value,
                                        "the words of a text fill in the same {expressions} as the text, in any order")
        for text, pos in first.items():
            if text not in given:
                report.warning("W004", pos, f"the text \"{text}\" has no words in '{lang}', although the vocabulary "
                                            f"gives other texts words in it",
                               f"add to vocabulary: {lang}: \"label:{text}\": \"...\"")


def _replaced(defn: GameDef):
    """Whether a text was shown by rules a layer of this pack replaced (a solo mode's own set-up):
    its words, given in the layer below, are right there, and checked where it is laid alone."""
    return lambda text: any(f'"{text}"' in old for old in defn.replaced_texts)


def _check_theirs(lang: str, words: dict, shown: dict, report: Report, replaced=lambda text: False) -> None:
    """The words of a text addressed to the seat deciding (`they:TEXT`: 'End your turn'), as the
    other seats are told what it chose ('end their turn'): a text the rules show, whose words fill
    in the same {expressions} as the text."""
    for name, (value, pos) in words.items():
        if not str(name).startswith("they:") or not isinstance(value, str):
            continue
        source = str(name)[len("they:"):]
        if source not in shown and not replaced(source):
            report.error("V001", pos, f"vocabulary ({lang}) for \"they:{source}\", which is no text the rules show",
                         did_you_mean(source, list(shown))
                         or "write the text as the rules do: a prompt or an option's label")
            continue
        if source in shown:  # (else shown by rules this pack replaced)
            _check_same_expressions(report, getattr(value, "pos", pos), f"vocabulary ({lang}) for \"they:{source}\"",
                                    source, value, "the words told to the other seats fill in the same "
                                                   "{expressions} as the text")


def _check_same_expressions(report: Report, at, what: str, source: str, value: str, hint: str) -> None:
    """V001 where the words `value` of a text `source` fill in other {expressions} than it."""
    wanted = {p.strip() for p in _EXPRESSION.findall(source)}
    said = {p.strip() for p in _EXPRESSION.findall(value)}
    if said != wanted:
        extra, missing = sorted(said - wanted), sorted(wanted - said)
        report.error("V001", at, f"{what} "
                     + (f"fills in {', '.join('{' + e + '}' for e in extra)}, which the text does not"
                        if extra else f"leaves out {', '.join('{' + m + '}' for m in missing)}"), hint)


def _check_yours(lang: str, words: dict, shown: dict, report: Report, replaced=lambda text: False) -> None:
    """The words of a text told to the seat it names (`you:TEXT`): a text the rules show, with
    {expressions} in it; its words fill in some of them and leave out the one (or more) naming
    the seat reading, which is what they are used for. A text naming two seats may have a form
    for each, in a list: each leaves out other expressions than the others."""
    for name, (value, pos) in words.items():
        if not str(name).startswith("you:"):
            continue
        forms = value if isinstance(value, list) else [value]
        if not all(isinstance(form, str) for form in forms):
            continue
        source = str(name)[len("you:"):]
        wanted = {p.strip() for p in _EXPRESSION.findall(source)}
        if source not in shown and replaced(source):
            continue  # shown by rules this pack replaced
        if source not in shown:
            report.error("V001", pos, f"vocabulary ({lang}) for \"you:{source}\", which is no text the rules show",
                         did_you_mean(source, [t for t in shown if _EXPRESSION.search(t)])
                         or "write the text as the rules do: a prompt, an option's label, a log line...")
            continue
        left_out: dict = {}  # the expressions a form leaves out -> that form
        for form in forms:
            at = getattr(form, "pos", None) or getattr(value, "pos", pos)
            said = {p.strip() for p in _EXPRESSION.findall(form)}
            if said - wanted:
                extra = ", ".join("{" + e + "}" for e in sorted(said - wanted))
                report.error("V001", at,
                             f"vocabulary ({lang}) for \"you:{source}\" fills in {extra}, which the text does not",
                             "the words told to a seat fill in the text's {expressions}, but the one naming that seat")
            elif said == wanted:
                report.error("V001", at, f"vocabulary ({lang}) for \"you:{source}\" leaves out no {{expression}}: "
                                         f"they would never be told",
                             "leave out the {expression} naming the seat told: \"you:{p} draws {n}\": \"You draw {n}\"")
            else:
                gone = frozenset(wanted - said)
                if gone in left_out:
                    named = ", ".join("{" + g + "}" for g in sorted(gone))
                    report.error("V001", at, f"vocabulary ({lang}) for \"you:{source}\" has two forms that leave out "
                                             f"{named}: the second would never be told",
                                 "a form for each seat the text names, each leaving out the expression naming it")
                left_out[gone] = form
