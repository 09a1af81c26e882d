"""The web table in a real browser: headless Chromium, from the system's packages, driven by
Selenium with the system's ChromeDriver.

A person plays a whole 2-player Karman Swap against a bot by clicking; its trace is then
replayed backwards and forwards, each event's cause on screen; in each shipped game a player
points at a card and a space and reads the panel, finds whose each piece on the board is,
and reads a log that loses nothing after moves (Seeders' board: each slot of the side in
play once); two browsers play one Seeders game, each seeing its own hand and never the
other's; a card titled with markup shows as text. One browser and one server serve most
tests (module fixtures): a browser costs seconds to start. The tests are skipped, saying
why, where no browser is installed (`.ci/run` installs one). With
REGLES_SCREENSHOTS=FOLDER they save the pictures of the docs there (docs/images).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install 'regles[test]')")
pytest.importorskip("uvicorn")
from browsing import CHROMEDRIVER, CHROMIUM
from browsing import browser as _browser
from browsing import click_first_option as _click_first_option
from browsing import offered as _options
from browsing import over as _over
from browsing import wait as _wait
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from served import Served

SHOTS = os.environ.get("REGLES_SCREENSHOTS")


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.stop()


def test_a_person_plays_karman_swap_to_the_end_by_clicking_then_replays_it(shared):
    served, d = shared
    d.get(served.base + "/")
    _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#game option[value='karman-swap']"))
    d.find_element(By.CSS_SELECTOR, "#game option[value='karman-swap']").click()
    _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "form[data-ready='karman-swap']"))
    seats = d.find_elements(By.CSS_SELECTOR, "#seats select")
    assert [s.get_attribute("value") for s in seats] == ["person", "greedy"]
    d.find_element(By.ID, "seed").send_keys("11")
    d.find_element(By.ID, "start").click()
    _wait(d, lambda: d.find_elements(By.ID, "open-table")).__getitem__(0).click()
    _wait(d, lambda: _options(d) or _over(d))
    assert "You are player 1" in d.find_element(By.ID, "status").text
    assert d.find_elements(By.CSS_SELECTOR, ".board .node"), "the Market pyramid is drawn from its board"
    if SHOTS:
        time.sleep(0.2)
        d.save_screenshot(str(Path(SHOTS) / "web-table.png"))
        _shot(d, "web-karman-swap-start.png")
    _reads_the_start(d, served, "karman-swap")
    log = LogWatch(d)
    clicks = 0
    while not _over(d):
        assert clicks < 600, "the game does not end"
        before = d.find_element(By.ID, "decision").text
        if _click_first_option(d):
            clicks += 1
            _wait(d, lambda before=before: d.find_element(By.ID, "decision").text != before or _over(d))
        _wait(d, lambda: _options(d) or _over(d))
        log.after_decision()
        if SHOTS and clicks == 9:  # a creature of the hand read in the panel
            hand = d.find_elements(By.CSS_SELECTOR, ".seat.mine .comp")
            if hand:
                _hover(d, hand[0])
            _shot(d, "web-karman-swap-mid.png")
    assert clicks > 10 and log.bots_seen
    over = _over(d)[0].text
    assert over.startswith("Game over.") and "Rounds won:" in over  # Karman Swap is won by rounds (standing:)
    log = d.find_element(By.ID, "log").text
    assert "You chose" in log and "Player 2 chose" in log

    d.find_element(By.LINK_TEXT, "Replay this game").click()
    _wait(d, lambda: len(d.find_elements(By.CSS_SELECTOR, "#events li")) > 50)
    events = d.find_elements(By.CSS_SELECTOR, "#events li")
    _wait(d, lambda: "Event 0:" in d.find_element(By.ID, "event").text)
    forward = d.find_element(By.ID, "forward")
    for _ in range(40):
        forward.click()
    _wait(d, lambda: "Event 40:" in d.find_element(By.ID, "event").text)
    assert d.current_url.endswith("#event-40")
    cause = d.find_element(By.CSS_SELECTOR, "#event .cause").text
    assert cause.startswith("Caused by karman-swap/") and ".yaml:" in cause
    _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#table .marked"))
    for _ in range(15):
        d.find_element(By.ID, "back").click()
    _wait(d, lambda: "Event 25:" in d.find_element(By.ID, "event").text)
    assert d.current_url.endswith("#event-25")
    d.find_element(By.ID, "last").click()
    _wait(d, lambda: f"Event {len(events) - 1}:" in d.find_element(By.ID, "event").text)
    assert "wins" in d.find_element(By.ID, "event").text or "win" in d.find_element(By.ID, "event").text
    if SHOTS:
        d.find_element(By.ID, "first").click()
        for _ in range(41):
            d.find_element(By.ID, "forward").click()
        _wait(d, lambda: "Event 41:" in d.find_element(By.ID, "event").text)
        time.sleep(0.3)
        d.save_screenshot(str(Path(SHOTS) / "web-replay.png"))
    d.get(d.current_url.split("#")[0] + "#event-7")  # a link to one event opens on it
    _wait(d, lambda: "Event 7:" in d.find_element(By.ID, "event").text)


@pytest.mark.slow  # a whole Seeders game in two browsers, a minute: what each seat is sent is
# checked on the JSON in the default suite (test_server.py), and a game by clicking with Karman Swap
def test_two_browsers_play_one_seeders_game_each_hiding_its_hand(served):
    made = served.post("/api/tables", {"game": "seeders-exodus", "players": 2, "seats": ["person", "person"],
                                       "seed": 5})
    pages = [_browser(), _browser()]
    try:
        for s, page in enumerate(pages):
            page.get(served.base + made["seats"][s]["link"].split(str(served.port), 1)[1])
        for s, page in enumerate(pages):
            _wait(page, lambda s=s, page=page: f"You are player {s + 1}" in page.find_element(By.ID, "status").text)
        clicks, checked = 0, 0
        while not _over(pages[0]) or not _over(pages[1]):
            assert clicks < 600, "the game does not end"
            moved = False
            for s, page in enumerate(pages):
                if _options(page):
                    other = page.find_element(By.CSS_SELECTOR, f".seat[data-seat='{1 - s}']")
                    hand = [z for z in other.find_elements(By.CSS_SELECTOR, ".zone")
                            if z.find_element(By.CSS_SELECTOR, "h4 span").text == "hand"]
                    if hand and clicks % 10 == 0:  # the other's hand: face down, never its cards
                        assert "hidden-zone" in hand[0].get_attribute("class")
                        assert not hand[0].find_elements(By.CSS_SELECTOR, ".comp")
                        mine = page.find_element(By.CSS_SELECTOR, f".seat[data-seat='{s}']")
                        checked += len(mine.find_elements(By.CSS_SELECTOR, ".zone .comp"))
                    before = page.find_element(By.ID, "decision").text
                    if _click_first_option(page):
                        clicks += 1
                        moved = True
                        _wait(page, lambda page=page, before=before:
                              page.find_element(By.ID, "decision").text != before or _over(page))
            if not moved:
                _wait(pages[0], lambda: _options(pages[0]) or _options(pages[1]) or
                      (_over(pages[0]) and _over(pages[1])))
        assert clicks > 50 and checked > 0
        assert _over(pages[0])[0].text == _over(pages[1])[0].text
    finally:
        for page in pages:
            page.quit()


def test_a_title_written_as_markup_shows_as_text(tmp_path):
    game = tmp_path / "markup"
    game.mkdir()
    (game / "game.yaml").write_text(
        "kind: game\nid: markup\ntitle: 'Markup <b>bold</b>'\nplayers: {min: 2, max: 2}\n"
        "zones:\n  table: {scope: game, visibility: public}\ncounters:\n  pp: {scope: player}\nscore: pp\n"
        "procedures:\n  game: |\n    choose c from table by players[1] \"Pick <i>one</i>\"\n    move c to table\n",
        encoding="utf-8")
    (game / "cards.yaml").write_text(
        "kind: cards\ngame: markup\nstart: table\ncards:\n"
        "  - {id: a, title: \"<img src=x onerror=\\\"document.title='pwned'\\\">\"}\n"
        "  - {id: b, title: \"<script>document.title='pwned'</script>\"}\n", encoding="utf-8")
    s = Served(tmp_path / "data", str(game))
    d = _browser()
    try:
        made = s.post("/api/tables", {"game": str(game), "players": 2, "seats": ["person", "person"], "seed": 1})
        d.get(s.base + made["link"])
        _wait(d, lambda: _options(d))
        titles = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".comp-title")]
        assert "<img src=x onerror=\"document.title='pwned'\">" in titles
        assert "<script>document.title='pwned'</script>" in titles
        assert "Pick <i>one</i>" in d.find_element(By.CSS_SELECTOR, "#decision .prompt").text
        assert not d.find_elements(By.CSS_SELECTOR, "#table img, #table script, #decision i")
        assert d.title != "pwned"
    finally:
        d.quit()
        s.stop()


def test_hot_seat_covers_the_table_until_the_next_person_asks_to_see_it(shared):
    served, d = shared
    made = served.post("/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                       "seed": 2})
    d.get(served.base + made["link"])  # the maker's link: every person's seat, on one screen
    _wait(d, lambda: _options(d))
    assert "You are player 1" in d.find_element(By.ID, "status").text
    for _ in range(60):
        if d.find_element(By.ID, "cover").is_displayed():
            break
        before = d.find_element(By.ID, "decision").text
        if _click_first_option(d):
            _wait(d, lambda before=before: d.find_element(By.ID, "decision").text != before or
                  d.find_element(By.ID, "cover").is_displayed())
    assert d.find_element(By.ID, "cover").is_displayed(), "player 2's turn never came"
    assert d.find_element(By.ID, "cover-text").text.startswith("Player 2's turn")
    if SHOTS:
        _shot(d, "web-hot-seat-cover.png")
    assert not d.find_element(By.ID, "main").is_displayed()  # player 1's hand is no longer on screen
    d.find_element(By.ID, "cover-button").click()
    _wait(d, lambda: "You are player 2" in d.find_element(By.ID, "status").text and _options(d))
    assert d.find_element(By.CSS_SELECTOR, ".seat.mine").get_attribute("data-seat") == "1"


# ---- what a player reads at the table: one browser and one server for every game --------------
# (each game is one session of the browser: the hover panel, a space, the owners, the log after
# moves and, with REGLES_SCREENSHOTS, the pictures of docs/web.md at the start and in mid-game)

def test_a_table_made_in_french_is_told_in_french(shared):
    """The start page in the language chosen, and the table made there told in it: its words,
    the log, the seats' names; the page's language for a screen reader."""
    served, d = shared
    d.get(served.base + "/")
    _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#game option[value='karman-swap']"))
    try:
        d.find_element(By.CSS_SELECTOR, "#lang option[value='fr']").click()
        _wait(d, lambda: d.find_element(By.TAG_NAME, "h1").text == "Une nouvelle table")
        # the scenarios offered by their French titles (the list of games is asked again in French)
        _wait(d, lambda: _chosen(d, "#game option[value='seeders-exodus']"))
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "form[data-ready='seeders-exodus']"))
        _wait(d, lambda: _text(d, "#scenario option[value='etho-2j']") == "Le Conclave")
        assert _text(d, "#game option:checked") == "Seeders from Sereis, Episode I: Exodus"
        d.find_element(By.CSS_SELECTOR, "#game option[value='karman-swap']").click()
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "form[data-ready='karman-swap']"))
        seats = d.find_elements(By.CSS_SELECTOR, "#seats label")
        assert seats[0].text.startswith("Joueur 1") and "une personne" in seats[0].text
        d.find_element(By.ID, "start").click()
        link = _wait(d, lambda: d.find_elements(By.ID, "open-table"))[0]
        assert link.text == "Ouvrir la table sur cet écran"
        link.click()
        _wait(d, lambda: _options(d) or _over(d))
        assert d.find_element(By.ID, "status").text == "Vous êtes joueur 1"
        assert d.find_element(By.CSS_SELECTOR, ".log-box h2").text == "Ce qui s'est passé"
        assert d.execute_script("return document.documentElement.lang") == "fr"
        assert "2 joueurs, graine" in _log_lines(d)[0]
        assert [e.text for e in d.find_elements(By.CSS_SELECTOR, ".legend-seat")][:2] == ["joueur 1 (vous)", "joueur 2"]
        # the counters at 0 (every team's PP at the start) named in one line, as the empty zones
        # are; at 2 players each team is one player, so no counter is marked as a team's
        assert "0" not in [e.text for e in d.find_elements(By.CSS_SELECTOR, "ul.counters .value")]
        nought = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".nought-counters")]
        assert nought and all(t.startswith("à 0 : ") for t in nought), nought
        assert any("PP, gemmes de recherche" in t for t in nought), nought
        assert not any("(équipe)" in t for t in nought), nought
        # what is left in the supplies, under one « en réserve : », each by its noun alone
        supplies = d.find_element(By.CSS_SELECTOR, "ul.counters.supplies").text
        assert supplies.startswith("en réserve :") and "gemmes de recherche" in supplies, supplies
        assert supplies.count("en réserve") == 1, supplies
    finally:  # the browser is shared: the next page is in English again
        d.get(served.base + "/")
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#lang option[value='en']"))[0].click()
        _wait(d, lambda: d.find_element(By.TAG_NAME, "h1").text == "A new table")


def test_a_narrow_seat_s_heading_goes_on_to_a_second_line_rather_than_overflow(shared):
    """Four seats side by side: the French heading « joueur 1 (vous) personne ● connecté score 0 »
    is wider than its seat's box, and the score was cut off at its edge."""
    served, d = shared
    made = served.post("/api/tables", {"game": "karman-swap", "players": 4, "seed": 2, "lang": "fr",
                                       "seats": ["person", "greedy", "greedy", "greedy"]})
    d.get(served.base + made["link"])
    _wait(d, lambda: _options(d) or _over(d))
    spill = d.execute_script(
        "return [...document.querySelectorAll('.seat h3')].map(h => { const box = h.getBoundingClientRect();"
        " return [...h.children].filter(c => c.getBoundingClientRect().right > box.right + 1)"
        ".map(c => c.textContent); })")
    assert len(spill) == 4 and not any(spill), spill


