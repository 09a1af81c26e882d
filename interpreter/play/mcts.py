"""A search agent: information-set Monte Carlo tree search (`--agents mcts:400`).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), for any game:

- **Hidden information is sampled anew at every iteration** (`SeatView.sampled`,
  `view.worlds`): the components the seat cannot see are dealt again among the places
  they occupy, each only among those of its own kind (components that start the
  game in the same zone), so that every zone keeps its count; other seats' secret
  choices not yet shown are made again at random; the state's random generator is
  reseeded, so that future draws and dice are unknown too. What the seat sees is
  never changed, and nothing it cannot see is used: the search plays as well
  against a shuffled deck or another programme as against the real ones.
- **One tree of the seat's information set**: its edges are numbers of the
  game's fixed action space (`rl.actions.ActionMap`), so that "play
  component 17" is the same edge in every sample where it is legal. A node
  is chosen by UCB1 over the options legal in this sample, counted by how
  often each was available (availability counts).
- **Every seat maximises its own value** (as max^n does): each node keeps the
  sum of the values of every seat, and the seat deciding there picks by its
  own. Not another seat's secret choice (`choose ... secretly`): it could not
  see what this seat chose in secret before it, which the sample holds, so it
  is left to the rollout, at random, instead of answering that choice.
- **No circles**: while it keeps the turn, a move leading back to a state it
  has decided in already comes after those leading somewhere new (`revisits`),
  as for the greedy agent: short rollouts cannot tell that two free moves undo
  each other.
- **Rollouts are random and short**: ROLLOUT decisions, then on until the turn
  comes back to the searching seat (`rollout`), then the position is valued by
  the game's `heuristic:` (else its score): a seat's value is how far it leads
  the best other seat, scaled into (-1, 1). A game over is worth +1 to each
  winner and -1 to the others. Secret choices (`choose ... secretly`) do not
  count: they show nothing until the rules reveal them, and when every seat
  chooses in turn before a reveal, counting them gave the first seats'
  rollouts a few decisions past the reveal and the last seat's most of them
  (3.1 against 15.6 of 20 in a shipped game at 4 players), and the last seat
  won 42.5% of 80 games.

The budget is a number of iterations (`mcts:400`, the same games for the same
seed) or seconds per decision (`mcts:0.5s`; then a game depends on the
machine's speed and is not reproduced). Options follow it, each after a colon
(`mcts:100:reuse:batch=4`), all off by default (`Search`):

- `reuse`: the tree is kept from one decision to the next. The subtree under the
  choices made since (its own, then the other seats', followed as numbers of the
  action space by `SeatView.moves_since`) becomes the new root, its visits kept,
  and the budget's iterations are added to it. Its statistics came from worlds
  consistent with what the seat saw at the earlier decision, a superset of those
  consistent with what it sees now, as single-observer ISMCTS shares them across
  worlds anyway. No tree is kept past another seat's secret choice.
- `batch=B`: B iterations are played in each sampled world (each from a copy of
  it with its own generator) instead of one: drawing a world costs as much as
  several decisions in a game whose hidden cards are many.
- `rollout=heuristic`: at each open decision of a rollout two options are drawn,
  both played, and the one better for the deciding seat by the game's heuristic is
  kept (a tournament of two: cheaper than a greedy rollout, less blind than a
  random one). Secret choices stay random: they show nothing until revealed.
- `depth=D`: D open decisions in a rollout before it may stop (ROLLOUT).
"""
from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, replace

from ..engine.state import GameFault
from ..engine.values import Rng
from ..rl.actions import ActionMap
from .revisits import Revisits

ROLLOUT = 20  # random decisions played after the tree before the position is valued...
CAP = 4 * ROLLOUT  # ...once the turn comes back to the searching seat, and at most these (4 times the horizon)
EXPLORE = 0.7  # UCB1's constant, for values in [-1, 1]

_MAPS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def action_map(program, players: int) -> ActionMap:
    maps = _MAPS.get(program)
    if maps is None:
        maps = _MAPS[program] = {}
    found = maps.get(players)
    if found is None:
        found = maps[players] = ActionMap(program, players)
    return found


class Node:
    __slots__ = ("children", "visits", "available", "value")

    def __init__(self, players: int):
        self.children: dict = {}  # action number -> Node
        self.visits = 0
        self.available = 0  # iterations in which the move leading here was legal
        self.value = [0.0] * players  # sum of each seat's value over the visits


@dataclass(frozen=True)
class Search:
    """How a search agent searches: its budget and options (see the module doc)."""
    iterations: int | None = 400
    seconds: float | None = None
    reuse: bool = False
    batch: int = 1
    rollout: str = "random"
    depth: int = ROLLOUT

    def work(self) -> float | None:
        """The budget in iterations of the plain search's cost (None for a time budget): longer
        rollouts and guided ones (about 3 times a random one) cost more an iteration. What a
        server bounds when others ask it to search."""
        if self.iterations is None:
            return None
        return self.iterations * max(1.0, self.depth / ROLLOUT) * (3 if self.rollout == "heuristic" else 1)


