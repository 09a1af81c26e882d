"""Telling a game to one seat: its observation in readable form, and the
events of the trace as they happen, never showing what the seat may not see.

Visibility follows `observe.py`: a move is told with the component's title
when the seat sees the zone it leaves or the zone it enters (judged on the
state after the step), otherwise as "a card moved from X to Y"; a counter
the seat may not see is told without its value; the option another player
picked is told when it names nothing hidden from the seat.
"""
from __future__ import annotations

import re
import weakref
from pathlib import Path

from ..diagnostics import lines_of, printable
from ..engine import keys, machine
from ..engine.events import (ACTION, CHOICE, COUNTER, CUT, DECIDE, FAIL, LOG, MOVE, REVEAL, ROLL, SET, SHUFFLE, SIGNAL,
                             START, TAG, TAP, UNTAG, UNTAP, UNUSED, WIN)
from ..engine.observe import counter_holder, may_see
from ..engine.values import Comp, NodeRef, Seat, Team
from ..language.prose.vocabulary import Noun, Vocabulary
from .narrate_words import Said, cap, words_in
from .texts import place_noun, texts_of


def _nice(name: str) -> str:
    return name.replace("_", " ")


_WORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
NARRATED_IN = "en"  # the language the narration is written in unless asked for another (Narrator's `lang`)


def words(program, lang: str = NARRATED_IN):
    """The game's vocabulary in the language of the narration (made once per game and language):
    zones and counters are named as the game names them ('your gold coins', 'the tower at
    north'), so that the names shown are of one language with the rest."""
    got = _WORDS.get(program)
    if got is None:
        got = _WORDS[program] = {}
    if lang not in got:
        got[lang] = Vocabulary(program.defn, lang)
    return got[lang]


def _noun_of(program, name: str, kind: str, vocabulary: bool = False, lang: str = NARRATED_IN) -> Noun:
    """A zone's or counter's noun: its vocabulary's when asked and the game gives one, else
    its name written from its identifier (in French a noun without words is masculine)."""
    if vocabulary and program is not None and getattr(program, "defn", None) is not None:
        if words(program, lang).raw(name, kind) is not None:
            return words(program, lang).noun(name, kind)
    return Noun(_nice(name), _nice(name))


def _noun(program, name: str, kind: str, many: bool = False, vocabulary: bool = False,
          lang: str = NARRATED_IN) -> str:
    """A zone's or counter's name: its vocabulary's noun when asked and the game gives one."""
    noun = _noun_of(program, name, kind, vocabulary, lang)
    return noun.many if many else noun.one


def counter_noun(program, name: str, lang: str = NARRATED_IN, many: bool = True) -> str:
    """A counter's name as the game's vocabulary says it in `lang` ('manches gagnées'), with a capital."""
    noun = _noun(program, name, "counter", many=many, vocabulary=True, lang=lang)
    return noun[:1].upper() + noun[1:]


def noun(program, name: str, kind: str, lang: str = NARRATED_IN, many: bool = False) -> str:
    """A zone's, counter's or attribute's name (`kind`) as the game's vocabulary says it in `lang`,
    else written from its identifier: 'discard pile', 'défausse'."""
    return _noun(program, name, kind, many=many, vocabulary=True, lang=lang)


def whose(program, name: str, kind: str, i: int, seat: int | None, lang: str = NARRATED_IN,
          many: bool = False, team: bool = False, players: int | None = None) -> str:
    """The zone or counter `name` of seat `i` (from 0), said to seat `seat`: 'your cubes',
    "player 2's cubes"; 'vos cubes', 'les cubes du joueur 2'. With `team`, of team `i` (from
    0) of a game of `players`: "team 2's cubes", 'les cubes de votre équipe'."""
    noun = _noun_of(program, name, kind, True, lang)
    if not team:
        return _whose(noun, many, i, seat, program, lang)
    return _whose_team(noun, many, i, seat, program, lang, players)


def lone_member(program, players: int | None, team: int) -> int | None:
    """The seat of team `team` (from 0) when it is the only player of its team in a game of
    `players`: such a team is told as its player ('player 2's gems', not 'team 2's gems'), as a
    game whose teams are of one player at this count is played by players alone."""
    if players is None:
        return None
    members = [s for s, t in enumerate(program.team_of(players)) if t == team]
    return members[0] if len(members) == 1 else None


def _whose_team(noun: Noun, many: bool, t: int, seat: int | None, program, lang: str, players) -> str:
    """'your team's gems', "team 2's gems"; 'les gemmes de votre équipe'; a team of one player
    told as that player ('your gems', "player 2's gems")."""
    alone = lone_member(program, players, t)
    if alone is not None:
        return _whose(noun, many, alone, seat, program, lang)
    mine = seat is not None and players is not None and program.team_of(players)[seat] == t
    return words_in(lang).w("whose_team_you" if mine else "whose_team", bare=noun.many if many else noun.one,
                            the=_the(noun, lang, many), n=t + 1)


def _the(noun: Noun, lang: str, many: bool = False) -> str:
    """The noun with its article where the language writes one ('la boîte', 'les jetons'); a
    noun whose plural is its singular ('niveau de la tour': a level, not a count) is said in
    the singular, unless that one form is itself a plural ('les PV', 'les flèches
    de portée')."""
    w = words_in(lang)
    many = _in_plural(noun, many)
    return w.w("zone_many" if many else "zone_f" if noun.gender == "f" else "zone", noun.many if many else noun.one)


def _a(noun: Noun, lang: str) -> str:
    """The noun with its indefinite article: 'an exhausted unit', 'une carte retournée'."""
    key = "a_f" if noun.gender == "f" else "an" if noun.one[:1].lower() in "aeiouy" else "a"
    return words_in(lang).w(key, noun.one)


