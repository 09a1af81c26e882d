"""Content on the terminal is shown, never obeyed: control characters (ESC, bidi overrides)
in titles, values, labels and messages are printed as escapes by every command, and rich
markup in content ('[/]', '[bold]') is printed as text."""
from __future__ import annotations

import io
import json
import re
import shutil
import sys

import pytest

from interpreter.diagnostics import printable
from interpreter import cli

from gamekit import ROOT

ESC, RLO = "\x1b", "\u202e"
# every card title starts with a screen clear, a right-to-left override and a closing tag
HOSTILE = "\\e[2J\\u202e[/]"
SHOWN = "\\x1b[2J\\u202e[/]"


def hostile_game(tmp_path, name: str):
    """A copy of a shipped game whose title and card titles hold escape sequences and markup."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "content" / name, folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(re.sub(r"^title: (.*)$", lambda m: f'title: "{HOSTILE}[bold]{m.group(1)}"', text, count=1,
                           flags=re.M), encoding="utf-8")
    for cards in (folder / "cards").glob("*.yaml"):
        text = cards.read_text(encoding="utf-8")
        text = re.sub(r'^(\s+title: )"?([^"\n]*)"?$', lambda m: f'{m.group(1)}"{HOSTILE}{m.group(2)}"', text,
                      flags=re.M)
        cards.write_text(text, encoding="utf-8")
    return folder


def run(capsys, *args, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def assert_escaped(text: str) -> None:
    assert ESC not in text and RLO not in text
    assert SHOWN in text


def test_printable_escapes_controls_and_keeps_the_rest():
    assert printable("a\x1b[31mb\u202ec\r\x08\x00\x9b") == "a\\x1b[31mb\\u202ec\\x0d\\x08\\x00\\x9b"
    assert printable("Théocrate [1]-[1] ×3") == "Théocrate [1]-[1] ×3"
    assert printable("two\nlines", lines=True) == "two\nlines" and printable("two\nlines") == "two\\x0alines"


# check ------------------------------------------------------------------------------------

def test_check_escapes_the_message_and_the_source_line_and_keeps_the_caret(tmp_path, capsys):
    folder = tmp_path / "nim"
    shutil.copytree(ROOT / "tests" / "fixtures" / "nim", folder)
    bad = folder / "bad.yaml"
    # a raw right-to-left override before the error on the line, an ESC in the wrong value
    bad.write_text("kind: cards\ngame: nim\ncomponent: stone\ncards:\n"
                   f'  - {{id: odd, title: "A{RLO}B", weight: "x\\e[31my"}}\n', encoding="utf-8")
    status, out, err = run(capsys, "check", folder)
    assert status == 1
    assert ESC not in out and RLO not in out
    lines = out.splitlines()
    k = next(i for i, line in enumerate(lines) if "bad.yaml:5:" in line)
    assert lines[k].endswith("found 'x\\x1b[31my'")
    source, caret = lines[k + 1], lines[k + 2]
    assert 'title: "A\\u202eB"' in source
    # the caret stays under the value it points at, after the escape made the line longer
    assert caret.index("^") == source.index('"x')
    status, out, _ = run(capsys, "check", "--format", "json", folder)
    assert RLO not in out and ESC not in out
    data = json.loads(out)  # the escapes are JSON's own: the message read back is intact
    assert status == 1 and any("'x\x1b[31my'" in d["message"] for d in data["diagnostics"])


# explain, play, replay --------------------------------------------------------------------

def test_explain_shows_a_hostile_title_escaped(tmp_path, capsys):
    folder = hostile_game(tmp_path, "karman-swap")
    status, out, err = run(capsys, "explain", folder, "juhel")
    assert status == 0, err
    assert_escaped(out)
    assert out.startswith(SHOWN + "Juhel \u00b7 ")  # the card as printed, then how the engine reads it
    assert "\n" + SHOWN + "Juhel (juhel)" in out


def test_play_and_replay_show_hostile_titles_escaped(tmp_path, capsys, monkeypatch):
    folder = hostile_game(tmp_path, "karman-swap")
    trace = tmp_path / "game.jsonl"
    status, out, err = run(capsys, "play", folder, "--players", "2", "--seed", "3", "--save", trace,
                           stdin="1\n" * 30 + "q\n", monkeypatch=monkeypatch)
    assert status == 0, err
    assert_escaped(out)
    assert f"== {SHOWN}[bold]Karman Swap: 2 players, seed 3 ==" in out
    assert re.search(r"  your hand: " + re.escape(SHOWN), out)  # the observation
    assert re.search(r"^ +1\. " + re.escape(SHOWN), out, re.M)  # a numbered option naming a card
    # a trace whose recorded events differ: replay prints both, escaped
    lines = trace.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"type": "move"' in line or '"type":"move"' in line)
    event = json.loads(lines[k])
    event["to"] = RLO + ESC + "[2Jnowhere"
    lines[k] = json.dumps(event, ensure_ascii=False)
    trace.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "replay", trace)
    assert status == 1
    assert "differs" in err and RLO not in err and ESC not in err and "\\u202e" in err


# simulate ---------------------------------------------------------------------------------

def test_simulate_report_survives_markup_and_escapes_in_values(tmp_path, capsys):
    folder = tmp_path / "seeders-exodus"
    shutil.copytree(ROOT / "content" / "seeders-exodus", folder)
    changed = 0
    for cards in (folder / "cards").glob("*.yaml"):
        text = cards.read_text(encoding="utf-8")
        # the cards' colour becomes a closing tag of rich's markup and an ESC
        text, k = re.subn(r"^(    colour: ).*$", lambda m: m.group(1) + '"[/]\\e[1m"', text, flags=re.M)
        cards.write_text(text, encoding="utf-8")
        changed += k
    assert changed > 10
    status, out, err = run(capsys, "simulate", folder, "--games", "3", "--by", "colour", "--trace-dir",
                           tmp_path / "tr")
    assert status == 0, err
    assert "Traceback" not in out + err and "internal error" not in err
    assert ESC not in out
    assert "points brought, by colour" in out and "│ [/]\\x1b[1m " in out
    assert "completed 3 of 3 games" in out


def test_an_option_naming_a_card_or_a_space_shows_what_tells_it_apart():
    """Beside 'Play Nacrelle', the creature's colour and value; beside 'Move a unit to
    large-n-2', the space's terrain and height: the attributes its card or node gives itself,
    named by the game's vocabulary, less what the label says already."""
    import interpreter
    from interpreter.play.agents import option_facts
    from interpreter.engine.values import NodeRef
    program = interpreter.load("karman-swap").program
    [nacrelle] = program.cards_by_id["nacrelle"]
    [vermille] = program.cards_by_id["vermille"]
    assert option_facts(program, nacrelle, "Play Nacrelle", [nacrelle, vermille]) == ["blue creature", "value 2"]
    program = interpreter.load("etherium").program
    spaces = [NodeRef(n) for n in ("large-n-2", "ether", "small-n", "city-w")]
    assert option_facts(program, spaces[0], "Move a unit to large-n-2", spaces) == ["forest", "height 3"]
    assert option_facts(program, spaces[1], "Move a unit to ether", spaces) == ["height 2"]
    assert option_facts(program, None, "Connect", spaces) == []
    # the one mountain among the spaces offered is told: other spaces of the board are mountains
    # too, so 'mountain' is a fact, not a name of its own as 'space 3' is
    offered = [NodeRef(n) for n in ("large-n-1", "ether", "small-n")]
    assert option_facts(program, offered[0], "Move a unit to space 3", offered)[:2] == ["mountain", "height 3"]
    assert option_facts(program, offered[2], "Move a unit to space 5", offered)[:2] == ["forest", "height 2"]


