"""Agents: who decides at a seat.

An agent is anything with `act(view) -> action`, where `view` is a
`SeatView`: what the seat may see of the game (its observation, hidden zones
and counters masked), the options of the decision it faces with their labels,
and, for evaluating agents, a lookahead that says what an option would be
worth to the seat. Agents never get the state itself.

    RandomAgent(seed)   an option drawn uniformly, with its own seeded generator
    GreedyAgent(seed)   one decision ahead on its own score (or the game's
                        `heuristic:`), ties drawn at random; while it keeps
                        the turn, it goes back to a state it has left last
    HumanAgent()        a person at the terminal

Agents draw their randomness from the engine's seeded generator
(`values.Rng`), so a game played by bots is reproduced exactly from its seed
on every Python and platform.

Limitation of the greedy lookahead: it applies the option to a copy of the
real state and lets the rules run until the next decision. To keep it from
peeking at what its seat may not see, the copy is first "determinised": the
order of every zone hidden from the seat is shuffled with the agent's own
generator, and the copy's random generator is reseeded from it, so draws,
shuffles and dice inside the lookahead are not the real ones. What remains
known is which components lie in which hidden zone (a copy never swaps cards
between two hidden zones), and the lookahead knows the rules exactly. Counters
hidden from the seat and the rules' local names are not redrawn: when another
seat's secret choice (`choose ... secretly`) is kept there and the rules reveal
it before the next decision, the lookahead runs into the real one.

Cycles: while a bot keeps the turn, an option leading back to a state it has
already decided in comes after those leading somewhere new (`revisits`), so
that two free actions undoing each other are not taken in turn forever.
"""
from __future__ import annotations

import re
import sys
import weakref
from typing import Protocol

from ..diagnostics import printable
from ..engine.observe import may_see
from ..engine.state import GameFault, OptionKind
from ..engine.values import Comp, NodeRef, Rng, seed_for
from ..language.prose import Prose
from ..names import did_you_mean, fold
from ..rulings.explain import find_card
from ..view.narrate import counter_lines, render_observation, words
from ..view.narrate_words import words_in
from ..view.texts import Texts, attribute_fact, texts_of
from ..view import worlds
from ..view.seen import Seen
from ..view.why import answered, lines as why_lines
from .marks import Mark
from .mcts import MctsAgent, parse_budget
from .revisits import Revisits
from .wrapped import wrapped


class Quit(Exception):
    """The person at the terminal asked to stop (or closed the input)."""


