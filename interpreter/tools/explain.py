"""How the engine reads a card: `regles explain GAME CARD [--lang fr]`.

First the card as it would be printed, its abilities written as prose in the
language asked (`language.prose`); then, for a modder checking a card: its
attributes and classes, and for each
ability the keyword it was matched to (with the values it binds) and what the
engine will do with it: the event it listens to, or the action it offers with
its windows, costs and limit. Content in it is escaped (`diagnostics.printable`):
the text is safe to print.
"""
from __future__ import annotations

from ..diagnostics import lines_of, printable
from ..language import nodes as N
from ..language.prose import Prose
from ..names import did_you_mean, fold


def find_card(defn, name: str):
    """The card whose id or title is `name` (accents and case ignored), or None and a hint."""
    key = fold(name)
    for card in defn.cards:
        if fold(card.id) == key or fold(card.title) == key:
            return card, None
    return None, did_you_mean(name, [c.id for c in defn.cards] + [c.title for c in defn.cards])


def _where(pos) -> str:
    return f"{pos.path}:{pos.line}" if pos is not None else "?"


def _header(tree) -> str:
    if isinstance(tree, N.Trigger):
        text = f"{'whenever' if tree.broadcast else 'when'} {tree.event}"
        if tree.optional:
            text += " (optional: the player is asked)"
        if tree.cond is not None:
            text += " (only when its condition holds)"
        who = "any component in play hears it" if tree.broadcast else "when the event is about this card"
        return f"triggered: {text}; {who}"
    if isinstance(tree, N.Action):
        parts = [f"action{' ' + repr(tree.label) if tree.label else ''}"]
        parts.append("during " + ", ".join(map(str, tree.windows)) if tree.windows else "in any window")
        costs = []
        for c in tree.costs:
            if c.kind == "tap":
                costs.append("tap this card")
            elif c.kind == "sacrifice":
                costs.append(f"sacrifice a {c.name} you control")
            else:
                costs.append(f"{c.kind} {'N' if not isinstance(c.amount, N.Number) else c.amount.value} {c.name}")
        if costs:
            parts.append("costs: " + ", ".join(costs))
        if tree.limit:
            parts.append(f"once per {tree.limit}")
        if tree.cond is not None:
            parts.append("offered only when its condition holds")
        return "; ".join(parts)
    return "a printed keyword"


def _value(v) -> str:
    if isinstance(v, list):
        return "(the effect written after ':')"
    if isinstance(v, N.Node):
        return "(an expression)"
    return str(v)


def explain(game, card, lang: str = "en") -> str:
    defn = game.program.defn
    printed = Prose(defn, game.program.found, lang).card(card)
    out = [printed[0], *(f"  {line}" for line in printed[1:]), "",
           "How the engine reads it:",
           f"{card.title} ({card.id}), a {card.component} of {defn.title}: {_where(card.pos)}"]
    if card.copies != 1:
        out.append(f"  copies: {card.copies}")
    if card.start:
        out.append(f"  starts in: {card.start}{' (one per player)' if card.per_player else ''}")
    attrs = [f"{k}: {v}" for k, v in card.attrs.items()]
    if attrs:
        out.append("  " + "; ".join(attrs))
    program = game.program
    index = next(i for i, c in enumerate(program.comp_card) if c is card)
    classes = sorted(program.comp_classes[index])
    if classes:
        out.append("  classes (for 'is'): " + ", ".join(classes))
    if card.authored:
        out.append(f"  authored: {card.authored if isinstance(card.authored, str) else 'yes'}")
    if not card.abilities:
        out.append("  no ability")
    for n, ab in enumerate(card.abilities, 1):
        out.append(f"  ability {n}: \"{ab.text.strip()}\"  ({_where(ab.pos)})")
        use = program.found.keyword_uses.get(ab)
        if use is not None:
            kw = use.keyword
            binds = ", ".join(f"{k} = {_value(v)}" for k, v in use.bindings.items())
            out.append(f"    keyword '{kw.pattern}' ({_where(kw.pos)}){', family ' + kw.family if kw.family else ''}"
                       + (f", with {binds}" if binds else ""))
            for tree, text in zip(kw.trees, kw.ability_texts):
                out.append(f"    - {_header(tree)}")
                for line in lines_of(text.strip()):
                    out.append(f"        {line}")
        elif ab.tree is not None:
            out.append(f"    - {_header(ab.tree)}")
    return "\n".join(printable(line) for line in out)  # content shown, never obeyed
