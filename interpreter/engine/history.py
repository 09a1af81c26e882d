"""A saved state played again from its start: refused unless its own history leads to it.

A save records how its game began (the players, the seed, the options, the
powers given) and every choice made since (`history`). The engine is
deterministic, so those choices, made again from the start, reach one state
only. `play_again` makes them, compares the state reached with every field of
the save (zones, counters, attributes, tags, the generator, the frames and
the decision they wait for, the winners, the count of operations...) and
returns it when they agree. At the first difference it raises a SaveError
naming the field, what the save says, and what its history leads to:

    counters["ether#1"]: is 0, but its history (57 choices from seed 3) leads to 4

So a save holds no component in two places or in none, no counter off its
bounds or its supply, no generator, frame or decision of its own making: only
states that play reaches. It is not signed: a save whose history is edited
along with the rest, consistently, is the save of another game, and loads.
The work is that of the game's choices, each bounded as any decision is
(interpreter.limits).
"""
from __future__ import annotations

import json
from pathlib import PurePath

from ..kinds import kind_of
from .savefile import SaveError, field_path, shown
from .state import GameFault

# fields that say which rules and engine a save is of: checked before (saved.StateCheck), not compared
OF_THE_RULES = ("format", "game", "fingerprint", "layers")
_MISSING = object()  # no such field or item


def play_again(game, data: dict):
    """The state that save `data` of `game` (well formed: see saved.check_state) reaches when
    played again from its start with the choices of its history; a SaveError naming the
    field at fault when it cannot be played again, or reaches a state other than the saved one."""
    history = data["history"]
    told = f"{len(history)} choice{'' if len(history) == 1 else 's'} from seed {shown(data['seed'])}"
    st = _start(game, data)
    for i, choice in enumerate(history):
        path = field_path(("history", i))
        if st.is_terminal():
            raise SaveError(f"is {choice}, but played again the game is over after {i} choices: no choice is "
                            f"left to make", path)
        options = len(st.pending.entries)
        if choice >= options:
            raise SaveError(f"is {choice}, but played again the decision there ({shown(st.prompt)}) has "
                            f"{options} option{'' if options == 1 else 's'}", path)
        try:
            st.apply(choice)
        except (GameFault, ValueError) as exc:
            raise SaveError(f"played again, the game fails at this choice: {exc}", path) from None
    played = st.to_json()
    for name, value in played.items():
        if name in OF_THE_RULES:
            continue
        found = _difference(_portable(name, data.get(name, _MISSING)), _portable(name, value), (name,))
        if found is not None:
            where, saved, reached = found
            raise SaveError(_differs(saved, reached, f"its history ({told})"), field_path(where))
    return st


def _start(game, data: dict):
    """The game of save `data` at its start: its players, options and powers checked as a new
    game checks them, each error said of its field."""
    players = data["players"]
    powers = {int(seat): card for seat, card in data["powers"].items()}
    for name, check in (("players", lambda: game.check_players(players)),
                        ("options", lambda: game.options(data["options"])),
                        ("powers", lambda: game.powers_of(powers, players))):
        try:
            check()
        except ValueError as exc:
            raise SaveError(str(exc), name) from None
    try:
        return game.new_state(players, data["seed"], data["options"], powers=powers)
    except ValueError as exc:  # the game's supplies do not fit its players
        raise SaveError(str(exc), "players") from None
    except GameFault as exc:
        raise SaveError(f"played again from its start, the game fails before its first choice: {exc}",
                        "history") from None


def _portable(name: str, value):
    """A field as compared: the place of the pending decision by file name, line and column
    (the folder a game lies in may move: its content, and so its fingerprint, does not)."""
    if name != "pending" or not isinstance(value, dict) or not isinstance(value.get("at"), list):
        return value
    at = value["at"]
    if len(at) == 3 and isinstance(at[0], str):
        return {**value, "at": [PurePath(at[0]).name, at[1], at[2]]}
    return value


def _difference(saved, reached, path):
    """(path, saved value, value reached) where two JSON values first differ, _MISSING for a
    field or item one has and not the other; None when they are the same, kinds included
    (true is not 1, nor 1.0 the whole number 1)."""
    if isinstance(saved, dict) and isinstance(reached, dict):
        for key in list(reached) + [k for k in saved if k not in reached]:
            found = _difference(saved.get(key, _MISSING), reached.get(key, _MISSING), path + (key,))
            if found is not None:
                return found
        return None
    if isinstance(saved, list) and isinstance(reached, list):
        for i in range(max(len(saved), len(reached))):
            found = _difference(saved[i] if i < len(saved) else _MISSING,
                                reached[i] if i < len(reached) else _MISSING, path + (i,))
            if found is not None:
                return found
        return None
    if type(saved) is type(reached) and saved == reached:
        return None
    return path, saved, reached


def _differs(saved, reached, history: str) -> str:
    if saved is _MISSING:
        return f"is missing, but {history} leads to {_said(reached)}"
    if reached is _MISSING:
        return f"is {_said(saved)}, but the state {history} leads to has none"
    return f"is {_said(saved)}, but {history} leads to {_said(reached)}"


def _said(v) -> str:
    """A JSON value as a message quotes it: whole when short, else its kind and its start."""
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else f"{kind_of(v)} {text[:50]}..."
