"""What content wrote, shown in the reader's language: `Texts(program, lang)(text)`.

A game's rules write texts that players read at run time: a choice's prompt, an
option's label, an action's name, a log line, a failure. The engine fills in
their `{expressions}` and keeps the finished text in the trace, in the language
the rules are written in, so that a trace is the same whatever language it is
read in. A game gives the words of each text in another language as it gives
those of its names, in `vocabulary:` (`"label:Pass": Passer`, `"label:Play {c}":
"Jouer {c}"`; docs/language.md, 'Cards as prose'). This module turns a finished
text back into its template and its filled-in values, and writes the template's
words in the reader's language around the same values, the way gettext reads a
catalogue. The few texts the engine itself writes into a decision (the question
whether to use an optional ability, yes and no) have their words here.

A text told to one seat may name that seat ("player 1 draws 2 cards"). A game gives
the words the seat reading it is told instead under `you:` (`"you:{p} draws {n}
cards": "you draw {n} cards"`): the same text, without the expression that names the
reader, which it is used for only when every expression it leaves out was filled in
with that seat. A text naming two seats may have a form for each, in a list
(`"you:{p} robs {q}": ["you rob {q}", "{p} robs you"]`).

A prompt or an option's label is addressed to the seat deciding ("End your turn"). The
other seats are told what it chose in the words the game gives under `they:` (`"they:End
your turn": "end their turn"`), where it gives them; else the label is quoted as that
seat read it.

A text no template matches is shown as written: a game without words in a
language is read in the language of its rules, never garbled.
"""
from __future__ import annotations

import re
import weakref

from ..engine.specs import OPTIONAL_ASK, UNNAMED_ACTION
from ..language.prose import Prose
from ..language.prose.vocabulary import Noun, Vocabulary
from .narrate_words import Said, cap, french_spelling, words_in

_PART = re.compile(r"\{([^{}]*)\}")
# What the engine writes into a finished text (engine.machine.label_of), to be said again in
# the reader's language from the table of narrate_words: a seat, seats, the answers of a yes/no
# question, nothing; and the question asked before an optional triggered ability
# ('use CARD (EVENT)?', compile.abilities).
_SEAT = re.compile(r"player ([0-9]+)")
_SEATS = re.compile(r"player [0-9]+(?:, player [0-9]+)*")
ANSWERS = ("yes", "no", "none")
_ASK = re.compile(re.escape(OPTIONAL_ASK).replace(r"\{0\}", "(.+)").replace(r"\{1\}", "([A-Za-z_][A-Za-z0-9_]*)"),
                  re.S)
MOST_REMEMBERED = 10_000  # finished texts kept with their words: a long game does not grow it
_COUNTED = re.compile(r"\{([^{}]*)\} \{([^{}]*)\}")  # a value right after another: '{n} {res}'


def _many(count, plural) -> bool:
    """Whether a value written as `count` (text) is a number a noun after it is plural for, as
    the language counts (`plural`: narrate_words.Words.plural; '0 roche' in French)."""
    return count is not None and count.lstrip("-").isdigit() and plural(int(count))


def attribute_fact(program, vocabulary: Vocabulary, name: str, v) -> str:
    """One attribute of a card or node as a fact, in the language of `vocabulary`: a number with
    its attribute's name ('value 3', 'height 2': « hauteur 2 »), a class as the vocabulary names
    it ('blue pawn'), a text the rules compare with as the vocabulary says it ('mountain':
    « montagne »), else as written ('meadow')."""
    if isinstance(v, (int, float)):
        noun = vocabulary.noun(name, "attribute") if vocabulary.raw(name, "attribute") is not None else None
        return f"{noun.one if noun else name.replace('_', ' ')} {v}"
    a = program.defn.attributes.get(name)
    if a is not None and a.type == "class":
        return vocabulary.class_noun(v).one
    said = vocabulary.value(v)  # a text the rules compare with: 'red' is 'rouge'
    if said == v and len(v) <= 2 and vocabulary.raw(name, "attribute") is not None:  # a code: 'zone B', not 'B'
        return f"{vocabulary.noun(name, 'attribute').one} {v}"
    return said


