"""Completion: the names a game declares, offered where they fit.

Inside a rules text: at the start of a card's ability, the game's keywords (a
snippet with a stop at each parameter, the classes offered for a class
parameter) and the words that open a trigger or an action; after `when`, the
events; after `during`, the windows; after `call`, the procedures; after `is`
or `as`, the classes; after a dot, what a component, player or node has
(zones, counters, attributes, properties); inside `card("...")`, the card ids;
elsewhere, every name an expression or a statement may use. In the YAML
around it: the keys a file of its kind takes (from its schema), the values of
an attribute, a zone for `start:`, the types of a keyword's parameters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..content.model import GameDef
from ..content.validate import KINDS, schema
from ..language.builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from ..names import fold
from .place import Place, PlaceKind

# The words of the rules language, as statements and expressions begin or join them.
STATEMENT_WORDS = ("move", "to", "from", "gain", "lose", "pay", "spend", "add", "remove", "score", "set", "let",
                   "if", "elif", "else", "for each", "in", "where", "while", "repeat", "times", "break", "continue",
                   "return", "choose", "by", "option", "decide", "prefer", "optionally", "call", "signal", "tag",
                   "untag", "as", "is", "tap", "untap", "shuffle", "reveal", "roll", "dice", "log", "win", "fail",
                   "pass", "use", "secretly", "sacrifice", "top", "bottom", "of", "per", "once", "and", "or",
                   "not", "true", "false", "none", "each")
OPENING_WORDS = ("when", "whenever", "action")

_CALL_STRING = re.compile(r"\b(card|cards|option|supply|has|prints)\(\s*(?:[^,()]*,\s*)?\\?[\"']([^\"'\\]*)$")
_AFTER = re.compile(r"(?:^|[\s(,])(when|whenever|during|call|is|is not|as|of)\s+[\w-]*$")
_DURING_LIST = re.compile(r"\bduring\s+[\w-]+(?:\s*,\s*[\w-]+)*\s*,\s*[\w-]*$")
_DOT = re.compile(r"([\w\]\)]+)\.[\w-]*$")


@dataclass(frozen=True)
class Item:
    """One completion: its label, what it is, the text to insert (a snippet when `snippet`)."""
    label: str
    kind: str  # keyword, class, zone, counter, event, window, value, card, procedure, function,
    #            builtin, property, name, word, key, option
    detail: str = ""
    insert: str | None = None
    snippet: bool = False
    doc: str = ""


def complete(place: Place, defn: GameDef | None) -> list[Item]:
    """The completions at `place`, with the game `defn` the file belongs to (None: only what
    every game has)."""
    if place.kind is PlaceKind.RULES:
        return _in_rules(place, defn)
    if place.kind is PlaceKind.KEY:
        return _keys(place, defn)
    if place.kind is PlaceKind.VALUE:
        return _values(place, defn)
    return []


# inside a rules text -------------------------------------------------------------------------

def _in_rules(place: Place, defn: GameDef | None) -> list[Item]:
    before = place.before
    m = _CALL_STRING.search(before)
    if m:
        return _strings(m.group(1), defn)
    head = before[:len(before) - len(place.word)]
    if place.text_start:
        out = [Item(w, "word", "opens a trigger" if w != "action" else "opens an action") for w in OPENING_WORDS]
        if place.key == "abilities" and defn is not None:
            out = keywords(defn) + out
        return out
    if defn is None:
        return _everything(None)
    if place.key == "abilities":
        expected = _in_keyword(head, defn)
        if expected is not None:
            return expected
    if _DURING_LIST.search(before):
        return _windows(defn)
    m = _AFTER.search(before)
    if m:
        word = m.group(1)
        if word in ("when", "whenever"):
            return [Item(e, "event", _params("event", params)) for e, params in defn.events.items()]
        if word == "during":
            return _windows(defn)
        if word == "call":
            return [_callable(p.name, p.params, "procedure", p.text) for p in defn.procedures.values()]
        if word in ("is", "is not", "as"):
            return classes(defn)
    m = _DOT.search(head + place.word)
    if m:
        return _members(m.group(1), defn)
    return _everything(defn)


def _in_keyword(head: str, defn: GameDef) -> list[Item] | None:
    """Inside a printed keyword ('Bonus 2 - |'): what its pattern expects at the cursor, the
    classes for a class parameter, the word for a literal; None when no keyword starts so."""
    typed = head.split()
    if not typed:
        return None
    out: dict = {}
    for kw in defn.keywords:
        words = kw.pattern.split(":")[0].split()
        if len(words) <= len(typed) or fold(words[0]) != fold(typed[0]) \
                or any(fold(w) != fold(t) for w, t in zip(words, typed) if w not in kw.params):
            continue
        wanted = words[len(typed)]
        if kw.params.get(wanted) == "class":
            out.update((i.label, i) for i in classes(defn))
        elif wanted not in kw.params:
            out.setdefault(wanted, Item(wanted, "keyword", f"in '{kw.pattern}'"))
    return list(out.values()) or None


def keywords(defn: GameDef) -> list[Item]:
    """The game's keywords as snippets: 'Income X' inserts 'Income ' and a stop at X."""
    out, seen = [], set()
    for kw in defn.keywords:
        if kw.pattern in seen:
            continue
        seen.add(kw.pattern)
        detail = ", ".join(f"{p}: {t}" for p, t in kw.params.items()) or "keyword"
        out.append(Item(kw.pattern, "keyword", detail, keyword_snippet(kw.pattern, kw.params, defn), True))
    return out


