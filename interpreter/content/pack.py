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
from .model import (AbilityDef, AttributeDef, BoardDef, CardDef, CounterDef, FunctionDef, GameDef, KeywordDef, OptionDef,
                    ProcedureDef, RulesTestDef, ScenarioDef, ZoneDef)
from ..names import as_word, did_you_mean, fold, printed_fault, word_fault
from .source import PDict, SourceFile, load_file
from .folders import display_path, exists, is_game_file, shipped_game, yaml_files
from .validate import file_kind, validate

# Collections of the youngest generation, once per this many new objects (Python's default: 700).
YOUNG_COLLECTION_EVERY = 100_000


@contextmanager
def few_collections():
    """Loading a pack makes hundreds of thousands of small objects (positioned values, nodes,
    positions) that all live as long as the pack: the cycle collector, run every 700 new
    objects, would walk them again and again (and the older generations with them) for
    nothing, some 15% of a check. It still runs, less often; the thresholds are put back after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], YOUNG_COLLECTION_EVERY), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def read_pack(root: Path, report: Report, extra=()) -> GameDef | None:
    """Stages 1 and 2 over the pack in folder `root` (and the files `extra` that name its game):
    its files read and validated, gathered into a GameDef whose rules texts are not parsed yet."""
    return PackLoader(report).load_pack(root, list(extra))


class PackLoader:
    """Loads the files of one pack into a GameDef, reporting every error on the way."""

    def __init__(self, report: Report):
        self.report = report
        self.loaded: dict[str, SourceFile] = {}

    # stage 1 and 2 for one file
    def load(self, path: Path) -> SourceFile | None:
        shown = display_path(path)
        if shown in self.loaded:
            return self.loaded[shown]
        self.report.files_checked += 1
        try:
            src, errors = load_file(shown)
        except ContentError as exc:
            self.report.add(exc, Position(shown))
            self._remember_text(shown)
            return None
        self.report.sources[shown] = src.text
        for exc in errors:
            self.report.add(exc, Position(shown))
        schema_errors = validate(src)
        for exc in schema_errors:
            self.report.add(exc, Position(shown))
        self.loaded[shown] = src
        try:
            file_kind(src)
        except ContentError:
            return None
        return src

    def _remember_text(self, shown: str) -> None:
        try:
            with open(shown, "rb") as fh:
                self.report.sources[shown] = fh.read(1 << 20).decode("utf-8", "replace")
        except OSError:
            pass

    def load_pack(self, root: Path, extra: list[Path] = ()) -> GameDef | None:
        files = yaml_files(root)
        for p in extra:
            if p.resolve() not in {f.resolve() for f in files}:
                files.append(p)
        sources = [s for s in (self.load(p) for p in files) if s is not None]
        games = [s for s in sources if s.data.get("kind") == "game"]
        if not games and any(is_game_file(p) for p in files):
            return None  # the game file could not be loaded: its error is reported already
        if not games:
            self.report.error(Position(display_path(root)), "no game file (kind: game) in this folder",
                              "a game folder holds a game.yaml")
            return None
        if len(games) > 1:
            for second in games[1:]:
                self.report.error(second.data.pos, f"a second game file in one pack (the first is {games[0].path})",
                                  "one game per folder: move expansions into a folder of their own")
        game = self.build_game(games[0])
        if game is None:
            return None
        for src in sources:
            kind = src.data.get("kind")
            if src is games[0] or kind == "game":
                continue
            named = src.data.get("game")
            if isinstance(named, str) and fold(named) != fold(game.id) and shipped_game(named) is None \
                    and not exists(Path(src.path).parent / named):
                self.report.error(named.pos, f"this file names game '{named}', but it is checked with game '{game.id}'",
                                  f"write 'game: {game.id}'")
            getattr(self, "add_" + kind.replace("-", "_"))(game, src)
        return game

    # the game file -------------------------------------------------------
    def build_game(self, src: SourceFile) -> GameDef | None:
        d = src.data
        try:
            players = d.get("players") or {}
            defn = GameDef(
                id=str(d.get("id", "")), title=str(d.get("title", "")),
                min_players=_int(players.get("min"), 1) if isinstance(players, dict) else 1,
                max_players=_int(players.get("max"), 1) if isinstance(players, dict) else 1,
                teams={}, options={}, attributes={}, classes={}, components={}, zones={}, counters={},
                events={}, windows=[], score=d.get("score") if isinstance(d.get("score"), str) else None,
                data=d.get("data") if isinstance(d.get("data"), dict) else {},
                procedures={}, heuristic=d.get("heuristic") if isinstance(d.get("heuristic"), str) else None,
                discard=d.get("discard") if isinstance(d.get("discard"), str) else None,
                report_by=[a for a in _list(d.get("report_by")) if isinstance(a, str)],
                pos=d.pos, file=src.path)
        except (AttributeError, TypeError):
            return None
        self.check_names(d)
        teams = d.get("teams")
        if isinstance(teams, dict):
            for count, groups in teams.items():
                if isinstance(groups, list) and str(count).isdigit():
                    defn.teams[int(count)] = [[_int(s, 1) - 1 for s in grp] for grp in groups if isinstance(grp, list)]
        for name, spec in _items(d.get("options")):
            defn.options[name] = OptionDef(name, spec.get("values") if isinstance(spec.get("values"), list) else None,
                                        _str(spec.get("type")), spec.get("default"),
                                        _key_pos(d.get("options"), name, spec))
        for name, spec in _items(d.get("attributes")):
            values = [str(v) for v in spec.get("values", [])] if isinstance(spec.get("values"), list) else []
            kind = _str(spec.get("type")) or ("class" if values else "number")
            defn.attributes[name] = AttributeDef(name, kind, values, spec.get("default"), _key_pos(d.get("attributes"), name, spec))
            for v in values:
                defn.classes.setdefault(fold(v), (name, v))
            if isinstance(spec.get("aliases"), dict):
                for value, aliases in spec["aliases"].items():
                    for a in _list(aliases):
                        if isinstance(a, str):
                            defn.classes.setdefault(fold(a), (name, str(value)))
        for c in _list(d.get("classes")):
            if isinstance(c, str):
                defn.classes.setdefault(fold(c), (None, str(c)))
        defn.players_pos = getattr(d.get("players"), "pos", d.pos)
        for name, spec in _items(d.get("components")):
            defn.components[name] = [a for a in _list(spec.get("attributes")) if isinstance(a, str)]
            for a in defn.components[name]:
                defn.attribute_name_pos.setdefault((name, a), getattr(a, "pos", spec.pos))
        if not defn.components:
            defn.components["card"] = list(defn.attributes)
        for name, spec in _items(d.get("zones")):
            defn.zones[name] = ZoneDef(name, _scope(spec.get("scope")), _str(spec.get("visibility")) or "public",
                                    bool(spec.get("in_play", False)), _int(spec.get("capacity"), None),
                                    _key_pos(d.get("zones"), name, spec), index=len(defn.zones))
        for name, spec in _items(d.get("counters")):
            supply = spec.get("supply")
            defn.counters[name] = CounterDef(name, _scope(spec.get("scope")), _int(spec.get("min", 0), 0),
                                          _int(spec.get("max"), None),
                                          (str(supply) if isinstance(supply, str) else int(supply))
                                          if isinstance(supply, (str, int)) and not isinstance(supply, bool)
                                          else None, _int(spec.get("initial"), 0),
                                          _str(spec.get("visibility")) or "public", _key_pos(d.get("counters"), name, spec),
                                          [z for z in _list(spec.get("keep_in")) if isinstance(z, str)],
                                          index=len(defn.counters), internal=spec.get("internal") is True)
        events = d.get("events")
        if isinstance(events, dict):
            for name, args in events.items():
                defn.events[name] = [str(a) for a in args] if isinstance(args, list) else []
        defn.windows = [w for w in _list(d.get("windows")) if isinstance(w, str)]
        procs = d.get("procedures")
        if isinstance(procs, dict):
            for name, spec in procs.items():
                if isinstance(spec, str):
                    defn.procedures[name] = ProcedureDef(name, [], spec, procs.key_pos.get(name, procs.pos))
                elif isinstance(spec, dict) and isinstance(spec.get("body"), str):
                    params = [p for p in _list(spec.get("params")) if isinstance(p, str)]  # with positions
                    acting = spec.get("acting") if isinstance(spec.get("acting"), str) else None
                    defn.procedures[name] = ProcedureDef(name, params, spec["body"], procs.key_pos.get(name, procs.pos),
                                                         acting)
                else:  # declared, but not as text (the schema says so): known, with no body to check
                    defn.procedures[name] = ProcedureDef(name, [], None, procs.key_pos.get(name, procs.pos))
        if isinstance(d.get("tags_kept_in"), list):
            defn.tags_kept_in = [z for z in d["tags_kept_in"] if isinstance(z, str)]
        for text in _list(d.get("invariants")):
            if isinstance(text, str):
                defn.invariants.append((text, None))
        funcs = d.get("functions")
        if isinstance(funcs, dict):
            for name, spec in funcs.items():
                text = spec if isinstance(spec, str) else spec.get("body") if isinstance(spec, dict) else None
                if not isinstance(text, str):
                    continue
                params = [str(x) for x in _list(spec.get("params")) if isinstance(x, str)] if isinstance(spec, dict) else []
                defn.functions[name] = FunctionDef(name, params, text, funcs.key_pos.get(name, funcs.pos))
        return defn

    # names ---------------------------------------------------------------
    def word(self, name, what: str, pos: Position, of: str = "") -> None:
        """That `name`, declared as `what` (`of` something), is one word of the rules language."""
        if isinstance(name, str):
            fault = word_fault(name)
            if fault is not None:
                self.report.error(getattr(name, "pos", pos), f"{what} name '{name}'{of} {fault}",
                                  f"a name is one word of letters, digits, '_' and \"'\", not starting with a "
                                  f"digit, as the rules write it: e.g. '{as_word(name)}'")

    def printed(self, name, what: str, pos: Position, of: str = "") -> None:
        """That `name`, a class or tag as printed, holds no control character."""
        if isinstance(name, str):
            fault = printed_fault(name)
            if fault is not None:
                self.report.error(getattr(name, "pos", pos), f"{what} '{name}'{of} {fault}",
                                  "a name as printed is text of one line, without control characters")

    def check_names(self, d) -> None:
        """The names the game file declares: zones, counters, events and the like are words of
        the rules language (they are also the keys of the state, see engine.keys); classes are
        text as printed, of one line."""
        for section, what in (("options", "option"), ("attributes", "attribute"), ("components", "component kind"),
                              ("zones", "zone"), ("counters", "counter"), ("events", "event"),
                              ("procedures", "procedure"), ("functions", "function")):
            table = d.get(section)
            if isinstance(table, dict):
                for name in table:
                    self.word(name, what, _key_pos(table, name, table))
        for name, args in _dict(d.get("events")).items():
            for a in _list(args):
                self.word(a, "argument", getattr(args, "pos", d.pos), f" of event '{name}'")
        for w in _list(d.get("windows")):
            self.word(w, "window", d.pos)
        for section in ("procedures", "functions"):
            for name, spec in _dict(d.get(section)).items():
                for p in _list(spec.get("params")) if isinstance(spec, dict) else []:
                    self.word(p, "parameter", getattr(spec, "pos", d.pos), f" of '{name}'")
        for name, spec in _items(d.get("attributes")):
            for v in _list(spec.get("values")):
                self.printed(v, "value", spec.pos, f" of attribute '{name}'")
            for value, aliases in _dict(spec.get("aliases")).items():
                for a in [value] + _list(aliases):
                    self.printed(a, "alias", spec.pos, f" of attribute '{name}'")
        for c in _list(d.get("classes")):
            self.printed(c, "class", d.pos)

    # other kinds ---------------------------------------------------------
    def add_cards(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        component = _str(d.get("component")) or "card"
        if component not in defn.components:
            self.report.error(getattr(component, "pos", d.pos), f"unknown component kind '{component}'",
                              _mean(component, defn.components))
        per_player = bool(d.get("per_player", False))
        start = d.get("start")
        if isinstance(start, str) and start not in defn.zones:
            self.report.error(start.pos, f"unknown zone '{start}'", _mean(start, defn.zones))
        authored_file = d.get("authored")
        for item in _list(d.get("cards")):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            attrs = {k: v for k, v in item.items()
                     if k not in ("id", "title", "copies", "abilities", "text", "tags", "authored", "rules", "note")}
            card = CardDef(id=str(item["id"]), title=str(item.get("title", item["id"])), component=str(component),
                           copies=_int(item.get("copies"), 1), attrs=attrs,
                           tags=[str(t) for t in _list(item.get("tags")) if isinstance(t, str)],
                           abilities=[], start=str(start) if isinstance(start, str) else None, per_player=per_player,
                           pos=item.pos, file=src.path, authored=item.get("authored", authored_file),
                           key_pos=item.key_pos)
            for t in _list(item.get("tags")):
                self.printed(t, "tag", item.pos)
            for text in _list(item.get("abilities")):
                if isinstance(text, str):
                    card.abilities.append(AbilityDef(text, text.pos))
            defn.cards.append(card)

    def add_keywords(self, defn: GameDef, src: SourceFile) -> None:
        for item in _list(src.data.get("keywords")):
            if not isinstance(item, dict) or not isinstance(item.get("pattern"), str):
                continue
            texts = [item["ability"]] if isinstance(item.get("ability"), str) else \
                [t for t in _list(item.get("abilities")) if isinstance(t, str)]
            if not texts:
                continue
            params = {k: v for k, v in (item.get("params") or {}).items() if isinstance(v, str)} \
                if isinstance(item.get("params"), dict) else {}
            defn.keywords.append(KeywordDef(pattern=item["pattern"], params=params, ability_texts=list(texts),
                                         pos=item["pattern"].pos, file=src.path, family=_str(item.get("family")),
                                         params_pos=getattr(item.get("params"), "key_pos", {})))

    def add_board(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        board = BoardDef(str(d.get("id", "")), {}, [], d.pos, src.path)
        for n in _list(d.get("nodes")):
            if isinstance(n, dict) and isinstance(n.get("id"), (str, int)) and not isinstance(n["id"], bool):
                key = str(n["id"])
                if key in board.nodes:
                    self.report.error(getattr(n["id"], "pos", n.pos), f"duplicate node id '{key}'",
                                      "node ids are unique on a board")
                    continue
                for t in _list(n.get("tags")):
                    self.printed(t, "tag", n.pos)
                if isinstance(n.get("kind"), str):
                    self.printed(n["kind"], "node kind", n.pos)
                board.nodes[key] = dict(n)
                board.nodes[key]["_pos"] = n.pos
        for e in _list(d.get("edges")):
            if isinstance(e, list) and len(e) == 2:
                a, b = str(e[0]), str(e[1])
                for end, raw in ((a, e[0]), (b, e[1])):
                    if end not in board.nodes:
                        self.report.error(getattr(raw, "pos", e.pos), f"edge names unknown node '{end}'",
                                          _mean(end, board.nodes))
                board.edges.append((a, b))
        defn.boards.append(board)

    def add_scenario(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        procedures = d.get("procedures") if isinstance(d.get("procedures"), dict) else {}
        defn.scenarios.append(ScenarioDef(str(d.get("id", "")), str(d.get("title", "")), _plain_options(d), d.pos,
                                       src.path, setup=d.get("setup") if isinstance(d.get("setup"), str) else None,
                                       procedures={k: v for k, v in procedures.items() if isinstance(v, str)}))

    def add_rules_test(self, defn: GameDef, src: SourceFile) -> None:
        d = src.data
        file_rules = [str(r) for r in _list(d.get("rules"))]
        for t in _list(d.get("tests")):
            if not isinstance(t, dict):
                continue
            defn.tests.append(RulesTestDef(str(t.get("name", "")), file_rules + [str(r) for r in _list(t.get("rules"))],
                                        _plain_options(t), t.pos, src.path))


def _int(value, default):
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else default


def _str(value) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value) -> dict:
    """A mapping from a file, or nothing when the file holds something else there (the schema says what)."""
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    """A list from a file, or nothing when the file holds something else there (the schema says what)."""
    return value if isinstance(value, list) else []


def _plain_options(data):
    """`data` with an 'options' value that is not a mapping left out (the schema reports it),
    so that later stages may read `data.get("options") or {}` as a mapping."""
    if "options" not in data or isinstance(data["options"], dict) or not isinstance(data, PDict):
        return data
    out = PDict((k, v) for k, v in data.items() if k != "options")
    out.pos, out.key_pos = data.pos, data.key_pos
    return out


def _items(mapping):
    if not isinstance(mapping, dict):
        return []
    return [(k, v) for k, v in mapping.items() if isinstance(v, dict)]


def _key_pos(mapping, key, fallback):
    return getattr(mapping, "key_pos", {}).get(key, getattr(fallback, "pos", Position("<game>")))


def _scope(value) -> tuple:
    if value is None:
        return ("game",)
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in _list(value))


def _mean(name, candidates):
    return did_you_mean(str(name), list(candidates))
