"""Cards as prose: every shipped card and keyword is written in English and French
from its rules; the built-ins bring their own phrases; the vocabulary is checked;
a keyword's printed text that disagrees with its rules gets a warning."""
from __future__ import annotations

import re
import string
import textwrap

import pytest

from interpreter import read_and_check
from interpreter.content.folders import shipped_game, shipped_games
from interpreter.content.layers import Chosen, mod_layer, plan
from interpreter.diagnostics import Report
from interpreter.language import nodes as N
from interpreter.language.builtins import FUNCTIONS, PROPERTIES, SPECIAL_NAMES
from interpreter.language.prose import LANGS, English, French, Prose
from interpreter.language.prose.checks import disagreement, numbers, terms
from interpreter.rulings.check import check_paths


def packs():
    """Every shipped game alone, with all its expansions, and with its solo mode."""
    out = []
    for game in shipped_games():
        root = shipped_game(game)
        folder = root / "expansions"
        found = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        solo = [e for e in found if mod_layer(e).solo]
        rest = [e for e in found if e not in solo]
        for group in [[]] + ([rest] if rest else []) + [[s] for s in solo]:
            out.append((root, tuple(mod_layer(e).id for e in group)))
    return out


_LOADED = {}


def loaded(root, expansions=()):
    key = (root, expansions)
    if key not in _LOADED:
        report = Report()
        defn, found = read_and_check(root, report, (), plan(root, Chosen(expansions=expansions)))
        assert report.ok, report.errors[:3]
        _LOADED[key] = defn, found
    return _LOADED[key]


def seeders(lang="en"):
    defn, found = loaded(shipped_game("seeders-exodus"))
    return defn, Prose(defn, found, lang)


