"""A card for a rules lawyer and a modder: `regles explain GAME CARD [--lang fr]`.

In order: the card as printed (its title, attributes and face, `Prose.face`, in
the language asked); then each ability with its printed text (the keyword's
rulebook text), the rules it implements with their text from the game's rules
index (`content.rules_index`), the rulings of the game (its `rulings:` and `notes:`) that name
the card or its keywords or cite its rules, and how the engine reads it, as prose;
last, for a modder, the technical reading: where each thing is written, the
attributes and classes, the keyword each ability matched with the values it
binds, and what the engine does with it (the event it listens to, or the action
it offers with its windows, costs and limit), the rules text line by line.
Content in it is escaped (`diagnostics.printable`): the text is safe to print.
"""
from __future__ import annotations

import re

from ..content.model import LayerKind, in_language
from ..content.rules_index import rules_of
from ..diagnostics import lines_of, printable
from ..language import nodes as N
from ..language.prose import Prose
from ..language.prose.french import elide
from ..language.prose.vocabulary import Vocabulary
from ..language.prose.checks import plain
from ..names import did_you_mean, fold
from ..view.lines import wrap


def find_card(defn, name: str):
    """The card whose id or title is `name` (accents and case ignored), or None and a hint."""
    key = fold(name)
    for card in defn.cards:
        if fold(card.id) == key or fold(card.title) == key:
            return card, None
    return None, did_you_mean(name, [c.id for c in defn.cards] + [c.title for c in defn.cards])


def _where(pos) -> str:
    return f"{pos.path}:{pos.line}" if pos is not None else "?"


def _header(tree, say: dict) -> str:
    """What the engine makes of an ability's tree, in the words of `say` (explain's headings)."""
    if isinstance(tree, N.Trigger):
        text = say["whenever" if tree.broadcast else "when"].format(tree.event)
        if tree.optional:
            text += say["optional"]
        if tree.cond is not None:
            text += say["conditional"]
        return say["triggered"].format(text, say["broadcast" if tree.broadcast else "own"])
    if isinstance(tree, N.Action):
        parts = [say["action"] + (" " + repr(tree.label) if tree.label else "")]
        parts.append(say["during"].format(", ".join(map(str, tree.windows))) if tree.windows else say["any_window"])
        costs = []
        for c in tree.costs:
            if c.kind is N.CostKind.TAP:
                costs.append(say["tap"])
            elif c.kind is N.CostKind.SACRIFICE:
                costs.append(say["sacrifice"].format(c.name))
            else:
                costs.append(f"{c.kind} {'N' if not isinstance(c.amount, N.Number) else c.amount.value} {c.name}")
        if costs:
            parts.append(say["costs"].format(", ".join(costs)))
        if tree.limit:
            parts.append(say["once_per"].format(tree.limit))
        if tree.cond is not None:
            parts.append(say["offered_if"])
        return say["sep"].join(parts)
    return say["printed_keyword"]


def _value(v, say: dict) -> str:
    if isinstance(v, list):
        return say["effect_value"]
    if isinstance(v, N.Node):
        return say["expression_value"]
    return str(v)


def _rulings(defn, card, keywords) -> list:
    """The game's rulings and notes that name the card (by title or id) or one of its keywords
    (by name), as whole words with accents and case ignored, or that cite a rule it implements."""
    words = {plain(card.title), plain(card.id)}
    rules = set(card.rules)
    for kw in keywords:
        words |= {plain(kw.name), plain(kw.title)}
        rules |= set(kw.rules)
    words = sorted(w for w in words if len(w) >= 3)
    named = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, words)) + r")(?!\w)") if words else None
    cited = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(rules))) + r")(?![\w-])") if rules else None
    notes = [str(n) for n in defn.notes] + [r.line() for r in defn.rulings]
    return [n for n in notes if (named and named.search(plain(n))) or (cited and cited.search(n))]


def _rule_lines(ids, rules: dict, indent: str) -> list:
    """Each rule ID with its text from the rules index, broken between words."""
    width = max((len(r) for r in ids), default=0) + 2
    out = []
    for rule in ids:
        text = rules.get(rule) or "(not in the game's rules index)"
        out += _wrapped(rule.ljust(width), text, indent, hang=width)
    return out