def test_a_player_asks_why_a_move_is_not_offered_and_the_answer_ages_with_the_table(shared):
    """A French table: the seat asks, in the 'why not?' box, about an option by the label it
    reads (offered) and about a move that names nothing (the rules' line, with its caret);
    once the table moves on, the answer says it is older than the table. A spectator has no box."""
    served, d = shared
    made = served.post("/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "greedy"],
                                       "seed": 6, "lang": "fr"})
    d.get(served.base + made["link"])
    first = _wait(d, lambda: _options(d))[0].text
    box = d.find_element(By.ID, "why")
    assert box.is_displayed() and box.find_element(By.TAG_NAME, "summary").text == "Pourquoi ne puis-je pas… ?"
    box.find_element(By.TAG_NAME, "summary").click()
    offered = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#why-moves option")]
    assert offered[0] == first  # what may be asked of: the options, then the cards the page shows
    shown = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#table .comp-title")}
    assert shown and shown <= set(offered)

    def ask(move):
        before = _text(d, "#why-answer")
        field = d.find_element(By.ID, "why-move")
        field.clear()
        field.send_keys(move + "\n")  # Enter asks
        _wait(d, lambda: _text(d, "#why-answer") not in (before, None) and _text(d, "#why-answer .why-said"))
        return _text(d, "#why-answer .why-said")
    assert ask(first).startswith(f"« {first} » est proposé maintenant : option 1")
    assert ask("Attaquer la lune").startswith("Aucune option, carte ni action « Attaquer la lune »")
    line = _text(d, "#why-answer .why-line")
    assert line.startswith("karman-swap/") and "^" in line
    assert not d.find_element(By.CSS_SELECTOR, "#why-answer .why-older").is_displayed()
    _click_first_option(d)
    _wait(d, lambda: d.find_element(By.CSS_SELECTOR, "#why-answer .why-older").is_displayed())
    assert _text(d, "#why-answer .why-older") == "La table a changé depuis cette réponse : redemandez."
    watch = served.get(f"/api/tables/{made['id']}?key={made['owner_key']}")["watch_links"][0]["link"]
    d.get(served.base + watch)
    _wait(d, lambda: (_text(d, "#status") or "").startswith("Vous regardez"))
    assert not d.find_element(By.ID, "why").is_displayed()


