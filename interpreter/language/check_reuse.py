"""A card's ability checked once however many packs of one check hold it.

`regles check` of a game folder checks the game, then the game with its
expansions, then the game with its solo mode: three packs that hold the same
cards, whose texts are parsed once (`texts.shared_parses`), so that each
ability is one tree shared by the packs. What the checker finds of an
ability depends on the tree and on the declarations the check reads (the
counters, zones, events, keywords, function types... it looks up), which a
pack's expansions may change.

So the first check of an ability notes every declaration it reads: the
checker's view of the pack (`Seen`) hands out tables that note each key
looked up and the value found (`Noted`, `NotedList`), and the checker notes
what it works out from the pack (`note_call`: a card id known, a node
attribute's type). When a later pack holds the same tree, its findings (the
types of its expressions, its labels, the keyword it uses, the cards it
names, whether it wins) are taken again when every noted read gives an equal
value in that pack; else it is checked again. Only an ability checked with
no diagnostic is kept: one in error is checked in every pack, so its
messages are those a check of that pack alone gives.

Notes are kept within a `shared_checks()` block (the check of several
packs); outside one, every ability is checked as it always was.
`tests/language/test_check_reuse.py` compares the findings with and without
reuse over every shipped game with its expansions and solo mode, and over
packs whose expansions change what a base card reads.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import fields, is_dataclass

from .check_start import CardsNamed
from .keywords import KeywordUse

_MISSING = object()  # a key the table does not hold
_ALL = "*"  # a read of the whole table (its length, its keys...)

# Within a `shared_checks` block: the tree of each ability checked clean -> its Entry
_STORE: dict | None = None


@contextmanager
def shared_checks():
    """Within the block, an ability checked in one pack is not checked again in another pack
    whose declarations it reads are the same (see the module's docstring)."""
    global _STORE
    outer = _STORE
    if outer is None:
        _STORE = {}
    try:
        yield
    finally:
        _STORE = outer


class Reads:
    """What the check of one ability read: (kind, table, key) -> the value found."""
    __slots__ = ("log",)

    def __init__(self):
        self.log: dict | None = None


class Noted(dict):
    """A table of the pack that notes every key read, while `reads.log` is a dict."""
    __slots__ = ("table", "reads")

    def __init__(self, table: str, data: dict, reads: Reads):
        super().__init__(data)
        self.table = table
        self.reads = reads

    def _note(self, key):
        value = dict.get(self, key, _MISSING)
        log = self.reads.log
        if log is not None:
            log.setdefault(("get", self.table, key), value)
        return value

    def __getitem__(self, key):
        value = self._note(key)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def get(self, key, default=None):
        value = self._note(key)
        return default if value is _MISSING else value

    def __contains__(self, key):
        return self._note(key) is not _MISSING

    def _whole(self):
        log = self.reads.log
        if log is not None:
            log.setdefault(("all", self.table, _ALL), dict(dict.items(self)))

    def __iter__(self):
        self._whole()
        return dict.__iter__(self)

    def __len__(self):
        self._whole()
        return dict.__len__(self)

    def keys(self):
        self._whole()
        return dict.keys(self)

    def values(self):
        self._whole()
        return dict.values(self)

    def items(self):
        self._whole()
        return dict.items(self)


class NotedList(list):
    """A list of the pack's declarations (its windows, keywords, cards) that notes how it is read."""
    __slots__ = ("table", "reads")

    def __init__(self, table: str, data: list, reads: Reads):
        super().__init__(data)
        self.table = table
        self.reads = reads

    def __contains__(self, item):
        found = list.__contains__(self, item)
        log = self.reads.log
        if log is not None:
            try:
                log.setdefault(("in", self.table, item), found)
            except TypeError:  # an item that cannot be a key: the whole list was read
                self._whole()
        return found

    def _whole(self):
        log = self.reads.log
        if log is not None:
            log.setdefault(("all", self.table, _ALL), list(list.__iter__(self)))

    def __iter__(self):
        self._whole()
        return list.__iter__(self)

    def __len__(self):
        self._whole()
        return list.__len__(self)

    def __getitem__(self, index):
        self._whole()
        return list.__getitem__(self, index)


class Seen:
    """The pack's definitions as the check of an ability sees them: each table it reads is a Noted
    (or NotedList) copy, made once per pack; any other value it reads is noted as read."""

    def __init__(self, defn, reads: Reads):
        object.__setattr__(self, "_defn", defn)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name):
        value = getattr(self._defn, name)
        if type(value) is dict:
            value = Noted(name, value, self._reads)
        elif type(value) is list:
            value = NotedList(name, value, self._reads)
        else:
            log = self._reads.log
            if log is not None:
                log.setdefault(("attr", name, _ALL), value)
            return value
        object.__setattr__(self, name, value)  # the next reads find it without this method
        return value

    def __setattr__(self, name, value):
        raise AttributeError("an ability's check does not change the pack")


