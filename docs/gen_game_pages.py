"""Write docs/games/GAME/: the reference pages of every shipped game, from its content.

    python docs/gen_game_pages.py            # rewrite docs/games/
    python docs/gen_game_pages.py --check    # exit 1 if a committed page is out of date

For each game of content/, with all its expansions, three pages:

- index.md: what the game is, its expansions, scenarios (each with its common sheet and
  its sheet per character), boards and automata;
- reference.md: what its content declares (options, zones, counters, attributes,
  classes, component kinds, events, windows), its keywords with their printed
  text and their definition in the rules language, and its procedures and functions;
- cards.md: the card catalogue, each card as printed, with its id and file:line.

The pages come from the checked content (the same GameDef the engine runs), so
they never disagree with it. Edit the content, never the pages;
tests/docs/test_game_pages.py fails when they part.
"""
from __future__ import annotations

import html
import re
import sys
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CONTENT = ROOT / "content"
PAGES = ROOT / "docs" / "games"
COMMAND = "python docs/gen_game_pages.py"

from interpreter import read_and_check  # noqa: E402
from interpreter.content.layers import Chosen, available_expansions, plan  # noqa: E402
from interpreter.content.model import in_language  # noqa: E402
from interpreter.diagnostics import Report, render_text  # noqa: E402
from interpreter.language.prose import LANGS, Prose  # noqa: E402

LANG_NAMES = {"en": "English", "fr": "Français"}


# Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}#|!])")


def md(text) -> str:
    """Content text as Markdown that shows it as written: HTML and Markdown marks escaped,
    on one line (safe in a table cell, a heading or a list item)."""
    text = _MD_SPECIAL.sub(r"\\\1", " ".join(html.escape(str(text), quote=False).split()))
    # what would open a list or a quote at the start of a line (a list item's text starts one)
    return re.sub(r"^(\d+)([.)])", r"\1\\\2", re.sub(r"^([-+>])", r"\\\1", text))


def code(text) -> str:
    """Text as an inline code span (a name, an id, a path); backticks inside are kept."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def path_code(text: str) -> str:
    """A file path as code that may break after each '/' (a narrow table column wraps it)."""
    return "<code>" + "/<wbr>".join(html.escape(part, quote=False) for part in str(text).split("/")) + "</code>"


def block(text: str, lang: str = "text") -> list[str]:
    """A fenced code block holding `text` verbatim, its fence longer than any run of backticks in it."""
    fence = "`" * max(3, max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    return [f"{fence}{lang}", *text.rstrip("\n").split("\n"), fence]


def table(head: list[str], rows: list[list[str]]) -> list[str]:
    if not rows:
        return []
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(cell or " " for cell in row) + " |" for row in rows), ""]


def slug(text: str) -> str:
    """An anchor for a name: ASCII letters and digits joined by dashes ('Geôlier' -> 'geolier')."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def value(v) -> str:
    """A value of the content as written in YAML: true, false, 3, a name."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    return "" if v is None else str(v)


# The content of one game ------------------------------------------------------------------

@dataclass
class GameContent:
    """A game and all its expansions: the declarations of its packs (see `packs`), each once, in order."""
    root: Path
    defn: object  # the GameDef of the game alone
    layers: dict = field(default_factory=dict)  # expansion id -> LayerDef
    cards: list = field(default_factory=list)  # (CardDef, Findings of its pack)
    keywords: list = field(default_factory=list)  # (KeywordDef, Findings of its pack)
    decls: dict = field(default_factory=dict)  # section -> {name: definition}
    boards: list = field(default_factory=list)
    scenarios: list = field(default_factory=list)
    automata: dict = field(default_factory=dict)

    def where(self, pos) -> str:
        """A position as `path:line`, the path from the game's folder."""
        return f"{rel(pos.path, self.root)}:{pos.line}"

    def layer_of(self, path) -> str | None:
        """The id of the expansion whose folder holds `path`, None for the game's own files."""
        p = Path(path).resolve()
        for layer in self.layers.values():
            if Path(layer.root).resolve() in p.parents:
                return layer.id
        return None