def test_what_the_board_s_nodes_hold_never_hides_another_node(shared):
    """Mid-game in French, Seeders' slots hold negotiators and its chambers their cards and
    cubes: every node's box, as the page draws it, falls on no other, and each link still joins
    the centres of the nodes it links."""
    import random

    import interpreter
    from interpreter.rulings.trace import save_state_trace
    served, d = shared
    game = interpreter.load("seeders-exodus")
    st = game.new_state(4, 3, game.options({}), trace=True)
    rng = random.Random(3)
    while not st.is_terminal() and len(st.trace) < 900:
        st.apply(rng.randrange(len(st.legal_actions())))
    (served.folder / "traces").mkdir(exist_ok=True)
    save_state_trace(served.folder / "traces" / "crowded-board.jsonl", game, st, agents=["random"] * 4)
    d.get(served.base + "/replay/crowded-board?lang=fr#event-899")
    _wait(d, lambda: len(d.find_elements(By.CSS_SELECTOR, ".board .node .comp")) >= 12)
    boxes = d.execute_script("""
        return [...document.querySelectorAll('.board .node')].map(n => {
            const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, n.dataset.node]; });""")
    assert len(boxes) == 36
    on_top = [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
              if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1]
    assert on_top == []
    apart = d.execute_script("""
        const area = document.querySelector('.board-area'), r = area.getBoundingClientRect();
        const at = {};
        for (const n of area.querySelectorAll('.node')) {
            const b = n.getBoundingClientRect();
            at[n.dataset.node] = [((b.left + b.right) / 2 - r.left) / r.width * 1000,
                                  ((b.top + b.bottom) / 2 - r.top) / r.height * 1000];
        }
        const off = (x, y, p) => Math.hypot(x.baseVal.value - p[0], y.baseVal.value - p[1]);
        return [...area.querySelectorAll('line')].map(l =>
            off(l.x1, l.y1, at[l.dataset.a]) + off(l.x2, l.y2, at[l.dataset.b]));""")
    assert apart and max(apart) < 5  # in thousandths of the board


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    s = Served(tmp_path_factory.mktemp("tables"))
    d = _browser()
    yield s, d
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    d.quit()
    s.stop()
    assert not errors, f"the page logged errors: {errors}"


