"""A card checked once however many packs of one check hold it.

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
value in that pack; else it is checked again (`AbilityChecks`). Only an
ability checked with no diagnostic is kept: one in error is checked in every
pack, so its messages are those a check of that pack alone gives.

A rules test is checked the same way (`AbilityChecks.check_test`): a game's
rulings are checked in the game and again with its expansions laid over it.
Its parts are taken again where they read alike; its count of players, which
the expansions may raise, is checked in each pack.

A card's face is checked the same way (`FaceChecks`): whether the prose of
each ability fits the face, in each language, depends on the tree, the
keyword it uses, the types found and what the renderer reads of the pack and
its vocabulary, each noted.

Notes are kept within a `shared_checks()` block (the check of several
packs); outside one, every card is checked as it always was.
`tests/language/test_check_reuse.py` compares the findings and diagnostics
with and without reuse over every shipped game with its expansions and solo
mode, and over packs whose expansions change what a base card reads.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from ..shared_store import SharedStore
from .check_start import CardsNamed
from .keywords import KeywordUse
from .prose.printed import unfit_ability

_MISSING = object()  # a key the table does not hold
_ALL = "*"  # a read of the whole table (its length, its keys...)

# What a `shared_checks(kept=True)` block leaves for the next one: a language server checks a
# pack again at each edit, and what did not change reads alike. At most KEPT_MOST entries.
KEPT_CHECKS: dict = {}
KEPT_MOST = 20_000
# Within a `shared_checks` block: the tree of each ability checked clean -> its Entry
SHARED_CHECKS = SharedStore("checks made", lambda: KEPT_CHECKS, lambda kept: len(kept) > KEPT_MOST)


def shared_checks(kept: bool = False):
    """Within the block, an ability checked in one pack is not checked again in another pack
    whose declarations it reads are the same (see the module's docstring); with `kept`, nor in
    the packs of the next such block."""
    return SHARED_CHECKS.block(kept)


class Reads:
    """What the check of one ability read: (kind, table, key) -> the value found."""
    __slots__ = ("log",)

    def __init__(self):
        self.log: dict | None = None


def _whole(method):
    """`method` of a noted table's class (dict or list), noting first that the whole table was
    read (its length, its keys, its members one by one)."""
    def read(self, *args):
        log = self.reads.log
        if log is not None:
            log.setdefault(("all", self.table, _ALL), self.copy_of())
        return method(self, *args)
    read.__name__, read.__doc__ = method.__name__, method.__doc__
    return read


class Noted(dict):
    """A table of the pack that notes every key read, while `reads.log` is a dict."""
    __slots__ = ("table", "reads", "whole")

    def __init__(self, table: str, data: dict, reads: Reads):
        super().__init__(data)
        self.table = table
        self.reads = reads
        self.whole = None  # the copy `copy_of` made (not `copy`: dict's and list's own method)

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

    def copy_of(self) -> dict:
        # one copy per pack: this table does not change while the pack is checked, and the
        # logs that read it whole then hold one value, which `interned` finds alike
        copy = self.whole
        if copy is None:
            copy = self.whole = dict(dict.items(self))
        return copy

    __iter__, __len__ = _whole(dict.__iter__), _whole(dict.__len__)
    keys, values, items = _whole(dict.keys), _whole(dict.values), _whole(dict.items)


class NotedList(list):
    """A list of the pack's declarations (its windows, keywords, cards) that notes how it is read."""
    __slots__ = ("table", "reads", "whole")

    def __init__(self, table: str, data: list, reads: Reads):
        super().__init__(data)
        self.table = table
        self.reads = reads
        self.whole = None  # the copy `copy_of` made (not `copy`: dict's and list's own method)

    def __contains__(self, item):
        found = list.__contains__(self, item)
        log = self.reads.log
        if log is not None:
            try:
                log.setdefault(("in", self.table, item), found)
            except TypeError:  # an item that cannot be a key: the whole list was read
                log.setdefault(("all", self.table, _ALL), self.copy_of())
        return found

    def copy_of(self) -> list:
        copy = self.whole  # (one per pack, as Noted's)
        if copy is None:
            copy = self.whole = list(list.__iter__(self))
        return copy

    __iter__, __len__, __getitem__ = _whole(list.__iter__), _whole(list.__len__), _whole(list.__getitem__)


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
    """Whether two values read from two packs are alike: member by member for lists and dicts,
    field by field for declarations (dataclasses: a keyword, which compares by identity, is alike
    another pack's copy of it), else equal."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        if isinstance(a, (list, tuple)):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
        if is_dataclass(a):
            return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
        return bool(a == b)
    except (RecursionError, TypeError, ValueError):  # not known to be alike
        return False


def interned(store: dict, log: dict) -> tuple:
    """The reads of `log` as a tuple of (note, value), one tuple for all the checks of the store
    that read the same values: a later pack asks once whether that tuple reads alike
    (`Noting.reads_alike`), not once per ability. Many abilities read alike: the same counters,
    events and keywords, the same tables of the pack. The key holds each value by its id: the
    tuple kept in the store keeps each value alive, so that its id stays its own."""
    reads = tuple(log.items())
    key = ("reads", *[(note, id(value)) for note, value in reads])
    found = store.get(key)
    if found is None:
        found = store[key] = reads
    return found


class Entry:
    """What one clean check of an ability read and found."""
    __slots__ = ("log", "types", "labels", "ids", "any", "wins", "keyword", "kept")

    def __init__(self, log: tuple, types, labels, named: CardsNamed, wins: bool, keyword, kept=None):
        self.log = log  # (note, value) of every read (`interned`)
        self.types = types
        self.labels = labels
        self.ids = named.ids
        self.any = named.any
        self.wins = wins
        self.keyword = keyword  # (first word, place among the keywords of that word, bindings) or None
        self.kept = kept  # what the entry's key names by its id, kept alive so that the id stays its own


class Noting:
    """What one pack reads again, compared with what an earlier pack's check noted: `sources`
    gives, by table name, where this pack keeps what the check read through a Noted copy."""

    def __init__(self, store: dict, defn):
        self.store = store
        self.defn = defn
        self.reads = Reads()
        self.sources: dict = {}
        self.alike: dict = {}  # (note, id of the value noted) -> whether this pack reads the same
        self.logs_alike: dict = {}  # id of an interned log -> whether this pack reads all of it the same

    def noted(self, table: str, data: dict) -> Noted:
        """A Noted copy of table `data` of this pack, named `table`."""
        self.sources[table] = data
        return Noted(table, data, self.reads)

    def reads_alike(self, log: tuple, ab) -> bool:
        """Whether every read of `log` (an earlier pack's check of ability `ab`, `interned`) gives
        the same value in this pack: worked out once per log (the store keeps it alive, so its
        id stays its own; what a read gives does not depend on the ability)."""
        known = self.logs_alike.get(id(log))
        if known is None:
            known = self.logs_alike[id(log)] = self._reads_alike(log, ab)
        return known

    def _reads_alike(self, log: tuple, ab) -> bool:
        alike = self.alike
        for note, value in log:
            key = (note, id(value))  # the store keeps each value alive: its id stays its own
            known = alike.get(key)
            if known is None:
                known = alike[key] = same(value, self.read(note, ab))
            if not known:
                return False
        return True

    def read(self, note, ab):
        """What this pack gives for read `note`, as the check of ability `ab` would have read it."""
        kind, table, key = note
        if kind == "attr":
            return getattr(self.defn, table)
        source = self.sources.get(table)
        if source is None:
            source = getattr(self.defn, table)
        if kind == "all":
            return dict(source) if isinstance(source, dict) else list(source)
        if kind == "in":
            return key in source
        return source.get(key, _MISSING)


class AbilityChecks(Noting):
    """The card abilities of one checker's pack, each checked or its findings taken from the
    store (see the module's docstring)."""

    def __init__(self, checker, store: dict):
        super().__init__(store, checker.defn)
        self.checker = checker
        self.seen = Seen(checker.defn, self.reads)
        self.attr_types = self.noted("attr_types", checker.attr_types)
        self.function_types = self.noted("function_types", checker.found.function_types)
        self.by_first = self.noted("keywords", checker.keywords.by_first)

    def check(self, ab) -> None:
        """Check ability `ab` of a card, or take again what an earlier pack's check of it found."""
        self._reuse(ab.tree, ab, self.checker.card_ability, ability=True)

    def check_test(self, t) -> None:
        """Check rules test `t` (one without cards of its own), or take again what an earlier
        pack's check of it found: a game's rulings are checked in the game and again with its
        expansions laid over it. The test is the same when its parsed parts and its data (its
        players, options, choices, one loaded mapping per check) are the same objects."""
        key = ("test", t.given, t.when, *(cond for _, cond in t.then), id(t.data))
        self._reuse(key, t, self.checker.check_test, keep=t.data)

    def _reuse(self, key, item, check, ability=False, keep=None) -> None:
        entry = self.store.get(key)
        if entry is not None and self.reads_alike(entry.log, item):
            self._take(item, entry)
            return
        self._check(item, check, key if entry is None else None, ability, keep)

    def read(self, note, ab):
        if note[0] == "call":
            return getattr(self.checker, note[1])(*note[2])
        return super().read(note, ab)

    def _take(self, ab, entry: Entry) -> None:
        c = self.checker
        c.found.types.update(entry.types)
        # (most abilities show no label, name no card and win nothing: a later pack takes
        # thousands of them)
        if entry.labels:
            c.found.labels.update(entry.labels)
        if entry.ids:
            c.cards_named.ids |= entry.ids
        if entry.any:
            c.cards_named.any = True
        if entry.wins:
            c.wins_written = True
        if entry.keyword is not None:
            first, place, bindings = entry.keyword
            c.found.keyword_uses[ab] = KeywordUse(c.keywords.by_first[first][place], bindings)

    def _check(self, ab, check, key, ability: bool, keep) -> None:
        """Check `ab` (an ability, or a rules test) by `check`, noting what it reads; its findings
        are stored under `key` (None: not stored) when it is clean, with the keyword an ability
        uses, and `keep` kept alive beside them (what the key names by its id)."""
        c = self.checker
        found = c.found
        diagnostics = len(c.report.diagnostics)
        saved = (c.defn, c.attr_types, found.function_types, c.keywords.by_first, found.types, found.labels,
                 c.cards_named, c.wins_written)
        types, labels, named = {}, {}, CardsNamed()
        named.in_tests = c.cards_named.in_tests  # (what the rules tests name is not counted)
        c.defn, c.attr_types, found.function_types, c.keywords.by_first = \
            self.seen, self.attr_types, self.function_types, self.by_first
        found.types, found.labels, c.cards_named, c.wins_written = types, labels, named, False
        self.reads.log = log = {}
        c.reads = self.reads
        try:
            check(ab)
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
        if key is not None and len(c.report.diagnostics) == diagnostics:
            self.store[key] = Entry(interned(self.store, log), types, labels, named, wins,
                                    self._keyword(ab) if ability else None, keep)

    def _keyword(self, ab):
        use = self.checker.found.keyword_uses.get(ab)
        if use is None:
            return None
        first = next(w[1] for w in use.keyword.words if w[0] == "lit")
        return first, self.checker.keywords.by_first[first].index(use.keyword), use.bindings


class FaceChecks(Noting):
    """The faces of one pack's cards in one language (language.prose.face_checks): whether the
    face of each ability fits, worked out once per check where what its prose reads is alike."""

    def __init__(self, prose, store: dict):
        r = prose.renderer
        super().__init__(store, r.defn)
        self.prose = prose
        self.seen = Seen(r.defn, self.reads)
        self.views = (self.noted("types", r.types), self.noted("words", r.vocab.entries),
                      self.noted("folded words", r.vocab.folded), self.noted("keyword trees", prose.by_tree))

    def unfit(self, prose, ab):
        """What `printed.unfit_ability` says of `ab` in this pack: taken again, or worked out."""
        key = ("face", prose.lang, ab.tree)
        entry = self.store.get(key)
        if entry is not None and self.alike_entry(entry, prose, ab):
            return entry[2]
        r = prose.renderer
        saved = r.defn, r.vocab.defn, r.types, r.vocab.entries, r.vocab.folded, prose.by_tree
        r.defn = r.vocab.defn = self.seen
        r.types, r.vocab.entries, r.vocab.folded, prose.by_tree = self.views
        self.reads.log = log = {}
        try:
            found = unfit_ability(prose, ab)
        finally:
            self.reads.log = None
            r.defn, r.vocab.defn, r.types, r.vocab.entries, r.vocab.folded, prose.by_tree = saved
        if entry is None:
            # the keyword `ab` uses is its own (its bindings), compared apart from what it read
            self.store[key] = (prose.uses.get(ab), interned(self.store, log), found)
        return found

    def alike_entry(self, entry: tuple, prose, ab) -> bool:
        """Whether the face check `entry` (the keyword use, the reads, the verdict) reads alike here."""
        return self._same_use(entry[0], prose.uses.get(ab)) and self.reads_alike(entry[1], ab)

    def _same_use(self, a, b) -> bool:
        """Whether two keyword uses are alike: the same values bound, to keywords alike (compared
        once per pair of keywords: a pack's cards use few keywords, many times; both packs keep
        theirs alive while this pack is checked)."""
        if a is None or b is None:
            return a is b
        key = ("keyword", id(a.keyword), id(b.keyword))
        known = self.alike.get(key)
        if known is None:
            known = self.alike[key] = same(a.keyword, b.keyword)
        return known and same(a.bindings, b.bindings)


def face_checks(prose) -> FaceChecks | None:
    """The reuse of face verdicts for `prose`'s pack and language, within a `shared_checks`
    block; else None."""
    store = SHARED_CHECKS.get()
    return FaceChecks(prose, store) if store is not None else None


def ability_checks(checker) -> AbilityChecks | None:
    """The reuse of findings for `checker`'s cards, within a `shared_checks` block; else None."""
    store = SHARED_CHECKS.get()
    return AbilityChecks(checker, store) if store is not None else None