def class_said(program, name: str, lang: str = NARRATED_IN) -> tuple:
    """A class a component has, as a reader of `lang` is told it: (the noun the vocabulary gives
    it, the noun with its article: 'a ruined building', « une carte retournée »); as the rules
    write it, twice, when the vocabulary gives it no words."""
    noun = words(program, lang).class_words(name)
    return (noun.one, _a(noun, lang)) if noun is not None else (str(name), str(name))


def _in_plural(noun: Noun, many: bool) -> bool:
    """Whether `noun`, meant as `many`, is said in the plural: a noun with one form for both
    numbers is a rank ('niveau de la tour') unless that form is itself a plural, its first
    word ending as plurals do ('flèches', 'bonus') or an abbreviation of one ('PV')."""
    if not many or noun.many != noun.one:
        return many
    head = noun.many.split()[0] if noun.many.split() else ""
    return head.endswith(("s", "x")) or (len(head) > 1 and head.isupper())


def natural(text: str) -> list:
    """A sort key that puts 'site 2' before 'site 10': numbers compared as numbers."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
            for part in re.split(r"(\d+)", text) if part]


def seat_name(i: int, seat: int | None, program=None, lang: str = NARRATED_IN) -> str:
    """'you', 'player 2', or the title of the automaton that plays seat `i` (from 0)."""
    w = words_in(lang)
    if seat is not None and i == seat:
        return w.w("you")
    auto = program.automata.get(i) if program is not None else None
    return auto.title if auto is not None else w.w("player", i + 1)


def seat_said(i: int, program=None, lang: str = NARRATED_IN, first: bool = False) -> str:
    """A seat named in a sentence, as another's: 'player 2', 'le joueur 2' ('de le joueur 2',
    which French writes 'du joueur 2'), or the title of its automaton; `first`, at the start of
    a sentence ('Le joueur 2 refuse...'; English sentences of the engine start 'player 2')."""
    auto = program.automata.get(i) if program is not None else None
    said = auto.title if auto is not None else words_in(lang).w("of_player", i + 1)
    return cap(said) if first and lang != "en" else said


def _whose(noun: Noun, many: bool, i: int, seat: int | None, program, lang: str) -> str:
    """'your hand', "player 2's hand"; 'votre main', 'vos cubes', 'la main du joueur 2'."""
    w = words_in(lang)
    many = _in_plural(noun, many)  # 'votre niveau de la tour', 'votre score', but 'vos PV'
    bare = noun.many if many else noun.one
    if seat is not None and i == seat:
        return w.w("whose_you_many" if many and w.has("whose_you_many") else "whose_you", bare=bare)
    return w.w("whose", bare=bare, the=_the(noun, lang, many), who=seat_said(i, program, lang))


def _node(program, h, lang: str) -> str:
    """A board node's name ('room 3'); in another language than English, with its kind's words
    in that language and their article where the name is its kind's ('la salle 3', 'la case de
    la tour b1': view.texts.place_noun)."""
    attrs = program.nodes.get(h, {})
    noun = place_noun(attrs, h, words(program, lang), words(program, "en")) if lang != "en" else None
    return _the(noun, lang) if noun is not None else str(attrs.get("name", h))


def joined(names: list, lang: str = NARRATED_IN) -> str:
    """'you', 'you and player 3', 'player 1, player 2 and player 4'."""
    return names[0] if len(names) == 1 else words_in(lang).w("and", ", ".join(names[:-1]), names[-1])


def winners_text(winners, seat: int | None, program=None, lang: str = NARRATED_IN) -> str:
    """'you win', 'player 2 wins', 'you and player 3 win'."""
    names = [seat_name(s, seat, program, lang) for s in winners]
    you = seat is not None and seat in winners
    key = "wins_many" if len(names) > 1 and not you else "wins"
    return words_in(lang).w(key, joined(names, lang), you=you)


def zone_name(program, key: str, seat: int | None, visible=None, players: int | None = None,
              vocabulary: bool = False, lang: str = NARRATED_IN) -> str:
    """'deck', 'your hand', "player 2's table", 'site at North', 'tokens of Farm'; a zone
    of a node whose name starts with the zone's ('site' at 'site 3') is named by its node.
    With `vocabulary`, named as the game's vocabulary names it (see `words`); in French with
    its article ('la pioche', 'votre main', 'la main du joueur 2')."""
    w = words_in(lang)
    noun = _noun_of(program, keys.name_of(key), "zone", vocabulary, lang)
    base = noun.one
    if keys.owner_of(key) is None:
        return _the(noun, lang)
    try:
        h = program.zone_holder(key)
    except (KeyError, ValueError, IndexError):
        return key
    t = type(h)
    if t is Seat:
        return _whose(noun, False, int(h), seat, program, lang)
    if t is Team:
        return _whose_team(noun, False, int(h), seat, program, lang, players)
    if t is NodeRef:
        node = str(program.nodes.get(h, {}).get("name", h))
        named = (base, _nice(keys.name_of(key)))  # 'room 3' holds the zone 'room' ('room card')
        kind = program.nodes.get(h, {}).get("kind")
        if lang != "en" and isinstance(kind, str) and words(program, lang).raw(kind, "node") is not None:
            named += (words(program, lang).noun(kind, "node").one,)  # 'emplacement' of the node 'emplacement 2'
            if base.casefold() == named[-1].casefold():
                return _node(program, h, lang)
        if any(node.casefold().startswith(b.casefold()) for b in named):
            return _node(program, h, lang)
        return w.w("zone_at", bare=base, the=_the(noun, lang), node=_node(program, h, lang))
    c = int(h)
    card = program.comp_card[c].title if visible is None or c in visible else w.w("a_card")
    return w.w("zone_of", bare=base, the=_the(noun, lang), card=card)


