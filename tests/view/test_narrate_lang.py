"""The game told in the language asked (`regles play --lang fr`): the narration's sentences from
the table of that language (view/narrate_words.py), the names of zones and counters from the
game's `vocabulary:` in it, and a run of moves the seat sees alike told once with its count."""
from __future__ import annotations

import io
import re

import pytest

import interpreter
from interpreter.engine.events import CHOICE, DECIDE, FAIL, LOG, REVEAL
from interpreter.play.agents import HumanAgent, RandomAgent, SeatView
from interpreter.play.terminal import play_at_terminal
from interpreter.engine.observe import observation
from interpreter.view.narrate import Narrator, counter_lines, counter_name, zone_name
from interpreter.view.narrate_words import WORDS, Words, french_spelling

ENGLISH = (" moved from ", " moved to ", " chose", "your ", "player ", " now)", " changed", " shuffled", "dice:")
CONTENT = (CHOICE, DECIDE, REVEAL, FAIL)  # events whose text ends with what content wrote (a label, a prompt)


def told(name: str, lang: str, decisions: int = 30, seed: int = 1, options=None):
    """(lines told to seat 1, one per event but logs; lines told grouped) of `decisions` random decisions."""
    g = interpreter.load(name)
    st = g.new_state(players=2, seed=seed, options=options or {}, trace=True)
    per_event, grouped = [], io.StringIO()
    narrator = Narrator(st, 0, grouped, lang=lang, group=True)

    def tell_new():
        for ev in st.trace[narrator.done:]:
            if ev.get("type") == LOG:
                continue  # what the game logs is written by its content
            text = narrator.tell(ev)
            if text and ev.get("type") in CONTENT:
                text = re.split(r" : |: ", text, maxsplit=1)[0]  # the label after the colon is the content's
            if text:
                per_event.append(text)
        narrator.flush()
    tell_new()
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    for _ in range(decisions):
        if st.is_terminal():
            break
        p = st.current_player
        a = agents[p].act(SeatView(st, p))
        narrator.before(st)
        st.apply(a)
        tell_new()
    return per_event, grouped.getvalue().splitlines()


