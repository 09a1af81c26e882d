"""A person plays one seat at the terminal against bots (`regles play`).

The person sees only what their seat may see: the observation of the seat,
the options of their own decisions, and the events of the game told as they
happen by a `narrate.Narrator`, which masks what the seat may not see. The
rules' bookkeeping (counters declared `internal`) is left out unless asked
(`show_all`), and content is shown escaped, never obeyed by the terminal.
"""
from __future__ import annotations

import sys

from ..content.model import LayerKind
from ..diagnostics import printable
from ..engine.state import GameFault
from ..rulings.explain import character_noun, character_sheets, character_word
from ..rulings.trace import error_record, save_state_trace, source_of
from ..view.narrate import Narrator, counter_noun, is_internal, joined, seat_name, seat_said, winners_text
from ..view.narrate_words import Said, bot_said, cap, words_in
from ..view.lines import wrap
from ..view.texts import texts_of
from . import weighing
from .agents import HumanAgent, LookaheadFault, Quit, SeatView, agent_seed, make_agent
from .wrapped import wrapped


class PlayerView(SeatView):
    """What the person at the terminal is shown of their seat: the seat's view, with the
    labels and prompt escaped and, unless `show_all`, without the rules' bookkeeping."""

    __slots__ = ("show_all",)

    def __init__(self, state, seat: int, show_all: bool = False):
        super().__init__(state, seat)
        self.show_all = show_all

    def observation(self) -> dict:
        obs = super().observation()
        if not self.show_all:
            obs["counters"] = {k: v for k, v in obs["counters"].items() if not is_internal(self.program, k)}
        return obs

    def labels(self) -> list:
        return [printable(label) for label in super().labels()]

    def action_label(self, action: int) -> str:
        return printable(super().action_label(action))

    @property
    def prompt(self) -> str | None:
        p = super().prompt
        return printable(p) if p is not None else None