def card(defn, card_id):
    return next(c for c in defn.cards if c.id == card_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pack", packs(), ids=lambda p: "+".join([p[0].name, *p[1]]))
def test_every_shipped_card_and_keyword_is_written_without_falling_back(pack, lang):
    defn, found = loaded(*pack)
    prose = Prose(defn, found, lang)
    written = [prose.reading(ab) for c in defn.cards for ab in c.abilities] + [prose.keyword(k) for k in defn.keywords]
    assert prose.fallbacks == [], [f"{type(f).__name__} at {f.pos}" for f in prose.fallbacks[:3]]
    for text in written:
        assert text.strip() and "{" not in text and "}" not in text.replace("{self", ""), text
    for kw in defn.keywords:  # a keyword's rules are sentences
        assert re.match(r"[A-ZÀ-Ý]", prose.keyword(kw)) and prose.keyword(kw).endswith("."), kw.pattern


def test_the_built_in_phrases_cover_every_built_in_in_every_language():
    for name, f in FUNCTIONS.items():
        for lang in LANGS:
            phrases = f.prose.get(lang)
            assert phrases, f"built-in function {name}() has no prose in '{lang}'"
            for arity, types in f.signatures.items():
                phrase = phrases if isinstance(phrases, str) else phrases.get(arity)
                assert phrase is not None, f"{name}() with {arity} arguments has no prose in '{lang}'"
                used = {int(n) for _, n, _, _ in string.Formatter().parse(phrase) if n and n.isdigit()}
                assert used <= set(range(arity)), (name, lang, phrase)
    for table in (PROPERTIES, SPECIAL_NAMES):
        for name, record in table.items():
            assert all(record.prose.get(lang) for lang in LANGS), f"'{name}' has no prose in every language"


@pytest.mark.parametrize("written, read", [
    ("la hauteur de la case 3", "la hauteur de la case 3"),  # an h 'aspiré': no elision
    ("le héros de le joueur 2", "le héros du joueur 2"),
    ("ce hasard", "ce hasard"),
    ("la heure de le habitant", "l'heure de l'habitant"),  # an h 'muet': elided as a vowel
    ("ce homme", "cet homme"),
    ("de huit cartes", "de huit cartes"),
])
def test_french_elides_before_a_silent_h_and_not_before_an_aspirated_one(written, read):
    from interpreter.language.prose.french import elide
    assert elide(written) == read


def test_french_changes_only_its_words_and_what_its_grammar_needs():
    feminine = {k for k in French.WORDS if k.endswith("_f") and k[:-2] in English.WORDS}  # 'cette', 'une autre'
    assert set(French.WORDS) == set(English.WORDS) | feminine | {"the_many", "your_many", "of_your_many"}
    methods = {k for k, v in vars(French).items() if callable(v)}
    # its articles, 'tel que' and relative clauses ('qui est incliné', 'dont le terrain'), its spelling, the
    # agreement of a built-in's participle, and the noun of a function's phrase ('l'armée de {0}': 'armée')
    assert methods == {"a", "the", "such_that", "relative", "finish", "said_of", "agree", "noun_of_phrase"}
    # every phrase with a word in it is said in French ('plus' is French too)
    same = {k for k in English.WORDS if French.WORDS[k] == English.WORDS[k]}
    assert {k for k in same if re.search(r"[a-z]{2}", re.sub(r"\{\w*\}", "", English.WORDS[k]))} == {"+"}


# what some real cards say --------------------------------------------------------------------

def test_a_prestige_keyword_reads_as_its_points_for_each_card():
    defn, en = seeders("en")
    _, fr = seeders("fr")
    matrice = card(defn, "matrice-structurelle")  # Affinité 2 - Module
    assert en.reading(matrice.abilities[0]) == ("Affinité 2 - Module: When the prestige of this card is counted, "
                                   "score 2 PP for each of your modules in play.")
    assert fr.reading(matrice.abilities[0]) == ("Affinité 2 - Module : Quand le prestige de cette carte est compté, "
                                   "marquez 2 PP pour chaque module parmi vos cartes en jeu.")


def test_a_caste_keyword_puts_its_token_on_the_card_then_offers_its_actions():
    defn, en = seeders("en")
    _, fr = seeders("fr")
    senateur = card(defn, "senateur")  # Geôlier
    ability = senateur.abilities[0]
    assert en.ability(ability).startswith("When this card is integrated, put 1 Jailer token on this card. "
                                          "During negotiation or integration, you may remove 1 Jailer token from "
                                          "this card and pay 1 resource to choose one of the crews in play "
                                          "that a player controls. That crew is no longer a Mutant.")
    assert fr.ability(ability).startswith("Quand cette carte est intégrée, placez 1 jeton Geôlier sur cette carte. "
                                          "Pendant la négociation ou l'intégration : retirez 1 jeton Geôlier")
    assert "Mettez cet équipage dans votre prison." in fr.ability(ability)


def test_a_keyword_with_an_effect_writes_the_effect_the_card_prints():
    defn, en = seeders("en")
    _, fr = seeders("fr")
    serveurs = card(defn, "salle-des-serveurs")  # Naturelle 3: score 2
    assert en.ability(serveurs.abilities[0]) == \
        "During negotiation or integration, you may pay 3 resources to score 2 PP."
    assert fr.ability(serveurs.abilities[0]) == "Pendant la négociation ou l'intégration : payez 3 ressources. Marquez 2 PP."
    chef = card(defn, "chef-de-chantier")  # Recrutement Ouvrier: the class bound, in each language
    assert "the first Worker in the secondary crew pile" in en.ability(chef.abilities[0])
    assert "le premier Ouvrier dans la pile d'équipages secondaires" in fr.ability(chef.abilities[0])


def test_a_keyword_by_itself_says_its_parameters_as_their_letters():
    defn, en = seeders("en")
    affinite = next(k for k in defn.keywords if k.pattern == "Affinité X - Y")
    assert en.keyword(affinite) == ("When the prestige of this card is counted, score X PP for each Y among your "
                                    "cards in play.")


def test_triggers_of_any_card_and_choices_of_other_players():
    defn, found = loaded(shipped_game("karman-swap"))
    en, fr = Prose(defn, found, "en"), Prose(defn, found, "fr")
    kraken = card(defn, "kraken")  # Éradication
    assert en.ability(kraken.abilities[0]) == (  # the condition that there is a creature to choose goes unsaid
        "When this card is played on an active planet, you may choose one of the creatures in play that "
        "is not this card. Make that creature extinct.")
    assert fr.ability(kraken.abilities[0]).endswith(
        "si vous le souhaitez, choisissez l'une des créatures en jeu qui n'est pas cette "
        "carte. Provoquez l'extinction de cette créature.")
    defn, found = loaded(shipped_game("seeders-exodus"))
    usine = card(defn, "usine-de-reconversion")
    assert Prose(defn, found, "en").ability(usine.abilities[0]) == \
        "Whenever a card is destroyed, if the card is a module, gain 1 resource."
    assert Prose(defn, found, "fr").ability(usine.abilities[0]) == \
        "Chaque fois qu'une carte est détruite, si la carte est un module, gagnez 1 ressource."


def test_what_the_tables_lack_is_written_as_its_rules_text_never_a_failure(tmp_path):
    defn, prose = seeders("en")

    class Strange(N.Node):  # a kind of node no renderer knows
        pass
    strange = Strange(defn.cards[0].abilities[0].pos)
    text = prose.node(strange)
    assert text.startswith("the rule “") and prose.fallbacks == [strange]
    call = N.Call(strange.pos, "no_such_builtin", [])
    assert prose.node(call).startswith("the rule “") and prose.fallbacks[-1] is call
    with pytest.raises(ValueError, match="no prose in language 'de'"):
        Prose(defn, None, "de")


# the vocabulary and printed texts, checked ---------------------------------------------------

GAME = """\
kind: game
id: tiny
title: Tiny
players: {min: 2, max: 2}
attributes:
  suit: {values: [Sun, Moon]}
zones:
  deck: {scope: game}
  hand: {scope: player}
  table: {scope: player, in_play: true}
counters:
  coins: {scope: player, supply: 10}
events:
  played: [card]
windows: [main]
procedures:
  game: "pass"
  draw:
    params: [p]
    body: "move top(deck) to p.hand"
vocabulary:
  en:
    coins: [coin, coins]
    draw: "draw a card for {0}"
"""

KEYWORDS = """\
kind: keywords
game: tiny
keywords:
  - pattern: "Tithe"
    text: {en: "Pay 1 coin: draw a card.", fr: "Payez 1 pièce : piochez une carte."}
    ability: |
      action during main cost pay 1 coins:
        call draw(you)
"""


def write(tmp_path, game=GAME, keywords=KEYWORDS, ability="Tithe"):
    """The tiny game in `tmp_path`, its one card (Monk) with the keyword `ability`."""
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "keywords.yaml").write_text(keywords, encoding="utf-8")
    (folder / "cards.yaml").write_text("kind: cards\ngame: tiny\nstart: deck\ncards:\n"
                                       f"  - {{id: monk, title: Monk, suit: Sun, abilities: [{ability}]}}\n",
                                       encoding="utf-8")
    return folder