def keyword_snippet(pattern: str, params: dict, defn: GameDef) -> str:
    """A keyword pattern as a snippet: each parameter a tab stop, a class parameter a choice
    of the game's classes."""
    if not params:
        return _escape(pattern)
    names = "|".join(re.escape(p) for p in sorted(params, key=len, reverse=True))
    parts = re.split(rf"(?<![\w])({names})(?![\w])", pattern)
    out, stop = [], 0
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(_escape(part))
            continue
        stop += 1
        if params[part] == "class":
            choices = sorted({printed for _, printed in defn.classes.values()})
            if choices:
                out.append(f"${{{stop}|" + ",".join(_escape_choice(c) for c in choices) + "|}")
                continue
        out.append(f"${{{stop}:{_escape(part)}}}")
    return "".join(out)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _escape_choice(text: str) -> str:
    return re.sub(r"([\\$}|,])", r"\\\1", text)


def classes(defn: GameDef) -> list[Item]:
    out = {}
    for attribute, printed in defn.classes.values():
        out.setdefault(printed, Item(printed, "class", f"a value of '{attribute}'" if attribute else "a class"))
    return list(out.values())


def _windows(defn: GameDef) -> list[Item]:
    return [Item(w, "window", "a window") for w in defn.windows]


def _params(what: str, params) -> str:
    return f"{what}({', '.join(map(str, params))})" if params else what


def _callable(name: str, params: list, kind: str, text: str = "", doc: str = "") -> Item:
    """A procedure or function: its name, and a snippet with a stop at each argument."""
    params = [str(p) for p in params]
    args = ", ".join(f"${{{i}:{_escape(p)}}}" for i, p in enumerate(params, 1))
    insert = f"{name}({args})" if params else (name if kind == "procedure" else f"{name}()")
    return Item(name, kind, f"{name}({', '.join(params)})", insert, True, doc or (text or "").strip())


def _members(owner: str, defn: GameDef) -> list[Item]:
    """What may follow 'X.': the zones and counters of a player, a component or a node, the
    attributes of components, the built-in properties. Which of them X has is left to the
    checker; data.NAME reads the game's data."""
    if owner == "data":
        return [Item(k, "name", "game data") for k in defn.data]
    out = [Item(z.name, "zone", f"zone of each {' and '.join(z.scope)}") for z in defn.zones.values()
           if not z.scope.is_game]
    out += [Item(c.name, "counter", f"counter of each {' and '.join(c.scope)}") for c in defn.counters.values()
            if not c.scope.is_game]
    out += [Item(a.name, "attribute", f"attribute ({a.type})") for a in defn.attributes.values()]
    out += [Item(p.name, "property", f"property of a {p.of}", doc=p.doc) for p in PROPERTIES.values()]
    return out


