"""Where the table puts things: zone areas from scopes and hints, boards drawn from their links."""
from __future__ import annotations

import math

import interpreter
from interpreter.content.model import BoardDef
from interpreter.diagnostics import Position
from interpreter.play.web.layout import TableLayout, draw_board
from interpreter.view.texts import texts_of

from gamekit import dicts_in


def test_zones_go_where_their_scope_says_unless_a_hint_moves_them():
    layout = TableLayout(interpreter.load("karman-swap").program)
    assert layout.area["market"] == "centre" and layout.area["hand"] == "seat"
    assert layout.area["pyramid_up"] == "board" and layout.area["surface"] == "holder"
    assert layout.area["planet_box"] == "aside"  # moved by the game's hint
    assert layout.zone_sort_key("space") < layout.zone_sort_key("market") < layout.zone_sort_key("deck")


def test_a_board_drawn_in_rows_stands_on_its_first_row():
    layout = TableLayout(interpreter.load("karman-swap").program)
    nodes = {n["id"]: n for n in layout.boards[0]["nodes"]}
    assert len({nodes[f"p{i}"]["y"] for i in range(1, 6)}) == 1  # the base, one row
    assert nodes["s1"]["y"] < nodes["r1"]["y"] < nodes["q1"]["y"] < nodes["p1"]["y"]  # bottom_up
    for i in range(1, 5):  # each card of a row sits between the two it covers
        assert nodes[f"p{i}"]["x"] < nodes[f"q{i}"]["x"] < nodes[f"p{i + 1}"]["x"]


def test_the_pyramid_market_is_on_the_table_only_when_two_players_play():
    """KS-2P-1: only a 2-player game lays its Market as a pyramid; a table of 3 or 4 players
    draws no empty pyramid beside the Market it plays."""
    game = interpreter.load("karman-swap")
    layout = TableLayout(game.program)
    (board,) = layout.boards_of(game.new_state(2, seed=1))
    assert len(board["nodes"]) == 14 and len(board["edges"]) == 18
    for players in (3, 4):
        assert layout.boards_of(game.new_state(players, seed=1)) == []


def _board(n: int, edges) -> BoardDef:
    return BoardDef("b", {f"n{i}": {"kind": "spot", "name": f"spot {i}"} for i in range(n)}, edges, Position("b"), "b")


def test_a_graph_is_drawn_the_same_way_every_time_with_linked_nodes_close():
    edges = [(f"n{i}", f"n{i + 1}") for i in range(11)] + [("n0", "n6")]
    one, two = draw_board(_board(12, edges), {}), draw_board(_board(12, edges), {})
    assert one == two
    at = {n["id"]: (n["x"], n["y"]) for n in one["nodes"]}
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in at.values())
    linked = [math.dist(at[a], at[b]) for a, b in edges]
    pairs = [math.dist(at[f"n{i}"], at[f"n{j}"]) for i in range(12) for j in range(i + 1, 12)]
    assert sum(linked) / len(linked) < sum(pairs) / len(pairs)
    assert one["nodes"][3]["label"] == "spot 3"  # nodes are named by their 'name' when they have one


def test_a_grid_puts_each_node_at_its_column_and_row():
    board = BoardDef("g", {"a": {"c": 1, "r": 1}, "b": {"c": 2, "r": 1}, "d": {"c": 1, "r": 2}}, [],
                     Position("g"), "g")
    at = {n["id"]: (n["x"], n["y"]) for n in draw_board(board, {"layout": "grid", "x": "c", "y": "r"})["nodes"]}
    assert at["a"][1] == at["b"][1] < at["d"][1] and at["a"][0] == at["d"][0] < at["b"][0]


def _crossings(board) -> int:
    at = {n["id"]: (n["x"], n["y"]) for n in board["nodes"]}

    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    count = 0
    edges = board["edges"]
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) == 4 and side(at[a], at[b], at[c]) * side(at[a], at[b], at[d]) < 0 \
                    and side(at[c], at[d], at[a]) * side(at[c], at[d], at[b]) < 0:
                count += 1
    return count


def test_seeders_board_shows_the_side_its_player_count_plays_each_slot_once_chambers_numbered():
    game = interpreter.load("seeders-exodus")
    layout = TableLayout(game.program)
    for players, slots in ((2, 12), (3, 18), (4, 24)):
        (board,) = layout.boards_of(game.new_state(players, seed=1))
        assert board["title"] == "Aile des Murmures"  # its name, not its id
        kinds = {}
        for n in board["nodes"]:
            kinds.setdefault(n["attributes"]["kind"], []).append(n["label"])
        assert sorted(kinds["chamber"], key=int) == [str(i) for i in range(1, 13)]
        assert len(kinds["slot"]) == slots == len(set(kinds["slot"]))
        assert all(a in {n["id"] for n in board["nodes"]} for edge in board["edges"] for a in edge)
        if players == 2:  # the chambers round the board in the order the slots link them
            assert _crossings(board) == 0
            chamber = next(n for n in board["nodes"] if n["label"] == "1")
            assert chamber["shape"] == "round" and chamber["size"] == "large"