def test_a_sound_vocabulary_and_agreeing_texts_say_nothing(tmp_path):
    report = check_paths([str(write(tmp_path))])
    assert report.diagnostics == []
    defn, found = read_and_check(tmp_path / "tiny", Report())
    monk = Prose(defn, found, "en")
    assert monk.card(defn.cards[0]) == ["Monk", "suit: Sun", "Tithe: Pay 1 coin: draw a card."]  # as printed
    assert monk.reading(defn.cards[0].abilities[0]) == "Tithe: During main, you may pay 1 coin to draw a card for you."


def test_a_text_naming_another_amount_gets_a_warning_at_the_text(tmp_path):
    folder = write(tmp_path, keywords=KEYWORDS.replace('en: "Pay 1 coin: draw a card."', 'en: "Pay 2 coins: draw a card."'))
    report = check_paths([str(folder)])
    assert report.ok  # a warning: the check still passes
    [warning] = report.diagnostics
    assert warning.severity == "warning"
    assert (warning.position.path.endswith("keywords.yaml"), warning.position.line, warning.position.column) == \
        (True, 5, 16)
    assert "the printed text (en) of keyword 'Tithe' disagrees with its rules: it names 2, which its rules do not" \
        in warning.message
    assert warning.hint == "its rules read: During main, you may pay 1 coin to draw a card for you."


def test_a_text_naming_a_term_its_rules_never_name_gets_a_warning(tmp_path):
    game = GAME.replace("    coins: [coin, coins]\n", "    coins: [coin, coins]\n    hand: hand\n")
    folder = write(tmp_path, game, KEYWORDS.replace('en: "Pay 1 coin: draw a card."',
                                                    'en: "Pay 1 coin: take a card from the table into your hand."'))
    [warning] = check_paths([str(folder)]).diagnostics
    assert "it names 'hand', 'table', which its rules never do" in warning.message


def test_the_check_of_a_warning_leaves_the_exit_status_alone(tmp_path, capsys):
    from interpreter import cli
    folder = write(tmp_path, keywords=KEYWORDS.replace("Pay 1 coin", "Pay 3 coins"))
    assert cli.main(["check", str(folder)]) == 0
    assert "warning[W001]: the printed text (en) of keyword 'Tithe'" in capsys.readouterr().out


