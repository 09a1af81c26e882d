"""YAML anchors and aliases in the shipped content files, for the fuzz suite.

`alias_case(seed, index)` makes case number `index` of a run seeded `seed`:
a shipped game file, cards file, keyword library or expansion file, in which
one construct of anchors (`&name`) and aliases (`*name`) is put:

- a long text anchored once and aliased many times, in the places where the
  file has texts (abilities, titles, printed texts) or in a list of its own;
- "billion laughs": lists of lists of the same list, each level aliasing the
  level below ten times or more, put where the file has a list;
- a value shared by many places of the file (a card's mapping as every card);
- an alias of a mapping merged with `<<`;
- recursive aliases (a list or a mapping that holds itself), aliases that are
  never anchored, anchors defined twice, aliases as keys, ten thousand anchors.

The oracle is the fuzz suite's: a clean, located error or a game that loads
and plays, within the CPU limit, and never memory exhausted. Case `S:i` is
remade from its two numbers alone.
"""
from __future__ import annotations

import random

import yaml

from fuzz_mutations import Case, shipped_files
from fuzz_yaml_tree import MAP, SEQ, STR, compose, containers, layers_of, line, scalar, spots, write

# the kinds of file aliases go in: game files, cards, keyword libraries, expansion files
KINDS = ("game", "cards", "keywords", "expansion")


def _kind_of(rel: str) -> str | None:
    name = rel.rsplit("/", 1)[-1]
    if rel == "game.yaml":
        return "game"
    if name == "keywords.yaml":
        return "keywords"
    if name == "expansion.yaml":
        return "expansion"
    if "/cards/" in "/" + rel:
        return "cards"
    return None