def _overlapping(board, holds: bool) -> list:
    """The pairs of nodes of `board` whose boxes, as long as their labels, fall on one another."""
    from interpreter.play.web.layout import node_box
    nodes = board["nodes"]
    boxes = [node_box(n["label"], n.get("size"), len(nodes), holds) for n in nodes]
    return [(a["label"], b["label"]) for i, a in enumerate(nodes) for j, b in enumerate(nodes) if i < j
            and (boxes[i][0] + boxes[j][0]) / 2 - abs(a["x"] - b["x"]) > 1e-4
            and (boxes[i][1] + boxes[j][1]) / 2 - abs(a["y"] - b["y"]) > 1e-4]


def test_slots_across_the_ring_do_not_fall_on_one_another_in_any_language():
    """Chords that cross near the centre put their midpoints together: the slots drawn there are
    pushed apart until their boxes, as long as their labels in the table's language (French
    says 'emplacement de négociation 1-2' on two lines, English 'slot 1-2'), do not overlap, and
    stay near the chambers they link; the chambers stay on their ring; the same drawing every time."""
    from interpreter.view.texts import texts_of
    game = interpreter.load("seeders-exodus")
    layout = TableLayout(game.program)
    assert layout._holds  # a card placed on a slot: each box has room for it
    for lang in ("en", "fr"):
        told = texts_of(game.program, lang)
        for players in (2, 3, 4):
            state = game.new_state(players, seed=1)
            (board,) = layout.boards_of(state, told)
            said = "slot " if lang == "en" else "emplacement de négociation "
            assert sum(n["label"].startswith(said) for n in board["nodes"]) == 6 * players
            assert _overlapping(board, True) == [], (lang, players)
            at = {n["id"]: (n["x"], n["y"]) for n in board["nodes"]}
            assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in at.values())
            chambers = [n for n in board["nodes"] if n["attributes"]["kind"] == "chamber"]
            assert all(n.get("fixed") for n in chambers) and not any(n.get("fixed") for n in board["nodes"]
                                                                    if n not in chambers)
            assert all(abs(math.dist(at[n["id"]], (0.5, 0.5)) - 0.45) < 1e-3 for n in chambers)
            ends = {}
            for a, b in board["edges"]:
                ends.setdefault(a, []).append(b)
            for n, linked in ends.items():
                if n.startswith("c") or len(linked) != 2:
                    continue
                (ax, ay), (bx, by), (x, y) = at[linked[0]], at[linked[1]], at[n]
                assert math.dist((x, y), ((ax + bx) / 2, (ay + by) / 2)) < 0.25, n  # near what it joins
            assert TableLayout(game.program).boards_of(state, told) == [board]


def test_a_box_is_as_long_as_its_label_and_wraps_at_the_tables_width():
    from interpreter.play.web.layout import node_box
    short = node_box("slot 1-2", "small", 36, False)
    long_ = node_box("emplacement de négociation 1-2", "small", 36, False)
    assert short[0] < long_[0] and short[1] < long_[1]  # wider, and on two lines
    assert node_box("slot 1-2", "small", 36, True)[1] > short[1]  # room for a card placed on it
    assert node_box("x" * 200, None, 36, False)[0] == node_box("x" * 100, None, 36, False)[0]  # at most 9rem
    assert node_box("slot 1-2", "small", 100, False)[1] < short[1]  # a taller board for more nodes


def test_etherium_spaces_have_their_terrain_colour_and_height_and_no_socket_is_drawn_in_a_first_game():
    game = interpreter.load("etherium")
    boards = TableLayout(game.program).boards_of(game.new_state(2, seed=1))
    assert [b["id"] for b in boards] == ["first-game"]  # the experienced board's sockets hold nothing
    nodes = {n["id"]: n for n in boards[0]["nodes"]}
    assert nodes["ether"]["details"] == ["ether", "height 2"] and nodes["large-n-1"]["details"] == ["mountain", "height 3"]
    assert nodes["small-n"]["colour"] == nodes["small-e"]["colour"] != nodes["ether"]["colour"]
    assert nodes["ether"]["x"] == nodes["ether"]["y"] == 0.5  # placed where the hint puts it
    # a French table says what is under each label in French, as the game's vocabulary does
    french = TableLayout(game.program).boards_of(game.new_state(2, seed=1), texts_of(game.program, "fr"))
    said = {n["id"]: n for n in french[0]["nodes"]}
    assert said["large-n-1"]["details"] == ["montagne", "hauteur 3"] and said["large-n-1"]["label"] == "case 3"
    assert said["ether"]["details"] == ["Éther", "hauteur 2"]
    assert french[0]["title"] == "Etherium, plateau de la première partie"
    assert boards[0]["title"] == "Etherium, first-game layout"