@pytest.mark.parametrize("words, message, line", [
    ("    coinz: coin\n", "vocabulary (en) for unknown name 'coinz'", 23),
    ("    hand: [a, b, c]\n", "vocabulary (en) for zone 'hand' is no noun", 23),
    ("    played: \"{0} is played by {1}\"\n", "names argument {1}, but it takes 1 argument", 23),
    ("    draw: [draw, draws]\n", "for procedure 'draw' must be a phrase", 23),
    ("    deck: \"the {deck}\"\n", "for zone 'deck' holds '{' or '}'", 23),
    ("    draw: \"draw a card for {" + "9" * 4301 + "}\"\n", "names argument {999", 23),
    ("    draw: \"draw a card for {\u0660}\"\n", "has a '{' or '}' that names no argument", 23),
    ("    \"set:hand\": \"{0} may draw\"\n", "vocabulary (en) for set:hand, which is no counter", 23),
    ("    \"when:coins\": \"{0} is rich with {1}\"\n", "names argument {1}, but it takes 1 argument", 23),
    ("    \"label:Draw\": [a, b]\n", "vocabulary (en) for label 'Draw' must be a text", 23),
])
def test_vocabulary_errors_are_reported_where_they_are(tmp_path, words, message, line):
    game = GAME.replace("    coins: [coin, coins]\n", words)
    report = check_paths([str(write(tmp_path, game))])
    errors = [d for d in report.errors if message in d.message]
    assert errors and errors[0].position.line == line, [d.message for d in report.diagnostics]


def test_vocabulary_of_a_language_no_renderer_writes_is_an_error(tmp_path):
    game = GAME + "  de:\n    coins: Münze\n"
    [error] = check_paths([str(write(tmp_path, game))]).errors
    assert "vocabulary for language 'de', which cards are not written in" in error.message
    assert error.position.line == 26  # its first word


def test_a_name_that_is_two_things_takes_words_for_each(tmp_path):
    game = GAME.replace("  draw:\n", "  coins:\n").replace("    coins: [coin, coins]\n", "    \"counter:coins\": [coin, coins]\n") \
        .replace("    draw: \"draw a card for {0}\"\n", "    \"procedure:coins\": \"draw a card for {0}\"\n")
    folder = write(tmp_path, game, KEYWORDS.replace("call draw(you)", "call coins(you)"))
    assert check_paths([str(folder)]).diagnostics == []
    clash = game.replace("    \"procedure:coins\": \"draw a card for {0}\"\n", "")
    clash = clash.replace("    \"counter:coins\": [coin, coins]\n", "    coins: \"{0} coins\"\n")
    [error] = check_paths([str(write(tmp_path, clash, KEYWORDS.replace("call draw(you)", "call coins(you)")))]).errors
    assert "'coins' is both a counter and a procedure" in error.message
    assert error.hint == "give each its words: 'counter:coins' and 'procedure:coins'"


def test_numbers_and_terms_a_text_names():
    assert numbers("Pay two coins, then 3 more; 1 is not counted, nor one.", "en") == {2, 3}
    assert numbers("Payez deux pièces, puis 12 ; un n'est pas compté.", "fr") == {2, 12}
    defn, prose = seeders("en")
    nouns = prose.renderer.vocab.nouns()
    found = terms("Take the first Worker of the secondary crew pile into your hand", nouns)
    assert found == {("zone:secondary_crews",), ("zone:hand",), ("class:ouvrier",)}
    assert disagreement("Gain 2 resources.", "Gain 2 resources.", "en", nouns) is None
    assert disagreement("Gain 2 Jailer tokens.", "Gain 2 resources.", "en", nouns) == \
        "it names 'Jailer token', which its rules never do"


def test_every_shipped_keyword_text_agrees_with_its_rules():
    from interpreter.resources import content_dir
    report = check_paths([str(content_dir())])
    assert report.ok
    assert [d for d in report.diagnostics if d.severity == "warning"] == []
    defn, _ = seeders()
    printed = [kw for kw in defn.keywords if set(kw.texts) == set(LANGS)]
    assert len(printed) == len(defn.keywords)  # every keyword prints its text in both languages


# golden texts: real cards as a rules lawyer reads them, in both languages --------------------

def prose_of(game, lang):
    defn, found = loaded(shipped_game(game))
    return defn, Prose(defn, found, lang)


def written(game, card_id, lang, index=0):
    defn, prose = prose_of(game, lang)
    return prose.reading(card(defn, card_id).abilities[index])


def written_with(expansion, card_id, lang, index=0):
    """An ability of a card of one of Seeders' expansions, as the engine's prose reads it."""
    defn, found = loaded(shipped_game("seeders-exodus"), (expansion,))
    return Prose(defn, found, lang).reading(card(defn, card_id).abilities[index])