def _shot(d, name: str) -> None:
    """The whole page as picture `name` of the docs (with REGLES_SCREENSHOTS), its log at its end."""
    d.execute_script("window.scrollTo(0, 0); const l = document.getElementById('log'); if (l) l.scrollTop = l.scrollHeight;")
    height = min(2400, d.execute_script("return document.documentElement.scrollHeight"))
    d.set_window_size(1400, height)
    time.sleep(0.3)
    d.save_screenshot(str(Path(SHOTS) / name))
    d.set_window_size(1400, 1000)


def _log_lines(d) -> list:
    return d.execute_script("return [...document.querySelectorAll('#log li:not(.since)')].map(l => l.textContent)")


def _hover(d, element):
    from selenium.webdriver.common.action_chains import ActionChains
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(d).move_to_element(element).perform()


def _panel(d, what: str) -> dict:
    """What the card panel shows once it shows `what` ('card' or 'node'): its title, its
    attributes (name -> value), its face, its owner line."""
    _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, f".card-panel .shown[data-{what}]"), 10)
    return d.execute_script("""
        const p = document.querySelector('.card-panel .shown');
        const dts = [...p.querySelectorAll('dl.attrs dt')].map(e => e.textContent);
        const dds = [...p.querySelectorAll('dl.attrs dd')].map(e => e.textContent);
        return {title: p.querySelector('h3').textContent, text: p.textContent,
                attrs: Object.fromEntries(dts.map((k, i) => [k, dds[i]])),
                face: [...p.querySelectorAll('.face p')].map(e => e.textContent),
                owner: (p.querySelector('.owner') || {}).textContent || null};""")