class SeatView:
    """What the agent of one seat may see and do. It hides the state it wraps."""

    __slots__ = ("_state", "seat", "_base", "_after")

    def __init__(self, state, seat: int):
        self._state = state
        self.seat = int(seat)
        self._base = None  # the determinised copy of the last lookahead
        self._after = None  # the copies of the last lookahead, one per option

    # what the seat sees ---------------------------------------------------------
    def observation(self) -> dict:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list:
        return self._state.legal_actions()

    def labels(self) -> list:
        return self._state.labels()

    def action_label(self, action: int) -> str:
        return self._state.action_label(action)

    @property
    def prompt(self) -> str | None:
        return self._state.prompt

    def subject(self, action: int):
        """What option `action` is about: (card definition, ability definition), either None."""
        return self._state.option_subject(action)

    def named(self, action: int):
        """The component or board node option `action` is about (a card picked, a space moved
        to, the card whose action it is), or None: what a person is shown the facts of."""
        d = self._state.pending
        if d is None or not 0 <= action < len(d.entries):
            return None
        entry = d.entries[action]
        value = getattr(entry, "value", None) if entry.kind is not OptionKind.ACTION else None  # an action: what it does is shown
        return value if type(value) in (Comp, NodeRef) else None

    def why_not(self, move: str, shown=None):
        """Why `move` is not possible now for this seat, or that it is (engine.why): the answer
        tells nothing the seat may not see of where things are. `shown(label)`: a label as the
        seat reads it."""
        return self._state.why_not(move, self.seat, shown)

    def why(self, move: str, lang: str = "en") -> dict:
        """`why_not` told to this seat in `lang` (view.why.answered): nothing it may not see."""
        return answered(self._state, move, self.seat, lang)

    @property
    def players(self) -> int:
        return self._state.n

    @property
    def decisions(self) -> int:
        """How many decisions the game has had so far (by every seat)."""
        return len(self._state.history)

    def seen(self, action: int | None = None) -> "Seen":
        """What the seat sees of the state now, or (given an option) of the state that option
        led to in the last lookahead: a value equal for two states it cannot tell apart."""
        if action is None:
            return Seen(self._base if self._base is not None else self._state.clone(), self.seat)
        if self._after is None:
            raise ValueError("no lookahead was made from this view")
        after = self._after[action]
        return Seen(after, self.seat) if after is not None else object()  # (a fault leads nowhere seen)

    @property
    def program(self):
        """The compiled game's static tables (titles, zones, counters): no state in it."""
        return self._state.program

    # lookahead --------------------------------------------------------------------
    def determinised(self, rng: Rng):
        """A copy of the state in which what the seat cannot see is redrawn (see the module doc)."""
        st = self._state.clone()
        program = st.program
        for key, comps in st.zones.items():
            if len(comps) > 1 and not may_see(st, program.zone_def(key).visibility, program.zone_holder(key), self.seat):
                rng.shuffle(comps)
        st.rng = Rng(rng.next64())
        return st

    def sampled(self, rng: Rng):
        """A copy of the state with everything the seat cannot see drawn anew, for a search
        (`worlds.sample`): other seats' secret choices not yet shown made again, the
        components in zones hidden from it dealt again, the random generator reseeded."""
        return worlds.sample(self._state, self.seat, rng)

    def mark(self) -> Mark:
        """This decision kept, for `moves_since` at a later decision of the same game."""
        return Mark(self._state)

    def moves_since(self, mark: Mark, actions) -> list | None:
        """The choices made since `mark` as (seat, number in the action space `actions`), a
        number None for another seat's secret choice (see `marks`); None when this is not the
        game of the mark played on."""
        return mark.moves_to(self._state, actions, self.seat)

    def action_numbers(self, actions) -> list:
        """The number of each option of the decision in the game's fixed action space
        (`rl.actions.ActionMap`), in the order of `legal_actions()`."""
        return actions.numbers(self._state)

    def lookahead(self, evaluate, rng: Rng) -> list:
        """`evaluate(state, seat)` after each legal option, applied to one determinised copy.

        A fault of the rules while looking ahead raises LookaheadFault naming the option.
        """
        self.outcomes(rng, strict=True)
        return [evaluate(s, self.seat) for s in self._after]

    def outcomes(self, rng: Rng, strict: bool = False) -> None:
        """Apply each legal option to one determinised copy, for `seen(action)`. An option the
        rules fault on raises LookaheadFault when `strict`, else leads to no state."""
        base = self._base = self.determinised(rng)
        after = self._after = []
        for a in self.legal_actions():
            s = base.clone()
            try:
                s.apply(a)
            except GameFault as exc:
                if strict:
                    raise LookaheadFault(a, exc) from None
                s = None
            after.append(s)


class LookaheadFault(Exception):
    """The rules fault when an option is applied: the game cannot go on that way."""

    def __init__(self, action: int, fault):
        super().__init__(f"option {action}: {fault}")
        self.action = action
        self.fault = fault


class Agent(Protocol):
    name: str

    def act(self, view: SeatView) -> int: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def act(self, view: SeatView) -> int:
        actions = view.legal_actions()
        return actions[self.rng.below(len(actions))]


