"""The web table in a real browser: headless Chromium, from the system's packages, driven by
Selenium with the system's ChromeDriver.

A person plays a whole 2-player Karman Swap against a bot by clicking; its trace is then
replayed backwards and forwards, each event's cause on screen; two browsers play one
Seeders game, each seeing its own hand and never the other's; a card titled with markup
shows as text. The tests are skipped, saying why, where no browser is installed (`.ci/run`
installs one). With REGLES_SCREENSHOTS=FOLDER they save the pictures of the docs there.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install 'regles[test]')")
pytest.importorskip("uvicorn")
from selenium.common.exceptions import (
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from served import Served


CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no Chromium and ChromeDriver on this machine (Debian: apt install chromium chromium-driver; "
                ".ci/run installs them)", allow_module_level=True)

SHOTS = os.environ.get("REGLES_SCREENSHOTS")


def _browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=options)
    except WebDriverException as exc:
        pytest.skip(f"Chromium does not start here: {exc.msg}")


@pytest.fixture
def browser():
    d = _browser()
    yield d
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    d.quit()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.stop()


def _wait(d, what, seconds=60):
    return WebDriverWait(d, seconds, poll_frequency=0.05).until(lambda _: what())


def _options(d):
    return d.find_elements(By.CSS_SELECTOR, "#decision button.option:not([disabled])")


def _over(d):
    return d.find_elements(By.CSS_SELECTOR, "#decision .over")


def _click_first_option(d) -> bool:
    """Click the first option offered; False when the page changed under the click."""
    try:
        options = _options(d)
        if not options:
            return False
        options[0].click()
        return True
    except StaleElementReferenceException:
        return False


def test_a_person_plays_karman_swap_to_the_end_by_clicking_then_replays_it(served, browser):
    d = browser
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
        d.save_screenshot(str(Path(SHOTS) / "web-table.png"))
    clicks = 0
    while not _over(d):
        assert clicks < 600, "the game does not end"
        before = d.find_element(By.ID, "decision").text
        if _click_first_option(d):
            clicks += 1
            _wait(d, lambda before=before: d.find_element(By.ID, "decision").text != before or _over(d))
        _wait(d, lambda: _options(d) or _over(d))
    assert clicks > 10
    over = _over(d)[0].text
    assert over.startswith("Game over.") and "Scores:" in over
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


def test_hot_seat_covers_the_table_until_the_next_person_asks_to_see_it(served, browser):
    d = browser
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
    assert d.find_element(By.ID, "cover-text").text.startswith("player 2's turn")
    assert not d.find_element(By.ID, "main").is_displayed()  # player 1's hand is no longer on screen
    d.find_element(By.ID, "cover-button").click()
    _wait(d, lambda: "You are player 2" in d.find_element(By.ID, "status").text and _options(d))
    assert d.find_element(By.CSS_SELECTOR, ".seat.mine").get_attribute("data-seat") == "1"