def _view(served, d) -> dict:
    """The view the page shows, as the server sends it (the table and key from the page's address)."""
    import json
    import urllib.request
    path = d.current_url.split(str(served.port), 1)[1].replace("/table/", "/api/tables/", 1)
    with urllib.request.urlopen(served.base + path, timeout=30) as r:
        return json.loads(r.read())


def _text(d, css: str):
    """The text of the element `css` finds, None while there is none (the page draws it again)."""
    try:
        return d.find_element(By.CSS_SELECTOR, css).text
    except (NoSuchElementException, StaleElementReferenceException):
        return None


def _chosen(d, css: str) -> bool:
    """Whether the option `css` finds could be chosen (False while the page draws it again)."""
    try:
        d.find_element(By.CSS_SELECTOR, css).click()
        return True
    except (NoSuchElementException, StaleElementReferenceException):
        return False


def _decide(d, pick=0) -> None:
    """Pick option `pick` (from the end when negative) and wait for the next decision."""
    before = len(_log_lines(d))  # each decision is told ("You chose ...")
    for _ in range(5):
        options = _options(d)
        try:
            options[pick].click()
            break
        except (StaleElementReferenceException, IndexError):
            _wait(d, lambda: _options(d) or _over(d))
    _wait(d, lambda: len(_log_lines(d)) > before or _over(d))
    _wait(d, lambda: _options(d) or _over(d))


def _reads_the_start(d, served, game: str) -> None:
    """At a game's first decision: a card in the panel (each attribute, the face, the owner),
    a space (its attributes), the board's title, the legend of the seats' colours."""
    view = _view(served, d)
    chips = [c for c in d.find_elements(By.CSS_SELECTOR, ".seat.mine .comp, .centre .comp")
             if view["cards"].get(c.get_attribute("data-card"), {}).get("attributes")]
    assert chips, "no card to point at"
    chip = chips[0]
    card = view["cards"][chip.get_attribute("data-card")]
    _hover(d, chip)
    panel = _panel(d, "card")
    assert "[object" not in panel["text"]
    assert panel["title"] == card["title"]
    for name, value in card["attributes"].items():
        if value not in (None, "") and name != "id":
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            assert panel["attrs"].get(card["names"][name]) == shown, (name, panel)  # as the vocabulary names it
    assert panel["face"] == [t for t in card["text"] if t]
    if chip.get_attribute("data-owner") is not None:
        owner = int(chip.get_attribute("data-owner"))
        assert panel["owner"] == "Owner: " + view["seats"][owner]["name"] + (" (you)" if owner == 0 else "")
    if game == "karman-swap":  # a creature's colour and value can be read, in the table's language
        creature = next(c for c in d.find_elements(By.CSS_SELECTOR, ".seat.mine .comp")
                        if view["cards"][c.get_attribute("data-card")]["attributes"].get("category") == "Creature")
        _hover(d, creature)
        title = view["cards"][creature.get_attribute("data-card")]["title"]
        _wait(d, lambda: d.find_element(By.CSS_SELECTOR, ".card-panel h3").text == title)
        shown = _panel(d, "card")["attrs"]
        assert shown.get("colour") in ("Red", "Green", "Blue") and shown.get("value", "").isdigit(), shown
        assert "Owner: player 1 (you)" == _panel(d, "card")["owner"]  # (in the hand: the seat holding it)

    board = view["boards"][0]
    node = d.find_elements(By.CSS_SELECTOR, ".board .node")[0]
    spec = next(n for n in board["nodes"] if n["id"] == node.get_attribute("data-node"))
    _hover(d, node)
    panel = _panel(d, "node")
    assert panel["title"] == spec["label"] and "[object" not in panel["text"]
    for name, value in spec["attributes"].items():
        if name != "id" and value not in (None, ""):
            assert panel["attrs"].get(name.replace("_", " ")) == str(value), (name, panel)
    assert d.find_element(By.CSS_SELECTOR, ".board h2 span").text == board["title"]
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, ".legend-seat")][:2] == ["player 1 (you)", "player 2"]