def place_noun(node: dict, node_id, said: Vocabulary, english: Vocabulary) -> Noun | None:
    """The noun a board node is called by in the language of `said`, when its name is its kind's
    English words and a number or a letter ('room 8' -> 'salle 8') or it has no name (its id
    after its kind's words: 'case b-2'); None when the name is its own ('North')."""
    kind = node.get("kind")
    if not isinstance(kind, str) or said.raw(kind, "node") is None:
        return None
    noun = said.noun(kind, "node")
    name = str(node.get("name", node_id))
    for prefix in (english.noun(kind, "node").one, kind.replace("_", " ")):
        if name.casefold().startswith(prefix.casefold() + " "):
            return Noun(noun.one + name[len(prefix):], noun.many, noun.gender)
    if "name" not in node:
        return Noun(f"{noun.one} {name}", noun.many, noun.gender)
    return None


class Template:
    """One text of the rules (`Play {c} around {contest}`) and its words in a language: matches a
    finished text and writes the same values into the other words."""

    __slots__ = ("source", "target", "pattern", "names", "counted", "said", "plural")

    def __init__(self, source: str, target: str, lang: str = "en"):
        self.source, self.target = source, target
        self.plural = words_in(lang).plural
        pieces, names, seen = [], [], {}
        last = 0
        for m in _PART.finditer(source):
            pieces.append(re.escape(source[last:m.start()]))
            name = m.group(1).strip()
            if name in seen:  # the same expression twice: the same value twice
                pieces.append(f"(?P={seen[name]})")
            else:
                seen[name] = f"v{len(names)}"
                pieces.append(f"(?P<v{len(names)}>.+?)")
                names.append(name)
            last = m.end()
        pieces.append(re.escape(source[last:]))
        self.pattern = re.compile("".join(pieces), re.S)
        self.names = names
        # a value written right after another in the words ('{n} {res}'): said in the plural
        # when that one is a number other than one, as a noun after its count
        self.counted = {m.group(2).strip(): m.group(1).strip() for m in _COUNTED.finditer(target)}
        self.said = {p.strip() for p in _PART.findall(target)}  # the expressions the words fill in

    def literal(self) -> int:
        """How much of the text is written out: a template that writes more is tried first."""
        return len(_PART.sub("", self.source))

    def fill(self, text: str, value, reader: str | None = None) -> str | None:
        """`text` in the other words, or None when this template did not write it; with `reader`
        (a seat as the engine writes it, 'player 1'), only when each expression the words leave
        out was filled in with it (the words of a `you:` text)."""
        m = self.pattern.fullmatch(text)
        if m is None:
            return None
        written = {name: m.group(f"v{i}") for i, name in enumerate(self.names)}
        if reader is not None and any(v != reader for name, v in written.items() if name not in self.said):
            return None
        values = {name: value(v, True) if _many(written.get(self.counted.get(name)), self.plural) else value(v)
                  for name, v in written.items()}
        return _PART.sub(lambda p: values.get(p.group(1).strip(), p.group(0)), self.target)


_TEXTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def texts_of(program, lang: str) -> "Texts":
    """The Texts of `program` in `lang`, made once (the narration and the terminal share them)."""
    got = _TEXTS.setdefault(program, {})
    if lang not in got:
        got[lang] = Texts(program, lang)
    return got[lang]