def test_each_piece_a_seat_sees_says_whose_it_is():
    from interpreter.play.web.views import CardTexts, TableView
    game = interpreter.load("etherium")
    st = game.new_state(2, seed=1)
    for _ in range(500):  # up to the figures of both players on the board
        if st.pending is None or sum(len(z) for k, z in st.zones.items() if k.startswith("units")) >= 4:
            break
        st.apply(0)
    layout = TableLayout(game.program)
    view = TableView(st, layout, CardTexts(game.program), 0).data(["person", "person"])
    units = [c for b in view["boards"] for n in b["nodes"] for z in n["zones"] for c in z.get("components", [])]
    assert units and all(c["owner"] in (0, 1) for c in units)
    assert {c["owner"] for c in units} == {0, 1}


def test_hints_naming_what_a_board_lacks_are_errors():
    from interpreter.language.check_table import check_table_hints
    defn = interpreter.load("seeders-exodus").program.defn
    errors = []
    hint = {"layout": "ring", "ring_kind": "chambre", "shown": "n.kind ==", "colour": "terrain",
            "details": ["number", "heigth"], "kinds": {"slot": {"label": "nom"}, "door": {}},
            "places": {"c1": [0, 0], "c99": [1, 1]}, "colours": {"x": "#12345g"}}
    saved = defn.table
    try:
        defn.table = {"boards": {"aile-des-murmures": hint}}
        check_table_hints(defn, lambda code, pos, message, hint=None: errors.append(message))
    finally:
        defn.table = saved
    text = "\n".join(errors)
    for said in ("no node of kind 'chambre'", "no node of kind 'door'", "no node 'c99'", "unknown attribute 'terrain'",
                 "unknown attribute 'heigth'", "unknown attribute 'nom'", "'shown' is not a condition",
                 "'#12345g' of 'x' is not a colour"):
        assert said in text, (said, text)
    assert len(errors) == 8


def test_a_cards_counters_at_nought_are_not_drawn_on_it():
    """A planet holding no dome is drawn without 'domes 0': a counter of a card at 0 is as if
    the card held none; one that is not 0 is drawn with its value."""
    import random
    from interpreter.engine import keys
    from interpreter.play.web.views import CardTexts, TableView
    game = interpreter.load("karman-swap")
    st = game.new_state(2, seed=3)
    rng = random.Random(3)
    while not st.is_terminal():
        held = {keys.owners_of(k)[0]: v for k, v in st.counters.items()
                if keys.name_of(k) in ("dome", "colonising") and keys.owners_of(k)}
        if 0 in held.values() and any(held.values()):
            break
        st.apply(rng.randrange(len(st.legal_actions())))
    view = TableView(st, TableLayout(game.program), CardTexts(game.program), None).data(["person", "person"])
    counters = [k for c in _drawn(view) for k in c.get("counters", [])]
    assert counters, "a card holds a counter that is not 0"
    assert all(k["value"] != 0 for k in counters), counters


def test_a_places_counters_at_nought_are_not_drawn_on_it():
    """A chamber where a player has no influence cube left shows no cube of that player: after a
    round is scored every chamber's cubes go back to 0, and the board drew '0 0 0' on each."""
    import random
    from interpreter.engine import keys
    from interpreter.play.web.views import CardTexts, TableView
    game = interpreter.load("seeders-exodus")
    st = game.new_state(3, seed=3)
    rng = random.Random(3)
    while not st.is_terminal():
        cubes = [v for k, v in st.counters.items() if keys.name_of(k) == "cubes"]
        if 0 in cubes and any(cubes):
            break
        st.apply(rng.randrange(len(st.legal_actions())))
    for lang, noun in (("en", "influence cubes"), ("fr", "cubes d'influence")):
        view = TableView(st, TableLayout(game.program), CardTexts(game.program), None, lang=lang).data(["person"] * 3)
        drawn = [k for board in view["boards"] for node in board["nodes"] for k in node.get("counters", [])]
        assert drawn, "a chamber holds a player's cubes"
        assert all(k["value"] != 0 for k in drawn), drawn
        assert {k.get("counter") for k in drawn} == {noun}, drawn  # named once, as a count


def test_a_class_a_card_has_is_drawn_in_the_words_of_the_tables_language():
    """The chip and the card panel say a class as the vocabulary gives it ('carte dont la pose a
    servi', 'est une carte dont...'), not as the rules keep it ('posed')."""
    import random
    from interpreter.play.web.views import CardTexts, TableView
    game = interpreter.load("karman-swap")
    st = game.new_state(2, seed=3)
    rng = random.Random(3)
    while not st.tags and not st.is_terminal():
        st.apply(rng.randrange(len(st.legal_actions())))
    assert st.tags, "a card gained a class"
    for lang, one, a in (("fr", "carte dont la pose a servi", "une carte dont la pose a servi"),
                         ("en", "card whose pose was used", "a card whose pose was used")):
        view = TableView(st, TableLayout(game.program), CardTexts(game.program), None, lang=lang).data(["person"] * 2)
        tagged = [c for c in _drawn(view) if c.get("tags")]
        assert tagged and all(c["tags"] == ["posed"] and c["tags_said"] == [one] and c["tags_a"] == [a]
                              for c in tagged), tagged



def _drawn(view):
    """Every component a table view draws, wherever it lies (a zone, a board's node, a card)."""
    return [x for x in dicts_in(view) if "card" in x and "id" in x]