@pytest.mark.parametrize("name", ["karman-swap", "seeders-exodus", "etherium"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_french_game_is_told_in_french(name, seed):
    lines, _ = told(name, "fr", seed=seed)
    assert len(lines) > 20
    for line in lines:
        assert not any(word in line for word in ENGLISH), line
        assert "{" not in line and "}" not in line, line
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), line  # an identifier: a name without its words
        assert " de le " not in line and " à le " not in line and " de les " not in line, line
    assert any(" passe " in line for line in lines)
    assert any(line.startswith(("Vous avez choisi", "Joueur 2 a choisi")) for line in lines)


def test_french_names_come_from_the_vocabulary_with_their_articles():
    g = interpreter.load("seeders-exodus")
    p = g.program
    st = g.new_state(players=2, seed=1, trace=True)
    assert zone_name(p, "box", 0, vocabulary=True, lang="fr") == "la boîte"
    assert zone_name(p, "hand#0", 0, None, 2, vocabulary=True, lang="fr") == "votre main"
    assert zone_name(p, "hand#1", 0, None, 2, vocabulary=True, lang="fr") == "la main du joueur 2"
    assert zone_name(p, "home#0", 1, None, 2, vocabulary=True, lang="fr") == "le plateau personnel du joueur 1"
    key = next(k for k in st.counters if k.startswith("cubes_left"))
    mine = key if key.endswith("#0") else key.replace("#1", "#0")
    assert counter_name(p, mine, 0, None, 2, vocabulary=True, lang="fr") == "vos cubes non placés"
    assert counter_name(p, mine, 0, None, 2, vocabulary=True, many=False, lang="fr") == "votre cube non placé"
    assert counter_name(p, mine, 1, None, 2, vocabulary=True, lang="fr") == "les cubes non placés du joueur 1"
    assert counter_name(p, "round", 0, None, 2, vocabulary=True, many=False, lang="fr") == "la manche"
    # one form for both numbers: a rank stays singular, a plural ('PP', points) takes its plural article
    assert counter_name(p, "order#1", 0, None, 2, vocabulary=True, lang="fr") == \
        "la place dans l'ordre du tour du joueur 2"
    assert counter_name(p, "pp#1", 0, None, 2, vocabulary=True, lang="fr") == "les PP du joueur 2"
    assert counter_name(p, "pp#1", 0, None, 2, vocabulary=True, many=False, lang="fr") == "le PP du joueur 2"


def test_french_spelling():
    assert french_spelling("passe de le plateau à les équipages") == "passe du plateau aux équipages"
    assert french_spelling("de la équipe de le joueur 2") == "de l'équipe du joueur 2"
    assert french_spelling("le emplacement de une carte") == "l'emplacement d'une carte"


def test_every_sentence_is_said_in_every_language():
    english = {k for k in WORDS["en"] if not k.endswith("_you")}
    for lang, table in WORDS.items():
        assert english <= set(table), (lang, english - set(table))
        for key in table:  # a form said of the seat told or of many is a form of a sentence there is
            assert key.removesuffix("_you").removesuffix("_many") in WORDS["en"] or key in WORDS["en"], (lang, key)


def test_a_run_of_moves_from_one_zone_to_another_is_told_once():
    g = interpreter.load("seeders-exodus")
    for lang, titled, dealt, hidden in (
            ("en", "  Apprenti, Ouvrier ×2, Novice, Converti and Prêtre moved from Arche deck to box",
             "  Magistrat and Dortoirs de la Fosse moved from Arche deck to your packet",
             "  2 cards moved from Arche deck to player 2's packet"),
            ("fr", "  Apprenti, Ouvrier ×2, Novice, Converti et Prêtre passent de la pioche Arche à la boîte",
             "  Magistrat et Dortoirs de la Fosse passent de la pioche Arche à votre paquet",
             "  2 cartes passent de la pioche Arche au paquet du joueur 2")):
        st = g.new_state(players=2, seed=1, options={"expert": True}, trace=True)
        out = io.StringIO()
        Narrator(st, 0, out, lang=lang, group=True).flush()
        lines = out.getvalue().splitlines()
        # the cards of one title counted, the seat's own cards named, the others' counted
        assert titled in lines and dealt in lines and hidden in lines, lines
        assert all(a != b for a, b in zip(lines, lines[1:]) if "moved" in a or "passe" in a)


def test_a_long_run_of_moves_names_its_first_titles_once_each_and_counts_the_rest():
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=1, trace=True)
    titles = {}
    for c, card in enumerate(st.program.comp_card):
        titles.setdefault(card.title, c)
    ids = list(titles.values())[:20] + [list(titles.values())[0]]  # 20 titles, the first again at the end
    zone = st.where[ids[0]]
    events = [{"type": "move", "id": c, "from": zone, "to": zone} for c in ids]
    for lang, others in (("en", "and 9 others moved within "), ("fr", "et 9 autres passent ")):
        narrator = Narrator(st, None, io.StringIO(), lang=lang, group=True)
        [line] = narrator.tell_many(events)
        # each title named once where it first comes, counted: the first one moved twice
        names = [st.program.comp_card[c].title for c in ids[:11]]
        names[0] += " ×2"
        assert line.startswith("  " + ", ".join(names) + " " + others), line


def test_a_title_in_the_plural_takes_its_verb_in_the_plural_in_french():
    g = interpreter.load("seeders-exodus")
    st = g.new_state(players=2, seed=1, options={"expert": True}, trace=True)
    told = {}
    for lang in ("en", "fr"):
        out = io.StringIO()
        Narrator(st, None, out, lang=lang, group=True).flush()
        told[lang] = out.getvalue()
    # its card says its title is plural (plural_title); English verbs in the past take no number
    assert "  Cuves de régénération passent de la pioche Arche à la chambre 12\n" in told["fr"]
    assert "  Cuves de régénération moved from Arche deck to chamber 12\n" in told["en"]
    assert "  Missionnaire passe de la pioche Arche à la chambre 1\n" in told["fr"]
    # a French title that begins with a plural article is read in the plural without being told
    fr, en = Words("fr"), Words("en")
    assert fr.plural_name("Les Barbares de Reces") and fr.plural_name("Jardins", plural=True)
    assert not fr.plural_name("Lesbos") and not fr.plural_name("Charogneux") and not en.plural_name("Les Barbares")
    # without `group` (the web table, the PettingZoo env) each move is its own line, as before
    st = g.new_state(players=2, seed=1, options={"expert": True}, trace=True)
    out = io.StringIO()
    Narrator(st, 0, out).flush()
    assert out.getvalue().count("  Ouvrier moved from Arche deck to box\n") == 2
    assert "  a card moved from Arche deck to player 2's packet\n" in out.getvalue()