class Texts:
    """The texts of one game's rules in one language (see the module)."""

    def __init__(self, program, lang: str):
        self.program = program
        self.lang = lang
        self.vocab = Vocabulary(program.defn, lang)
        self.exact: dict[str, str] = {}
        templates, yours, theirs = [], [], []
        self.their_exact: dict[str, str] = {}
        for key, value in self.vocab.entries.items():
            if key.startswith("they:") and isinstance(value, str) and value.strip():
                # a text addressed to the seat deciding ('End your turn'), as the others are told it
                source = key[len("they:"):]
                if _PART.search(source):
                    theirs.append(Template(source, value, lang))
                else:
                    self.their_exact[source] = value
                continue
            if key.startswith("you:") and _PART.search(key):  # told to the seat the text names
                # a text naming two seats has a form for each: ['you rob {q}', '{p} robs you']
                for form in (value if isinstance(value, list) else [value]):
                    if isinstance(form, str) and form.strip():
                        yours.append(Template(key[len("you:"):], form, lang))
                continue
            if not isinstance(value, str) or not value.strip():
                continue
            if not key.startswith("label:"):
                continue
            source = key[len("label:"):]
            if _PART.search(source):
                templates.append(Template(source, str(value), lang))
            else:
                self.exact[source] = str(value)
        self.templates = sorted(templates, key=lambda t: -t.literal())
        self.yours = sorted(yours, key=lambda t: -t.literal())
        self.theirs = sorted(theirs, key=lambda t: -t.literal())
        self._actions: dict | None = None  # the label of an action without one -> (card, ability)
        self._prose = None
        self.words = words_in(lang)
        self.places, self._in_sentence = self._places()
        self._seen: dict[str, str] = {}

    def __call__(self, text, seat: int | None = None) -> str:
        """`text`, as the rules wrote it at run time, in this language; told to `seat` (from 0),
        in the words the game gives the seat it names (`you:`), where it gives them."""
        if text is None:
            return text
        text = str(text)
        key = text if seat is None else (text, seat)
        found = self._seen.get(key)
        if found is None:
            if len(self._seen) >= MOST_REMEMBERED:
                self._seen.clear()
            found = self._seen[key] = self._shown(text, seat)
        return found

    def of_another(self, text, seat: int | None = None) -> str | None:
        """`text`, addressed to the seat deciding ('End your turn'), as the other seats are told
        what it chose ('end their turn', « terminer son tour »; `seat`: the one told), or None
        where the game gives it no such words (`they:` in its vocabulary), or where the text
        names the seat told, which its own words (`you:`) tell it ('an army took your city')."""
        if text is None:
            return None
        text = str(text)
        if seat is not None and self(text, seat) != self(text):
            return None  # it names the seat told, which is told it in its own words (`you:`)
        found = self.their_exact.get(text)
        if found is not None:
            return found
        return self._filled(self.theirs, text, seat)[1]

    def _filled(self, templates: list, text: str, seat: int | None) -> tuple:
        """(the first of `templates` that wrote `text`, its words with the same values filled in,
        told to `seat`: French spelt as French writes it), or (None, None)."""
        value = self.value if seat is None else lambda v, many=False: self.value(v, many, seat)
        for t in templates:
            filled = t.fill(text, value)
            if filled is not None:  # a seat filled in after 'de' or 'à': 'du joueur 2'
                return t, french_spelling(filled) if self.lang == "fr" else filled
        return None, None

    def to(self, seat: int | None):
        """This language's texts as told to `seat` (None: to no seat): `f(text)`."""
        return self if seat is None else lambda text: self(text, seat)

    def _shown(self, text: str, seat: int | None = None) -> str:
        if seat is not None:
            reader = self.program.player_name(seat)
            for t in self.yours:
                filled = t.fill(text, self.value, reader)
                if filled is not None:  # written as the game writes it, its first letter too
                    return french_spelling(filled) if self.lang == "fr" else filled
        if text in self.exact:
            return self.exact[text]
        t, filled = self._filled(self.templates, text, seat)
        if filled is not None:
            # a capital where the rules' text begins with one of its own words ('Play {c}'),
            # not where a value it begins with has one ('{u} of {p} flees': a log line)
            return cap(filled) if t.source[:1].isupper() else filled
        if text in ANSWERS:
            return self.words.w(text)
        if _SEATS.fullmatch(text):  # a seat as the whole text: an option of a choice of players
            return _SEAT.sub(lambda m: self.words.w("player", m.group(1)), text)
        if text in self.places:
            return self.places[text]
        acted = self.actions().get(text)
        if acted is not None:
            return self.action(*acted)
        asked = _ASK.fullmatch(text)
        if asked is not None:
            return self.ask(asked.group(1), asked.group(2))
        if self.lang == "en" and ", player " in text:
            # the rules' own words, seats listed in them as a sentence lists them: 'won by player 1
            # and player 3' (the engine writes 'player 1, player 3', and the trace keeps it)
            return _SEATS.sub(lambda m: self._listed(m.group(0).split(", "), seat, "player"), text)
        return text

    def _listed(self, seats: list, reader: int | None, word: str) -> str:
        """Seats ('player 1', 'player 3') as a sentence lists them, each in `word`'s words ('le
        joueur 1'); several told to one of them name it 'you' ('you and player 3'), as a seat
        alone is named only in the words a game gives (`you:`, where its verb agrees)."""
        numbers = [_SEAT.fullmatch(s).group(1) for s in seats]
        said = [self.words.w("you") if len(numbers) > 1 and reader is not None and int(n) == reader + 1
                else self.words.w(word, n) for n in numbers]
        return said[0] if len(said) == 1 else self.words.w("and", ", ".join(said[:-1]), said[-1])

    def value(self, text: str, many: bool = False, reader: int | None = None) -> str:
        """A value filled into a text (a card's title, a seat, a place, a number), in this language:
        a place with its article where the language writes one ('vers la salle 4'); a value the
        vocabulary gives as a noun in the plural when `many` (after a number other than one)."""
        if text in self.exact:
            return self.exact[text]
        if text in self._in_sentence:
            return self._in_sentence[text]
        if _SEATS.fullmatch(text):  # a seat, or seats ('player 1, player 3'), in a sentence: 'le joueur 1'
            # several, as a sentence lists them: 'le joueur 1 et le joueur 3' ('vous et…' to one of them)
            return self._listed(text.split(", "), reader, "of_player")
        if text in ANSWERS:
            return self.words.w(text)
        return self.vocab.value(text, many)

    def _places(self) -> tuple:
        """The name of each named board node -> as said in this language (`place_noun`:
        'room 8' -> 'salle 8'), and as a sentence says it ('la salle 8', with the article the
        narration gives a place)."""
        if self.lang == "en":
            return {}, {}
        english = Vocabulary(self.program.defn, "en")
        out, in_sentence = {}, {}
        for node_id, node in self.program.nodes.items():
            # a node without a name is written by its id, which may be a word the rules use
            # for other things too ('gold'): only names are said again
            noun = place_noun(node, node_id, self.vocab, english) if "name" in node else None
            if noun is not None:
                out[str(node["name"])] = noun.one
                in_sentence[str(node["name"])] = self.words.w("zone_f" if noun.gender == "f" else "zone", noun.one)
        return out, in_sentence

    def fact(self, name: str, value) -> str:
        """An attribute of a card or node as a fact in this language (`attribute_fact`)."""
        return attribute_fact(self.program, self.vocab, name, value)

    def actions(self) -> dict:
        """The label the engine gives an action a card prints without a name of its own: the card's
        title, then the ability as the rules write it (compile.abilities) -> (card, ability)."""
        if self._actions is None:
            self._actions = {}
            for card in self.program.defn.cards:
                for ab in card.abilities:
                    self._actions.setdefault(UNNAMED_ACTION.format(card.title, ab.text), (card, ab))
        return self._actions

    def action(self, card, ability) -> str:
        """An action without a name: the card's title, then the ability as the card prints it in
        this language (never the rules' text, which may read as code: 'call draw(you.hand)')."""
        if self._prose is None:
            self._prose = Prose(self.program.defn, self.program.found, self.lang)
        try:
            face = " ".join(self._prose.printed(ability).split())
        except (AttributeError, LookupError, TypeError, ValueError):
            return UNNAMED_ACTION.format(card.title, ability.text)
        return self._prose.renderer.w("printed", card.title, face)

    def ask(self, title: str, event: str) -> str:
        """The question before an optional ability: what happened, told by the event's phrase in
        this language when it needs only the card, then whether to use it."""
        phrase = self.vocab.template(event, "event")
        if phrase is not None and set(_PART.findall(phrase)) <= {"0"}:
            said = (french_spelling(phrase) if self.lang == "fr" else phrase).replace("{0}", title)
            return self.words.w("ask", Said(cap(said)))
        return self.words.w("ask_plain", Said(title))
