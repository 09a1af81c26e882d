"""Why not? The answer of `state.why_not` (engine.why) as a person reads it.

`regles why TRACE --at EVENT MOVE` asks it of a state replayed from a trace, and
`why MOVE` at a prompt of `regles play` asks it of the game being played:

    'Rest' is not offered: you.coins < 5 is false: you.coins is 5
      tests/fixtures/workshop/game.yaml:54:28
                    option "Rest" if you.coins < 5:
                                     ^~~~~~~~~~~~~

The content line is read from the text of the files the game was loaded from;
everything content wrote is escaped before it is printed. In another language than English
(`regles play --lang fr`), the answer is said again from its parts (engine.phrases): each
sentence in that language, the labels and prompts in the words the game's vocabulary gives
them, players and zones as that language names them; what the rules wrote (a condition, a
name) as written.

`answered` is the one way in (the terminal, `regles why`, the web table and the replay page
ask through it): the answer in parts (`said`), its file named from the game's folder for a
server. Told to a seat, the answer says that seat 'you' ('not yours', 'where p is you'), and
a card in a zone hidden from it 'a card' (`unseen_by`), but for a card the move named.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..diagnostics import excerpt, printable
from ..engine.observe import may_see
from ..engine.phrases import Joined, Noun, Phrase, Quoted, Value
from ..engine.values import Comp, NodeRef, Seat, Team, ZoneRef
from ..names import fold
from .narrate import noun, seat_name, seat_said, zone_name
from .narrate_words import Said, words_in
from .texts import texts_of


def said(answer, sources: dict, program=None, lang: str = "en", seat: int | None = None, within=None,
         unseen: frozenset = frozenset()) -> dict:
    """`answer` as `lines` tells it, in parts: {legal, answer, where, excerpt (the content
    line and its caret), rules}, each printable. With `within` (a folder), the file is named
    from it, as a server names it to a browser; the components in `unseen` (those the seat may
    not see: `unseen_by`) are said 'a card' wherever the answer read one."""
    say = Saying(program, lang, seat, unseen)
    out = {"legal": answer.legal, "answer": printable(say.all(answer.parts())), "where": None, "excerpt": [],
           "rules": None}
    where = answer.where
    if where is not None and not answer.legal:
        out["where"] = printable(f"{_named_from(where.path, within)}:{where.line}:{where.column}")
        out["excerpt"] = excerpt(sources.get(where.path), where, "")
    if answer.rules and not answer.legal:
        # the procedure or keyword is said in the sentence's words ('règles du mot-clé'), its name as written
        out["rules"] = printable(words_in(lang).w("why_rules_line", say(answer.rules_of), Said(", ".join(answer.rules))))
    return out


def answered(st, move: str, seat: int | None = None, lang: str = "en", within=None) -> dict:
    """Why `move` is not possible in state `st` (engine.why), told as `said` tells it, with the
    decision asked ('asked') and the move: told to `seat` when given (nothing it may not see; its
    own seat 'you'), else of the whole table. What the terminal, `regles why`, the web table and
    the replay page ask."""
    program = st.program
    answer = st.why_not(move, seat, shown_in(program, lang))
    unseen = unseen_by(st, seat, move) if seat is not None else frozenset()
    told = said(answer, program.sources, program, lang, seat, within, unseen)
    told.update({"move": move, "asked": asked(st, within, lang, seat)})
    return told


def lines(told: dict) -> list[str]:
    """The lines that print an answer `said` (or `answered`) tells: the answer, then the rules'
    line with its caret and the rule IDs, indented under it."""
    out = [told["answer"]]
    if told["where"] is not None:
        out.append(f"  {told['where']}")
        out += ["      " + line for line in told["excerpt"]]
    if told["rules"] is not None:
        out.append(f"  {told['rules']}")
    return out


def unseen_by(st, seat: int, move: str = "") -> frozenset:
    """The components in a zone that seat `seat` may not see (another's hand, a deck), but for
    those `move` names by their title: the seat asking knows what it named ('Build Saw': 'Saw
    is not in your hand', not 'a card is')."""
    program = st.program
    named = set(re.findall(r"[^\W_]+", fold(move)))
    out = set()
    for key, comps in st.zones.items():
        if comps and not may_see(st, program.zone_def(key).visibility, program.zone_holder(key), seat):
            out.update(c for c in comps if not named or not _named_in(program.comp_card[c].title, named))
    return frozenset(out)


def _named_in(title: str, words: set) -> bool:
    """Whether each word of `title` is among `words` (those of a move as asked)."""
    mine = re.findall(r"[^\W_]+", fold(title))
    return bool(mine) and all(w in words for w in mine)


def _named_from(path, within) -> str:
    """`path` from folder `within` (its name alone when outside it); as it is without `within`."""
    if path is None or within is None:
        return str(path)
    try:
        return Path(path).resolve().relative_to(Path(within).resolve()).as_posix()
    except ValueError:
        return Path(path).name


def shown_in(program, lang: str):
    """The labels of `program` as a person reads them in `lang` (`view.texts`), for a move named
    as the screen shows it ('why Passer'); None in English, where the rules' own text is shown."""
    return texts_of(program, lang) if program is not None and lang != "en" else None


# the phrases that name a player as the subject or object of a sentence, not as a value, and which
# of their parts: said of the seat told, the sentence is its own ('not yours', 'your control')
_YOU_AT = {"not_yours": 2, "not_in_play": 2, "has_for_cost": 0}
_IN_SENTENCE = frozenset(_YOU_AT)
_VALUE_AT = {"is": 1, "gives": 1}  # the phrases of what a condition read, and which part is the value


class _Unseen:
    """A component the seat told may not see, in place of it in a value of an answer."""


UNSEEN = _Unseen()
_NAMED = frozenset({Seat, Comp, Team, NodeRef, ZoneRef})  # the values a list is said member by member of
_MARKS = {": ": "why_colon", "; ": "why_semicolon"}  # the marks between parts, as each language writes them


class Saying:
    """The parts of the engine's phrases said in `lang` (in English, as the engine wrote them)."""

    def __init__(self, program, lang: str, seat: int | None, unseen: frozenset = frozenset()):
        self.program, self.lang, self.seat = program, lang, seat
        self.words = words_in(lang)
        self.texts = shown_in(program, lang)
        self.unseen = unseen  # components said 'a card' (a seat may not see them)

    def all(self, parts) -> str:
        """The parts said one after the other, what the seat may not see masked first."""
        return "".join(self(self.masked(p) if self.unseen else p) for p in parts)

    def __call__(self, part) -> str:
        if self.texts is None:
            return self.english(part)
        if isinstance(part, Phrase):
            # a part said in the language already (a phrase, a text of the rules) is kept as it is;
            # a player is said with its article, which the sentence around it may respell ('à le')
            return self.words.w("why_" + part.key, *[self._arg(a, part.key in _IN_SENTENCE) for a in part.args],
                                you=self.yours(part))
        if isinstance(part, Joined):
            sep = self.words.w(_MARKS[part.sep]) if part.sep in _MARKS else part.sep
            return sep.join(self(p) for p in part.parts)
        if isinstance(part, Quoted):
            return f"« {self.texts(part.text, self.seat)} »"
        if isinstance(part, Value):
            said = self.value(part.value, part.label)
            return f"« {said} »" if part.quoted else said
        if isinstance(part, Noun):  # French counts 0 and 1 in the singular ('0 ressource')
            many = self.words.plural(part.count)
            return noun(self.program, str(part), part.kind, self.lang, many=many)
        return str(part)

    def english(self, part) -> str:
        """The engine's English, told to a seat: its own seat is 'you' ('not yours', 'under your
        control', 'where p is you'); the rest as the engine wrote it."""
        if isinstance(part, Phrase):
            args = [self.english(a) for a in part.args]
            at = _VALUE_AT.get(part.key)
            if at is not None and self.is_you(part.args[at]):
                args[at] = "you"
            return self.words.w("why_" + part.key, *args, you=self.yours(part))
        if isinstance(part, Joined):
            return part.sep.join(self.english(p) for p in part.parts)
        if isinstance(part, Value) and type(part.value) is ZoneRef and self.program is not None:
            # as the log and the screen name it ("player 2's hand", 'site at North'), not by its key
            return zone_name(self.program, str(part.value), self.seat, vocabulary=True, lang="en")
        return str(part)

    def yours(self, phrase: Phrase) -> bool:
        """Whether `phrase` says the seat told as the subject or object of its sentence."""
        at = _YOU_AT.get(phrase.key)
        return at is not None and at < len(phrase.args) and self.is_you(phrase.args[at])

    def is_you(self, part) -> bool:
        return (self.seat is not None and isinstance(part, Value) and type(part.value) is Seat
                and int(part.value) == self.seat)

    def masked(self, part):
        """`part` with each value that is, or lists, a component of `unseen` said 'a card' (the
        engine's English rebuilt around it, so that English and the other languages agree)."""
        if isinstance(part, Phrase):
            args = tuple(self.masked(a) for a in part.args)
            return part if all(x is y for x, y in zip(args, part.args, strict=True)) else Phrase(part.key, *args)
        if isinstance(part, Joined):
            parts = tuple(self.masked(p) for p in part.parts)
            return part if all(x is y for x, y in zip(parts, part.parts, strict=True)) else Joined(parts, part.sep)
        if isinstance(part, Value):
            v = part.value
            if type(v) is Comp and v in self.unseen:
                return Value(UNSEEN, words_in("en").w("a_card"), part.quoted)
            if isinstance(v, (list, tuple)) and any(type(x) is Comp and x in self.unseen for x in v):
                hidden = [UNSEEN if type(x) is Comp and x in self.unseen else x for x in v]
                named = ", ".join(words_in("en").w("a_card") if x is UNSEEN else
                                  self.program.comp_card[x].title if type(x) is Comp else str(x) for x in hidden)
                return Value(hidden, named, part.quoted)
        return part

    def _arg(self, a, in_sentence: bool):
        if in_sentence and isinstance(a, Value) and type(a.value) is Seat:
            # with its article, respelt with the words around it ('à le joueur 2': 'au joueur 2')
            return seat_said(int(a.value), self.program, self.lang)
        return Said(self(a))

    def value(self, v, label: str) -> str:
        """A value of the game as the language names it ('joueur 2', 'vous', 'équipe 1', a board
        node as the screen labels it: 'case 4', 'oui'); a number or a text as English labelled it."""
        t = type(v)
        if t is Seat:
            return seat_name(int(v), self.seat, self.program, self.lang)
        if t is ZoneRef:
            return zone_name(self.program, str(v), self.seat, vocabulary=True, lang=self.lang)
        if t is Comp:
            return self.program.comp_card[v].title
        if v is UNSEEN:
            return self.words.w("a_card")
        if t is Team:
            return self.words.w("team", int(v) + 1)
        if t is NodeRef:
            return self.texts(str(self.program.nodes.get(v, {}).get("name", v)))
        if t is bool or v is None:
            return self.words.w("none" if v is None else "yes" if v else "no")
        if isinstance(v, (list, tuple)) and v and all(type(x) in _NAMED or x is UNSEEN for x in v):
            return ", ".join(self.value(x, "") for x in v)
        return label


def asked(state, within=None, lang: str = "en", seat: int | None = None) -> str:
    """'player 1 is asked 'Your turn' (game.yaml:50)': the decision a state waits for; with
    `within` (a folder), its file named from that folder, as a server names it to a browser
    (never a path of the server's own); in `lang`, its words and the prompt ('Le joueur 1 doit
    répondre à « À vous » (game.yaml:50)'); told to `seat`, its own is 'you are asked'."""
    d = state.pending
    if d is None:
        return words_in(lang).w("game_is_over")
    at = f" ({_named_from(d.pos.path, within)}:{d.pos.line})" if d.pos is not None else ""
    who = seat_said(int(d.player), state.program, lang, first=True)
    you = seat is not None and int(d.player) == seat
    prompt = Said(texts_of(state.program, lang)(d.prompt, seat))  # a prompt naming the seat told, as to it
    return printable(words_in(lang).w("is_asked", who, prompt, Said(at), you=you))
