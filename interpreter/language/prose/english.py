"""Rules written as English prose: `English`, one method per kind of node.

Statements are written as card texts write them, in the imperative ("gain 2
resources", "choose a building m among your cards in play"); what another player
does takes their name ("q loses 1 resource"). Every phrase is taken from
`WORDS`, so that a language close to English in its grammar (French, say)
subclasses this one and changes its words and the few methods whose grammar
differs. The words of the game itself (its zones, counters, classes...) come
from its vocabulary (`vocabulary.Vocabulary`).
"""
from __future__ import annotations

import re

from ...names import fold
from ...scopes import OwnerKind
from .. import nodes as N
from ..texts import label_parts
from ..types import COMPONENT, LIST, NODE, NUMBER, PLAYER
from .naming import Naming, in_loop, uses_of
from .renderer import UNBOUND, Renderer, Text
from .vocabulary import Noun, plural, words_of

_NOT = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is": "isnot", "isnot": "is",
        "in": "notin", "notin": "in"}
_SPACES = re.compile(r"\s+")
_NEW_SENTENCE = re.compile(r"([.!?] )(\w)")
_WORD = r"(?!(?:the|of|a|an|and|or|that|such|is|are|to|as|if|on|from|for)\b)[\w'’-]+"
_THE_OF_YOU = re.compile(rf"\bthe ((?:{_WORD} ){{0,3}}{_WORD}) of you\b")  # 'the hand of you': 'your hand'
_THE_OF_IT = re.compile(r"\bthe ((?:[\w-]+ ){0,2}?[\w-]+) of it\b")  # 'the controller of it': 'its controller'


