"""What a bot weighed at one decision: the options, the value it gave each, the one it picked.

"Why does the bot never play card X?" is answered by the values a bot gave the options of a
decision where X was offered. The greedy and search agents keep what their last decision
weighed (`weighed`: per option, the agent's value) and say what their values mean (`weighs`,
`said`, `notes`); `from_agent` reads that into a `Weighing`, which `regles why-bot`, the
terminal's `bot` command and the web replay's "why did the bot do that?" show alike. `weigh`
asks a fresh bot at a state (a trace replayed to a decision): it weighs the options again, with
its own draws of what the seat cannot see.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import printable
from ..view import why
from ..view.texts import texts_of
from .agents import LookaheadFault, SeatView, agent_seed, make_agent, parse_agents

WEIGHING_BOTS = ("greedy", "mcts")
MAX_SEARCH = 2_000  # iterations a search asked over the network may run (the web replay)


@dataclass
class Row:
    label: str
    value: str  # the agent's value, in words
    picked: bool  # the option the bot picks (picked)
    taken: bool  # the option the game took there (a trace's choice), when known


@dataclass
class Weighing:
    asked: str  # the decision: who is asked what, where the content asks it
    agent: str  # the bot that weighed
    how: str  # what its values are
    rows: list
    notes: list = field(default_factory=list)

    def as_json(self) -> dict:
        return {"asked": self.asked, "agent": self.agent, "how": self.how,
                "rows": [vars(r) for r in self.rows], "notes": list(self.notes)}

    def lines(self, traced: str | None = None, lang: str = "en") -> list:
        """The weighing as lines of text (its frame in `lang`; its words in the language it was
        made in): each option with its value, '*' the bot's pick and '>' the option taken."""
        w = FRAME.get(lang, FRAME["en"])
        out = [printable(f"{self.agent}" + (w["traced"].format(traced) if traced is not None else "")
                         + w["weighs"].format(self.how))]
        width = max((len(printable(r.label)) for r in self.rows), default=0)
        for r in self.rows:
            mark = ("*" if r.picked else " ") + (">" if r.taken else " ")
            out.append(f"{mark} {printable(r.label):<{width}}  {printable(r.value)}")
        out.append(w["picks"] + (w["taken"] if any(r.taken for r in self.rows) else ""))
        return out + [printable(n) for n in self.notes]


# the words around a weighing, by language
FRAME = {"en": {"traced": " (the trace's bot of this seat: {})", "weighs": " weighs {}:",
                "picks": "* the option the bot picks", "taken": "; > the option taken", "only": "the only option"},
         "fr": {"traced": " (le robot de cette place dans la trace : {})", "weighs": " pèse {} :",
                "picks": "* l'option que choisit le robot", "taken": " ; > l'option prise", "only": "la seule option"}}


def weighs(agent) -> bool:
    """Whether `agent` keeps what it weighed (greedy and search agents do)."""
    return hasattr(agent, "weighed") and hasattr(agent, "said")


def from_agent(state, agent, picked: int, taken: int | None = None, name: str | None = None,
               within=None, lang: str = "en") -> Weighing:
    """What `agent` (called `name`: 'mcts:400') weighed at its last decision, made at `state`
    (before the pick is applied), its words in `lang`; the question's file named from the
    folder `within`, if given."""
    lang = lang if lang in FRAME else "en"
    values = dict(agent.weighed)
    said = texts_of(state.program, lang)  # each option as the table and the terminal show it
    rows = [Row(said(state.action_label(a)), agent.said(values[a], lang) if a in values else FRAME[lang]["only"],
                a == picked, a == taken) for a in state.legal_actions()]
    return Weighing(why.asked(state, within, lang), name or agent.name, agent.weighs[lang], rows, agent.notes(lang))


def weigh(state, name: str, taken: int | None = None, within=None, lang: str = "en") -> Weighing:
    """A fresh bot `name` ('greedy', 'mcts:N') asked at `state`'s decision, seeded as the seat's
    bot of that game, its words in `lang`. ValueError names a bot that does not weigh, or a
    search too long."""
    agent_name = parse_agents(name, state.n)[0]
    agent = make_agent(agent_name, agent_seed(state.seed, state.current_player))
    if not weighs(agent):
        raise ValueError(f"only {' and '.join(WEIGHING_BOTS)}:N weigh their options, not {agent_name}")
    search = getattr(agent, "search", None)
    if search is not None and (search.seconds is not None or search.work() > MAX_SEARCH):
        raise ValueError(f"a search weighed here runs at most {MAX_SEARCH} iterations (mcts:{MAX_SEARCH}; "
                         "longer or guided rollouts count for more), not a time or more")
    try:
        picked = agent.act(SeatView(state, state.current_player))
    except LookaheadFault as lf:  # an option faulted in the bot's imagined copy: the pick it was on
        picked = lf.action
    return from_agent(state, agent, picked, taken, agent_name, within, lang)


def weigh_in_trace(state, header: dict, agent: str | None = None, within=None, lang: str = "en") -> tuple:
    """(the Weighing, the trace's bot of the seat or None) at `state`, a trace with `header`
    replayed to a decision: asked of `agent`, else of the trace's bot of that seat when it
    weighs, else of greedy; the option the trace took there marked; its words in `lang`.
    ValueError as `weigh`."""
    seat = state.current_player
    agents = list(header.get("agents") or [])
    traced = agents[seat] if seat < len(agents) and isinstance(agents[seat], str) else None
    name = agent or (traced if traced and traced.split(":")[0] in WEIGHING_BOTS else "greedy")
    choices = header["choices"]
    taken = choices[len(state.history)] if len(state.history) < len(choices) else None
    return weigh(state, name, taken, within, lang=lang), traced