def _wrapped(label: str, text: str, indent: str, width: int = 100, hang: int = 2) -> list:
    """`label` then `text`, broken between words at `width` columns, later lines indented by
    `hang` more."""
    return wrap(text, width, indent + label, indent + " " * hang) or [indent + label]


# the headings of `explain`, in the language the card is shown in (what they head, the card's
# texts, the rules index and the content quoted, is as the content writes it)
_HEADINGS = {
    "en": {"rules": "Rules:", "ability": "Ability {0}", "ability_named": "Ability {0}: {1}",
           "printed": "printed ({0}): ", "keyword_rules": "  rules:",
           "reads": "the engine reads it: ", "rulings": "Rulings and notes that name it:",
           "how": "How the engine reads it:", "what": "{0} ({1}), a {2} {3}: {4}", "copies": "copies: {0}",
           "starts": "starts in: {0}", "per_player": " (one per player)", "classes": "classes (for 'is'): ",
           "authored": "authored: {0}", "yes": "yes", "none": "no ability", "source": "ability {0} ({1}):",
           "keyword": "keyword '{0}' ({1})", "family": ", family {0}", "with": ", with {0}",
           "effect_value": "(the effect written after ':')", "expression_value": "(an expression)",
           "when": "when {0}", "whenever": "whenever {0}", "optional": " (optional: the player is asked)",
           "conditional": " (only when its condition holds)", "triggered": "triggered: {0}; {1}",
           "broadcast": "any component in play hears it", "own": "when the event is about this card",
           "action": "action", "during": "during {0}", "any_window": "in any window", "tap": "tap this card",
           "sacrifice": "sacrifice a {0} you control", "costs": "costs: {0}", "once_per": "once per {0}",
           "offered_if": "offered only when its condition holds", "printed_keyword": "a printed keyword", "sep": "; ",
           # a scenario's sheets
           "scenario_of": "{0} \u00b7 scenario {1}", "players": "  players: {0}", "from": "  from: {0}",
           "common_sheet": "The common sheet (read aloud by the first player):",
           "each_sheet": "The sheet of each {0} (each player takes the sheet of the {0} they play):",
           "sheet_authored": " (authored)", "options": "  options: {0}", "hooks": "  hooks: {0}",
           "replaces": "  replaces: {0}", "how_scenario": "How the engine reads it:"},
    "fr": {"rules": "Règles :", "ability": "Capacité {0}", "ability_named": "Capacité {0} : {1}",
           "printed": "imprimé ({0}) : ", "keyword_rules": "  règles :", "reads": "le moteur la lit : ",
           "rulings": "Décisions et notes qui la nomment :", "how": "Comment le moteur la lit :",
           "what": "{0} ({1}), composant « {2} » {3} : {4}", "copies": "exemplaires : {0}",
           "starts": "commence dans : {0}", "per_player": " (un par joueur)", "classes": "classes (pour 'is') : ",
           "authored": "écrit pour le jeu : {0}", "yes": "oui", "none": "aucune capacité",
           "source": "capacité {0} ({1}) :",
           "keyword": "mot-clé '{0}' ({1})", "family": ", famille {0}", "with": ", avec {0}",
           "effect_value": "(l'effet écrit après ':')", "expression_value": "(une expression)",
           "when": "à l'événement « {0} »", "whenever": "à chaque événement « {0} »",
           "optional": " (facultative : le joueur est consulté)",
           "conditional": " (seulement quand sa condition est vraie)", "triggered": "déclenchée : {0} ; {1}",
           "broadcast": "tout composant en jeu l'entend", "own": "quand l'événement concerne cette carte",
           "action": "action", "during": "pendant « {0} »", "any_window": "à tout moment",
           "tap": "incliner cette carte",
           "sacrifice": "sacrifier un {0} que vous contrôlez", "costs": "coûts : {0}", "once_per": "une fois par {0}",
           "offered_if": "proposée seulement quand sa condition est vraie", "printed_keyword": "un mot-clé imprimé",
           "sep": " ; ",
           "scenario_of": "{0} \u00b7 scénario {1}", "players": "  joueurs : {0}", "from": "  extension : {0}",
           "common_sheet": "La fiche commune (lue à voix haute par le premier joueur) :",
           "each_sheet": "La fiche de chaque {0} (chaque joueur prend la sienne) :",
           "sheet_authored": " (écrite pour le jeu)", "options": "  options : {0}",
           "hooks": "  points d'extension : {0}", "replaces": "  remplace : {0}",
           "how_scenario": "Comment le moteur le lit :"},
}


