"""The declarations of a game file, or of an expansion file, read into a `GameDef`.

A game file declares its players, options, attributes, classes, components,
zones, counters, events, windows, functions, procedures and extension points,
and the words each language names them with (`vocabulary`);
an expansion file declares more of the same, read here into a `GameDef` of its
own that `layers` then lays over the game's. What a file holds that is not of
the expected shape is left out: the schema reports it (stage 2).
"""
from __future__ import annotations

from ..diagnostics import Position, Report
from ..names import as_word, fold, printed_fault, word_fault
from ..scopes import GAME, Scope
from .model import (AttributeDef, AutomatonDef, CounterDef, FunctionDef, GameDef, OptionDef, PowersDef, ProcedureDef, ZoneDef)
from .rulings import rulings_of
from .source import PDict, SourceFile


def read_game(src: SourceFile, report: Report) -> GameDef | None:
    """The GameDef of game file `src`, its rules texts not parsed yet."""
    d = src.data
    try:
        defn = empty_game(src)
    except (AttributeError, TypeError):
        return None
    teams = d.get("teams")
    if isinstance(teams, dict):
        for count, groups in teams.items():
            if isinstance(groups, list) and str(count).isdigit():
                defn.teams[int(count)] = [[as_int(s, 1) - 1 for s in grp] for grp in groups if isinstance(grp, list)]
    if isinstance(d.get("table"), dict):
        defn.table = d["table"]
    if isinstance(d.get("print"), dict):
        defn.print_hints = d["print"]
    if isinstance(d.get("tags_kept_in"), list):
        defn.tags_kept_in = [z for z in d["tags_kept_in"] if isinstance(z, str)]
    read_declarations(defn, src, report)
    if not defn.components:
        defn.components["card"] = list(defn.attributes)
    return defn


def empty_game(src: SourceFile) -> GameDef:
    d = src.data
    players = d.get("players") or {}
    return GameDef(
        id=str(d.get("id", "")), title=str(d.get("title", "")),
        min_players=as_int(players.get("min"), 1) if isinstance(players, dict) else 1,
        max_players=as_int(players.get("max"), 1) if isinstance(players, dict) else 1,
        teams={}, options={}, attributes={}, classes={}, components={}, zones={}, counters={},
        events={}, windows=[], score=d.get("score") if isinstance(d.get("score"), str) else None,
        data=d.get("data") if isinstance(d.get("data"), dict) else {},
        procedures={}, heuristic=d.get("heuristic") if isinstance(d.get("heuristic"), str) else None,
        discard=d.get("discard") if isinstance(d.get("discard"), str) else None,
        report_by=[a for a in as_list(d.get("report_by")) if isinstance(a, str)],
        language=str(d["language"]) if isinstance(d.get("language"), str) else "en",
        rules_index=[str(f) for f in as_list(d.get("rules_index")) if isinstance(f, str)],
        pos=d.pos, file=src.path,
        score_pos=_span(d.get("score")),
        standing=d.get("standing") if isinstance(d.get("standing"), str) else None)


def _span(value) -> Position | None:
    """Where a string value of a file is written, its whole width (for a caret under all of it)."""
    pos = getattr(value, "pos", None) if isinstance(value, str) else None
    return None if pos is None else Position(pos.path, pos.line, pos.column, pos.column + len(value))


