"""Stage 4, check: every name resolves, arities and types agree.

The checker walks the parsed trees of a pack with the game's declarations in
hand and reports, all at once: unknown names (with a "did you mean"), wrong
numbers of arguments, values of the wrong type, keywords that match no
pattern or are defined in terms of themselves, `break` outside a loop, and
statements that can never run. It also binds each printed keyword on a card
to its definition, which the compiler then uses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..content.model import SCOPE_WORDS, AbilityDef, GameDef
from ..diagnostics import ContentError, Position, Report
from ..names import did_you_mean, fold
from . import nodes as N
from .builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from .keywords import KeywordMatcher, KeywordUse, Mismatch
from .parser import parse
from .types import (ANY, BOOL, CLASS, COMPONENT, COUNTER, COUNTER_MAP, DATA, EFFECT, LIST, NODE, NONE, NUMBER,
                    NUMERIC, OPTIONS, PLAYER, PROMISES, STRING, ZONE, accepts, word)

_CARD_KEYS = ("id", "title", "copies", "abilities", "text", "tags", "authored", "rules", "note")
_PARAM_TYPES = {"number": NUMBER, "class": CLASS, "name": STRING, "effect": EFFECT, "condition": BOOL}


class Scope:
    """The local names of one procedure or ability, with their types."""

    def __init__(self, names: dict, loops: int = 0, in_ability: bool = False, proc: str | None = None,
                 sound: frozenset = frozenset()):
        self.names = dict(names)
        self.loops = loops
        self.in_ability = in_ability
        self.proc = proc
        self.sound = sound  # the names whose type is a promise (a keyword's parameters), not a guess


# Nodes that hold no statement, only expressions and words: no local is bound inside them.
_NO_STATEMENTS = (N.Number, N.String, N.Bool, N.NoneLit, N.Name, N.Attr, N.Index, N.Call, N.ListLit, N.Each,
                  N.Mapped, N.BinOp, N.Compare, N.BoolOp, N.Not, N.Neg, N.Word)


def _statement_nodes(node):
    """The nodes of `N.walk(node)` but for those inside expressions, in the same order (what
    `bound_names` looks for is never there, and walking every name and number costs)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, N.Node):
            if isinstance(n, _NO_STATEMENTS):
                continue
            yield n
            for value in vars(n).values():
                if isinstance(value, (N.Node, list, tuple)):
                    stack.append(value)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)


@dataclass
class Findings:
    """What the checker found, handed to the compiler: the keyword each printed ability uses,
    and the type of each expression it checked. A NUMBER or LIST there is a promise about
    every value at run time (see language.types), which the code generator relies on."""
    keyword_uses: dict[AbilityDef, KeywordUse] = field(default_factory=dict)
    types: dict = field(default_factory=dict)  # expression node -> type
    function_types: dict = field(default_factory=dict)  # game function -> the type of its value