def _of_game(title: str, lang: str) -> str:
    """'of Orbis', « d'Orbis » (elided before a vowel, as French writes it)."""
    return elide(f"de {title}") if lang == "fr" else f"of {title}"


def explain(game, card, lang: str = "en") -> str:
    say = _HEADINGS.get(lang, _HEADINGS["en"])
    program = game.program
    defn = program.defn
    prose = Prose(defn, program.found, lang)
    rules = rules_of(defn)
    out = [f"{card.title} \u00b7 {defn.title}"]
    attrs = prose.attributes(card)
    if attrs:
        out += _wrapped("", attrs, "  ")
    for line in prose.face_texts(card):
        out += _wrapped("", line, "  ")
    if card.rules:
        out += ["", say["rules"]] + _rule_lines(card.rules, rules, "  ")
    uses = program.found.keyword_uses
    keywords = [uses[ab].keyword for ab in card.abilities if ab in uses]
    for n, ab in enumerate(card.abilities, 1):
        use = uses.get(ab)
        name = prose.printed_name(ab)
        out += ["", say["ability_named"].format(n, name) if name else say["ability"].format(n)]
        if use is not None:
            printed = use.keyword.texts.get(lang) or next(iter(use.keyword.texts.values()), None)
            if printed:
                out += _wrapped(say["printed"].format(use.keyword.name), str(printed), "  ")
            if use.keyword.rules:
                out += [say["keyword_rules"]] + _rule_lines(use.keyword.rules, rules, "    ")
        out += _wrapped(say["reads"], prose.reading(ab), "  ")
    rulings = _rulings(defn, card, keywords)
    if rulings:
        out += ["", say["rulings"]]
        for note in rulings:
            out += _wrapped("- ", note, "  ")
    out += ["", say["how"],
            say["what"].format(card.title, card.id, card.component, _of_game(defn.title, lang), _where(card.pos))]
    if card.copies != 1:
        out.append("  " + say["copies"].format(card.copies))
    if card.start:
        out.append("  " + say["starts"].format(card.start) + (say["per_player"] if card.per_player else ""))
    attrs = [f"{k}: {v}" for k, v in card.attrs.items()]
    if attrs:
        out.append("  " + "; ".join(attrs))
    index = next(i for i, c in enumerate(program.comp_card) if c is card)
    classes = sorted(program.comp_classes[index])
    if classes:
        out.append("  " + say["classes"] + ", ".join(classes))
    if card.authored:
        out.append("  " + say["authored"].format(card.authored if isinstance(card.authored, str) else say["yes"]))
    if not card.abilities:
        out.append("  " + say["none"])
    for n, ab in enumerate(card.abilities, 1):
        text = lines_of(str(ab.text).strip())
        out.append("  " + say["source"].format(n, _where(ab.pos)))
        out += [f"      {line}" for line in text]
        use = program.found.keyword_uses.get(ab)
        if use is not None:
            kw = use.keyword
            binds = ", ".join(f"{k} = {_value(v, say)}" for k, v in use.bindings.items())
            out.append("    " + say["keyword"].format(kw.pattern, _where(kw.pos))
                       + (say["family"].format(kw.family) if kw.family else "")
                       + (say["with"].format(binds) if binds else ""))
            for tree, text in zip(kw.trees, kw.ability_texts):
                out.append(f"    - {_header(tree, say)}")
                for line in lines_of(text.strip()):
                    out.append(f"        {line}")
        elif ab.tree is not None:
            out.append(f"    - {_header(ab.tree, say)}")
    return "\n".join(printable(line) for line in out)  # content shown, never obeyed