@pytest.mark.parametrize("lang, text", [
    ("en", "During negotiation, you may tap this card to choose a player such that there are at least 2 chambers "
           "on which that player has influence cubes. Choose a chamber on which that player has influence "
           "cubes. Do this twice: you may choose another chamber on which that player has influence cubes, "
           "then if there is such a chamber, remove 1 influence cube of that player from the second chamber, "
           "then put 1 influence cube of that player on the first chamber."),
    ("fr", "Pendant la négociation : inclinez cette carte. Choisissez un joueur tel qu'il existe au moins 2 chambres "
           "sur lesquelles ce joueur a des cubes d'influence. Choisissez une chambre sur laquelle ce joueur a "
           "des cubes d'influence. Faites ceci deux fois : vous pouvez choisir une autre chambre sur laquelle "
           "ce joueur a des cubes d'influence, puis s'il existe une telle chambre, retirez 1 cube "
           "d'influence de ce joueur de la deuxième chambre, puis placez 1 cube d'influence de ce joueur sur la "
           "première chambre."),
])
def test_conspirateur_names_its_player_and_chambers_by_their_nouns(lang, text):
    # the action's condition (some player has cubes in 2 chambers) is what its first choice says: said once;
    # 'src != dest' is what 'another chamber' says
    assert written("seeders-exodus", "conspirateur", lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "Majorité 3 - Module: When the prestige of this card is counted, if you have more modules in play "
           "than each opponent, score 3 PP."),
    ("fr", "Majorité 3 - Module : Quand le prestige de cette carte est compté, si vous avez plus de modules en jeu "
           "que chaque adversaire, marquez 3 PP."),
])
def test_technopole_says_its_let_where_it_is_read(lang, text):
    assert written("seeders-exodus", "technopole", lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "Recrutement Ouvrier: When this card is integrated, let the Worker be the first Worker in the "
           "secondary crew pile. If there is such a Worker, move that Worker to your hand."),
    ("fr", "Recrutement Ouvrier : Quand cette carte est intégrée, soit l'Ouvrier : le premier Ouvrier dans la "
           "pile d'équipages secondaires. S'il existe un tel Ouvrier, mettez cet Ouvrier dans votre main."),
])
def test_a_recruiting_card_names_the_card_it_recruits_by_its_class(lang, text):
    assert written("seeders-exodus", "chef-de-chantier", lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "Éradication: When this card is played on an active planet, you may choose one of the creatures "
           "in play that is not this card. Make that creature extinct."),
    ("fr", "Éradication : Quand on joue cette carte sur une planète active, si vous le souhaitez, choisissez "
           "l'une des créatures en jeu qui n'est pas cette carte. Provoquez l'extinction de "
           "cette créature."),
])
def test_a_karman_creature_chooses_its_victim_once(lang, text):
    assert written("karman-swap", "kraken", lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "When this card is played as a Flash, choose an opponent who has rock cubes. If "
           "there is such an opponent, let the number be the smaller of 2 and the number of rock cubes of that "
           "opponent, then that opponent loses that many rock cubes, then gain that many rock cubes."),
    ("fr", "Quand cette carte est jouée en Flash, choisissez un adversaire qui a des cubes de roche. "
           "S'il existe un tel adversaire, soit le nombre : le plus petit de 2 et le nombre de cubes de roche de cet "
           "adversaire, puis cet adversaire perd ce nombre de cubes de roche, puis gagnez ce nombre de cubes de "
           "roche."),
])
def test_an_etherium_flash_card_says_how_many_it_takes_as_that_many(lang, text):
    assert written("etherium", "larcin", lang) == text


@pytest.mark.parametrize("lang, text", [
    ("en", "When this card is integrated, put 1 Jailer token on this card. During negotiation or integration, you "
           "may remove 1 Jailer token from this card and pay 1 resource to choose one of the crews in play "
           "that a player controls. That crew is no longer a Mutant. Move that crew to your prison. "
           "During negotiation or integration, if your prison is not empty, you may remove 1 Jailer token from this "
           "card and pay 1 resource to choose a crew in your prison. Move that crew to your hand."),
    ("fr", "Quand cette carte est intégrée, placez 1 jeton Geôlier sur cette carte. Pendant la négociation ou "
           "l'intégration : retirez 1 jeton Geôlier de cette carte et payez 1 ressource. Choisissez l'un des "
           "équipages en jeu que contrôle un joueur. Cet équipage n'est plus un "
           "Mutant. Mettez cet équipage dans votre prison. Pendant la négociation ou l'intégration, si votre prison "
           "n'est pas vide : retirez 1 jeton Geôlier de cette carte et payez 1 ressource. Choisissez un équipage "
           "dans votre prison. Mettez cet équipage dans votre main."),
])
def test_a_keyword_definition_reads_as_sentences(lang, text):
    defn, prose = prose_of("seeders-exodus", lang)
    geolier = next(k for k in defn.keywords if k.pattern == "Geôlier")
    assert prose.keyword(geolier) == text