def test_a_space_named_by_its_number_still_shows_a_height_of_that_number():
    """'space 3' names the space by its index: its height, 3 too, is still told, and the
    piece it lies on, a code of the content ('large-n'), is not; the kind of that piece is,
    in the reader's words."""
    import interpreter
    from interpreter.play.agents import option_facts
    from interpreter.engine.values import NodeRef
    program = interpreter.load("etherium").program
    spaces = [NodeRef(n) for n in ("large-n-1", "large-w-1", "medium-n-2", "medium-e-2")]  # spaces 3, 21, 7, 13
    assert option_facts(program, spaces[0], "space 3", spaces) == ["height 3", "large terrain"]
    assert option_facts(program, spaces[0], "case 3", spaces, "fr") == ["hauteur 3", "grand terrain"]
    assert option_facts(program, spaces[2], "space 7", spaces) == ["height 1", "medium terrain"]


def test_an_option_whose_label_shows_its_number_does_not_repeat_it():
    """'chambre 3' needs no '(numéro 3)' beside it; a label that does not show the number
    still gets it, in the reader's words ('numéro 3', not 'number 3')."""
    import interpreter
    from interpreter.play.agents import option_facts
    from interpreter.engine.values import NodeRef
    program = interpreter.load("seeders-exodus").program
    chambers = [NodeRef(n) for n in ("c1", "c2", "c3")]
    assert option_facts(program, chambers[2], "Négociateur à rapatrier de la chambre 3", chambers, "fr") == []
    assert option_facts(program, chambers[2], "chamber 3", chambers) == []
    assert option_facts(program, chambers[2], "c3", chambers, "fr") == ["numéro 3"]
    assert option_facts(program, chambers[2], "chambre 13", chambers, "fr") == ["numéro 3"]