def rel(path, root: Path) -> str:
    p = Path(path).resolve()
    try:
        return p.relative_to(root.resolve()).as_posix()
    except ValueError:
        return p.relative_to(ROOT).as_posix()


def packs(root: Path) -> list:
    """The packs that together hold all of a game's content: the game alone (so that what it
    declares is shown as it declares it, not as an expansion replaces it), the game with every
    expansion but its solo modes, then the game with each solo mode apart (a solo mode sets who plays)."""
    found = available_expansions(root)
    modes = [e for e, layer in found.items() if layer.solo]
    groups = [(), tuple(e for e in found if e not in modes)] + [(m,) for m in modes]
    groups = list(dict.fromkeys(groups))
    out = []
    for group in groups:
        report = Report()
        defn, found_ = read_and_check(root, report, (), plan(root, Chosen(expansions=group)))
        if defn is None or not report.ok:
            raise SystemExit(f"{rel(root, ROOT)} with {', '.join(group) or 'no expansion'} does not check:\n"
                             + render_text(report))
        out.append((defn, found_))
    return out


SECTIONS = ("options", "zones", "counters", "attributes", "components", "events", "procedures", "functions")


def game_content(root: Path) -> GameContent:
    loaded = packs(root)
    g = GameContent(root, loaded[0][0])
    g.decls = {s: {} for s in SECTIONS + ("classes", "windows")}
    seen_cards, seen_keywords, seen_boards, seen_scenarios = set(), set(), set(), set()
    for defn, found in loaded:
        for layer in defn.layers:
            g.layers.setdefault(layer.id, layer)
        for s in SECTIONS:
            for name, d in getattr(defn, s).items():
                first = g.decls[s].setdefault(name, d)
                if s == "attributes" and first is not d and d.values:
                    # an expansion adds values to a class attribute of the game
                    g.decls[s][name] = replace(first, values=list(dict.fromkeys([*first.values, *d.values])))
                elif s == "components" and first is not d:
                    # or attributes to a kind of component
                    g.decls[s][name] = list(dict.fromkeys([*first, *d]))
        for name, value in defn.classes.items():
            g.decls["classes"].setdefault(name, value)
        for w in defn.windows:
            g.decls["windows"].setdefault(w, w)
        for c in defn.cards:
            if c.id not in seen_cards:
                seen_cards.add(c.id)
                g.cards.append((c, found))
        for kw in defn.keywords:
            if (kw.file, kw.pos.line) not in seen_keywords:
                seen_keywords.add((kw.file, kw.pos.line))
                g.keywords.append((kw, found))
        for b in defn.boards:
            if b.id not in seen_boards:
                seen_boards.add(b.id)
                g.boards.append(b)
        for sc in defn.scenarios:
            if sc.id not in seen_scenarios:
                seen_scenarios.add(sc.id)
                g.scenarios.append(sc)
        for name, a in defn.automata.items():
            g.automata.setdefault(name, a)
    return g