class English(Naming, Renderer):
    """Rules as English prose."""

    lang = "en"
    WORDS = {
        "rule": "the rule “{0}”",
        "quoted": "“{0}”",
        "true": "true", "false": "false", "nothing": "nothing", "empty": "nothing",
        "the": "the {0}", "a": "a {0}", "an": "an {0}",
        "of": "{0} of {1}", "your": "your {0}", "yours": "yours",
        "and": "{0} and {1}", "and_clauses": "{0} and {1}", "or": "{0} or {1}", "either": "either {0} or {1}", "list": "{0} and {1}",
        "number_of": "the number of {0} of {1}", "number_on": "the number of {0} on {1}",
        "number_yours": "the number of your {0}", "number_keyed": "the number of {0} of {1} on {2}",
        "number_keyed_yours": "the number of your {0} on {1}",
        "as_many": "as many {0} as {1}", "amount_if": "{1} if {0}, else {2}", "up_to": "{0}, up to {1}", "per": "{0} for each {1}",
        "among": "{0} among {1}", "among_one": "{0} in {1}", "such_that": "{0} such that {1}",
        "some": "some {0}",
        # the values an ability binds, named by their nouns (see naming.py)
        "player": ["player", "players"], "opponent": ["opponent", "opponents"], "card": ["card", "cards"],
        "node": ["space", "spaces"], "number": ["number", "numbers"], "thing": ["item", "items"],
        "result": ["result", "results"], "place": ["place", "places"], "selection": ["selection", "selections"],
        "that": "that {0}", "it": "it", "it_person": "that {0}", "the_nth": "the {0} {1}", "another": "another {0}", "a_nth": "a {0} {1}",
        "ordinals": ["first", "second", "third", "fourth", "fifth"],
        "that_many": "that many {0}", "such": "there is such {0}", "no_such": "there is no such {1}",
        "or_fail": "{0} (if there is none, this cannot be done)", "per_of": "{0} for each of {1}", "per_in": "{0} for each {1} in {2}",
        "has_a": "{0} has {1}", "some_have": "you have {0}", "some_there": "there are {0}",
        "none_have": "you have no {0}", "none_there": "there are no {0}",
        "some_there_in": "there are {0} in {1}", "none_there_in": "there are no {0} in {1}", "more_than_them": "you have more {0} than {1}",
        "every_one": "each {0}", "first_one": "the first {0}", "last_one": "the last {0}", "who_has": "who has {0}", "who_have": "who have {0}", "has_no": "{0} has no {1}", "one_of": "one of {0}", "each_of": "of {0}", "controlled": "{0} is controlled by a player",
        "not_controlled": "{0} is controlled by no player", "other_than": "other than {0}",
        "with": "{0} with {1}", "count_in": "{0} in {1}", "empty_in": "no {0} in {1}",
        # quantities: how many members meet a condition, how much a counter holds
        "there_is": "there is {0}", "there_are": "there are {0}",
        "at_least": "at least {0}", "more_than": "more than {0}", "at_most": "at most {0}",
        "fewer_than": "fewer than {0}", "exactly": "exactly {0}",
        "some_of": "{0}", "none_of": "no {1}",
        "has": ["you have {0}", "{who} has {0}"], "has_on": ["you have {0} on {1}", "{who} has {0} on {1}"],
        "has_none": ["you have {0}", "{who} has {0}"], "has_on_none": ["you have {0} on {1}", "{who} has {0} on {1}"],
        "on_it": "there are {0} on {1}", "on_it_one": "there is {0} on {1}", "on_it_none": "there are {0} on {1}",
        "empty_of_many": "{0} are empty", "not_empty": "{0} is not empty", "not_empty_many": "{0} are not empty",
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
        "move": "move {0} to {1}", "move_into": "move {0} {2} {1}", "move_top": "put {0} on top of {1}", "move_bottom": "put {0} at the bottom of {1}",
        "move_all": "the cards of {0}",
        "put": "put {0} on {1}", "put_keyed": "put {0} of {1} on {2}", "of_yours": None,
        "put_keyed_yours": "put {0} on {1}", "take_off_keyed_yours": "remove {0} from {1}",
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
        "roll": "roll {0} {1}-sided dice",
        "choose": ["choose {0}", "{who} chooses {0}"], "may_choose": ["you may choose {0}", "{who} may choose {0}"],
        "secretly": "secretly {0}",
        "menu": ["choose one: {0}", "{who} chooses one: {0}"], "menu_or": "; or ",
        "option_label": "“{0}”: {1}", "option_only": "as it says", "option_if": "“{0}” (only if {2}): {1}",
        "option_each": "for each {3}, “{0}”: {1}", "option_each_if": "for each {3} (only if {2}), “{0}”: {1}",
        "actions": "use an action", "actions_during": "use an action of {0}",
        "decide": ["decide {0}: {1}", "{who} decides {0}: {1}"], "decide_or": "; else ",
        "prefer": "{0}", "prefer_if": "{0} if {1}",
        "use": ["use an action of {0}", "{who} uses an action of {0}"],
        "use_free": ["use an action of {0} without paying its costs",
                     "{who} uses an action of {0} without paying its costs"],
        "if": "if {0}, {1}", "elif": "otherwise, if {0}, {1}", "else": "otherwise, {0}", "branches": "; ",
        "for": "for each {0}: {1}", "repeat": "do this {0} times: {1}", "repeat_1": "do this once: {0}", "repeat_2": "do this twice: {0}", "repeat_ever": "repeat: {0}",
        "while": "as long as {0}: {1}", "the_effect": "apply {0}",
        "then": ", then ", "sequence": ". ",
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
        "event_0": None, "event_n": None,  # an event without words: its name's words
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
        """`n` things named by `noun`: '1 resource', '3 resources', 'k tokens', 'as many points as ...'."""
        if isinstance(n, N.Name) and n.name in self.params and isinstance(self.params[n.name][1], N.Number):
            n = self.params[n.name][1]  # a keyword's number, as the card prints it
        if isinstance(n, N.Name) and n.name in self.params and isinstance(self.params[n.name][1], int) \
                and not isinstance(self.params[n.name][1], bool):
            n = N.Number(n.pos, self.params[n.name][1])  # a keyword's number, as the card prints it
        if isinstance(n, N.Number):
            return f"{n.value} {noun.one if n.value == 1 else noun.many}"
        if isinstance(n, N.Name) and n.name in self.inline:
            return self.amount(self.inline[n.name], noun)
        if isinstance(n, N.Name) and self.local(n.name) is not None and self.local(n.name).number:
            return self.w("that_many", noun.many)
        if isinstance(n, N.Name) and (n.name in self.locals or n.name in self.params):
            return f"{self.node(n)} {noun.many}"
        if isinstance(n, N.BinOp) and n.op == "*" and isinstance(n.right, N.Call) and n.right.func == "count" \
                and len(n.right.args) == 1 and isinstance(n.right.args[0], N.Each):
            each = n.right.args[0]
            with self.scope():
                return self.w("per", self.amount(n.left, noun), self.members(each.var, each.source, each.where)[2])
        if isinstance(n, N.BinOp) and n.op == "*" and isinstance(n.left, N.Number) and n.left.value == 1 \
                and not isinstance(n.right, N.Call):
            return self.amount(n.right, noun)
        if isinstance(n, N.Call) and n.func == "select" and len(n.args) == 3:  # 2 resources if ..., else 1
            test, yes, no = n.args
            return self.w("amount_if", self.node(test), self.amount(yes, noun), self.amount(no, noun))
        if isinstance(n, N.Call) and n.func == "min" and len(n.args) == 2 \
                and sum(isinstance(a, N.Number) for a in n.args) == 1:  # 1 coin per Farm, up to 3
            most, other = n.args if isinstance(n.args[0], N.Number) else n.args[::-1]
            return self.w("up_to", self.amount(other, noun), most.value)
        if isinstance(n, N.Call) and n.func == "count" and len(n.args) == 1:  # 1 token for each tile ...
            return self.amount(N.BinOp(n.pos, "*", N.Number(n.pos, 1), n), noun)
        if isinstance(n, N.BinOp) and n.op == "*" and isinstance(n.right, N.Call) and n.right.func == "count" \
                and len(n.right.args) == 1 and not isinstance(n.right.args[0], (N.Each, N.Mapped)):
            source = n.right.args[0]
            member = self.element_noun(source)[0]
            if member is not None and not self.holds_cards(source):
                return self.gendered("per_of", member, self.amount(n.left, noun), self.node(source))
            if self.holds_cards(source):
                return self.w("per_in", self.amount(n.left, noun), self.member_noun(source.name).one,
                              self.node(source))
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
        text = _NEW_SENTENCE.sub(lambda m: m.group(1) + m.group(2).upper(), text[0].upper() + text[1:])
        return text if text[-1] in ".!?" else text + "."

    def finish(self, text: str) -> str:
        """The last touches of a written text: 'the hand of you' is 'your hand'."""
        text = _THE_OF_YOU.sub(lambda m: self.w("your", m.group(1)), text)
        return _THE_OF_IT.sub(r"its \1", text)

    def of(self, owner, noun: Noun) -> str:
        """What `owner` has: 'your hand', 'the tenants of m'."""
        if self.is_you(owner):
            return self.w("your", noun.one)
        return self.w("of", self.the(noun), self.node(owner))

    # expressions -------------------------------------------------------------
    def visit_Number(self, e) -> str:
        return str(e.value)

    def visit_Bool(self, e) -> str:
        return self.w("true" if e.value else "false")

    def visit_NoneLit(self, e) -> str:
        return self.w("nothing")

    def visit_Name(self, e) -> str:
        n = e.name
        if n in self.params:
            return self.parameter(n)
        if n in self.inline:
            return self.node(self.inline[n])
        loc = self.local(n)
        if loc is not None:
            return self.ref(loc)
        if n in self.locals:  # bound where prose does not name it ('decide x'): 'that one'
            return self.ref(self.bind(n, self.fallback_noun()))
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

    def visit_Attr(self, e) -> str:
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
        return self.w("number_of" if scope.kind in (OwnerKind.PLAYER, OwnerKind.TEAM) else "number_on", noun.many,
                      self.node(holder))

    def visit_Index(self, e) -> str:
        counter = self.counter_of(e)
        if counter is not None:
            return self.counter_value(*counter)
        return self.w("entry", self.node(e.obj), self.node(e.key))

    def visit_Call(self, e) -> str:
        return self.said_of(e.args, self.called(e))

    def called(self, e) -> str:
        """A call: a game function's phrase from its vocabulary, a built-in's from its record."""
        args = e.args
        if e.func in self.defn.functions:
            return self.game_call("function", e.func, args)
        if len(args) == 1 and isinstance(args[0], N.Mapped) and e.func in ("any", "first") \
                and self.builtin("function", e.func, "each") is not None:
            # some E for each x in S where C: some x in S where C and E
            m = args[0]
            cond = m.expr if m.where is None else N.BoolOp(m.pos, "and", m.where, m.expr)
            return self.visit_Call(N.Call(e.pos, e.func, [N.Each(m.pos, m.var, m.source, cond)]))
        if e.func == "any" and len(args) == 1 and not isinstance(args[0], (N.Each, N.Mapped)):
            return self.agreeing("not_empty", args[0])
        if len(args) == 1 and self.holds_cards(args[0]):
            phrase = self.builtin("function", e.func, "zone")
            if phrase is not None:  # {1}: what the zone holds, in the plural
                return phrase.format(self.node(args[0]), self.member_noun(args[0].name).many)
        if len(args) == 1 and isinstance(args[0], N.Mapped):
            phrase = self.builtin("function", e.func, "mapped")
            if phrase is not None:
                with self.scope():
                    parts = self.mapped_parts(args[0])
                    loc = self.local(args[0].var)
                    if e.func == "all" and parts["whole"] and not parts["where"] and loc is not None:
                        ref, expr = self.finish(self.ref(loc)), self.finish(parts["expr"])
                        if len(re.findall(rf"(?<!\w){re.escape(ref)}(?!\w)", expr)) == 1:  # 'more tiles than each opponent'
                            return expr.replace(ref, self.gendered("every_one", loc.noun, loc.noun.one))
                    return self.said_mapped(phrase, parts)
        each = args[0] if len(args) == 1 else None
        if isinstance(each, N.ListLit) and len(each.items) == 1:  # `last([each x in S where C])`
            each = each.items[0]
        if isinstance(each, N.Each) and e.func in ("first", "last"):
            # the member one at a time: 'the first farmer among the pile', not 'the first of farmers
            # among the pile'; in a language with genders, 'la première carte'
            with self.scope():
                one_at_a_time = self.members(each.var, each.source, each.where)[2]
                noun = self.local(each.var).noun
            return self.gendered(f"{e.func}_one", noun, one_at_a_time)
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

    def visit_ListLit(self, e) -> str:
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

    def members(self, var: str, source, where, body=(), named: bool = False, quantity: str | None = None) -> tuple:
        """The members `each var in source where ...` names, `var` bound to their noun (the caller
        keeps it in a scope): as many ('buildings among your cards in play such that ...', or with
        `quantity`, 'at least 2 districts such that ...'), as one ('a building among ...') and one at a
        time ('building among ...'). The source is not said when the noun says it ('a player')."""
        noun, rest = self.split_class(var, where)
        whole = False
        if noun is None:
            noun, whole = self.element_noun(source)
        if noun is None:
            noun = self.type_noun(var, [where, *body]) or self.fallback_noun()
        src = self.node(source)
        loc = self.bind(var, noun)
        other, rest = self.differs(loc, rest)
        loc.introducing = True
        try:
            said = [self.node(r) for r in rest]
        finally:
            loc.introducing = False
        cond = self.joined(said, "and_clauses")  # French: « telle que A et que B »

        member = self.element_noun(source)[0] or Noun("", "")
        same = not whole and noun.one == member.one and self.plural(src)
        card = self.word_noun("card")
        if not whole and not same and member.one == card.one and noun.one != card.one and self.plural(src) \
                and len(re.findall(rf"\b{re.escape(card.many)}\b", src)) == 1:  # 'your tiles in play'
            named = re.sub(rf"\b{re.escape(card.many)}\b", noun.many, src)
            same = self.plural(named)
        else:
            named = src
        if same and quantity is None and not self.shares_noun(loc):  # 'one of your tiles', 'your tiles'
            many, one = named, self.gendered("one_of", noun, named)
            each = self.gendered("each_of", noun, named) if self.WORDS.get("each_of") else \
                self.among(noun.one, src)
        else:
            def among(text):
                return text if whole else self.among(text, src)
            if quantity is not None:
                many = among(quantity.format(noun.one, noun.many))
            else:
                many = among(noun.many)
            one, each = among(self.intro(loc, other)), among(noun.one)
        if cond:
            many, one, each = (self.such_that(x, cond, noun, m, said) for x, m in ((many, True), (one, False),
                                                                                    (each, False)))
        return many, one, each

    def such_that(self, text: str, cond: str, noun: Noun | None, many: bool, parts=()) -> str:
        """Members said with the condition they meet: as relative clauses when each part of it
        reads as one ('tiles whose slot is empty', 'a tile that is tapped'), else 'such that'."""
        rel = [self.relative(p, many, noun) for p in parts]
        if noun is not None and noun in (self.word_noun("player"), self.word_noun("opponent")):
            has = self.act("has", N.Name(None, "__who__"), "").replace("__who__", self.gendered("that", noun, noun.one))
            rel = [self.w("who_has" if not many else "who_have", p[len(has):]) if p.startswith(has) else r
                   for p, r in zip(parts, rel)]  # 'an opponent who has rock cubes'
        if parts and all(rel):
            return f"{text} {self.joined(rel, 'and')}"
        return self.w("such_that", text, cond)

    _RELATIVE = [(re.compile(r"^its controller is not you$"), ("that you do not control", "that you do not control")),
                 (re.compile(r"^its controller is you$"), ("that you control", "that you control")),
                 (re.compile(r"^its controller is among your opponents$"), ("that an opponent controls",
                                                                         "that your opponents control")),
                 (re.compile(r"^it is controlled by a player$"), ("that a player controls", "that players control")),
                 (re.compile(r"^it is (.+)$"), ("that is \\1", "that are \\1")),
                 (re.compile(r"^it does not hold (.+)$"), ("that does not hold \\1", "that do not hold \\1")),
                 (re.compile(r"^it holds (.+)$"), ("that holds \\1", "that hold \\1")),
                 (re.compile(r"^its (.+?) (is|are) (.+)$"), ("whose \\1 \\2 \\3", "whose \\1 \\2 \\3")),
                 (re.compile(r"^it has (.+)$"), ("with \\1", "with \\1")),
                 (re.compile(r"^((?:(?!such that|\bit\b).)+) (has|have) ((?:(?!such that|\bit\b).)+) on it$"),
                  ("on which \\1 \\2 \\3", "on which \\1 \\2 \\3")),
                 (re.compile(r"^there (?:is|are) ((?:(?!such that|\bit\b).)+) on it$"), ("with \\1 on it", "with \\1 on them"))]

    def relative(self, cond: str, many: bool, noun: Noun | None = None) -> str | None:
        """A condition about the member being introduced as a relative clause, or None."""
        cond = self.finish(cond)
        for pattern, (one, more) in self._RELATIVE:
            m = pattern.match(cond)
            if m:
                said = m.expand(more if many else one)
                return re.sub(r"\bits\b", "their", said) if many else said
        return None

    def visit_Each(self, e) -> str:
        with self.scope():
            many, one, _ = self.members(e.var, e.source, e.where)
        return Text(many, one)

    def mapped_parts(self, m) -> dict:
        """The parts of `E for each x in S where C`: the member said by its noun."""
        noun, whole = self.element_noun(m.source)
        noun = noun or self.type_noun(m.var, [m.expr, m.where]) or self.fallback_noun()
        source = self.node(m.source)
        self.bind(m.var, noun)
        return {"expr": self.node(m.expr), "var": noun.one, "source": source,
                "where": self.w("where", self.node(m.where)) if m.where is not None else "", "whole": whole}

    def said_mapped(self, phrase: str, parts: dict) -> str:
        """A phrase of `E for each x in S`, without 'among S' when the noun says S ('every opponent')."""
        text = phrase.format(**parts)
        if parts["whole"]:
            text = text.replace(self.among(parts["var"], parts["source"]), parts["var"])
        return text

    def visit_Mapped(self, e) -> str:
        with self.scope():
            return self.said_mapped(self.WORDS["mapped"], self.mapped_parts(e))

    def visit_BinOp(self, e) -> str:
        return self.w(e.op, self.node(e.left), self.node(e.right))

    def visit_Compare(self, e, op: str | None = None) -> str:
        op = op or e.op
        left, right = e.left, e.right
        if op in ("is", "isnot") and self.is_class(right):
            return self.w(op, self.node(left), self.a(self.class_noun(right.name)))
        if isinstance(right, N.NoneLit) and op in ("==", "!="):
            loc = self.local(left.name) if isinstance(left, N.Name) and left.name not in self.inline else None
            if loc is not None:  # 'if there is such a district': the one an optional choice may leave empty
                return self.gendered("no_such" if op == "==" else "such", loc.noun, self.a(loc.noun), loc.noun.one)
            if isinstance(left, N.Call) and left.func == "controller" and len(left.args) == 1:
                return self.w("not_controlled" if op == "==" else "controlled", self.node(left.args[0]))
            if isinstance(left, N.Attr) and not self.counter_of(left) and left.name not in self.defn.zones:
                noun = self.vocab.noun(left.name, "attribute")
                return self.w("has_no" if op == "==" else "has_a", self.node(left.obj),
                              noun.one if op == "==" else self.a(noun))
            return self.w("missing" if op == "==" else "exists", self.node(left))
        if isinstance(left, N.Call) and left.func == "count" and len(left.args) == 1 \
                and isinstance(right, N.Number) and right.value == 0 and op in ("==", ">", "!=", "<="):
            if op in (">", "!="):
                return self.visit_Call(N.Call(left.pos, "any", left.args))
            arg = left.args[0]
            if isinstance(arg, N.Each):
                return self.w("no_member", format(self.node(arg), "some"))
            return self.agreeing("empty_of", arg)
        if isinstance(left, N.Call) and left.func == "count" and len(left.args) == 1 and \
                isinstance(left.args[0], N.Attr) and left.args[0].name in self.defn.zones and \
                isinstance(right, N.Number) and op in self._QUANTITIES and not isinstance(right.value, bool):
            card = self.member_noun(left.args[0].name)
            n = right.value
            amount = f"{n} {card.one if n == 1 else card.many}"
            if op != "==":
                amount = self.w(self._QUANTITIES[op], amount)
            zone = left.args[0]
            return self.act("has", zone.obj, self.w("count_in", amount, self.node(zone)))
        if isinstance(right, N.Number) and not isinstance(right.value, bool):  # compared with 0: some, or none
            n = right.value
            some = (op in (">", "!=") and n == 0) or (op == ">=" and n == 1)
            none = (op in ("==", "<=") and n == 0) or (op == "<" and n == 1)
            said = self.said_as("some" if some else "none", left) if some or none else None
            if said is not None:
                return said
        if op in ("==", "!="):
            said = self.compared_as(left, right, op == "==")
            if said is not None:
                return said
        if op == "==" and (self.is_you(right) or self.is_you(left)):
            mine = self.said_as("you", left if self.is_you(right) else right)
            if mine is not None:
                return mine
        sides = [self.inline.get(x.name, x) if isinstance(x, N.Name) else x for x in (left, right)]
        if op == ">" and all(isinstance(x, N.Call) and x.func == "count" and len(x.args) == 1 for x in sides):
            mine, theirs = self.count_of(sides[0]), self.count_of(sides[1])
            m, t = self._YOURS.match(mine), self._THEIRS.match(theirs)
            if m and t and m.group(1) == t.group(1):
                return self.w("more_than_them", m.group(1), t.group(2))
        counter = self.counter_of(left)
        phrase = self.vocab.entries.get(f"when:{counter[0]}") if counter else None
        if isinstance(phrase, str) and isinstance(right, N.Number) and \
                (op == "==" and right.value == 1 or op in (">", "!=") and right.value == 0):
            return phrase.format(self.node(counter[1]) if counter[1] is not None else "")
        quantified = self.quantified(left, op, right)
        if quantified is not None:
            return quantified
        if isinstance(left, N.Attr) and left.name in self.defn.attributes:  # 'la valeur est supérieure à 1'
            return self.gendered(op, self.vocab.noun(left.name, "attribute"), self.node(left), self.node(right))
        return self.w(op, self.node(left), self.node(right))

    _QUANTITIES = {">=": "at_least", ">": "more_than", "<=": "at_most", "<": "fewer_than", "==": "exactly"}

    def quantified(self, left, op: str, right) -> str | None:
        """`count(each x in S where C) >= 2` as 'there are at least 2 districts such that C'; a
        counter compared with a number as what its holder has ('that player has tokens on
        that district'); None when the comparison is neither."""
        if not isinstance(right, N.Number) or op not in self._QUANTITIES or isinstance(right.value, bool):
            return None
        n = right.value
        if isinstance(left, N.Call) and left.func == "count" and len(left.args) == 1 \
                and isinstance(left.args[0], N.Each):
            each = left.args[0]
            quantity = self.w(self._QUANTITIES[op], n) + (" {0}" if n == 1 else " {1}")
            with self.scope():
                many = self.members(each.var, each.source, each.where, quantity=quantity)[0]
            one = n == 1 and op in (">=", "==", "<=")
            return self.w("there_is" if one else "there_are", many)
        counter = self.counter_of(left)
        if counter is None or counter[1] is None:
            return None
        name, holder, key = counter
        noun = self.vocab.noun(name, "counter")
        if n == 0 and op in (">", "=="):
            amount = self.w("some_of", noun.many) if op == ">" else self.gendered("none_of", noun, noun.one, noun.many)
        elif op == ">=" and n > 0:
            amount = self.w("at_least", f"{n} {noun.one if n == 1 else noun.many}")
        else:
            return None
        none = "_none" if n == 0 and op == "==" else ""  # 'has no tokens', 'n'a aucun jeton'
        if key is not None:
            return self.act("has_on" + none, key, amount, self.node(holder))
        if self.defn.counters[name].scope.kind in (OwnerKind.PLAYER, OwnerKind.TEAM):
            return self.act("has" + none, holder, amount)
        return self.w("on_it_none" if op == "==" else "on_it", amount, self.node(holder))

    def count_of(self, call) -> str:
        """What `count(S)` counts, as many ('your tiles in play'): S said, or its members."""
        arg = call.args[0]
        return self.finish(self.node(arg))

    def agreeing(self, key: str, subject) -> str:
        """A phrase about `subject` whose verb agrees with it: 'your hand is empty'; of many things,
        whether there are any: 'you have tiles with a free slot', 'there are no tiles in play'."""
        text = self.finish(self.node(subject))
        if self.plural(text) and key in ("not_empty", "empty_of"):
            yours, the = self._YOURS.match(text), self._THE.match(text)
            some = "some" if key == "not_empty" else "none"
            if the and self._X_OF and self._X_OF.match(the.group(1)):  # 'there are cards in the Market'
                x_of = self._X_OF.match(the.group(1))
                return self.w(f"{some}_there_in", x_of.group(1), x_of.group(2))
            if yours or the:
                return self.w(f"{some}_{'have' if yours else 'there'}", (yours or the).group(1))
        return self.w(key + "_many" if self.plural(text) else key, text)

    _YOURS = re.compile(r"^your (.+)$")
    _THE = re.compile(r"^the (.+)$")
    _X_OF = re.compile(r"^(\w+) of (the .+)$")
    _THEIRS = re.compile(r"^the (.+) of (.+)$")

    _PLURAL = re.compile(r"^(?:the|your|their|its|these|those) (?:[\w-]+ )?[\w-]*[^s\W]s\b")
    _LOCAL_SET = re.compile(r"^(?:that|this) ")  # a set the rules named ('that selection')

    def among(self, what: str, source: str) -> str:
        """`what` taken from `source`: 'among your cards in play', but 'in the discard pile' (one
        zone is not a set of things to be among)."""
        many = self.plural(source) or self._LOCAL_SET.match(source)  # 'among that selection'
        return self.w("among" if many else "among_one", what, source)

    def plural(self, text: str) -> bool:
        """Whether a phrase names many things ('the cards of the Market'), by its first noun."""
        return bool(self._PLURAL.match(text))

    def visit_BoolOp(self, e) -> str:
        sides = []
        for side in (e.left, e.right):
            text = self.node(side)
            if isinstance(side, N.BoolOp) and side.op != e.op and side.op == "or":
                text = self.w("either", self.node(side.left), self.node(side.right))
            sides.append(text)
        # two conditions, each a clause: French repeats 'que' before the second ('si A et que B')
        return self.w("and_clauses" if e.op == "and" else e.op, *sides)

    def compared_as(self, left, right, equal: bool) -> str | None:
        """`f(a) == f(b)` or `x == f(a)` (or `!=`) as the built-in's record says it ('the first card
        and it are in the same place', 'that place holds that card'); None where it gives no
        phrase, or where one side is you ('you hold' is said as yours are, `prose_you`)."""
        if isinstance(left, N.Call) and isinstance(right, N.Call) and left.func == right.func:
            said = self.said_as("same" if equal else "same_not", left, *right.args)
            if said is not None:
                return said
        if self.is_you(left) or self.is_you(right):
            return None
        for call, other in ((right, left), (left, right)):
            said = self.said_as("is" if equal else "is_not", call, other)
            if said is not None:
                return said
        return None

    def visit_Not(self, e) -> str:
        inner = e.operand
        if isinstance(inner, N.Compare) and inner.op in _NOT:
            return self.visit_Compare(inner, _NOT[inner.op])
        # a built-in truth said false in its own words ('this card is not tapped'), not as
        # 'it is not so that this card is tapped'
        return self.said_as("not", inner) or self.w("not", self.node(inner))

    def visit_Neg(self, e) -> str:
        return self.w("neg", self.node(e.operand))

    # statements --------------------------------------------------------------
    def block(self, body) -> str:
        """Statements: an ability's own are sentences, the others are chained with 'then'. A `let`
        read once is said where it is read (unless in a loop, which would read it again)."""
        body = list(body or [])
        self.depth += 1
        parts = []
        try:
            with self.scope():
                for i, s in enumerate(body):
                    if parts and self.fails_if_none(s):  # 'choose ... (if there is none, this cannot be done)'
                        parts[-1] = self.w("or_fail", parts[-1])
                        continue
                    if isinstance(s, N.Let) and uses_of(s.name, body[i + 1:]) <= 1 \
                            and not in_loop(s.name, body[i + 1:]):
                        self.inline[s.name] = s.value
                        continue
                    self.ahead.append(body[i:])
                    try:
                        self.retire()
                        parts.append(self.node(s))
                    finally:
                        self.ahead.pop()
        finally:
            self.depth -= 1
        parts = [p for p in parts if p]
        if self.depth == 0:
            parts = parts[:1] + [p[:1].upper() + p[1:] for p in parts[1:]]
        return self.WORDS["sequence" if self.depth == 0 else "then"].join(parts)

    def fails_if_none(self, s) -> bool:
        """Whether `s` is `if x == none: fail`, x a value a choice before it bound."""
        if not (isinstance(s, N.If) and len(s.branches) == 1 and not s.orelse):
            return False
        cond, body = s.branches[0]
        return (len(body) == 1 and isinstance(body[0], N.Fail) and isinstance(cond, N.Compare) and cond.op == "=="
                and isinstance(cond.right, N.NoneLit) and isinstance(cond.left, N.Name)
                and self.local(cond.left.name) is not None)

    def holds_cards(self, e) -> bool:
        """Whether `e` names a zone (so that moving it moves the cards in it)."""
        if isinstance(e, N.Attr):
            return e.name in self.defn.zones
        return isinstance(e, N.Name) and e.name in self.defn.zones and e.name not in self.locals

    def visit_Move(self, e) -> str:
        what = self.w("move_all", self.node(e.what)) if self.holds_cards(e.what) else self.node(e.what)
        key = {"top": "move_top", "bottom": "move_bottom"}.get(e.end or "", "move")
        into = self.into(e.to) if key == "move" else None
        if into is not None:  # the zone's own preposition: « mettez-la sur la table »
            return self.w("move_into", what, self.node(e.to), into)
        return self.w(key, what, self.node(e.to))

    def into(self, zone):
        """The preposition the vocabulary gives a move into `zone` (a zone named, or read off
        its holder: `deck`, `pl.surface`), or None."""
        return self.vocab.noun(zone.name, "zone").into if self.holds_cards(zone) else None

    def visit_Add(self, e) -> str:
        return self.change(e, "put", "put_keyed", "give", "add_to")

    def visit_Remove(self, e) -> str:
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
        if key is not None and self.is_you(key) and isinstance(e.amount, N.Number) and self.WORDS.get("of_yours"):
            mine = self.w("of_yours", e.amount.value, noun.many)  # '1 de vos cubes'
            return self.w(keyed + "_yours", mine, self.node(holder))
        if key is not None:
            return self.w(keyed, n, self.w("yours") if self.is_you(key) else self.node(key), self.node(holder))
        if self.defn.counters[name].scope.kind in (OwnerKind.PLAYER, OwnerKind.TEAM):
            return self.act(player, holder, n)
        return self.w(on, n, self.node(holder))

    def visit_Pay(self, e) -> str:
        counter = self.counter_of(e.target)
        if counter is None:
            return self.act("pay", None, self.node(e.amount))
        name, holder, _ = counter
        return self.act("pay", holder, self.amount(e.amount, self.vocab.noun(name, "counter")))

    def visit_Gain(self, e) -> str:
        return self.act("gain", e.owner, self.amount(e.amount, self.vocab.noun(e.counter, "counter")))

    def visit_Lose(self, e) -> str:
        return self.act("lose", e.owner, self.amount(e.amount, self.vocab.noun(e.counter, "counter")))

    def visit_Score(self, e) -> str:
        noun = self.vocab.noun(self.defn.score, "counter") if self.defn.score else Noun("point", "points")
        text = self.act("score", e.owner, self.amount(e.amount, noun))
        if e.source is not None:
            text = self.w("credited", text, self.node(e.source))
        return text

    def visit_SetStmt(self, e) -> str:
        counter = self.counter_of(e.target)
        if counter is not None:
            name, holder, key = counter
            if self.defn.counters[name].internal and isinstance(e.value, N.Number) and e.value.value == 0:
                return ""  # bookkeeping reset: no rule a player reads
            phrase = self.vocab.entries.get(f"set:{name}")
            if isinstance(phrase, str):  # what setting it means, in the game's words
                who = self.node(holder) if holder is not None else ""
                return phrase.format(who, self.node(e.value))
            if self.defn.counters[name].internal:
                return ""  # bookkeeping of the rules, with no words for players
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

    def visit_Let(self, e) -> str:
        value = self.node(e.value)
        noun, number = self.value_noun(e.value, e.name)
        loc = self.bind(e.name, noun, number)
        return self.w("let", self.ref(loc) if loc.nth > 1 else self.the(noun), value)

    def value_noun(self, value, name: str | None = None) -> tuple:
        """(the noun of what `value` is, whether it is a number): what a `let` names."""
        if isinstance(value, N.Call) and value.func in ("first", "last", "random", "top", "bottom") \
                and len(value.args) == 1:
            noun = self.element_noun(value.args[0])[0]
            return noun or self.word_noun("card"), False
        if isinstance(value, N.Call) and value.func == "holder":  # a card or a space: 'the place'
            return self.word_noun("place"), False
        if isinstance(value, N.Call) and value.func in self.defn.functions:  # 'spare_box': 'spare box'
            return self.function_noun(value.func), False
        if isinstance(value, (N.ListLit, N.NoneLit)) or self.types.get(value) == LIST:
            return self.word_noun("selection"), False
        kind = self.types.get(value)
        if kind == NUMBER or isinstance(value, (N.Number, N.BinOp)) or self.counter_of(value) is not None or \
                isinstance(value, N.Call) and value.func in ("count", "sum", "min", "max"):
            return self.word_noun("number"), True
        key = {PLAYER: "player", COMPONENT: "card", NODE: "node"}.get(kind)
        if key is None and name is not None:
            found = self.type_noun(name, [])
            if found is not None:
                return found, found == self.word_noun("number")
        if key is None and isinstance(value, N.Attr) and value.name in self.defn.attributes:
            return self.vocab.noun(value.name, "attribute"), False
        return (self.word_noun(key) if key else self.fallback_noun()), False

    _OF_ARG = re.compile(r"^(?:the |a |an )?(.+?) of \{0\}$")

    def function_noun(self, name: str) -> Noun:
        """The noun of what a game's function gives: from its phrase ('the tray of {0}': 'tray'),
        else from its name ('spare_box': 'spare box')."""
        phrase = self.vocab.template(name, "function")
        m = self._OF_ARG.match(phrase) if phrase else None
        if m:
            return self.noun_of_phrase(m)
        words = words_of(name[:-3] if name.endswith("_of") else name)
        return Noun(words, plural(words))

    def noun_of_phrase(self, m) -> Noun:
        return Noun(m.group(1), plural(m.group(1)))

    def visit_String(self, e) -> str:
        """A text of the rules: a counter's name, a value the vocabulary translates, else the words as written."""
        if e.value in self.defn.counters:
            return self.vocab.noun(e.value, "counter").many
        found = self.vocab.value_words(e.value)
        if found is not None:
            return found
        return self.w("quoted", e.value)

    def gender_of(self, e) -> str | None:
        """The gender of the noun a bound value is named by, when `e` is one."""
        loc = self.local(e.name) if isinstance(e, N.Name) else None
        return loc.noun.gender if loc is not None else None

    def event_phrase(self, event: str, args: list, gender: str | None = None) -> str:
        phrase = self.agree(self.vocab.template(event, "event"), gender)
        if phrase is None:  # a game without words for it: its name's words, or the language's generic phrase
            generic = self.WORDS.get("event_n" if args else "event_0")
            return generic.format(words_of(event), self.joined(list(args))) if generic else words_of(event)
        return phrase.format(*args)

    def visit_Signal(self, e) -> str:
        gender = self.gender_of(e.args[0]) if e.args else None
        return self.w("signal", self.event_phrase(e.event, [self.node(a) for a in e.args], gender))

    def agree(self, phrase: str | None, gender: str | None) -> str | None:
        """A phrase about something of `gender` (a language with genders makes it agree)."""
        return phrase

    def visit_CallProc(self, e) -> str:
        return self.game_call("procedure", e.proc, e.args)

    def visit_Shuffle(self, e) -> str:
        return self.w("shuffle", self.node(e.zone))

    def visit_Tag(self, e) -> str:
        return self.w("tag" if e.on else "untag", self.node(e.what), self.a(self.class_noun(e.tag)))

    def visit_TapStmt(self, e) -> str:
        return self.w("tap" if e.on else "untap", self.node(e.what))

    def visit_Reveal(self, e) -> str:
        return self.w("reveal", self.node(e.what))

    def visit_Log(self, e) -> str:
        return ""  # what the game tells the players, not a rule

    def visit_Win(self, e) -> str:
        return self.w("win", self.node(e.who))

    def visit_Exit(self, e) -> str:
        return self.w("exit", words_of(e.proc))

    def visit_Return(self, e) -> str:
        return self.w("stop")

    def visit_Break(self, e) -> str:
        return self.w("stop_loop")

    def visit_Continue(self, e) -> str:
        return self.w("next_turn")

    def visit_Pass(self, e) -> str:
        return self.w("do_nothing")

    def visit_Fail(self, e) -> str:
        return self.w("fail")

    def visit_Roll(self, e) -> str:
        text = self.w("roll", self.node(e.count), self.node(e.sides) if e.sides is not None else "6")
        self.bind(e.name, self.word_noun("result"), True)
        return text

    def visit_Choose(self, e) -> str:
        _, one, _ = self.members(e.var, e.source, e.where)
        text = self.act("may_choose" if e.optional else "choose", e.chooser, one)
        return self.w("secretly", text) if e.secret else text

    def visit_Menu(self, e) -> str:
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

    def visit_Option(self, e) -> str:
        with self.scope():
            each = self.members(e.var, e.source, None)[2] if e.var is not None else None
            body = self.block(e.body)
            cond = self.node(e.cond) if e.cond is not None else None
            label = self.label(self.vocab.label(e.label), e.pos)
        if not body:  # what it does is the rules' bookkeeping: the label says it
            body = self.w("option_only")
        if e.var is not None:
            return self.w("option_each_if" if cond else "option_each", label, body, cond, each)
        return self.w("option_if" if cond else "option_label", label, body, cond)

    def visit_ActionsOption(self, e) -> str:
        return self.w("actions_during", self.vocab.noun(e.window, "window").one) if e.window else self.w("actions")

    def visit_Decide(self, e) -> str:
        rules = self.WORDS["decide_or"].join(self.node(r) for r in e.rules)
        return self.act("decide", e.chooser, e.var, rules)

    def visit_Prefer(self, e) -> str:
        if e.cond is None:
            return self.w("prefer", self.node(e.value))
        return self.w("prefer_if", self.node(e.value), self.node(e.cond))

    def visit_Use(self, e) -> str:
        return self.act("use_free" if e.free else "use", e.chooser, self.node(e.card))

    def visit_If(self, e) -> str:
        parts = []
        for i, (cond, body) in enumerate(e.branches):
            parts.append(self.w("if" if i == 0 else "elif", self.node(cond), self.block(body)))
        if e.orelse:
            parts.append(self.w("else", self.block(e.orelse)))
        return self.WORDS["branches"].join(parts)

    def visit_For(self, e) -> str:
        with self.scope():
            _, _, each = self.members(e.var, e.source, e.where, e.body)
            return self.w("for", each, self.block(e.body))

    def visit_Repeat(self, e) -> str:
        if e.count is None:
            return self.w("repeat_ever", self.block(e.body))
        if isinstance(e.count, N.Number) and e.count.value in (1, 2):  # 'once', 'twice'
            return self.w(f"repeat_{e.count.value}", self.block(e.body))
        return self.w("repeat", self.node(e.count), self.block(e.body))

    def visit_While(self, e) -> str:
        return self.w("while", self.node(e.cond), self.block(e.body))

    def visit_Phrase(self, e) -> str:
        """A phrase in a body: the effect a keyword's parameter stands for."""
        words = e.words
        if len(words) == 1 and words[0].kind is N.WordKind.NAME and words[0].value in self.params:
            return self.parameter(words[0].value)
        return self.fallback(e)

    # abilities ---------------------------------------------------------------
    def visit_Trigger(self, e) -> str:
        args = self.defn.events.get(e.event, [])
        saved = self.event_args
        self.event_args = set(args) - self.locals
        try:
            if e.broadcast:
                written = [self.a(self.vocab.noun(a, "argument")) for a in args]
            else:
                written = [self.w("this_card")] + [self.the(self.vocab.noun(a, "argument")) for a in args[1:]]
            when = self.w("whenever" if e.broadcast else "when", self.event_phrase(e.event, written))
            cond = self.unimplied(e.cond, e.body)
            if cond is not None:
                when = self.w("if_clause", when, self.node(cond))
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

    def visit_Action(self, e) -> str:
        when = self.windows(e.windows)
        if e.limit:
            when = self.w("once", when, self.event_phrase(e.limit, [self.w("this_card")]))
        cond = self.unimplied(e.cond, e.body)
        if cond is not None:
            when = self.w("if_clause", when, self.node(cond))
        body = self.block(e.body)
        if e.costs:
            costs = self.joined([self.node(c) for c in e.costs], "costs")
            return self.sentence(self.w("may_costs", when, costs, body))
        return self.sentence(self.w("may", when, body))

    def unimplied(self, cond, body):
        """An action's condition without what its first choice says already: that there is
        something to choose (`if any(each x in S where C)` before `choose x from S where C`)."""
        first = body[0] if body and isinstance(body[0], N.Choose) and not body[0].optional else None
        if cond is None or first is None:
            return cond
        kept = [c for c in self.conjuncts(cond) if not offers(c, first)]
        if not kept:
            return None
        out = kept[0]
        for c in kept[1:]:
            out = N.BoolOp(c.pos, "and", out, c)
        return out

    def visit_Cost(self, e) -> str:
        if e.kind is N.CostKind.TAP:
            return self.w("tap_self")
        if e.kind is N.CostKind.SACRIFICE:
            return self.w("sacrifice", self.a(self.class_noun(e.name)))
        n = self.amount(e.amount, self.vocab.noun(e.name, "counter"))
        return self.w("spend", n) if e.kind is N.CostKind.SPEND else self.act("pay", None, n)

    def visit_PhraseAbility(self, e) -> str:
        return self.fallback(e)  # a printed keyword is written through its keyword (see cards.Prose)

    def visit_Procedure(self, e) -> str:
        return self.sentence(self.block(e.body))

    def visit_Condition(self, e) -> str:
        return self.node(e.expr)


def offers(cond, choice) -> bool:
    """Whether `cond` says only that `choice` has a candidate: 'any(each x in S where C)', 'any(C
    for each x in S)' or 'count(each x in S where C) > 0' for `choose y from S where C`."""
    if isinstance(cond, N.Compare) and isinstance(cond.right, N.Number) and \
            (cond.op in (">", "!=") and cond.right.value == 0 or cond.op == ">=" and cond.right.value == 1):
        cond = N.Call(cond.pos, "any", [cond.left]) if isinstance(cond.left, N.Call) and \
            cond.left.func == "count" else None
    if not (isinstance(cond, N.Call) and cond.func == "any" and len(cond.args) == 1):
        return False
    arg = cond.args[0]
    if isinstance(cond.args[0], N.Call) and arg.func == "count":
        return False
    if isinstance(arg, N.Mapped):
        where = arg.expr if arg.where is None else N.BoolOp(arg.pos, "and", arg.where, arg.expr)
        arg = N.Each(arg.pos, arg.var, arg.source, where)
    if not isinstance(arg, N.Each):
        return False
    renamed = {arg.var: choice.var}
    return same(arg.source, choice.source, {}) and same(arg.where, choice.where, renamed)


def same(a, b, renamed: dict) -> bool:
    """Whether two trees say the same, their positions aside, with the names of `renamed`
    standing for others."""
    if type(a) is not type(b):
        return False
    if isinstance(a, N.Name):
        return renamed.get(a.name, a.name) == b.name
    if isinstance(a, N.Node):
        return all(k == "pos" or same(v, getattr(b, k, None), renamed) for k, v in vars(a).items())
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, renamed) for x, y in zip(a, b))
    return a == b