def test_a_table_at_80_columns_breaks_no_word():
    """A table of many columns wraps its cells between words ('Les Chamanes d'Ertis'), never
    inside one, and keeps every column."""
    import io

    from rich.console import Console

    from interpreter.view.shown import WordTable, text
    t = WordTable(title=text("seats by people"))
    heads = ["people", "seats", "win rate", "95% CI", "mean score", "stars from victory",
             "stars from capabilities", "stars from guide", "stars from ether"]
    for h in heads:
        t.add_column(text(h), justify="left" if h == "people" else "right", overflow="fold")
    for people in ("Les Chamanes d'Ertis", "Les Harmoniques d'Hivalia", "Les Bâtisseurs de Psolos"):
        t.add_row(text(people), "3", "33.3%", "6.2% – 79.2%", "2.33", "0.00", "1.00", "1.00", "0.33")
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(t)
    shown = out.getvalue()
    assert max(len(line) for line in shown.splitlines()) <= 80
    words = set(" ".join(heads + ["Les Chamanes d'Ertis", "Les Harmoniques d'Hivalia", "Les Bâtisseurs de Psolos",
                                  "6.2% – 79.2%"]).split())
    cells = set(re.split(r"[\s│┃━─┏┓┗┛┡┩└┘┳┻╇╈┬┴┼]+", shown))
    assert words <= cells, words - cells


def test_a_table_narrower_than_its_headers_wraps_its_headers_before_its_values():
    """At 110 columns the seats-by-people table does not fit with every header on one line: the
    long headers over short numbers ('stars from capabilities' over '1.00') wrap, and the
    peoples' names stay whole on their lines."""
    import io

    from rich.console import Console

    from interpreter.view.shown import WordTable, text
    t = WordTable(title=text("seats by people"))
    heads = ["people", "seats", "win rate", "95% CI", "mean score", "stars from victory",
             "stars from capabilities", "stars from guide", "stars from ether"]
    for h in heads:
        t.add_column(text(h), justify="left" if h == "people" else "right", overflow="fold")
    peoples = ("Les Barbares de Reces", "Les Harmoniques d'Hivalia", "Les Bâtisseurs de Psolos")
    for people in peoples:
        t.add_row(text(people), "3", "33.3%", "6.2%–79.2%", "2.33", "0.00", "1.00", "1.00", "0.33")
    out = io.StringIO()
    Console(file=out, width=110, color_system=None).print(t)
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 110
    assert all(any(people in line for line in lines) for people in peoples), out.getvalue()
    assert not any("stars from capabilities" in line for line in lines)  # that header wrapped


def test_a_class_a_card_gains_or_loses_is_told_only_with_all():
    """'Pyrax becomes Posed' is how the rules remember a pose was used: the rules' bookkeeping,
    told with --all only (a game says what is worth saying with `log`)."""
    from gamekit import fixture_game
    from interpreter.view.narrate import Narrator
    st = fixture_game("nim").new_state(players=2, seed=1, trace=True)
    tag, untag = {"type": "tag", "id": 0, "tag": "Marked"}, {"type": "untag", "id": 0, "tag": "Marked"}
    quiet = Narrator(st, 0, io.StringIO(), False)
    assert quiet.tell(tag) is None and quiet.tell(untag) is None
    loud = Narrator(st, 0, io.StringIO(), True)
    assert "becomes Marked" in loud.tell(tag) and "is no longer Marked" in loud.tell(untag)


def test_an_option_says_neither_the_class_its_label_names_nor_a_bare_code():
    """'Placer votre Négociateur Théocrate' names the caste Théocrates (by an alias): only the
    colour is added; a slot of the board's zone B says 'zone B', not a bare 'B'."""
    import interpreter
    from interpreter.play.agents import option_facts
    from interpreter.engine.values import NodeRef
    program = interpreter.load("seeders-exodus").program
    negotiators = [c for c in program.comps if program.comp_card[int(c)].component == "negotiator"]
    first = negotiators[0]
    label = f"Placer votre {program.comp_card[int(first)].title} [1]-[1]"
    assert program.comp_card[int(first)].title == "Négociateur Théocrate"
    assert option_facts(program, first, label, negotiators, "fr") == ["blanc"]
    assert option_facts(program, first, "Place it", negotiators, "fr") == ["carte Théocrates", "blanc"]
    slots = [NodeRef(n) for n, v in program.nodes.items() if v.get("kind") == "slot" and v.get("side") == 34]
    zoned = next(s for s in slots if program.nodes[str(s)].get("airlock") == "B")
    assert option_facts(program, zoned, "emplacement de négociation 2-6", slots, "fr") == ["zone B"]