class LogWatch:
    """The log read after each decision: no line told is ever lost, and the bots' moves since the
    seat's last decision are marked new."""

    def __init__(self, d):
        self.d = d
        self.told = _log_lines(d)
        self.bots_seen = 0
        assert self.told, "the log is empty at the start"

    def after_decision(self) -> None:
        n = len(self.told)  # (the lines read before are checked at both ends, the new ones read)
        got = self.d.execute_script("""
            const lines = [...document.querySelectorAll('#log li:not(.since)')];
            return {count: lines.length, first: lines[0].textContent, last: lines[arguments[0] - 1].textContent,
                    fresh: lines.slice(arguments[0]).map(l => l.textContent)};""", n)
        assert got["count"] >= n and got["first"] == self.told[0] and got["last"] == self.told[-1], "the log lost lines"
        if any(line.startswith("Player 2 chose") for line in got["fresh"]):
            assert self.d.find_elements(By.CSS_SELECTOR, "#log li.since"), "what is new is not marked"
            new = [e.text for e in self.d.find_elements(By.CSS_SELECTOR, "#log li.new")]
            assert any(line.startswith("Player 2 chose") for line in new)
            self.bots_seen += 1
        self.told = self.told + got["fresh"]


GAMES = {"seeders-exodus": (5, 10), "etherium": (3, 10)}  # game: (seed, decisions before the mid-game picture)
# (Karman Swap is read in the test above, which plays a whole game by clicking)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_player_reads_the_table_cards_spaces_owners_and_the_log(shared, game):
    served, d = shared
    seed, moves = GAMES[game]
    made = served.post("/api/tables", {"game": game, "players": 2, "seats": ["person", "greedy"], "seed": seed})
    d.get(served.base + made["seats"][0]["link"].split(str(served.port), 1)[1])
    _wait(d, lambda: _options(d))
    time.sleep(0.2)
    if SHOTS:
        _shot(d, f"web-{game}-start.png")
    _reads_the_start(d, served, game)

    log = LogWatch(d)
    for i in range(3 * moves):
        if _over(d) or (i >= moves and log.bots_seen and d.find_elements(By.CSS_SELECTOR, ".board .comp[data-owner]")):
            break  # (a picture of the middle of the game with pieces of both players on the board)
        _decide(d)
        log.after_decision()
    assert log.bots_seen, "the bot never moved between two decisions"

    # the units on the board: each shows its owner
    owned = d.find_elements(By.CSS_SELECTOR, ".board .comp[data-owner]")
    assert owned, "no piece of a player on the board"
    assert {int(c.get_attribute("data-owner")) for c in owned} <= {0, 1}
    unit = owned[0]
    assert "owned" in unit.get_attribute("class")
    _hover(d, unit)
    owner = int(unit.get_attribute("data-owner"))
    assert _panel(d, "card")["owner"] == "Owner: " + ("player 1 (you)" if owner == 0 else "player 2")
    if game == "etherium":
        nodes = d.find_elements(By.CSS_SELECTOR, ".board .node")
        assert len(nodes) == 25  # the first-game board, no socket of the experienced one
        details = {n.get_attribute("data-node"): n.find_element(By.CSS_SELECTOR, ".node-details").text for n in nodes}
        assert details["ether"] == "ether · height 2" and details["large-n-1"] == "mountain · height 3"
        assert "background" in d.find_element(By.CSS_SELECTOR, ".node[data-node='ether']").get_attribute("style")
    if game == "seeders-exodus":
        slots = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".node[data-kind='slot'] > .node-label")]
        assert len(slots) == 12 and len(set(slots)) == 12, slots  # the 2-player side, each slot once
        chambers = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".node[data-kind='chamber'] > .node-label")]
        assert sorted(chambers, key=int) == [str(i) for i in range(1, 13)]
        assert d.find_element(By.CSS_SELECTOR, ".board h2 span").text == "Aile des Murmures"
    if SHOTS:
        _shot(d, f"web-{game}-mid.png")


# ---- accessibility: axe-core (Deque, MPL-2.0; tests/play/web/axe.min.js, version 4.14) run in the page ----

