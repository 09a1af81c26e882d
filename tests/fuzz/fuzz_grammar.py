"""Rules texts generated from the grammar of the language, for the fuzz suite.

`grammar_case(seed, index)` makes case number `index` of a run seeded `seed`:
a random derivation of the Lark grammar (grammar/regles.lark, the rules of
the parser the interpreter builds), put in a small game (the docs game of
tests/fixtures) as one of:

- a procedure the game calls on every turn (`call fuzzed(p)`), from the start
  symbol `procedure`;
- an ability of a card of the market, from `ability`;
- the ability of a keyword printed on that card, from `ability`;
- the body of a game function the turn reads, from `condition`.

The derivation walks the grammar's rules from the start symbol, choosing an
alternative at random; past a depth drawn for the case (and past a number of
tokens) it takes the alternative that ends soonest. Each name is drawn from
the game's own names of the kind its place wants (a counter after `gain 2`,
a window after `during`, an event after `signal`, a built-in or a function
before `(`, a name bound earlier in the text for a value...) most of the
time, and is a random name sometimes. Tokens are written with a space
between them; `_NL`, `_INDENT` and `_DEDENT` make lines and their indentation.

The oracle is the fuzz suite's; `grammar_figures` says which share of the
texts parse, check and play.
"""
from __future__ import annotations

import random
import re
import textwrap
from functools import lru_cache
from pathlib import Path

from fuzz_mutations import ROOT, Case

GAME = ROOT / "tests" / "fixtures" / "docs-game"
PLACES = ("procedure", "procedure", "procedure", "ability", "ability", "keyword", "keyword", "condition")
RANDOM_NAMES = ("zork", "x1", "été", "Équipage", "_", "a'b", "dek", "coin", "Coins", "hand2", "ÿ", "xs", "n",
                "player", "card", "zone", "round_start", "main", "top_card", "qq")
STRINGS = ('"Pick"', '"Pick {c}"', '"{p}"', '"Buy {c.title}"', '""', '"a\\"b"', '"{x}"', '"{1 / 0}"', '"{"',
           '"Go"', '"Your turn, {you}"', '"\\\\"', '"{c.cost} coins"')
NUMBERS = ("0", "1", "2", "3", "4", "5", "10", "100", "0", "1", "1", "2", "12345678901234567890", "007")
TERMINAL_CHOICES = {"CMP": ("==", "!=", "<=", ">=", "<", ">"), "ADDOP": ("+", "-", "-", "–"),
                    "MULOP": ("*", "/", "%"), "DASH": ("-", "-", "–", "—")}
BINDERS = {"let_stmt", "for_stmt", "choose_stmt", "roll_stmt", "decide_stmt", "each", "mapped"}


@lru_cache(maxsize=1)
def grammar():
    """(rules by origin, the least height of each symbol, the patterns of terminals)."""
    from interpreter.language.parser import lark_parser
    lark = lark_parser()
    rules: dict = {}
    for r in lark.rules:
        rules.setdefault(r.origin.name, []).append(r)
    height = {}
    changed = True
    while changed:
        changed = False
        for origin, alts in rules.items():
            for r in alts:
                hs = [0 if s.is_term else height.get(s.name) for s in r.expansion]
                if None in hs:
                    continue
                h = 1 + max(hs, default=0)
                if h < height.get(origin, 1 << 30):
                    height[origin] = h
                    changed = True
    patterns = {t.name: t.pattern for t in lark.terminals}
    return rules, height, patterns


@lru_cache(maxsize=1)
def names() -> dict:
    """The docs game's names, by the kind of place that wants them."""
    import interpreter
    from interpreter.language.builtins import FUNCTIONS, PROPERTIES
    d = interpreter.load(str(GAME)).program.defn
    words = sorted({p.split()[0].rstrip(":") for p in (k.pattern for k in d.keywords)})
    return {
        "counter": sorted(d.counters), "zone": sorted(d.zones), "window": list(d.windows),
        "event": sorted(d.events), "procedure": sorted(d.procedures), "class": sorted({c for _, c in d.classes.values()}
                                                                                     | set(d.classes)),
        "attribute": sorted(d.attributes) + sorted(PROPERTIES) + sorted(d.counters) + sorted(d.zones),
        "function": sorted(FUNCTIONS) + sorted(d.functions), "phrase": words, "card": sorted(c.id for c in d.cards),
        "value": ["p", "you", "self", "players", "options", "data", "round", "market", "deck", "discard",
                  "player_count", "cause"],
        "limit": ["turn", "round", "game"],
    }


