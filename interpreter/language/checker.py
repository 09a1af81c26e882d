"""Stage 4, check: every name resolves, arities and types agree.

The checker walks the parsed trees of a pack with the game's declarations in
hand and reports, all at once: unknown names (with a "did you mean"), wrong
numbers of arguments, values of the wrong type, keywords that match no
pattern or are defined in terms of themselves, `break` outside a loop, and
statements that can never run. It also binds each printed keyword on a card
to its definition, which the compiler then uses.
"""
from __future__ import annotations

from . import nodes as N
from .builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from ..diagnostics import Position, Report
from ..content.model import SCOPE_WORDS, AbilityDef, GameDef, KeywordDef
from ..names import did_you_mean, fold

ANY, NUM, BOOL, STR, PLAYER, TEAM, COMP, NODE, ZONE, COUNTER, COUNTER_MAP, LIST, CLASS, NONE = (
    "any", "number", "bool", "string", "player", "team", "component", "node", "zone", "counter",
    "counter map", "list", "class", "none")

_NUMERIC = {ANY, NUM, COUNTER}
_CARD_KEYS = ("id", "title", "copies", "abilities", "text", "tags", "authored", "rules", "note")
_TYPE_WORDS = {NUM: "a number", BOOL: "a truth value", STR: "a string", PLAYER: "a player", TEAM: "a team",
               COMP: "a component", NODE: "a node", ZONE: "a zone", COUNTER: "a counter", LIST: "a list",
               CLASS: "a class", NONE: "none", COUNTER_MAP: "a counter kept per player"}
_SPECIAL_TYPES = {"self": COMP, "you": PLAYER, "players": LIST, "teams": LIST, "player_count": NUM,
                  "options": "options", "data": "data", "cause": PLAYER}
_FUNC_TYPES = {"count": NUM, "sum": NUM, "max": NUM, "min": NUM, "any": BOOL, "all": BOOL, "abs": NUM,
               "first": ANY, "last": ANY, "top": ANY, "bottom": ANY, "next": PLAYER, "previous": PLAYER,
               "partners": LIST, "opponents": LIST, "team": TEAM, "members": LIST, "seat": NUM, "node": NODE,
               "nodes": LIST, "neighbors": LIST, "linked": BOOL, "zone_of": ZONE, "holder": ANY,
               "owner": PLAYER, "controller": PLAYER, "option": ANY, "random": ANY, "sorted": LIST,
               "reversed": LIST, "distinct": LIST, "most": ANY, "tapped": BOOL, "has": BOOL, "label": STR,
               "range": LIST, "in_play": LIST, "select": ANY, "supply": NUM, "card": COMP, "cards": LIST}
_PROPERTY_TYPES = {"id": STR, "title": STR, "kind": STR, "zone": ZONE, "owner": PLAYER, "controller": PLAYER,
                   "tapped": BOOL, "tags": LIST, "seat": NUM, "team": TEAM, "neighbors": LIST, "size": NUM}


class Scope:
    """The local names of one procedure or ability, with their types."""

    def __init__(self, names: dict, loops: int = 0, in_ability: bool = False, proc: str | None = None):
        self.names = dict(names)
        self.loops = loops
        self.in_ability = in_ability
        self.proc = proc


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