@pytest.mark.parametrize("expansion, card_id, lang, text", [
    # `not tapped(self)`: 'this card is not tapped', not 'it is not so that this card is tapped';
    # `cause == you`: 'you caused it', not 'the player who caused it is you'
    ("hanks", "hanks-kessra", "en", "Whenever a card is recycled, if you caused it and the card is not a Relay and "
                                    "this card is not tapped, tap this card. Gain 1 resource."),
    ("hanks", "hanks-kessra", "fr", "Chaque fois qu'une carte est recyclée, si c'est vous qui l'avez provoqué et que "
                                    "la carte n'est pas un Relais et que cette carte n'est pas inclinée, inclinez "
                                    "cette carte. Gagnez 1 ressource."),
    # `controller(card) == you`: 'you control the card'
    ("hanks", "hanks-zephyr", "en", "Whenever a card is integrated, if the card is a Quincailleur and you control the "
                                    "card, gain 1 resource."),
    # two conditions, each a clause: 'si A et que B'
    # a caste's cards: 'une carte Quincailleurs', not 'un Quincailleurs'
    ("hanks", "hanks-zephyr", "fr", "Chaque fois qu'une carte est intégrée, si la carte est une carte Quincailleurs "
                                    "et que vous contrôlez la carte, gagnez 1 ressource."),
    # `supply("mutagen") > 0`, not 'the supply of Mutagen tokens is more than 0'
    ("tais", "chimere", "en", "Intégration: When this card is integrated, if there are Mutagen tokens left in the "
                              "supply, put 1 Mutant token on this card, then this card becomes a Mutant."),
    ("tais", "chimere", "fr", "Intégration : Quand cette carte est intégrée, s'il reste des jetons Mutagène dans la "
                              "réserve, placez 1 jeton Mutant sur cette carte, puis cette carte devient un Mutant."),
    # `last([each x in discard where ...])`: 'the last card in', 'la dernière carte' (feminine); one zone is
    # not a set to be among: 'in the discard pile', 'dans la défausse'
    ("hanks", "hanks-aldee", "en", "During integration, if there is a card in the discard pile that is not an "
                                   "Event card, you may tap this card to move the last card in the discard pile "
                                   "that is not an Event card to your hand."),
    ("hanks", "hanks-aldee", "fr", "Pendant l'intégration, s'il existe une carte dans la défausse qui n'est pas une "
                                   "carte Événement : inclinez cette carte. Mettez la dernière carte dans la défausse "
                                   "qui n'est pas une carte Événement dans votre main."),
    # `gain select(C, 2, 1) resource`: '2 resources if C, else 1 resource', not 'as many resources as 2 if ...'
    ("etho", "etho-aldee", "en", "Whenever the integration phase starts, gain 2 resources if the number of your "
                                 "Theocrat cards is more than 0, else 1 resource."),
    ("etho", "etho-aldee", "fr", "Chaque fois que la phase d'intégration commence, gagnez 2 ressources si le nombre "
                                 "de vos cartes Théocrates est supérieur à 0, sinon 1 ressource."),
])
def test_built_ins_are_said_as_a_person_would_say_them(expansion, card_id, lang, text):
    assert written_with(expansion, card_id, lang) == text


def test_a_place_other_than_a_card_s_holder_is_one_that_does_not_hold_it():
    # `pl != holder(c)`: 'a planet that does not hold that creature', not 'that is not what holds'
    assert "Choose a planet in the row of planets in play that does not hold that creature and on which" in \
        written("karman-swap", "pyrax", "en")
    assert "Choisissez une planète dans la rangée des planètes en jeu qui ne porte pas cette créature et sur " \
           "laquelle" in written("karman-swap", "pyrax", "fr")


def test_two_cards_held_apart_are_not_in_the_same_place():
    # `holder(a) != holder(x)`: not 'what holds the first card is not what holds it'
    assert "may be swapped and the first card and it are not in the same place" in \
        written("karman-swap", "gorgonelle", "en")
    # and in French the second condition of « telle que » is a clause of its own: « et que »
    assert "peuvent être échangées et que la première carte et celle-ci ne sont pas au même endroit" in \
        written("karman-swap", "gorgonelle", "fr")