def counter_name(program, key: str, seat: int | None, visible=None, players: int | None = None,
                 vocabulary: bool = False, many: bool = True, lang: str = NARRATED_IN, owner_of=None) -> str:
    """'round', "player 2's coins", 'your team's gems', 'gems on Farm', 'your influence at North'.
    With `vocabulary`, named as the game's vocabulary names it ('many': in the plural); in French
    with its article or possessive ('la manche', 'vos cubes de bois', 'les pièces du joueur 2').
    With `owner_of` (component -> its owner's seat, or None), a counter on a component a seat
    owns says whose it is: every seat has a 'Scout', 'tokens on Scout (player 2)'."""
    noun = _noun_of(program, keys.name_of(key), "counter", vocabulary, lang)
    cdef = program.defn.counters.get(keys.name_of(key))
    named, where = None, []
    for word, raw in zip(cdef.scope if cdef is not None else (), keys.owners_of(key) or ()):
        if word == "player" and named is None:
            named = _whose(noun, many, int(raw), seat, program, lang)
        elif word == "team" and named is None:
            named = _whose_team(noun, many, keys.team_of_owner(raw), seat, program, lang, players)
        else:  # a node, a component, or a second owner: where the counter is
            where.append(_counter_place(program, word, raw, visible, lang))
            owner = _owner_said(owner_of, raw, seat, program, lang) if word not in ("node", "player", "team") else None
            if owner is not None:
                where[-1] += f" ({owner})"
    return " ".join([named if named is not None else _the(noun, lang, many)] + where)


def _owner_said(owner_of, raw: str, seat, program, lang: str) -> str | None:
    """Whose the component `raw` (its id, as keys write it) is, as a seat is named ('you',
    'player 2'), or None when `owner_of` is not given or tells no owner."""
    if owner_of is None or not raw.isdigit():
        return None
    owner = owner_of(int(raw))
    return None if owner is None else seat_name(int(owner), seat, program, lang)


def _counter_place(program, word: str, raw: str, visible, lang: str, bare: bool = False) -> str | None:
    """Where a counter held by a board node or a component is, in `lang`: 'à la salle 3',
    'sur Farm' (a card the seat cannot see: 'sur une carte'); with `bare`, the place alone
    ('salle 3', 'Farm'), as a list of the places of one counter names them, or None for an
    owner that is no board node or component."""
    w = words_in(lang)
    if word == "node":
        if bare:
            attrs = program.nodes.get(raw, {})
            noun = place_noun(attrs, raw, words(program, lang), words(program, "en")) if lang != "en" else None
            return noun.one if noun is not None else str(attrs.get("name", raw))
        return w.w("counter_at", _node(program, raw, lang))
    if word == "player":  # a counter kept per pair of seats: the second one
        return None if bare else w.w("counter_of", seat_said(int(raw), program, lang))
    if word == "team":
        return None if bare else w.w("counter_of", w.w("team", keys.team_of_owner(raw) + 1))
    try:
        c = int(raw)
    except ValueError:
        return None if bare else w.w("counter_of", raw)
    if not 0 <= c < len(program.comp_card):
        return None if bare else w.w("counter_of", raw)
    title = program.comp_card[c].title if visible is None or c in visible else w.w("a_card")
    return title if bare else w.w("counter_on", title)


def is_internal(program, key: str) -> bool:
    """Whether a counter is bookkeeping of the rules (declared `internal: true`)."""
    cdef = program.defn.counters.get(keys.name_of(key))
    return cdef is not None and cdef.internal


def visible_ids(obs: dict) -> set:
    out = set()
    for z in obs["zones"].values():
        if isinstance(z, list):
            out.update(x["id"] for x in z)
    return out


def _item(x: dict, zone_owner, seat: int, program, lang: str) -> str:
    """A component as a zone's list shows it: its title, tapped or not, and whose it is when it
    lies outside its owner's own zones (a pawn on a shared board: 'Pion bleu
    (joueur 2)')."""
    w = words_in(lang).w
    title = w("tapped_item", Said(x["title"])) if x.get("tapped") else x["title"]
    owner = x.get("owner")
    if owner is None or (zone_owner is not None and str(zone_owner) == str(owner)):
        return title
    return f"{title} ({seat_name(owner, seat, program, lang)})"


# the most titles one line of moves names (the rest are counted: 'and 40 others')
SHOWN_MOVED = 12


def _listed(items: list) -> str:
    """'Farm, Well ×3, Farm': the items in their order, a run of the same one counted."""
    runs: list = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    # titles with a comma of their own ('Anna, the smith') are set apart by a dot
    sep = " · " if any(", " in str(item) for item, _ in runs) else ", "
    return sep.join(item if k == 1 else f"{item} ×{k}" for item, k in runs)


def _order(program, key: str, name: str, kind: str, lang: str = NARRATED_IN) -> tuple:
    """Zones and counters in the order the game declares them, yours first, then by name
    with numbers in their order ('site 2' before 'site 10')."""
    defs = program.defn.zones if kind == "zone" else program.defn.counters
    d = defs.get(keys.name_of(key))
    yours = name.startswith(_yours_prefixes(lang))
    return (d.index if d is not None else len(defs), not yours, natural(name), key)


def _yours_prefixes(lang: str) -> tuple:
    """How a name of the seat's own begins in `lang` ('your ', 'votre ', 'vos ')."""
    w = words_in(lang)
    return tuple(w.template(k).split("{bare}")[0] for k in ("whose_you", "whose_you_many") if w.has(k))


