"""Expansions, mods and scenarios laid over a game: found, put in order, merged.

An expansion is a folder holding an `expansion.yaml` (`kind: expansion`) that
names the game it extends; it may declare what a game file declares (zones,
counters, attributes, classes, components, events, options, functions,
procedures, extension points), add to the game's heuristic and invariants,
require other expansions, hook procedures on the game's extension points
(`hooks:`) and replace the body of a named procedure or function
(`replace:`). Its other files (cards, keywords, boards, scenarios, rules
tests) are read as a game's are. A game's expansions are the expansion folders
inside its folder; a mod (`--with PATH`) is an expansion folder anywhere, or
a folder or file of cards and keywords with no expansion file.

A game may also be loaded with cards left out (`leave_out`): every copy of
each, as if they were never printed, to measure what a card brings.

A scenario (`kind: scenario`) sets options, limits the player counts, hooks
and replaces as an expansion does; the one chosen is laid last. Layers are
laid in order, required expansions first; hooks on one extension point run in
that order. A name declared twice, or a procedure replaced by two layers, is
an error that gives both places.

An expansion or scenario file that does not read (bad YAML, no id) is still
found, by the id its text shows or by its folder's or file's name, and laid:
so the file is read as the others are and its own error is reported where it
is, rather than "no expansion 'x'".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import ContentError, Position, Report, cut
from ..names import did_you_mean, fold
from .folders import EXPANSION_FILES, display_path, expansion_file, is_dir, is_file, yaml_files
from .model import GameDef, LayerDef, LayerKind, ProcedureDef, ScenarioDef
from .source import SourceFile, edited_text, load_file


@dataclass(frozen=True)
class Chosen:
    """What is laid over a game: expansions by id, a scenario by id, mods by path; the
    cards left out of it, by id; and the values of cards' attributes set (`content.settings`:
    (card, attribute, value) each)."""
    expansions: tuple = ()
    scenario: str | None = None
    mods: tuple = ()
    without: tuple = ()
    settings: tuple = ()
    tests: bool = False  # whether a load reads and keeps the rules tests (a load to play reads none)


class LayerError(ValueError):
    """An expansion, scenario or mod that cannot be laid; `position` is the place in a file that
    names it (an item of `requires:`), or None when it was named on the command line; `code`
    is the code of the diagnostic it becomes (interpreter.codes)."""

    def __init__(self, code: str, message: str, position: Position | None = None):
        super().__init__(message)
        self.code = code
        self.position = position


@dataclass
class Layer:
    """One layer to lay: an expansion or mod folder (or a mod's lone file)."""
    id: str
    kind: LayerKind  # EXPANSION or MOD
    path: Path
    requires: tuple = ()
    max_players: int | None = None  # the players it takes, when it sets how many may play
    solo: str | None = None  # the option `--solo LEVEL` sets, when the layer is its game's solo mode


# The id a file shows at the start of one of its lines, read from its text when YAML cannot read it.
_ID_LINE = re.compile(r"^id:[ \t]*([\"']?)([\w.-]+)\1[ \t]*(?:#.*)?$", re.MULTILINE)


def read_data(path: Path) -> dict | None:
    """The data of a YAML file, or None when it does not read (its check says why)."""
    try:
        src, _ = load_file(display_path(path))
    except ContentError:
        return None
    return src.data if isinstance(src.data, dict) else None


def _layer_of(folder: Path, kind: LayerKind, f: Path | None = None) -> Layer | None:
    """The layer of expansion `folder` (or of the lone expansion file `f`), None when its
    expansion file does not read (its check says why)."""
    lone = f is not None
    f = f or expansion_file(folder)
    data = read_data(f) if f is not None else None
    if data is None or data.get("kind") != "expansion" or not isinstance(data.get("id"), str):
        return None
    players = data.get("players")
    most = players.get("max") if isinstance(players, dict) else None
    solo = data.get("solo")
    option = solo.get("option") if isinstance(solo, dict) else None
    return Layer(str(data["id"]), kind, f if lone else folder, _requires(data),
                 most if isinstance(most, int) else None, option if isinstance(option, str) else None)


def available_expansions(game_root: Path) -> dict[str, Layer]:
    """The expansions of the game in folder `game_root`: the expansion folders inside it, by id."""
    return _expansions(game_root)[0]


def _expansions(game_root: Path) -> tuple[dict[str, Layer], dict[str, Layer]]:
    """(the expansions of the game in `game_root` by id, the stand-ins of those whose expansion
    file does not read, by the name they go by: see `_stand_in`)."""
    found: dict[str, Layer] = {}
    unread: list[Path] = []
    for f in yaml_files(game_root, nested=True):
        if f.name in EXPANSION_FILES:
            layer = _layer_of(f.parent, LayerKind.EXPANSION)
            if layer is not None:
                found.setdefault(layer.id, layer)
            else:
                unread.append(f)
    stand_ins: dict[str, Layer] = {}
    for f in unread:
        layer = _stand_in(f, LayerKind.EXPANSION)
        if layer.id not in found:
            stand_ins.setdefault(layer.id, layer)
    return found, stand_ins


def _stand_in(f: Path, kind: LayerKind) -> Layer:
    """The layer of expansion file `f`, which does not read: its id as its text shows it, else
    its folder's name; laid, it is the file alone (the rest of its folder, which would only
    report names the file declares as unknown, waits until the file reads), so that the file
    is read and its own errors reported where they are."""
    return Layer(shown_id(f) or f.parent.resolve().name, kind, f)


def shown_id(f: Path) -> str | None:
    """The id a content file that YAML cannot read shows on a line of its own (`id: NAME`), if any."""
    text = edited_text(str(f))  # what an editor holds unsaved, else the file
    if text is None:
        try:
            with open(f, "rb") as fh:
                text = fh.read(1 << 20).decode("utf-8", "replace")
        except OSError:
            return None
    m = _ID_LINE.search(text)
    return m.group(2) if m else None


def expansions_for(game_root: Path, players: int) -> list[str]:
    """The ids of the game's expansions that allow `players` players or more (for a hint
    when a count is beyond the game's own)."""
    return [x.id for x in available_expansions(game_root).values() if (x.max_players or 0) >= players]


def scenarios_in(folder: Path) -> dict[str, Path]:
    """The scenario files of a pack folder (not of the packs inside it), by id."""
    out = {}
    for f in yaml_files(folder):
        data = read_data(f)
        if data is not None and data.get("kind") == "scenario" and isinstance(data.get("id"), str):
            out.setdefault(str(data["id"]), f)
    return out


def mod_layer(path: Path) -> Layer:
    """The layer of mod `path`: an expansion folder, or a folder or file of content."""
    if is_dir(path):
        head = expansion_file(path)
        if head is None:
            return Layer(path.resolve().name, LayerKind.MOD, path)
        return _layer_of(path, LayerKind.MOD) or _stand_in(head, LayerKind.MOD)
    if is_file(path):
        # a content file is YAML: a file of another kind is not read (a trace or a save names its
        # mods by path, and may come from anyone)
        if path.suffix.lower() not in (".yaml", ".yml"):
            raise ValueError(f"--with {cut(str(path), 200)}: a mod is a folder or a .yaml file of content")
        return _layer_of(path.parent, LayerKind.MOD, path) or Layer(path.stem, LayerKind.MOD, path)
    raise ValueError(f"--with {cut(str(path), 200)}: no such file or folder")


def plan(game_root: Path, chosen: Chosen) -> list[Layer]:
    """The layers to lay over the game in `game_root`, in order: each expansion after those it
    requires, each once; a scenario's expansion is laid with it. ValueError when a name is unknown."""
    if not chosen.expansions and chosen.scenario is None and not chosen.mods:
        return []  # nothing to lay: no need to read every expansion file of the game to know it
    available, stand_ins = _expansions(game_root)
    mods = [mod_layer(Path(m)) for m in chosen.mods]
    for m in mods:
        if is_dir(m.path) and expansion_file(m.path) is not None:
            available.setdefault(m.id, m)
    known = dict(available)  # what the user is told exists
    for name, layer in stand_ins.items():
        available.setdefault(name, layer)
    wanted = {name: "--expansion" for name in chosen.expansions}  # each with why it is laid
    if chosen.scenario is not None:
        home, needs = scenario_home(game_root, chosen.scenario, available)
        for name in ([home] if home is not None else []) + list(needs):
            wanted.setdefault(name, f"scenario '{cut(chosen.scenario, 60)}' requires '{cut(name, 60)}'")
    out: list[Layer] = []

    def lay(name: str, why: str, chain: tuple) -> None:
        if any(x.id == name for x in out):
            return
        layer = available.get(name)
        at = getattr(name, "pos", None)  # a name a file requires: where it is written
        if layer is None:
            hint = did_you_mean(name, known)
            raise LayerError("N021", f"{why}: no expansion '{cut(name, 60)}'" + (f"; {hint}" if hint else "")
                             + (f" (expansions: {', '.join(sorted(known))})" if known
                                else " (this game has none)"), at)
        if name in chain:
            raise LayerError("D008", f"expansions require each other in a circle: {' -> '.join(chain + (name,))}", at)
        for r in layer.requires:
            lay(r, f"expansion '{name}' requires '{cut(r, 60)}'", chain + (name,))
        out.append(layer)

    for name, why in wanted.items():
        lay(name, why, ())
    for m in mods:
        if not any(x.id == m.id and x.path == m.path for x in out):
            for r in m.requires:
                lay(r, f"mod '{cut(m.id, 60)}' requires '{cut(r, 60)}'", (m.id,))
            out.append(m)
    return out


def scenario_home(game_root: Path, name: str, available: dict) -> tuple:
    """(the expansion whose folder holds scenario `name` or None for the game's own folder, the
    expansions the scenario requires). ValueError when no scenario has that id."""
    own = scenarios_in(game_root)
    if name in own:
        return None, _requires(read_data(own[name]))
    every = dict.fromkeys(own)
    for layer in available.values():
        found = scenarios_in(layer.path) if is_dir(layer.path) else {}
        if name in found:
            return layer.id, _requires(read_data(found[name]))
        every.update(dict.fromkeys(found))
    # a scenario file that does not read: laid with its folder, it is read and its error reported
    for home, folder in [(None, game_root)] + [(x.id, x.path) for x in available.values() if is_dir(x.path)]:
        if _unread_file(folder, name) is not None:
            return home, ()
    hint = did_you_mean(name, every)
    raise ValueError(f"--scenario: no scenario '{cut(name, 60)}'" + (f"; {hint}" if hint else "")
                     + (f" (scenarios: {', '.join(sorted(every))})" if every else " (this game has none)"))


def _unread_file(folder: Path, name: str) -> Path | None:
    """A file of pack folder `folder` that does not read and may be the one of id `name`: its text
    shows that id, or it is named so."""
    for f in yaml_files(folder):
        if name in (shown_id(f), f.stem) and read_data(f) is None:
            return f
    return None


def _requires(data: dict | None) -> tuple:
    """The expansions an expansion or scenario file (its data) requires, by id."""
    wanted = (data or {}).get("requires")
    # a value of the wrong kind is the schema's error, said at its place; here it requires nothing
    # (each a text that remembers its place in the file, for an error about it)
    return tuple(r for r in wanted if isinstance(r, str)) if isinstance(wanted, list) else ()


def leave_out(defn: GameDef, ids) -> None:
    """Every copy of the cards `ids` taken out of the game `defn` (expansions and mods laid),
    and its rules tests with them: they are the rulings of the whole game, and may set up any
    card. ValueError names an id that no card has."""
    if not ids:
        return
    have = {fold(c.id): c.id for c in defn.cards}
    for name in ids:
        if fold(name) not in have:
            hint = did_you_mean(name, list(have.values()))
            raise ValueError(f"--without: no card '{cut(name, 60)}' in {defn.id}" + (f"; {hint}" if hint else ""))
    gone = {fold(name) for name in ids}
    defn.cards = [c for c in defn.cards if fold(c.id) not in gone]
    defn.tests = []
    defn.without = list(dict.fromkeys(have[fold(name)] for name in ids))


# merging -------------------------------------------------------------------------------

def where(pos: Position) -> str:
    return f"{pos.path}:{pos.line}" if pos.line else str(pos.path)


def hook_fault(defn: GameDef, point: str) -> tuple | None:
    """(code, message, hint) when `point` is no extension point of `defn` to hook on, else None."""
    target = defn.procedures.get(point)
    if target is not None and target.point:
        return None
    points = [n for n, p in defn.procedures.items() if p.point]
    hint = did_you_mean(point, points) or (f"extension points: {', '.join(points)}" if points
                                           else "this game declares none")
    if target is None:
        return "N017", f"no extension point '{point}' to hook on", hint
    return "N017", f"'{point}' is a procedure, not an extension point: replace it, or hook on an extension point", hint


def replace_fault(defn: GameDef, name: str) -> tuple | None:
    """(code, message, hint) when `name` is no procedure or function of `defn` to replace, else None."""
    target = defn.procedures.get(name) or defn.functions.get(name)
    if target is None:
        return ("N007", f"'replace:' names no procedure or function '{name}'",
                did_you_mean(name, list(defn.procedures) + list(defn.functions)))
    if isinstance(target, ProcedureDef) and target.point:
        return "N017", f"'{name}' is an extension point: hook on it rather than replace it", f"write it under 'hooks:' ({name}: ...)"
    return None


class Merge:
    """Lays the declarations of expansions (each read into a GameDef of its own) over a game,
    reporting every name declared twice with both places."""

    def __init__(self, defn: GameDef, report: Report):
        self.defn = defn
        self.report = report
        self.replaced: dict[str, tuple] = {}  # name -> (layer id, position) of its replacement
        self.hooks: list = []  # (point, text, position, layer id, kind) laid, resolved at the end

    def twice(self, what: str, name: str, pos: Position, first: Position, hint: str | None = None) -> None:
        self.report.error("N013", pos, f"{what} '{name}' is declared already, at {where(first)}",
                          hint or "an expansion adds names of its own; 'replace:' gives a procedure or "
                                  "function of the game another body")

    def expansion(self, part: GameDef, src: SourceFile, layer: LayerDef) -> None:
        d, base = src.data, self.defn
        base.rulings += part.rulings
        for what, mine, theirs in (("option", part.options, base.options), ("zone", part.zones, base.zones),
                                   ("counter", part.counters, base.counters),
                                   ("function", part.functions, base.functions),
                                   ("procedure", part.procedures, base.procedures)):
            for name, decl in mine.items():
                if name in theirs:
                    self.twice(what, name, decl.pos, theirs[name].pos)
                    continue
                if what in ("zone", "counter"):
                    decl.index = len(theirs)
                theirs[name] = decl
        for name, args in part.events.items():
            if name in base.events:
                self.twice("event", name, d["events"].key_pos.get(name, d.pos), base.pos)
            else:
                base.events[name] = args
        for name, a in part.attributes.items():
            old = base.attributes.get(name)
            if old is None:
                base.attributes[name] = a
            elif old.type == "class" and a.type == "class":  # more values of a class attribute
                for v in a.values:
                    if v in old.values:
                        self.report.error("N013", a.pos, f"attribute '{name}' has the value '{v}' already",
                                          f"declared at {where(old.pos)}")
                    else:
                        old.values.append(v)
            else:
                self.twice("attribute", name, a.pos, old.pos,
                           "an expansion may add values to an attribute of classes, not declare it again")
        for key, value in part.classes.items():
            base.classes.setdefault(key, value)
        for kind, attrs in part.components.items():
            have = base.components.setdefault(kind, [])
            have.extend(a for a in attrs if a not in have)
        base.attribute_name_pos.update(part.attribute_name_pos)
        base.windows.extend(w for w in part.windows if w not in base.windows)
        base.invariants.extend(part.invariants)
        base.report_by.extend(a for a in part.report_by if a not in base.report_by)
        if part.heuristic:
            base.heuristics.append((part.heuristic, None))
        for key, value in part.data.items():
            if key in base.data:
                self.report.error("N013", d["data"].key_pos.get(key, d.pos), f"data '{key}' is declared already",
                                  "an expansion adds data of its own")
            else:
                base.data[key] = value
        if part.powers is not None:
            if base.powers is not None:
                self.twice("powers", "powers", part.powers.pos, base.powers.pos)
            else:
                base.powers = part.powers
        for name, auto in part.automata.items():
            if name in base.automata:
                self.twice("automaton", name, auto.pos, base.automata[name].pos)
                continue
            same = [a for a in base.automata.values() if a.seat == auto.seat]
            if same:
                self.report.error("D001", auto.pos, f"seat {auto.seat} is driven by automaton '{same[0].id}' already, "
                                            f"at {where(same[0].pos)}", "give each automaton its own seat")
                continue
            base.automata[name] = auto
        for lang, words in part.vocabulary.items():
            have = base.vocabulary.setdefault(lang, {})
            for name, (value, pos) in words.items():
                if name in have:
                    self.twice(f"vocabulary ({lang}) for", name, pos, have[name][1],
                               "an expansion gives words to the names it declares")
                else:
                    have[name] = (value, pos)
        players = d.get("players")
        if isinstance(players, dict) and isinstance(players.get("max"), int):
            # the expansion's material sets how many may play: more (a fifth player), or fewer (a solo mode)
            most = int(players["max"])
            if most < base.min_players:
                self.report.error("D001", players.pos, f"players.max {most} is below the game's minimum of {base.min_players}")
            else:
                base.max_players = most
        self.lay_rules(d, layer, "expansion")

    def lay_rules(self, d, layer: LayerDef, kind: str) -> None:
        """The hooks and replacements of an expansion or scenario file (data `d`)."""
        for name, text in texts_of(d.get("replace")):
            self.replace(name, text, d["replace"].key_pos.get(name, d.pos), layer)
        for point, text in texts_of(d.get("hooks")):
            self.hooks.append((point, text, d["hooks"].key_pos.get(point, d.pos), layer.id, kind))

    def replace(self, name: str, text, pos: Position, layer: LayerDef) -> None:
        base = self.defn
        fault = replace_fault(base, name)
        if fault is not None:
            self.report.error(fault[0], pos, *fault[1:])
            return
        target = base.procedures.get(name) or base.functions.get(name)
        if name in self.replaced:
            other, at = self.replaced[name]
            self.report.error("N013", pos, f"'{name}' is replaced by both '{other}' (at {where(at)}) and '{layer.id}'",
                              "two layers cannot both replace one procedure or function: combine them, or "
                              "hook on an extension point instead")
            return
        self.replaced[name] = (layer.id, pos)
        base.replaced_texts.append(str(target.text))
        target.text, target.pos, target.layer, target.tree = text, pos, layer.id, None

    def scenario(self, sc: ScenarioDef, src: SourceFile, layer: LayerDef) -> None:
        self.defn.scenario = sc
        self.lay_rules(src.data, layer, "scenario")

    def finish(self) -> None:
        """The hooks laid, each a procedure of its own called by its extension point, in order."""
        base = self.defn
        for point, text, pos, layer_id, kind in self.hooks:
            fault = hook_fault(base, point)
            if fault is not None:
                self.report.error(fault[0], pos, *fault[1:])
                continue
            target = base.procedures[point]
            name = f"{point}@{kind}:{layer_id}"
            base.procedures[name] = ProcedureDef(name, list(target.params), text, pos, target.acting,
                                                 layer=layer_id)
            target.hooks.append(name)


def texts_of(mapping) -> list:
    """(name, text) of a `hooks:` or `replace:` mapping, whose values are texts or `{body: ...}`."""
    if not isinstance(mapping, dict):
        return []
    out = []
    for name, spec in mapping.items():
        text = spec if isinstance(spec, str) else spec.get("body") if isinstance(spec, dict) else None
        if isinstance(text, str):
            out.append((str(name), text))
    return out

