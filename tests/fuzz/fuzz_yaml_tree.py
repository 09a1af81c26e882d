"""Structure-aware mutants of the shipped content files, for the fuzz suite.

`tree_mutant(seed, index)` makes case number `index` of a run seeded `seed`:
one shipped content file (drawn as `fuzz_mutations.mutant` draws it: a kind
of file, then a file of that kind) parsed into its YAML node tree (PyYAML's
`compose`), changed by one to three mutations of the tree, and written back
with PyYAML's serializer. The mutations:

- a value's type changed: text, number, boolean, null, list or mapping, each
  into another;
- a key deleted or duplicated (a duplicate key, written twice);
- a subtree moved to another place of the file, two sibling values swapped;
- a value replaced by the value of the same key elsewhere in the game's files
  (another card's `abilities`, another zone's declaration...);
- a key made complex (a list or a mapping as a key), a merge key `<<`;
- a tag put on a value: `!!python/object`, `!!python/name`, `!!binary`,
  `!!set`, `!!timestamp`, an unknown `!tag`...;
- after writing: a byte order mark or a control character put in the middle
  of the text.

A file of an expansion is loaded with its expansion (and a scenario's file
with its scenario), so that the mutation is read. Case `S:i` is remade from
its two numbers alone.
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import yaml

from fuzz_mutations import Case, _kind, _short, read, shipped_files

T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, SEQ, MAP = (T + x for x in ("str", "int", "float", "bool", "null", "seq", "map"))
ODD_TAGS = (T + "python/object:os.system", T + "python/name:os.system", T + "python/object/apply:os.getcwd",
            T + "binary", T + "set", T + "omap", T + "pairs", T + "timestamp", T + "float", T + "int", T + "merge",
            "!unknown", "!", "!!", "!card", "tag:example.com,2000:x", T + "value", T + "yaml")
WORDS = ("x", "deck", "yes", "no", "on", "null", "~", "0x1f", "1e3", "", " ", "2026-01-01", "=", "<<", "kind", "game",
         "cards", "- a", "{a: 1}", "[1, 2]", "*x", "&x", "!x", "%x", "@x", "`x`", "'", '"', "#", "a: b", "\\")
NUMBERS = ("0", "1", "-1", "7", "100", "2147483648", "9007199254740991", "9007199254740992", "1" + "0" * 30,
           "0.5", "1e309", ".inf", "-.inf", ".nan", "0o17", "0x10", "1_000", "-0")
CONTROLS = ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f", "\x85", "\u2028", "\u2029",
            "\ufeff", "\ufffe", "\ud800", "\r", "\t")


def tree_mutant(seed: int, index: int) -> Case:
    """Case `index` of a run seeded `seed`: a shipped file whose YAML tree is mutated."""
    rng = random.Random(f"yaml-tree:{seed}:{index}")
    game, rel = pick_file(rng)
    root = compose(game, rel)
    case = Case(f"yaml-tree:{seed}:{index}", "yaml-tree", game, target=f"{game.name}/{rel}")
    case.expansions, case.scenario = layers_of(game, rel)
    after = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.choice(TEXT_OPERATIONS) if rng.random() < 0.15 else rng.choice(TREE_OPERATIONS)
        if op in TEXT_OPERATIONS:
            after.append(op)
            continue
        case.what.append(op(rng, root, game, rel))
    text = write(root)
    for op in after:
        text, said = op(rng, text)
        case.what.append(said)
    case.files[rel] = text
    return case


def pick_file(rng: random.Random):
    kinds = sorted({_kind(rel) for _, rel in shipped_files()})
    kind = rng.choice(kinds)
    return rng.choice([f for f in shipped_files() if _kind(f[1]) == kind])


def compose(game: Path, rel: str):
    """A fresh node tree of a shipped file (fresh: mutations change it in place)."""
    return clone(_composed(game, rel))


@lru_cache(maxsize=None)
def _composed(game: Path, rel: str):
    return yaml.compose(read(game / rel), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def write(root) -> str:
    """The tree as YAML text. A node put in two places is written once, with an anchor and aliases."""
    try:
        return yaml.serialize(root, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True)
    except UnicodeEncodeError:  # a lone surrogate: libyaml cannot encode it, PyYAML's own writer escapes it
        return yaml.serialize(root, Dumper=yaml.SafeDumper, allow_unicode=True)


@lru_cache(maxsize=None)
def layers_of(game: Path, rel: str) -> tuple:
    """(expansions, scenario) to load a file with, so that it is read: a file of an expansion
    with that expansion; a scenario file with its scenario too."""
    parts = rel.split("/")
    if parts[0] != "expansions" or len(parts) < 3:
        return (), None
    head = game / "expansions" / parts[1] / "expansion.yaml"
    try:
        ident = str(yaml.safe_load(read(head))["id"])
    except (OSError, KeyError, TypeError, yaml.YAMLError):
        return (), None
    scenario = None
    if parts[2] == "scenarios":
        try:
            scenario = str(yaml.safe_load(read(game / rel))["id"])
        except (KeyError, TypeError, yaml.YAMLError):
            scenario = None
    return (ident,), scenario


# -- the tree ----------------------------------------------------------------------------------------

def clone(node):
    """A deep copy of a node tree (marks shared: they are never changed)."""
    if isinstance(node, yaml.ScalarNode):
        return yaml.ScalarNode(node.tag, node.value, node.start_mark, node.end_mark, node.style)
    if isinstance(node, yaml.SequenceNode):
        return yaml.SequenceNode(node.tag, [clone(v) for v in node.value], node.start_mark, node.end_mark,
                                 node.flow_style)
    return yaml.MappingNode(node.tag, [(clone(k), clone(v)) for k, v in node.value], node.start_mark,
                            node.end_mark, node.flow_style)


class Spot:
    """A place holding a node: item `i` of a sequence, or the key or value of pair `i` of a mapping."""

    def __init__(self, parent, i: int, role: str):
        self.parent, self.i, self.role = parent, i, role

    def get(self):
        if self.role == "item":
            return self.parent.value[self.i]
        return self.parent.value[self.i][0 if self.role == "key" else 1]

    def set(self, node) -> None:
        if self.role == "item":
            self.parent.value[self.i] = node
        else:
            k, v = self.parent.value[self.i]
            self.parent.value[self.i] = (node, v) if self.role == "key" else (k, node)

    def key(self) -> str:
        if self.role == "item":
            return f"item {self.i + 1}"
        k = self.parent.value[self.i][0]
        return repr(_short(k.value)) if isinstance(k, yaml.ScalarNode) else "a complex key"


def spots(root, keys: bool = False) -> list:
    """Every place holding a value under `root` (and the keys, with `keys`), depth first."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                out.append(Spot(node, i, "item"))
                stack.append(v)
        elif isinstance(node, yaml.MappingNode):
            for i, (k, v) in enumerate(node.value):
                if keys:
                    out.append(Spot(node, i, "key"))
                out.append(Spot(node, i, "value"))
                stack.append(v)
    return out


