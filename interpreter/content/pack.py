"""Gathering a pack: its files loaded (stage 1) and validated (stage 2), their
definitions collected in a `GameDef`. Their rules texts are parsed next, by
`language.texts` (stage 3).

A pack is a game folder: one `kind: game` file and any number of card sets,
keyword libraries, boards, scenarios and rules tests, in any sub-folders. A
file outside a game folder names its game with `game:` (a shipped game or a
path), so a modder can check a card file of their own against a real game.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path

from ..diagnostics import ContentError, Position, Report
from .declarations import NameChecks, empty_game, function, procedure, read_declarations, read_game
from .declarations import as_int, as_list, as_str, plain_options
from .layers import Layer, Merge, available_expansions, texts_of, where
from .model import (AbilityDef, BoardDef, CardDef, GameDef, KeywordDef, LayerDef, LayerKind, RulesTestDef, ScenarioDef,
                    in_language)
from ..names import did_you_mean, fold
from ..shared_store import SharedStore
from .rulings import from_note, rulings_of
from .source import PDict, PList, SourceFile, edited_text, is_rules_test_file, load_file
from .folders import display_path, exists, is_dir, is_file, is_game_file, shipped_game, yaml_files
from .validate import file_kind, validate

@contextmanager
def collector_paused():
    """Python's cycle collector paused while a pack is read, checked and compiled, and resumed
    after (as it was). Loading makes hundreds of thousands of small objects (positioned values,
    nodes, positions, code) that all live as long as the pack and hold no garbage cycle: a
    collection finds nothing to free, yet walks them again and again, more often the larger the
    pack. Raising the youngest generation's threshold to 100,000 objects saved about 15% of a
    check; pausing saves about a fifth more (a 75,000-card pack checked in 17.3-18.6 s of
    processor time instead of 22.9-23.1 s, at the same peak memory, 1.37 GB: see
    docs/changelog-performance.md). What a check leaves as garbage with a cycle is freed by the
    next collection after it."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


# Within a `shared_cards()` block (a check of several packs): the cards built of each file, by
# the file and the layer that adds them. Never kept from one block to the next: a card is not
# changed once built, but by `--set` in a load, and a language server keeps the packs of its
# last check while it checks again, whose abilities the next check's parse would change.
SHARED_CARDS = SharedStore("cards built", dict, lambda kept: True)


def shared_cards():
    """Within the block, the packs that read the same file of cards, laid by the same layer,
    share its cards: built once, in the first of them."""
    return SHARED_CARDS.block()


def test_cards(test: RulesTestDef, game_id: str) -> list[SourceFile]:
    """The cards a rules test adds for itself, as cards files: one per component kind and starting
    zone its items name (`component:` and `start:` of an item; a card by default, in no zone)."""
    groups: dict[tuple, PList] = {}
    for item in test.cards or ():
        if not isinstance(item, PDict):
            continue
        key = (as_str(item.get("component")) or "card", as_str(item.get("start")))
        group = groups.get(key)
        if group is None:
            group = groups[key] = PList()
            group.pos = item.pos
        card = PDict((k, v) for k, v in item.items() if k not in ("component", "start"))
        card.pos, card.key_pos = item.pos, item.key_pos
        group.append(card)
    out = []
    for (component, start), items in groups.items():
        data = PDict(kind="cards", game=game_id, component=component, cards=items)
        if start is not None:
            data["start"] = start
        data.pos, data.key_pos = items.pos, {}
        for key in ("component", "start"):  # an unknown kind or zone is reported where the item names it
            named = next((i.get(key) for i in test.cards if isinstance(i, dict) and i.get(key) == data.get(key)), None)
            if named is not None:
                data[key] = named
        out.append(SourceFile(test.file, "", data, for_test=(test.file, test.pos.line)))
    return out


def read_pack(root: Path, report: Report, extra=(), layers: list[Layer] = (), scenario: str | None = None,
              tests: bool = True) -> GameDef | None:
    """Stages 1 and 2 over the pack in folder `root` (and the files `extra` that name its game),
    with `layers` (expansions and mods, in order) and `scenario` laid over it: its files read
    and validated, gathered into a GameDef whose rules texts are not parsed yet. Without
    `tests`, the rules tests of its folders are neither read nor kept (a load to play)."""
    return PackLoader(report, tests).load_pack(root, list(extra), list(layers), scenario)