class GreedyAgent:
    """Picks the option whose immediate outcome is best for its seat.

    The value of an outcome is (won?, score): an option that wins the game
    comes first, one that loses it last; then the seat's score, or the game's
    `heuristic:` expression of player `p` when the game defines one. Ties are
    broken with the agent's own generator.

    While no other seat decides, an option that leads back to a state the
    agent has already decided in comes after those that do not (`revisits`):
    two actions that undo each other are not taken in turn forever.
    """

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)
        self.revisits = Revisits()
        # what its last decision weighed: (action, (outcome, value)) per option, outcome 1 a win,
        # -1 a loss, 0 neither (`regles why-bot`)
        self.weighed: list = []

    # what its values are, by language (`regles why-bot`, `bot` at the terminal)
    weighs = {"en": "each option by its outcome for the seat and the game's heuristic after it",
              "fr": "chaque option par son issue pour la place et l'heuristique du jeu après elle"}

    @staticmethod
    def said(value, lang: str = "en") -> str:
        """What the agent's value of an option (`weighed`) means, in words."""
        outcome, score = value
        ends = {"en": {1: " (wins the game)", -1: " (loses the game)"},
                "fr": {1: " (gagne la partie)", -1: " (perd la partie)"}}
        return f"{score:g}" + ends.get(lang, ends["en"]).get(outcome, "")

    def notes(self, lang: str = "en") -> list:
        """What a reader of the last decision's values should know."""
        if not self.weighed:
            return []
        best = max(v for _, v in self.weighed)
        ties = sum(1 for _, v in self.weighed if v == best)
        if ties < 2:
            return []
        if lang == "fr":
            return [f"{ties} options sont à égalité à la meilleure valeur : le robot choisit parmi elles au hasard "
                    "(l'heuristique ne les distingue pas une décision plus loin)"]
        return [f"{ties} options tie at the best value: the bot picks among them at random (the heuristic does "
                "not tell them apart one decision ahead)"]

    def act(self, view: SeatView) -> int:
        self.revisits.arrive(view)
        actions = view.legal_actions()
        if len(actions) == 1:
            self.revisits.note(view)
            self.weighed = []
            return actions[0]
        evaluate = evaluator(view.program)
        values = view.lookahead(evaluate, self.rng)
        self.weighed = list(zip(actions, values))
        self.revisits.note(view)
        best = max(values)
        ties = [a for a, v in zip(actions, values) if v == best]
        pick = ties[self.rng.below(len(ties))] if len(ties) > 1 else ties[0]
        return self.revisits.away(view, actions, values, pick, self.rng)


_EVALUATORS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def evaluator(program):
    """`f(state, seat) -> (outcome, value)` for a compiled game (made once per game)."""
    f = _EVALUATORS.get(program)
    if f is None:
        f = _EVALUATORS[program] = _make_evaluator(program)
    return f


def _make_evaluator(program):
    score = heuristic(program)

    def evaluate(st, seat):
        w = st.winners
        outcome = 0 if not w else (1 if seat in w else -1)
        return (outcome, score(st, seat))
    return evaluate


def heuristic(program):
    """`f(state, seat) -> number`: the game's `heuristic:` of player p, or the seat's score."""
    if program.heuristic is not None:
        return program.heuristic
    return lambda st, seat: st.scores()[seat]