AXE = Path(__file__).with_name("axe.min.js")


def _serious(d, impacts=("serious", "critical")) -> list:
    """The violations axe-core finds in the page shown, of the impacts named (serious or critical)."""
    d.set_script_timeout(60)
    d.execute_script(AXE.read_text(encoding="utf-8"))
    found = d.execute_async_script(
        "const done = arguments[0]; axe.run(document).then(r => done(r.violations.map(v => "
        "({id: v.id, impact: v.impact, where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))));")
    return [v for v in found if v["impact"] in impacts]


def test_the_pages_have_no_serious_accessibility_violation(tmp_path):
    import interpreter
    from interpreter.rulings.trace import save_state_trace
    from interpreter.runs.simulate import play_game
    game = interpreter.load("karman-swap")
    state, error, _ = play_game(game, 2, 5, game.options({}), ["greedy", "greedy"], trace=True)
    assert error is None
    (tmp_path / "traces").mkdir()
    save_state_trace(tmp_path / "traces" / "ks.jsonl", game, state, agents=["greedy", "greedy"])
    s = Served(tmp_path)
    d = _browser()
    try:
        d.get(s.base + "/")
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#game option[value='karman-swap']"))
        assert _serious(d) == []
        for name in ("karman-swap", "etherium", "seeders-exodus"):  # (house rules: the tools bar drawn too)
            made = s.post("/api/tables", {"game": name, "players": 2, "seats": ["person", "person"], "seed": 3,
                                          "house": {"listed": True, "undo": "agreed", "clock": 600}})
            d.get(made["seats"][0]["link"])  # player 1 sits down: the clock of its decision runs
            _wait(d, lambda: _options(d) and d.find_elements(By.CSS_SELECTOR, "#tools .clock"))
            assert _serious(d, ("minor", "moderate", "serious", "critical")) == [], name  # a table: none at all
        d.get(s.base + made["watch"]["nobody"].split(str(s.port), 1)[1])  # a spectator's page
        _wait(d, lambda: "Watching" in d.find_element(By.ID, "status").text)
        assert _serious(d) == []
        d.get(s.base + "/")  # the lobby, listing the tables
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "#lobby button.take"))
        assert _serious(d) == []
        d.get(s.base + "/replay/ks#event-72")
        _wait(d, lambda: d.find_elements(By.ID, "why-bot"))
        d.find_element(By.ID, "why-bot").click()  # what the bot weighed: a table in the page
        _wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "table.weighed tr.picked"))
        assert _serious(d) == []
    finally:
        d.quit()
        s.stop()


def test_a_phone_s_screen_holds_the_table_the_decision_and_a_card_tapped(tmp_path):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0}})
    s = Served(tmp_path)
    try:
        d = webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=options)
    except WebDriverException as exc:
        s.stop()
        pytest.skip(f"Chromium does not start here: {exc.msg}")
    try:
        kept = []
        for name in ("karman-swap", "etherium", "seeders-exodus"):
            made = s.post("/api/tables", {"game": name, "players": 2, "seats": ["person", "greedy"], "seed": 3,
                                          "house": {"undo": "agreed", "clock": 600}})  # (the tools bar drawn too)
            d.get(s.base + made["link"])
            _wait(d, lambda: _options(d) and d.find_elements(By.CSS_SELECTOR, "#tools .clock"))
            width, inner = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert inner == 390 and width <= inner, name  # the page never scrolls sideways (a board may, inside)
            d.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
            top, bottom = d.execute_script("const r = document.querySelector('#decision').getBoundingClientRect();"
                                           "return [r.top, r.bottom]")
            assert 0 <= top and bottom <= 844, name  # at the bottom of the page, the decision is still in view
            top, bottom, title = _wait(d, lambda: _tap_a_card(d))  # a tap: the card opens over the table
            assert 0 <= top < bottom <= 844 and title, name  # in view
            # a move, then the table is drawn again: the card stays open while it is still in sight
            before = d.find_element(By.ID, "decision").text
            _wait(d, lambda: _click_first_option(d))  # (an option of the bar, once drawn)
            _wait(d, lambda: d.find_element(By.ID, "decision").text != before)
            still = d.execute_script(
                "const p = document.querySelector('.card-panel .shown'); return p && p.querySelector('h3').textContent")
            kept.append(still == title)
            if still is not None:
                d.execute_script("document.querySelector('.card-panel button.close').click()")
            assert not d.find_elements(By.CSS_SELECTOR, ".card-panel .shown")
        assert any(kept), kept  # in some game the card tapped was still open after the table was drawn again
    finally:
        d.quit()
        s.stop()