OPTIONS = "reuse, batch=B (1-64), rollout=random or rollout=heuristic, depth=D (1-200)"


def parse_search(text: str | None) -> Search:
    """A Search from 'N' or 'Xs' then options after colons ('100:reuse:batch=4')."""
    budget, *options = (text or "").strip().lower().split(":")
    iterations, seconds = _budget(budget, text)
    search = Search(iterations, seconds)
    for option in options:
        name, eq, value = option.partition("=")
        try:
            if name == "reuse" and not eq:
                search = replace(search, reuse=True)
            elif name == "batch" and eq and 1 <= int(value) <= 64:
                search = replace(search, batch=int(value))
            elif name == "rollout" and value in ("random", "heuristic"):
                search = replace(search, rollout=value)
            elif name == "depth" and eq and 1 <= int(value) <= 200:
                search = replace(search, depth=int(value))
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"mcts's options are {OPTIONS}, not '{option}' (in 'mcts:{text}')") from None
    return search


def parse_budget(text: str | None):
    """(iterations, seconds) of a search's parameter ('N' or 'Xs', then its options); one of them
    None. Raises ValueError naming what is wrong."""
    search = parse_search(text)
    return search.iterations, search.seconds


def _budget(t: str, text: str | None):
    if t == "":
        return 400, None
    try:
        if t.endswith("s"):
            seconds = float(t[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
            return None, seconds
        n = int(t)
        if not 1 <= n <= 10_000_000:
            raise ValueError
        return n, None
    except ValueError:
        raise ValueError(f"mcts takes a number of iterations (mcts:400) or seconds (mcts:0.5s), not '{text}'") from None


class MctsAgent:
    name = "mcts"

    def __init__(self, seed: int = 0, budget: str | None = None):
        self.rng = Rng(seed)
        self.search = parse_search(budget)
        self.kept = None  # with `reuse`: (the last decision's root, the view's mark of that decision)
        self.revisits = Revisits()
        self.looks = Rng(seed ^ 0x5EED)  # for the states the options lead to (see `act`)
        self.searched = 0  # iterations run by this agent, all decisions together
        self.weighed: list = []  # the last decision's options: (action, (visits, mean value))

    # what its values are, by language (`regles why-bot`, `bot` at the terminal)
    weighs = {"en": "each option by the visits of its search and its mean value (-1 to 1) to the seat",
              "fr": "chaque option par les visites de sa recherche et sa valeur moyenne (-1 à 1) pour la place"}

    @staticmethod
    def said(value, lang: str = "en") -> str:
        """What the agent's value of an option (`weighed`) means, in words."""
        visits, mean = value
        shown = "–" if mean is None else f"{mean:+.3f}"
        return f"{visits} visites, valeur moyenne {shown}" if lang == "fr" else f"{visits} visits, mean value {shown}"

    def notes(self, lang: str = "en") -> list:
        """What a reader of the last decision's values should know."""
        if not self.weighed:
            return []
        kept = self.search.reuse
        if lang == "fr":
            return ["une recherche tire ses propres échantillons : une autre recherche du même budget peut peser "
                    "les options autrement"] + (["ses visites comptent celles gardées de ses décisions d'avant "
                                                 "(reuse)"] if kept else [])
        return ["a search draws its own samples: another search of the same budget may weigh the options otherwise"] \
            + (["its visits count those kept from its decisions before (reuse)"] if kept else [])

    def act(self, view) -> int:
        self.revisits.arrive(view)
        actions = view.legal_actions()
        if len(actions) == 1:
            self.revisits.note(view)
            self.weighed = []
            return actions[0]  # (a kept tree stays kept: its mark is followed through this decision)
        players = view.players
        am = action_map(view.program, players)
        numbers = view.action_numbers(am)
        program = view.program
        # the game's heuristic of a seat, else its score (as the greedy agent values positions)
        score = program.heuristic if program.heuristic is not None else (lambda st, seat: st.scores()[seat])
        root = self._kept_root(view, am) if self.kept is not None else Node(players)
        self.kept = None
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = uses = 0
        world = None
        batch = self.search.batch
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline and done > 0:
                break
            if uses == 0:
                world, uses = view.sampled(self.rng), batch
            uses -= 1
            if uses:  # a copy of the world with a generator of its own; the last use takes the world itself
                st = world.clone()
                st.rng = Rng(self.rng.next64())
            else:
                st = world
            self._iterate(root, st, am, score, players, view.seat)
            done += 1
        self.searched += done
        self.revisits.note(view)
        visits = [root.children[k].visits if k in root.children else -1 for k in numbers]
        # what the search weighed (`regles why-bot`): per option, its visits and its mean value to the seat
        self.weighed = [(a, (max(v, 0), root.children[k].value[view.seat] / v if v > 0 else None))
                        for a, k, v in zip(actions, numbers, visits)]
        best = max(range(len(numbers)), key=lambda i: (visits[i], -i))
        # two free moves that undo each other look alike to short rollouts: not in turn forever.
        # The states the options lead to are made with a generator of their own, so that the
        # search draws the same numbers as it would without this
        view.outcomes(self.looks)
        pick = self.revisits.away(view, actions, visits, actions[best], self.rng)
        if self.search.reuse:
            self.kept = (root, view.mark())
        return pick

    @property
    def iterations(self) -> int | None:
        return self.search.iterations

    @property
    def seconds(self) -> float | None:
        return self.search.seconds

    def _kept_root(self, view, am: ActionMap) -> Node:
        """The kept tree's node that the choices made since its decision lead to, or a new root."""
        root, mark = self.kept
        moves = view.moves_since(mark, am)
        node = root if moves is not None else None
        for _, number in moves or ():
            node = node.children.get(number) if number is not None else None
            if node is None:
                break
        return node if node is not None else Node(view.players)

    def _iterate(self, root: Node, st, am: ActionMap, score, players: int, me: int) -> None:
        rng = self.rng
        path = [root]
        node = root
        try:
            while not st.is_terminal():
                seat = st.current_player
                if seat != me and st.pending.secret:
                    # another seat's secret choice cannot depend on what this seat chose in
                    # secret before it, which the sample holds: chosen in the tree by its value,
                    # it would answer it. It is played at random, as in a rollout
                    break
                numbers = am.numbers(st)
                for k in numbers:
                    child = node.children.get(k)
                    if child is not None:
                        child.available += 1
                untried = [k for k in numbers if k not in node.children]
                if untried:
                    k = untried[rng.below(len(untried))]
                    child = node.children[k] = Node(players)
                    child.available = 1
                    st.apply(numbers.index(k))
                    path.append(child)
                    break
                k = max(numbers, key=lambda k: _ucb(node.children[k], seat))
                node = node.children[k]
                st.apply(numbers.index(k))
                path.append(node)
            if self.search.rollout == "heuristic":
                st = guided_rollout(st, rng, me, score, self.search.depth)[0]
            else:
                rollout(st, rng, me, self.search.depth)
            values = _values(st, score, players)
        except GameFault:
            values = [0.0] * players  # a sample the rules cannot play on: worth nothing to anyone
        for n in path:
            n.visits += 1
            v = n.value
            for s in range(players):
                v[s] += values[s]


def rollout(st, rng, me: int, horizon: int = ROLLOUT) -> int:
    """Random decisions from `st` until the game ends, or until the horizon has passed and the
    turn comes back to `me` from another seat; the number of decisions made.

    Ending at the start of the searching seat's own turn values every position at the same
    point of the turn order, whichever seat searches: every other seat has played since its
    last turn, and it has not yet played again. A horizon counted in decisions alone ends
    anywhere in a round, so that at four seats it showed the last seats the end of the round
    their choice led to and the first seats seldom. A secret choice shows nothing until the
    rules reveal it: it does not use the horizon, or the seats that choose first would value
    their choice before its effect while the last ones see it played out."""
    return _rollout(st, rng, me, horizon, None)[1]


def guided_rollout(st, rng, me: int, score, horizon: int = ROLLOUT):
    """`rollout`, but at each open decision of two or more options two of them are drawn and
    played, and the one better for the deciding seat (a win first, a loss last, then the game's
    heuristic `score`) is kept; (the state reached, decisions made). An option the rules fault
    on loses to the other; both faulting raise."""
    return _rollout(st, rng, me, horizon, score)


def _rollout(st, rng, me: int, horizon: int, score):
    depth = made = 0
    cap = CAP * horizon // ROLLOUT
    last = st.current_player if not st.is_terminal() else me
    while not st.is_terminal() and made < cap:
        seat = st.current_player
        if depth >= horizon and seat == me and last != me:
            break
        last = seat
        made += 1
        n = len(st.pending.entries)
        secret = st.pending.secret
        depth += not secret
        if secret or score is None or n == 1:
            st.apply(rng.below(n))
            continue
        a = rng.below(n)
        b = rng.below(n - 1)
        b += b >= a
        other = st.clone()
        try:
            st.apply(a)
        except GameFault:
            other.apply(b)
            st = other
            continue
        try:
            other.apply(b)
        except GameFault:
            continue
        if _judged(other, seat, score) > _judged(st, seat, score):
            st = other
    return st, made


def _judged(st, seat: int, score) -> tuple:
    w = st.winners
    return (0 if not w else (1 if seat in w else -1), float(score(st, seat)) if not w else 0.0)


def _ucb(child: Node, seat: int) -> float:
    return child.value[seat] / child.visits + EXPLORE * math.sqrt(math.log(max(child.available, 1)) / child.visits)


def _values(st, score, players: int) -> list:
    """Each seat's value of a position in (-1, 1); +1 and -1 for a game over."""
    if st.is_terminal():
        return [float(r) for r in st.returns()]
    h = [float(score(st, s)) for s in range(players)]
    out = []
    for s in range(players):
        best_other = max((h[o] for o in range(players) if o != s), default=0.0)
        out.append((h[s] - best_other) / (abs(h[s]) + abs(best_other) + 1.0))
    return out