def render_observation(program, obs: dict, counters_before: dict | None = None, every_counter: bool = True,
                       lang: str = NARRATED_IN) -> list:
    """Lines showing an observation: non-empty zones, then counters grouped by whose they are
    (`counter_lines`), in `lang`. Content in them is escaped: the lines are safe to print."""
    w = words_in(lang).w
    seat = obs["seat"]
    vis = visible_ids(obs)
    players = obs["players"]
    lines = [w("seen", seat + 1, players)]
    named = sorted(((zone_name(program, key, seat, vis, players, vocabulary=True, lang=lang), key) for key in obs["zones"]),
                   key=lambda nk: _order(program, nk[1], nk[0], "zone", lang))
    owners = component_owners(obs)
    for name, key in named:
        z = obs["zones"][key]
        if isinstance(z, list):
            if not z:
                continue
            zone_owner = _zone_owner(program, key, owners)
            items = _listed([_item(x, zone_owner, seat, program, lang) for x in z])
            lines.append(f"  {name}: {items}" if lang == "en" else f"  {cap(name)} : {items}")
        elif z.get("count"):
            n = z["count"]
            yours = ", ".join(x["title"] for x in z.get("yours", []))
            told = w("hidden_cards_many" if n > 1 else "hidden_cards", n)
            told += w("yours_among", Said(yours)) if yours else ""
            lines.append(f"  {name}: {told}" if lang == "en" else f"  {cap(name)} : {told}")
    lines += counter_lines(program, obs, counters_before, every_counter, lang)
    return [printable(line) for line in lines]


def _zone_owner(program, key: str, owners: dict) -> str | None:
    """The seat (as keys write it) whose zone `key` is: a player's own, or that of the player
    who owns the piece holding it (`owners`: component id -> seat). Its holder is read from the
    zone's scope: the '1' of a player's zone is seat 1, not component 1."""
    try:
        h = program.zone_holder(key)
    except (KeyError, ValueError, IndexError):
        return None
    if type(h) is Seat:
        return str(int(h))
    if type(h) is Comp:
        owner = owners.get(str(int(h)))
        return None if owner is None else str(owner)
    return None


def component_owners(obs: dict) -> dict:
    """Whose each component an observation shows is: its id (as keys write it) -> its owner."""
    return {str(x["id"]): x["owner"] for z in obs["zones"].values() if isinstance(z, list)
            for x in z if x.get("owner") is not None}


def counter_lines(program, obs: dict, before: dict | None = None, every: bool = True, lang: str = NARRATED_IN) -> list:
    """The counters of an observation, one line per player (then team, then the game's, then
    what is left in the supplies): 'you: wood cubes 4, army 2'. With `every` false, only those
    whose value is not what `before` holds (key -> value; a counter not in it was 0): a screen
    shows what changed since the last one, not a line of every counter of the game. A counter
    kept on a component or a place is listed in full only when it is not 0 (a change to 0 is
    still told). A counter kept on several places or components is one item, its noun once and
    its places in their order: 'tokens (room 2 = 3, room 8 = 1)'."""
    w, plural = words_in(lang).w, words_in(lang).plural
    seat, players = obs["seat"], obs["players"]
    vis = visible_ids(obs)
    groups: dict = {}
    supplies = []
    places: dict = {}  # (group, counter) -> what it holds on each place: one item for them all
    owners = component_owners(obs)
    for key, v in obs["counters"].items():
        if not every and (before or {}).get(key, 0) == v:
            continue
        if keys.is_supply(key):
            name = keys.supply_of(key)
            supplies.append((_order(program, name, name, "counter", lang),
                             f"{_noun(program, name, 'counter', plural(v), vocabulary=True, lang=lang)} {v}"))
            continue
        group, noun, where, place, unseen = _counter_group(program, key, seat, vis, players, lang, owners)
        if where and v == 0 and (every or unseen):
            # a counter kept on a card or a place, at nought, is as if it were not there: the full
            # list names what holds some ('tokens on North = 1'), not every card it was once on;
            # nor does a list of changes say one fell to 0 on 'a card' the seat cannot see
            continue
        name = noun.many if plural(v) and noun.many else noun.one
        item = f"{name} {' '.join(where)} = {v}" if where else f"{name} {v}"
        # a counter kept per place in the order of its places, numbers as numbers ('salle 8'
        # before 'salle 12'), whether its noun is said in the singular or the plural
        order = _order(program, key, name, "counter", lang)
        if where:
            order = order[:2] + (natural(place if place is not None else " ".join(where)),) + order[2:]
        if place is not None:
            places.setdefault((group, keys.name_of(key)), []).append((order, item, noun, f"{place} = {v}"))
        else:
            groups.setdefault(group, []).append((order, item))
    for (group, _), held in places.items():
        held.sort(key=lambda h: h[0])
        order, item, noun, _ = held[0]
        if len(held) > 1:  # its places listed under its noun once: 'tokens (room 2 = 3, room 8 = 1)'
            item = f"{noun.many or noun.one} (" + ", ".join(at for _, _, _, at in held) + ")"
        groups.setdefault(group, []).append((order, item))
    order = [w("group_you"), w("group_team_you")] + [seat_name(s, seat, program, lang) for s in range(players)
                                                     if s != seat]
    game = w("group_game")
    ranked = sorted(groups, key=lambda g: (order.index(g) if g in order else len(order) + (g == game), natural(g)))
    colon = ": " if lang == "en" else " : "
    lines = [f"  {g}{colon}" + ", ".join(text for _, text in sorted(groups[g])) for g in ranked]
    if supplies:
        lines.append(w("left_in_supply", Said(", ".join(text for _, text in sorted(supplies)))))
    return lines


