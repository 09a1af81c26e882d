"""Stage 4, check: every name resolves, arities and types agree.

The checker walks the parsed trees of a pack with the game's declarations in
hand and reports, all at once: unknown names (with a "did you mean"), wrong
numbers of arguments, values of the wrong type, keywords that match no
pattern or are defined in terms of themselves, `break` outside a loop, and
statements that can never run. This module checks the declarations, keywords,
cards, scenarios and rules tests; `check_statements` and `check_expressions`
the trees inside them; `prose.checks` the vocabulary and the printed texts of
keywords. It returns what it found (`Findings`): the keyword each printed
ability uses and the type of each expression, which the compiler uses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..content.layers import hook_fault, replace_fault
from ..content.model import SCOPE_WORDS, AbilityDef, GameDef
from ..content.rules_index import index_files
from ..diagnostics import Position, Report, lines_of
from ..engine.options import OptionSpec
from ..limits import MAX_COMPONENTS
from ..names import did_you_mean, fold
from ..scopes import OwnerKind
from . import nodes as N
from .builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from .keywords import KeywordMatcher, KeywordUse, Mismatch, classes_hint
from .check_expressions import ExpressionChecks, Scope
from .check_print import check_print_hints
from .check_reuse import ability_checks
from .check_table import check_table_hints
from .check_flow import FlowChecks
from .check_start import CardsNamed, warn_never_placed, warn_no_way_to_win
from .check_statements import StatementChecks
from .prose.checks import check_prose
from .prose.face_checks import check_faces
from .prose.vocabulary import check_name_words, check_text_words
from .types import ANY, BOOL, CLASS, EFFECT, LIST, NUMBER, PLAYER, STRING, word
from .visitor import NodeVisitor

_CARD_KEYS = ("id", "title", "copies", "abilities", "text", "tags", "authored", "rules", "note")
_PARAM_TYPES = {"number": NUMBER, "class": CLASS, "name": STRING, "effect": EFFECT, "condition": BOOL}


@dataclass
class Findings:
    """What the checker found, handed to the compiler: the keyword each printed ability uses,
    and the type of each expression it checked. A NUMBER or LIST there is a promise about
    every value at run time (see language.types), which the code generator relies on."""
    keyword_uses: dict[AbilityDef, KeywordUse] = field(default_factory=dict)
    types: dict = field(default_factory=dict)  # expression node -> type
    labels: dict = field(default_factory=dict)  # (text, position) -> its parts (language.texts.label_parts)
    function_types: dict = field(default_factory=dict)  # game function -> the type of its value


class Checker(StatementChecks, ExpressionChecks, FlowChecks, NodeVisitor):
    """Checks one pack: its declarations, keywords, cards, scenarios and rules tests, pass by pass
    (`PASSES`). The checks of statements and expressions are its `visit_` methods (language.visitor)."""

    GENERIC = StatementChecks.GENERIC_STATEMENTS

    def __init__(self, defn: GameDef, report: Report):
        self.defn = defn  # while a card's ability is checked, a view noting what it reads (check_reuse)
        self.pack = defn  # the pack itself, read by what is worked out once per check (card ids...)
        self.reads = None  # what the check of an ability reads, while one is noted (check_reuse.Reads)
        self.report = report
        self.wanted = None  # the type an expression being checked must have, when it is a lone name
        self.errors_before = len(report.errors)  # a report may hold the errors of other packs
        self.found = Findings()
        self._card_ids = None
        self._card_names = None
        self._node_attributes: dict = {}  # attribute name -> its type on the board's nodes (node_attribute)
        self.attr_types = {name: (CLASS if a.type == "class" else {"number": NUMBER, "string": STRING, "boolean": BOOL,
                                                                    "list": LIST}.get(a.type, ANY))
                           for name, a in defn.attributes.items()}
        self._class_values_of: dict[int, tuple] = {}
        self.cards_named = CardsNamed()  # the cards the rules name (card(ID), cards(ID)), as they are checked
        self.wins_written = False  # whether a rule of the pack (not a rules test) has a 'win' statement

    def error(self, code: str, pos: Position, message: str, hint: str | None = None) -> None:
        self.report.error(code, pos, message, hint)

    def unknown(self, name: str, declared) -> bool:
        """Whether `name` is not among `declared` (zones, counters, attributes) and is to be said
        so: a name declared as no mapping is not, its declaration is reported already."""
        return name not in declared and name not in self.defn.misdeclared

    def classes_hint(self, name: str) -> str:
        return classes_hint(self.defn, name)

    def word(self, pos: Position, word: str) -> Position:
        """Where `word` is written in the statement at `pos` (its first use on that line, from
        the statement's column on), so that a caret covers the word and not the statement."""
        lines = lines_of(self.report.sources.get(pos.path, ""))
        if not word or not 0 < pos.line <= len(lines):
            return pos
        at = re.search(r"(?<![\w])" + re.escape(word) + r"(?![\w])", lines[pos.line - 1][pos.column - 1:])
        if at is None:
            return pos
        column = pos.column + at.start()
        return Position(pos.path, pos.line, column, column + len(word))

    # entry point -------------------------------------------------------------
    def check(self) -> None:
        """Run every pass of `PASSES`, in order, over the pack."""
        for run in PASSES:
            run(self)

    # the passes (see PASSES) ---------------------------------------------------
    def check_procedures(self) -> None:
        """The parameters and body of every procedure."""
        for proc in self.defn.procedures.values():
            self.check_parameters(proc)
            if proc.tree is not None:
                params = {p: ANY for p in proc.params}
                self.body(proc.tree.body, Scope(self.bound_names(proc.tree.body, params), proc=proc.name), params)

    def check_function_names(self) -> None:
        """No game function has the name of a built-in function."""
        for f in self.defn.functions.values():
            if f.name in FUNCTIONS:
                self.error("N015", f.pos, f"function '{f.name}' has the name of a built-in function", "choose another name")

    def check_invariants(self) -> None:
        """The expressions of the game's invariants."""
        for text, tree in self.defn.invariants:
            if tree is not None:
                self.expr(tree.expr, Scope({}))

    def check_game_procedure(self) -> None:
        """The game has a procedure 'game', the one run to play it."""
        d = self.defn
        if "game" not in d.procedures:
            first = next(iter(d.procedures), None)  # the one written first: most often the one meant
            self.error("N007", d.pos, "the game has no procedure 'game'", "procedures.game is run to play a game" + (
                f": rename '{first}' to 'game', or call it from a procedure 'game'" if first else ""))

    def check_heuristics(self) -> None:
        """The expressions of the game's heuristics, of a player `p`."""
        d = self.defn
        for tree in [d.heuristic_tree] + [t for _, t in d.heuristics]:
            if tree is not None:
                self.expr(tree.expr, Scope({"p": PLAYER}))

    def check_scenarios(self) -> None:
        """Every scenario of the pack."""
        for sc in self.defn.scenarios:
            self.check_scenario(sc)

    def check_tests(self) -> None:
        """Every rules test of the pack (one with cards of its own is checked in the pack holding them)."""
        d = self.defn
        self.cards_named.in_tests = True
        reuse = ability_checks(self)  # (a game's tests are checked again with its expansions laid over it)
        for t in d.tests:
            if t.cards and (t.file, t.pos.line) != d.test_cards_of:
                continue  # a test with cards of its own is checked in the pack that holds them
            if reuse is not None and not t.cards:
                reuse.check_test(t)
            else:
                self.check_test(t)
            self.check_test_players(t)

    def check_start(self) -> None:
        """Cards never placed, and no way to win: only when the pack has no error anywhere (a rule
        in error may be the one that moves them)."""
        d = self.defn
        if self.report.ok:
            warn_never_placed(d, self.cards_named, self.report)
            warn_no_way_to_win(d, self.wins_written, self.report)

    def check_printed(self) -> None:
        """The vocabulary and printed texts (prose.checks), compared only with rules that read; the
        faces (prose.face_checks), written only from rules that read."""
        d = self.defn
        check_prose(d, self.found, self.report, texts=len(self.report.errors) == self.errors_before)
        if self.report.ok:
            check_faces(d, self.found, self.report)

    def check_text_words(self) -> None:
        """The words each language gives the texts the rules show (prose.vocabulary)."""
        check_text_words(self.defn, self.found.labels, self.report)
        check_name_words(self.defn, self.report)

    def check_rules_index(self) -> None:
        """Every file the rules index names is in the game's folder."""
        d = self.defn
        for name, path in index_files(d):
            if path is None:
                self.report.error("F001", d.pos, f"no such file '{name}' in the game's folder, named by rules_index",
                                  "a rules index is a Markdown file of the game's own folder: '- ID text' a rule")

    def start_keywords(self) -> None:
        """Match and check the keyword library (and build the matcher the cards use)."""
        self.keywords = KeywordMatcher(self.defn)
        self.check_keywords()

    def check_board_links(self) -> None:
        """Node ids are unique over all the boards of a pack, and an edge may join nodes of two
        boards (an expansion's board laid beside the game's): each end must be some board's node."""
        d = self.defn
        where: dict = {}  # node id -> the board that declares it
        for board in d.boards:
            for key, attrs in board.nodes.items():
                if key in where and where[key] is not board:
                    self.error("N013", attrs["_pos"], f"node '{key}' is declared by two boards ('{where[key].id}' and "
                                              f"'{board.id}')", "node ids are unique over all the boards of a game")
                where.setdefault(key, board)
        for board in d.boards:
            for (a, b), places in zip(board.edges, board.edge_pos):
                for end, pos in zip((a, b), places):
                    if end not in where:
                        self.error("N014", pos, f"edge names unknown node '{end}'", did_you_mean(end, list(where)))

    def check_node_attributes(self) -> None:
        """A node's attribute may not have the name of a zone, counter or property: `n.NAME`
        would read that instead, and the attribute could never be read."""
        d = self.defn
        for board in d.boards:
            for attrs in board.nodes.values():
                for name in attrs:
                    if name in ("id", "kind", "tags", "_pos"):
                        continue
                    what = ("a zone" if name in d.zones else "a counter" if name in d.counters
                            else "a property" if name in PROPERTIES else None)
                    if what is not None:
                        self.error("N015", getattr(name, "pos", attrs["_pos"]),
                                   f"node attribute '{name}' has the name of {what}: n.{name} reads the {what[2:]}",
                                   "give the attribute another name")

    def check_seat_report(self) -> None:
        """`report_seats_by`: its label reads (of the seat `p`), and it names counters of the players."""
        d = self.defn
        if d.seat_report_tree is not None:
            self.expr(d.seat_report_tree.expr, Scope({"p": PLAYER}))
        for name in d.seat_report[3] if d.seat_report is not None else []:
            cdef = d.counters.get(name)
            if cdef is None or cdef.scope.kind is not OwnerKind.PLAYER:
                self.error("D001", getattr(name, "pos", d.seat_report[2]), f"report_seats_by: '{name}' is no counter of the players",
                           did_you_mean(name, [c for c, x in d.counters.items() if x.scope.kind is OwnerKind.PLAYER]))

    def check_automata(self) -> None:
        """Each seat driven by content exists, and its `prefer` reads (`option`, `you`)."""
        d = self.defn
        for auto in d.automata.values():
            if not 1 <= auto.seat <= d.max_players:
                self.error("D001", auto.pos, f"automaton '{auto.id}' drives seat {auto.seat}, but the game has "
                                     f"{d.min_players} to {d.max_players} players", "seats are numbered from 1")
            if auto.tree is not None:
                self.expr(auto.tree.expr, Scope({"option": ANY, "you": PLAYER}))

    def body(self, body, scope: Scope, given) -> None:
        """Check statements `body`, `given` the names with a value on entry."""
        self.block(body, scope)
        walk = self.flow(scope.names, given)
        walk.block(body, walk.given)

    # declarations ------------------------------------------------------------
    def check_declarations(self) -> None:
        """The game's declarations: zones, counters, classes, attributes, events, powers, the
        table and print hints."""
        d = self.defn
        spaces = {}
        for kind, table in (("zone", d.zones), ("counter", d.counters), ("attribute", d.attributes),
                            ("procedure", {})):
            for name, decl in table.items():
                key = fold(name)
                if key in spaces:
                    other_kind, _ = spaces[key]
                    self.error("N013", decl.pos, f"'{name}' is both {_a(other_kind)} and {_a(kind)}",
                               "give each zone, counter and attribute its own name")
                else:
                    spaces[key] = (kind, decl)
                if key in SPECIAL_NAMES or key in PROPERTIES:
                    self.error("N015", decl.pos, f"'{name}' is a reserved name", "choose another name")
        scope_words = set(SCOPE_WORDS) | set(d.components)
        for table in (d.zones, d.counters):
            for decl in table.values():
                for s in decl.scope:
                    if s not in scope_words:
                        self.error("D004", decl.pos, f"unknown scope '{s}' for '{decl.name}'",
                                   did_you_mean(s, scope_words) or "scopes: " + ", ".join(sorted(scope_words)))
        for z in d.zones.values():  # what a zone's members are called in prose: a kind or a class
            if z.holds is not None and z.holds not in d.components and fold(z.holds) not in d.classes:
                kinds = [*d.components, *(printed for _, printed in d.classes.values())]
                self.error("N016", getattr(z.holds, "pos", z.pos),
                           f"zone '{z.name}' holds unknown component kind or class '{z.holds}'",
                           did_you_mean(z.holds, kinds) or "component kinds: " + ", ".join(d.components))
        for c in d.counters.values():
            if isinstance(c.supply, str) and self.unknown(c.supply, d.counters):
                self.error("N002", c.pos, f"counter '{c.name}' shares the supply of unknown counter '{c.supply}'",
                           did_you_mean(c.supply, d.counters))
            for z in c.keep_in:
                if self.unknown(z, d.zones):
                    self.error("N001", c.pos, f"counter '{c.name}' is kept in unknown zone '{z}'", did_you_mean(z, d.zones))
        self.check_counter_starts()
        for kind, attrs in d.components.items():
            for a in attrs:
                if self.unknown(a, d.attributes):
                    self.error("N003", d.attribute_name_pos.get((kind, a), d.pos),
                               f"component '{kind}' names unknown attribute '{a}'", did_you_mean(a, d.attributes))
        for z in d.tags_kept_in or []:
            if self.unknown(z, d.zones):
                self.error("N001", d.pos, f"tags_kept_in names unknown zone '{z}'", did_you_mean(z, d.zones))
        if d.powers is not None:
            self.check_powers(d.powers)
        for a in d.report_by:
            if self.unknown(a, d.attributes):
                self.error("N003", d.pos, f"report_by names unknown attribute '{a}'", did_you_mean(a, d.attributes))
        check_table_hints(d, self.error)
        check_print_hints(d, self.error, self.report.warning)
        if d.discard is not None and self.unknown(d.discard, d.zones):
            self.error("N001", d.pos, f"unknown zone '{d.discard}' for the discard", did_you_mean(d.discard, d.zones))
        if d.score is not None and self.unknown(d.score, d.counters):
            self.error("N002", d.score.pos, f"unknown counter '{d.score}' for the score", did_you_mean(d.score, d.counters))
        if d.standing is not None and self.unknown(d.standing, d.counters):
            self.error("N002", d.standing.pos, f"unknown counter '{d.standing}' for the standing",
                       did_you_mean(d.standing, d.counters))
        elif d.standing is not None and not d.counters[d.standing].scope.only(OwnerKind.PLAYER, OwnerKind.TEAM):
            self.error("D004", d.standing.pos, f"the standing '{d.standing}' is not kept per player or per team",
                       "name a counter declared with 'scope: player' or 'scope: team'")
        for o in d.options.values():
            if o.values is not None and o.default not in o.values:
                self.error("D003", o.pos, f"option '{o.name}' defaults to {o.default!r}, which is not one of its values")
            kind = OptionSpec.of(o).kind
            if kind in _OPTION_TYPES:
                fits, what = _OPTION_TYPES[kind]
                for value in [o.default, *(o.values or [])]:
                    if not fits(value):
                        self.error("D003", getattr(value, "pos", o.pos), f"option '{o.name}' is {what}, not {_show(value)}")
        if d.min_players > d.max_players:
            self.error("D001", d.players_pos or d.pos,
                       f"players.min ({d.min_players}) is more than players.max ({d.max_players})")
        for count, teams in d.teams.items():
            seats = [s for t in teams for s in t]
            if sorted(seats) != list(range(count)):
                self.error("D001", d.pos, f"the teams for {count} players must name each seat 1..{count} once")
        for name, args in d.events.items():
            for a in args:
                if fold(a) in SPECIAL_NAMES:
                    self.error("N015", d.pos, f"event '{name}' has an argument named '{a}', a reserved name")

    def check_counter_starts(self) -> None:
        """A counter starts within its bounds, and its supply holds what every owner starts with,
        at each number of players."""
        d = self.defn
        for c in d.counters.values():
            low, high = c.minimum, c.maximum
            if low is not None and high is not None and low > high:
                self.error("D002", c.pos, f"counter '{c.name}' has a min ({low}) above its max ({high})")
            elif low is not None and c.initial < low or high is not None and c.initial > high:
                bounds = f"{'no min' if low is None else f'min {low}'}, {'no max' if high is None else f'max {high}'}"
                self.error("D002", c.pos, f"counter '{c.name}' starts at {c.initial}, outside its bounds ({bounds})",
                           "give it an 'initial' value between its 'min' and its 'max'")
        for n in range(max(1, d.min_players), d.max_players + 1):
            left = {c.name: c.supply for c in d.counters.values() if _whole(c.supply)}
            for c in d.counters.values():
                if c.supply is None or not c.initial or not c.scope.only(OwnerKind.GAME, OwnerKind.PLAYER, OwnerKind.TEAM):
                    continue
                owners = {OwnerKind.GAME: 1, OwnerKind.PLAYER: n, OwnerKind.TEAM: len(d.teams.get(n) or range(n))}[c.scope.kind]
                root = c.supply if isinstance(c.supply, str) else c.name
                left[root] = left.get(root, 0) - c.initial * owners
                if left[root] < 0:
                    self.error("D002", c.pos, f"counter '{c.name}' starts with more than its supply holds at {n} players",
                               f"the supply of '{root}' holds {d.counters[root].supply if root in d.counters else 0}: "
                               "give it more, or the counters drawing on it less to start with")
                    return

    def check_parameters(self, proc) -> None:
        """A parameter is no special name; the acting player, when declared, is a parameter."""
        for p in proc.params:
            if p in SPECIAL_NAMES:
                hint = ("name the parameter, e.g. 'player', and declare 'acting: player': the procedure then "
                        "acts for the player given there") if p == "you" else "choose another name"
                self.error("N015", getattr(p, "pos", proc.pos), f"parameter '{p}' of procedure '{proc.name}' has a reserved name",
                           hint)
        if proc.acting is not None and proc.acting not in proc.params:
            self.error("N010", getattr(proc.acting, "pos", proc.pos),
                       f"procedure '{proc.name}' acts for '{proc.acting}', which is not one of its parameters",
                       did_you_mean(proc.acting, proc.params) or "name one of 'params:'")

    # keywords ----------------------------------------------------------------
    def check_keywords(self) -> None:
        """The keyword library: its definitions, bodies and cycles."""
        d = self.defn
        seen = {}
        for kw in d.keywords:
            key = tuple((k, v) for k, v, _ in kw.words)
            if key in seen:
                self.error("N013", kw.pos, f"keyword '{kw.pattern}' is defined twice (first at line {seen[key].pos.line} "
                                   f"of {seen[key].file})", "remove one definition")
            else:
                seen[key] = kw
            used = {v for k, v, _ in kw.words if k == "param"} | ({kw.effect_param} if kw.effect_param else set())
            for p, t in kw.params.items():
                if p not in used:
                    self.error("K001", kw.params_pos.get(p, kw.pos),
                               f"parameter '{p}' does not appear in the pattern '{kw.pattern}'",
                               "write it in the pattern in capitals, as the card prints the value")
            names = {}
            for p, t in kw.params.items():
                names[p] = _PARAM_TYPES.get(t, ANY)
            for tree in kw.trees:
                if tree is not None:
                    self.ability(tree, names, owner=kw)
        self.check_keyword_cycles()

    def check_keyword_cycles(self) -> None:
        graph: dict[int, list] = {}
        for kw in self.defn.keywords:
            refs = []
            for tree in kw.trees:
                for n in N.walk(tree):
                    if isinstance(n, N.Phrase):
                        target = self.match_phrase(n, quiet=True, params=kw.params)
                        if target is not None:
                            refs.append(target.keyword)
            graph[id(kw)] = refs
        reported = set()
        for start in self.defn.keywords:
            path = _cycle_from(start, graph)
            if path and id(path[0]) not in reported:
                reported.update(id(k) for k in path)
                chain = " -> ".join(k.name for k in path + [path[0]])
                if len(path) == 1:
                    msg = f"keyword '{start.name}' is defined in terms of itself"
                else:
                    msg = f"keyword '{path[0].name}' is defined in terms of itself ({chain})"
                self.error("T006", path[0].pos, msg, "a keyword's ability must not use the keyword itself, directly or not")

    def match_phrase(self, phrase: N.Phrase, quiet=False, params=None):
        """The keyword a printed phrase uses and its bindings (a KeywordUse), or None, reporting
        why unless `quiet`. Inside a keyword's definition, `params` are its own parameters."""
        result = self.keywords.match(phrase, params)
        if isinstance(result, Mismatch):
            if not quiet:
                self.error(result.code, result.pos, result.message, result.hint)
            return None
        if not quiet:
            self.spelling(phrase, result.keyword)
        return result

    def spelling(self, phrase: N.Phrase, kw) -> None:
        """Warn of a word of `phrase` that matches a word of keyword `kw`'s pattern only without its
        accents ('Recolte' for 'Récolte'): the face prints the card's words, so the slip shows
        there. Case is free ('bonus 2' for 'Bonus X'): a card may print a keyword in a sentence."""
        spelled = {fold(w): w for w in kw.pattern.split() if w not in kw.params and w != "-"}
        for w in phrase.words:
            if w.kind is N.WordKind.NAME and isinstance(w.value, str):
                right = spelled.get(fold(w.value))
                if right is not None and right.lower() != w.value.lower():
                    self.report.warning("K003", w.pos, f"'{w.value}' is spelled '{right}' in keyword '{kw.pattern}'",
                                        f"write '{right}', as the keyword's pattern does")

    # cards -------------------------------------------------------------------
    def check_cards(self) -> None:
        """Every card: its keys, attributes and abilities; the zone each file of cards starts in."""
        d = self.defn
        # once per file: a file of cards names their component kind and `start:` zone once, for all of them
        for kind, pos in {(c.file, c.component): (c.component, c.pos) for c in d.cards}.values():
            if kind not in d.components:
                self.error("N016", getattr(kind, "pos", pos), f"unknown component kind '{kind}'",
                           did_you_mean(kind, d.components))
        for start in {(c.file, c.start): c.start for c in d.cards if c.start is not None}.values():
            if self.unknown(start, d.zones):
                self.error("N001", getattr(start, "pos", d.pos), f"unknown zone '{start}'", did_you_mean(start, d.zones))
        seen = {}
        components = 0
        reuse = ability_checks(self)
        attributes, classes, kinds = d.attributes, d.classes, d.components
        for card in d.cards:
            before = components
            components += card.copies * (d.max_players if card.per_player else 1)
            if components > MAX_COMPONENTS >= before:
                self.error("Y009", card.key_pos.get("copies", card.pos),
                           f"too many components: with this card the pack has {components:,} "
                           f"(copies{' for each player' if card.per_player else ''} included), "
                           f"more than {MAX_COMPONENTS:,}",
                           "use fewer copies or fewer cards")
            key = fold(card.id)  # one id, one card, whatever its kind: its abilities' code is named by it
            if key in seen:
                first = seen[key]
                kind = f", a {first.component}" if first.component != card.component else ""
                self.error("N013", card.key_pos.get("id", card.pos),
                           f"duplicate card id '{card.id}' (first at {first.file}:{first.pos.line}{kind})",
                           "give each card its own id; use 'copies' for several identical cards")
            else:
                seen[key] = card
            # a card of a kind the pack does not declare is checked against every attribute (N016 names its kind)
            allowed = kinds.get(card.component, attributes)
            for attr, value in card.attrs.items():
                if attr not in allowed:
                    if attr in d.misdeclared:  # its declaration is reported: not each card's value
                        continue
                    hint = did_you_mean(attr, list(allowed) + list(_CARD_KEYS))
                    self.error("S001", card.key_pos.get(attr, card.pos), f"unknown key '{attr}' for a {card.component}",
                               hint or ("keys: " + ", ".join(list(_CARD_KEYS) + list(allowed))))
                    continue
                declared = attributes.get(attr)  # (none: the component's declaration is reported already)
                if declared is not None:
                    self.check_attr_value(declared, value, card, attr)
            for t in card.tags:
                if fold(t) not in classes:
                    self.error("N004", getattr(t, "pos", None) or card.key_pos.get("tags", card.pos),
                               f"unknown class '{t}' in tags", self.classes_hint(t))
            for ab in card.abilities:
                if ab.tree is not None:
                    if reuse is not None:
                        reuse.check(ab)
                    else:
                        self.card_ability(ab)

    def check_attr_value(self, attr, value, card, key: str) -> None:
        """The value of attribute `attr` that `card` gives under `key`. Its place is looked up only
        for an error: a large pack checks hundreds of thousands of values, nearly all sound."""
        t = attr.type
        if t == "class":
            for v in value if isinstance(value, list) else [value]:
                if not isinstance(v, str) or fold(v) not in self._class_values(attr):
                    hint = did_you_mean(str(v), attr.values)
                    self.error("N019", _value_at(v, value, card, key), f"'{v}' is not a value of '{attr.name}'",
                               hint or "values: " + ", ".join(attr.values))
        elif t == "number":
            if not isinstance(value, int) or isinstance(value, bool):
                self.error("S008", _value_at(value, value, card, key),
                           f"'{attr.name}' must be a whole number, found {_show(value)}")
        elif t == "boolean":
            if not isinstance(value, bool):
                self.error("T003", _value_at(value, value, card, key),
                           f"'{attr.name}' must be true or false, found {_show(value)}")
        elif t == "string" and not isinstance(value, str):
            self.error("T003", _value_at(value, value, card, key),
                       f"'{attr.name}' must be a string, found {_show(value)}")

    def _class_values(self, attr) -> set:
        """The folded values and aliases of a class attribute, gathered once per check (the game's
        attributes and classes do not change while it is checked), not once per card."""
        known = self._class_values_of.get(id(attr))
        if known is None or known[0] is not attr:
            known = (attr, {fold(x) for x in attr.values} | {k for k, (a, _) in self.defn.classes.items()
                                                             if a == attr.name})
            self._class_values_of[id(attr)] = known
        return known[1]

    def card_ability(self, ab: AbilityDef) -> None:
        tree = ab.tree
        if isinstance(tree, N.PhraseAbility):
            for w in tree.phrase.words:
                if w.kind is N.WordKind.NUMBER:
                    self.number_literal(w.value, w.pos)
            found = self.match_phrase(tree.phrase)
            if found is not None:
                use = self.found.keyword_uses[ab] = found
                if use.keyword.effect_param and tree.phrase.body is not None:
                    self.body(tree.phrase.body, Scope(self.bound_names(tree.phrase.body, {}), in_ability=True), ())
                for value in use.bindings.values():
                    if isinstance(value, N.Node):
                        self.expr(value, Scope({}, in_ability=True))
            return
        self.ability(tree, {})

    def ability(self, tree, names: dict, owner=None) -> None:
        if isinstance(tree, N.PhraseAbility):
            use = self.match_phrase(tree.phrase, params=owner.params) if owner is not None else None
            # a keyword written as keywords only is reported at the last of the chain (or as a cycle)
            if use is not None and not all(isinstance(t, N.PhraseAbility) for t in use.keyword.trees):
                # the compiler expands the keywords printed on cards, one level: a keyword
                # written as another would do nothing in play
                self.error("T008", tree.pos, f"keyword '{owner.name}' is written as another keyword; it would do nothing",
                           "write its ability out: 'when EVENT: ...' or 'action \"LABEL\": ...', as the other "
                           "keyword's definition does")
            return
        if isinstance(tree, N.Trigger):
            names = dict(names)
            if tree.event not in self.defn.events:
                self.error("N005", getattr(tree.event, "pos", tree.pos), f"unknown event '{tree.event}'",
                           did_you_mean(tree.event, self.defn.events)
                           or ("events: " + ", ".join(self.defn.events) if self.defn.events else "declare it under events:"))
            else:
                for a in self.defn.events[tree.event]:
                    names.setdefault(a, ANY)
            scope = Scope(self.bound_names(tree.body, names), in_ability=True,
                          sound=self.parameters(owner, tree.body))
            if tree.cond is not None:
                self.expr(tree.cond, scope)
            self.block(tree.body, scope)
            walk = self.flow(scope.names, names)
            walk.read(tree.cond, walk.given, why="a trigger's condition is read before its statements run")
            walk.block(tree.body, walk.given)
            return
        if isinstance(tree, N.Action):
            for w in tree.windows:
                if w not in self.defn.windows:
                    self.error("N006", getattr(w, "pos", tree.pos), f"unknown window '{w}'", did_you_mean(w, self.defn.windows)
                               or ("windows: " + ", ".join(self.defn.windows) if self.defn.windows else "declare it under windows:"))
            if tree.limit is not None and tree.limit not in self.defn.events:
                self.error("N005", tree.pos, f"'once per {tree.limit}': unknown event '{tree.limit}'",
                           did_you_mean(tree.limit, self.defn.events) or "the limit is reset each time this event is signalled")
            scope = Scope(self.bound_names(tree.body, names), in_ability=True,
                          sound=self.parameters(owner, tree.body))
            for cost in tree.costs:
                if cost.kind in (N.CostKind.PAY, N.CostKind.SPEND):
                    self.expr(cost.amount, scope)
                    if self.unknown(cost.name, self.defn.counters):
                        self.error("N002", self.word(cost.pos, cost.name), f"unknown counter '{cost.name}'",
                                   did_you_mean(cost.name, self.defn.counters))
                elif cost.kind is N.CostKind.SACRIFICE:
                    if fold(cost.name) not in self.defn.classes and names.get(cost.name) != CLASS:
                        self.error("N004", self.word(cost.pos, cost.name), f"unknown class '{cost.name}'",
                                   self.classes_hint(cost.name))
            if tree.label:
                self.check_labels(tree.label, tree.pos, scope)
            if tree.cond is not None:
                self.expr(tree.cond, scope)
            self.block(tree.body, scope)
            walk = self.flow(scope.names, names)
            before = "an action's label, costs and condition are read before its statements run"
            walk.text(tree.label, tree.pos, walk.given, before)
            for cost in tree.costs:
                walk.read(cost.amount, walk.given, why=before)
            walk.read(tree.cond, walk.given, why=before)
            walk.block(tree.body, walk.given)

    def check_powers(self, p) -> None:
        """`powers:`: a zone of each player, a component kind, a class and an attribute the game has."""
        d = self.defn
        z = d.zones.get(p.zone)
        if z is None:
            self.error("N001", p.pos, f"powers: unknown zone '{p.zone}'", did_you_mean(p.zone, d.zones))
        elif not z.scope.only(OwnerKind.PLAYER):
            self.error("D004", p.pos, f"powers: zone '{p.zone}' is not a zone of each player (scope: player)")
        if p.component is not None and p.component not in d.components:
            self.error("N016", p.pos, f"powers: unknown component kind '{p.component}'", did_you_mean(p.component, d.components))
        if p.unique is not None and p.unique not in d.attributes:
            self.error("N003", p.pos, f"powers: unknown attribute '{p.unique}'", did_you_mean(p.unique, d.attributes))
        if p.of_class is not None and fold(p.of_class) not in d.classes:
            self.error("N004", p.pos, f"powers: unknown class '{p.of_class}'", self.classes_hint(p.of_class))

    # scenarios and tests -----------------------------------------------------
    def check_scenario(self, sc) -> None:
        """A scenario not chosen: its hooks and replacements are checked as the bodies they would
        be (the one chosen is laid over the game, and checked with it)."""
        d = self.defn
        if sc is not d.scenario:
            for (what, name), tree in sc.trees.items():
                at = getattr(sc.data.get("hooks" if what == "hook" else "replace"), "key_pos", {}).get(name, sc.pos)
                fault = hook_fault(d, name) if what == "hook" else replace_fault(d, name)
                if fault is not None:
                    self.error(fault[0], at, *fault[1:])
                    continue
                target = d.procedures.get(name) or d.functions.get(name)
                if tree is None:
                    continue
                params = {p: ANY for p in target.params}
                if isinstance(tree, N.Condition):
                    self.expr(tree.expr, Scope(params))
                else:
                    self.body(tree.body, Scope(self.bound_names(tree.body, params), proc=name), params)
        self.check_chosen_options(sc.data, sc.pos)
        players, counts = sc.data.get("players"), range(d.min_players, d.max_players + 1)
        more = bool(sc.data.get("requires")) and sc is not d.scenario  # the expansions it requires may take more
        for n in players if isinstance(players, list) else []:
            if _whole(n) and n not in counts and not (more and n > d.max_players):
                self.error("D001", getattr(n, "pos", sc.pos), f"{d.title or d.id} is for {d.min_players} to "
                                                      f"{d.max_players} players, not {n}")

    def check_test(self, t) -> None:
        names = {}
        for part in (t.given, t.when):
            if part is not None:
                names = self.bound_names(part.body, names)
        scope = Scope(names)
        walk = self.flow(names, ())
        bound = walk.given
        for part in (t.given, t.when):
            if part is not None:
                self.block(part.body, scope)
                after = walk.block(part.body, bound)
                # a part that stops early (or a 'when' stopped at the choice 'offered' and its
                # kin check) leaves only what was bound before it surely bound
                stops = any(t.data.get(k) is not None for k in ("offered", "offered_at_least", "not_offered"))
                if after is not None and not (part is t.when and stops):
                    bound = after
        for _, cond in t.then:
            if cond is not None:
                walk.read(cond.expr, bound)
                got = self.expr(cond.expr, scope)
                if got not in (BOOL, ANY):
                    self.error("T002", cond.expr.pos, f"a 'then' must be a condition, true or false, not {word(got)}",
                               "compare it, e.g. 'count(you.hand) == 3'")
        self.check_chosen_options(t.data, t.pos)

    def check_test_players(self, t) -> None:
        """The players of a rules test, within the pack's count (which its expansions may raise:
        checked apart from the test's parts, which are checked once for all the packs alike)."""
        players, d = t.data.get("players"), self.defn
        if _whole(players) and not d.min_players <= players <= d.max_players \
                and not (isinstance(t.data.get("scenario"), str) and players > d.max_players):
            # a test of a scenario is played with what the scenario lays: its player count is checked then
            self.error("D001", players.pos, f"{d.title or d.id} is for {d.min_players} to {d.max_players} players, not {players}")

    def check_chosen_options(self, data, pos) -> None:
        """The options a scenario or a rules test chooses: the game's, each given one of its values."""
        chosen = data.get("options") or {}
        for key, value in chosen.items():
            at = chosen.key_pos.get(key, pos)
            if key not in self.defn.options:
                self.error("N011", at, f"unknown option '{key}'", did_you_mean(key, self.defn.options))
                continue
            try:
                OptionSpec.of(self.defn.options[key]).value(value)
            except ValueError as exc:
                self.error("D003", getattr(value, "pos", at), str(exc))


def _cycle_from(start, graph):
    """The keywords of a cycle through `start`, from it, or None: a walk in depth without recursion
    (a chain of keywords, each defined by the next, may be longer than Python's recursion limit);
    a keyword walked from once is not walked from again."""
    path, walked, stack = [start], {id(start)}, [iter(graph.get(id(start), []))]
    while stack:
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            path.pop()
        elif nxt is start:
            return list(path)
        elif id(nxt) not in walked:
            walked.add(id(nxt))
            path.append(nxt)
            stack.append(iter(graph.get(id(nxt), [])))
    return None


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# the type an option declares: what fits it, and how a message says it
_OPTION_TYPES = {"number": (_whole, "a whole number"), "boolean": (lambda v: isinstance(v, bool), "true or false"),
                 "string": (lambda v: isinstance(v, str), "a string")}


def _show(value) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


# The passes of the checker, run in this order by `Checker.check` (as sqlglot's optimizer runs
# its RULES): each is a method of the Checker, named and documented there. The order is what
# the diagnostics' order is: a pass may rely on what one before it found (the types of game
# functions, the keyword matcher, the cards the rules name, whether the pack is in error).
PASSES = (
    Checker.check_declarations,
    Checker.type_functions,
    Checker.start_keywords,
    Checker.check_procedures,
    Checker.check_function_names,
    Checker.check_invariants,
    Checker.check_game_procedure,
    Checker.check_heuristics,
    Checker.check_automata,
    Checker.check_board_links,
    Checker.check_node_attributes,
    Checker.check_seat_report,
    Checker.check_cards,
    Checker.check_scenarios,
    Checker.check_tests,
    Checker.check_start,
    Checker.check_printed,
    Checker.check_text_words,
    Checker.check_rules_index,
)


def _value_at(v, value, card, key: str):
    """Where a card's value `v` is written: its own place, else that of the list `value` it is in,
    else that of the card's `key`."""
    for holder in (v, value):
        pos = getattr(holder, "pos", None)
        if pos is not None:
            return pos
    return card.key_pos.get(key, card.pos)


def check_pack(defn: GameDef, report: Report) -> "Findings":
    """Stage 4 over a pack: every error to `report`; returns what the checker found."""
    checker = Checker(defn, report)
    checker.check()
    return checker.found