class Checker:
    def __init__(self, defn: GameDef, report: Report):
        self.defn = defn
        self.report = report
        self.found = Findings()
        self._card_ids = None
        self.attr_types = {name: (CLASS if a.type == "class" else {"number": NUMBER, "string": STRING, "boolean": BOOL,
                                                                    "list": LIST}.get(a.type, ANY))
                           for name, a in defn.attributes.items()}
        self._class_values_of: dict[int, tuple] = {}

    def error(self, pos: Position, message: str, hint: str | None = None) -> None:
        self.report.error(pos, message, hint)

    # entry point -------------------------------------------------------------
    def check(self) -> None:
        d = self.defn
        self.check_declarations()
        self.keywords = KeywordMatcher(d)
        self.check_keywords()
        for proc in d.procedures.values():
            self.check_parameters(proc)
            if proc.tree is not None:
                params = {p: ANY for p in proc.params}
                self.block(proc.tree.body, Scope(self.bound_names(proc.tree.body, params), proc=proc.name))
        for f in d.functions.values():
            if f.name in FUNCTIONS:
                self.error(f.pos, f"function '{f.name}' has the name of a built-in function", "choose another name")
            self.function_type(f.name)
        for text, tree in d.invariants:
            if tree is not None:
                self.expr(tree.expr, Scope({}))
        if "game" not in d.procedures:
            self.error(d.pos, "the game has no procedure 'game'", "procedures.game is run to play a game")
        if d.heuristic_tree is not None:
            self.expr(d.heuristic_tree.expr, Scope({"p": PLAYER}))
        self.check_cards()
        for sc in d.scenarios:
            self.check_scenario(sc)
        for t in d.tests:
            self.check_test(t)

    # declarations ------------------------------------------------------------
    def check_declarations(self) -> None:
        d = self.defn
        spaces = {}
        for kind, table in (("zone", d.zones), ("counter", d.counters), ("attribute", d.attributes),
                            ("procedure", {})):
            for name, decl in table.items():
                key = fold(name)
                if key in spaces:
                    other_kind, _ = spaces[key]
                    self.error(decl.pos, f"'{name}' is both {_a(other_kind)} and {_a(kind)}",
                               "give each zone, counter and attribute its own name")
                else:
                    spaces[key] = (kind, decl)
                if key in SPECIAL_NAMES or key in PROPERTIES:
                    self.error(decl.pos, f"'{name}' is a reserved name", "choose another name")
        scope_words = set(SCOPE_WORDS) | set(d.components)
        for table in (d.zones, d.counters):
            for decl in table.values():
                for s in decl.scope:
                    if s not in scope_words:
                        self.error(decl.pos, f"unknown scope '{s}' for '{decl.name}'",
                                   did_you_mean(s, scope_words) or "scopes: " + ", ".join(sorted(scope_words)))
        for c in d.counters.values():
            if isinstance(c.supply, str) and c.supply not in d.counters:
                self.error(c.pos, f"counter '{c.name}' shares the supply of unknown counter '{c.supply}'",
                           did_you_mean(c.supply, d.counters))
            for z in c.keep_in:
                if z not in d.zones:
                    self.error(c.pos, f"counter '{c.name}' is kept in unknown zone '{z}'", did_you_mean(z, d.zones))
        for kind, attrs in d.components.items():
            for a in attrs:
                if a not in d.attributes:
                    self.error(d.attribute_name_pos.get((kind, a), d.pos),
                               f"component '{kind}' names unknown attribute '{a}'", did_you_mean(a, d.attributes))
        for z in d.tags_kept_in or []:
            if z not in d.zones:
                self.error(d.pos, f"tags_kept_in names unknown zone '{z}'", did_you_mean(z, d.zones))
        for a in d.report_by:
            if a not in d.attributes:
                self.error(d.pos, f"report_by names unknown attribute '{a}'", did_you_mean(a, d.attributes))
        if d.discard is not None and d.discard not in d.zones:
            self.error(d.pos, f"unknown zone '{d.discard}' for the discard", did_you_mean(d.discard, d.zones))
        if d.score is not None and d.score not in d.counters:
            self.error(d.score.pos, f"unknown counter '{d.score}' for the score", did_you_mean(d.score, d.counters))
        for o in d.options.values():
            if o.values is not None and o.default not in o.values:
                self.error(o.pos, f"option '{o.name}' defaults to {o.default!r}, which is not one of its values")
        if d.min_players > d.max_players:
            self.error(d.players_pos or d.pos,
                       f"players.min ({d.min_players}) is more than players.max ({d.max_players})")
        for count, teams in d.teams.items():
            seats = [s for t in teams for s in t]
            if sorted(seats) != list(range(count)):
                self.error(d.pos, f"the teams for {count} players must name each seat 1..{count} once")
        for name, args in d.events.items():
            for a in args:
                if fold(a) in SPECIAL_NAMES:
                    self.error(d.pos, f"event '{name}' has an argument named '{a}', a reserved name")

    def check_parameters(self, proc) -> None:
        """A parameter is no special name; the acting player, when declared, is a parameter."""
        for p in proc.params:
            if p in SPECIAL_NAMES:
                hint = ("name the parameter, e.g. 'player', and declare 'acting: player': the procedure then "
                        "acts for the player given there") if p == "you" else "choose another name"
                self.error(getattr(p, "pos", proc.pos), f"parameter '{p}' of procedure '{proc.name}' has a reserved name",
                           hint)
        if proc.acting is not None and proc.acting not in proc.params:
            self.error(getattr(proc.acting, "pos", proc.pos),
                       f"procedure '{proc.name}' acts for '{proc.acting}', which is not one of its parameters",
                       did_you_mean(proc.acting, proc.params) or "name one of 'params:'")

    # keywords ----------------------------------------------------------------
    def check_keywords(self) -> None:
        d = self.defn
        seen = {}
        for kw in d.keywords:
            key = tuple((k, v) for k, v, _ in kw.words)
            if key in seen:
                self.error(kw.pos, f"keyword '{kw.pattern}' is defined twice (first at line {seen[key].pos.line} "
                                   f"of {seen[key].file})", "remove one definition")
            else:
                seen[key] = kw
            used = {v for k, v, _ in kw.words if k == "param"} | ({kw.effect_param} if kw.effect_param else set())
            for p, t in kw.params.items():
                if p not in used:
                    self.error(kw.params_pos.get(p, kw.pos),
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
            path = self._cycle_from(start, graph, [])
            if path and id(path[0]) not in reported:
                reported.update(id(k) for k in path)
                chain = " -> ".join(k.name for k in path + [path[0]])
                if len(path) == 1:
                    msg = f"keyword '{start.name}' is defined in terms of itself"
                else:
                    msg = f"keyword '{path[0].name}' is defined in terms of itself ({chain})"
                self.error(path[0].pos, msg, "a keyword's ability must not use the keyword itself, directly or not")

    def _cycle_from(self, kw, graph, path):
        if any(k is kw for k in path):
            i = next(i for i, k in enumerate(path) if k is kw)
            return path[i:] if i == 0 else None
        for nxt in graph.get(id(kw), []):
            found = self._cycle_from(nxt, graph, path + [kw])
            if found:
                return found
        return None

    def match_phrase(self, phrase: N.Phrase, quiet=False, params=None):
        """The keyword a printed phrase uses and its bindings (a KeywordUse), or None, reporting
        why unless `quiet`. Inside a keyword's definition, `params` are its own parameters."""
        result = self.keywords.match(phrase, params)
        if isinstance(result, Mismatch):
            if not quiet:
                self.error(result.pos, result.message, result.hint)
            return None
        return result

    # cards -------------------------------------------------------------------
    def check_cards(self) -> None:
        d = self.defn
        seen = {}
        for card in d.cards:
            key = (card.component, fold(card.id))
            if key in seen:
                first = seen[key]
                self.error(card.key_pos.get("id", card.pos),
                           f"duplicate card id '{card.id}' (first at {first.file}:{first.pos.line})",
                           "give each card its own id; use 'copies' for several identical cards")
            else:
                seen[key] = card
            allowed = d.components.get(card.component, list(d.attributes))
            for attr, value in card.attrs.items():
                pos = card.key_pos.get(attr, card.pos)
                if attr not in allowed:
                    hint = did_you_mean(attr, list(allowed) + list(_CARD_KEYS))
                    self.error(pos, f"unknown key '{attr}' for a {card.component}",
                               hint or ("keys: " + ", ".join(list(_CARD_KEYS) + list(allowed))))
                    continue
                if attr in d.attributes:  # else the component's declaration is reported already
                    self.check_attr_value(d.attributes[attr], value, getattr(value, "pos", pos))
            for t in card.tags:
                if fold(t) not in d.classes:
                    self.error(card.key_pos.get("tags", card.pos), f"unknown class '{t}' in tags",
                               did_you_mean(t, [v for _, v in d.classes.values()]))
            for ab in card.abilities:
                if ab.tree is not None:
                    self.card_ability(ab)

    def check_attr_value(self, attr, value, pos) -> None:
        if attr.type == "class":
            values = value if isinstance(value, list) else [value]
            for v in values:
                if not isinstance(v, str) or fold(v) not in self._class_values(attr):
                    hint = did_you_mean(str(v), attr.values)
                    self.error(getattr(v, "pos", pos), f"'{v}' is not a value of '{attr.name}'",
                               hint or "values: " + ", ".join(attr.values))
        elif attr.type == "number":
            if not isinstance(value, int) or isinstance(value, bool):
                self.error(pos, f"'{attr.name}' must be a whole number, found {_show(value)}")
        elif attr.type == "boolean" and not isinstance(value, bool):
            self.error(pos, f"'{attr.name}' must be true or false, found {_show(value)}")
        elif attr.type == "string" and not isinstance(value, str):
            self.error(pos, f"'{attr.name}' must be a string, found {_show(value)}")

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
            found = self.match_phrase(tree.phrase)
            if found is not None:
                use = self.found.keyword_uses[ab] = found
                if use.keyword.effect_param and tree.phrase.body is not None:
                    self.block(tree.phrase.body, Scope(self.bound_names(tree.phrase.body, {}),
                                                       in_ability=True))
                for value in use.bindings.values():
                    if isinstance(value, N.Node):
                        self.expr(value, Scope({}, in_ability=True))
            return
        self.ability(tree, {})

    def ability(self, tree, names: dict, owner=None) -> None:
        if isinstance(tree, N.PhraseAbility):
            if owner is not None:
                self.match_phrase(tree.phrase, params=owner.params)
            return
        if isinstance(tree, N.Trigger):
            names = dict(names)
            if tree.event not in self.defn.events:
                self.error(getattr(tree.event, "pos", tree.pos), f"unknown event '{tree.event}'",
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
            return
        if isinstance(tree, N.Action):
            for w in tree.windows:
                if w not in self.defn.windows:
                    self.error(getattr(w, "pos", tree.pos), f"unknown window '{w}'", did_you_mean(w, self.defn.windows)
                               or ("windows: " + ", ".join(self.defn.windows) if self.defn.windows else "declare it under windows:"))
            if tree.limit is not None and tree.limit not in self.defn.events:
                self.error(tree.pos, f"'once per {tree.limit}': unknown event '{tree.limit}'",
                           did_you_mean(tree.limit, self.defn.events) or "the limit is reset each time this event is signalled")
            scope = Scope(self.bound_names(tree.body, names), in_ability=True,
                          sound=self.parameters(owner, tree.body))
            for cost in tree.costs:
                if cost.kind in ("pay", "spend"):
                    self.expr(cost.amount, scope)
                    if cost.name not in self.defn.counters:
                        self.error(cost.pos, f"unknown counter '{cost.name}'", did_you_mean(cost.name, self.defn.counters))
                elif cost.kind == "sacrifice":
                    if fold(cost.name) not in self.defn.classes and names.get(cost.name) != CLASS:
                        self.error(cost.pos, f"unknown class '{cost.name}'",
                                   did_you_mean(cost.name, [v for _, v in self.defn.classes.values()]))
            if tree.cond is not None:
                self.expr(tree.cond, scope)
            self.block(tree.body, scope)

    # scenarios and tests -----------------------------------------------------
    def check_scenario(self, sc) -> None:
        tree = sc.setup_tree
        if tree is not None:
            self.block(tree.body, Scope(self.bound_names(tree.body, {})))
        for name, (text, tree) in sc.procedure_trees.items():
            if name not in self.defn.procedures:
                self.error(getattr(text, "pos", sc.pos), f"scenario replaces unknown procedure '{name}'",
                           did_you_mean(name, self.defn.procedures))
            if tree is not None:
                params = {p: ANY for p in self.defn.procedures[name].params} if name in self.defn.procedures else {}
                self.block(tree.body, Scope(self.bound_names(tree.body, params), proc=name))
        for key, value in (sc.data.get("options") or {}).items():
            if key not in self.defn.options:
                self.error(sc.data["options"].key_pos.get(key, sc.pos), f"unknown option '{key}'",
                           did_you_mean(key, self.defn.options))

    def check_test(self, t) -> None:
        names = {}
        for part in (t.given, t.when):
            if part is not None:
                names = self.bound_names(part.body, names)
        scope = Scope(names)
        for part in (t.given, t.when):
            if part is not None:
                self.block(part.body, scope)
        for _, cond in t.then:
            if cond is not None:
                self.expr(cond.expr, scope)
        for key in (t.data.get("options") or {}):
            if key not in self.defn.options:
                self.error(t.data["options"].key_pos.get(key, t.pos), f"unknown option '{key}'",
                           did_you_mean(key, self.defn.options))

    # statements --------------------------------------------------------------
    def bound_names(self, body, names: dict) -> dict:
        """Every local a block binds (let, choose, for, roll, option), with what is given."""
        out = dict(names)
        for n in _statement_nodes(body):
            if isinstance(n, N.Let):
                out.setdefault(n.name, ANY)
            elif isinstance(n, (N.Choose, N.For)):
                out.setdefault(n.var, ANY)
            elif isinstance(n, N.Roll):
                out.setdefault(n.name, LIST)
            elif isinstance(n, N.Option) and n.var:
                out.setdefault(n.var, ANY)
        return out

    def block(self, body, scope: Scope) -> None:
        ended = None
        for stmt in body:
            if ended is not None:
                self.report.warning(stmt.pos, f"unreachable statement: it follows '{ended}'",
                                    "remove it, or move it before")
                ended = None  # one warning per block
            self.stmt(stmt, scope)
            if isinstance(stmt, (N.Return, N.Break, N.Continue, N.Exit, N.Fail, N.Win)):
                ended = type(stmt).__name__.lower()

    def stmt(self, s, scope: Scope) -> None:
        t = type(s)
        if t is N.Move:
            self.expr(s.what, scope)
            self.expect(s.to, scope, ZONE, "the destination of 'move'")
        elif t in (N.Add, N.Remove, N.Pay):
            self.expect(s.amount, scope, NUMBER, "the amount")
            self.expect(s.target, scope, COUNTER, f"the target of '{t.__name__.lower()}'")
        elif t in (N.Gain, N.Lose):
            self.expect(s.amount, scope, NUMBER, "the amount")
            c = self.defn.counters.get(s.counter)
            if c is None:
                self.error(s.pos, f"unknown counter '{s.counter}'", did_you_mean(s.counter, self.defn.counters)
                           or ("counters: " + ", ".join(self.defn.counters) if self.defn.counters else None))
            elif not (set(c.scope) & {"player", "team"}):
                self.error(s.pos, f"'{t.__name__.lower()}' works on counters kept per player or team; "
                                  f"'{s.counter}' is kept per {'/'.join(c.scope)}",
                           f"use 'add N to OWNER.{s.counter}'")
            if s.owner is not None:
                self.expr(s.owner, scope)
        elif t is N.SetStmt:
            if isinstance(s.target, N.Name) and self.global_name(s.target.name) == COUNTER \
                    and s.target.name not in scope.names:
                pass  # a counter of the whole game
            elif isinstance(s.target, N.Name):
                if s.target.name not in scope.names:
                    self.error(s.target.pos, f"cannot set '{s.target.name}': it is not a local name",
                               "introduce it with 'let'")
            elif isinstance(s.target, (N.Attr, N.Index)):
                self.expr(s.target, scope)
            else:
                self.error(s.target.pos, "only a name, an attribute or a counter can be set")
            self.expr(s.value, scope)
        elif t is N.Let:
            if s.name in SPECIAL_NAMES:
                self.error(s.pos, f"'{s.name}' is a reserved name", "choose another name")
            self.expr(s.value, scope)
        elif t is N.Score:
            self.expect(s.amount, scope, NUMBER, "the points scored")
            if self.defn.score is None:
                self.error(s.pos, "'score' needs the game to name its score counter", "add 'score: COUNTER' to the game file")
            if s.owner is not None:
                self.expr(s.owner, scope)
            if s.source is not None:
                self.expr(s.source, scope)
        elif t is N.Signal:
            if s.event not in self.defn.events:
                self.error(s.pos, f"unknown event '{s.event}'", did_you_mean(s.event, self.defn.events)
                           or "declare it under events: in the game file")
            else:
                want = len(self.defn.events[s.event])
                if len(s.args) != want:
                    self.error(s.pos, f"event '{s.event}' takes {_n(want, 'argument')}, got {len(s.args)}")
            for a in s.args:
                self.expr(a, scope)
        elif t is N.CallProc:
            proc = self.defn.procedures.get(s.proc)
            if proc is None:
                self.error(s.pos, f"unknown procedure '{s.proc}'", did_you_mean(s.proc, self.defn.procedures))
            elif len(s.args) != len(proc.params):
                self.error(s.pos, f"procedure '{s.proc}' takes {_n(len(proc.params), 'argument')}, got {len(s.args)}",
                           f"call {s.proc}({', '.join(proc.params)})" if proc.params else None)
            for a in s.args:
                self.expr(a, scope)
        elif t is N.Shuffle:
            self.expect(s.zone, scope, ZONE, "what 'shuffle' shuffles")
        elif t is N.Tag:
            self.expr(s.what, scope)
            if fold(s.tag) not in self.defn.classes:
                self.error(s.pos, f"unknown class '{s.tag}'", did_you_mean(s.tag, [v for _, v in self.defn.classes.values()])
                           or "declare it under classes: in the game file")
        elif t in (N.TapStmt, N.Reveal, N.Win):
            self.expr(s.who if t is N.Win else s.what, scope)
        elif t is N.Exit:
            if s.proc not in self.defn.procedures:
                self.error(s.pos, f"unknown procedure '{s.proc}'", did_you_mean(s.proc, self.defn.procedures))
        elif t in (N.Break, N.Continue):
            if scope.loops == 0:
                self.error(s.pos, f"'{t.__name__.lower()}' outside a loop", "use 'return' to leave a procedure")
        elif t is N.Roll:
            self.expect(s.count, scope, NUMBER, "the number of dice")
            if s.sides is not None:
                self.expect(s.sides, scope, NUMBER, "the number of sides")
        elif t is N.Choose:
            self.expr(s.source, scope)
            if s.where is not None:
                self.expr(s.where, scope)
            if s.chooser is not None:
                self.expect(s.chooser, scope, PLAYER, "who chooses")
            if s.prompt:
                self.check_labels(s.prompt, s.pos, scope)
        elif t is N.Menu:
            if s.chooser is not None:
                self.expect(s.chooser, scope, PLAYER, "who chooses")
            for o in s.options:
                if isinstance(o, N.ActionsOption):
                    if o.window is not None and o.window not in self.defn.windows:
                        self.error(o.pos, f"unknown window '{o.window}'", did_you_mean(o.window, self.defn.windows))
                    continue
                if o.source is not None:
                    self.expr(o.source, scope)
                if o.cond is not None:
                    self.expr(o.cond, scope)
                self.check_labels(o.label, o.pos, scope)
                # 'break' in an option leaves the innermost loop around the menu
                self.block(o.body, scope)
        elif t is N.If:
            for cond, body in s.branches:
                self.expr(cond, scope)
                self.block(body, scope)
            if s.orelse:
                self.block(s.orelse, scope)
        elif t is N.For:
            self.expr(s.source, scope)
            if s.where is not None:
                self.expr(s.where, scope)
            self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))
        elif t is N.Repeat:
            if s.count is not None:
                self.expect(s.count, scope, NUMBER, "the number of repetitions")
            self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))
        elif t is N.While:
            self.expr(s.cond, scope)
            if isinstance(s.cond, N.Bool) and s.cond.value is False:
                self.report.warning(s.pos, "this loop never runs: its condition is false")
            self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))
        elif t is N.Phrase:
            if len(s.words) == 1 and scope.names.get(s.words[0].value) == EFFECT:
                return  # the effect parameter of a keyword, spliced in
            found = self.match_phrase(s)
            if found is not None:
                self.error(s.pos, f"keyword '{found.keyword.name}' is an ability, not an effect: it is printed on cards, "
                                  "not used in a procedure")
        elif t in (N.Log, N.Fail):
            self.check_labels(s.text, s.pos, scope)
        # Return, Pass: nothing to check

    def check_labels(self, text: str, pos: Position, scope: Scope) -> None:
        """Each {expression} inside a label must read and resolve."""
        for m in re.finditer(r"\{([^{}]*)\}", text):
            try:
                tree = parse(m.group(1), "condition", lambda line, col: pos)
            except ContentError as exc:
                self.error(pos, f"in text \"{text}\": {{{m.group(1)}}} does not read: {exc.message}")
                continue
            self.expr(tree.expr, scope)

    # expressions -------------------------------------------------------------
    def expect(self, e, scope, want: str, what: str) -> str:
        got = self.expr(e, scope)
        ok = got == ANY or got == want or (want == NUMBER and got in NUMERIC) or (want == COUNTER and got == COUNTER)
        if want == PLAYER and got in (PLAYER, ANY):
            ok = True
        if not ok:
            hint = None
            if want == ZONE and got == COMPONENT:
                hint = "a zone is named, e.g. 'market' or 'you.hand'"
            if want == COUNTER and got == NUMBER:
                hint = "add to a counter, e.g. 'add 2 to you.resource'"
            self.error(e.pos, f"{what} must be {word(want)}, not {word(got)}", hint)
        return got

    def global_name(self, name: str):
        d = self.defn
        if name in d.zones and d.zones[name].scope == ("game",):
            return ZONE
        if name in d.counters and d.counters[name].scope == ("game",):
            return COUNTER
        if fold(name) in d.classes:
            return CLASS
        return None

    def function_type(self, name: str) -> str:
        """The type of the value of game function `name`, its body checked once, on first need."""
        known = self.found.function_types.get(name)
        if known is None:
            self.found.function_types[name] = ANY  # while it is checked: a call of itself tells nothing
            f = self.defn.functions[name]
            if f.tree is not None:
                self.expr(f.tree.expr, Scope({p: ANY for p in f.params}))
                known = self.found.function_types[name] = self.found.types[f.tree.expr]
            else:
                known = ANY
        return known

    def expr(self, e, scope: Scope) -> str:
        """The type of expression `e`, every name in it checked; what the compiler may rely on
        of it is kept in the findings."""
        t = self.expression(e, scope)
        self.found.types[e] = t if t not in PROMISES else self.promise(e, t, scope)
        return t

    def promise(self, e, t: str, scope: Scope) -> str:
        """`t`, the type the checker gives `e`, as far as every value of `e` keeps it at run time.
        A local may be set to anything (its type is a guess); an attribute without a default of
        its type, or that a board node also has, may hold none or another value."""
        if type(e) is N.Name and e.name in scope.names and e.name not in scope.sound:
            return ANY
        if type(e) is N.Attr and e.name in self.defn.attributes and not self.sound_attribute(e.name):
            return ANY
        return t

    def sound_attribute(self, name: str) -> bool:
        a = self.defn.attributes[name]
        kind = NUMBER if a.type == "number" else LIST if a.type == "list" else None
        default_fits = isinstance(a.default, int) and not isinstance(a.default, bool) if kind == NUMBER \
            else isinstance(a.default, list)
        return kind is not None and default_fits and not self.node_attribute(name)

    def parameters(self, keyword, body) -> frozenset:
        """The parameters of `keyword` (None: none) that `body` never binds again: their values are
        those of a card, of the parameter's type (a number given as an expression is made one)."""
        if keyword is None:
            return frozenset()
        again = self.bound_names(body, {})
        return frozenset(p for p in keyword.params if p not in again)

    def node_attribute(self, name: str) -> bool:
        """Whether some board node has attribute `name`."""
        return any(name in node for b in self.defn.boards for node in b.nodes.values())

    def expression(self, e, scope: Scope) -> str:
        t = type(e)
        if t is N.Number:
            return NUMBER
        if t is N.String:
            return STRING
        if t is N.Bool:
            return BOOL
        if t is N.NoneLit:
            return NONE
        if t is N.Name:
            return self.name(e, scope)
        if t is N.Attr:
            return self.attr(e, scope)
        if t is N.Index:
            obj = self.expr(e.obj, scope)
            self.expr(e.key, scope)
            if obj == COUNTER_MAP:
                return COUNTER
            if obj in (NUMBER, BOOL, CLASS):
                self.error(e.pos, f"cannot index {word(obj)}")
            return ANY
        if t is N.Call:
            return self.call(e, scope)
        if t is N.ListLit:
            for i in e.items:
                self.expr(i, scope)
            return LIST
        if t is N.Each or t is N.Mapped:
            self.expr(e.source, scope)
            inner = Scope({**scope.names, e.var: ANY}, scope.loops, scope.in_ability, scope.proc)
            if e.where is not None:
                self.expr(e.where, inner)
            if t is N.Mapped:
                self.expr(e.expr, inner)
            return LIST
        if t is N.BinOp:
            sides = []
            for side in (e.left, e.right):
                got = self.expr(side, scope)
                sides.append(got)
                if got not in NUMERIC and not (e.op == "+" and got in (LIST, ZONE)):
                    self.error(side.pos, f"'{e.op}' works on numbers, not {word(got)}")
            if e.op == "+" and (LIST in sides or ZONE in sides):
                return LIST  # lists and zones join into one list
            if e.op == "+" and sides == [ANY, ANY]:
                return ANY  # two numbers, or two lists
            return NUMBER
        if t is N.Compare:
            left = self.expr(e.left, scope)
            if e.op in ("is", "isnot") and isinstance(e.right, N.Name) and e.right.name not in scope.names \
                    and e.right.name not in SPECIAL_NAMES:
                if fold(e.right.name) in self.defn.classes:
                    return BOOL
                if self.global_name(e.right.name) is None:
                    self.error(e.right.pos, f"unknown class '{e.right.name}'",
                               did_you_mean(e.right.name, [v for _, v in self.defn.classes.values()] + list(scope.names)))
                    return BOOL
            right = self.expr(e.right, scope)
            if e.op in ("<", "<=", ">", ">="):
                for side, got in ((e.left, left), (e.right, right)):
                    if got not in NUMERIC:
                        self.error(side.pos, f"'{e.op}' compares numbers, not {word(got)}")
            return BOOL
        if t is N.BoolOp:
            self.expr(e.left, scope)
            self.expr(e.right, scope)
            return BOOL
        if t is N.Not:
            self.expr(e.operand, scope)
            return BOOL
        if t is N.Neg:
            self.expect(e.operand, scope, NUMBER, "the operand of '-'")
            return NUMBER
        if t is N.Condition:
            return self.expr(e.expr, scope)
        return ANY

    def name(self, e: N.Name, scope: Scope) -> str:
        n = e.name
        if n in scope.names:
            return scope.names[n]
        if n in SPECIAL_NAMES:
            return SPECIAL_NAMES[n].returns
        found = self.global_name(n)
        if found:
            return found
        d = self.defn
        if n in d.zones:
            self.error(e.pos, f"zone '{n}' is kept per {'/'.join(d.zones[n].scope)}: say whose",
                       f"e.g. 'you.{n}'" if "player" in d.zones[n].scope else f"e.g. 'x.{n}'")
            return ZONE
        if n in d.counters:
            self.error(e.pos, f"counter '{n}' is kept per {'/'.join(d.counters[n].scope)}: say whose",
                       f"e.g. 'you.{n}'" if "player" in d.counters[n].scope else f"e.g. 'x.{n}'")
            return COUNTER
        visible = list(scope.names) + list(SPECIAL_NAMES) + [z for z, zd in d.zones.items() if zd.scope == ("game",)] \
            + [c for c, cd in d.counters.items() if cd.scope == ("game",)] + [v for _, v in d.classes.values()]
        self.error(e.pos, f"unknown name '{n}'", did_you_mean(n, visible))
        return ANY

    def attr(self, e: N.Attr, scope: Scope) -> str:
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in scope.names:
            if e.name not in self.defn.options:
                self.error(e.pos, f"unknown option '{e.name}'", did_you_mean(e.name, self.defn.options)
                           or ("options: " + ", ".join(self.defn.options) if self.defn.options else "the game declares no options"))
            return ANY
        if isinstance(e.obj, N.Name) and e.obj.name == "data" and "data" not in scope.names:
            if e.name not in self.defn.data:
                self.error(e.pos, f"unknown data table '{e.name}'", did_you_mean(e.name, self.defn.data))
            return ANY
        obj = self.expr(e.obj, scope)
        d = self.defn
        n = e.name
        if n in d.zones:
            return ZONE
        if n in d.counters:
            return COUNTER_MAP if len(d.counters[n].scope) == 2 else COUNTER
        if n in d.attributes:
            return self.attr_types.get(n, ANY)
        if n in PROPERTIES:
            return PROPERTIES[n].returns
        if obj in (OPTIONS, DATA):
            return ANY
        if obj in (ANY, NODE) and self.node_attribute(n):
            # every node has it, as a whole number: a number (a board never changes)
            nodes = [node for b in d.boards for node in b.nodes.values()]
            return NUMBER if all(isinstance(node.get(n), int) and not isinstance(node.get(n), bool)
                                 for node in nodes) else ANY
        candidates = list(d.zones) + list(d.counters) + list(d.attributes) + list(PROPERTIES)
        pos = e.pos
        if pos.end_column is not None and pos.end_column - len(n) >= pos.column:
            pos = Position(pos.path, pos.line, pos.end_column - len(n), pos.end_column)  # the name, not the owner
        self.error(pos, f"unknown attribute '{n}'", did_you_mean(n, candidates))
        return ANY

    def call(self, e: N.Call, scope: Scope) -> str:
        b = FUNCTIONS.get(e.func)
        if b is None:
            for a in e.args:
                self.expr(a, scope)
            if e.func in self.defn.functions:
                f = self.defn.functions[e.func]
                if len(e.args) != len(f.params):
                    self.error(e.pos, f"{e.func}() takes {_n(len(f.params), 'argument')}, got {len(e.args)}",
                               f"{e.func}({', '.join(f.params)})")
                return self.function_type(e.func)
            else:
                self.error(e.pos, f"unknown function '{e.func}'",
                           did_you_mean(e.func, list(FUNCTIONS) + list(self.defn.functions)))
            return ANY
        n = len(e.args)
        if not b.min_args <= n <= b.max_args:
            want = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
            self.error(e.pos, f"{e.func}() takes {want} argument{'s' if b.max_args != 1 else ''}, got {n}",
                       " or ".join(b.forms))
            for a in e.args:
                self.expr(a, scope)
        else:
            for a, want in zip(e.args, b.arg_types(n)):
                got = self.expr(a, scope)
                if not accepts(want, got):
                    self.error(a.pos, f"{e.func}() takes {word(want)} here, not {word(got)}", " or ".join(b.forms))
        b.check(self, e)
        return b.returns

    def card_ids(self) -> set:
        """The folded ids of the pack's cards (made once: `card("...")` may be called often)."""
        if self._card_ids is None:
            self._card_ids = {fold(c.id) for c in self.defn.cards}
        return self._card_ids


def _show(value) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'s' if k != 1 else ''}"


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def check_pack(defn: GameDef, report: Report) -> "Findings":
    """Stage 4 over a pack: every error to `report`; returns what the checker found."""
    checker = Checker(defn, report)
    checker.check()
    return checker.found
