"""What a page of the table is sent: one seat's view of a state, as JSON data.

The view holds what the seat may see and nothing more. Zones and counters are
taken from `state.observation(seat)` (engine.observe), so that the browser is
masked exactly as bots and the terminal are: a hidden zone is sent as its count
(and the seat's own pieces there), never as the components it holds; a card's
title and text are sent only for components the seat sees. The decision's
options are sent only to the seat that decides. `seat=None` is the view of
everything, for replays, where a rules lawyer looks at the whole game.

Everything of the content (titles, labels, prompts, texts) travels as JSON
strings and is put into the page as text, never as markup. A view is in one
language (`lang`, the table's): the names of zones, counters and attributes as
the game's vocabulary says them, the prompt and labels through `view.texts`,
the cards as prose in that language.
"""
from __future__ import annotations

from ...engine import keys
from ...engine import machine as vm
from ...engine.observe import counter_holder, may_see
from ...engine.values import Comp, NodeRef, Seat, Team
from ...language.prose.cards import Prose
from ...scopes import OwnerKind
from ...view.narrate import class_said, counter_name, counter_noun, lone_member, natural, noun, seat_name, whose, words
from ...view.narrate_words import bot_said, words_in
from ...view.texts import texts_of

GAME = {"game": None}


class CardTexts:
    """The printed attributes and the ability text of each card, written once per game: as prose
    when the game's abilities can be rendered, else the abilities as printed."""

    def __init__(self, program, lang: str = "en"):
        self.program = program
        self.lang = lang
        self._prose = None
        self._done: dict = {}

    def of(self, card) -> dict:
        got = self._done.get(card.id)
        if got is None:
            attrs = {k: self._said(plain_value(v)) for k, v in card.attrs.items() if not str(k).startswith("_")}
            names = {k: noun(self.program, str(k), "attribute", self.lang) for k in attrs}  # as the reader says them
            got = self._done[card.id] = {"title": card.title, "attributes": attrs, "names": names,
                                         "text": self._text(card)}
        return got

    def _said(self, value):
        """A printed value in the table's language: a text by its `value:` words when the
        vocabulary gives them (the colour 'red' is « rouge »), as the card's prose says it."""
        if isinstance(value, list):
            return [self._said(v) for v in value]
        if not isinstance(value, str):
            return value
        word = words(self.program, self.lang).value_words(value)  # the game's vocabulary, made once per language
        return word if isinstance(word, str) else value

    def _text(self, card) -> list:
        try:
            if self._prose is None:
                self._prose = Prose(self.program.defn, self.program.found, self.lang)
            return [str(line) for line in self._prose.face_texts(card)]
        except Exception:  # noqa: BLE001 - a card the renderer cannot write is shown as printed
            return [str(getattr(a, "text", a)) for a in card.abilities]


def plain_value(v):
    """A value of content as JSON takes it: numbers, texts, lists of them; anything else as text."""
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [plain_value(x) for x in v]
    return str(v)


def option_targets(entry) -> list:
    """What an option names that the page can show as clickable: 'c:ID' for a component,
    'n:ID' for a node, 's:SEAT' for a player."""
    out = []

    def add(x):
        t = type(x)
        if t is Comp:
            out.append(f"c:{int(x)}")
        elif t is NodeRef:
            out.append(f"n:{x}")
        elif t is Seat:
            out.append(f"s:{int(x)}")
        elif isinstance(x, (list, tuple)):
            for y in x:
                add(y)
    for x in entry:
        add(x)
    return out