def test_long_lines_at_a_terminal_break_between_words_and_a_prompt_is_not_held():
    import io
    from interpreter.play.wrapped import wrapped
    out = io.StringIO()
    assert wrapped(out) is out  # not a terminal: one line per line, as a transcript keeps them
    screen = wrapped(out, width=40)
    print("  Votre plateau personnel : Négociateur Théocrate, Négociateur Noyau, Négociateur Déviant",
          file=screen)
    print("votre choix (1-4) : ", end="", file=screen, flush=True)
    rows = out.getvalue().split("\n")
    assert rows[:-1] == ["  Votre plateau personnel : Négociateur", "      Théocrate, Négociateur Noyau,",
                         "      Négociateur Déviant"]
    assert rows[-1] == "votre choix (1-4) : "  # flushed before its answer is read


def test_a_zone_of_titles_with_commas_sets_them_apart():
    from interpreter.view.narrate import _listed
    assert _listed(["Farm", "Well", "Well"]) == "Farm, Well ×2"
    assert _listed(["Kessra, lame de l'ombre", "Moor, tire-laine"]) == "Kessra, lame de l'ombre · Moor, tire-laine"


def test_a_counter_kept_per_place_is_listed_once_with_its_places_in_their_order():
    """The noun once, then each place that holds some, 'chambre 8' before 'chambre 12': not
    « cubes d'influence à la chambre 2 = 3, cube d'influence à la chambre 8 = 1, … »."""
    import interpreter
    from interpreter.view.narrate import counter_lines
    game = interpreter.load("seeders-exodus")
    obs = game.new_state(3, 4, {}).observation(0)
    obs["counters"].update({"cubes#c12#0": 1, "cubes#c8#0": 1, "cubes#c2#0": 3, "cubes#c5#1": 2})
    lines = counter_lines(game.program, obs, lang="fr")
    [mine] = [line for line in lines if line.startswith("  vous")]
    assert "cubes d'influence (chambre 2 = 3, chambre 8 = 1, chambre 12 = 1)" in mine, mine
    assert "à la chambre" not in mine, mine
    [theirs] = [line for line in lines if line.startswith("  joueur 2")]
    assert "cubes d'influence à la chambre 5 = 2" in theirs, theirs  # one place: said as before
    [english] = [line for line in counter_lines(game.program, obs) if line.startswith("  you")]
    assert "influence cubes (chamber 2 = 3, chamber 8 = 1, chamber 12 = 1)" in english, english


def test_a_counter_kept_on_a_seat_s_component_is_in_that_seat_s_line():
    """Each seat's 'Jeton 1' holds its own revealed action: listed under the game, the four were
    told apart by nothing ('revealed action on Jeton 1 = 4, revealed action on Jeton 1 = 2')."""
    import interpreter
    from interpreter.view.narrate import counter_lines
    game = interpreter.load("etherium")
    obs = game.new_state(3, 1, {}).observation(0)
    first = {}
    for z in obs["zones"].values():
        for x in z if isinstance(z, list) else ():
            if x["title"] == "Jeton 1" and isinstance(x.get("owner"), int):
                first[x["owner"]] = x["id"]
    assert set(first) >= {0, 1}, first
    obs["counters"].update({f"act#{first[0]}": 2, f"act#{first[1]}": 4})
    lines = counter_lines(game.program, obs)
    [mine] = [line for line in lines if line.startswith("  you:")]
    [theirs] = [line for line in lines if line.startswith("  player 2:")]
    assert "revealed action on Jeton 1 = 2" in mine and "= 4" not in mine, mine
    assert "revealed action on Jeton 1 = 4" in theirs, theirs
    assert not any(line.startswith("  the game:") and "Jeton" in line for line in lines), lines


