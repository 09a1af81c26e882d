"""Hostile programs for the fuzz suite: small games written to break the engine.

`hostile(seed, index)` writes a whole game (a game file and a card file)
around one hostile piece drawn with a generator seeded from
`"hostile:{seed}:{index}"`: blocks and expressions nested hundreds deep,
loops that never end or run a billion times, huge ranges, numbers and lists,
procedures, functions and events that recurse, texts reading names that are
not there, values of the wrong kind, names holding separators or control
characters. Each piece is put where the language allows it: the game
procedure, a procedure it calls, a card's trigger or action, a function.

Whatever the piece does, loading the game must give either clean errors or a
game whose plays end, stop at the decision cap, or stop with a clean fault.
"""
from __future__ import annotations

import json
import random
import textwrap

from fuzz_mutations import Case

GAME = """\
kind: game
id: hostile
title: Hostile
players: {{min: 2, max: 3}}
attributes:
  value: {{type: number, default: 0}}
classes: [Marked]
zones:
{zones}counters:
{counters}events:
  tick: []
  played: [card]
windows: [main]
score: points
{functions}procedures:
  game: |
{game}
    repeat 3 times:
      for each p in players:
        choose by p "Turn of {{p}}":
          option "Draw" if count(deck) > 0:
            move top(deck) to p.hand
          option "Play {{c}}" for each c in p.hand:
            move c to p.table
            signal played(c)
          option "Coin":
            gain 1 coins to p
          option actions during main
    win first(players)
{procedures}"""

ZONES = """\
  deck: {scope: game, visibility: hidden}
  hand: {scope: player, visibility: owner}
  table: {scope: player, in_play: true}
"""
COUNTERS = """\
  coins: {scope: player, supply: 20}
  points: {scope: player}
  ticks: {scope: game}
"""
CARDS = """\
kind: cards
game: hostile
start: deck
cards:
  - {{id: one, title: One, value: 1}}
  - {{id: two, title: Two, value: 2, abilities: ["when played: gain 1 coins"]}}
  - id: three
    title: Three
    value: 3
    abilities:
{abilities}"""
PLAIN_ABILITY = '      - "action \\"Cash in\\" during main cost tap: gain 2 coins"\n'


