"""Rules written as English prose: `English`, one method per kind of node.

Statements are written as card texts write them, in the imperative ("gain 2
resources", "choose a module m among your cards in play"); what another player
does takes their name ("q loses 1 resource"). Every phrase is taken from
`WORDS`, so that a language close to English in its grammar (French, say)
subclasses this one and changes its words and the few methods whose grammar
differs. The words of the game itself (its zones, counters, classes...) come
from its vocabulary (`vocabulary.Vocabulary`).
"""
from __future__ import annotations

import re

from ...names import fold
from .. import nodes as N
from ..texts import label_parts
from .renderer import UNBOUND, Renderer, Text
from .vocabulary import Noun, words_of

_NOT = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is": "isnot", "isnot": "is",
        "in": "notin", "notin": "in"}
_SPACES = re.compile(r"\s+")
_WORD = r"(?!(?:the|of|a|an|and|or|that|such|is|are|to|as|if|on|from|for)\b)[\w'’-]+"
_THE_OF_YOU = re.compile(rf"\bthe ((?:{_WORD} ){{0,3}}{_WORD}) of you\b")  # 'the hand of you': 'your hand'


class English(Renderer):
    """Rules as English prose."""

    lang = "en"
    WORDS = {
        "rule": "the rule “{0}”",
        "quoted": "“{0}”",
        "true": "true", "false": "false", "nothing": "nothing", "empty": "nothing",
        "the": "the {0}", "a": "a {0}", "an": "an {0}",
        "of": "{0} of {1}", "your": "your {0}", "yours": "yours",
        "and": "{0} and {1}", "or": "{0} or {1}", "either": "either {0} or {1}", "list": "{0} and {1}",
        "number_of": "the number of {0} of {1}", "number_on": "the number of {0} on {1}",
        "number_yours": "the number of your {0}", "number_keyed": "the number of {0} of {1} on {2}",
        "number_keyed_yours": "the number of your {0} on {1}",
        "as_many": "as many {0} as {1}", "per": "{0} for each {1}",
        "among": "{0} among {1}", "such_that": "{0} such that {1}",
        "some": "some {0}",
        "mapped": "{expr} for each {var} in {source}{where}", "where": " such that {0}",
        # comparisons
        "==": "{0} is {1}", "!=": "{0} is not {1}", "<": "{0} is less than {1}", "<=": "{0} is at most {1}",
        ">": "{0} is more than {1}", ">=": "{0} is at least {1}", "is": "{0} is {1}", "isnot": "{0} is not {1}",
        "in": "{0} is among {1}", "notin": "{0} is not among {1}",
        "exists": "{0} exists", "missing": "there is no {0}", "empty_of": "{0} is empty",
        "no_member": "there is no {0}",
        "not": "it is not so that {0}",
        # arithmetic
        "+": "{0} plus {1}", "-": "{0} minus {1}", "*": "{0} times {1}", "/": "{0} divided by {1}",
        "//": "{0} divided by {1}, rounded down", "%": "the remainder of {0} divided by {1}",
        "neg": "minus {0}", "entry": "the {1} entry of {0}", "option": "the option {0}", "data": "the data {0}",
        # statements: [what you do, what another player does]
        "move": "move {0} to {1}", "move_top": "put {0} on top of {1}", "move_bottom": "put {0} at the bottom of {1}",
        "move_all": "the cards of {0}",
        "put": "put {0} on {1}", "put_keyed": "put {0} of {1} on {2}",
        "take_off": "remove {0} from {1}", "take_off_keyed": "remove {0} of {1} from {2}",
        "give": ["take {0}", "give {0} to {who}"], "take_away": ["lose {0}", "take {0} from {who}"],
        "add_to": "add {0} to {1}", "subtract": "subtract {0} from {1}",
        "pay": ["pay {0}", "{who} pays {0}"],
        "gain": ["gain {0}", "{who} gains {0}"], "lose": ["lose {0}", "{who} loses {0}"],
        "score": ["score {0}", "{who} scores {0}"], "credited": "{0}, credited to {1}",
        "set": "set {0} to {1}", "becomes": "{0} becomes {1}", "let": "let {0} be {1}",
        "quantity_keyed": "{0} of {1} on {2}",
        "signal": "this counts as: {0}",
        "shuffle": "shuffle {0}", "tag": "{0} becomes {1}", "untag": "{0} is no longer {1}",
        "tap": "tap {0}", "untap": "untap {0}", "reveal": "reveal {0}", "win": "{0} wins the game",
        "exit": "stop “{0}”", "stop": "stop there", "stop_loop": "stop repeating",
        "next_turn": "go on with the next one", "do_nothing": "do nothing", "fail": "this cannot be done",
        "roll": "roll {0} {1}-sided dice, calling the result {2}",
        "choose": ["choose {0}", "{who} chooses {0}"], "may_choose": ["you may choose {0}", "{who} may choose {0}"],
        "secretly": "secretly {0}",
        "menu": ["choose one: {0}", "{who} chooses one: {0}"], "menu_or": "; or ",
        "option_label": "“{0}”: {1}", "option_if": "“{0}” (only if {2}): {1}",
        "option_each": "for each {3}, “{0}”: {1}", "option_each_if": "for each {3} (only if {2}), “{0}”: {1}",
        "actions": "use an action", "actions_during": "use an action of {0}",
        "decide": ["decide {0}: {1}", "{who} decides {0}: {1}"], "decide_or": "; else ",
        "prefer": "{0}", "prefer_if": "{0} if {1}",
        "use": ["use an action of {0}", "{who} uses an action of {0}"],
        "use_free": ["use an action of {0} without paying its costs",
                     "{who} uses an action of {0} without paying its costs"],
        "if": "if {0}, {1}", "elif": "otherwise, if {0}, {1}", "else": "otherwise, {0}", "branches": "; ",
        "for": "for each {0}: {1}", "repeat": "do this {0} times: {1}", "repeat_ever": "repeat: {0}",
        "while": "as long as {0}: {1}", "the_effect": "apply {0}",
        "then": ", then ", "sequence": "; ",
        # abilities
        "this_card": "this card", "when": "when {0}", "whenever": "whenever {0}", "if_clause": "{0}, if {1}",
        "optional": "you may {0}", "ability": "{0}, {1}",
        "during": "during {0}", "any_time": "at any time", "once": "{0}, once until {1}",
        "may": "{0}, you may {1}", "may_costs": "{0}, you may {1} to {2}", "costs": "{0} and {1}",
        "tap_self": "tap this card", "spend": "remove {0} from this card", "sacrifice": "sacrifice {0} you control",
        "printed": "{0}: {1}",
        # a card's printed attributes
        "yes": "yes", "no": "no", "attribute": "{0}: {1}", "attributes": "; ",
        # a game's names with no words of their own
        "function_0": "the {0}", "function_1": "the {0} of {1}", "function_n": "the {0} of {1}",
        "procedure_0": "{0}", "procedure_1": "{0} {1}", "procedure_n": "{0} ({1})",
    }

    # words -------------------------------------------------------------------
    def w(self, key: str, *args, **kwargs) -> str:
        return self.WORDS[key].format(*args, **kwargs)

    def act(self, key: str, who, *args) -> str:
        """A statement someone does: the imperative when it is the player acting (`you`, or no one
        named), else the verb of the other player."""
        mine, theirs = self.WORDS[key]
        if who is None or self.is_you(who):
            return mine.format(*args)
        return theirs.format(*args, who=self.node(who))

    def a(self, noun: Noun) -> str:
        """A noun with its indefinite article."""
        return self.w("an" if noun.one[:1].lower() in "aeiou" else "a", noun.one)

    def the(self, noun: Noun, many: bool = False) -> str:
        return self.w("the", noun.many if many else noun.one)

    def amount(self, n, noun: Noun) -> str:
        """`n` things named by `noun`: '1 resource', '3 resources', 'k cubes', 'as many PP as ...'."""
        if isinstance(n, N.Number):
            return f"{n.value} {noun.one if n.value == 1 else noun.many}"
        if isinstance(n, N.Name) and (n.name in self.locals or n.name in self.params):
            return f"{self.node(n)} {noun.many}"
        if isinstance(n, N.BinOp) and n.op == "*" and isinstance(n.right, N.Call) and n.right.func == "count" \
                and len(n.right.args) == 1 and isinstance(n.right.args[0], N.Each):
            each = n.right.args[0]
            return self.w("per", self.amount(n.left, noun), self.members(each.var, each.source, each.where)[2])
        return self.w("as_many", noun.many, self.node(n))

    def joined(self, items: list, key: str = "list") -> str:
        items = [i for i in items if i]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return self.w(key, ", ".join(items[:-1]), items[-1])

    def sentence(self, text: str) -> str:
        text = _SPACES.sub(" ", self.finish(text)).strip()
        if not text:
            return text
        text = text[0].upper() + text[1:]
        return text if text[-1] in ".!?" else text + "."

    def finish(self, text: str) -> str:
        """The last touches of a written text: 'the hand of you' is 'your hand'."""
        return _THE_OF_YOU.sub(lambda m: self.w("your", m.group(1)), text)

    def of(self, owner, noun: Noun) -> str:
        """What `owner` has: 'your hand', 'the crews of m'."""
        if self.is_you(owner):
            return self.w("your", noun.one)
        return self.w("of", self.the(noun), self.node(owner))

    # expressions -------------------------------------------------------------
    def number(self, e) -> str:
        return str(e.value)

    def string(self, e) -> str:
        if e.value in self.defn.counters:
            return self.vocab.noun(e.value, "counter").many
        return self.w("quoted", e.value)

    def boolean(self, e) -> str:
        return self.w("true" if e.value else "false")

    def nothing(self, e) -> str:
        return self.w("nothing")

    def name(self, e) -> str:
        n = e.name
        if n in self.params:
            return self.parameter(n)
        if n in self.locals:
            return n
        special = self.builtin("special", n, None)
        if special is not None:
            return special
        d = self.defn
        if n in self.event_args:
            return self.the(self.vocab.noun(n, "argument"))
        if n in d.zones:
            return self.the(self.vocab.noun(n, "zone"))
        if n in d.counters:
            return self.the(self.vocab.noun(n, "counter"))
        if fold(n) in d.classes:
            return self.vocab.class_noun(n).one
        return n

    def parameter(self, name: str) -> str:
        kind, value = self.params[name]
        if value is UNBOUND:
            return self.w("the_effect", name) if kind == "effect" else name
        if kind == "effect":
            return self.block(value)
        if kind == "class":
            return self.vocab.class_noun(str(value)).one
        if isinstance(value, N.Node):
            return self.node(value)
        return str(value)

    def attribute(self, e) -> str:
        d, name = self.defn, e.name
        if isinstance(e.obj, N.Name) and e.obj.name in ("options", "data") and e.obj.name not in self.locals:
            return self.w("option" if e.obj.name == "options" else "data", name)
        if name in d.zones:
            return self.of(e.obj, self.vocab.noun(name, "zone"))
        if name in d.counters:
            return self.counter_value(name, e.obj, None)
        if name in d.attributes:
            return self.of(e.obj, self.vocab.noun(name, "attribute"))
        phrase = self.builtin("property", name, None)
        if phrase is not None:
            return phrase.format(self.node(e.obj))
        return self.of(e.obj, Noun(words_of(name), words_of(name)))

    def counter_value(self, name: str, holder, key) -> str:
        noun = self.vocab.noun(name, "counter")
        if holder is None:
            return self.the(noun)
        if key is not None:
            if self.is_you(key):
                return self.w("number_keyed_yours", noun.many, self.node(holder))
            return self.w("number_keyed", noun.many, self.node(key), self.node(holder))
        if self.is_you(holder):
            return self.w("number_yours", noun.many)
        scope = self.defn.counters[name].scope
        return self.w("number_of" if scope[:1] in (("player",), ("team",)) else "number_on", noun.many,
                      self.node(holder))

    def index(self, e) -> str:
        counter = self.counter_of(e)
        if counter is not None:
            return self.counter_value(*counter)
        return self.w("entry", self.node(e.obj), self.node(e.key))

    def call(self, e) -> str:
        args = e.args
        if e.func in self.defn.functions:
            return self.game_call("function", e.func, args)
        if len(args) == 1 and isinstance(args[0], N.Mapped) and e.func in ("any", "first") \
                and self.builtin("function", e.func, "each") is not None:
            # some E for each x in S where C: some x in S where C and E
            m = args[0]
            cond = m.expr if m.where is None else N.BoolOp(m.pos, "and", m.where, m.expr)
            return self.call(N.Call(e.pos, e.func, [N.Each(m.pos, m.var, m.source, cond)]))
        if len(args) == 1 and self.holds_cards(args[0]):
            phrase = self.builtin("function", e.func, "zone")
            if phrase is not None:
                return phrase.format(self.node(args[0]))
        if len(args) == 1 and isinstance(args[0], N.Mapped):
            phrase = self.builtin("function", e.func, "mapped")
            if phrase is not None:
                m = args[0]
                return phrase.format(**self.mapped_parts(m))
        if len(args) == 1 and isinstance(args[0], N.Each):
            phrase = self.builtin("function", e.func, "each")
            if phrase is not None:
                return phrase.format(self.node(args[0]))
        phrase = self.builtin("function", e.func, len(args))
        if phrase is None:
            return self.fallback(e)
        return phrase.format(*[self.node(a) for a in args])

    def game_call(self, kind: str, name: str, args: list) -> str:
        """A call of a game's function or procedure: its vocabulary's phrase, or its identifier."""
        written = [self.node(a) for a in args]
        phrase = self.vocab.template(name, kind)
        if phrase is not None:
            return phrase.format(*written)
        count = "0" if not args else "1" if len(args) == 1 else "n"
        return self.w(f"{kind}_{count}", words_of(name), ", ".join(written))

    def listing(self, e) -> str:
        if len(e.items) == 1 and isinstance(e.items[0], (N.Each, N.Mapped)):
            return self.node(e.items[0])
        if not e.items:
            return self.w("empty")
        return self.joined([self.node(i) for i in e.items])

    def split_class(self, var: str, where):
        """The class `where` first requires of `var` (`var is K and ...`) and the rest of it."""
        parts = self.conjuncts(where)
        for i, p in enumerate(parts):
            if isinstance(p, N.Compare) and p.op == "is" and isinstance(p.left, N.Name) and p.left.name == var \
                    and self.is_class(p.right):
                return self.class_noun(p.right.name), parts[:i] + parts[i + 1:]
        return None, parts

    def conjuncts(self, e) -> list:
        if e is None:
            return []
        if isinstance(e, N.BoolOp) and e.op == "and":
            return self.conjuncts(e.left) + self.conjuncts(e.right)
        return [e]

    def uses(self, var: str, nodes) -> bool:
        return any(isinstance(n, N.Name) and n.name == var for x in nodes for n in N.walk(x))

    def members(self, var: str, source, where, body=(), named: bool = False) -> tuple:
        """The members `each var in source where ...` names: as many ('modules m among your cards
        in play such that ...'), as one ('a module m among ...') and one at a time ('module m
        among ...'). The name `var` is said when something reads it (or when `named`)."""
        noun, rest = self.split_class(var, where)
        src = self.node(source)
        cond = self.joined([self.node(r) for r in rest], "and")
        named = named or self.uses(var, list(rest) + list(body))
        if noun is not None:
            many = self.w("among", f"{noun.many} {var}" if named else noun.many, src)
            one = self.w("among", f"{self.a(noun)} {var}" if named else self.a(noun), src)
            each = self.w("among", f"{noun.one} {var}" if named else noun.one, src)
        else:
            many = each = self.w("among", var, src)
            one = self.w("some", many)
        if cond:
            many = self.such_that(many, cond, noun, True)
            one, each = (self.such_that(x, cond, noun, False) for x in (one, each))
        return many, one, each

    def such_that(self, text: str, cond: str, noun: Noun | None, many: bool) -> str:
        """Members said with the condition they meet ('modules m such that ...')."""
        return self.w("such_that", text, cond)

    def each(self, e) -> str:
        many, one, _ = self.members(e.var, e.source, e.where)
        return Text(many, one)

    def mapped_parts(self, m) -> dict:
        return {"expr": self.node(m.expr), "var": m.var, "source": self.node(m.source),
                "where": self.w("where", self.node(m.where)) if m.where is not None else ""}

    def mapped(self, e) -> str:
        return self.w("mapped", **self.mapped_parts(e))

    def arithmetic(self, e) -> str:
        return self.w(e.op, self.node(e.left), self.node(e.right))

    def comparison(self, e, op: str | None = None) -> str:
        op = op or e.op
        left, right = e.left, e.right
        if op in ("is", "isnot") and self.is_class(right):
            return self.w(op, self.node(left), self.a(self.class_noun(right.name)))
        if isinstance(right, N.NoneLit) and op in ("==", "!="):
            return self.w("missing" if op == "==" else "exists", self.node(left))
        if isinstance(left, N.Call) and left.func == "count" and len(left.args) == 1 \
                and isinstance(right, N.Number) and right.value == 0 and op in ("==", ">", "!=", "<="):
            if op in (">", "!="):
                return self.call(N.Call(left.pos, "any", left.args))
            arg = left.args[0]
            if isinstance(arg, N.Each):
                return self.w("no_member", format(self.node(arg), "some"))
            return self.w("empty_of", self.node(arg))
        return self.w(op, self.node(left), self.node(right))

    def logic(self, e) -> str:
        sides = []
        for side in (e.left, e.right):
            text = self.node(side)
            if isinstance(side, N.BoolOp) and side.op != e.op and side.op == "or":
                text = self.w("either", self.node(side.left), self.node(side.right))
            sides.append(text)
        return self.w(e.op, *sides)

    def negation(self, e) -> str:
        inner = e.operand
        if isinstance(inner, N.Compare) and inner.op in _NOT:
            return self.comparison(inner, _NOT[inner.op])
        return self.w("not", self.node(inner))

    def minus(self, e) -> str:
        return self.w("neg", self.node(e.operand))

    # statements --------------------------------------------------------------
    def block(self, body) -> str:
        self.depth += 1
        try:
            parts = [self.node(s) for s in body or []]
        finally:
            self.depth -= 1
        parts = [p for p in parts if p]
        return self.WORDS["sequence" if self.depth == 0 else "then"].join(parts)

    def holds_cards(self, e) -> bool:
        """Whether `e` names a zone (so that moving it moves the cards in it)."""
        if isinstance(e, N.Attr):
            return e.name in self.defn.zones
        return isinstance(e, N.Name) and e.name in self.defn.zones and e.name not in self.locals

    def move(self, e) -> str:
        what = self.w("move_all", self.node(e.what)) if self.holds_cards(e.what) else self.node(e.what)
        key = {"top": "move_top", "bottom": "move_bottom"}.get(e.end or "", "move")
        return self.w(key, what, self.node(e.to))

    def add(self, e) -> str:
        return self.change(e, "put", "put_keyed", "give", "add_to")

    def remove(self, e) -> str:
        return self.change(e, "take_off", "take_off_keyed", "take_away", "subtract")

    def change(self, e, on: str, keyed: str, player: str, plain: str) -> str:
        """`add N to X` or `remove N from X`: tokens put on a card or taken off it, a player's
        counter, a game's counter, or any number."""
        counter = self.counter_of(e.target)
        if counter is None:
            return self.w(plain, self.node(e.amount), self.node(e.target))
        name, holder, key = counter
        noun = self.vocab.noun(name, "counter")
        if holder is None:
            return self.w(plain, self.node(e.amount), self.the(noun))
        n = self.amount(e.amount, noun)
        if key is not None:
            return self.w(keyed, n, self.w("yours") if self.is_you(key) else self.node(key), self.node(holder))
        if self.defn.counters[name].scope[:1] in (("player",), ("team",)):
            return self.act(player, holder, n)
        return self.w(on, n, self.node(holder))

    def pay(self, e) -> str:
        counter = self.counter_of(e.target)
        if counter is None:
            return self.act("pay", None, self.node(e.amount))
        name, holder, _ = counter
        return self.act("pay", holder, self.amount(e.amount, self.vocab.noun(name, "counter")))

    def gain(self, e) -> str:
        return self.act("gain", e.owner, self.amount(e.amount, self.vocab.noun(e.counter, "counter")))

    def lose(self, e) -> str:
        return self.act("lose", e.owner, self.amount(e.amount, self.vocab.noun(e.counter, "counter")))

    def score(self, e) -> str:
        noun = self.vocab.noun(self.defn.score, "counter") if self.defn.score else Noun("point", "points")
        text = self.act("score", e.owner, self.amount(e.amount, noun))
        if e.source is not None:
            text = self.w("credited", text, self.node(e.source))
        return text

    def assign(self, e) -> str:
        counter = self.counter_of(e.target)
        if counter is not None:
            name, holder, key = counter
            noun = self.vocab.noun(name, "counter")
            if holder is None:
                quantity = self.the(noun)
            elif key is not None:
                quantity = self.w("quantity_keyed", self.the(noun), self.node(key), self.node(holder))
            elif self.is_you(holder):
                quantity = self.w("your", noun.one)
            else:
                quantity = self.w("of", self.the(noun), self.node(holder))
            return self.w("set", quantity, self.node(e.value))
        if isinstance(e.target, N.Name):
            return self.w("becomes", self.node(e.target), self.node(e.value))
        return self.w("set", self.node(e.target), self.node(e.value))

    def let(self, e) -> str:
        return self.w("let", e.name, self.node(e.value))

    def event_phrase(self, event: str, args: list) -> str:
        phrase = self.vocab.template(event, "event")
        if phrase is None:
            return words_of(event)
        return phrase.format(*args)

    def signal(self, e) -> str:
        return self.w("signal", self.event_phrase(e.event, [self.node(a) for a in e.args]))

    def procedure_call(self, e) -> str:
        return self.game_call("procedure", e.proc, e.args)

    def shuffle(self, e) -> str:
        return self.w("shuffle", self.node(e.zone))

    def tag(self, e) -> str:
        return self.w("tag" if e.on else "untag", self.node(e.what), self.a(self.class_noun(e.tag)))

    def tap(self, e) -> str:
        return self.w("tap" if e.on else "untap", self.node(e.what))

    def reveal(self, e) -> str:
        return self.w("reveal", self.node(e.what))

    def log(self, e) -> str:
        return ""  # what the game tells the players, not a rule

    def win(self, e) -> str:
        return self.w("win", self.node(e.who))

    def exit(self, e) -> str:
        return self.w("exit", words_of(e.proc))

    def stop(self, e) -> str:
        return self.w("stop")

    def stop_loop(self, e) -> str:
        return self.w("stop_loop")

    def next_turn_of_loop(self, e) -> str:
        return self.w("next_turn")

    def do_nothing(self, e) -> str:
        return self.w("do_nothing")

    def fail(self, e) -> str:
        return self.w("fail")

    def roll(self, e) -> str:
        return self.w("roll", self.node(e.count), self.node(e.sides) if e.sides is not None else "6", e.name)

    def choose(self, e) -> str:
        _, one, each = self.members(e.var, e.source, e.where, named=True)
        noun, _ = self.split_class(e.var, e.where)
        text = self.act("may_choose" if e.optional else "choose", e.chooser, one if noun is not None else each)
        return self.w("secretly", text) if e.secret else text

    def menu(self, e) -> str:
        options = [self.node(o) for o in e.options]
        text = self.act("menu", e.chooser, self.WORDS["menu_or"].join(options))
        return self.w("secretly", text) if e.secret else text

    def label(self, text: str, pos) -> str:
        """A label as a player reads it: its {expressions} written too."""
        out = []
        for part in label_parts(str(text), pos):
            if isinstance(part, str):
                out.append(part)
            elif part.tree is not None:
                out.append(self.node(part.tree.expr))
            else:
                out.append(part.source)
        return "".join(out)

    def menu_option(self, e) -> str:
        body = self.block(e.body)
        cond = self.node(e.cond) if e.cond is not None else None
        if e.var is not None:
            _, _, each = self.members(e.var, e.source, None, named=True)
            return self.w("option_each_if" if cond else "option_each", self.label(e.label, e.pos), body, cond, each)
        return self.w("option_if" if cond else "option_label", self.label(e.label, e.pos), body, cond)

    def actions_option(self, e) -> str:
        return self.w("actions_during", self.vocab.noun(e.window, "window").one) if e.window else self.w("actions")

    def decide(self, e) -> str:
        rules = self.WORDS["decide_or"].join(self.node(r) for r in e.rules)
        return self.act("decide", e.chooser, e.var, rules)

    def prefer(self, e) -> str:
        if e.cond is None:
            return self.w("prefer", self.node(e.value))
        return self.w("prefer_if", self.node(e.value), self.node(e.cond))

    def use(self, e) -> str:
        return self.act("use_free" if e.free else "use", e.chooser, self.node(e.card))

    def branch(self, e) -> str:
        parts = []
        for i, (cond, body) in enumerate(e.branches):
            parts.append(self.w("if" if i == 0 else "elif", self.node(cond), self.block(body)))
        if e.orelse:
            parts.append(self.w("else", self.block(e.orelse)))
        return self.WORDS["branches"].join(parts)

    def loop(self, e) -> str:
        _, _, each = self.members(e.var, e.source, e.where, named=True)
        return self.w("for", each, self.block(e.body))

    def repeat(self, e) -> str:
        if e.count is None:
            return self.w("repeat_ever", self.block(e.body))
        return self.w("repeat", self.node(e.count), self.block(e.body))

    def while_loop(self, e) -> str:
        return self.w("while", self.node(e.cond), self.block(e.body))

    def phrase(self, e) -> str:
        """A phrase in a body: the effect a keyword's parameter stands for."""
        words = e.words
        if len(words) == 1 and words[0].kind == "name" and words[0].value in self.params:
            return self.parameter(words[0].value)
        return self.fallback(e)

    # abilities ---------------------------------------------------------------
    def trigger(self, e) -> str:
        args = self.defn.events.get(e.event, [])
        saved = self.event_args
        self.event_args = set(args) - self.locals
        try:
            if e.broadcast:
                written = [self.a(self.vocab.noun(a, "argument")) for a in args]
            else:
                written = [self.w("this_card")] + [self.the(self.vocab.noun(a, "argument")) for a in args[1:]]
            when = self.w("whenever" if e.broadcast else "when", self.event_phrase(e.event, written))
            if e.cond is not None:
                when = self.w("if_clause", when, self.node(e.cond))
            body = self.block(e.body)
            if e.optional:
                body = self.w("optional", body)
            return self.sentence(self.w("ability", when, body))
        finally:
            self.event_args = saved

    def windows(self, names: list) -> str:
        if not names:
            return self.w("any_time")
        return self.w("during", self.joined([self.vocab.noun(w, "window").one for w in names], "or"))

    def action(self, e) -> str:
        when = self.windows(e.windows)
        if e.limit:
            when = self.w("once", when, self.event_phrase(e.limit, [self.w("this_card")]))
        if e.cond is not None:
            when = self.w("if_clause", when, self.node(e.cond))
        body = self.block(e.body)
        if e.costs:
            costs = self.joined([self.node(c) for c in e.costs], "costs")
            return self.sentence(self.w("may_costs", when, costs, body))
        return self.sentence(self.w("may", when, body))

    def cost(self, e) -> str:
        if e.kind == "tap":
            return self.w("tap_self")
        if e.kind == "sacrifice":
            return self.w("sacrifice", self.a(self.class_noun(e.name)))
        n = self.amount(e.amount, self.vocab.noun(e.name, "counter"))
        return self.w("spend", n) if e.kind == "spend" else self.act("pay", None, n)

    def printed(self, e) -> str:
        return self.fallback(e)  # a printed keyword is written through its keyword (see cards.Prose)

    def procedure(self, e) -> str:
        return self.sentence(self.block(e.body))

    def condition(self, e) -> str:
        return self.node(e.expr)
