"""Rules texts for the parsers' tests: every text that checking the content and the test files
parses, damaged variants of them, edge cases, and a tree dumped as plain data to compare."""
from __future__ import annotations

import random
from functools import lru_cache

from interpreter.language import nodes as N
from interpreter.language import parser as P
from interpreter.language.tonodes import Located
from interpreter.rulings.check import check_paths
from interpreter.diagnostics import ContentError

from gamekit import ROOT


def dump(n):
    """A node tree as plain data, positions included (those of names as well)."""
    if isinstance(n, N.Node):
        return (type(n).__name__, n.pos, {k: dump(v) for k, v in vars(n).items() if k != "pos"})
    if isinstance(n, (list, tuple)):
        return [type(n).__name__] + [dump(x) for x in n]
    if isinstance(n, Located):
        return ("Located", str(n), n.pos)
    return (type(n).__name__, n)


def outcome(text, start, where):
    P._TREES.clear()
    try:
        return ("tree", dump(P.parse(text, start, where)))
    except ContentError as exc:
        return ("error", exc.message, exc.position, exc.hint)


@lru_cache(maxsize=1)
def rules_texts():
    """Every (text, start, where) that checking the content and the test files parses."""
    seen = {}
    real = P.parse

    def record(text, start, where=None, path="<text>"):
        seen.setdefault((str(text), start, getattr(where, "__self__", None) and where.__self__.pos), (str(text), start, where))
        return real(text, start, where, path)
    P.parse = record
    try:
        import interpreter.language.texts as texts
        texts.parse = record
        texts.KEPT_TREES.clear()  # parsed by an earlier check of this process: every text parsed here
        # in one call: the files that name one game are checked with it once
        check_paths([str(ROOT / "content")] + [str(f) for folder in ("tests/corpus", "tests/fixtures")
                                               for f in sorted((ROOT / folder).rglob("*.yaml"))])
    finally:
        P.parse = real
        texts.parse = real
    return list(seen.values())


def damaged(text: str, rng: random.Random) -> str:
    pieces = ["(", ")", "[", "]", ":", ",", ".", "\n", "\n    ", "\n  ", " if ", " each ", " - ", "\u2013",
              "\"", "'", "=", "==", " not ", "#", " 3", " x", "\t", "optionally", "\n\n"]
    out = text
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(out) + 1)
        choice = rng.random()
        if choice < 0.4 and out:
            j = min(len(out), i + rng.randint(1, 6))
            out = out[:i] + out[j:]
        elif choice < 0.8:
            out = out[:i] + rng.choice(pieces) + out[i:]
        else:  # a line repeated or moved in or out
            lines = out.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, ("  " if rng.random() < 0.5 else "") + lines[rng.randrange(len(lines))])
            out = "\n".join(lines)
    return out


EDGE_TEXTS = [
    ("(" * 150 + "1" + ")" * 150, "condition"),
    ("".join("  " * i + "if x:\n" for i in range(60)) + "  " * 60 + "pass\n", "procedure"),
    ("-" * 120 + "1", "condition"),
    *[("not " * k + "x", "condition") for k in range(96, 101)],  # around MAX_DEPTH
    *[("gain " + "-" * k + "1 x", "procedure") for k in range(95, 100)],
    ("x" + ".y" * 200, "condition"),
    ("if x:\n    pass\n  pass\n", "procedure"),
    ("gain (1 +\n  2) coins\nif (a and\nb):\n  pass\n", "procedure"),
    ("when played optionally if x: gain 1 coins", "ability"),
    ("action \"Go\" during main, other cost tap, pay 2 coins once per turn if x: pass", "ability"),
    ("choose c from [each p in players where p is x, q for each q in y] by you optionally \"P\"", "procedure"),
    ("choose by you \"Pick\":\n  option \"A\" for each c in hand if c is x:\n    pass\n  option actions during main\n",
     "procedure"),
    ("\n\n# only a comment\ngain 1 coins # trailing\n\n", "procedure"),
    ("Affinit\u00e9 2 \u2013 Module: gain 1 x\n", "ability"),
    ("move top to bottom at top", "procedure"),
    ("", "procedure"),
    ("   ", "condition"),
]


def damaged_cases(seed: int, count: int = 3000) -> list:
    """`count` (text, start, where) of the shipped and test texts, each damaged (`damaged`)."""
    rng = random.Random(seed)
    texts = rules_texts()
    cases = []
    for _ in range(count):
        text, start, where = texts[rng.randrange(len(texts))]
        cases.append((damaged(text, rng), start, where))
    return cases