def test_play_at_the_terminal_in_french():
    g = interpreter.load("karman-swap")
    out = io.StringIO()
    human = HumanAgent(io.StringIO("1\n" * 400), out, lang="fr")
    status = play_at_terminal(g, 2, 1, g.options({}), ["random"], seat=0, human=human, out=out, lang="fr")
    text = out.getvalue()
    assert status == 0
    assert text.startswith("Vous êtes le joueur 1, contre le joueur 2 (coups au hasard).")
    assert "-- ce que vous voyez (vous êtes le joueur 1 sur 2) --" in text
    assert "votre choix (1-" in text and "Vous avez choisi : " in text
    assert "  Votre main : " in text and re.search(r" pass(e|ent) de la pioche à votre main", text)
    assert "Partie terminée. " in text and "Manches gagnées : vous " in text  # Karman Swap ends on its rounds won
    assert "your choice" not in text and "Player 2 chose" not in text and " moved " not in text


def test_play_in_english_is_told_in_english():
    g = interpreter.load("karman-swap")
    out = io.StringIO()
    human = HumanAgent(io.StringIO("1\n" * 400), out)
    play_at_terminal(g, 2, 1, g.options({}), ["random"], seat=0, human=human, out=out)
    text = out.getvalue()
    assert text.startswith("You are player 1, against player 2 (random).")
    assert "11 cards moved from deck to player 2's hand" in text  # the deal, told once
    assert "Game over. " in text and "your choice (1-" in text


def test_a_move_within_its_own_zone_is_told_as_such_and_two_zones_of_one_node_by_their_own_names():
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=5, trace=True)
    for lang, within, turned in (("en", "within face-up pyramid slot at r1",
                                  "from face-down pyramid slot at r1 to face-up pyramid slot at r1"),
                                 ("fr", "d'une place à une autre de l'emplacement visible de la case de la pyramide r1",
                                  "de l'emplacement caché de la case de la pyramide r1 "
                                  "à l'emplacement visible de la case de la pyramide r1")):
        narrator = Narrator(st, 0, io.StringIO(), lang=lang)
        same = {"type": "move", "card": "x", "id": 0, "from": "pyramid_up#r1", "to": "pyramid_up#r1"}
        assert narrator.moved(same).endswith(within)
        assert narrator.moved({**same, "from": "pyramid_down#r1"}).endswith(turned)


def _told_of(st, events, seat=0, lang="en") -> list:
    """The lines seat `seat` is told of `events`, appended to `st`'s trace as the rules would."""
    st.trace.extend({"n": len(st.trace) + i, **ev} for i, ev in enumerate(events))
    narrator = Narrator(st, seat, io.StringIO(), lang=lang, group=True)
    narrator.done = len(st.trace) - len(events)
    narrator.flush()
    return narrator.out.getvalue().splitlines()


def test_a_card_put_away_later_in_a_step_is_named_where_the_seat_saw_it():
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=1, trace=True)
    title = lambda c: st.program.comp_card[c].title  # noqa: E731
    gone, unseen = st.zones["pile_a"][0], st.zones["pile_b"][0]  # two planets, each in a hidden pile now
    ships = st.zones["hand#0"][:2]
    lines = _told_of(st, [
        # a ship leaves the orbit of a planet in play, then the planet is put away face down:
        # the seat saw the planet when the ship left it
        {"type": "move", "card": "x", "id": ships[0], "from": f"orbit#{gone}", "to": "deck"},
        {"type": "move", "card": "x", "id": gone, "from": "space", "to": "pile_a"},
        # a planet the seat did not see then and does not see now stays 'a card'
        {"type": "move", "card": "x", "id": ships[1], "from": f"orbit#{unseen}", "to": "deck"},
    ])
    assert lines[0] == f"  {title(ships[0])} moved from orbit of {title(gone)} to deck", lines
    assert lines[1] == f"  {title(gone)} moved from row of planets in play to first planet pile", lines
    assert lines[2] == f"  {title(ships[1])} moved from orbit of a card to deck", lines