class TableView:
    """The view of state `st` for seat `seat` (from 0; None: everything), built by `data()`."""

    def __init__(self, st, layout, texts: CardTexts, seat: int | None, show_all: bool = False, lang: str = "en"):
        self.st = st
        self.program = st.program
        self.lang = lang  # the names of zones and counters, the prompt and the labels in this language
        self.told = texts_of(st.program, lang)
        plural = words_in(lang).plural
        # whether a count's noun is said in the plural; those at 0 are named together in a line
        # of noughts, as kinds ('à 0 : étoiles, jetons'), where French too says them in the plural
        self.plural = lambda n: n == 0 or plural(n)
        self.layout = layout
        self.texts = texts
        self.seat = seat
        self.show_all = show_all
        self.obs = st.observation(seat) if seat is not None else None
        self.cards: dict = {}
        self._by_owner: dict | None = None
        self.over: dict = {}
        for (c, name), v in st.over.items():
            self.over.setdefault(int(c), {})[name] = plain_value(v)

    # what the seat sees ------------------------------------------------------------------
    def zone_seen(self, key: str):
        """(components, count, yours): the components of zone `key` when the seat sees them
        (else None), how many lie there, and the seat's own pieces in it when hidden."""
        comps = self.st.zones.get(key, [])
        if self.obs is None:
            return list(comps), len(comps), []
        z = self.obs["zones"].get(key)
        if z is None:  # a zone no component entered yet
            zdef = self.program.zone_def(key)
            shown = may_see(self.st, zdef.visibility, self.program.zone_holder(key), self.seat)
            return ([] if shown else None), 0, []
        if isinstance(z, list):
            return [self.program.comps[x["id"]] for x in z], len(z), []
        return None, z["count"], [self.program.comps[x["id"]] for x in z.get("yours", [])]

    def counter_seen(self, key: str) -> bool:
        if keys.is_supply(key):
            return True
        cdef = self.program.defn.counters.get(keys.name_of(key))
        if cdef is None or (cdef.internal and not self.show_all):
            return False
        return self.seat is None or may_see(self.st, cdef.visibility, counter_holder(cdef, key), self.seat)

    # the parts of the view ----------------------------------------------------------------
    def component(self, c) -> dict:
        card = self.program.comp_card[c]
        self.cards.setdefault(card.id, self.texts.of(card))
        out = {"id": int(c), "card": card.id, "title": card.title}
        owner = vm.owner(self.st, c)
        if owner is not None:
            out["owner"] = int(owner)
        if c in self.st.tapped:
            out["tapped"] = True
        tags = self.st.tags.get(c)
        if tags:
            out["tags"] = [str(t) for t in tags]  # as the rules write them
            # in the view's language: the chip's words, and the card panel's ('est une carte ...')
            said = [class_said(self.program, t, self.lang) for t in tags]
            out["tags_said"] = [one for one, _ in said]
            out["tags_a"] = [a for _, a in said]
        if int(c) in self.over:
            out["set"] = self.over[int(c)]
        held = self.zones_of({"component": int(c)}, "holder")
        if held:
            out["zones"] = held
        counters = self.counters_of(str(int(c)), "component")
        if counters:
            out["counters"] = counters
        return out

    def zone(self, key: str) -> dict:
        comps, count, yours = self.zone_seen(key)
        out = {"key": key, "name": noun(self.program, keys.name_of(key), "zone", self.lang), "count": count}
        if comps is None:
            out["hidden"] = True
            if yours:
                out["yours"] = [self.component(c) for c in yours]
        else:
            out["components"] = [self.component(c) for c in comps]
        return out

    def zones_of(self, owners: dict, area: str) -> list:
        """The zones shown in `area` of the owners in `owners` ({scope: owner}, 'component'
        standing for every kind of component; {'game': None} for the game's own)."""
        out = []
        for name, zdef in self.program.defn.zones.items():
            if self.layout.area.get(name) != area:
                continue
            kind = zdef.scope.kind
            if kind not in owners:
                continue
            key = keys.key(name, owners[kind])
            if kind is OwnerKind.COMPONENT and key not in self.st.zones:
                continue  # a component shows only the zones it holds something in, or held
            out.append((self.layout.zone_sort_key(name), key))
        return [self.zone(key) for _, key in sorted(out)]

    def _counters_by_owner(self) -> dict:
        """The counters the seat sees, grouped once by the owner they are shown on: {owner:
        [(key, value, cdef, owners)]}, the single owner or, for a counter kept per pair, its
        node (a view asks for the counters of every component and node: one pass, not one each)."""
        if self._by_owner is None:
            by = self._by_owner = {}
            for key, value in self.st.counters.items():
                if keys.is_supply(key):
                    continue
                cdef = self.program.defn.counters.get(keys.name_of(key))
                if cdef is None or not self.counter_seen(key):
                    continue
                owners = keys.owners_of(key)
                at = owners[0] if len(owners) == 1 else self._on_node(cdef, owners)
                if at is not None:
                    by.setdefault(at, []).append((key, value, cdef, owners))
        return self._by_owner

    def counters_of(self, owner: str, kind: str) -> list:
        """The counters kept on one node (`kind` 'node') or one component ('component'); a
        counter kept per pair of a node and a player (or team) is shown on the node, per player.
        A counter at 0 is not shown: it is as if the card or the place held none (as the
        terminal's list of counters says it), and a place holding none of a player's cubes shows
        no cube of that player."""
        out = []
        for key, value, cdef, owners in self._counters_by_owner().get(owner, ()):
            if value == 0:
                continue
            if len(owners) == 1:
                held_by = cdef.scope.kind
                if owners[0] == owner and (held_by is OwnerKind.NODE) == (kind == "node") \
                        and held_by in (OwnerKind.NODE, OwnerKind.COMPONENT):
                    out.append({"name": noun(self.program, cdef.name, "counter", self.lang, many=self.plural(value)),
                                "value": value})
            elif kind == "node" and self._on_node(cdef, owners) == owner:
                entry = {"name": self._whose(cdef, owners, self.plural(value)), "value": value}
                seat = next((int(raw) for word, raw in zip(cdef.scope, owners) if word == "player" and raw.isdigit()),
                            None)
                if seat is not None:  # a player's counter on a node: drawn in the player's colour
                    # named once before the seats' values: the noun of a count ('tokens')
                    entry.update({"seat": seat, "counter": noun(self.program, cdef.name, "counter", self.lang, many=True)})
                out.append(entry)
        return sorted(out, key=lambda x: natural(x["name"]))

    @staticmethod
    def _on_node(cdef, owners: list) -> str | None:
        """The node a counter kept per pair of owners is on, when one of its owners is a node."""
        return next((raw for word, raw in zip(cdef.scope, owners) if word == "node"), None)

    def _whose(self, cdef, owners: list, many: bool = False) -> str:
        """A counter kept per pair of a node and a player (or team), named on the node: 'your
        cubes', "player 2's cubes", "team 1's cubes" (in the singular for one: 'your cube')."""
        for word, raw in zip(cdef.scope, owners, strict=False):
            if word == "player" and raw.isdigit():
                return whose(self.program, cdef.name, "counter", int(raw), self.seat, self.lang, many=many)
            if word == "team" and keys.is_team_owner(raw):
                return whose(self.program, cdef.name, "counter", keys.team_of_owner(raw), self.seat, self.lang,
                             many=many, team=True, players=self.st.n)
        return ", ".join(owners)

    def seat_counters(self, i: int) -> list:
        """The counters of seat `i`, its team's among them (each named once, its own first)."""
        st, program = self.st, self.program
        out = []
        team = program.team_of(st.n)[i]
        # a team of one player is that player: its counters are not marked as a team's
        shared = lone_member(program, st.n, team) is None
        for name, cdef in program.defn.counters.items():
            if not cdef.scope.only(OwnerKind.PLAYER, OwnerKind.TEAM):
                continue
            team_kept = cdef.scope.kind is OwnerKind.TEAM
            key = keys.team_key(name, team) if team_kept else keys.seat_key(name, i)
            if not self.counter_seen(key):
                if cdef.internal and not self.show_all:
                    continue
                out.append({"name": noun(program, name, "counter", self.lang, many=True), "hidden": True,
                            **({"team": True} if team_kept and shared else {})})
                continue
            value = st.counters.get(key, cdef.initial)
            entry = {"name": noun(program, name, "counter", self.lang, many=self.plural(value)), "value": value}
            if team_kept and shared:
                entry["team"] = True
            out.append(entry)
        return out

    def game_counters(self) -> list:
        st, program = self.st, self.program
        out = []
        for name, cdef in program.defn.counters.items():
            if not cdef.scope.is_game or (cdef.internal and not self.show_all):
                continue
            if not self.counter_seen(name):
                out.append({"name": noun(program, name, "counter", self.lang, many=True), "hidden": True})
                continue
            value = st.counters.get(name, cdef.initial)
            out.append({"name": noun(program, name, "counter", self.lang, many=self.plural(value)), "value": value})
        for key, value in st.counters.items():
            if keys.is_supply(key):
                supplied = noun(program, keys.supply_of(key), "counter", self.lang, many=True)
                # 'coins left in supply'; the page lists the supplies in a line of their own
                supply = noun(program, keys.supply_of(key), "counter", self.lang, many=self.plural(value))
                out.append({"name": words_in(self.lang).w("supply_left", supplied), "value": value, "supply": supply})
            elif len(keys.owners_of(key)) > 1 and self.counter_seen(key):  # kept per pair of owners
                cdef = self.program.defn.counters.get(keys.name_of(key))
                if cdef is not None and self._on_node(cdef, keys.owners_of(key)) is None:  # (else on its node)
                    out.append({"name": counter_name(self.program, key, self.seat, None, st.n, vocabulary=True,
                                                     lang=self.lang), "value": value})
        return out

    def boards(self) -> list:
        out = []
        for board in self.layout.boards_of(self.st, self.told):  # labels in the view's language: 'emplacement 3'
            nodes = []
            for node in board["nodes"]:
                nid = node["id"]
                entry = dict(node)
                entry["zones"] = self.zones_of({"node": nid}, "board")
                counters = self.counters_of(nid, "node")
                if counters:
                    entry["counters"] = counters
                nodes.append(entry)
            out.append({**board, "nodes": nodes})
        return out

    def decision(self) -> dict | None:
        d = self.st.pending
        if d is None:
            return None
        who = int(d.player)
        out = {"player": who, "name": seat_name(who, None, self.program, self.lang)}
        if self.seat is not None and who != self.seat:
            return out  # another seat decides: what it is offered is not this seat's to see
        out["prompt"] = self.told(d.prompt, self.seat)  # to the seat it names, where the game says it so
        labels = d.labels_for(self.st)
        out["options"] = [{"index": i, "label": self.told(labels[i], self.seat), "targets": option_targets(e)}
                          for i, e in enumerate(d.entries)]
        if d.secret:
            out["secret"] = True
        return out

    def seats(self, who: list) -> list:
        st, program = self.st, self.program
        teams = program.team_of(st.n)
        scores = st.scores()
        score = program.defn.counters.get(program.defn.score) if program.defn.score else None
        shown = st.standings()
        standing = program.defn.counters.get(program.standing) if program.standing else None
        out = []
        for i in range(st.n):
            auto = program.automata.get(i)
            mine = {"player": i}
            if teams.index(teams[i]) == i:  # a team's zones are shown in the area of its first seat
                mine["team"] = Team(teams[i])
            agent = who[i] if i < len(who) else "?"
            out.append({"seat": i, "name": seat_name(i, None, program, self.lang), "team": teams[i] + 1,
                        "who": auto.title if auto is not None else agent,
                        # a bot in the table's words
                        "who_said": auto.title if auto is not None else bot_said(agent, self.lang),
                        "score": scores[i] if self._score_seen(score, i, teams[i]) else None,
                        **({"standing": shown[i] if self._score_seen(standing, i, teams[i]) else None}
                           if standing is not None else {}),
                        "counters": self.seat_counters(i),
                        "zones": self.zones_of(mine, "seat"), "aside": self.zones_of(mine, "aside")})
        return out

    def _score_seen(self, cdef, seat: int, team: int) -> bool:
        """Whether this seat sees seat `seat`'s score (a score kept hidden is not sent)."""
        if cdef is None or self.seat is None:
            return True
        key = keys.team_key(cdef.name, team) if cdef.scope.kind is OwnerKind.TEAM else keys.seat_key(cdef.name, seat)
        return may_see(self.st, cdef.visibility, counter_holder(cdef, key), self.seat)

    def data(self, who: list) -> dict:
        st = self.st
        out = {"lang": self.lang, "you": self.seat, "players": st.n, "title": self.program.defn.title,
               "over": st.pending is None, "seats": self.seats(who),
               "centre": self.zones_of(GAME, "centre"), "aside": self.zones_of(GAME, "aside"),
               "counters": self.game_counters(), "boards": self.boards(), "decision": self.decision()}
        if st.winners is not None:
            out["winners"] = [int(w) for w in st.winners]
        if self.program.standing:  # what the end of the game shows, when it is not the score
            out["standing"] = counter_noun(self.program, self.program.standing, self.lang)
        out["cards"] = self.cards  # last: filled while the rest was built
        return out