def _counter_group(program, key: str, seat, visible, players, lang: str, owners: dict | None = None) -> tuple:
    """(group, noun, where, place, unseen) of a counter: the group its line is in ('you', 'player 2',
    'your team', 'the game'; 'vous', 'joueur 2'), its noun, where it is kept ('at North'), and
    when that is one board node or one component, the place alone ('North'), by which the
    places of one counter are listed together, and whether it is kept on a component the seat
    does not see. A counter kept on a component a seat owns (`owners`: id -> seat) is in that
    seat's line: each seat's 'Scout' is told apart by whose it is."""
    w = words_in(lang)
    noun = _noun_of(program, keys.name_of(key), "counter", True, lang)
    cdef = program.defn.counters.get(keys.name_of(key))
    group, where, held, unseen = w.w("group_game"), [], [], False
    for word, raw in zip(cdef.scope if cdef is not None else (), keys.owners_of(key) or (), strict=False):
        owner = (owners or {}).get(raw) if word not in ("player", "team", "node") else None
        if owner is not None and group == w.w("group_game"):
            group = seat_name(int(owner), seat, program, lang)
        if word == "player":
            group = seat_name(int(raw), seat, program, lang)
        elif word == "team":
            t = keys.team_of_owner(raw)
            alone = lone_member(program, players, t)
            mine = seat is not None and players is not None and program.team_of(players)[seat] == t
            group = (seat_name(alone, seat, program, lang) if alone is not None
                     else w.w("group_team_you") if mine else w.w("group_team", t + 1))
        else:
            where.append(_counter_place(program, word, raw, visible, lang))
            held.append((word, raw))
            unseen = unseen or (word != "node" and visible is not None and raw.isdigit() and int(raw) not in visible)
    place = _counter_place(program, *held[0], visible, lang, bare=True) if len(held) == 1 else None
    return group, noun, where, place, unseen


class _Secrets:
    """A run of another seat's secret choices, told as one line (`Narrator._gathered`)."""

    __slots__ = ("choices",)

    def __init__(self, choices: list):
        self.choices = choices