def _everything(defn: GameDef | None) -> list[Item]:
    """Every name an expression or a statement may use."""
    out = [Item(f.name, "builtin", " / ".join(f.forms), f"{f.name}(${{1}})", True, f.doc) for f in FUNCTIONS.values()]
    out += [Item(s.name, "name", "special name", doc=s.doc) for s in SPECIAL_NAMES.values()]
    out += [Item(w, "word", "rules language") for w in STATEMENT_WORDS]
    if defn is None:
        return out
    out += [_callable(f.name, f.params, "function", f.text) for f in defn.functions.values()]
    out += [Item(z.name, "zone", "zone of the game") for z in defn.zones.values() if z.scope.is_game]
    out += [Item(c.name, "counter", f"counter of each {' and '.join(c.scope)}") for c in defn.counters.values()]
    out += classes(defn)
    return out


def _strings(function: str, defn: GameDef | None) -> list[Item]:
    """The strings a built-in takes: card ids for card() and cards(), option names for option()."""
    if defn is None:
        return []
    if function in ("card", "cards"):
        return cards(defn)
    if function == "option":
        return [Item(o, "option", "option") for o in defn.options]
    if function == "supply":
        return [Item(c.name, "counter", "counter") for c in defn.counters.values() if c.supply is not None]
    return []


def cards(defn: GameDef) -> list[Item]:
    seen, out = set(), []
    for c in defn.cards:
        if c.id not in seen:
            seen.add(c.id)
            out.append(Item(c.id, "card", c.title))
    return out


# the YAML around -----------------------------------------------------------------------------

def _keys(place: Place, defn: GameDef | None) -> list[Item]:
    """The keys a mapping at `place` takes: those its schema names, and the attributes of a card."""
    sub = schema_at(place.file_kind, place.keys)
    out = [Item(k, "key", _short(v.get("description", "")), f"{k}: ") for k, v in (sub or {}).get("properties", {}).items()
           if isinstance(v, dict)]
    if place.file_kind in ("cards", "expansion") and place.keys[-1:] == ("cards",) and defn is not None:
        out += [Item(a.name, "attribute", f"attribute ({a.type})", f"{a.name}: ") for a in defn.attributes.values()]
    return out


def _values(place: Place, defn: GameDef | None) -> list[Item]:
    key, keys = place.key, place.keys
    sub = schema_at(place.file_kind, keys) or {}
    out = [Item(str(v), "value", _short(sub.get("description", ""))) for v in sub.get("enum", [])]
    if key == "kind" and len(keys) == 1:
        out = [Item(k, "value", "a kind of content file") for k in KINDS]
    if defn is None:
        return out
    if key in defn.attributes and "cards" in keys:
        out += [Item(str(v), "value", f"a value of '{key}'") for v in defn.attributes[key].values]
    elif key in ("start", "keep_in", "zone"):
        out += [Item(z, "zone", "zone") for z in defn.zones]
    elif key == "component":
        out += [Item(c, "value", "component kind") for c in defn.components]
    elif key == "tags":
        out += classes(defn)
    elif key == "game":
        out += [Item(defn.id, "value", defn.title)]
    elif len(keys) >= 2 and keys[-2] == "params" and place.file_kind == "keywords":
        pass  # the schema's enum: number, class, name, effect, condition
    return out


def _short(text: str) -> str:
    return text.split(". ")[0][:120]


def schema_at(kind: str | None, keys: tuple) -> dict | None:
    """The part of the schema of `kind` that describes the value at `keys` (a list's entries
    for the key of a list): found through properties, items, $ref and anyOf."""
    if kind not in KINDS:
        return None
    root = schema(kind)

    def resolve(s):
        seen = 0
        while isinstance(s, dict) and "$ref" in s and seen < 16:
            s = root.get("$defs", {}).get(s["$ref"].rsplit("/", 1)[-1], {})
            seen += 1
        return s if isinstance(s, dict) else {}

    def step(s, key):
        s = resolve(s)
        if "items" in s:
            s = resolve(s["items"])
        for option in [s] + [resolve(o) for o in s.get("anyOf", []) + s.get("oneOf", [])]:
            if "items" in option:
                option = resolve(option["items"])
            if key in option.get("properties", {}):
                return option["properties"][key]
            extra = option.get("additionalProperties")
            if isinstance(extra, dict):
                return extra
        return None

    s = root
    for key in keys:
        s = step(s, key)
        if s is None:
            return None
    s = resolve(s)
    if "items" in s:
        s = resolve(s["items"])
    for option in [resolve(o) for o in s.get("anyOf", []) + s.get("oneOf", [])]:
        if "properties" in option or "enum" in option:
            merged = dict(option)
            merged.setdefault("description", s.get("description", ""))
            return merged
    return s
