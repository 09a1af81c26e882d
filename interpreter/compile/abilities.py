"""Stage 5, abilities: the abilities printed on cards, compiled for each card.

A printed keyword is compiled with what its parameters stand for on the card
(the bindings the checker found); a trigger gets a prologue (its condition, the
question of an optional ability); an action gets its costs, which both decide
whether it may be used and are paid when it is.
"""
from __future__ import annotations

from ..engine import machine as vm
from ..engine.code import Code, CodeKind
from ..engine.library import counter_key, number
from ..engine.phrases import Noun, Phrase, Value
from ..engine.specs import FREE, OPTIONAL_ASK, UNNAMED_ACTION, ActionSpec, ChooseSpec, TriggerSpec
from ..engine.state import Frame, GameFault
from ..language import nodes as N
from ..language import value_kinds as vk
from ..language.types import CLASS, COMPONENT, EFFECT
from ..names import fold
from ..scopes import OwnerKind
from .assemble import Flow
from .context import ClassName, Computed, Const, Ctx, Effect

SACRIFICED = "\x00sacrifice"  # the local holding the component chosen to pay a sacrifice



class AbilityCompiler:
    """Compiles the abilities of the cards of one program, with its statement compiler."""

    def __init__(self, program, compiler, found):
        self.program = program
        self.defn = program.defn
        self.compiler = compiler
        self.found = found  # what the checker found: the keyword each printed phrase uses

    def compile_all(self) -> None:
        """Fill the program's triggers and actions of every component."""
        per_card = {}
        for card in self.defn.cards:
            triggers: dict = {}
            actions: list = []
            for i, ab in enumerate(card.abilities):
                self.ability(card, i, ab, triggers, actions)
            prints = frozenset(use.keyword.title for ab in card.abilities
                               if (use := self.found.keyword_uses.get(ab)) is not None and use.keyword.title)
            per_card[id(card)] = (triggers, actions, prints)
        for card in self.program.comp_card:
            t, a, p = per_card[id(card)]
            self.program.comp_triggers.append(t)
            self.program.comp_actions.append(a)
            self.program.comp_prints.append(p)

    def bindings(self, ab) -> dict:
        """What each parameter of the keyword of printed ability `ab` stands for on its card."""
        use = self.found.keyword_uses[ab]
        consts = {}
        for p, v in use.bindings.items():
            ptype = use.keyword.params.get(p)
            if ptype == EFFECT:
                consts[p] = Effect(v, {})
            elif ptype == CLASS:
                consts[p] = ClassName(fold(v))
            elif isinstance(v, N.Node) and ptype == "number":
                # an expression printed for a number: its value is made a number, as the checker promises
                fn, pos = self.compiler.expr(v, Ctx(Code("binding", CodeKind.BINDING))), v.pos
                consts[p] = Computed(lambda st, fr, fn=fn, pos=pos: number(fn(st, fr), pos))
            elif isinstance(v, N.Node):
                consts[p] = Computed(self.compiler.expr(v, Ctx(Code("binding", CodeKind.BINDING))))
            else:
                consts[p] = Const(v)
        return consts

    def ability(self, card, i, ab, triggers, actions) -> None:
        trees = [(ab.tree, {})]
        if isinstance(ab.tree, N.PhraseAbility):
            consts = self.bindings(ab)
            trees = [(t, consts) for t in self.found.keyword_uses[ab].keyword.trees]
        for j, (node, consts) in enumerate(trees):
            name = f"card:{card.id}:{i}.{j}"
            if isinstance(node, N.Trigger):
                code = Code(name, CodeKind.ABILITY, source=ab)
                self.program.codes[name] = code
                ctx = Ctx(code, consts, self.defn.events.get(node.event, []) + ["cause"])
                self.trigger_prologue(node, ctx)
                self.compiler.body(node.body, ctx)
                triggers.setdefault(node.event, []).append(TriggerSpec(node.event, node.broadcast, code))
                if node.broadcast:
                    self.program.broadcast_events.add(node.event)
            elif isinstance(node, N.Action):
                actions.append(self.action(len(actions), node, consts, ab, name))

    def trigger_prologue(self, node, ctx) -> None:
        """A trigger's condition (not met: the ability does nothing) and, for an optional
        ability, the question whether to use it."""
        comp, pos = self.compiler, node.pos
        if node.cond is not None:
            ctx.emit_src([f"if not ({comp.gen.test(node.cond, ctx, comp.scope())}):",
                          "    st.frames.pop()",
                          "    return"], pos, Flow.BRANCH)
        if node.optional:
            event = node.event

            def prompt(st, fr):
                return OPTIONAL_ASK.format(st.program.comp_card[fr.me].title, event)
            ctx.emit_src([f"vm.ask(st, fr, fr.you, {comp.const(prompt, 'L')}, {comp.const(pos, 'P')})"], pos, Flow.END)

    def action(self, index, node, consts, ab, name) -> ActionSpec:
        """An action ability: whether it may be used now (its condition, and each cost can be
        paid), and its code, which pays the costs and then does the effect. What it checks is
        kept as content wrote it too (`requires`), to say why it cannot be used."""
        code = Code(name, CodeKind.ACTION, source=ab)
        self.program.codes[name] = code
        ctx = Ctx(code, consts, ["cause"])
        comp = self.compiler
        checks, requires = [], []
        if node.cond is not None:
            cond = comp.expr(node.cond, ctx)
            checks.append(lambda st, fr: bool(cond(st, fr)))
            requires.append(("if", comp.reasons.condition(node.cond, ctx)))
        for cost in node.costs:
            values = getattr(self, f"cost_{cost.kind}")(cost, consts, ctx, checks)
            requires.append((cost.kind, comp.reasons.checked(comp.reasons.text(cost), cost.pos, checks[-1], values)))
        comp.body(node.body, ctx)
        label = comp.label(node.label or UNNAMED_ACTION.format("{self.title}", ab.text), node.pos, ctx)

        def checker(scratch):  # the scratch frame is reused: a check never waits
            def usable(st, c, player):
                scratch.me, scratch.you = c, player
                scratch.env["cause"] = player
                return all(check(st, scratch) for check in checks)
            return usable

        usable = checker(Frame(code, 0, {"cause": None}, None, None))
        # with its `pay` costs waived (`use ... free`): the pay checks read the mark FREE
        usable_free = checker(Frame(code, 0, {"cause": None, FREE: True}, None, None))

        def render(st, c):
            return label(st, Frame(code, 0, {}, c, None))
        if node.limit is not None:
            self.program.limit_events.add(node.limit)
        return ActionSpec(index, code, render, set(node.windows), node.limit, usable, ab, usable_free, node.pos,
                          tuple(requires))

    # costs: each adds its check, emits how it is paid, and returns what the check reads,
    # as `values(st, fr)` -> texts, to say why it fails ------------------------------------
    def cost_tap(self, cost, consts, ctx, checks):
        checks.append(lambda st, fr: fr.me not in st.tapped)
        ctx.emit(lambda st, fr, p=cost.pos: st.tap(fr.me, True, p), cost.pos)
        return lambda st, fr: [f"{vm.label_of(st, fr.me)} is tapped already"]

    def cost_pay(self, cost, consts, ctx, checks):
        """`pay N COUNTER`: from the acting player's counter."""
        return self.counter_cost(cost, ctx, checks, lambda st, fr: fr.you)

    def cost_spend(self, cost, consts, ctx, checks):
        """`spend N COUNTER`: from the card's own counter."""
        return self.counter_cost(cost, ctx, checks, lambda st, fr: fr.me)

    def counter_cost(self, cost, ctx, checks, owner):
        amount = self.compiler.expr(cost.amount, ctx)
        cdef = self.program.counters[cost.name]
        name, team_scoped, pos = cdef.name, cdef.scope.kind is OwnerKind.TEAM, cost.pos

        def keyf(st, fr):
            return counter_key(st, owner(st, fr), name, team_scoped, pos)

        waived = cost.kind is N.CostKind.PAY  # a player's currency, which `use ... free` does not spend

        def can(st, fr, keyf=keyf, amount=amount, cdef=cdef, waived=waived):
            return (waived and FREE in fr.env) or st.counters.get(keyf(st, fr), cdef.initial) >= amount(st, fr)
        checks.append(can)

        def pay(st, fr, keyf=keyf, amount=amount, cdef=cdef, p=cost.pos, kind=cost.kind.value, waived=waived):
            if not (waived and FREE in fr.env):
                st.add(keyf(st, fr), cdef, -amount(st, fr), p, kind)
        ctx.emit(pay, cost.pos)

        def values(st, fr, keyf=keyf, amount=amount, cdef=cdef):
            have = st.counters.get(keyf(st, fr), cdef.initial)
            who = owner(st, fr)
            return [Phrase("has_for_cost", Value(who, vm.label_of(st, who)), have, Noun(name, count=have),
                           amount(st, fr))]
        return values

    def cost_sacrifice(self, cost, consts, ctx, checks):
        """`sacrifice CLASS`: another component of that class the player controls, chosen,
        goes to the game's discard."""
        bound = consts.get(cost.name)
        cls = bound.key if isinstance(bound, ClassName) else fold(self.defn.classes[fold(cost.name)][1])
        classes = self.program.comp_classes

        def candidates(st, fr, cls=cls):
            return [c for c in vm.in_play(st, fr.you)
                    if c != fr.me and (cls in classes[c] or cls in st.tags.get(c, ()))]
        checks.append(lambda st, fr, f=candidates: bool(f(st, fr)))
        spec = ChooseSpec(SACRIFICED, candidates, None, False, lambda st, fr: "card to sacrifice", cost.pos,
                          offers=vk.of(COMPONENT))
        ctx.code.choices[ctx.emit(lambda st, fr, spec=spec: vm.choose(st, fr, spec), cost.pos)] = spec
        discard = self.defn.discard

        def sacrifice(st, fr, p=cost.pos):
            c = fr.env.get(SACRIFICED)
            if c is not None:
                if discard is None:
                    raise GameFault("a sacrifice needs the game to name its discard zone", p)
                st.move(c, st.zone_key(discard, None), False, p)
        ctx.emit(sacrifice, cost.pos)
        return lambda st, fr: [f"{vm.label_of(st, fr.you)} controls no other {cost.name} in play"]