class Narrator:
    """Tells the new events of a state's trace to one seat (`seat` None: tell everything).

    The changes of the rules' bookkeeping (counters declared `internal`, and the classes a
    card gains or loses with `tag` and `untag`: a mark such as 'Posed' is how rules remember,
    and a game says what is worth saying with `log`) are told only with `show_all`. What it prints is escaped: content never reaches the terminal raw.

    `lang` is the language it tells in ('en', 'fr': the sentences of `narrate_words`, the names
    of the game's `vocabulary:` in that language). With `group`, a run of moves of one step that
    the seat sees alike (components of one title, or cards it cannot see, from one zone to one
    zone) is told once with its count ('Well ×12 moved from box to supply')."""

    def __init__(self, state, seat: int | None, out, show_all: bool = False, lang: str = NARRATED_IN,
                 group: bool = False):
        self.state = state
        self.seat = seat
        self.out = out
        self.show_all = show_all
        self.lang = lang
        self.words = words_in(lang)
        self.group = group
        self.done = 0
        # component -> the zone it lay in at the event being told, for those that moved after it
        # within the events told at once: a card put away in a hidden box later in the step is
        # still named where the seat saw it then (the counters on it, the zones it holds)
        self.then: dict = {}
        self.pending_choice = None  # (player, visible?) of the decision about to be answered
        self.lines = source_lines(state.program)  # a rule's line, from the game's own files
        # what content wrote, in the language told, and to the seat told where a text names it
        texts = texts_of(state.program, lang)
        self.said = texts.to(seat)
        # a text addressed to another seat deciding, as this one is told it ('end their turn')
        self.of_another = lambda text: texts.of_another(text, seat)

    def say(self, text: str) -> None:
        print(printable(text), file=self.out, flush=True)

    # visibility ------------------------------------------------------------------
    def sees_zone(self, key) -> bool:
        if key is None or self.seat is None:
            return self.seat is None
        st = self.state
        program = st.program
        try:
            return may_see(st, program.zone_def(key).visibility, program.zone_holder(key), self.seat)
        except (KeyError, ValueError, IndexError):
            return False

    def sees_comp(self, c: int) -> bool:
        """Whether the seat sees component `c`: where it lies now, or where it lay at the event
        being told (within the events told at once, what the seat saw then or sees at their
        end it may be told of)."""
        if self.seat is None:
            return True
        z = self.state.where[c] if 0 <= c < len(self.state.where) else None
        if z is not None and self.sees_zone(z):
            return True
        then = self.then.get(c, z)
        return then is not None and then != z and self.sees_zone(then)

    def sees_counter(self, key: str) -> bool:
        if self.seat is None:
            return True
        program = self.state.program
        name = keys.name_of(key)
        cdef = program.defn.counters.get(name)
        if cdef is None:
            return False
        return may_see(self.state, cdef.visibility, counter_holder(cdef, key), self.seat)

    def hidden_titles(self) -> set:
        """Titles of components in zones the seat cannot see, less those it can see somewhere."""
        st = self.state
        program = st.program
        hidden, shown = set(), set()
        for key, comps in st.zones.items():
            (shown if self.sees_zone(key) else hidden).update(program.comp_card[c].title for c in comps)
        return hidden - shown

    def before(self, state) -> None:
        """Note, before a decision is answered, what each of its options names and whether the seat sees it.

        The option another player picks is told when each component it names is seen by the seat
        before or after the step (a card played from a hand to the table is told; one buried face
        down is not).
        """
        d = state.pending
        if d is None or self.seat is None:
            self.pending_choice = None
            return
        options = []
        for entry in d.entries:
            comps = [int(x) for x in entry if type(x) is Comp]
            for x in entry:
                if isinstance(x, (list, tuple)):
                    comps += [int(y) for y in x if type(y) is Comp]
            options.append((comps, all(self.sees_comp(c) for c in comps)))
        self.pending_choice = (int(d.player), options)

    def _option_shown(self, who: int, ev: dict) -> bool:
        if not ev.get("auto") and self.pending_choice and self.pending_choice[0] == who:
            options = self.pending_choice[1]
            k = ev["option"]
            if not 0 <= k < len(options):
                return False
            comps, seen_before = options[k]
            return seen_before or all(self.sees_comp(c) for c in comps)
        # an automatic choice, not seen coming: tell it unless its label names a hidden title
        hidden = self.hidden_titles()
        return not any(h in ev["label"] for h in hidden)

    def zone(self, key) -> str:
        return zone_name(self.state.program, key, self.seat, _Sees(self), self.state.n, vocabulary=True, lang=self.lang)

    def w(self, key: str, *args, you: bool = False, **named) -> str:
        return self.words.w(key, *args, you=you, **named)

    def who(self, i: int) -> str:
        return seat_name(i, self.seat, self.state.program, self.lang)

    def owner_of(self, c: int):
        """The seat that owns component `c` (a seat's own piece, or what it controls), or None."""
        if not 0 <= c < len(self.state.program.comp_card):
            return None
        return machine.owner(self.state, Comp(c))

    def plural_title(self, c: int) -> bool:
        """Whether the title of component `c` is told with a verb in the plural: its card says so
        (`plural_title`), or the language reads it so (a French title beginning with « Les »)."""
        card = self.state.program.comp_card[c]
        return self.words.plural_name(card.title, card.plural_title)

    def title(self, c: int) -> str:
        return self.state.program.comp_card[c].title if self.sees_comp(c) else self.w("a_card")

    # telling -------------------------------------------------------------------------
    def flush(self, whole: bool = False) -> None:
        """Tell the events since the last flush; `whole`: every one, holding none back (the game
        stopped, and no decision will go on with a run of secret choices)."""
        trace = self.state.trace or []
        end = self._held(trace) if self.group and not whole else len(trace)
        events = trace[self.done:end]
        self.then = {}
        for ev in reversed(events):  # where each component that moved since lay before
            if ev.get("type") == MOVE and isinstance(ev.get("id"), int):
                self.then[ev["id"]] = ev.get("from")
        try:
            for text in (self.tell_many(events) if self.group else map(self._told, events)):
                if text:
                    self.say(text)
        finally:
            self.then = {}
        self.done = end
        self.pending_choice = None

    def _held(self, trace) -> int:
        """Where the events this flush tells end: before a run of another seat's secret choices
        (with the moves they make) that its next decision, a secret choice again, goes on with;
        the run is told whole once it ends ('Player 2 chose secretly 4 times')."""
        d = self.state.pending
        if d is None or not d.secret or self.seat is None or int(d.player) == self.seat:
            return len(trace)
        player = int(d.player) + 1
        start = len(trace)
        while start > self.done and self._in_run(trace[start - 1], player):
            start -= 1
        while start < len(trace) and not self._secret_of(trace[start], player):
            start += 1  # moves and the rest before the first choice of the run are told now
        return start

    def _in_run(self, ev: dict, player: int) -> bool:
        """Whether `ev` belongs to a run of `player`'s secret choices: one of them, a move (which
        they make), or an event told to no one."""
        return ev.get("type") == MOVE or self._secret_of(ev, player) or self.tell(ev) is None

    def _secret_of(self, ev: dict, player: int | None = None) -> bool:
        """Whether `ev` is a choice another seat made in secret (of `player`, counted from 1)."""
        return (ev.get("type") == CHOICE and bool(ev.get("secret")) and self.seat is not None
                and int(ev["player"]) - 1 != self.seat and (player is None or int(ev["player"]) == player))

    def _gathered(self, events) -> list:
        """`events`, each run of another seat's secret choices (two or more, with the moves they
        make and the events told to no one between them) told as one line before the rest of the
        run: a `_Secrets`, then its moves, which `tell_many` tells as runs of their own."""
        out, i = [], 0
        while i < len(events):
            ev = events[i]
            if not self._secret_of(ev):
                out.append(ev)
                i += 1
                continue
            player = int(ev["player"])
            j = i
            while j < len(events) and self._in_run(events[j], player):
                j += 1
            choices = [e for e in events[i:j] if self._secret_of(e, player)]
            if len(choices) < 2:
                out.append(ev)
                i += 1
                continue
            out.append(_Secrets(choices))
            out += [e for e in events[i:j] if not self._secret_of(e, player)]
            i = j
        return out

    def chose_secretly(self, choices: list) -> str:
        """'Player 2 chose secretly 4 times  [asked: 'Action of token 1', ...]'."""
        who = int(choices[0]["player"]) - 1
        prompts = list(dict.fromkeys(self.said(ev.get("prompt") or "") for ev in choices))
        prompts = [p for p in prompts if p]
        text = self.w("chose_secretly_many", cap(self.who(who)), len(choices))
        if len(prompts) == 1:
            return text + self.w("asked", prompts[0])
        if prompts:
            return text + self.w("asked_many", joined([self.w("quoted", Said(p)) for p in prompts], self.lang))
        return text

    def _told(self, ev: dict) -> str | None:
        """The text of event `ev`, then the state as the seat knows it after `ev`."""
        text = self.tell(ev)
        self._after(ev)
        return text

    def _after(self, ev: dict) -> None:
        if ev.get("type") == MOVE and isinstance(ev.get("id"), int) and ev["id"] in self.then:
            self.then[ev["id"]] = ev.get("to")

    def tell_many(self, events) -> list:
        """The texts of events in order, a run of moves from one zone to one zone told once: the
        titles the seat sees, each counted ('Farm and Well ×2 moved ...'), or how many cards it
        does not see."""
        out, run, same = [], [], None

        def close():
            if run:
                out.append(self.tell(run[0]) if len(run) == 1 else self.moved(run[0], run))
                for done in run:
                    self._after(done)
                run.clear()

        for ev in self._gathered(events):
            if type(ev) is _Secrets:
                close()
                out.append(self.chose_secretly(ev.choices))
                continue
            key = self._alike(ev)
            if key is not None:
                if not (run and key == same):
                    close()
                    same = key
                run.append(ev)
            elif not (run and self.tell(ev) is None):  # an event told to no one leaves a run whole
                close()
                out.append(self._told(ev))
        close()
        return out

    def _alike(self, ev: dict):
        """What a move looks like to the seat (whether it sees the card, from, to); None for any
        other event."""
        if ev.get("type") != MOVE:
            return None
        src, dst = ev.get("from"), ev.get("to")
        return (self.sees_zone(src) or self.sees_zone(dst), src, dst)

    def moved(self, ev: dict, run: list | None = None) -> str:
        """'Well moved from box to supply'; of a `run` of moves alike (`ev` the first): 'Well ×12
        moved ...', 'Farm, Mine and Well ×2 moved ...' (each title once, counted), '12 cards moved ...'."""
        src, dst = ev.get("from"), ev.get("to")
        vis = self.sees_zone(src) or self.sees_zone(dst)
        where = (self.w("to", self.zone(dst)) if not src else self.w("within", self.zone(dst)) if src == dst
                 else self.w("from_to", self.zone(src), self.zone(dst)))  # within: to its top or bottom
        count = len(run) if run else 1
        if not vis:
            return self.w("hidden_moved_many" if count > 1 else "hidden_moved", where, count)
        cards = self.state.program.comp_card
        counts: dict = {}  # each title once, where it first comes, with how many moved
        for e in run or (ev,):
            counts[cards[e["id"]].title] = counts.get(cards[e["id"]].title, 0) + 1
        titles = list(counts.items())
        if len(titles) == 1:
            title, k = titles[0]
            if k > 1:
                return self.w("moved_many", title, where, k)
            return self.w("moved_several" if self.plural_title(ev["id"]) else "moved", title, where)
        names = [title if k == 1 else f"{title} ×{k}" for title, k in titles]
        if len(names) > SHOWN_MOVED:  # a whole deck laid out: its first titles, then how many more
            names = names[:SHOWN_MOVED - 1] + [self.w("others", sum(k for _, k in titles[SHOWN_MOVED - 1:]))]
        return self.w("moved_several", joined(names, self.lang), where)

    def tell(self, ev: dict) -> str | None:
        st = self.state
        program = st.program
        seat = self.seat
        w = self.w
        t = ev.get("type")
        if t == START:
            return w("start", Said(program.defn.title), ev["players"], ev["seed"])
        if t == MOVE:
            return self.moved(ev)
        if t == SHUFFLE:
            return w("shuffled", self.zone(ev["zone"]))
        if t in (TAG, UNTAG) and not self.show_all:
            return None  # a class a card gains or loses is the rules' bookkeeping: content logs what is worth saying
        if t in (TAP, UNTAP, TAG, UNTAG, SET):
            c = ev["id"]
            seen = self.sees_comp(c)
            title = self.title(c)
            if t in (TAG, UNTAG):
                # the class as the vocabulary names it ('Farm becomes a ruined building'),
                # else as the rules write it ('Farm becomes Marked')
                kind = class_said(program, ev["tag"], self.lang)[1]
                return w("tagged" if t == TAG else "untagged", title, Said(kind))
            if t == SET:
                if not seen:
                    return None
                attribute = ev["attribute"]
                if self.lang != "en":
                    attribute = _noun(program, attribute, "attribute", vocabulary=True, lang=self.lang)
                return w("set", title, attribute, Said(ev["value"]))
            many = "_many" if seen and self.plural_title(c) else ""
            return w(("tapped" if t == TAP else "untapped") + many, title)
        if t == COUNTER:
            key = ev["counter"]
            if not self.show_all and is_internal(program, key):
                return None
            name = counter_name(program, key, seat, _Sees(self), st.n, vocabulary=True,
                                many=self.words.plural(ev.get("value")), lang=self.lang, owner_of=self.owner_of)
            if self.sees_counter(key):
                ch = ev["change"]
                return w("counter_changed", name, f"{'+' if ch > 0 else ''}{ch}", ev["value"])
            return w("counter_hidden", name)
        if t == CHOICE:
            who = int(ev["player"]) - 1
            label = Said(self.said(ev["label"]))
            you = seat is not None and who == seat
            if not you:
                # another seat's option is quoted, in the words the game gives it for the others
                # ('End their turn'), else as its label speaks to that seat ("End your turn")
                theirs = self.of_another(ev["label"])
                label = Said(w("quoted", Said(theirs) if theirs is not None else label))
            if seat is None or you:
                if ev.get("auto"):
                    return w("only_option", seat_said(who, program, self.lang), label, you=you)
                return w("chose", cap(self.who(who)), label, you=you)
            if ev.get("secret"):
                prompt = self.said(ev.get("prompt") or "")
                return w("chose_secretly", cap(self.who(who))) + (w("asked", prompt) if prompt else "")
            what = label if self._option_shown(who, ev) else w("option_hidden")
            if ev.get("auto"):
                what += w("the_only_option")
            prompt = ev.get("prompt") or ""
            if prompt and not any(h in prompt for h in self.hidden_titles()):
                # the question as that seat was asked it ("Your turn"): said as its question, not as
                # ours, in the words the game gives it for the others ('their turn') where it does
                theirs = self.of_another(prompt)
                what += w("asked", theirs if theirs is not None else self.said(prompt))
            return w("chose", cap(w("player", who + 1)), Said(what))
        if t == DECIDE:
            return self.decided(ev)
        if t == ACTION:
            who = int(ev["player"]) - 1
            return w("uses", self.who(who), self.title(ev["id"]), you=who == seat) + (w("free") if ev.get("free") else "")
        if t == UNUSED:
            who = int(ev["player"]) - 1
            return w("cannot_use", self.who(who), self.title(ev["id"]), you=who == seat)
        if t == ROLL:
            return w("dice", ", ".join(str(d) for d in ev["dice"]))
        if t == REVEAL:
            return w("revealed", Said(self.said(ev.get("label", ev.get("what")))))
        if t == LOG:
            return f"  {self.said(ev['text'])}"
        if t == FAIL:
            return w("failed", Said(self.said(ev["text"])))
        if t == SIGNAL:
            return cap(self.event_said(ev)) if self.show_all else None  # how rules move on: told with all
        if t == CUT:
            n = f"{ev.get('left_out', 0):,}"
            return w("cut", n if self.lang == "en" else n.replace(",", "\u202f"))
        if t == WIN:
            winners = [p - 1 for p in ev.get("players") or []]
            return w("won", winners_text(winners, seat, program, self.lang)) if winners else w("no_winner")
        return f"  {t}"

    def event_said(self, ev: dict) -> str:
        """A signalled event as the game's vocabulary says it ('a round starts'),
        its arguments in it; else its name, with its arguments after it."""
        program = self.state.program
        cards = len(program.comp_card)
        # the trace keeps a component as its number and does not say which arguments are
        # components: a number that is a component's index is said as that component (events
        # pass the cards they are about), any other as a number
        args = [self.title(a) if type(a) is int and 0 <= a < cards else str(self.said(str(a)))
                for a in ev.get("args") or ()]
        phrase = words(program, self.lang).template(ev.get("event", "?"), "event")
        if phrase is not None:
            try:
                return phrase.format(*args)
            except (IndexError, KeyError, ValueError):
                pass  # words that ask for arguments the event was not given: said as its name
        return _nice(str(ev.get("event", "?"))) + (f" ({', '.join(args)})" if args else "")

    def decided(self, ev: dict) -> str | None:
        """A decision the rules made for a seat: what, and the rule that made it, with its line."""
        if "player" not in ev:
            return None
        who = int(ev["player"]) - 1
        name = self.who(who)
        label = ev.get("label")
        if label is None:
            label = self.w("nothing")
        elif who != self.seat and (ev.get("secret") or any(h in label for h in self.hidden_titles())):
            label = self.w("option_hidden")
        rule = ev.get("rule")
        why = (self.w("by_preference") if rule == "prefer" else self.w("by_rule", Said(rule)) if rule
               else self.w("no_rule"))
        line = self.lines.line(ev.get("at"))
        prompt = self.said(ev.get("prompt") or "")  # the question, quoted as the rules ask it
        if prompt:
            said = self.w("decides", name, Said(self.w("quoted", Said(prompt))), Said(self.said(label)),
                          you=who == self.seat)
        else:
            said = self.w("decides_unasked", name, Said(self.said(label)), you=who == self.seat)
        because = self.w("rule_line", Said(why), Said(line)) if line else why
        return said + f"  [{because}" + (f"  ({ev['at']})" if ev.get("at") else "") + "]"