def play_at_terminal(game, players: int, seed: int, options: dict, bots: list, *, seat: int = 0,
                     human=None, save: str | None = None, source: str | None = None, out=None,
                     show_all: bool = False, powers: dict | None = None, lang: str = "en") -> int:
    """Play a game told in `lang` (the narration's sentences and the names of the game's
    vocabulary in that language); returns the exit status (0, or 1 when the rules fault)."""
    out = wrapped(out or sys.stdout)  # at a terminal, long lines broken between words
    w = words_in(lang).w
    names = list(bots)
    if len(names) == 1 and players > 2:
        names = names * (players - 1)
    agents, agent_names = {}, []
    k = 0
    for s in range(players):
        if s == seat:
            agent_names.append("human")
            continue
        agents[s] = make_agent(names[k], agent_seed(seed, s))
        agent_names.append(names[k])
        k += 1
    if human is None:
        human = HumanAgent(out=out)
    narrator = None
    state = None
    status, error = 0, None
    try:
        state = game.new_state(players, seed, options, trace=True, powers=powers)
        narrator = Narrator(state, seat, out, show_all, lang=lang, group=True)
        print(printable(_seats(game.program, players, seat, agent_names, lang)), file=out)
        for line in _laid(game.program, powers or {}, players, lang):
            print(printable(line), file=out)
        narrator.flush()
        while not state.is_terminal():
            p = state.current_player
            if p == seat:
                a = human.act(PlayerView(state, p, show_all))
            else:
                human.shown = None  # another seat decides: the next screen is shown whole
                try:
                    a = agents[p].act(SeatView(state, p))
                except LookaheadFault as lf:
                    a = lf.action
                else:
                    if weighing.weighs(agents[p]) and agents[p].weighed:  # for 'bot' at the next question
                        weighed = weighing.from_agent(state, agents[p], a, name=agent_names[p], lang=lang)
                        human.last_bot = (seat_name(p, seat, game.program, lang),
                                          texts_of(game.program, lang)(state.pending.prompt, seat), weighed.lines(lang=lang))
            narrator.before(state)
            state.apply(a)
            narrator.flush()
        print(file=out)
        print(w("game_over", Said(_outcome(game.program, state, seat, lang))), file=out)
        shown = state.standings()  # the score, or what the game declares the end shows (`standing:`)
        each = Said(", ".join(f"{seat_name(s, seat, game.program, lang)} {shown[s]}" for s in range(players)))
        if game.program.standing:
            print(w("standing", Said(counter_noun(game.program, game.program.standing, lang)), each), file=out)
        else:
            print(w("scores", each), file=out)
    except Quit:
        print(w("left"), file=out)
    except GameFault as exc:
        if narrator is not None:
            narrator.flush(whole=True)
        print(f"regles play: the game cannot go on: {printable(exc)}", file=sys.stderr)
        status, error = 1, exc
    if save and state is not None:
        try:
            path = save_state_trace(save, game, state, agents=agent_names, source=source_of(game, source),
                                    error=error_record(error) if error is not None else None, powers=powers)
            print(f"Trace saved to {printable(path)}", file=out)
        except OSError as exc:
            print(f"regles play: error: cannot write {printable(save)}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
    return status


def _laid(program, powers: dict, players: int | None = None, lang: str = "en") -> list:
    """What is laid over the game, said once at its start: the expansions, each seat's power, and
    the scenario's sheet, read aloud as the first player would, and its sheet of each seat's
    character; the sheets in `lang` (a sheet not written in it, as written)."""
    d = program.defn
    w = words_in(lang).w
    lines = []
    expansions = [x.title_in(lang) for x in d.layers if x.kind is not LayerKind.SCENARIO]
    if expansions:
        lines.append(w("expansions", Said(", ".join(expansions))))
    for s, card in sorted(powers.items()):
        title = next((c.title for c in d.cards if c.id == card), card)
        lines.append(w("power", _first(seat_name(int(s) - 1, None, program, lang), lang), Said(title)))
    sc = d.scenario
    if sc is not None:
        lines.append(w("scenario", Said(sc.title_in(lang))))
        lines += [("  " + x).rstrip() for x in sc.text_in(lang).strip().splitlines()]
        lines += _sheets(program, sc, powers, players, lang)
    return lines


def _first(name: str, lang: str) -> str:
    """A seat's name opening a sentence: in upper case in French ('Joueur 1 joue ...'); English
    writes it as it always has ('player 1 plays with the power ...')."""
    return name if lang == "en" else cap(name)


def _sheets(program, sc, powers: dict, players: int | None, lang: str = "en") -> list:
    """The scenario's sheet of each seat's character: a seat given a power plays the character
    of that power (the attribute powers are unique by); the character of a seat without one is
    the content's to compute, so every sheet is shown for those seats to take theirs."""
    d = program.defn
    sheets = character_sheets(d, sc, lang)
    if not sheets:
        return []
    w = words_in(lang).w
    word = character_word(d)
    by_name = {name: (title, text) for name, title, text, _ in sheets}
    lines, known, taken = [], set(), set()
    for s in range(players or 0):
        card = next((c for c in d.cards if c.id == powers.get(str(s + 1), powers.get(s + 1))), None)
        name = str(card.attrs.get(word)) if card is not None and card.attrs.get(word) is not None else None
        if name in by_name:
            known.add(s)
            taken.add(name)
            title, text = by_name[name]
            lines.append(w("sheet", _first(seat_name(s, None, program, lang), lang), Said(name), Said(title)))
            lines += _indented(text)
    if players is None or len(known) < players:
        lines.append(w("sheets_other" if known else "sheets_each", Said(character_noun(d, lang))))
        for name, title, text, _ in sheets:
            if name in taken:  # no two players play one character
                continue
            lines.append(f"  {title} [{name}]")
            lines += _indented(text)
    return lines


def _indented(text: str) -> list:
    return wrap(text, 100, "    ", "    ")


def _seats(program, players: int, seat: int, agent_names: list, lang: str = "en") -> str:
    """'You are player 1, with player 3 (greedy) as your partner, against player 2 (greedy)
    and player 4 (greedy).'"""
    w = words_in(lang).w

    def who(s):
        auto = program.automata.get(s)
        if auto is not None:
            return w("seat_by_rules", Said(auto.title), s + 1)
        return f"{seat_said(s, None, lang)} ({bot_said(agent_names[s], lang)})"
    team = next((t for t in program.teams_for(players) if seat in t), [seat])
    partners = [who(s) for s in team if s != seat]
    rivals = [who(s) for s in range(players) if s not in team]
    text = w("seats_you_are", seat_said(seat, None, lang))
    if partners:
        text += w("seats_partners" if len(partners) > 1 else "seats_partner", Said(joined(partners, lang)))
    if rivals:
        text += w("seats_against", Said(joined(rivals, lang)))
    elif not partners:
        text += w("seats_alone")
    return text + "."


def _outcome(program, state, seat: int, lang: str = "en") -> str:
    """'You win.', 'Your team wins (you and player 3).', 'Team 2 wins (player 2 and player 4).'"""
    say = words_in(lang).w
    w = list(state.winners or ())
    if not w:
        return say("outcome_none")
    teams = program.teams_for(state.n)
    team = next((i for i, t in enumerate(teams) if sorted(t) == w), None)
    if team is not None and len(teams[team]) > 1:
        whose = say("your_team_cap") if seat in teams[team] else say("team_cap", team + 1)
        return say("outcome_team", whose, Said(joined([seat_name(s, seat, program, lang) for s in w], lang)))
    text = winners_text(w, seat, program, lang)
    return f"{text[0].upper()}{text[1:]}."
