"""The base of the prose renderers: which method writes each kind of node.

In the manner of sqlglot's generators, each node class of `language.nodes` has
a method that writes it, `visit_<ClassName>` (expressions, statements,
triggers, actions, costs), found as every pass over the tree finds its
methods (`language.visitor`); a language is a subclass that writes those
methods with its word table, `WORDS`, and overrides those its grammar needs.
The built-in functions, properties and special names bring their own phrases
(`prose` on each record of `language.builtins`): `BUILTIN_PROSE` is derived
from them. A node no
method writes, or that a method cannot write, is written as its rules text in
quotes and noted in `fallbacks`: content is untrusted, and rendering never fails.
"""
from __future__ import annotations

from pathlib import Path

from ...content.model import GameDef
from ...names import fold
from .. import nodes as N
from ..builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from ..visitor import NodeVisitor
from .vocabulary import Noun, Vocabulary

# name -> its record's phrases, by language; what the renderers read of the built-ins
BUILTIN_PROSE = {
    "function": {name: f.prose for name, f in FUNCTIONS.items()},
    "property": {name: p.prose for name, p in PROPERTIES.items()},
    "special": {name: s.prose for name, s in SPECIAL_NAMES.items()},
}
# how prose puts a comparison of a built-in, from the phrase its record may give: "not" (`not
# tapped(c)`: '{0} is not tapped'), "you" (`controller(c) == you`), "some" and "none" (`supply(x)`
# compared with 0): what -> kind -> name -> phrase by language
SAID_AS = {what: {kind: {name: getattr(r, f"prose_{what}") for name, r in table.items()
                         if getattr(r, f"prose_{what}", None)}
                  for kind, table in (("function", FUNCTIONS), ("property", PROPERTIES), ("special", SPECIAL_NAMES))}
           for what in ("not", "you", "some", "none", "is", "is_not", "same", "same_not")}


class Text(str):
    """A phrase written, with the other form a built-in's phrase may ask of it: `{0:some}`, the
    phrase for one member ('a building m in your tableau') of what `{0}` says of many."""

    some: str | None = None

    def __new__(cls, text: str, some: str | None = None):
        made = super().__new__(cls, text)
        made.some = some
        return made

    def __format__(self, spec: str) -> str:
        if spec == "some" and self.some:
            return self.some
        return str(self)