def character_sheets(defn, sc, lang: str = "en") -> list:
    """A scenario's sheets per character (`characters:`), in the order of the values of the
    attribute the game's powers are unique by, then any other: (character, title, text,
    authored) each, the title and text in `lang` (else as written). Empty when the scenario
    has none."""
    sheets = sc.data.get("characters") if sc is not None else None
    if not isinstance(sheets, dict):
        return []
    unique = defn.powers.unique if defn.powers is not None else None
    attr = defn.attributes.get(unique) if unique else None
    order = [str(v) for v in attr.values] if attr is not None and attr.values else []
    names = sorted((str(k) for k in sheets), key=lambda k: (order.index(k) if k in order else len(order), k))
    out = []
    for name in names:
        sheet = next(v for k, v in sheets.items() if str(k) == name)
        if not isinstance(sheet, dict):
            continue
        out.append((name, in_language(sheet.get("title"), lang) or name, in_language(sheet.get("text"), lang).strip(),
                    sheet.get("authored")))
    return out


def character_word(defn) -> str:
    """What a scenario's sheets are by: the attribute the game's powers are unique by
    ('character'), or 'character' when the game names none."""
    unique = defn.powers.unique if defn.powers is not None else None
    return str(unique) if unique else "character"


def character_noun(defn, lang: str) -> str:
    """`character_word` as the game's vocabulary says it in `lang` (its identifier's words when
    it gives none)."""
    return Vocabulary(defn, lang).noun(character_word(defn), "attribute").one


def find_scenario(defn, name: str):
    """The scenario laid over the game (or checked with it) whose id or title (in any language
    it is written in) is `name` (accents and case ignored), or None."""
    key = fold(name)
    for sc in ([defn.scenario] if defn.scenario is not None else []) + list(defn.scenarios):
        if fold(sc.id) == key or any(fold(t) == key for t in sc.titles()):
            return sc
    return None


def explain_scenario(game, sc, lang: str = "en") -> str:
    """A scenario for its players: its title, player counts and expansion; the first sheet
    (its context and the conditions for every player), read aloud by the first player; then
    the sheet of each character, that each player takes for the character they play; for a
    modder, where it is written and what it hooks and replaces. Its headings and its sheets in
    `lang` (a sheet not written in it, in the language it is written in)."""
    defn = game.program.defn
    say = _HEADINGS.get(lang, _HEADINGS["en"])
    named = sc.title_in(lang)
    out = [say["scenario_of"].format(named, _of_game(defn.title, lang))]
    players = sc.data.get("players")
    if isinstance(players, list) and players:
        out.append(say["players"].format(", ".join(str(p) for p in players)))
    layer = next((x for x in defn.layers if x.id == sc.layer), None)
    if layer is not None and layer.kind is not LayerKind.SCENARIO:
        out.append(say["from"].format(layer.title_in(lang)))
    common = sc.text_in(lang).strip()
    if common:
        out += ["", say["common_sheet"]]
        out += [("  " + line).rstrip() for line in common.splitlines()]
    sheets = character_sheets(defn, sc, lang)
    if sheets:
        out += ["", say["each_sheet"].format(character_noun(defn, lang))]
        for name, title, text, authored in sheets:
            out.append(f"  {title} [{name}]" + (say["sheet_authored"] if authored else ""))
            out += _wrapped("", text, "    ", hang=0)
    out += ["", say["how_scenario"], f"{named} ({sc.id}): {_where(sc.pos)}"]
    if sc.data.get("options"):
        out.append(say["options"].format(", ".join(f"{k}: {v}" for k, v in dict(sc.data["options"]).items())))
    if sc.hooks:
        out.append(say["hooks"].format(", ".join(sorted(sc.hooks))))
    if sc.replace:
        out.append(say["replaces"].format(", ".join(sorted(sc.replace))))
    return "\n".join(printable(line) for line in out)  # content shown, never obeyed