class SourceLines:
    """The text of a content line named by an event's `at` ("path:line"), read from the content
    the game was loaded from (`program.sources`), never from the file system: an `at` comes from
    a trace, which anyone may write, so a path in it names nothing outside the game's own files.

    A path is known as the engine writes it (as the game's files were given) and as a trace
    writes it (relative to the game's folder: `my-game/game.yaml`)."""

    def __init__(self, program):
        self.texts: dict = {}
        root = Path(program.root).resolve() if getattr(program, "root", None) is not None else None
        for path, text in (getattr(program, "sources", None) or {}).items():
            self.texts[path] = text
            if root is not None:
                try:
                    rel = Path(path).resolve().relative_to(root).as_posix()
                except (ValueError, OSError):
                    continue
                self.texts.setdefault(f"{root.name}/{rel}", text)
        self._lines: dict = {}

    def line(self, at) -> str | None:
        """The text of content line `at`, stripped; None when `at` names no line of the game's files."""
        if not isinstance(at, str) or ":" not in at:
            return None
        path, _, line = at.rpartition(":")
        text = self.texts.get(path)
        if text is None or not line.isdigit() or len(line) > 9:
            return None
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = lines_of(text)
        return lines[int(line) - 1].strip() if 0 < int(line) <= len(lines) else None


_SOURCE_LINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def source_lines(program) -> SourceLines:
    """The SourceLines of `program`, made once (every seat's narrator shares them)."""
    got = _SOURCE_LINES.get(program)
    if got is None:
        got = _SOURCE_LINES[program] = SourceLines(program)
    return got


class _Sees:
    """`c in _Sees(narrator)`: whether the narrator's seat sees component c."""

    __slots__ = ("n",)

    def __init__(self, narrator):
        self.n = narrator

    def __contains__(self, c) -> bool:
        return self.n.sees_comp(int(c))