def hostile(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a game around one hostile piece."""
    rng = random.Random(f"hostile:{seed}:{index}")
    make = rng.choice(PIECES)
    piece = make(rng)
    case = Case(f"{seed}:{index}", "hostile", None, target=f"hostile/{make.__name__}", what=[piece.what])
    case.files = piece.files()
    return case


def benign() -> Case:
    """The game hostile pieces go into, with nothing hostile in it: it loads and plays."""
    return Case("benign", "hostile", None, Piece("nothing").files(), ["nothing hostile"], "hostile/benign")


class Piece:
    """A hostile piece and where it goes; `files()` writes the game around it."""

    def __init__(self, what: str, body: str = "", *, procedures: dict | None = None, functions: dict | None = None,
                 ability: str | None = None, zones: str = ZONES, counters: str = COUNTERS, cards: str | None = None):
        self.what = what
        self.body = body
        self.procedures = procedures or {}
        self.functions = functions or {}
        self.ability = ability
        self.zones = zones
        self.counters = counters
        self.cards = cards

    def files(self) -> dict:
        game = textwrap.indent(self.body or "pass", "    ")
        procs = "".join(f"  {name}:\n    params: {json.dumps(params)}\n    body: |\n"
                        + textwrap.indent(body, "      ") + "\n"
                        for name, (params, body) in self.procedures.items())
        funcs = ""
        if self.functions:
            funcs = "functions:\n" + "".join(
                f"  {name}:\n    params: {json.dumps(params)}\n    body: {_quoted(body)}\n"
                for name, (params, body) in self.functions.items())
        ability = PLAIN_ABILITY if self.ability is None else "      - |\n" + textwrap.indent(self.ability, " " * 8) + "\n"
        return {
            "game.yaml": GAME.format(zones=self.zones, counters=self.counters, functions=funcs, game=game,
                                     procedures=procs),
            "cards.yaml": self.cards if self.cards is not None else CARDS.format(abilities=ability),
        }


def _quoted(text: str) -> str:
    # a YAML double-quoted scalar is a JSON string, but for characters JSON leaves raw
    return json.dumps(text, ensure_ascii=True)


DEPTHS = (5, 19, 20, 21, 30, 60, 100, 250, 1000)
BIG = (10 ** 3, 10 ** 6, 10 ** 9, 10 ** 18, 2 ** 63, 10 ** 40)


# -- nesting ------------------------------------------------------------------------------------------

def nested_blocks(rng):
    n = rng.choice(DEPTHS)
    head = rng.choice(("if true:", "repeat 1 times:", "while false:", "for each p in players:", "if ticks >= 0:",
                       "menu"))
    lines, indent = [], 0
    for _ in range(n):
        if head == "menu":
            lines += [" " * indent + 'choose by you "Deep":', " " * (indent + 2) + 'option "On":']
            indent += 4
        else:
            lines.append(" " * indent + head)
            indent += 2
    lines.append(" " * indent + "add 1 to ticks")
    return Piece(f"{n} nested blocks of {head!r}", "\n".join(lines))


def nested_expression(rng):
    n = rng.choice(DEPTHS + (3000,))
    form = rng.choice(("paren", "neg", "not", "list", "call", "sum", "and", "next", "product", "index"))
    expr = {
        "paren": "(" * n + "1" + ")" * n,
        "neg": "- " * n + "1",
        "not": "not " * n + "true",
        "list": "count(" + "[" * n + "1" + "]" * n + ")",
        "call": "abs(" * n + "1" + ")" * n,
        "sum": " + ".join(["1"] * n),
        "and": " and ".join(["true"] * n),
        "next": "seat(" + "next(" * n + "you" + ")" * n + ")",
        "product": " * ".join(["2"] * min(n, 4000)),
        "index": "[" + ", ".join(["1"] * n) + "][" + str(n) + "]",
    }[form]
    if form in ("not", "and"):
        body = f"if {expr}:\n  add 1 to ticks"
    else:
        body = f"set ticks = {expr}"
    return Piece(f"expression {form} {n} deep", body)


def elif_chain(rng):
    n = rng.choice((50, 500, 3000))
    lines = ["if ticks == -1:", "  pass"]
    for k in range(n):
        lines += [f"elif ticks == {k + 100}:", "  pass"]
    lines += ["else:", "  add 1 to ticks"]
    return Piece(f"if with {n} elif", "\n".join(lines))


def many_statements(rng):
    n = rng.choice((2000, 20000))
    return Piece(f"{n} statements", "\n".join(["add 1 to ticks"] * n))


# -- loops and sizes ----------------------------------------------------------------------------------

def runaway_loop(rng):
    body = rng.choice((
        "repeat:\n  pass",
        "while true:\n  pass",
        "while true:\n  add 1 to ticks",
        "repeat:\n  continue",
        "let k = 0\nwhile k >= 0:\n  set k = k + 1",
        "repeat:\n  for each p in players:\n    gain 1 coins to p\n    lose 1 coins from p",
        "while count(deck) >= 0:\n  shuffle deck",
    ))
    return Piece("a loop that never ends: " + body.replace("\n", " / "), body)


def huge_count(rng):
    n = rng.choice(BIG)
    body = rng.choice((
        f"repeat {n} times:\n  add 1 to ticks",
        f"for each i in range({n}):\n  pass",
        f"let r = range({n})\nset ticks = count(r)",
        f"set ticks = count(range(2, {n}))",
        f"set ticks = sum(range({n}))",
        f"choose i from range({n}) by you \"Pick\"\nset ticks = i",
        f"set ticks = count(top(deck, {n}))",
        f"set ticks = seat(next(you, {n}))",
        f"roll d = {n} dice\nset ticks = sum(d)",
        f"roll d = 2 dice of {n}\nset ticks = sum(d)",
        f"set ticks = count(distinct(range({n})))",
        f"set ticks = count(sorted(reversed(range({n}))))",
    ))
    return Piece(f"a count of {n}: " + body.replace("\n", " / "), body)


def growing_value(rng):
    k = rng.choice((20, 40, 64, 200))
    body = rng.choice((
        f"let x = 2\nrepeat {k} times:\n  set x = x * x\nset ticks = x % 7",
        f"let xs = [1]\nrepeat {k} times:\n  set xs = xs + xs\nset ticks = count(xs)",
        f"let x = 1\nrepeat {k} times:\n  set x = x * 1000000000\nscore x",
        f"repeat {k} times:\n  set ticks = ticks * 1000 + 999",
        f"let x = 1\nrepeat {k} times:\n  set x = x * x + 1\nset ticks = x / x",
    ))
    return Piece(f"a value doubling in size {k} times: " + body.replace("\n", " / "), body)


def huge_literal(rng):
    digits = rng.choice((19, 20, 300, 4300, 4301, 5000, 100000))
    number = "9" * digits
    body = rng.choice((f"set ticks = {number}", f"score {number}", f"repeat {number} times:\n  pass",
                       f"set ticks = -{number}", f"set ticks = {number} - {number}",
                       f"if ticks < {number}:\n  pass"))
    return Piece(f"a number literal of {digits} digits", body)


def huge_text(rng):
    n = rng.choice((10 ** 4, 10 ** 5))
    body = rng.choice((f'log "{"x" * n}"', f'fail "{"{x}" * (n // 3)}"',
                       f'choose c from deck by you "{"{c}" * (n // 3)}"\nmove c to you.hand'))
    return Piece(f"a text of {n} characters", body)


# -- recursion ----------------------------------------------------------------------------------------

def recursion(rng):
    guard = rng.choice((None, 100, 10000, 10 ** 6))
    step = ("add 1 to ticks\n" + (f"if ticks < {guard}:\n  " if guard else "")) if rng.random() < 0.8 else ""
    shape = rng.choice(("self", "mutual", "function", "mutual-function", "event", "event-played"))
    if shape == "self":
        return Piece(f"a procedure calling itself (guard {guard})", "call again()",
                     procedures={"again": ([], step + "call again()")})
    if shape == "mutual":
        return Piece(f"two procedures calling each other (guard {guard})", "call ping()",
                     procedures={"ping": ([], step + "call pong()"), "pong": ([], "call ping()")})
    if shape == "function":
        n = guard or 10 ** 5
        return Piece(f"a function recursing {n} deep", f"set ticks = down({n})",
                     functions={"down": (["n"], "select(n <= 0, 0, 1 + down(n - 1))")})
    if shape == "mutual-function":
        return Piece("two functions calling each other forever", "set ticks = f(1)",
                     functions={"f": (["n"], "g(n) + 1"), "g": (["n"], "f(n) + 1")})
    if shape == "event":
        return Piece(f"an event whose handler signals it again (guard {guard})",
                     "move card(\"three\") to first(players).table\nsignal tick",
                     ability="whenever tick:\n  " + step.replace("\n", "\n  ") + "signal tick")
    return Piece("a card whose trigger signals its own event", "let c = card(\"three\")\nmove c to you.table\n"
                 "signal played(c)", ability="whenever played:\n  signal played(self)")


def call_chain(rng):
    n = rng.choice((50, 500, 3000))
    if rng.random() < 0.5:
        procs = {f"p{k}": ([], f"call p{k + 1}()") for k in range(n)}
        procs[f"p{n}"] = ([], "add 1 to ticks")
        return Piece(f"a chain of {n} procedures, each calling the next", "call p0()", procedures=procs)
    funcs = {f"f{k}": (["n"], f"f{k + 1}(n) + 1") for k in range(n)}
    funcs[f"f{n}"] = (["n"], "n")
    return Piece(f"a chain of {n} functions, each calling the next", "set ticks = f0(1)", functions=funcs)


# -- texts, names before their let, comparisons with none -----------------------------------------------

def unbound_text(rng):
    text = rng.choice(("{zz}", "{later}", "{c.nope}", "{1 / 0}", "{[1][5]}", "{", "}", "{{}}", "{ }", "{}",
                       "{c}{c}{c}", "{none.title}", "{first(deck).title}", "{p}"))
    where = rng.choice(("log", "fail", "prompt", "label", "label-each", "action"))
    if where == "log":
        body = f'log "{text}"\nlet later = 1'
    elif where == "fail":
        body = f'if ticks > 0:\n  fail "{text}"\nlet later = 1'
    elif where == "prompt":
        body = f'choose c from deck by you "{text}"\nlet later = 1\nmove c to you.hand'
    elif where == "label":
        body = f'choose by you:\n  option "{text}":\n    pass\n  option "B":\n    pass\nlet later = 1'
    elif where == "label-each":
        body = f'choose by you:\n  option "{text}" for each c in deck:\n    pass\nlet later = 1'
    else:
        return Piece(f"an action labelled {text!r}", "move card(\"three\") to you.table",
                     ability=f'action "{_escaped(text)}" during main cost tap:\n  gain 1 coins')
    return Piece(f"the text {text!r} in a {where}", body)


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def before_let(rng):
    body = rng.choice((
        "if true:\n  let a = 1\nset ticks = a",
        "set ticks = a\nlet a = 1",
        "for each p in players:\n  let q = p\nwin q",
        "repeat 2 times:\n  if ticks == 1:\n    set ticks = a\n  let a = 5\n  set ticks = 1",
        "while ticks < 2:\n  add 1 to ticks\n  if ticks == 2:\n    score b to you\n  let b = 3",
        "choose by you:\n  option \"A\":\n    let a = 1\n  option \"B\":\n    pass\nset ticks = a",
        "if ticks > 10:\n  let a = 1\nelse:\n  pass\nset ticks = a",
        "let a = a + 1",
        "for each a in range(a):\n  pass",
    ))
    return Piece("a name read before its let: " + body.replace("\n", " / "), body)


def none_comparison(rng):
    left, right = rng.choice((("3", "none"), ("none", "3"), ('"a"', "none"), ("3", "4"), ("[]", "none"),
                              ("true", "none"), ("none", "none"), ("you", "3")))
    op = rng.choice(("!=", "==", "is", "is not", "in", "not in", "<"))
    return Piece(f"if {left} {op} {right}", f"if {left} {op} {right}:\n  add 1 to ticks")


# -- values of the wrong kind, zero, none, out of range -------------------------------------------------

def odd_values(rng):
    body = rng.choice((
        "set ticks = 1 / 0", "set ticks = 1 % 0", "set ticks = 5 / (ticks - ticks)", "set ticks = 5 % (ticks - ticks)",
        "score -5", "gain -3 coins", "lose 100 coins", "add -1 to ticks", "remove 5 from ticks",
        "pay 100 from you.coins", "gain 1000 coins", "set ticks = -1000000",
        "set ticks = [1, 2][0]", "set ticks = [1, 2][3]", "set ticks = [1][-1]", "win players[0]", "win players[99]",
        "move none to deck", "win none", "win []", "set ticks = seat(next(none))", "score none", "tap none",
        "shuffle none", "tag none as Marked", "let x = first(top(deck, 0))\nmove x to you.hand",
        "move 3 to deck", "score \"a\"", "win 3", "set ticks = \"a\" + 1", "set ticks = [1] + 1",
        "set ticks = count(sorted([you, 1]))", "set ticks = max([you])", "set ticks = sum([\"a\"])",
        "set ticks = count(3)", "move you to deck", "if \"a\" < 1:\n  pass", "if [1] < [2]:\n  pass",
        "set ticks = count(\"a\" * 3)", "set ticks = count([1] * 1000000000)", "set ticks = -[1]",
        "set ticks = max([])", "set ticks = min([])", "set ticks = first([])", "move random(each c in hand) to deck",
        "set ticks = most([])", "set ticks = abs(none)", "set ticks = count(range(5, 1))", "roll d = 0 dice",
        "roll d = -1 dice", "roll d = 1 dice of 0", "roll d = 1 dice of -6", "set ticks = seat(next(you, -5))",
        "move top(deck) to top(deck).hand", "set ticks = node(\"x\").value", "set ticks = card(\"nope\").value",
        "move card(\"one\") to card(\"one\").table", "set ticks = count(cards(\"\"))", "set ticks = option(\"zz\")",
        "set ticks = supply(\"zz\")", "set ticks = supply(\"points\")", "set ticks = has(you, \"Marked\")",
        "exit nope", "exit game", "return", "set you = none", "set ticks = ticks.value", "set ticks = you.value",
        "tag first(deck) as Marked\ntag first(deck) as Marked", "untag first(deck) as Marked",
        "move top(deck) to deck at bottom\nmove bottom(deck) to deck at top",
        "set players[1].coins = 100", "set players[1].coins = -5", "set first(deck).value = none",
    ))
    return Piece("an odd value: " + body.replace("\n", " / "), body)


# -- names holding separators and odd characters -----------------------------------------------------------

ODD_NAMES = ("co#ins", "co:ins", "co.ins", "co ins", "co\\0ins", "co\\x01ins", "co\\u202eins", "coins\\n",
             "co\\u0301ins", "you", "self", "players", "none", "true", "each", "if", "coins2", "Coins", "coïns",
             "co\\tins", "co|ins", "co/ins", "co@ins", "1coins", "_", "co'ins")


def odd_names(rng):
    name = rng.choice(ODD_NAMES)
    where = rng.choice(("counter", "zone", "card", "event", "class", "procedure", "attribute", "window"))
    q = f'"{name}"'
    zones, counters, cards = ZONES, COUNTERS + f"  {q}: {{scope: player}}\n", None
    body = "pass"
    if where == "zone":
        zones = ZONES + f"  {q}: {{scope: player}}\n"
        counters = COUNTERS
    elif where == "card":
        counters = COUNTERS
        cards = CARDS.format(abilities=PLAIN_ABILITY) + f"  - {{id: {q}, title: Odd}}\n"
    piece = Piece(f"a {where} named {name!r}", body, zones=zones, counters=counters, cards=cards)
    if where == "event":
        piece.counters = COUNTERS
        piece.body = "pass"
        files = piece.files()
        files["game.yaml"] = files["game.yaml"].replace("events:\n", f"events:\n  {q}: []\n")
        return _Fixed(piece.what, files)
    declared = {  # where the name goes in the game file: (the text there, the text with the name)
        "class": ("classes: [Marked]", f"classes: [Marked, {q}]"),
        "attribute": ("attributes:\n", f"attributes:\n  {q}: {{type: number}}\n"),
        "window": ("windows: [main]", f"windows: [main, {q}]"),
    }
    if where in declared or where == "procedure":
        what = f"{'an' if where == 'attribute' else 'a'} {where} named {name!r}"
        files = Piece(what).files()
        if where == "procedure":  # the procedures come last in the game file
            files["game.yaml"] += f"  {q}: |\n    pass\n"
        else:
            files["game.yaml"] = files["game.yaml"].replace(*declared[where])
        return _Fixed(what, files)
    return piece


class _Fixed:
    """A piece whose files are written already."""

    def __init__(self, what: str, files: dict):
        self.what = what
        self._files = files

    def files(self) -> dict:
        return self._files


def odd_ids(rng):
    """Identifiers the schema's patterns should refuse: a trailing line break, a leading one."""
    ident = rng.choice(("one\\n", "\\none", "one\\nx", "one\\r", "one-", "ONE", "o#ne", "o ne"))
    files = Piece(f"a card id {ident!r}").files()
    files["cards.yaml"] += f'  - {{id: "{ident}", title: Odd}}\n'
    return _Fixed(f"a card id {ident!r}", files)


PIECES = (nested_blocks, nested_expression, elif_chain, many_statements, runaway_loop, huge_count, growing_value,
          huge_literal, huge_text, recursion, call_chain, unbound_text, before_let, none_comparison, odd_values, odd_values,
          odd_names, odd_ids)