class PackLoader:
    """Loads the files of one pack into a GameDef, reporting every error on the way."""

    def __init__(self, report: Report, tests: bool = True):
        self.report = report
        self.tests = tests  # whether the rules tests are read and kept (see read_pack)
        self.loaded: dict[str, SourceFile] = {}
        self.names = NameChecks(report)
        self.layer: str | None = None  # the layer whose files are being added

    def pack_files(self, folder: Path) -> list[Path]:
        """The YAML files of `folder` this pack reads: all of them, or, without the rules tests,
        all but the files that surely are rules tests (by their first key: `is_rules_test_file`)."""
        files = yaml_files(folder)
        return files if self.tests else [p for p in files if not is_rules_test_file(str(p))]

    # stage 1 and 2 for one file
    def load(self, path: Path) -> SourceFile | None:
        shown = display_path(path)
        if shown in self.loaded:
            return self.loaded[shown]
        self.report.checked.add(shown)
        try:
            src, errors = load_file(shown)
        except ContentError as exc:
            self.report.add(exc, Position(shown))
            self._remember_text(shown)
            return None
        self.report.sources[shown] = src.text
        for exc in errors:
            self.report.add(exc, Position(shown))
        if src.schema_errors is None:  # a file another pack of this check loaded is checked already
            src.schema_errors = validate(src)
        for exc in src.schema_errors:
            self.report.add(exc, Position(shown))
        self.loaded[shown] = src
        try:
            file_kind(src)
        except ContentError:
            return None
        self.old_rulings(src)
        return src

    def old_rulings(self, src: SourceFile) -> None:
        """A warning for each ruling written as a note ("ruling (IDS): text"), the older form."""
        for note in as_list(src.data.get("notes")):
            if isinstance(note, str) and from_note(note) is not None:
                self.report.warning("W003", getattr(note, "pos", src.data.pos), "a ruling written as a note",
                                    "write it under 'rulings:' as {rules: [IDS], text: ...}")

    def _remember_text(self, shown: str) -> None:
        remember_text(self.report, shown)

    def load_pack(self, root: Path, extra: list[Path] = (), layers: list[Layer] = (),
                  scenario: str | None = None) -> GameDef | None:
        files = self.pack_files(root)
        given = [p for p in extra if isinstance(p, SourceFile)]  # sources already read (a test's own cards)
        for p in extra:
            if not isinstance(p, SourceFile) and p.resolve() not in {f.resolve() for f in files}:
                files.append(p)
        sources = [s for s in (self.load(p) for p in files) if s is not None] + given
        games = [s for s in sources if s.data.get("kind") == "game"]
        if not games and any(is_game_file(p) for p in files):
            return None  # the game file could not be loaded: its error is reported already
        if not games:
            self.report.error("F001", Position(display_path(root)), "no game file (kind: game) in this folder",
                              "a game folder holds a game.yaml")
            return None
        if len(games) > 1:
            for second in games[1:]:
                self.report.error("N013", second.data.pos, f"a second game file in one pack (the first is {games[0].path})",
                                  "one game per folder: move expansions into a folder of their own")
        game = self.build_game(games[0])
        if game is None:
            return None
        self.add_files(game, [s for s in sources if s is not games[0] and s.data.get("kind") != "game"])
        game.test_cards_of = next((s.for_test for s in given if s.for_test is not None), None)
        merge = Merge(game, self.report)
        for layer in layers:
            self.add_layer(game, merge, layer)
        modes = [layer.id for layer in layers if layer.solo]
        if modes:
            # a solo mode changes who plays (a seat of the rules): the rulings of the game and of
            # other layers were written for people at every seat, and are not its rulings. A file
            # laid alone (`regles test GAME my.yaml -x solo`) is someone's own rulings, written
            # for the game as they lay it: they stay
            own = [layer.id for layer in layers if layer.kind is LayerKind.MOD and is_file(layer.path)]
            game.tests = [t for t in game.tests if t.layer in modes or t.layer in own]
        self.check_requires(game, root, layers)
        self.check_sheets(game)
        if scenario is not None:
            self.choose_scenario(game, merge, scenario)
        merge.finish()
        return game

    def check_requires(self, game: GameDef, root: Path, layers: list[Layer]) -> None:
        """Each expansion a scenario of the pack requires is one of the game's (a folder inside
        it) or one laid (a mod): else `--scenario` would stop at it, after a clean check."""
        known = set(available_expansions(root)) | {layer.id for layer in layers}
        for sc in game.scenarios:
            wanted = sc.data.get("requires")
            for name in wanted if isinstance(wanted, list) else ():
                if isinstance(name, str) and name not in known:
                    self.report.error("N021", getattr(name, "pos", sc.pos), f"unknown expansion '{name}'",
                                      did_you_mean(name, known) or (f"the expansions of {game.id}: "
                                                                    f"{', '.join(sorted(known))}" if known else
                                                                    f"{game.id} has no expansions"))

    def check_sheets(self, game: GameDef) -> None:
        """A scenario's `characters:` holds one sheet for each character: each value of the
        attribute the game's powers are unique by (`powers: unique:`), none for another value."""
        for sc in game.scenarios:
            sheets = sc.data.get("characters")
            if not isinstance(sheets, dict):
                continue
            unique = game.powers.unique if game.powers is not None else None
            attr = game.attributes.get(unique) if unique else None
            if attr is None:
                self.report.error("D004", sc.data.key_pos.get("characters", sc.pos),
                                  "a scenario's 'characters:' needs the game to name its characters",
                                  "declare 'powers: {unique: ATTRIBUTE}' in the game or an expansion it requires")
                continue
            values = [str(v) for v in attr.values]
            for name in sheets:
                if str(name) not in values:
                    self.report.error("N019", getattr(name, "pos", sc.pos), f"'{name}' is not a value of '{unique}'",
                                      did_you_mean(str(name), values) or f"the values of '{unique}': {', '.join(values)}")
            missing = [v for v in values if v not in {str(k) for k in sheets}]
            if missing:
                self.report.error("D007", sc.data.key_pos.get("characters", sc.pos), f"scenario '{sc.id}' has no sheet for "
                                                   f"{'character' if len(missing) == 1 else 'characters'} "
                                                   f"{', '.join(repr(m) for m in missing)}",
                                  f"each player takes the sheet of the {unique} they play: write one for each "
                                  f"value of '{unique}'")

    def add_files(self, game: GameDef, sources: list[SourceFile]) -> None:
        for src in sources:
            kind = src.data.get("kind")
            named = src.data.get("game")
            if isinstance(named, str) and fold(named) != fold(game.id) and shipped_game(named) is None \
                    and not exists(Path(src.path).parent / named):
                self.report.error("N012", named.pos, f"this file names game '{named}', but it is checked with game '{game.id}'",
                                  f"write 'game: {game.id}'")
            getattr(self, "add_" + kind.replace("-", "_"))(game, src)

    # layers ----------------------------------------------------------------
    def add_layer(self, game: GameDef, merge: Merge, layer: Layer) -> None:
        """The files of expansion or mod `layer` read and laid over `game`."""
        files = self.pack_files(layer.path) if is_dir(layer.path) else [layer.path]
        sources = [s for s in (self.load(p) for p in files) if s is not None]
        heads = [s for s in sources if s.data.get("kind") == "expansion"]
        head = heads[0].data if heads else None
        # its title where one name stands for it (a trace, explain): in English, else as written
        ldef = LayerDef(layer.id, layer.kind, (in_language(head.get("title"), "en") or layer.id) if head else layer.id,
                        str(layer.path.resolve()) if layer.kind is LayerKind.MOD else display_path(layer.path),
                        head.pos if head else Position(display_path(layer.path)),
                        list(layer.requires), head.get("title") if head else None)
        game.layers.append(ldef)
        for src in heads[1:]:
            self.report.error("N013", src.data.pos, f"a second expansion file in one folder (the first is {heads[0].path})",
                              "one expansion per folder")
        for src in sources:
            if src.data.get("kind") == "game":
                self.report.error("F001", src.data.pos, "a game file inside an expansion or a mod",
                                  "an expansion names the game it extends with 'game:'")
        if head is not None and isinstance(head.get("game"), str) and fold(head["game"]) != fold(game.id) \
                and not (Path(heads[0].path).parent / head["game"]).resolve() == Path(game.file).parent.resolve():
            self.report.error("N012", head["game"].pos, f"this expansion extends game '{head['game']}', but it is laid over "
                                                f"'{game.id}'", f"write 'game: {game.id}'")
        before = self.layer
        self.layer = layer.id
        try:
            rules = [s for s in sources if s.data.get("kind") == "rules"]
            if heads:
                part = empty_game(heads[0])
                read_declarations(part, heads[0], self.report, layer.id)
                for src in rules:  # the expansion's own procedures and functions, merged with the rest
                    self.add_rules(part, src)
                merge.expansion(part, heads[0], ldef)
            self.add_files(game, [s for s in sources if s.data.get("kind") not in ("game", "expansion")
                                  and not (heads and s.data.get("kind") == "rules")])
        finally:
            self.layer = before

    def choose_scenario(self, game: GameDef, merge: Merge, name: str) -> None:
        sc = next((s for s in game.scenarios if s.id == name), None)
        if sc is None:  # layers.plan found it: it failed to load, and its errors are reported
            return
        game.layers.append(LayerDef(sc.id, LayerKind.SCENARIO, sc.title, sc.file, sc.pos))
        merge.scenario(sc, self.loaded[sc.file], game.layers[-1])

    # the game file -------------------------------------------------------
    def build_game(self, src: SourceFile) -> GameDef | None:
        return read_game(src, self.report)

    # other kinds ---------------------------------------------------------
    def add_cards(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        defn.rulings += rulings_of(d)  # a card file's rulings are the game's, shown by explain with its cards
        items = [item for item in as_list(d.get("cards")) if isinstance(item, dict) and isinstance(item.get("id"), str)]
        for item in items:
            for t in as_list(item.get("tags")):
                self.names.printed(t, "tag", item.pos)
        # the packs of one check read the same file (source.shared_loads) and lay the same layer
        # under its cards: within a `shared_cards` block they share them, built once
        store = SHARED_CARDS.get()
        key = (id(src), self.layer)
        found = store.get(key) if store is not None else None
        if found is None:
            found = (src, self.build_cards(src, items))  # (src kept: its id stays its own)
            if store is not None:
                store[key] = found
        defn.cards += found[1]

    def build_cards(self, src: SourceFile, items: list) -> list:
        """The cards of file `src`, from its entries `items`, as the layer being added adds them."""
        d = src.data
        component = as_str(d.get("component")) or "card"  # with its position: the checker names it (N016)
        per_player = bool(d.get("per_player", False))
        start = d.get("start")  # kept with its position: the checker names the zone's errors (N001)
        start = start if isinstance(start, str) else None
        authored_file, card_set = d.get("authored"), as_str(d.get("set"))
        cards = []
        for item in items:
            attrs = {k: v for k, v in item.items() if k not in _CARD_FIELDS}
            card = CardDef(id=str(item["id"]), title=str(item.get("title", item["id"])), component=component,
                           copies=as_int(item.get("copies"), 1), attrs=attrs,
                           tags=[str(t) for t in as_list(item.get("tags")) if isinstance(t, str)],
                           abilities=[], start=start, per_player=per_player,
                           pos=item.pos, file=src.path, authored=item.get("authored", authored_file),
                           key_pos=item.key_pos, layer=self.layer, set=card_set,
                           texts=printed_texts(item.get("text")),
                           rules=[str(r) for r in as_list(item.get("rules")) if isinstance(r, str)],
                           plural_title=item.get("plural_title") is True)
            card.abilities = [AbilityDef(text, text.pos) for text in as_list(item.get("abilities"))
                              if isinstance(text, str)]
            cards.append(card)
        return cards

    def add_keywords(self, defn: GameDef, src: SourceFile) -> None:
        for item in as_list(src.data.get("keywords")):
            if not isinstance(item, dict) or not isinstance(item.get("pattern"), str):
                continue
            texts = [item["ability"]] if isinstance(item.get("ability"), str) else \
                [t for t in as_list(item.get("abilities")) if isinstance(t, str)]
            if not texts:
                continue
            params = {k: v for k, v in (item.get("params") or {}).items() if isinstance(v, str)} \
                if isinstance(item.get("params"), dict) else {}
            defn.keywords.append(KeywordDef(pattern=item["pattern"], params=params, ability_texts=list(texts),
                                         pos=item["pattern"].pos, file=src.path, family=as_str(item.get("family")),
                                         params_pos=getattr(item.get("params"), "key_pos", {}),
                                         texts=printed_texts(item.get("text")),
                                         rules=[str(r) for r in as_list(item.get("rules")) if isinstance(r, str)]))

    def add_board(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        board = BoardDef(str(d.get("id", "")), {}, [], d.pos, src.path,
                         title=d["title"] if isinstance(d.get("title"), (str, dict)) else None)
        for n in as_list(d.get("nodes")):
            if isinstance(n, dict) and isinstance(n.get("id"), (str, int)) and not isinstance(n["id"], bool):
                key = str(n["id"])
                if key in board.nodes:
                    self.report.error("N013", getattr(n["id"], "pos", n.pos), f"duplicate node id '{key}'",
                                      "node ids are unique on a board")
                    continue
                for t in as_list(n.get("tags")):
                    self.names.printed(t, "tag", n.pos)
                if isinstance(n.get("kind"), str):
                    self.names.printed(n["kind"], "node kind", n.pos)
                board.nodes[key] = dict(n)
                board.nodes[key]["_pos"] = n.pos
        for e in as_list(d.get("edges")):
            if isinstance(e, list) and len(e) == 2:
                # an edge may join a node of another board of the pack (an expansion's board laid
                # beside the game's): the checker looks its ends up once every board is read
                board.edges.append((str(e[0]), str(e[1])))
                board.edge_pos.append((getattr(e[0], "pos", e.pos), getattr(e[1], "pos", e.pos)))
        defn.boards.append(board)

    def add_scenario(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        defn.scenarios.append(ScenarioDef(str(d.get("id", "")), in_language(d.get("title"), "en"), plain_options(d),
                                          d.pos, src.path, layer=self.layer, hooks=dict(texts_of(d.get("hooks"))),
                                          replace=dict(texts_of(d.get("replace")))))

    def add_rules(self, defn: GameDef, src: SourceFile) -> None:
        """The procedures and functions of a rules file, added to the game's (or to an
        expansion's, in its folder) as if its game file declared them: a name declared
        already, there or in another rules file, is an error at its second place."""
        d = src.data
        self.names.check_names(d)
        defn.notes += [n for n in as_list(d.get("notes")) if isinstance(n, str)]
        for section, table, make in (("procedures", defn.procedures, procedure),
                                     ("functions", defn.functions, function)):
            entries = d.get(section)
            if not isinstance(entries, dict):
                continue
            for name, spec in entries.items():
                pos = entries.key_pos.get(name, entries.pos)
                first = defn.procedures.get(name) or defn.functions.get(name)
                if first is not None:
                    what = "extension point" if getattr(first, "point", False) else \
                        "procedure" if name in defn.procedures else "function"
                    self.report.error("N013", pos, f"{what} '{name}' is declared already, at {where(first.pos)}",
                                      "a procedure or function is declared once: in the game file or in one "
                                      "rules file")
                    continue
                made = make(name, spec, pos, self.layer)
                if made is not None:
                    table[name] = made

    def add_expansion(self, defn: GameDef, src: SourceFile) -> None:
        self.report.error("F001", src.data.pos, "an expansion file in a game's own folder",
                          "put an expansion in a folder of its own (e.g. expansions/NAME/expansion.yaml)")

    def add_rules_test(self, defn: GameDef, src: SourceFile) -> None:
        if not self.tests:
            return  # a rules test whose first key is not its kind: read, but not kept
        d = src.data
        file_rules = [str(r) for r in as_list(d.get("rules"))]
        for t in as_list(d.get("tests")):
            if not isinstance(t, dict):
                continue
            defn.tests.append(RulesTestDef(str(t.get("name", "")), file_rules + [str(r) for r in as_list(t.get("rules"))],
                                           plain_options(t), t.pos, src.path, layer=self.layer,
                                           cards=t.get("cards") if isinstance(t.get("cards"), list) else None))




# the keys of a card that are not its attributes
_CARD_FIELDS = frozenset(("id", "title", "copies", "abilities", "text", "tags", "authored", "rules", "note",
                          "plural_title"))


def printed_texts(text) -> dict:
    """A keyword's or a card's `text:` as language -> text: a plain string is the English text."""
    if isinstance(text, str):
        return {"en": text}
    if isinstance(text, dict):
        return {str(lang): t for lang, t in text.items() if isinstance(t, str)}
    return {}


def remember_text(report: Report, shown: str) -> None:
    """Keep the text of file `shown` (as an editor holds it, else as read) in `report`, so that
    an error in it is shown with its line."""
    edited = edited_text(shown)
    if edited is not None:
        report.sources[shown] = edited
        return
    try:
        with open(shown, "rb") as fh:
            report.sources[shown] = fh.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        pass
