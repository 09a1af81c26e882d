"""What the start page offers: the games, and for each its expansions, scenarios, solo
mode, options and player counts, read from the content as `regles play` reads it.

A game is loaded once per combination of expansions, scenario and mods, and kept:
the start page asks again each time a box is ticked, and a table is then made
from the game already loaded.
"""
from __future__ import annotations

import threading
from pathlib import Path

from ... import LoadError, load
from ...content.folders import expansion_file, shipped_games
from ...content.layers import available_expansions, read_data, scenarios_in
from ...content.model import in_language
from ...language.prose.vocabulary import Vocabulary
from ...view.narrate_words import bot_said
from .views import plain_value

BOT_CHOICES = ("random", "greedy", "mcts:100", "mcts:400")
GAMES_KEPT = 64  # combinations of a game, its expansions and scenario kept loaded


class Catalogue:
    """The games a server offers (the shipped ones, or the one it was started with, with
    its mods), and the games loaded for each combination asked for."""

    def __init__(self, game: str | None = None, mods=()):
        self.only = game
        self.mods = tuple(str(m) for m in mods)
        self._loaded: dict = {}
        self._lock = threading.Lock()

    def names(self) -> list:
        """The games offered, by id (a game served from a folder is named by its id, so that no
        path of the server's is ever shown)."""
        if self.only is None:
            return shipped_games()
        return [self._load(self.only, (), None, ()).id]

    def _source(self, name: str) -> str | None:
        """What to load for the game named `name` (its id, or the folder the server was given)."""
        if self.only is None:
            return name if name in shipped_games() else None
        return self.only if name in (self.only, self.names()[0]) else None

    def game(self, name: str, expansions=(), scenario: str | None = None, without=(), settings=()):
        """The game `name` with `expansions` and `scenario` laid over it (and the server's mods),
        the cards `without` left out and the values `settings` set (a replay's: (card, attribute,
        value) each). ValueError for a game this server does not offer or an unknown expansion,
        scenario, card or attribute; LoadError when the combination does not check."""
        source = self._source(name) if isinstance(name, str) else None
        if source is None:
            raise ValueError(f"no game '{str(name)[:60]}' here (games: {', '.join(self.names())})")
        return self._load(source, tuple(expansions), scenario or None, tuple(without),
                          tuple(tuple(x) for x in settings))

    def _load(self, source: str, expansions: tuple, scenario, without: tuple, settings: tuple = ()):
        key = (source, expansions, scenario, without, settings)
        with self._lock:  # two pages asking at once load the game once
            got = self._loaded.get(key)
            if got is None:
                if len(self._loaded) >= GAMES_KEPT:  # each combination asked is kept: a bound on them
                    self._loaded.pop(next(k for k in self._loaded if k[1:] != ((), None, (), ())), None)
                got = self._loaded[key] = load(source, expansions, scenario, self.mods, without=without,
                                               settings=settings)
        return got

    def describe(self, name: str, lang: str = "en") -> dict:
        """A game as the start page lists it: title, players, expansions, scenarios (their titles
        in `lang`, else as written), solo modes."""
        game = self.game(name)
        root = Path(game.program.root)
        layers = available_expansions(root)
        expansions, solo = [], []
        for layer in layers.values():
            data = read_data(expansion_file(layer.path)) if layer.path.is_dir() else read_data(layer.path)
            entry = {"id": layer.id, "title": in_language((data or {}).get("title"), lang) or layer.id,
                     "requires": list(layer.requires), "max_players": layer.max_players}
            if layer.solo:
                levels, labels = _solo_levels(game, layer, lang)
                solo.append({**entry, "option": layer.solo, "levels": levels, "level_labels": labels})
            else:
                expansions.append(entry)
        scenarios = []
        for home, folder in [(None, root)] + [(x.id, x.path) for x in layers.values() if x.path.is_dir()]:
            for sid, f in scenarios_in(folder).items():
                data = read_data(f) or {}
                scenarios.append({"id": sid, "title": in_language(data.get("title"), lang) or sid, "expansion": home})
        return {"id": game.id, "name": name, "title": game.title, "min_players": game.min_players,
                "max_players": game.max_players, "expansions": expansions, "scenarios": scenarios,
                "solo": solo, "bots": list(BOT_CHOICES), "bot_labels": [bot_said(b, lang) for b in BOT_CHOICES],
                "options": options_of(game, lang)}


def _solo_levels(game, layer, lang: str = "en") -> tuple:
    """(levels, labels): the values of the option a solo mode sets, from the game with it laid,
    and each as the mode's words say it in `lang` (`value:VALUE`: « facile »)."""
    try:
        laid = game.with_layers(list(game.chosen.expansions) + [layer.id])
    except (ValueError, LoadError):
        return [], []
    o = laid.program.defn.options.get(layer.solo)
    levels = [str(v) for v in o.values] if o is not None and o.values else []
    words = Vocabulary(laid.program.defn, lang)
    return levels, [words.value(v) for v in levels]


def options_of(game, lang: str = "en") -> list:
    """The options of a game as the start page asks them: name, kind, values, default; and as
    people read them in `lang`, by the game's vocabulary (`option:NAME`, `value:VALUE`): the
    option's title and the label of each value."""
    words = Vocabulary(game.program.defn, lang)
    out = []
    for o in game.program.defn.options.values():
        kind = o.type or ("boolean" if isinstance(o.default, bool) else
                          "number" if isinstance(o.default, int) else "text")
        values = [plain_value(v) for v in o.values] if o.values else None
        out.append({"name": o.name, "title": words.noun(o.name, "option").one, "type": kind, "values": values,
                    "labels": [words.value(str(v)) for v in values] if values else None,
                    "default": plain_value(o.default)})
    return out