def test_what_holds_a_card_is_said_in_the_masculine_in_french():
    # `tapped(holder(self))`: « ce qui porte cette carte est incliné », not « inclinée »
    assert "si ce qui porte cette carte est incliné : inclinez cette carte" in \
        written_with("hanks", "relais-de-maintenance", "fr")


def test_an_adjective_in_ive_agrees_with_a_masculine_subject_in_french():
    # `active(place)` said « {0} est active » of a planet; the first place is an « emplacement »
    told = written("karman-swap", "gorgonelle", "fr")
    assert "Si le premier emplacement est actif et que le deuxième emplacement est actif, choisissez" in told


def test_a_feminine_attribute_compared_agrees_in_french():
    # `x.strong > 1`, the strong influence ('influence forte', feminine)
    assert "dont l'influence forte est supérieure à 1" in written("seeders-exodus", "fille-de-joie", "fr")
    assert "whose strong influence is more than 1" in written("seeders-exodus", "fille-de-joie", "en")
    assert "en jeu est supérieur à 1" in written("karman-swap", "drakhen", "fr")  # 'le nombre', masculine


def test_no_shipped_card_prints_a_bound_name():
    """What a rule calls `q`, `ch`, `src` or `dest` is never printed: each is said by its noun."""
    for game in shipped_games():
        defn, found = loaded(shipped_game(game))
        for lang in LANGS:
            prose = Prose(defn, found, lang)
            for c in defn.cards:
                names = {n for ab in c.abilities if ab.tree is not None for n in _bound(ab.tree)} - {"a", "y"}
                for line in [prose.reading(ab) for ab in c.abilities]:
                    said = set(re.findall(r"[\w-]+", line))
                    assert not names & said, (c.id, lang, names & said, line)


def _bound(tree):
    from interpreter.language.prose.cards import bound_names
    return bound_names(tree)


def test_a_game_gives_words_to_its_labels_values_and_what_setting_a_counter_means(tmp_path):
    game = GAME.replace("counters:\n", "counters:\n  rich: {scope: player, internal: true}\n") + """\
  fr:
    coins: [pièce, pièces, f]
    "label:Draw": "Piocher"
    "value:Sun": Soleil
    "set:rich": "{0} devenez riche"
    "when:rich": "{0} êtes riche"
"""
    keywords = KEYWORDS + """\
  - pattern: "Gamble"
    ability: |
      action during main:
        choose by you "Gamble?":
          option "Draw":
            set you.rich = 1
          option "Pass":
            set you.rich = 0
        if you.rich == 1 and self.suit == "Sun":
          gain 1 coins
"""
    folder = write(tmp_path, game, keywords)
    assert check_paths([str(folder)]).errors == []
    defn, found = read_and_check(folder, Report())
    gamble = next(kw for kw in defn.keywords if kw.name == "Gamble")
    fr = Prose(defn, found, "fr").keyword(gamble)
    assert "« Piocher » : vous devenez riche" in fr  # the label and what setting the counter means
    assert "« Pass » :" in fr  # a label without words, as written
    assert "vous êtes riche" in fr and "Soleil" in fr and "Sun" not in fr
    en = Prose(defn, found, "en").keyword(gamble)
    assert "rich" not in en.replace("“", "").split("Draw")[0]  # an internal counter without words: unsaid
    assert "set" not in en.lower().split()


def test_a_game_without_vocabulary_is_written_with_generic_phrases(tmp_path):
    defn, found = read_and_check(write(tmp_path, GAME.replace("  en:\n    coins: [coin, coins]\n", "  en:\n")),
                                 Report())
    fr = Prose(defn, found, "fr").ability(defn.cards[0].abilities[0])
    assert "1 coin " in Prose(defn, found, "en").ability(defn.cards[0].abilities[0])  # 'coins': one coin
    assert fr.startswith("Tithe : Pendant") or fr.startswith("Pendant main")


@pytest.mark.parametrize("card_id, lang, text", [
    # `min(3, count(...))`: '1 resource for each Worker, up to 3', not 'the smaller of 3 and the number of ...'
    ("porte-voix-des-ateliers", "en", "Intégration: When this card is integrated, gain 1 resource for each of your Workers in "
                                      "play, up to 3."),
    ("porte-voix-des-ateliers", "fr", "Intégration : Quand cette carte est intégrée, gagnez 1 ressource pour chaque Ouvrier parmi "
                                      "vos cartes en jeu, dans la limite de 3."),
    ("dock-d-assemblage", "fr", "Intégration : Quand cette carte est intégrée, gagnez autant de ressources que le nombre de vos "
                                "modules moins 1, dans la limite de 4."),
])
def test_an_amount_with_a_ceiling_says_its_ceiling_last(card_id, lang, text):
    assert written("seeders-exodus", card_id, lang) == text