def same(a, b) -> bool:
    """Whether two values read from two packs are alike: equal, field by field for declarations
    compared by identity (keywords), member by member for lists and dicts of them."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if is_dataclass(a) and a.__dataclass_params__.eq is False:
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a value that cannot be compared is not known to be alike
        return False


class Entry:
    """What one clean check of an ability read and found."""
    __slots__ = ("log", "types", "labels", "ids", "any", "wins", "keyword")

    def __init__(self, log: dict, types, labels, named: CardsNamed, wins: bool, keyword):
        self.log = tuple(log.items())  # (note, value) of every read, as few objects as a dict's
        self.types = types
        self.labels = labels
        self.ids = named.ids
        self.any = named.any
        self.wins = wins
        self.keyword = keyword  # (first word, place among the keywords of that word, bindings) or None


class AbilityChecks:
    """The card abilities of one checker's pack, each checked or its findings taken from the
    store (see the module's docstring)."""

    def __init__(self, checker, store: dict):
        self.checker = checker
        self.store = store
        self.reads = Reads()
        self.seen = Seen(checker.defn, self.reads)
        self.attr_types = Noted("attr_types", checker.attr_types, self.reads)
        self.function_types = Noted("function_types", checker.found.function_types, self.reads)
        self.by_first = Noted("keywords", checker.keywords.by_first, self.reads)
        self.alike: dict = {}  # (note, id of the value noted) -> whether this pack reads the same

    def check(self, ab) -> None:
        """Check ability `ab` of a card, or take again what an earlier pack's check of it found."""
        tree = ab.tree
        entry = self.store.get(tree)
        if entry is not None and self._reads_alike(entry.log):
            self._take(ab, entry)
            return
        self._check(ab, record=entry is None)

    def _reads_alike(self, log: tuple) -> bool:
        alike = self.alike
        for note, value in log:
            key = (note, id(value))
            known = alike.get(key)
            if known is None:
                known = alike[key] = same(value, self._read(note))
            if not known:
                return False
        return True

    def _read(self, note):
        """What this pack gives for read `note`, as the check of an ability would have read it."""
        kind, table, key = note
        c = self.checker
        if kind == "call":
            return getattr(c, table)(*key)
        if kind == "attr":
            return getattr(c.defn, table)
        source = {"attr_types": c.attr_types, "function_types": c.found.function_types,
                  "keywords": c.keywords.by_first}.get(table)
        if source is None:
            source = getattr(c.defn, table)
        if kind == "all":
            return dict(source) if isinstance(source, dict) else list(source)
        if kind == "in":
            return key in source
        return source.get(key, _MISSING)

    def _take(self, ab, entry: Entry) -> None:
        c = self.checker
        c.found.types.update(entry.types)
        c.found.labels.update(entry.labels)
        c.cards_named.ids |= entry.ids
        c.cards_named.any |= entry.any
        c.wins_written |= entry.wins
        if entry.keyword is not None:
            first, place, bindings = entry.keyword
            c.found.keyword_uses[ab] = KeywordUse(c.keywords.by_first[first][place], bindings)

    def _check(self, ab, record: bool) -> None:
        c = self.checker
        found = c.found
        diagnostics = len(c.report.diagnostics)
        saved = (c.defn, c.attr_types, found.function_types, c.keywords.by_first, found.types, found.labels,
                 c.cards_named, c.wins_written)
        types, labels, named = {}, {}, CardsNamed()
        c.defn, c.attr_types, found.function_types, c.keywords.by_first = \
            self.seen, self.attr_types, self.function_types, self.by_first
        found.types, found.labels, c.cards_named, c.wins_written = types, labels, named, False
        self.reads.log = log = {}
        c.reads = self.reads
        try:
            c.card_ability(ab)
        finally:
            self.reads.log = None
            c.reads = None
            wins = c.wins_written
            (c.defn, c.attr_types, found.function_types, c.keywords.by_first, found.types, found.labels,
             c.cards_named, c.wins_written) = saved
            found.types.update(types)
            found.labels.update(labels)
            c.cards_named.ids |= named.ids
            c.cards_named.any |= named.any
            c.wins_written |= wins
        if record and len(c.report.diagnostics) == diagnostics:
            self.store[ab.tree] = Entry(log, types, labels, named, wins, self._keyword(ab))

    def _keyword(self, ab):
        use = self.checker.found.keyword_uses.get(ab)
        if use is None:
            return None
        first = next(w[1] for w in use.keyword.words if w[0] == "lit")
        return first, self.checker.keywords.by_first[first].index(use.keyword), use.bindings


def ability_checks(checker) -> AbilityChecks | None:
    """The reuse of findings for `checker`'s cards, within a `shared_checks` block; else None."""
    return AbilityChecks(checker, _STORE) if _STORE is not None else None