@lru_cache(maxsize=1)
def functions() -> list:
    """(name, fewest, most arguments) of every built-in and function of the docs game."""
    import interpreter
    from interpreter.language.builtins import FUNCTIONS
    out = [(name, f.min_args, f.max_args) for name, f in sorted(FUNCTIONS.items())]
    for name, fn in sorted(interpreter.load(str(GAME)).program.defn.functions.items()):
        n = len(getattr(fn, "params", ()) or ())
        out.append((name, n, n))
    return out


@lru_cache(maxsize=1)
def keywords() -> list:
    """(pattern, {parameter: kind}) of the docs game's keywords."""
    import interpreter
    return [(k.pattern, {str(p): str(t) for p, t in (k.params or {}).items()})
            for k in interpreter.load(str(GAME)).program.defn.keywords]


NAME_PLACES = {  # (the rule, or its alias) -> the kind of name wanted there
    "gain_stmt": "counter", "lose_stmt": "counter", "pay_cost": "counter", "spend_cost": "counter",
    "windows": "window", "actions_option": "window", "limit": "limit", "signal_stmt": "event",
    "trigger_ability": "event", "call_stmt": "procedure", "tag_stmt": "class", "untag_stmt": "class",
    "sacrifice_cost": "class", "exit_stmt": "procedure", "attr": "attribute", "call": "function",
    "phrase": "phrase", "name": "value",
}


class Derivation:
    def __init__(self, rng: random.Random, depth: int, most: int = 400):
        self.rng, self.depth, self.most = rng, depth, most
        self.rules, self.height, self.patterns = grammar()
        self.tokens: list = []
        self.bound: list = []

    def symbol(self, name: str, is_term: bool, rule, depth: int) -> None:
        if is_term:
            self.tokens.append((name, self.terminal(name, rule)))
            return
        alts = self.rules[name]
        if name == "phrase" and self.rng.random() < 0.85 and keywords():
            self.phrase()
            return
        if depth > self.depth or len(self.tokens) > self.most:
            least = min(self._height(r) for r in alts)
            alts = [r for r in alts if self._height(r) == least]
        # an alternative that holds its own rule again (`sum_expr + product`, one more statement)
        # is taken less often, and the plain way through a level of expressions (`compare` as one
        # `sum_expr`) more often, so that texts stay of a size a card has
        weights = [0.25 if any(s.name == name for s in r.expansion) else
                   5.0 if len(r.expansion) == 1 and not r.expansion[0].is_term else 1.0 for r in alts]
        r = self.rng.choices(alts, weights)[0]
        if r.alias == "call" and depth <= self.depth and len(self.tokens) <= self.most and self.rng.random() < 0.95:
            self.call(depth)
            return
        for s in r.expansion:
            self.symbol(s.name, s.is_term, r, depth + 1)

    def call(self, depth: int) -> None:
        """A call of a built-in or a game function with as many arguments as it takes."""
        fname, low, high = self.rng.choice(functions())
        self.tokens += [("NAME", fname), ("LPAR", "(")]
        for k in range(self.rng.randint(low, high)):
            if k:
                self.tokens.append(("COMMA", ","))
            self.symbol("_arg" if self.rng.random() < 0.3 else "expr", False, None, depth + 2)
        self.tokens.append(("RPAR", ")"))

    def phrase(self) -> None:
        """A keyword of the game, as a card prints it: its pattern with its parameters filled."""
        pattern, params = self.rng.choice(keywords())
        for word in pattern.split():
            kind = params.get(word.rstrip(":"))
            if kind is None:
                self.tokens.append(("NAME", word))
                continue
            filled = {"number": self.rng.choice(NUMBERS[:8]), "class": self.rng.choice(names()["class"]),
                      "effect": "gain 1 coins", "condition": "true", "name": "x"}.get(kind, "x")
            self.tokens.append(("NAME", filled + (":" if word.endswith(":") else "")))

    def _height(self, r) -> int:
        return 1 + max((0 if s.is_term else self.height.get(s.name, 1 << 20) for s in r.expansion), default=0)

    def terminal(self, name: str, rule) -> str:
        rng = self.rng
        if name in ("_NL", "_INDENT", "_DEDENT"):
            return ""
        if name == "NAME":
            return self.name(rule)
        if name == "NUMBER":
            return rng.choice(NUMBERS)
        if name == "STRING":
            return rng.choice(STRINGS)
        if name in TERMINAL_CHOICES:
            return rng.choice(TERMINAL_CHOICES[name])
        p = self.patterns[name]
        if type(p).__name__ == "PatternStr":
            return p.value
        return p.value  # a regular expression of one literal (WHEN, TOP...): as written

    def name(self, rule) -> str:
        rng = self.rng
        if rng.random() < 0.05:
            return rng.choice(RANDOM_NAMES)
        origin = rule.origin.name.lstrip("_")
        alias = rule.alias
        if origin in BINDERS or alias in BINDERS:
            if rule.expansion and rule.expansion[0].name in ("LET", "FOR", "CHOOSE", "ROLL", "DECIDE", "EACH") \
                    or alias in ("each", "mapped") or origin in BINDERS:
                fresh = rng.choice(("c", "x", "n", "q", "k", "d", "s", "picked", "it"))
                if fresh not in self.bound:
                    self.bound.append(fresh)
                return fresh
        kind = NAME_PLACES.get(alias) or NAME_PLACES.get(origin)
        table = names()
        if kind == "value":
            pool = self.bound * 3 + table["value"] + table["zone"] + table["counter"] + table["card"][:2]
            return rng.choice(pool)
        if kind:
            return rng.choice(table[kind])
        return rng.choice(table["value"] + self.bound)