def test_a_counter_kept_on_a_place_at_nought_is_left_out_of_the_full_list_but_told_when_it_changes():
    """The full list names the places a counter holds some on ('cubes à la chambre 8 = 1'), not
    each one it was once on and is at 0 again; a change to 0 is still told."""
    import interpreter
    from interpreter.view.narrate import counter_lines
    game = interpreter.load("seeders-exodus")
    obs = game.new_state(3, 4, {}).observation(0)
    obs["counters"].update({"cubes#c8#0": 1, "cubes#c12#0": 0})
    full = "\n".join(counter_lines(game.program, obs))
    assert "chamber 8 = 1" in full and "chamber 12" not in full, full
    changed = "\n".join(counter_lines(game.program, obs, {"cubes#c8#0": 1, "cubes#c12#0": 2}, every=False))
    assert "chamber 12 = 0" in changed and "chamber 8" not in changed, changed


def test_a_seat_sees_whose_each_piece_on_a_shared_board_is():
    """A negotiator on a slot of the board, a unit on a space: '(vous)', '(joueur 2)'; what lies
    in its owner's own zone (a hand, a personal board) is not marked."""
    import random
    import interpreter
    from interpreter.view.narrate import render_observation
    game = interpreter.load("seeders-exodus")
    state = game.new_state(3, 4, {})
    rng = random.Random(1)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    lines = render_observation(game.program, obs, lang="fr")
    slots = [line for line in lines if "emplacement de négociation" in line]
    assert slots and all(line.endswith(("(vous)", "(joueur 2)", "(joueur 3)")) for line in slots), slots
    placed = {x["owner"] for k, z in obs["zones"].items() if k.startswith("placed") for x in z}
    assert placed == {0, 1, 2}
    assert sum(line.endswith("(vous)") for line in slots) == sum(
        x["owner"] == 0 for k, z in obs["zones"].items() if k.startswith("placed") for x in z)
    [board] = [line for line in lines if line.startswith("  Votre plateau personnel")]
    assert "(" not in board


def test_a_module_crew_of_its_owner_is_not_marked_as_anothers():
    import random
    import interpreter
    from interpreter.view.narrate import render_observation
    game = interpreter.load("seeders-exodus")
    state = game.new_state(3, 7, {})
    rng = random.Random(3)
    for _ in range(200):
        state.apply(rng.choice(state.legal_actions()))
    crews = [line for line in render_observation(game.program, state.observation(0)) if line.startswith("  crew of")]
    assert crews and not any("(you)" in line or "(player" in line for line in crews), crews


def test_a_player_s_zone_is_not_taken_for_a_zone_of_the_component_of_that_number():
    """Player 2's board is zone 'board#1'. Once the seat could see component 1 (a card of its
    own, passed in the draft), the board was read as that card's, and each of player 2's pieces
    on it was marked '(player 2)' as if it lay outside its owner's zones."""
    import interpreter
    from interpreter.view.narrate import render_observation
    game = interpreter.load("seeders-exodus")
    st = game.new_state(3, 1, {})
    for _ in range(3):  # each seat keeps a card of its draft packet
        st.apply(0)
    obs = st.observation(0)
    assert any(x["id"] == 1 for z in obs["zones"].values() if isinstance(z, list) for x in z)
    lines = render_observation(game.program, obs)
    [board] = [line for line in lines if line.startswith("  player 2's personal board: ")]
    assert "Négociateur Noyau" in board and "(player 2)" not in board, board


def test_a_change_of_a_counter_on_a_seat_s_piece_says_whose_piece_it_is():
    """Every Etherium seat has a 'Jeton 1': 'revealed action on Jeton 1: +1' did not say whose;
    it is now told 'on Jeton 1 (player 2)', and 'on Jeton 1 (you)' for the seat's own."""
    import io

    import interpreter
    from interpreter.view.narrate import Narrator
    game = interpreter.load("etherium")
    st = game.new_state(3, 1, {}, trace=True)
    first = {}
    for c, card in enumerate(game.program.comp_card):
        if card.title == "Jeton 1" and game.program.comp_owner[c] is not None:
            first[game.program.comp_owner[c]] = c
    told = {lang: io.StringIO() for lang in ("en", "fr")}
    narrators = {lang: Narrator(st, 0, out, show_all=True, lang=lang) for lang, out in told.items()}
    for narrator in narrators.values():
        narrator.flush()
        narrator.out.seek(0), narrator.out.truncate()
    spec = game.program.counters["act"]
    st.add(f"act#{first[1]}", spec, 2, None)
    st.add(f"act#{first[0]}", spec, 1, None)
    for narrator in narrators.values():
        narrator.flush()
    assert [line.strip() for line in told["en"].getvalue().splitlines()] == [
        "revealed action on Jeton 1 (player 2): +2 (now 2)", "revealed action on Jeton 1 (you): +1 (now 1)"]
    assert "sur Jeton 1 (joueur 2) : +2" in told["fr"].getvalue()
