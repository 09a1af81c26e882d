"""Two people in two browsers: one makes a listed table with undo from the start page, the
other finds it in the lobby and takes the free seat; they play, take back one decision by
agreement and go on (`--slow`: to the end, and read the replay), while a third browser watches
as nobody and is never shown a card of either hand. A game played to its end by clicking is
also in the default suite's tests/play/web/test_browser.py."""
from __future__ import annotations

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install 'regles[test]')")
pytest.importorskip("uvicorn")
from browsing import browser, click_first_option, offered, over, wait
from selenium.webdriver.common.by import By
from served import Served

from interpreter.engine.observe import may_see


def _status(d) -> str:
    return d.find_element(By.ID, "status").text


def _log(d) -> str:
    return d.find_element(By.ID, "log").text


def _hidden_titles(served, made_id) -> set:
    """The titles of cards some seat cannot see (in a hand), less those every seat sees elsewhere."""
    table = served.app.state.server.tables[made_id]
    with table.lock:
        st, program = table.state, table.game.program
        public, private = set(), set()
        for key, comps in st.zones.items():
            zdef = program.zone_def(key)
            everyone = all(may_see(st, zdef.visibility, program.zone_holder(key), s) for s in range(st.n))
            (public if everyone else private).update(program.comp_card[c].title for c in comps)
    return private - public


@pytest.mark.parametrize("finish", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["thirty-decisions-on", "to-the-end"])
def test_two_people_meet_in_the_lobby_play_take_back_a_decision_and_finish_while_one_watches(tmp_path, finish):
    served = Served(tmp_path)
    pages = []
    try:
        maker, guest, watcher = browser(), browser(), browser()
        pages = [maker, guest, watcher]
        maker.get(served.base + "/")
        wait(maker, lambda: maker.find_elements(By.CSS_SELECTOR, "#game option[value='karman-swap']"))
        maker.find_element(By.CSS_SELECTOR, "#game option[value='karman-swap']").click()
        wait(maker, lambda: maker.find_elements(By.CSS_SELECTOR, "form[data-ready='karman-swap']"))
        seat2 = maker.find_elements(By.CSS_SELECTOR, "#seats select")[1]
        seat2.find_element(By.CSS_SELECTOR, "option[value='person']").click()
        maker.find_element(By.ID, "listed").click()
        maker.find_element(By.ID, "undo").click()
        maker.find_element(By.ID, "seed").send_keys("4")
        maker.find_element(By.ID, "start").click()
        watch_link = wait(maker, lambda: maker.find_elements(By.CSS_SELECTOR, "#made-links a[href*='key=']"))[-1]
        watch_url = watch_link.get_attribute("href")
        wait(maker, lambda: maker.find_elements(By.ID, "open-table"))[0].click()
        wait(maker, lambda: "You are player 1" in _status(maker))

        guest.get(served.base + "/")  # the lobby: the table, its free seat
        take = wait(guest, lambda: guest.find_elements(By.CSS_SELECTOR, "#lobby button.take[data-seat='2']"))
        assert "player 1: a person, connected" in guest.find_element(By.ID, "lobby").text
        take[0].click()
        wait(guest, lambda: "You are player 2" in _status(guest))
        wait(maker, lambda: "● connected" in maker.find_element(By.CSS_SELECTOR, ".seat[data-seat='1']").text, 30)

        watcher.get(watch_url)
        wait(watcher, lambda: "Watching as nobody" in _status(watcher))
        made_id = watch_url.split("/table/")[1].split("?")[0]
        table = served.get(f"/api/tables/{made_id}?key={watch_url.split('key=')[1]}")
        assert table["watching"].startswith("nobody")

        def play_one() -> bool:
            for page in (maker, guest):
                if offered(page):
                    before = page.find_element(By.ID, "decision").text
                    if click_first_option(page):
                        wait(page, lambda page=page, before=before:
                             page.find_element(By.ID, "decision").text != before or over(page))
                        return True
            wait(maker, lambda: offered(maker) or offered(guest) or (over(maker) and over(guest)))
            return False

        # a few decisions, then player 1 takes back its last one, and player 2 agrees
        made = 0
        while made < 6:
            made += play_one()
        wait(maker, lambda: not maker.find_element(By.ID, "undo-last").get_attribute("disabled"), 30)
        maker.find_element(By.ID, "undo-last").click()
        agree = wait(guest, lambda: guest.find_elements(By.ID, "undo-agree"), 30)
        assert "asks to take back decision" in guest.find_element(By.ID, "tools").text
        agree[0].click()
        wait(maker, lambda: "taken back, by agreement" in _log(maker), 30)
        wait(guest, lambda: "taken back, by agreement" in _log(guest), 30)

        clicks = 0
        while not (over(maker) and over(guest)) and (finish or clicks < 30):
            assert clicks < 800, "the game does not end"
            clicks += play_one()
            if clicks % 15 == 0:  # the spectator never holds a card of either hand
                now = str(served.app.state.server.tables[made_id].version)
                wait(watcher, lambda now=now: watcher.find_element(By.ID, "main").get_attribute("data-version") == now, 30)
                shown = {e.text for e in watcher.find_elements(By.CSS_SELECTOR, ".comp-title")}
                hidden = _hidden_titles(served, made_id)
                assert hidden and not shown & hidden
                assert not offered(watcher)
        if not finish:
            assert clicks == 30 and not over(maker)
            return
        assert over(maker)[0].text == over(guest)[0].text
        wait(watcher, lambda: over(watcher), 30)
        trace = served.trace_header(made_id)
        assert len(trace["undos"]) == 1 and trace["undos"][0]["by"] == 1 and trace["undos"][0]["agreed"] == [1, 2]
        maker.find_element(By.LINK_TEXT, "Replay this game").click()  # the replay shows where it was
        undone = wait(maker, lambda: maker.find_elements(By.CSS_SELECTOR, "#events li.undone"))
        assert undone[0].text.startswith("↶ Player 1 took back decision") and "agreed by player 1 and player 2" in undone[0].text
    finally:
        for page in pages:
            page.quit()
        served.stop()