def test_a_run_of_moves_is_not_cut_by_an_event_told_to_no_one():
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=1, trace=True)
    a, b = st.zones["hand#0"][:2]
    lines = _told_of(st, [
        {"type": "move", "card": "x", "id": a, "from": "hand#0", "to": "deck"},
        {"type": "tag", "card": "x", "id": a, "tag": "Posed"},  # the rules' bookkeeping: not told
        {"type": "move", "card": "x", "id": b, "from": "hand#0", "to": "deck"},
    ])
    names = [st.program.comp_card[c].title for c in (a, b)]
    told = f"{names[0]} ×2" if names[0] == names[1] else f"{names[0]} and {names[1]}"
    assert lines == [f"  {told} moved from your hand to deck"], lines


def test_a_screen_of_changes_names_no_counter_fallen_to_nought_on_a_card_it_cannot_see():
    g = interpreter.load("karman-swap")
    st = g.new_state(players=2, seed=1, trace=True)
    seen, unseen = st.zones["visible_a"][0], st.zones["pile_a"][0]  # a planet face up, one face down
    obs = observation(st, 0)
    obs["counters"] = {**obs["counters"], f"dome#{seen}": 0, f"dome#{unseen}": 0}
    before = {f"dome#{seen}": 1, f"dome#{unseen}": 1}
    [line] = [x for x in counter_lines(st.program, obs, before, every=False) if "dome" in x]
    assert f"colonisation domes on {st.program.comp_card[seen].title} = 0" in line, line
    assert "a card" not in line, line


def _programming(lang: str, seat: int = 0):
    """Etherium at 3 players told to `seat` as at the terminal, a flush after each decision, up
    to the end of the first round of programming; (the lines told, what was told at the flush
    after each of another seat's secret choices)."""
    g = interpreter.load("etherium")
    st = g.new_state(players=3, seed=2, trace=True)
    out = io.StringIO()
    narrator = Narrator(st, seat, out, lang=lang, group=True)
    narrator.flush()
    agents = [RandomAgent(s) for s in range(3)]
    after_secret, secrets_seen = [], 0
    while not st.is_terminal() and secrets_seen < 12:
        p = st.current_player
        secret = st.pending.secret and p != seat
        narrator.before(st)
        st.apply(agents[p].act(SeatView(st, p)))
        before = out.tell()
        narrator.flush()
        if secret:
            secrets_seen += 1
            after_secret.append(out.getvalue()[before:])
    narrator.flush(whole=True)
    return out.getvalue().splitlines(), after_secret


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_another_seats_run_of_secret_choices_is_told_once_with_its_moves(lang):
    lines, after_secret = _programming(lang)
    many = {"en": "Player 2 chose secretly 4 times  [asked: 'Action of token 1', 'Action of token 2', "
                  "'Action of token 3' and 'Action of token 4']",
            "fr": "Joueur 2 a choisi en secret 4 fois  [aux questions « Action du jeton 1 », « Action du "
                  "jeton 2 », « Action du jeton 3 » et « Action du jeton 4 »]"}[lang]
    moved = {"en": "  Jeton 1, Jeton 2, Jeton 3 and Jeton 4 moved from player 2's action token reserve to "
                   "player 2's programming panel",
             "fr": "  Jeton 1, Jeton 2, Jeton 3 et Jeton 4 passent de la réserve des jetons d'action du joueur 2 "
                   "au panneau de programmation du joueur 2"}[lang]
    at = lines.index(many)
    assert lines[at + 1] == moved
    single = {"en": "Player 2 chose secretly  [", "fr": "Joueur 2 a choisi en secret  ["}[lang]
    assert not any(line.startswith(single) for line in lines)  # no choice of the run told alone
    # the run is held while it goes on, and told whole at the flush that ends it
    assert after_secret[:3] == ["", "", ""] and many in after_secret[3]


def test_a_seat_is_told_its_own_secret_choices_one_by_one():
    lines, _ = _programming("en", seat=1)
    mine = [line for line in lines if line.startswith("You chose: ")]
    assert len(mine) >= 4  # its own choices, each with what it chose
    assert any(line.startswith("Player 1 chose secretly 4 times") for line in lines)