def containers(root, kind) -> list:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, kind):
            out.append(node)
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(v for _, v in node.value)
    return out


def line(node) -> int:
    return node.start_mark.line + 1 if node.start_mark is not None else 0


def scalar(tag: str, value: str, style=None):
    return yaml.ScalarNode(tag, value, None, None, style)


def _type_of(node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    return {INT: "number", FLOAT: "number", BOOL: "boolean", NULL: "null"}.get(node.tag, "text")


def _of_type(rng, kind: str, old):
    if kind == "text":
        return scalar(STR, rng.choice(WORDS + ("a text",)), rng.choice((None, '"', "'", "|")))
    if kind == "number":
        return scalar(INT if rng.random() < 0.8 else FLOAT, rng.choice(NUMBERS))
    if kind == "boolean":
        return scalar(BOOL, rng.choice(("true", "false")))
    if kind == "null":
        return scalar(NULL, rng.choice(("null", "~", "")))
    if kind == "list":
        items = [clone(old)] if rng.random() < 0.7 else []
        return yaml.SequenceNode(SEQ, items, None, None, rng.choice((True, False)))
    key = scalar(STR, rng.choice(("id", "x", "text", "kind", old.value if isinstance(old, yaml.ScalarNode)
                                  and old.tag == STR and old.value else "value")))
    return yaml.MappingNode(MAP, [(key, clone(old))] if rng.random() < 0.7 else [], None, None,
                            rng.choice((True, False)))


# -- mutations of the tree ---------------------------------------------------------------------------

def retype(rng, root, game, rel):
    """A value of one type made a value of another: text, number, boolean, null, list, mapping."""
    places = spots(root)
    if not places:
        return "nothing to retype"
    spot = rng.choice(places)
    old = spot.get()
    kind = rng.choice([k for k in ("text", "number", "boolean", "null", "list", "mapping") if k != _type_of(old)])
    spot.set(_of_type(rng, kind, old))
    return f"line {line(old)}: the value of {spot.key()} ({_type_of(old)}) made {kind}"


def delete_key(rng, root, game, rel):
    maps = [m for m in containers(root, yaml.MappingNode) if m.value]
    if not maps:
        return "no key to delete"
    m = rng.choice(maps)
    i = rng.randrange(len(m.value))
    k, v = m.value.pop(i)
    return f"line {line(k)}: key {_short(getattr(k, 'value', '?'))!r} deleted"


def delete_item(rng, root, game, rel):
    seqs = [s for s in containers(root, yaml.SequenceNode) if s.value]
    if not seqs:
        return delete_key(rng, root, game, rel)
    s = rng.choice(seqs)
    i = rng.randrange(len(s.value))
    gone = s.value.pop(i)
    return f"line {line(gone)}: list item deleted"


def duplicate_key(rng, root, game, rel):
    """A key written twice in its mapping (next to itself, or at the mapping's end)."""
    maps = [m for m in containers(root, yaml.MappingNode) if m.value]
    if not maps:
        return "no key to duplicate"
    m = rng.choice(maps)
    i = rng.randrange(len(m.value))
    k, v = m.value[i]
    other = clone(v) if rng.random() < 0.5 else _of_type(rng, rng.choice(("text", "number", "list")), v)
    at = i + 1 if rng.random() < 0.5 else len(m.value)
    m.value.insert(at, (clone(k), other))
    return f"line {line(k)}: key {_short(getattr(k, 'value', '?'))!r} written twice"


def duplicate_item(rng, root, game, rel):
    seqs = [s for s in containers(root, yaml.SequenceNode) if s.value]
    if not seqs:
        return duplicate_key(rng, root, game, rel)
    s = rng.choice(seqs)
    i = rng.randrange(len(s.value))
    s.value.insert(i, clone(s.value[i]))
    return f"line {line(s.value[i])}: list item duplicated (a card or a declaration twice)"


def move_subtree(rng, root, game, rel):
    """A value taken from its place and put in another: under another key, or into another list."""
    places = [s for s in spots(root) if s.role == "item" or s.parent.value]
    if len(places) < 2:
        return "nothing to move"
    src = rng.choice(places)
    node = src.get()
    if src.role == "item":
        src.parent.value.pop(src.i)
    else:
        key = src.parent.value.pop(src.i)[0]
    targets = [c for c in containers(root, (yaml.MappingNode, yaml.SequenceNode)) if c is not node]
    dst = rng.choice(targets)
    if isinstance(dst, yaml.SequenceNode):
        dst.value.insert(rng.randint(0, len(dst.value)), node)
        where = f"into the list at line {line(dst)}"
    else:
        name = key if src.role != "item" else scalar(STR, rng.choice(("moved", "id", "abilities", "kind")))
        dst.value.insert(rng.randint(0, len(dst.value)), (clone(name), node))
        where = f"into the mapping at line {line(dst)}"
    return f"line {line(node)}: the value of {'an item' if src.role == 'item' else repr(_short(key.value))} moved {where}"


def swap_siblings(rng, root, game, rel):
    """Two values of one mapping (or two items of one list) swapped."""
    conts = [c for c in containers(root, (yaml.MappingNode, yaml.SequenceNode)) if len(c.value) >= 2]
    if not conts:
        return "no siblings to swap"
    c = rng.choice(conts)
    i, j = rng.sample(range(len(c.value)), 2)
    if isinstance(c, yaml.SequenceNode):
        c.value[i], c.value[j] = c.value[j], c.value[i]
        return f"line {line(c)}: items {i + 1} and {j + 1} swapped"
    (ki, vi), (kj, vj) = c.value[i], c.value[j]
    c.value[i], c.value[j] = (ki, vj), (kj, vi)
    return f"line {line(c)}: the values of {_short(str(ki.value))!r} and {_short(str(kj.value))!r} swapped"


@lru_cache(maxsize=None)
def _values_by_key(game: Path) -> dict:
    """key -> the values it has in the game's files (its own, its expansions'), as node trees."""
    out: dict = {}
    for g, rel in shipped_files():
        if g != game:
            continue
        root = _composed(g, rel)
        for m in containers(root, yaml.MappingNode):
            for k, v in m.value:
                if isinstance(k, yaml.ScalarNode):
                    out.setdefault(k.value, []).append(v)
    return out


def value_from_elsewhere(rng, root, game, rel):
    """A value replaced by the value of the same key elsewhere in the pack."""
    table = _values_by_key(game)
    places = [s for s in spots(root) if s.role == "value" and isinstance(s.parent.value[s.i][0], yaml.ScalarNode)
              and len(table.get(s.parent.value[s.i][0].value, ())) > 1]
    if not places:
        return retype(rng, root, game, rel)
    spot = rng.choice(places)
    key = spot.parent.value[spot.i][0].value
    old = spot.get()
    new = rng.choice(table[key])
    spot.set(clone(new))
    return f"line {line(old)}: the value of {_short(key)!r} replaced by the one of line {line(new)}"


def complex_key(rng, root, game, rel):
    """A key made a list or a mapping (`? [a, b]`), or a number, a boolean, null."""
    maps = [m for m in containers(root, yaml.MappingNode) if m.value]
    if not maps:
        return "no key to make complex"
    m = rng.choice(maps)
    i = rng.randrange(len(m.value))
    k, v = m.value[i]
    kind = rng.choice(("list", "mapping", "number", "boolean", "null"))
    m.value[i] = (_of_type(rng, kind, k), v)
    return f"line {line(k)}: key {_short(str(k.value))!r} made a {kind}"


def merge_key(rng, root, game, rel):
    """A merge key `<<` with a mapping (or a list of mappings, or a scalar) as its value."""
    maps = containers(root, yaml.MappingNode)
    m = rng.choice(maps)
    others = [x for x in maps if x is not m] or [yaml.MappingNode(MAP, [], None, None)]
    kind = rng.choice(("mapping", "list", "scalar"))
    value = clone(rng.choice(others)) if kind == "mapping" else (
        yaml.SequenceNode(SEQ, [clone(rng.choice(others))], None, None) if kind == "list" else scalar(STR, "x"))
    m.value.insert(rng.randint(0, len(m.value)), (scalar(T + "merge", "<<"), value))
    return f"line {line(m)}: a merge key '<<' of a {kind}"


def odd_tag(rng, root, game, rel):
    """A value tagged: a Python object, binary data, a set, an unknown tag..."""
    places = spots(root)
    spot = rng.choice(places)
    old = spot.get()
    tag = rng.choice(ODD_TAGS)
    if tag == T + "binary":
        new = scalar(tag, rng.choice(("aGVsbG8=", "not base64!", "")))
    elif tag in (T + "set", T + "omap", T + "pairs") and not isinstance(old, yaml.ScalarNode):
        new = clone(old)
        new.tag = tag
    elif isinstance(old, yaml.ScalarNode) or rng.random() < 0.5:
        new = scalar(tag, old.value if isinstance(old, yaml.ScalarNode) else "x")
    else:
        new = clone(old)
        new.tag = tag
    spot.set(new)
    return f"line {line(old)}: the value of {spot.key()} tagged {tag.replace(T, '!!')}"


def control_in_value(rng, root, game, rel):
    """A control character, a byte order mark or a lone surrogate inside a text value."""
    texts = [s for s in spots(root, keys=True) if isinstance(s.get(), yaml.ScalarNode) and s.get().tag == STR]
    if not texts:
        return "no text"
    spot = rng.choice(texts)
    old = spot.get()
    odd = rng.choice(CONTROLS)
    at = rng.randint(0, len(old.value))
    spot.set(yaml.ScalarNode(STR, old.value[:at] + odd + old.value[at:], None, None, old.style))
    return f"line {line(old)}: {odd!r} inside the text of {spot.key()}"


TREE_OPERATIONS = (retype, retype, delete_key, delete_item, duplicate_key, duplicate_item, move_subtree,
                   swap_siblings, value_from_elsewhere, value_from_elsewhere, complex_key, merge_key, odd_tag,
                   control_in_value)


# -- mutations of the text written -------------------------------------------------------------------

def bom_inside(rng, text):
    """A byte order mark in the middle of the file: at a line's start, or anywhere."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    at = 0 if rng.random() < 0.5 else rng.randint(0, len(lines[i]))
    lines[i] = lines[i][:at] + "\ufeff" + lines[i][at:]
    return "\n".join(lines), f"line {i + 1} column {at + 1}: a byte order mark inserted"


def raw_control(rng, text):
    """A raw control character (or a line separator) anywhere in the file."""
    at = rng.randint(0, len(text))
    odd = rng.choice(CONTROLS)
    return text[:at] + odd + text[at:], f"line {text.count(chr(10), 0, at) + 1}: raw {odd!r} inserted"


TEXT_OPERATIONS = (bom_inside, raw_control)