def derive(rng: random.Random, start: str, depth: int) -> str:
    d = Derivation(rng, depth)
    d.symbol(start, False, None, 0)
    return render(d.tokens)


def render(tokens: list) -> str:
    """Tokens as text: a space between two, a line per _NL, two spaces more per _INDENT."""
    out, indent, fresh = [], 0, True
    for kind, value in tokens:
        if kind == "_NL":
            out.append("\n")
            fresh = True
        elif kind == "_INDENT":
            indent += 1
        elif kind == "_DEDENT":
            indent = max(0, indent - 1)
        else:
            out.append("  " * indent if fresh else " ")
            out.append(value)
            fresh = False
    text = "".join(out).strip("\n")
    return text + "\n"


# -- the game the text goes in -----------------------------------------------------------------------

def _read(rel: str) -> str:
    return (GAME / rel).read_text(encoding="utf-8")


def _block(text: str, indent: int) -> str:
    return textwrap.indent(text, " " * indent, lambda line: True).rstrip(" ") if text.strip() else " " * indent + "pass\n"


def grammar_case(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a generated text in a place of the docs game."""
    rng = random.Random(f"grammar:{seed}:{index}")
    place = rng.choice(PLACES)
    depth = rng.choice((16, 20, 24, 28, 34, 40))
    start = {"procedure": "procedure", "ability": "ability", "keyword": "ability", "condition": "condition"}[place]
    text = derive(rng, start, depth)
    case = Case(f"grammar:{seed}:{index}", "grammar", GAME, target=f"docs-game/{place}",
                what=[f"a {start} (depth {depth}) as {place}: {_one_line(text)}"])
    game = _read("game.yaml")
    market = _read("cards/market.yaml")
    if place == "procedure":
        game = game.replace("      gain 1 coins to p\n", "      gain 1 coins to p\n      call fuzzed(p)\n", 1)
        game = game.replace("  take_income:\n", "  fuzzed:\n    params: [p]\n    acting: p\n    body: |\n"
                            + _block(text, 6) + "  take_income:\n", 1)
    elif place == "ability":
        market = market.replace('      - "Income 1"\n', '      - "Income 1"\n      - |\n' + _block(text, 8), 1)
    elif place == "keyword":
        keywords = _read("keywords.yaml").rstrip("\n") + "\n\n  - pattern: \"Fuzzed\"\n    text: \"Generated.\"\n" \
            "    ability: |\n" + _block(text, 6)
        case.files["keywords.yaml"] = keywords
        market = market.replace('      - "Income 1"\n', '      - "Income 1"\n      - "Fuzzed"\n', 1)
    else:
        one = " ".join(text.split())
        game = game.replace("functions:\n", "functions:\n  probe:\n    params: [p]\n    body: " + _quoted(one) + "\n", 1)
        game = game.replace("      gain 1 coins to p\n", "      gain 1 coins to p\n      let probed = probe(p)\n", 1)
    case.files["game.yaml"] = game
    case.files["cards/market.yaml"] = market
    return case


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _one_line(text: str) -> str:
    one = re.sub(r"\s*\n\s*", " / ", text.strip())
    return one if len(one) <= 160 else one[:150] + f"...({len(text)} characters)"


def grammar_figures(outcomes: list) -> dict:
    """Of generated texts: how many parse, how many check (the game loads), how many play."""
    grammar_cases = [o for o in outcomes if o.kind == "grammar"]
    syntax = [o for o in grammar_cases if o.stage == "load error" and "syntax error" in o.first_error]
    loaded = [o for o in grammar_cases if o.stage == "loaded"]
    return {"texts": len(grammar_cases), "parse": len(grammar_cases) - len(syntax),
            "check": len(loaded), "play": sum(o.games > 0 and o.ended + o.capped > 0 for o in loaded)}