def read_declarations(defn: GameDef, src: SourceFile, report: Report, layer: str | None = None) -> None:
    """Every declaration of file `src` (a game or an expansion) into `defn`."""
    d = src.data
    NameChecks(report).check_names(d)
    defn.notes += [n for n in as_list(d.get("notes")) if isinstance(n, str)]
    defn.rulings += rulings_of(d)
    for name, spec in items_of(d.get("options")):
        defn.options[name] = OptionDef(name, spec.get("values") if isinstance(spec.get("values"), list) else None,
                                       as_str(spec.get("type")), spec.get("default"),
                                       key_pos(d.get("options"), name, spec))
    for name, spec in items_of(d.get("attributes")):
        values = [str(v) for v in spec.get("values", [])] if isinstance(spec.get("values"), list) else []
        kind = as_str(spec.get("type")) or ("class" if values else "number")
        defn.attributes[name] = AttributeDef(name, kind, values, spec.get("default"),
                                             key_pos(d.get("attributes"), name, spec))
        for v in values:
            defn.classes.setdefault(fold(v), (name, v))
        if isinstance(spec.get("aliases"), dict):
            for value, aliases in spec["aliases"].items():
                for a in as_list(aliases):
                    if isinstance(a, str):
                        defn.classes.setdefault(fold(a), (name, str(value)))
    for c in as_list(d.get("classes")):
        if isinstance(c, str):
            defn.classes.setdefault(fold(c), (None, str(c)))
    defn.players_pos = getattr(d.get("players"), "pos", d.pos)
    for name, spec in items_of(d.get("components")):
        defn.components[name] = [a for a in as_list(spec.get("attributes")) if isinstance(a, str)]
        for a in defn.components[name]:
            defn.attribute_name_pos.setdefault((name, a), getattr(a, "pos", spec.pos))
    for section in ("zones", "counters", "attributes"):
        if isinstance(d.get(section), dict):
            defn.misdeclared.update(str(k) for k, v in d[section].items() if not isinstance(v, dict))
    for name, spec in items_of(d.get("zones")):
        defn.zones[name] = ZoneDef(name, scope_of(spec.get("scope")), as_str(spec.get("visibility")) or "public",
                                   bool(spec.get("in_play", False)), as_int(spec.get("capacity"), None),
                                   key_pos(d.get("zones"), name, spec), index=len(defn.zones),
                                   holds=spec.get("holds") if isinstance(spec.get("holds"), str) else None)
    for name, spec in items_of(d.get("counters")):
        supply = spec.get("supply")
        defn.counters[name] = CounterDef(name, scope_of(spec.get("scope")), as_int(spec.get("min", 0), 0),
                                         as_int(spec.get("max"), None),
                                         (str(supply) if isinstance(supply, str) else int(supply))
                                         if isinstance(supply, (str, int)) and not isinstance(supply, bool)
                                         else None, as_int(spec.get("initial"), 0),
                                         as_str(spec.get("visibility")) or "public",
                                         key_pos(d.get("counters"), name, spec),
                                         [z for z in as_list(spec.get("keep_in")) if isinstance(z, str)],
                                         index=len(defn.counters), internal=spec.get("internal") is True)
    events = d.get("events")
    if isinstance(events, dict):
        for name, args in events.items():
            defn.events[name] = [str(a) for a in args] if isinstance(args, list) else []
    defn.windows = [w for w in as_list(d.get("windows")) if isinstance(w, str)]
    procs = d.get("procedures")
    if isinstance(procs, dict):
        for name, spec in procs.items():
            defn.procedures[name] = procedure(name, spec, procs.key_pos.get(name, procs.pos), layer)
    points = d.get("extension_points")
    if isinstance(points, dict):
        for name, spec in points.items():
            params = [p for p in as_list(spec.get("params")) if isinstance(p, str)] if isinstance(spec, dict) else []
            acting = spec.get("acting") if isinstance(spec, dict) and isinstance(spec.get("acting"), str) else None
            defn.procedures[name] = ProcedureDef(name, params, None, points.key_pos.get(name, points.pos), acting,
                                                 point=True, layer=layer)
    for text in as_list(d.get("invariants")):
        if isinstance(text, str):
            defn.invariants.append((text, None))
    funcs = d.get("functions")
    if isinstance(funcs, dict):
        for name, spec in funcs.items():
            f = function(name, spec, funcs.key_pos.get(name, funcs.pos), layer)
            if f is not None:
                defn.functions[name] = f
    seats = d.get("report_seats_by")
    if isinstance(seats, dict) and isinstance(seats.get("label"), str):
        defn.seat_report = (as_str(seats.get("title")) or "seat", seats["label"], seats.pos,
                            [c for c in as_list(seats.get("counters")) if isinstance(c, str)])
    autos = d.get("automata")
    if isinstance(autos, dict):
        for name, spec in autos.items():
            if isinstance(spec, dict) and isinstance(spec.get("seat"), int):
                defn.automata[name] = AutomatonDef(
                    str(name), as_str(spec.get("title")) or str(name), int(spec["seat"]), as_str(spec.get("description")),
                    spec.get("prefer") if isinstance(spec.get("prefer"), str) else None,
                    spec.key_pos.get("prefer", autos.key_pos.get(name, autos.pos)), layer)
    read_vocabulary(defn, d.get("vocabulary"))
    powers = d.get("powers")
    if isinstance(powers, dict) and isinstance(powers.get("zone"), str):
        defn.powers = PowersDef(powers["zone"], as_str(powers.get("component")), as_str(powers.get("unique")), powers.pos,
                                as_str(powers.get("class")))


def read_vocabulary(defn: GameDef, table) -> None:
    """`vocabulary:`, the words of each language for the names the file declares, into `defn`:
    language -> {name: (words as written, position)}. What they must be is checked with the
    rest of the rules (language.prose.vocabulary)."""
    for lang, words in as_dict(table).items():
        if isinstance(words, dict):
            mine = defn.vocabulary.setdefault(str(lang), {})
            for name, value in words.items():
                mine[str(name)] = (value, key_pos(words, name, words))