# what a zone holds names its members ---------------------------------------------------------

HOLDING = GAME.replace("  table: {scope: player, in_play: true}\n",
                       "  table: {scope: player, in_play: true, holds: HOLDS}\n").replace(
    "vocabulary:\n  en:\n", "vocabulary:\n  en:\n    \"class:Sun\": [sun card, sun cards]\n") + \
    "  fr:\n    card: [carte, cartes, f]\n    \"class:Sun\": [carte Soleil, cartes Soleil, f]\n"
RECLAIM = """\
kind: keywords
game: tiny
keywords:
  - pattern: "Reclaim"
    text: {en: "Take back a card you played.", fr: "Reprenez une carte jouée."}
    ability: |
      action during main:
        choose c from you.table by you "Card to take back"
        move c to you.hand
        if count(you.table) > 1:
          add count(you.table) to you.coins
"""


@pytest.mark.parametrize("holds, member", [("card", "card"), ("Sun", "sun card")])
def test_the_members_of_a_zone_are_named_by_what_it_holds(tmp_path, holds, member):
    """A zone that declares `holds:` (a component kind or a class) names its members by it: 'that
    planet', not 'that card', in the engine's reading of a card (regles explain, the docs)."""
    folder = write(tmp_path, game=HOLDING.replace("HOLDS", holds), keywords=RECLAIM, ability="Reclaim")
    report = check_paths([str(folder)])
    assert report.ok, [d.message for d in report.diagnostics]
    defn, found = read_and_check(folder, Report())
    reading = Prose(defn, found, "en").reading(defn.cards[0].abilities[0])
    assert reading == (f"Reclaim: During main, you may choose a {member} in your table. Move that {member} to "
                       f"your hand. If you have more than 1 {member} in your table, take 1 coin for each {member} "
                       f"in your table."), reading
    french = Prose(defn, found, "fr").reading(defn.cards[0].abilities[0])
    assert ("cette carte Soleil" in french) == (holds == "Sun"), french


def test_a_zone_holding_what_the_game_does_not_declare_is_an_error_with_a_hint(tmp_path):
    folder = write(tmp_path, game=HOLDING.replace("HOLDS", "crad"))
    report = check_paths([str(folder)])
    [error] = [d for d in report.diagnostics if d.code == "N016"]
    assert "zone 'table' holds unknown component kind or class 'crad'" in error.message
    assert "card" in error.hint
    assert (error.position.path.endswith("game.yaml"), error.position.line) == (True, 10)


def test_a_zone_gives_the_preposition_a_move_into_it_takes():
    # the KS vocabulary's `surface: {..., into: sur}`: « sur la surface », not « dans la surface »
    told = written("karman-swap", "pyrax", "fr")
    assert "Mettez cette créature sur la surface de cette planète." in told and "dans la surface" not in told
    assert "Move that creature to the surface of that planet." in written("karman-swap", "pyrax", "en")
    # a zone whose noun gives none keeps the language's own
    assert "Mettez cette carte dans votre main." in written("karman-swap", "ronce-crabe", "fr")


def test_a_value_no_longer_spoken_of_leaves_its_noun_to_the_next():
    # Rappel: the card taken from a planet is not read after it is moved, so the card then chosen
    # in the hand is 'a card' and 'that card', not 'a second card' of a first one long gone
    told = written("karman-swap", "ronce-crabe", "en")
    assert "Move that card to your hand. Choose a card in your hand. Move that card to the Market." in told
    assert "Choisissez une carte dans votre main. Mettez cette carte dans le Marché." in \
        written("karman-swap", "ronce-crabe", "fr")
    # Cueillette: each card of the hand offered, after the Market card moved there
    assert "for each card in your hand (only if that card is a creature" in written("karman-swap", "k-ib", "en")
    # a value said by its rank keeps it, even once the other is no longer spoken of: Troc's
    # second card stays 'the second card' after the first has moved
    assert "Move the first card to the Market. Move the second card to the zone of the first card." in \
        written("karman-swap", "cendreux", "en")
    # and a value introduced by its rank ('another chamber') keeps it once the first is gone
    told = written("seeders-exodus", "antre-des-faussaires", "en", index=1)
    assert told.endswith("on the second chamber.") and "that chamber." not in told