def alias_case(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a content file with one construct of aliases."""
    rng = random.Random(f"aliases:{seed}:{index}")
    kind = rng.choice(KINDS)
    game, rel = rng.choice([f for f in shipped_files() if _kind_of(f[1]) == kind])
    make = rng.choice(CONSTRUCTS)
    case = Case(f"aliases:{seed}:{index}", "aliases", game, target=f"{game.name}/{rel}")
    case.expansions, case.scenario = layers_of(game, rel)
    text, said = make(rng, game, rel)
    case.what.append(said)
    case.files[rel] = text
    return case


# -- constructs written through the node tree (the serializer anchors a node put in two places) -------

def _long_text(rng) -> str:
    n = rng.choice((100, 10_000, 100_000, 1_000_000, 3_000_000))
    unit = rng.choice(("x", "ab ", "when played: gain 1 coins\n", "é", "{x}"))
    return (unit * (n // len(unit) + 1))[:n]


def long_text_aliased(rng, game, rel):
    """A long text anchored once, aliased in many places of the file that hold texts (or in a list)."""
    root = compose(game, rel)
    text = _long_text(rng)
    shared = scalar(STR, text, rng.choice((None, '"', "|")))
    texts = [s for s in spots(root) if isinstance(s.get(), yaml.ScalarNode) and s.get().tag == STR]
    times = rng.choice((2, 10, 100, 1000, 10_000))
    if texts and rng.random() < 0.6:
        chosen = [rng.choice(texts) for _ in range(min(times, 4 * len(texts)))]
        for s in chosen:
            s.set(shared)
        where = f"in {len(chosen)} places holding texts"
    else:
        lists = containers(root, yaml.SequenceNode) or [root]
        target = rng.choice(lists)
        items = [shared] * times
        if isinstance(target, yaml.SequenceNode):
            target.value.extend(items)
        else:
            target.value.append((scalar(STR, "notes"), yaml.SequenceNode(SEQ, items, None, None)))
        where = f"{times} times in the list at line {line(target)}"
    return write(root), f"a text of {len(text):,} characters anchored and aliased {where}"


def laughs(rng, game, rel):
    """'Billion laughs': each level a list aliasing the level below `width` times, `depth` levels."""
    root = compose(game, rel)
    width = rng.choice((2, 5, 10, 30))
    depth = rng.choice((3, 6, 9, 12, 20))
    leaf = scalar(STR, rng.choice(("lol", "when played: gain 1 coins", "x" * 1000)))
    level = leaf
    for _ in range(depth):
        level = yaml.SequenceNode(SEQ, [level] * width, None, None, rng.random() < 0.5)
    places = [s for s in spots(root) if isinstance(s.get(), yaml.SequenceNode)] or spots(root)
    spot = rng.choice(places)
    old = spot.get()
    spot.set(level)
    return write(root), f"line {line(old)}: the value of {spot.key()} made {width}^{depth} aliased lists"


def shared_mapping(rng, game, rel):
    """A mapping of the file (a card, a keyword, a declaration) put in place of many others."""
    root = compose(game, rel)
    maps = [m for m in containers(root, yaml.MappingNode) if m is not root and m.value]
    if not maps:
        return long_text_aliased(rng, game, rel)
    shared = rng.choice(maps)
    places = [s for s in spots(root) if isinstance(s.get(), yaml.MappingNode) and s.get() is not shared]
    chosen = rng.sample(places, min(len(places), rng.choice((1, 5, 50, 500))))
    for s in chosen:
        s.set(shared)
    return write(root), f"the mapping at line {line(shared)} aliased in {len(chosen)} places"


def same_key_shared(rng, game, rel):
    """One value anchored and aliased as the value of the same key elsewhere in the file (one
    card's abilities as another's, one zone's declaration as another's): the file most often
    still loads, and plays."""
    root = compose(game, rel)
    by_key: dict = {}
    for s in spots(root):
        k = s.parent.value[s.i][0] if s.role == "value" else None
        if isinstance(k, yaml.ScalarNode):
            by_key.setdefault(k.value, []).append(s)
    keys = sorted(k for k, v in by_key.items() if len(v) > 1)
    if not keys:
        return long_text_aliased(rng, game, rel)
    key = rng.choice(keys)
    shared = rng.choice(by_key[key]).get()
    chosen = rng.sample(by_key[key], min(len(by_key[key]), rng.choice((2, 5, 1000))))
    for s in chosen:
        s.set(shared)
    return write(root), f"the value of {key!r} at line {line(shared)} aliased as {len(chosen)} values of {key!r}"


def merged(rng, game, rel):
    """An alias of a mapping merged with `<<` into other mappings."""
    root = compose(game, rel)
    maps = [m for m in containers(root, yaml.MappingNode) if m is not root and m.value] or [root]
    shared = rng.choice(maps)
    chosen = rng.sample(maps, min(len(maps), rng.choice((1, 3, 30))))
    for m in chosen:
        if m is not shared:
            m.value.insert(0, (scalar("tag:yaml.org,2002:merge", "<<"), shared))
    return write(root), f"the mapping at line {line(shared)} merged with '<<' into {len(chosen)} mappings"


# -- constructs written as text (the serializer cannot write them) -------------------------------------

def _append(text: str, extra: str) -> str:
    return text.rstrip("\n") + "\n" + extra


def recursive(rng, game, rel):
    """A list or a mapping that holds itself, at the top of the file or in place of a value."""
    text = (game / rel).read_text(encoding="utf-8")
    form = rng.choice(("zz: &a [*a]", "zz: &a {k: *a}", "zz: &a [1, [2, *a]]", "zz: &a\n  - *a\n  - *a",
                       "zz: &a {k: [*a, *a], j: *a}", "&a zz: *a"))
    return _append(text, form + "\n"), f"a recursive alias at the end: {form!r}"


def odd_anchors(rng, game, rel):
    """Aliases never anchored, anchors defined twice, aliases as keys, very many anchors."""
    text = (game / rel).read_text(encoding="utf-8")
    n = rng.choice((10, 10_000, 50_000))
    form = rng.choice((
        "zz: *nowhere",
        "zz: [&a 1, &a 2, *a]",
        "zz: {&k key: 1, *k : 2}",
        "zz: {*k : 1}",
        "zz: &a x\nyy: {*a : *a}",
        "zz:\n" + "".join(f"  - &a{i} {i}\n" for i in range(n)) + "yy: [" + ", ".join(f"*a{i}" for i in range(n)) + "]",
        "zz: &" + "a" * 100_000 + " x\nyy: *" + "a" * 100_000,
        "zz: &a " + "[" * 40 + "x" + "]" * 40 + "\nyy: [" + ", ".join(["*a"] * n) + "]",
    ))
    shown = form if len(form) < 60 else form[:40] + f"...({len(form):,} characters)"
    return _append(text, form + "\n"), f"at the end: {shown!r}"


def first_line_anchor(rng, game, rel):
    """The whole document anchored, and aliased in itself, or a key of the root aliased."""
    text = (game / rel).read_text(encoding="utf-8")
    root = compose(game, rel)
    keys = [k.value for k, _ in root.value if isinstance(k, yaml.ScalarNode)] if isinstance(root, yaml.MappingNode) else []
    if not keys:
        return recursive(rng, game, rel)
    key = rng.choice(keys)
    lines = text.split("\n")
    at = next((i for i, ln in enumerate(lines) if ln.startswith(f"{key}:")), None)
    if at is None:
        return recursive(rng, game, rel)
    rest = lines[at][len(key) + 1:]
    lines[at] = f"{key}: &top{rest}" if rest.strip() else f"{key}: &top"
    many = rng.choice((1, 10, 1000))
    extra = "zz: [" + ", ".join(["*top"] * many) + "]\n"
    return _append("\n".join(lines), extra), f"line {at + 1}: the value of {key!r} anchored, aliased {many} times"


CONSTRUCTS = (same_key_shared, same_key_shared, same_key_shared, long_text_aliased, long_text_aliased, laughs, laughs, shared_mapping, merged, recursive, odd_anchors,
              first_line_anchor)