def procedure(name: str, spec, pos: Position, layer: str | None = None) -> ProcedureDef:
    """A procedure as a file declares it: a text, or a mapping with `body`, `params`, `acting`."""
    if isinstance(spec, str):
        return ProcedureDef(name, [], spec, pos, layer=layer)
    if isinstance(spec, dict) and isinstance(spec.get("body"), str):
        params = [p for p in as_list(spec.get("params")) if isinstance(p, str)]  # with positions
        acting = spec.get("acting") if isinstance(spec.get("acting"), str) else None
        rules = [str(r) for r in as_list(spec.get("rules")) if isinstance(r, str)]
        return ProcedureDef(name, params, spec["body"], pos, acting, layer=layer, rules=rules)
    # declared, but not as text (the schema says so): known, with no body to check
    return ProcedureDef(name, [], None, pos, layer=layer)


def function(name: str, spec, pos: Position, layer: str | None = None) -> FunctionDef | None:
    text = spec if isinstance(spec, str) else spec.get("body") if isinstance(spec, dict) else None
    if not isinstance(text, str):
        return None
    params = [str(x) for x in as_list(spec.get("params")) if isinstance(x, str)] if isinstance(spec, dict) else []
    said = spec.get("description") if isinstance(spec, dict) else None
    return FunctionDef(name, params, text, pos, layer=layer, description=said if isinstance(said, str) else None)


class NameChecks:
    """That the names a file declares are words of the rules language, and that classes and
    tags are text of one line."""

    def __init__(self, report: Report):
        self.report = report

    def word(self, name, what: str, pos: Position, of: str = "") -> None:
        """That `name`, declared as `what` (`of` something), is one word of the rules language."""
        if isinstance(name, str):
            fault = word_fault(name)
            if fault is not None:
                self.report.error("N015", getattr(name, "pos", pos), f"{what} name '{name}'{of} {fault}",
                                  f"a name is one word of letters, digits, '_' and \"'\", not starting with a "
                                  f"digit, as the rules write it: e.g. '{as_word(name)}'")

    def printed(self, name, what: str, pos: Position, of: str = "") -> None:
        """That `name`, a class or tag as printed, holds no control character."""
        if isinstance(name, str):
            fault = printed_fault(name)
            if fault is not None:
                self.report.error("N015", getattr(name, "pos", pos), f"{what} '{name}'{of} {fault}",
                                  "a name as printed is text of one line, without control characters")

    def check_names(self, d) -> None:
        """The names the file declares: zones, counters, events and the like are words of
        the rules language (they are also the keys of the state, see engine.keys); classes are
        text as printed, of one line."""
        for section, what in (("options", "option"), ("attributes", "attribute"), ("components", "component kind"),
                              ("zones", "zone"), ("counters", "counter"), ("events", "event"),
                              ("procedures", "procedure"), ("functions", "function"),
                              ("extension_points", "extension point")):
            table = d.get(section)
            if isinstance(table, dict):
                for name in table:
                    self.word(name, what, key_pos(table, name, table))
        for name, args in as_dict(d.get("events")).items():
            for a in as_list(args):
                self.word(a, "argument", getattr(args, "pos", d.pos), f" of event '{name}'")
        for w in as_list(d.get("windows")):
            self.word(w, "window", d.pos)
        for section in ("procedures", "functions", "extension_points"):
            for name, spec in as_dict(d.get(section)).items():
                for p in as_list(spec.get("params")) if isinstance(spec, dict) else []:
                    self.word(p, "parameter", getattr(spec, "pos", d.pos), f" of '{name}'")
        for name, spec in items_of(d.get("attributes")):
            for v in as_list(spec.get("values")):
                self.printed(v, "value", spec.pos, f" of attribute '{name}'")
            for value, aliases in as_dict(spec.get("aliases")).items():
                for a in [value] + as_list(aliases):
                    self.printed(a, "alias", spec.pos, f" of attribute '{name}'")
        for c in as_list(d.get("classes")):
            self.printed(c, "class", d.pos)


def as_int(value, default):
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else default


def as_str(value) -> str | None:
    return value if isinstance(value, str) else None


def as_dict(value) -> dict:
    """A mapping from a file, or nothing when the file holds something else there (the schema says what)."""
    return value if isinstance(value, dict) else {}


def as_list(value) -> list:
    """A list from a file, or nothing when the file holds something else there (the schema says what)."""
    return value if isinstance(value, list) else []


def plain_options(data):
    """`data` with an 'options' value that is not a mapping left out (the schema reports it),
    so that later stages may read `data.get("options") or {}` as a mapping."""
    if "options" not in data or isinstance(data["options"], dict) or not isinstance(data, PDict):
        return data
    out = PDict((k, v) for k, v in data.items() if k != "options")
    out.pos, out.key_pos = data.pos, data.key_pos
    return out


def items_of(mapping):
    if not isinstance(mapping, dict):
        return []
    return [(k, v) for k, v in mapping.items() if isinstance(v, dict)]


def key_pos(mapping, key, fallback):
    return getattr(mapping, "key_pos", {}).get(key, getattr(fallback, "pos", Position("<game>")))


def scope_of(value) -> Scope:
    if value is None:
        return GAME
    if isinstance(value, str):
        return Scope((value,))
    return Scope(tuple(str(v) for v in as_list(value)))