class Checker:
    def __init__(self, game: GameDef, report: Report):
        self.g = game
        self.report = report
        self.keywords_by_first: dict[str, list[KeywordDef]] = {}
        self.attr_types = {name: (CLASS if a.type == "class" else {"number": NUM, "string": STR, "boolean": BOOL,
                                                                    "list": LIST}.get(a.type, ANY))
                           for name, a in game.attributes.items()}
        self._class_values_of: dict[int, tuple] = {}

    def error(self, pos: Position, message: str, hint: str | None = None) -> None:
        self.report.error(pos, message, hint)

    # entry point -------------------------------------------------------------
    def check(self) -> None:
        g = self.g
        self.check_declarations()
        for kw in g.keywords:
            first = next((w for w in kw.words if w[0] == "lit"), None)
            if first is not None:
                self.keywords_by_first.setdefault(first[1], []).append(kw)
        self.check_keywords()
        for proc in g.procedures.values():
            if proc.tree is not None:
                params = {p: ANY for p in proc.params}
                self.block(proc.tree.body, Scope(self.bound_names(proc.tree.body, params), proc=proc.name))
        for f in g.functions.values():
            if f.name in FUNCTIONS:
                self.error(f.pos, f"function '{f.name}' has the name of a built-in function", "choose another name")
            if f.tree is not None:
                self.expr(f.tree.expr, Scope({p: ANY for p in f.params}))
        for text, tree in g.invariants:
            if tree is not None:
                self.expr(tree.expr, Scope({}))
        if "game" not in g.procedures:
            self.error(g.pos, "the game has no procedure 'game'", "procedures.game is run to play a game")
        if getattr(g, "heuristic_tree", None) is not None:
            self.expr(g.heuristic_tree.expr, Scope({"p": PLAYER}))
        self.check_cards()
        for sc in g.scenarios:
            self.check_scenario(sc)
        for t in g.tests:
            self.check_test(t)

    # declarations ------------------------------------------------------------
    def check_declarations(self) -> None:
        g = self.g
        spaces = {}
        for kind, table in (("zone", g.zones), ("counter", g.counters), ("attribute", g.attributes),
                            ("procedure", {})):
            for name, d in table.items():
                key = fold(name)
                if key in spaces:
                    other_kind, _ = spaces[key]
                    self.error(d.pos, f"'{name}' is both {_a(other_kind)} and {_a(kind)}",
                               "give each zone, counter and attribute its own name")
                else:
                    spaces[key] = (kind, d)
                if key in SPECIAL_NAMES or key in PROPERTIES:
                    self.error(d.pos, f"'{name}' is a reserved name", "choose another name")
        scope_words = set(SCOPE_WORDS) | set(g.components)
        for table in (g.zones, g.counters):
            for d in table.values():
                for s in d.scope:
                    if s not in scope_words:
                        self.error(d.pos, f"unknown scope '{s}' for '{d.name}'",
                                   did_you_mean(s, scope_words) or "scopes: " + ", ".join(sorted(scope_words)))
        for c in g.counters.values():
            if isinstance(c.supply, str) and c.supply not in g.counters:
                self.error(c.pos, f"counter '{c.name}' shares the supply of unknown counter '{c.supply}'",
                           did_you_mean(c.supply, g.counters))
            for z in c.keep_in:
                if z not in g.zones:
                    self.error(c.pos, f"counter '{c.name}' is kept in unknown zone '{z}'", did_you_mean(z, g.zones))
        for kind, attrs in g.components.items():
            for a in attrs:
                if a not in g.attributes:
                    self.error(getattr(g, "attribute_name_pos", {}).get((kind, a), g.pos),
                               f"component '{kind}' names unknown attribute '{a}'", did_you_mean(a, g.attributes))
        for z in g.tags_kept_in or []:
            if z not in g.zones:
                self.error(g.pos, f"tags_kept_in names unknown zone '{z}'", did_you_mean(z, g.zones))
        for a in g.report_by:
            if a not in g.attributes:
                self.error(g.pos, f"report_by names unknown attribute '{a}'", did_you_mean(a, g.attributes))
        if g.discard is not None and g.discard not in g.zones:
            self.error(g.pos, f"unknown zone '{g.discard}' for the discard", did_you_mean(g.discard, g.zones))
        if g.score is not None and g.score not in g.counters:
            self.error(g.score.pos, f"unknown counter '{g.score}' for the score", did_you_mean(g.score, g.counters))
        for o in g.options.values():
            if o.values is not None and o.default not in o.values:
                self.error(o.pos, f"option '{o.name}' defaults to {o.default!r}, which is not one of its values")
        if g.min_players > g.max_players:
            self.error(getattr(g, "players_pos", g.pos),
                       f"players.min ({g.min_players}) is more than players.max ({g.max_players})")
        for count, teams in g.teams.items():
            seats = [s for t in teams for s in t]
            if sorted(seats) != list(range(count)):
                self.error(g.pos, f"the teams for {count} players must name each seat 1..{count} once")
        for name, args in g.events.items():
            for a in args:
                if fold(a) in SPECIAL_NAMES:
                    self.error(g.pos, f"event '{name}' has an argument named '{a}', a reserved name")

    # keywords ----------------------------------------------------------------
    def check_keywords(self) -> None:
        g = self.g
        seen = {}
        for kw in g.keywords:
            key = tuple((k, v) for k, v, _ in kw.words)
            if key in seen:
                self.error(kw.pos, f"keyword '{kw.pattern}' is defined twice (first at line {seen[key].pos.line} "
                                   f"of {seen[key].file})", "remove one definition")
            else:
                seen[key] = kw
            used = {v for k, v, _ in kw.words if k == "param"} | ({kw.effect_param} if kw.effect_param else set())
            for p, t in kw.params.items():
                if p not in used:
                    self.error(getattr(kw, "params_pos", {}).get(p, kw.pos),
                               f"parameter '{p}' does not appear in the pattern '{kw.pattern}'",
                               "write it in the pattern in capitals, as the card prints the value")
            names = {}
            for p, t in kw.params.items():
                names[p] = {"number": NUM, "class": CLASS, "name": STR, "effect": "effect", "condition": BOOL}.get(t, ANY)
            for tree in kw.trees:
                if tree is not None:
                    self.ability(tree, names, owner=kw)
        self.check_keyword_cycles()

    def check_keyword_cycles(self) -> None:
        graph: dict[int, list] = {}
        for kw in self.g.keywords:
            refs = []
            for tree in kw.trees:
                for n in N.walk(tree):
                    if isinstance(n, N.Phrase):
                        target = self.match_phrase(n, quiet=True, params=kw.params)
                        if target is not None:
                            refs.append(target[0])
            graph[id(kw)] = refs
        reported = set()
        for start in self.g.keywords:
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
        """The keyword a printed phrase uses and its bindings, or None (reporting why unless quiet)."""
        words = phrase.words
        if not words or words[0].kind != "name":
            if not quiet:
                self.error(phrase.pos, "expected a keyword")
            return None
        candidates = self.keywords_by_first.get(fold(words[0].value), [])
        failures = []
        for kw in candidates:
            self._outer_params = params or {}
            bindings, why = self._match(kw, words, phrase.body)
            self._outer_params = {}
            if bindings is not None:
                return kw, bindings
            failures.append((kw, why))
        if quiet:
            return None
        if params and len(words) == 1 and words[0].value in params:
            return None
        if not candidates:
            text = " ".join(str(w.value) if w.kind != "expr" else "(...)" for w in words)
            names = sorted({k.pattern for k in self.g.keywords})
            hint = did_you_mean(words[0].value, {k.name: k for k in self.g.keywords})
            self.error(words[0].pos, f"unknown keyword '{text}'",
                       hint or (("known keywords: " + ", ".join(names[:8]) + ("..." if len(names) > 8 else ""))
                                if names else "define it in a keyword library (kind: keywords)"))
            return None
        kw, (pos, message, hint) = max(failures, key=lambda f: (f[1][0].line, f[1][0].column))
        self.error(pos, message, hint)
        return None

    def _match(self, kw: KeywordDef, words, body):
        """Bindings when `words` fit the pattern of `kw`, else (None, (pos, message, hint))."""
        def usage():  # for a hint: made only when the words do not fit
            return f"'{kw.pattern}'" + (" takes " + ", ".join(f"{p} ({t})" for p, t in kw.params.items())
                                        if kw.params else " takes no value")
        result = self._match_from(kw, kw.words, 0, words, 0, {})
        if isinstance(result, dict):
            if kw.effect_param and body is None:
                return None, (words[-1].pos, f"keyword '{kw.name}' needs an effect after ':'",
                              f"write it as {usage().split(' takes')[0]}")
            if not kw.effect_param and body is not None:
                return None, (words[-1].pos, f"keyword '{kw.name}' takes no effect after ':'", None)
            if kw.effect_param:
                result[kw.effect_param] = body
            return result, None
        pos, message = result
        return None, (pos, message, f"{usage()}")

    def _match_from(self, kw, pat, i, words, j, bound):
        if i == len(pat):
            if j == len(words):
                return bound
            return (words[j].pos, f"too many values for keyword '{kw.name}': unexpected '{_word_text(words[j])}'")
        kind, value, _ = pat[i]
        if j >= len(words):
            what = f"'{value}'" if kind != "param" else f"a value for {value}"
            return (words[-1].pos, f"keyword '{kw.name}' is missing {what}")
        w = words[j]
        if kind == "lit":
            if w.kind in ("name", "number") and fold(str(w.value)) == value:
                return self._match_from(kw, pat, i + 1, words, j + 1, bound)
            return (w.pos, f"expected '{value}' in keyword '{kw.name}', found '{_word_text(w)}'")
        if kind == "dash":
            if w.kind == "dash":
                return self._match_from(kw, pat, i + 1, words, j + 1, bound)
            return (w.pos, f"expected '-' in keyword '{kw.name}', found '{_word_text(w)}'")
        ptype = kw.params.get(value)
        outer = getattr(self, "_outer_params", None)
        if outer and w.kind == "name" and outer.get(w.value) == ptype and ptype != "effect":
            # inside a keyword's definition, its own parameter stands for a value of that type
            return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: N.Name(w.pos, w.value)})
        if ptype == "number":
            if w.kind == "number" or w.kind == "expr":
                val = w.value if w.kind == "number" else w.value
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: val})
            return (w.pos, f"{value} of keyword '{kw.name}' must be a number, found '{_word_text(w)}'")
        if ptype == "class":
            # a class name may be printed over several words: 'Bio-Consortium', 'Fille de joie'
            best_error = None
            for k in range(len(words) - j, 0, -1):
                chunk = words[j:j + k]
                if any(c.kind not in ("name", "dash") for c in chunk):
                    continue
                text = "".join(("-" if c.kind == "dash" else (" " if n and chunk[n - 1].kind != "dash" else "") + str(c.value))
                               for n, c in enumerate(chunk))
                if fold(text) in self.g.classes:
                    r = self._match_from(kw, pat, i + 1, words, j + k, {**bound, value: self.g.classes[fold(text)][1]})
                    if isinstance(r, dict):
                        return r
                    best_error = best_error or r
            if best_error:
                return best_error
            hint = did_you_mean(str(w.value), [v for _, v in self.g.classes.values()])
            return (w.pos, f"unknown class '{_word_text(w)}' for {value} of keyword '{kw.name}'"
                    + (f"; {hint}" if hint else ""))
        if ptype == "name":
            if w.kind in ("name", "string"):
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: str(w.value)})
            return (w.pos, f"{value} of keyword '{kw.name}' must be a name, found '{_word_text(w)}'")
        if ptype == "condition":
            if w.kind == "expr":
                return self._match_from(kw, pat, i + 1, words, j + 1, {**bound, value: w.value})
            return (w.pos, f"{value} of keyword '{kw.name}' must be a condition in parentheses")
        return (w.pos, f"parameter {value} of keyword '{kw.name}' has no type")

    # cards -------------------------------------------------------------------
    def check_cards(self) -> None:
        g = self.g
        seen = {}
        for card in g.cards:
            key = (card.component, fold(card.id))
            if key in seen:
                first = seen[key]
                self.error(card.key_pos.get("id", card.pos),
                           f"duplicate card id '{card.id}' (first at {first.file}:{first.pos.line})",
                           "give each card its own id; use 'copies' for several identical cards")
            else:
                seen[key] = card
            allowed = g.components.get(card.component, list(g.attributes))
            for attr, value in card.attrs.items():
                pos = card.key_pos.get(attr, card.pos)
                if attr not in allowed:
                    hint = did_you_mean(attr, list(allowed) + list(_CARD_KEYS))
                    self.error(pos, f"unknown key '{attr}' for a {card.component}",
                               hint or ("keys: " + ", ".join(list(_CARD_KEYS) + list(allowed))))
                    continue
                if attr in g.attributes:  # else the component's declaration is reported already
                    self.check_attr_value(g.attributes[attr], value, getattr(value, "pos", pos))
            for t in card.tags:
                if fold(t) not in g.classes:
                    self.error(card.key_pos.get("tags", card.pos), f"unknown class '{t}' in tags",
                               did_you_mean(t, [v for _, v in g.classes.values()]))
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
            known = (attr, {fold(x) for x in attr.values} | {k for k, (a, _) in self.g.classes.items()
                                                             if a == attr.name})
            self._class_values_of[id(attr)] = known
        return known[1]

    def card_ability(self, ab: AbilityDef) -> None:
        tree = ab.tree
        if isinstance(tree, N.PhraseAbility):
            found = self.match_phrase(tree.phrase)
            if found is not None:
                ab.keyword, ab.bindings = found
                if ab.keyword.effect_param and tree.phrase.body is not None:
                    self.block(tree.phrase.body, Scope(self.bound_names(tree.phrase.body, self.ability_names()),
                                                       in_ability=True))
                for value in ab.bindings.values():
                    if isinstance(value, N.Node):
                        self.expr(value, Scope(self.ability_names(), in_ability=True))
            return
        self.ability(tree, {})

    def ability_names(self) -> dict:
        return {}

    def ability(self, tree, names: dict, owner=None) -> None:
        if isinstance(tree, N.PhraseAbility):
            if owner is not None:
                self.match_phrase(tree.phrase, params=owner.params)
            return
        if isinstance(tree, N.Trigger):
            names = dict(names)
            if tree.event not in self.g.events:
                self.error(getattr(tree.event, "pos", tree.pos), f"unknown event '{tree.event}'",
                           did_you_mean(tree.event, self.g.events)
                           or ("events: " + ", ".join(self.g.events) if self.g.events else "declare it under events:"))
            else:
                for a in self.g.events[tree.event]:
                    names.setdefault(a, ANY)
            scope = Scope(self.bound_names(tree.body, names), in_ability=True)
            if tree.cond is not None:
                self.expr(tree.cond, scope)
            self.block(tree.body, scope)
            return
        if isinstance(tree, N.Action):
            for w in tree.windows:
                if w not in self.g.windows:
                    self.error(getattr(w, "pos", tree.pos), f"unknown window '{w}'", did_you_mean(w, self.g.windows)
                               or ("windows: " + ", ".join(self.g.windows) if self.g.windows else "declare it under windows:"))
            if tree.limit is not None and tree.limit not in self.g.events:
                self.error(tree.pos, f"'once per {tree.limit}': unknown event '{tree.limit}'",
                           did_you_mean(tree.limit, self.g.events) or "the limit is reset each time this event is signalled")
            scope = Scope(self.bound_names(tree.body, names), in_ability=True)
            for cost in tree.costs:
                if cost.kind in ("pay", "spend"):
                    self.expr(cost.amount, scope)
                    if cost.name not in self.g.counters:
                        self.error(cost.pos, f"unknown counter '{cost.name}'", did_you_mean(cost.name, self.g.counters))
                elif cost.kind == "sacrifice":
                    if fold(cost.name) not in self.g.classes and names.get(cost.name) != CLASS:
                        self.error(cost.pos, f"unknown class '{cost.name}'",
                                   did_you_mean(cost.name, [v for _, v in self.g.classes.values()]))
            if tree.cond is not None:
                self.expr(tree.cond, scope)
            self.block(tree.body, scope)

    # scenarios and tests -----------------------------------------------------
    def check_scenario(self, sc) -> None:
        tree = getattr(sc, "setup_tree", None)
        if tree is not None:
            self.block(tree.body, Scope(self.bound_names(tree.body, {})))
        for name, (text, tree) in getattr(sc, "procedure_trees", {}).items():
            if name not in self.g.procedures:
                self.error(getattr(text, "pos", sc.pos), f"scenario replaces unknown procedure '{name}'",
                           did_you_mean(name, self.g.procedures))
            if tree is not None:
                params = {p: ANY for p in self.g.procedures[name].params} if name in self.g.procedures else {}
                self.block(tree.body, Scope(self.bound_names(tree.body, params), proc=name))
        for key, value in (sc.data.get("options") or {}).items():
            if key not in self.g.options:
                self.error(sc.data["options"].key_pos.get(key, sc.pos), f"unknown option '{key}'",
                           did_you_mean(key, self.g.options))

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
            if key not in self.g.options:
                self.error(t.data["options"].key_pos.get(key, t.pos), f"unknown option '{key}'",
                           did_you_mean(key, self.g.options))

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
            self.expect(s.amount, scope, NUM, "the amount")
            self.expect(s.target, scope, COUNTER, f"the target of '{t.__name__.lower()}'")
        elif t in (N.Gain, N.Lose):
            self.expect(s.amount, scope, NUM, "the amount")
            c = self.g.counters.get(s.counter)
            if c is None:
                self.error(s.pos, f"unknown counter '{s.counter}'", did_you_mean(s.counter, self.g.counters)
                           or ("counters: " + ", ".join(self.g.counters) if self.g.counters else None))
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
            self.expect(s.amount, scope, NUM, "the points scored")
            if self.g.score is None:
                self.error(s.pos, "'score' needs the game to name its score counter", "add 'score: COUNTER' to the game file")
            if s.owner is not None:
                self.expr(s.owner, scope)
            if s.source is not None:
                self.expr(s.source, scope)
        elif t is N.Signal:
            if s.event not in self.g.events:
                self.error(s.pos, f"unknown event '{s.event}'", did_you_mean(s.event, self.g.events)
                           or "declare it under events: in the game file")
            else:
                want = len(self.g.events[s.event])
                if len(s.args) != want:
                    self.error(s.pos, f"event '{s.event}' takes {_n(want, 'argument')}, got {len(s.args)}")
            for a in s.args:
                self.expr(a, scope)
        elif t is N.CallProc:
            proc = self.g.procedures.get(s.proc)
            if proc is None:
                self.error(s.pos, f"unknown procedure '{s.proc}'", did_you_mean(s.proc, self.g.procedures))
            elif len(s.args) != len(proc.params):
                self.error(s.pos, f"procedure '{s.proc}' takes {_n(len(proc.params), 'argument')}, got {len(s.args)}",
                           f"call {s.proc}({', '.join(proc.params)})" if proc.params else None)
            for a in s.args:
                self.expr(a, scope)
        elif t is N.Shuffle:
            self.expect(s.zone, scope, ZONE, "what 'shuffle' shuffles")
        elif t is N.Tag:
            self.expr(s.what, scope)
            if fold(s.tag) not in self.g.classes:
                self.error(s.pos, f"unknown class '{s.tag}'", did_you_mean(s.tag, [v for _, v in self.g.classes.values()])
                           or "declare it under classes: in the game file")
        elif t in (N.TapStmt, N.Reveal, N.Win):
            self.expr(getattr(s, "what", None) or getattr(s, "who", None), scope)
        elif t is N.Exit:
            if s.proc not in self.g.procedures:
                self.error(s.pos, f"unknown procedure '{s.proc}'", did_you_mean(s.proc, self.g.procedures))
        elif t in (N.Break, N.Continue):
            if scope.loops == 0:
                self.error(s.pos, f"'{t.__name__.lower()}' outside a loop", "use 'return' to leave a procedure")
        elif t is N.Roll:
            self.expect(s.count, scope, NUM, "the number of dice")
            if s.sides is not None:
                self.expect(s.sides, scope, NUM, "the number of sides")
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
                    if o.window is not None and o.window not in self.g.windows:
                        self.error(o.pos, f"unknown window '{o.window}'", did_you_mean(o.window, self.g.windows))
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
                self.expect(s.count, scope, NUM, "the number of repetitions")
            self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))
        elif t is N.While:
            self.expr(s.cond, scope)
            if isinstance(s.cond, N.Bool) and s.cond.value is False:
                self.report.warning(s.pos, "this loop never runs: its condition is false")
            self.block(s.body, Scope(scope.names, scope.loops + 1, scope.in_ability, scope.proc))
        elif t is N.Phrase:
            if len(s.words) == 1 and scope.names.get(s.words[0].value) == "effect":
                return  # the effect parameter of a keyword, spliced in
            found = self.match_phrase(s)
            if found is not None:
                kw, bindings = found
                self.error(s.pos, f"keyword '{kw.name}' is an ability, not an effect: it is printed on cards, "
                                  "not used in a procedure")
        elif t in (N.Log, N.Fail):
            self.check_labels(s.text, s.pos, scope)
        # Return, Pass: nothing to check

    def check_labels(self, text: str, pos: Position, scope: Scope) -> None:
        """Each {expression} inside a label must read and resolve."""
        import re
        from ..diagnostics import ContentError
        from .parser import parse
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
        ok = got == ANY or got == want or (want == NUM and got in _NUMERIC) or (want == COUNTER and got == COUNTER)
        if want == PLAYER and got in (PLAYER, ANY):
            ok = True
        if not ok:
            hint = None
            if want == ZONE and got == COMP:
                hint = "a zone is named, e.g. 'market' or 'you.hand'"
            if want == COUNTER and got == NUM:
                hint = "add to a counter, e.g. 'add 2 to you.resource'"
            self.error(e.pos, f"{what} must be {_TYPE_WORDS.get(want, want)}, not {_TYPE_WORDS.get(got, got)}", hint)
        return got

    def global_name(self, name: str):
        g = self.g
        if name in g.zones and g.zones[name].scope == ("game",):
            return ZONE
        if name in g.counters and g.counters[name].scope == ("game",):
            return COUNTER
        if fold(name) in g.classes:
            return CLASS
        return None

    def expr(self, e, scope: Scope) -> str:
        t = type(e)
        if t is N.Number:
            return NUM
        if t is N.String:
            return STR
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
            if obj in (NUM, BOOL, CLASS):
                self.error(e.pos, f"cannot index {_TYPE_WORDS[obj]}")
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
            for side in (e.left, e.right):
                got = self.expr(side, scope)
                if got not in _NUMERIC and not (e.op == "+" and got in (LIST, ZONE)):
                    self.error(side.pos, f"'{e.op}' works on numbers, not {_TYPE_WORDS.get(got, got)}")
            return NUM
        if t is N.Compare:
            left = self.expr(e.left, scope)
            if e.op in ("is", "isnot") and isinstance(e.right, N.Name) and e.right.name not in scope.names \
                    and e.right.name not in SPECIAL_NAMES:
                if fold(e.right.name) in self.g.classes:
                    return BOOL
                if self.global_name(e.right.name) is None:
                    self.error(e.right.pos, f"unknown class '{e.right.name}'",
                               did_you_mean(e.right.name, [v for _, v in self.g.classes.values()] + list(scope.names)))
                    return BOOL
            right = self.expr(e.right, scope)
            if e.op in ("<", "<=", ">", ">="):
                for side, got in ((e.left, left), (e.right, right)):
                    if got not in _NUMERIC:
                        self.error(side.pos, f"'{e.op}' compares numbers, not {_TYPE_WORDS.get(got, got)}")
            return BOOL
        if t is N.BoolOp:
            self.expr(e.left, scope)
            self.expr(e.right, scope)
            return BOOL
        if t is N.Not:
            self.expr(e.operand, scope)
            return BOOL
        if t is N.Neg:
            self.expect(e.operand, scope, NUM, "the operand of '-'")
            return NUM
        if t is N.Condition:
            return self.expr(e.expr, scope)
        return ANY

    def name(self, e: N.Name, scope: Scope) -> str:
        n = e.name
        if n in scope.names:
            return scope.names[n]
        if n in _SPECIAL_TYPES:
            return _SPECIAL_TYPES[n]
        found = self.global_name(n)
        if found:
            return found
        g = self.g
        if n in g.zones:
            self.error(e.pos, f"zone '{n}' is kept per {'/'.join(g.zones[n].scope)}: say whose",
                       f"e.g. 'you.{n}'" if "player" in g.zones[n].scope else f"e.g. 'x.{n}'")
            return ZONE
        if n in g.counters:
            self.error(e.pos, f"counter '{n}' is kept per {'/'.join(g.counters[n].scope)}: say whose",
                       f"e.g. 'you.{n}'" if "player" in g.counters[n].scope else f"e.g. 'x.{n}'")
            return COUNTER
        visible = list(scope.names) + list(_SPECIAL_TYPES) + [z for z, d in g.zones.items() if d.scope == ("game",)] \
            + [c for c, d in g.counters.items() if d.scope == ("game",)] + [v for _, v in g.classes.values()]
        self.error(e.pos, f"unknown name '{n}'", did_you_mean(n, visible))
        return ANY

    def attr(self, e: N.Attr, scope: Scope) -> str:
        if isinstance(e.obj, N.Name) and e.obj.name == "options" and "options" not in scope.names:
            if e.name not in self.g.options:
                self.error(e.pos, f"unknown option '{e.name}'", did_you_mean(e.name, self.g.options)
                           or ("options: " + ", ".join(self.g.options) if self.g.options else "the game declares no options"))
            return ANY
        if isinstance(e.obj, N.Name) and e.obj.name == "data" and "data" not in scope.names:
            if e.name not in self.g.data:
                self.error(e.pos, f"unknown data table '{e.name}'", did_you_mean(e.name, self.g.data))
            return ANY
        obj = self.expr(e.obj, scope)
        g = self.g
        n = e.name
        if n in g.zones:
            return ZONE
        if n in g.counters:
            return COUNTER_MAP if len(g.counters[n].scope) == 2 else COUNTER
        if n in g.attributes:
            return self.attr_types.get(n, ANY)
        if n in _PROPERTY_TYPES:
            return _PROPERTY_TYPES[n]
        if obj in ("options", "data"):
            return ANY
        if obj in (ANY, NODE) and any(n in node for b in g.boards for node in b.nodes.values()):
            return ANY
        candidates = list(g.zones) + list(g.counters) + list(g.attributes) + list(_PROPERTY_TYPES)
        pos = e.pos
        if pos.end_column is not None and pos.end_column - len(n) >= pos.column:
            pos = Position(pos.path, pos.line, pos.end_column - len(n), pos.end_column)  # the name, not the owner
        self.error(pos, f"unknown attribute '{n}'", did_you_mean(n, candidates))
        return ANY

    def call(self, e: N.Call, scope: Scope) -> str:
        b = FUNCTIONS.get(e.func)
        for a in e.args:
            self.expr(a, scope)
        if b is None and e.func in self.g.functions:
            f = self.g.functions[e.func]
            if len(e.args) != len(f.params):
                self.error(e.pos, f"{e.func}() takes {_n(len(f.params), 'argument')}, got {len(e.args)}",
                           f"{e.func}({', '.join(f.params)})")
            return ANY
        if b is None:
            self.error(e.pos, f"unknown function '{e.func}'", did_you_mean(e.func, list(FUNCTIONS) + list(self.g.functions)))
            return ANY
        n = len(e.args)
        if not b.min_args <= n <= b.max_args:
            want = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
            self.error(e.pos, f"{e.func}() takes {want} argument{'s' if b.max_args != 1 else ''}, got {n}")
        if e.func in ("card", "cards") and e.args and isinstance(e.args[0], N.String) \
                and fold(e.args[0].value) not in {fold(c.id) for c in self.g.cards}:
            self.error(e.args[0].pos, f"no card with id '{e.args[0].value}'",
                       did_you_mean(e.args[0].value, [c.id for c in self.g.cards]))
        if e.func == "option" and e.args and isinstance(e.args[0], N.String) and e.args[0].value not in self.g.options:
            self.error(e.args[0].pos, f"unknown option '{e.args[0].value}'", did_you_mean(e.args[0].value, self.g.options))
        return _FUNC_TYPES.get(e.func, ANY)


def _word_text(w) -> str:
    return "(...)" if w.kind == "expr" else str(w.value)


def _show(value) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'s' if k != 1 else ''}"


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def check_pack(defn: GameDef, report: Report):
    """Stage 4 over a pack: every error to `report`; returns what the checker found."""
    Checker(defn, report).check()
    return None