class Renderer(NodeVisitor):
    """Writes the nodes of one pack's rules as prose in one language (see the subclasses)."""

    lang = ""
    WORDS: dict = {}
    # a node without a `visit_` method is written as its rules text (`fallback`), never by its
    # children: no node class is written by the generic walk
    GENERIC = frozenset()

    def __init__(self, defn: GameDef, keyword_uses: dict | None = None):
        self.defn = defn
        self.vocab = Vocabulary(defn, self.lang)
        self.keyword_uses = keyword_uses or {}
        self.fallbacks: list = []  # the nodes written as their rules text
        self.params: dict = {}  # the parameters of the keyword being written -> (type, value or UNBOUND)
        self.locals: set = set()  # the names bound inside the ability being written
        self.event_args: set = set()  # the arguments of the event a trigger listens to
        self.depth = 0  # how deep in blocks: an ability's own statements are at 1
        self.alive: list = []  # the values bound where the renderer is (naming.Local), innermost last
        self.ahead: list = []  # per block being written, its statements from the current one on (naming.retire)
        self.inline: dict = {}  # a name a `let` binds and that is read once -> its value, said in its place
        self.types: dict = {}  # expression node -> its type, as the checker found it
        self.tree = None  # the tree being written

    # dispatch ----------------------------------------------------------------
    def node(self, node) -> str:
        """A node (or a list of statements) as prose."""
        if isinstance(node, list):
            return self.block(node)
        method = self.get_visitor(node)
        if method is None:
            return self.fallback(node)
        try:
            return method(node)
        except (LookupError, ValueError, TypeError, AttributeError):
            return self.fallback(node)

    def generic_visit(self, node) -> str:
        return self.fallback(node)

    def fallback(self, node) -> str:
        """A node no method writes: its rules text, in quotes."""
        self.fallbacks.append(node)
        return self.WORDS.get("rule", "“{0}”").format(source_text(node))

    def block(self, body) -> str:
        raise NotImplementedError

    # what a name is ----------------------------------------------------------
    def is_class(self, e) -> bool:
        """Whether `e`, right of `is`, names a class (or a keyword's class parameter)."""
        if not isinstance(e, N.Name):
            return False
        if e.name in self.params:
            return self.params[e.name][0] == "class"
        return e.name not in self.locals and fold(e.name) in self.defn.classes

    def class_noun(self, name: str) -> Noun:
        """The noun of a class, or of the class a keyword's parameter is bound to (its letter
        while unbound: 'X')."""
        if name in self.params:
            kind, value = self.params[name]
            if value is UNBOUND or not isinstance(value, str):
                return Noun(name, name)
            return self.vocab.class_noun(value)
        return self.vocab.class_noun(name)

    def counter_of(self, e) -> tuple | None:
        """(counter, what holds it, key) when `e` reads a counter: `x.C`, `x.C[k]` or a game's `C`."""
        d = self.defn
        if isinstance(e, N.Index) and isinstance(e.obj, N.Attr) and e.obj.name in d.counters:
            return e.obj.name, e.obj.obj, e.key
        if isinstance(e, N.Attr) and e.name in d.counters:
            return e.name, e.obj, None
        if isinstance(e, N.Name) and e.name in d.counters and e.name not in self.locals \
                and e.name not in self.params:
            return e.name, None, None
        return None

    def is_you(self, e) -> bool:
        return isinstance(e, N.Name) and e.name == "you" and "you" not in self.locals

    def builtin(self, kind: str, name: str, key):
        """The phrase of a built-in in this language: the one for `key` (a number of arguments,
        "each", "mapped") when the record has several, else its only one; None if it has none."""
        phrases = BUILTIN_PROSE[kind].get(name, {}).get(self.lang)
        if isinstance(phrases, dict):
            return phrases.get(key)
        return phrases

    def said_as(self, what: str, e, *more) -> str | None:
        """Built-in `e` (a call, a property, a special name) put as its record's `prose_WHAT`
        phrase says (see SAID_AS), agreeing with what it is said of; None when `e` is no
        built-in or its record gives no such phrase. `more`: the phrase's parts after the
        arguments of `e` (what it is compared with)."""
        d = self.defn
        if isinstance(e, N.Call) and e.func not in d.functions:
            kind, name, args = "function", e.func, e.args
        elif isinstance(e, N.Attr) and not (e.name in d.zones or e.name in d.counters or e.name in d.attributes):
            kind, name, args = "property", e.name, [e.obj]
        elif isinstance(e, N.Name) and e.name not in self.locals and e.name not in self.inline:
            kind, name, args = "special", e.name, []
        else:
            return None
        phrase = SAID_AS[what][kind].get(name, {}).get(self.lang)
        if phrase is None:
            return None
        return self.said_of(args, phrase.format(*[self.node(a) for a in [*args, *more]]))

    def said_of(self, args, text: str) -> str:
        """A built-in's phrase said of `args`, as the language agrees it with them (English: as is)."""
        return text


UNBOUND = object()  # a keyword's parameter written as its letter: the keyword's definition itself

def source_text(node) -> str:
    """The rules text a node was read from (its line, from its column), or its kind."""
    pos = getattr(node, "pos", None)
    if pos is None:
        return type(node).__name__
    try:
        lines = Path(pos.path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError, ValueError):
        lines = []
    if 0 < pos.line <= len(lines):
        text = lines[pos.line - 1][max(pos.column - 1, 0):].strip()
        if text:
            return text[:120]
    return type(node).__name__