def _tap_a_card(d):
    """Tap the first card shown that is no option, and read the panel: (top, bottom, title) of
    it, or None when the table was drawn again meanwhile."""
    try:
        chip = next(c for c in d.find_elements(By.CSS_SELECTOR, ".comp[tabindex='0']") if c.is_displayed())
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", chip)
        chip.click()
    except (StaleElementReferenceException, StopIteration):
        return None
    return d.execute_script("const p = document.querySelector('.card-panel'), h = p && p.querySelector('.shown h3');"
                            "if (!h) return null; const r = p.getBoundingClientRect();"
                            "return [r.top, r.bottom, h.textContent];")


def _focused(d) -> dict:
    """What has the keyboard's focus: its tag, classes, text, and whether its outline shows."""
    return d.execute_script("""
        const e = document.activeElement;
        const s = getComputedStyle(e);
        return {tag: e.tagName, cls: e.className || '', text: (e.textContent || '').trim().slice(0, 80),
                inDecision: !!e.closest('#decision'), target: e.classList.contains('target'),
                outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};""")


def test_a_game_is_played_by_keyboard_alone_with_the_focus_in_sight(shared):
    """Seeders by keyboard only: each option of the bar is reached with Tab and taken with Enter,
    a card or a space offered on the table is taken with Space, and whatever has the focus is
    outlined. After a decision the focus goes on at the next decision's first option."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    served, d = shared
    made = served.post("/api/tables", {"game": "seeders-exodus", "players": 2, "seats": ["person", "greedy"],
                                       "seed": 8})
    d.get(served.base + made["link"])
    _wait(d, lambda: _options(d))
    keys = ActionChains(d)
    by_bar = by_table = 0
    for _ in range(12):
        if _over(d):
            break
        _wait(d, lambda: _options(d) and _focused(d)["inDecision"], 30)  # the focus waits at the first option
        count = len(_options(d))
        seen = set()
        for _ in range(count - 1):  # every option of the bar, one Tab after the other
            f = _focused(d)
            assert f["inDecision"] and f["outline"], f
            seen.add(f["text"])
            keys.send_keys(Keys.TAB).perform()
        seen.add(_focused(d)["text"])
        assert len(seen) == count
        before = d.find_element(By.ID, "decision").text
        if by_table == 0 and d.find_elements(By.CSS_SELECTOR, "#table .target"):
            for _ in range(400):  # on to a card or space of the table that takes this decision
                keys.send_keys(Keys.TAB).perform()
                if _focused(d)["target"]:
                    break
            f = _focused(d)
            assert f["target"] and f["outline"], f
            keys.send_keys(Keys.SPACE).perform()
            menu = d.find_elements(By.CSS_SELECTOR, ".pick-menu button")
            if menu:  # several options name it: the menu has the focus
                assert _focused(d)["tag"] == "BUTTON"
                keys.send_keys(Keys.ENTER).perform()
            by_table += 1
        else:
            keys.send_keys(Keys.ENTER).perform()  # the option focused last
            by_bar += 1
        _wait(d, lambda before=before: d.find_element(By.ID, "decision").text != before or _over(d))
    assert by_bar >= 5 and by_table == 1



def test_the_focus_goes_on_to_the_next_decision_after_a_card_of_the_table_is_chosen(shared):
    """A card chosen by keyboard on the table is drawn away with the table. When the answer to
    the choice is the only view that comes (the page's waiting ask for a newer view came back
    while the choice was on its way, and was dropped) and the next decision is the same
    person's, the focus goes on at its first option, not lost on the page. The page's waiting
    asks are held back here, so that the answer to the choice is the only view."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    served, d = shared
    made = served.post("/api/tables", {"game": "karman-swap", "players": 2, "seats": ["person", "person"],
                                       "seed": 1})  # Karman Swap's first turn goes on after its card
    held = d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const fetched = window.fetch;
        window.fetch = (url, init) => String(url).includes("after=") ? new Promise(() => {}) : fetched(url, init);"""})
    try:
        d.get(made["seats"][0]["link"])
        _wait(d, lambda: _options(d) and _focused(d)["inDecision"])
        keys = ActionChains(d)
        for _ in range(400):  # on to a card of the table that takes this decision
            keys.send_keys(Keys.TAB).perform()
            if _focused(d)["target"]:
                break
        assert _focused(d)["target"] and not d.find_elements(By.CSS_SELECTOR, ".pick-menu")
        version = d.find_element(By.ID, "main").get_attribute("data-version")
        keys.send_keys(Keys.SPACE).perform()
        assert not d.find_elements(By.CSS_SELECTOR, ".pick-menu")  # one option names it: no menu
        _wait(d, lambda: d.find_element(By.ID, "main").get_attribute("data-version") != version)
        assert served.get(f"/api/tables/{made['id']}?key={made['seats'][0]['key']}")["decision"]["player"] == 0
        f = _focused(d)
        assert f["inDecision"] and f["tag"] == "BUTTON" and f["outline"], f
    finally:
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": held["identifier"]})