@lru_cache(maxsize=None)
def raw(path: str) -> dict:
    """A content file as plain YAML data: what the GameDef does not keep (descriptions, texts)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def described(pos, section: str, name: str) -> str:
    """The `description:` of declaration `name` under `section` of the file at `pos`."""
    entry = (raw(pos.path).get(section) or {}).get(name)
    return entry.get("description", "") if isinstance(entry, dict) else ""


def raw_entry(path: str, key: str, field_: str, value) -> dict:
    """The item of list `key` of a file whose `field_` is `value` (a card by id, a keyword by pattern)."""
    for item in raw(path).get(key) or []:
        if isinstance(item, dict) and item.get(field_) == value:
            return item
    return {}


# Printed text -------------------------------------------------------------------------------

def keyword_text(kw, lang: str) -> str | None:
    """What the rulebook prints of a keyword, in `lang` (its `text:`); None when the content
    gives none in that language."""
    text = kw.texts.get(lang)
    return str(text) if text else None


_PROSE: dict = {}


def _prose(defn, findings, lang: str):
    """One writer per pack and language (a pack is read once per run)."""
    key = (id(defn), lang)
    if key not in _PROSE:
        _PROSE[key] = Prose(defn, findings, lang)
    return _PROSE[key]


def printed_card(defn, findings, card, lang: str) -> list[str]:
    """The lines of a card's face in `lang`: its own text, else each ability's printed
    keyword and its printed text, else prose written from its rules (Prose.face)."""
    prose = _prose(defn, findings, lang)
    return prose.face_texts(card)


# Pages ------------------------------------------------------------------------------------------

GENERATED = "<!-- Generated by docs/gen_game_pages.py from content/{game}/: do not edit by hand. -->"


def layer_title(g: GameContent, layer_id: str | None) -> str:
    return "the base game" if layer_id is None else f"the expansion {md(g.layers[layer_id].title)}"


def expansion_players(layer) -> int | None:
    """The most players an expansion allows, when it says."""
    most = (raw(layer.pos.path).get("players") or {}).get("max")
    return most if isinstance(most, int) else None


def index_page(g: GameContent) -> str:
    d, data = g.defn, raw(g.defn.file)
    out = [f"# {md(d.title)}", "", GENERATED.format(game=g.root.name), ""]
    if data.get("description"):
        out += [md(data["description"]), ""]
    base = raw(str(g.root / "game.yaml")).get("players") or {}
    players = f"{base.get('min', d.min_players)} to {base.get('max', d.max_players)}"
    most = max((expansion_players(layer) or 0 for layer in g.layers.values()), default=0)
    if most > base.get("max", d.max_players):
        players += f" (up to {most} with an expansion)"
    facts = [f"**Game id:** {code(d.id)}", f"**Players:** {players}"]
    if data.get("rulebook"):
        facts.append(f"**Rulebook:** {md(data['rulebook'])}")
    facts.append(f"**Content folder:** {code('content/' + g.root.name + '/')}")
    out += ["  \n".join(facts), ""]
    copies = sum(c.copies for c, _ in g.cards)
    out += [f"Its content holds {len(g.cards)} cards and components ({copies} counting copies), "
            f"{len(g.keywords)} keywords, {len(g.decls['zones'])} zones and {len(g.decls['counters'])} counters "
            "(with its expansions).", "",
            "- [Reference](reference.md): options, zones, counters, attributes, classes, events, windows, "
            "keywords, procedures and functions.",
            "- [Cards](cards.md): every card as printed, with its id and where it is defined.",
            "- [Rulings and authored content](../../rulings.md): where the rulebook is silent.", "",
            "## Playing it", "", *block(f"regles play {d.id}\nregles simulate {d.id} --games 100"), ""]
    if g.layers:
        out += ["## Expansions", "",
                f"Laid over the game with `--expansion ID` (see [Expansions](../../expansions.md)). "
                "Players: the most players the expansion allows, when it changes it.", ""]
        rows = []
        for layer in g.layers.values():
            e = raw(layer.pos.path)
            rows.append([code(layer.id), md(layer.title), str(expansion_players(layer) or ""),
                         ", ".join(code(r) for r in layer.requires), md(e.get("description", ""))])
        out += table(["id", "title", "players", "requires", "description"], rows)
    if g.scenarios:
        out += ["## Scenarios", "", "Chosen with `--scenario ID`; the expansion that holds it is laid with it.", ""]
        rows = []
        for sc in g.scenarios:
            players = sc.data.get("players")
            players = ", ".join(str(p) for p in players) if isinstance(players, list) else str(players or "")
            rows.append([code(sc.id), md(sc.title), players, layer_title(g, g.layer_of(sc.file)),
                         path_code(g.where(sc.pos))])
        out += table(["id", "title", "players", "from", "defined in"], rows)
        for sc in g.scenarios:
            out += scenario_sheets(sc)
    if g.boards:
        out += ["## Boards", ""]
        rows = [[code(b.id), md(in_language(raw(b.file).get("title"), "en")), str(len(b.nodes)), str(len(b.edges)),
                 path_code(g.where(b.pos))] for b in g.boards]
        out += table(["id", "title", "nodes", "edges", "defined in"], rows)
    if g.automata:
        out += ["## Automata", "", "Seats driven by the content, not by a player.", ""]
        rows = [[code(a.id), md(a.title), str(a.seat), path_code(g.where(a.pos)), md(a.description or "")]
                for a in g.automata.values()]
        out += table(["id", "title", "seat", "defined in", "description"], rows)
    return "\n".join(out).rstrip() + "\n"


def scenario_sheets(sc) -> list[str]:
    """A scenario's sheets as its players read them: the common sheet (its `text:`, read aloud
    by the first player), then the sheet of each character (`characters:`), in its order; in
    English, as the page is (a sheet written in French only, in French)."""
    out = [f"### {md(sc.title)} {{ #scenario-{slug(sc.id)} }}", ""]
    if sc.text_in("en").strip():
        out += block(sc.text_in("en").strip()) + [""]
    sheets = sc.data.get("characters")
    if isinstance(sheets, dict) and sheets:
        out += ["The sheet of each character: each player takes the one of the character they play.", ""]
        for name, sheet in sheets.items():
            if not isinstance(sheet, dict):
                continue
            mark = ", authored" if sheet.get("authored") else ""
            out.append(f"- **{md(in_language(sheet.get('title'), 'en') or name)}** ({code(name)}{mark}): "
                       f"{md(in_language(sheet.get('text'), 'en'))}")
        out.append("")
    return out


def _scope(scope: tuple) -> str:
    """'game', or which things have one each: 'per player', 'per node and player'."""
    if tuple(scope) == ("game",):
        return "game"
    return "per " + " and ".join(str(s) for s in scope)


def _supply(supply) -> str:
    if supply is None:
        return ""
    return f"supply of {supply}" if isinstance(supply, int) else f"shares the supply of {code(supply)}"


def class_rows(g: GameContent) -> list[list[str]]:
    """Every class name as printed: the values of class attributes and the tags, with the other
    names that mean it (aliases) and who declares it, from the game's and expansions' files."""
    found: dict = {}  # (attribute or None, printed) -> [aliases, layer id]
    files = [(None, g.defn.file)] + [(lid, layer.pos.path) for lid, layer in g.layers.items()]
    for lid, path in files:
        data = raw(path)
        for attr, a in (data.get("attributes") or {}).items():
            if isinstance(a, dict) and a.get("type", "class") == "class":
                for v in a.get("values") or []:
                    found.setdefault((attr, str(v)), [[], lid])
                for v, aliases in (a.get("aliases") or {}).items():
                    found.setdefault((attr, str(v)), [[], lid])[0].extend(str(x) for x in aliases or [])
        for tag in data.get("classes") or []:
            found.setdefault((None, str(tag)), [[], lid])
    for attr, printed in g.decls["classes"].values():  # any the files above do not name
        found.setdefault((attr, printed), [[], None])
    return [[md(printed), code(attr) if attr else "tag", ", ".join(md(x) for x in aliases),
             layer_title(g, lid)] for (attr, printed), (aliases, lid) in found.items()]


def reference_page(g: GameContent) -> str:
    d = g.defn
    dec = g.decls
    out = [f"# {md(d.title)}: reference", "", GENERATED.format(game=g.root.name), "",
           f"What the content of {md(d.title)} declares, with all its expansions: the names its "
           "rules texts use (see [The rules language](../../language.md) and "
           "[Content files](../../content-files.md)). *Defined in* is the file and line, from "
           f"{code('content/' + g.root.name + '/')}.", ""]

    out += ["## Options", ""]
    rows = []
    for o in dec["options"].values():
        values = ", ".join(code(value(v)) for v in o.values) if o.values else md(o.type or "")
        rows.append([code(o.name), values, code(value(o.default)), path_code(g.where(o.pos)),
                     md(described(o.pos, "options", o.name))])
    out += table(["option", "values", "default", "defined in", "description"], rows) or ["No options.", ""]

    out += ["## Zones", "", "Where components lie. *Scope*: one zone for the game, or one per player, "
            "team or node.", ""]
    rows = []
    for z in dec["zones"].values():
        notes = ", ".join(x for x in ("in play" if z.in_play else "",
                                      f"holds at most {z.capacity}" if z.capacity is not None else "") if x)
        rows.append([code(z.name), _scope(z.scope), z.visibility, notes, path_code(g.where(z.pos)),
                     md(described(z.pos, "zones", z.name))])
    out += table(["zone", "scope", "visibility", "notes", "defined in", "description"], rows)

    out += ["## Counters", ""]
    rows = []
    for c in dec["counters"].values():
        bounds = ", ".join(x for x in (f"at least {c.minimum}" if c.minimum is not None else "",
                                       f"at most {c.maximum}" if c.maximum is not None else "",
                                       _supply(c.supply),
                                       "internal" if c.internal else "") if x)
        rows.append([code(c.name), _scope(c.scope), str(c.initial), bounds, c.visibility, path_code(g.where(c.pos)),
                     md(described(c.pos, "counters", c.name))])
    out += table(["counter", "scope", "starts at", "limits", "visibility", "defined in", "description"], rows)

    out += ["## Attributes", "", "What components carry. The values of a class attribute are classes "
            "(`c is VALUE`).", ""]
    rows = []
    for a in dec["attributes"].values():
        values = ", ".join(md(v) for v in a.values) if a.values else ""
        rows.append([code(a.name), a.type, values, "" if a.default is None else code(value(a.default)),
                     path_code(g.where(a.pos)), md(described(a.pos, "attributes", a.name))])
    out += table(["attribute", "type", "values", "default", "defined in", "description"], rows)

    out += ["## Classes", "", "Every class name, as printed, and what gives it: a value of a class "
            "attribute, or a tag (extra classes a component carries or is given).", ""]
    out += table(["class", "attribute", "also written", "from"], class_rows(g))

    out += ["## Component kinds", ""]
    rows = [[code(kind), ", ".join(code(a) for a in attrs)] for kind, attrs in dec["components"].items()]
    out += table(["kind", "attributes"], rows)

    out += ["## Events", "", "What procedures signal (`signal EVENT(ARGS)`) and triggers listen to "
            "(`when EVENT:`).", ""]
    rows = [[code(name), ", ".join(code(a) for a in args)] for name, args in dec["events"].items()]
    out += table(["event", "arguments"], rows) or ["No events.", ""]

    out += ["## Windows", "", "The moments when actions of components may be used.", ""]
    out += [", ".join(code(w) for w in dec["windows"]) or "No windows.", ""]

    out += keyword_sections(g)
    out += procedure_sections(g)
    return "\n".join(out).rstrip() + "\n"


def keyword_sections(g: GameContent) -> list[str]:
    out = ["## Keywords", ""]
    if not g.keywords:
        return out + ["This game has no keywords: its cards print their abilities in the rules language.", ""]
    out += ["Each keyword as printed on cards (parameters in capitals), what the rulebook says it does, "
            "and its definition in the rules language.", ""]
    for kw, _ in g.keywords:
        entry = raw_entry(kw.file, "keywords", "pattern", kw.pattern)
        out += [f"### {md(kw.pattern)} {{ #kw-{slug(kw.pattern)} }}", ""]
        facts = [f"**Defined in:** {path_code(g.where(kw.pos))} ({layer_title(g, g.layer_of(kw.file))})"]
        if kw.family:
            facts.append(f"**Family:** {md(kw.family)}")
        if kw.params:
            facts.append("**Parameters:** " + ", ".join(f"{code(n)} ({t})" for n, t in kw.params.items()))
        if entry.get("rules"):
            facts.append("**Rules:** " + ", ".join(code(r) for r in entry["rules"]))
        out += ["  \n".join(facts), ""]
        for lang in LANGS:
            text = keyword_text(kw, lang)
            if text:
                out += [f"*{LANG_NAMES[lang]}:* {md(text)}", ""]
        out += ["Definition:", ""]
        for text in kw.ability_texts:
            out += block(text) + [""]
    return out


def procedure_sections(g: GameContent) -> list[str]:
    out = ["## Procedures and functions", "",
           "The rules of the game in the rules language: procedures run the game, functions compute "
           "values. An extension point is a procedure whose body runs the hooks expansions and "
           "scenarios lay on it; *hooked by* names those that do, *replaced by* those that give a "
           "procedure or a function another body.", ""]
    hooks, replaced = {}, {}
    for p in g.decls["procedures"].values():
        point, _, layer = p.name.partition("@")
        if layer:
            hooks.setdefault(point, []).append(layer.rpartition(":")[2])
    for layer in [*g.layers.values(), *g.scenarios]:
        for name in raw(layer.pos.path).get("replace") or {}:
            replaced.setdefault(name, []).append(layer.id)
    rows = []
    for p in g.decls["procedures"].values():
        if "@" in p.name:
            continue  # a hook: listed with its extension point
        notes = ["extension point"] if p.point else []
        if hooks.get(p.name):
            notes.append("hooked by " + ", ".join(code(h) for h in hooks[p.name]))
        if replaced.get(p.name):
            notes.append("replaced by " + ", ".join(code(r) for r in replaced[p.name]))
        if p.acting:
            notes.append(f"acts for {code(p.acting)}")
        desc = described(p.pos, "extension_points" if p.point else "procedures", p.name)
        rows.append([code(f"{p.name}({', '.join(p.params)})"), "; ".join(notes), path_code(g.where(p.pos)), md(desc)])
    for f in g.decls["functions"].values():
        notes = ["function"] + (["replaced by " + ", ".join(code(r) for r in replaced[f.name])]
                                if replaced.get(f.name) else [])
        rows.append([code(f"{f.name}({', '.join(f.params)})"), "; ".join(notes), path_code(g.where(f.pos)),
                     md(described(f.pos, "functions", f.name))])
    return out + table(["name", "notes", "defined in", "description"], rows)


def _attr_value(v) -> str:
    if isinstance(v, list):
        return ", ".join(md(x) for x in v)
    return md(value(v))


def cards_page(g: GameContent) -> str:
    d = g.defn
    out = [f"# {md(d.title)}: cards", "", GENERATED.format(game=g.root.name), "",
           f"Every card and component of {md(d.title)} and its expansions, as printed: its title, its "
           "attributes and its abilities, with its id (used by `--power` and in rules tests) and the "
           "file and line that define it, from " + code(f"content/{g.root.name}/") + ". "
           "A printed keyword is followed by what it does (see the [keywords](reference.md#keywords)); "
           "other abilities are shown in the rules language.", ""]
    groups: dict = {}
    for card, found in g.cards:
        groups.setdefault((g.layer_of(card.file), card.file), []).append((card, found))
    layer_order = [None, *g.layers]
    for layer_id in layer_order:
        files = [(f, cards) for (lid, f), cards in groups.items() if lid == layer_id]
        if not files:
            continue
        heading = "Base game" if layer_id is None else f"Expansion: {md(g.layers[layer_id].title)}"
        out += [f"## {heading} {{ #{'base' if layer_id is None else 'expansion-' + layer_id} }}", ""]
        for file, cards in files:
            data = raw(file)
            name = rel(file, g.root)
            what = ", ".join(x for x in (f"set {md(data['set'])}" if data.get("set") else "",
                                         f"component {code(cards[0][0].component)}",
                                         f"{len(cards)} cards") if x)
            out += [f"### {md(Path(name).stem.replace('-', ' ').capitalize())} {{ #file-{slug(name)} }}", "",
                    f"{code(name)}: {what}.", ""]
            for card, found in cards:
                out += card_entry(g, card, found)
    return "\n".join(out).rstrip() + "\n"


def card_entry(g: GameContent, card, found) -> list[str]:
    facts = [code(card.id), path_code(g.where(card.pos))]
    if card.copies != 1:
        facts.append(f"{card.copies} copies")
    if card.per_player:
        facts.append("one per player")
    out = [f"#### {md(card.title)} {{ #{card.id} }}", "", " · ".join(facts), ""]
    attrs = [f"{md(name)}: **{_attr_value(v)}**" for name, v in card.attrs.items() if v not in (None, "", [])]
    if card.tags:
        attrs.append("tags: **" + ", ".join(md(t) for t in card.tags) + "**")
    if attrs:
        out += [" · ".join(attrs), ""]
    lines = {lang: printed_card(g.defn, found, card, lang) for lang in LANGS}
    out += ability_lines(lines["en"])
    if lines["fr"]:
        out += [f"*{LANG_NAMES['fr']}:*", ""] + ability_lines(lines["fr"])
    return out  # the card's own text is its face, above


def ability_lines(lines: list[str]) -> list[str]:
    """One item per line of printed text; an ability of several lines (rules language) as a block."""
    out = []
    for line in lines:
        if "\n" in line:
            out += ([""] if out and out[-1] != "" else []) + block(line) + [""]
        else:
            out.append(f"- {md(line)}")
    return out + ([""] if out and out[-1] != "" else [])


# Writing ----------------------------------------------------------------------------------------

def shipped_games() -> list[Path]:
    return sorted(p for p in CONTENT.iterdir() if (p / "game.yaml").is_file())


def games_page(games: list[GameContent]) -> str:
    out = ["# Games", "", "<!-- Generated by docs/gen_game_pages.py from content/: do not edit by hand. -->", "",
           "The games shipped with regles, each with its reference (what its content declares, its "
           "keywords, procedures and functions) and its card catalogue, generated from the content "
           "itself.", ""]
    rows = []
    for g in games:
        name = g.root.name
        rows.append([f"[{md(g.defn.title)}]({name}/index.md)", code(g.defn.id),
                     md(raw(g.defn.file).get("description", "")) or " ",
                     f"[reference]({name}/reference.md), [cards]({name}/cards.md)"])
    out += table(["game", "id", "description", "pages"], rows)
    out += ["The rulings each game's content makes where its rulebook is silent are gathered in "
            "[Rulings and authored content](../rulings.md).", ""]
    return "\n".join(out).rstrip() + "\n"


def pages() -> dict[Path, str]:
    """Every generated page, by its path."""
    games = [game_content(root) for root in shipped_games()]
    out = {PAGES / "index.md": games_page(games)}
    for g in games:
        folder = PAGES / g.root.name
        out[folder / "index.md"] = index_page(g)
        out[folder / "reference.md"] = reference_page(g)
        out[folder / "cards.md"] = cards_page(g)
    return out


def main(argv) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pagegen import write_or_check
    made = pages()
    status = 0
    for page, text in made.items():
        if "--check" not in argv:
            page.parent.mkdir(parents=True, exist_ok=True)
        status |= write_or_check(page, text, argv, COMMAND, ROOT)
    for page in sorted(PAGES.rglob("*.md")):
        if page not in made:
            if "--check" in argv:
                print(f"{page.relative_to(ROOT)} is no game's page: run '{COMMAND}'", file=sys.stderr)
                status = 1
            else:
                page.unlink()
                print(f"removed {page.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
