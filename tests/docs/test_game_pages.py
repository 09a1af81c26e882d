"""docs/games/ describes every shipped game from its content (docs/gen_game_pages.py), and the
site is built with the material theme: its pages are current, every card is in its game's
catalogue, content text is shown as written, and the navigation names every game page."""
import html
import importlib.util
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib

import markdown
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit import FIXTURES, ROOT

CONTENT = ROOT / "content"
GAMES = ROOT / "docs" / "games"
EXTENSIONS = ["toc", "tables", "attr_list", "fenced_code"]


def _gen():
    spec = importlib.util.spec_from_file_location("gen_game_pages_under_test", ROOT / "docs" / "gen_game_pages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gen = _gen()


def test_game_pages_are_in_step_with_the_content():
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_game_pages.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def shipped_cards():
    """(game, card id, title) of every card file under content/, read as plain YAML."""
    out = []
    for game in sorted(p for p in CONTENT.iterdir() if (p / "game.yaml").is_file()):
        for path in sorted(game.rglob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("kind") == "cards":
                out += [(game.name, c["id"], c.get("title", c["id"])) for c in data["cards"]]
    return out


def test_every_shipped_card_is_in_its_games_catalogue_with_its_id():
    cards = shipped_cards()
    assert len(cards) > 200  # the three games and their expansions
    pages = {}
    missing = []
    for game, card_id, title in cards:
        if game not in pages:
            pages[game] = (GAMES / game / "cards.md").read_text(encoding="utf-8")
        heading = f"#### {gen.md(title)} {{ #{card_id} }}\n\n`{card_id}` · "
        if heading not in pages[game]:
            missing.append(f"{game}: {card_id} ({title})")
    assert not missing, f"cards missing from docs/games/GAME/cards.md: {missing}"


def test_every_game_has_its_pages_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from pages(v)
        elif isinstance(node, list):
            for v in node:
                yield from pages(v)
    in_nav = set(pages(config["nav"]))
    generated = {p.relative_to(ROOT / "docs").as_posix() for p in GAMES.rglob("*.md")}
    games = [p.name for p in CONTENT.iterdir() if (p / "game.yaml").is_file()]
    assert {f"games/{g}/{page}.md" for g in games for page in ("index", "reference", "cards")} <= generated
    assert not generated - in_nav, f"pages of docs/games/ missing from the nav of mkdocs.yml: {generated - in_nav}"


def test_the_site_uses_the_material_theme_with_search_and_code_copy():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"
    assert "search" in config["plugins"]
    assert {"navigation.tabs", "content.code.copy"} <= set(config["theme"]["features"])
    css = ROOT / "docs" / config["extra_css"][0]
    assert "td:last-child" in css.read_text(encoding="utf-8")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "mkdocs-material>=9.5" in project["optional-dependencies"]["test"], \
        "pyproject.toml: the test extra (which builds the site) needs mkdocs-material>=9.5"


# Content text is shown as written ---------------------------------------------------------

def _text(fragment: str) -> str:
    """The text a reader sees of rendered HTML."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


TRICKY = st.text(alphabet="ab <>&|*_`[](){}#!\\-+.:'\"=~", min_size=1, max_size=30).filter(str.strip)


@settings(max_examples=200, deadline=None)
@given(TRICKY)
def test_content_text_reads_as_written_in_a_table_cell(text):
    page = markdown.markdown(f"| a | b |\n|---|---|\n| {gen.md(text)} | x |\n", extensions=EXTENSIONS)
    cell = re.search(r"<td>(.*?)</td>", page, re.S)
    assert cell, page
    assert _text(cell.group(1)) == " ".join(text.split()), page


@settings(max_examples=200, deadline=None)
@given(TRICKY)
def test_content_text_reads_as_written_in_a_heading_and_a_list(text):
    page = markdown.markdown(f"#### {gen.md(text)} {{ #the-id }}\n\n- {gen.md(text)}\n", extensions=EXTENSIONS)
    heading = re.search(r'<h4 id="the-id">(.*?)</h4>', page, re.S)
    item = re.search(r"<li>(.*?)</li>", page, re.S)
    assert heading and item, page
    assert _text(heading.group(1)) == _text(item.group(1)) == " ".join(text.split()), page


def test_a_catalogue_shows_hostile_titles_as_text(tmp_path, monkeypatch):
    """A card's title, attributes and abilities are content: the page never turns them into markup."""
    root = tmp_path / "content" / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", root)
    (root / "cards" / "hostile.yaml").write_text(textwrap.dedent("""\
        kind: cards
        game: docs-game
        set: odd
        cards:
          - id: odd-one
            title: "<b>Bold</b> | *star* _under_ [link](x) {#no}"
            type: Building
            colour: "<i>red</i>"
            abilities:
              - "Bonus 2 - Worker"
        """), encoding="utf-8")
    monkeypatch.setattr(gen, "CONTENT", tmp_path / "content")
    g = gen.game_content(root)
    page = markdown.markdown(gen.cards_page(g), extensions=EXTENSIONS)
    heading = re.search(r'<h4 id="odd-one">(.*?)</h4>', page, re.S)
    assert heading, "the card has no heading with its id as anchor"
    assert _text(heading.group(1)) == "<b>Bold</b> | *star* _under_ [link](x) {#no}"
    assert "<b>" not in page and "<i>" not in page and "<em>star" not in page
    assert "colour: <strong>&lt;i&gt;red&lt;/i&gt;</strong>" in page
    # the keyword it prints, then its rules as prose, its parameters bound
    assert "<li>Bonus 2 - Worker: Score 2 for each Worker card you have in play.</li>" in page
    # grouped by the file that defines it, which it names with the line
    assert "odd-one · cards/hostile.yaml:5" in _text(page)


# Printed text -----------------------------------------------------------------------------

def test_a_card_is_printed_with_its_face_in_each_language():
    from interpreter import read_and_check
    from interpreter.diagnostics import Report
    defn, found = read_and_check(FIXTURES / "docs-game", Report())
    guild = next(c for c in defn.cards if c.id == "guild")
    en = gen.printed_card(defn, found, guild, "en")
    fr = gen.printed_card(defn, found, guild, "fr")
    # English: the keyword's printed text, its letters bound to the card's values
    assert en[0] == "Bonus 1 - Worker: Score 1 for each Worker card you have in play."
    # French, where the keyword prints no text: its rules written as prose
    assert fr[0].startswith("Bonus 1 - Worker : Quand") and len(fr) == len(en) == len(guild.abilities)


def test_a_games_index_prints_each_scenarios_common_sheet_and_its_sheet_per_character():
    """In English, as the page is: a sheet written in English and French shows its English."""
    page = (GAMES / "seeders-exodus" / "index.md").read_text(encoding="utf-8")
    for scenario in CONTENT.glob("seeders-exodus/expansions/*/scenarios/*.yaml"):
        data = yaml.safe_load(scenario.read_text(encoding="utf-8"))
        at = page.index(f"{{ #scenario-{data['id']} }}")
        section = page[at:page.find("\n### ", at)]
        assert data["text"]["en"].strip().splitlines()[0] in section
        assert data["text"]["fr"].strip().splitlines()[0] not in section
        for name, sheet in data.get("characters", {}).items():
            line = f"- **{gen.md(sheet['title']['en'])}** (`{name}`, authored): {gen.md(sheet['text']['en'])}"
            assert line in section, (data["id"], name)
    html_page = markdown.markdown(page, extensions=EXTENSIONS)
    assert ("<strong>Moor, the keeper of the Ethernium</strong> (<code>Moor</code>, authored): You have kept"
            in html_page)
