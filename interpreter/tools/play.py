"""A person plays one seat at the terminal against bots (`regles play`).

The person sees only what their seat may see: the observation of the seat,
the options of their own decisions, and the events of the game told as they
happen by a `narrate.Narrator`, which masks what the seat may not see.
"""
from __future__ import annotations

import sys

from ..engine.state import GameFault
from .agents import HumanAgent, LookaheadFault, Quit, SeatView, agent_seed, make_agent
from .trace import error_record, save_state_trace, source_of
from .narrate import Narrator, seat_name


def play_at_terminal(game, players: int, seed: int, options: dict, bots: list, *, seat: int = 0,
                     human=None, save: str | None = None, source: str | None = None, out=None) -> int:
    """Play a game; returns the exit status (0, or 1 when the rules fault)."""
    out = out or sys.stdout
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
        state = game.new_state(players, seed, options, trace=True)
        narrator = Narrator(state, seat, out)
        others = ", ".join(f"player {s + 1} ({agent_names[s]})" for s in range(players) if s != seat)
        print(f"You are {seat_name(seat, None)}; " + (f"the others: {others}" if others else "you play alone"),
              file=out)
        narrator.flush()
        while not state.is_terminal():
            p = state.current_player
            if p == seat:
                a = human.act(SeatView(state, p))
            else:
                try:
                    a = agents[p].act(SeatView(state, p))
                except LookaheadFault as lf:
                    a = lf.action
            narrator.before(state)
            state.apply(a)
            narrator.flush()
        print(file=out)
        print("Game over. " + _outcome(state, seat), file=out)
        scores = state.scores()
        print("Scores: " + ", ".join(f"{seat_name(s, seat)} {scores[s]}" for s in range(players)), file=out)
    except Quit:
        print("Game left unfinished.", file=out)
    except GameFault as exc:
        if narrator is not None:
            narrator.flush()
        print(f"regles play: the game cannot go on: {exc}", file=sys.stderr)
        status, error = 1, exc
    if save and state is not None:
        try:
            path = save_state_trace(save, game, state, agents=agent_names, source=source_of(game, source),
                                    error=error_record(error) if error is not None else None)
            print(f"Trace saved to {path}", file=out)
        except OSError as exc:
            print(f"regles play: error: cannot write {save}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
    return status


def _outcome(state, seat: int) -> str:
    w = state.winners
    if not w:
        return "No winner."
    names = [seat_name(s, seat) for s in w]
    verb = "wins" if len(names) == 1 and names[0] != "you" else "win"
    text = ", ".join(names)
    return f"{text[0].upper()}{text[1:]} {verb}."