class HumanAgent:
    """A person at the terminal: sees the seat's observation, picks an option by its number.

    'q' (or the end of the input) raises Quit; 'why MOVE' says why a move is not
    offered (engine.why) and asks again; 'bot' shows what the last bot to decide weighed
    (`last_bot`); anything else that is not a number of an option asks again.
    """

    name = "human"

    def __init__(self, inp=None, out=None, lang: str = "en"):
        self.inp = inp if inp is not None else sys.stdin
        self.out = wrapped(out if out is not None else sys.stdout)
        self.lang = lang  # the language cards are written in when asked ('? N')
        self._prose = None  # language.prose.Prose of the game played, made on first need
        # what the last screen showed, when this person decides again with no other seat deciding
        # in between (a programme of several actions, a turn of several steps): then only what
        # changed is shown (play sets it to None when another seat decided)
        self.shown: list | None = None
        # the counters this person was last shown (key -> value): a screen shows those that
        # changed since (all of them with --all), grouped by whose they are
        self.counters: dict | None = None
        # what the last bot to decide among several options weighed, for 'bot': (who, the
        # question, the lines of play.weighing), set by the terminal's game loop
        self.last_bot: tuple | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def act(self, view: SeatView) -> int:
        obs = view.observation()
        self.say()
        every = bool(getattr(view, "show_all", False))
        say = words_in(self.lang).w
        lines = render_observation(view.program, {**obs, "counters": {}}, lang=self.lang)
        last = self.counters
        if self.shown is None and last is not None:
            # a whole screen shows every counter that is not 0, as it shows every zone that holds
            # something, and one that has just fallen to 0; a screen of changes, those that changed
            last = {key: 0 if v else last.get(key, 0) for key, v in obs["counters"].items()}
        counters = [printable(line) for line in counter_lines(view.program, obs, last, every, self.lang)]
        self.counters = dict(obs["counters"])
        if self.shown is None:
            for line in lines + counters:
                self.say(line)
        else:
            before = set(self.shown)
            changed = [item for item in lines + counters if item not in before]
            self.say(say("changed") if changed else say("unchanged"))
            for item in changed:
                self.say(item)
        self.shown = lines + counters
        actions = view.legal_actions()
        labels = view.labels()
        asked = self.about(view, actions[0])[1] if labels == ["yes", "no"] else None
        said = self.texts(view).to(view.seat)  # a text naming this seat, told as to it
        labels = [said(label) for label in labels]
        prompt = said(view.prompt) if view.prompt else say("choose")
        self.say()
        if prompt.endswith("?"):
            self.say(prompt)
        else:
            self.say(f"{prompt}:" if self.lang == "en" else f"{prompt} :")
        if asked is not None:  # an optional ability: what it does, once, under the question
            self.say(f"      ({_short(self.prose(view).printed(asked))})")
        named = [self.named(view, a) for a in actions]
        for i, a in enumerate(actions, 1):
            facts = option_facts(view.program, named[i - 1], labels[a], named, self.lang)
            self.say(f"  {i:>2}. {labels[a]}" + (f"  ({printable(', '.join(facts))})" if facts else ""))
            card, ability = self.about(view, a)
            if ability is not None and asked is None:  # a card's action: what it does
                face = _short(self.prose(view).printed(ability))
                if " ".join(face.split()).removesuffix(" …") not in labels[a]:  # unless its label says it
                    self.say(f"      {face}")
        while True:
            print(say("your_choice", len(actions)), end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                self.say()
                raise Quit("end of input")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise Quit("quit")
            if text.isdigit() and 1 <= int(text) <= len(actions):
                return actions[int(text) - 1]
            word, _, move = text.partition(" ")
            if word.lower() == "why":
                self.why(view, move.strip())
                continue
            if text.lower() == "bot":
                self.bot()
                continue
            if word.lower() in ("?", "help") or (text.startswith("?") and text[1:].strip()):
                self.card_text(view, actions, (move if word.lower() in ("?", "help") else text[1:]).strip())
                continue
            self.say(say("please", len(actions)))

    def texts(self, view: SeatView) -> Texts:
        """What the game's rules write (prompts, labels), in this person's language."""
        return texts_of(view.program, self.lang)

    def prose(self, view: SeatView):
        if self._prose is None:
            program = view.program
            self._prose = Prose(program.defn, program.found, self.lang)
        return self._prose

    def named(self, view: SeatView, action: int):
        try:
            return view.named(action)
        except (AttributeError, LookupError, TypeError):
            return None

    def about(self, view: SeatView, action: int):
        """(card, ability) option `action` is about; (None, None) when the game cannot say."""
        try:
            return view.subject(action)
        except (AttributeError, LookupError, TypeError):
            return None, None

    def card_text(self, view: SeatView, actions: list, what: str) -> None:
        """'? N' (or 'help N'): the card option N is about, as it would be printed; '? NAME': the
        card of that title or id (card texts are public: the rules say what each card does)."""
        card = None
        if what.isdigit() and not 1 <= int(what) <= len(actions):
            self.say(f"  no option {what}: the options are numbered 1 to {len(actions)}")
            return
        if what.isdigit():
            card, _ = self.about(view, actions[int(what) - 1])
            if card is None:
                self.say(f"  option {what} is about no card")
                return
        elif what:
            card, hint = find_card(view.program.defn, what)
            if card is None:
                self.say(f"  no card '{printable(what)}'" + (f"; {hint}" if hint else ""))
                return
        else:
            self.say(f"  ? N shows the card of option N (1-{len(actions)}) as printed; ? NAME a card by its title")
            return
        for i, line in enumerate(self.prose(view).card(card)):
            self.say(("  " if i == 0 else "    ") + printable(line))

    def bot(self) -> None:
        """'bot': what the last bot to decide weighed, option by option (play.weighing)."""
        say = words_in(self.lang).w
        if self.last_bot is None:
            self.say(say("no_bot"))
            return
        who, asked, lines = self.last_bot
        self.say(say("bot_weighed", who, asked))
        for line in lines:
            self.say(f"    {line}")

    def why(self, view: SeatView, move: str) -> None:
        """Say why `move` is not possible now, naming the condition and where content wrote it."""
        if not move:
            self.say("  " + words_in(self.lang).w("why_what"))
            return
        for line in why_lines(view.why(move, self.lang)):  # a label as shown names its option too
            self.say(f"  {line}")


MOST_FACTS = 3  # facts shown beside an option: a few, those that tell it from the others


def option_facts(program, value, label: str, others: list, lang: str = "en") -> list:
    """What a person needs to tell an option from the others, when it names a component or a
    board node: the attributes its card or node gives itself (not the defaults of every card:
    a card's colour and value beside 'Play Rosehip', a space's terrain and height beside
    'Move a pawn to b-2'), named in the words of the game's vocabulary, without what the
    label says already, what every other option has alike, what names another node, or a name
    each node has of its own; at most MOST_FACTS of them."""
    if value is None:
        return []
    mine = _attributes(program, value)
    if not mine:
        return []
    rest = [_attributes(program, o) for o in others if o is not None and o != value]
    vocabulary = words(program, lang)
    said = fold(label)
    words_said = {w.strip(".,;:!?()[]«»\"'") for w in label.split()}
    shown: list = []
    for name, v in mine.items():
        if v == "none" or (rest and all(r.get(name) == v for r in rest)):
            continue  # nothing, or what every option has alike: it tells this one from none
        if type(value) is NodeRef and (str(v) in program.nodes or (name in _node_names(program) and not isinstance(
                v, (int, float)))):
            continue  # a node it names, or a name of its own (an id by another name; a number is told)
        if isinstance(v, (int, float)) and _number_word(v) in words_said and (
                not rest or _named_by(program, name, [value, *others])):
            continue  # 'room 3', 'Ship 8': the label shows the number already (not 'space 3' of height 3)
        if isinstance(v, str) and _CODE.match(v) and vocabulary.value(v) == v:
            continue  # a code the content keeps for itself ('north-2'), which the vocabulary does not say
        text = attribute_fact(program, vocabulary, name, v)
        if not text or fold(text) in said or (not isinstance(v, (int, float)) and fold(text.split()[0]) in said) \
                or _names_value(program, name, v, said):
            continue  # the label says it already ('Place your Blue pawn': not 'Blue card')
        shown.append(text)
    shown = [t for t in shown if not any(t != u and fold(t) in fold(u) for u in shown)]
    return shown[:MOST_FACTS]


_NODE_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _node_names(program) -> frozenset:
    """The attributes that name each board node on its own: no two nodes give one the same value
    ('name', 'index'). A value that is the only one among the options offered but that other
    nodes share (the only red one among three places offered) is a fact that tells the option apart."""
    got = _NODE_NAMES.get(program)
    if got is None:
        values: dict = {}
        for attrs in program.nodes.values():
            for k, v in attrs.items():
                values.setdefault(k, []).append(repr(v))
        got = _NODE_NAMES[program] = frozenset(k for k, vs in values.items() if len(vs) > 1 and len(set(vs)) == len(vs))
    return got


def _names_value(program, name: str, v, said: str) -> bool:
    """Whether a label (`said`, folded) names the class value `v` of attribute `name`, or one
    of its aliases ('Blue Pawn' names the class Blues)."""
    a = program.defn.attributes.get(name)
    if a is None or a.type != "class" or not isinstance(v, str):
        return False
    return any(re.search(rf"(^|_){re.escape(key)}($|_)", said)
               for key, meant in program.defn.classes.items() if meant == (name, v))


# a text written as an identifier, words joined by hyphens: a code of the content, not a fact
_CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+\Z")


def _named_by(program, name: str, options: list) -> bool:
    """Whether the number attribute `name` is the one the options' own names show, in each of
    them ('chamber 3' its number 3, 'chamber 7' its 7): then a label showing it says it."""
    for o in options:
        if o is None:
            continue
        v = _attributes(program, o).get(name)
        own = program.comp_card[int(o)].title if type(o) is Comp else str((program.nodes.get(o) or {}).get("name", o))
        if v is None or _number_word(v) not in own.split():
            return False
    return True


def _number_word(v) -> str:
    """A number as a label writes it: 3, not 3.0."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


_NOT_FACTS = frozenset({"id", "name", "kind", "tags", "board", "index"})


def _attributes(program, value) -> dict:
    """The attributes a component's card or a board node gives itself (not the defaults), in
    the order they are declared: numbers, strings and classes (lists and flags left out)."""
    d = program.defn
    if type(value) is Comp:
        card = program.comp_card[int(value)]
        declared = d.components.get(card.component) or list(card.attrs)
        out = {}
        for name in declared:
            a = d.attributes.get(name)
            v = card.attrs.get(name)
            if a is not None and a.type in ("number", "string", "class") and isinstance(v, (str, int, float)) \
                    and not isinstance(v, bool) and v != "":
                out[name] = v
        return out
    node = program.nodes.get(value) or {}
    return {k: v for k, v in node.items() if k not in _NOT_FACTS and isinstance(v, (str, int, float))
            and not isinstance(v, bool) and v != ""}



def _short(text: str, most: int = 110) -> str:
    """A text cut to `most` characters at a word, marked when cut: one line of a prompt."""
    text = printable(" ".join(text.split()))
    if len(text) <= most:
        return text
    return text[:most].rsplit(" ", 1)[0] + " …"


BOTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}
PARAMETERS = {"mcts": "a budget: iterations (mcts:400) or seconds per decision (mcts:0.5s)"}


def make_agent(name: str, seed: int):
    """A bot by name ('random', 'greedy', 'mcts:400'), seeded."""
    base, _, param = name.partition(":")
    if base not in BOTS:
        raise ValueError(f"unknown agent '{name}' (agents: {', '.join(BOTS)})")
    return BOTS[base](seed, param) if base in PARAMETERS else BOTS[base](seed)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at a seat in a game: fixed by the game's seed."""
    return seed_for(game_seed, 1_000_003 + seat)


def parse_agents(spec: str | None, players: int, default: str = "random") -> list:
    """'random,greedy' -> one agent name per seat ('greedy' alone: all seats)."""
    names = [s.strip().lower() for s in (spec or default).split(",") if s.strip()]
    if not names:
        names = [default]
    for n in names:
        base, colon, param = n.partition(":")
        if base not in BOTS:
            hint = did_you_mean(base, BOTS)
            raise ValueError(f"unknown agent '{n}'" + (f"; {hint}" if hint else "") + f" (agents: {', '.join(BOTS)})")
        if colon and base not in PARAMETERS:
            raise ValueError(f"agent '{base}' takes no parameter, not ':{param}'")
        if base == "mcts":
            parse_budget(param)  # a bad budget is a usage error before the first game
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--agents names {len(names)} agents for {players} players: give one, or one per seat")
    return names
