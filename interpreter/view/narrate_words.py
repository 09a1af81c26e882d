"""The sentences a game is told in, one table per language (`view/narrate.py` fills them in).

A template is keyed by what it says; `{0}`, `{1}`... or named fields are what it is said of.
A key ending in `_you` is the sentence said of the seat told ('you chose' / 'vous avez choisi'),
used instead of the plain key when the language says it otherwise; a key ending in `_f` is the
sentence said of a feminine noun, `_many` of a plural one. In French the names the narration
builds are then written as French writes them (`french_spelling`: 'de le' -> 'du', 'à les' ->
'aux', 'de la' before a vowel -> "de l'"); what content says (a label, a prompt, a log) is left
as written.
"""
from __future__ import annotations

import re

from ..engine.phrases import ENGLISH as PHRASES
from ..language.prose.french import elide

WORDS = {
    "en": {
        # seats
        "you": "you", "player": "player {0}", "team": "team {0}",
        "whose_you": "your {bare}", "whose": "{who}'s {bare}",
        "whose_team_you": "your team's {bare}", "whose_team": "team {n}'s {bare}",
        "of_player": "player {0}", "your_team": "your team", "the_game": "the game",
        "and": "{0} and {1}", "wins": "{0} wins", "wins_you": "{0} win", "wins_many": "{0} win",
        # names of zones and counters
        "zone": "{0}", "zone_f": "{0}", "zone_many": "{0}", "zone_at": "{bare} at {node}", "zone_of": "{bare} of {card}",
        "counter": "{0}", "counter_at": "at {0}", "counter_on": "on {0}", "counter_of": "of {0}",
        "a_card": "a card",
        "a": "a {0}", "an": "an {0}", "a_f": "a {0}",  # a class a card gains: 'an immobile ship'
        # events
        "start": "== {0}: {1} players, seed {2} ==",
        "moved": "  {0} moved {1}", "moved_many": "  {0} ×{2} moved {1}", "moved_several": "  {0} moved {1}",
        "others": "{0} others",
        "hidden_moved": "  a card moved {0}", "hidden_moved_many": "  {1} cards moved {0}",
        "from_to": "from {0} to {1}", "to": "to {0}",
        "within": "within {0}",
        "shuffled": "  {0} shuffled",
        "tagged": "  {0} becomes {1}", "untagged": "  {0} is no longer {1}",
        "set": "  {0}: {1} set to {2}", "tapped": "  {0} tapped", "untapped": "  {0} untapped",
        "counter_changed": "  {0}: {1} (now {2})", "counter_hidden": "  {0} changed",
        "only_option": "  ({0}'s only option: {1})", "only_option_you": "  (your only option: {1})",
        "chose": "{0} chose: {1}", "chose_secretly": "{0} chose secretly", "asked": "  [asked: '{0}']",
        "chose_secretly_many": "{0} chose secretly {1} times", "asked_many": "  [asked: {0}]",
        "quoted": "'{0}'",  # another seat's option, as its label says it to that seat ('End your turn')
        "option_hidden": "an option you cannot see", "the_only_option": " (the only option)",
        "uses": "  {0} uses {1}", "uses_you": "  {0} use {1}", "free": " (its costs not paid)",
        "cannot_use": "  {0} cannot use {1}",
        "dice": "  dice: {0}", "revealed": "  revealed: {0}", "failed": "  (failed: {0})",
        "cut": "  ({0} more events without a decision, not recorded)",
        "won": "== {0} ==", "no_winner": "== no winner ==",
        "decides": "{0} decides {1}: {2}", "decides_unasked": "{0} decides: {1}", "nothing": "nothing",
        "rule_line": "{0}: {1}",  # a rule, then the line of the rules it is
        "by_preference": "by its preference", "by_rule": "by its rule {0}", "no_rule": "no rule applied",
        # the terminal
        "seats_you_are": "You are {0}", "seats_partner": ", with {0} as your partner",
        "seats_partners": ", with {0} as your partners", "seats_against": ", against {0}",
        "seats_alone": " and play alone", "seat_by_rules": "{0} (seat {1}, played by its rules)",
        # the bots, as a seat is said to be played by one, at the terminal and on the start page
        # ('mcts:400': {0} its budget)
        "bot_random": "random", "bot_greedy": "greedy", "bot_mcts": "search, {0} iterations",
        "bot_mcts_time": "search, {0} a decision",
        "game_over": "Game over. {0}", "scores": "Scores: {0}", "standing": "{0}: {1}", "left": "Game left unfinished.",
        "outcome_team": "{0} wins ({1}).", "your_team_cap": "Your team", "team_cap": "Team {0}",
        "outcome_none": "No winner.",
        "expansions": "Expansions: {0}.", "power": "{0} plays with the power {1}.", "scenario": "Scenario: {0}.",
        "sheet": "{0} plays {1}: their sheet, {2}.", "sheets_each": "Each player takes the sheet of the {0} they play:",
        "sheets_other": "Each other player takes the sheet of the {0} they play:",
        # the screen of a decision
        "seen": "-- what you see (you are player {0} of {1}) --", "tapped_item": "{0} (tapped)",
        "hidden_cards": "{0} hidden card", "hidden_cards_many": "{0} hidden cards", "yours_among": " (yours: {0})",
        "group_you": "you", "group_team_you": "your team", "group_game": "the game", "group_team": "team {0}",
        "left_in_supply": "  left in supply: {0}",
        "changed": "-- changed --", "unchanged": "-- nothing you see changed --", "choose": "Choose",
        "your_choice": "your choice (1-{0}, q to quit): ",
        # what the engine writes into a decision (view/texts.py): an optional ability, yes and no
        "ask": "{0}: use it?", "ask_plain": "use {0}?", "yes": "yes", "no": "no", "none": "none",
        "please": "  please type a number from 1 to {0}, or q to quit (? N: the card of option N as printed; "
                  "why MOVE: why a move is not offered; bot: what the last bot weighed)",
        "no_bot": "  no bot has weighed options yet in this game",
        "bot_weighed": "  {0}, asked '{1}':",
        # what a table in the browser tells every seat of itself (play/web)
        "supply_left": "{0} left in supply", "forked": "Played on from the trace {0}, from event {1}.",
        "is_asked": "{0} is asked '{1}'{2}", "is_asked_you": "you are asked '{1}'{2}",
        "game_is_over": "the game is over",
        "clock_out": "-- {0}'s time ran out: the bot {1} decides for them.",
        "undo_asks": "-- {0} asks to take back decision {1} ('{2}').",
        "undo_refused": "-- {0} refuses to take back {1}'s decision.",
        "undo_done": "-- Decision {0} is taken back, by agreement of {1}: the table is as it was before it.",
        "undo_done_1": "-- Decision {0} and the one after it are taken back, by agreement of {1}: the table is as "
                       "it was before it.",
        "undo_done_many": "-- Decision {0} and the {2} after it are taken back, by agreement of {1}: the table is "
                          "as it was before it.",
        # why not? (engine.why, engine.phrases): the engine's own English sentences
        **{f"why_{key}": text for key, text in PHRASES.items()},
        "why_not_yours_you": "it is {0}'s decision now ({1}), not yours",
        "why_not_in_play_you": "{0} is not possible: {1} is not in play under your control{3}",
        "why_has_for_cost_you": "you have {1} {2}, the cost is {3}",
        "why_rules_line": "rules of {0}, where the choice is asked: {1}",
        "why_what": "why what? type why and a move: an option's label, a card, 'use CARD'",
        "why_at_event": "at event {0}: {1}",
    },
    "fr": {
        "you": "vous", "player": "joueur {0}", "team": "équipe {0}",
        "whose_you": "votre {bare}", "whose_you_many": "vos {bare}", "whose": "{the} de {who}",
        "whose_team_you": "{the} de votre équipe", "whose_team": "{the} de l'équipe {n}",
        "of_player": "le joueur {0}",
        "your_team": "votre équipe", "the_game": "le jeu",
        "and": "{0} et {1}", "wins": "{0} gagne", "wins_you": "{0} gagnez", "wins_many": "{0} gagnent",
        "zone": "le {0}", "zone_f": "la {0}", "zone_many": "les {0}", "zone_at": "{the} de {node}", "zone_of": "{the} de {card}",
        "a": "un {0}", "an": "un {0}", "a_f": "une {0}",
        "counter": "{0}", "counter_at": "à {0}", "counter_on": "sur {0}", "counter_of": "de {0}",
        "a_card": "une carte",
        "start": "== {0} : {1} joueurs, graine {2} ==",
        "moved": "  {0} passe {1}", "moved_many": "  {0} ×{2} passent {1}", "moved_several": "  {0} passent {1}",
        "others": "{0} autres",
        "hidden_moved": "  une carte passe {0}", "hidden_moved_many": "  {1} cartes passent {0}",
        "from_to": "de {0} à {1}", "to": "à {0}",
        "within": "d'une place à une autre de {0}",
        "shuffled": "  mélange de {0}",
        "tagged": "  {0} devient {1}", "untagged": "  {0} n'est plus {1}",
        "set": "  {0} : {1} passe à {2}", "tapped": "  {0} s'incline", "untapped": "  {0} se redresse",
        "tapped_many": "  {0} s'inclinent", "untapped_many": "  {0} se redressent",
        "counter_changed": "  {0} : {1} ({2} maintenant)", "counter_hidden": "  changement de {0}",
        "only_option": "  (seule option de {0} : {1})", "only_option_you": "  (votre seule option : {1})",
        "chose": "{0} a choisi : {1}", "chose_you": "{0} avez choisi : {1}", "asked": "  [à la question « {0} »]",
        "quoted": "« {0} »",
        "chose_secretly": "{0} a choisi en secret", "chose_secretly_you": "{0} avez choisi en secret",
        "chose_secretly_many": "{0} a choisi en secret {1} fois", "asked_many": "  [aux questions {0}]",
        "option_hidden": "une option que vous ne voyez pas", "the_only_option": " (la seule option)",
        "uses": "  {0} utilise {1}", "uses_you": "  {0} utilisez {1}", "free": " (sans en payer les coûts)",
        "cannot_use": "  {0} ne peut pas utiliser {1}", "cannot_use_you": "  {0} ne pouvez pas utiliser {1}",
        "dice": "  dés : {0}", "revealed": "  révélé : {0}", "failed": "  (échec : {0})",
        "cut": "  ({0} autres événements sans décision, non enregistrés)",
        "won": "== {0} ==", "no_winner": "== aucun gagnant ==",
        "decides": "{0} décide {1} : {2}", "decides_you": "{0} décidez {1} : {2}", "nothing": "rien",
        "decides_unasked": "{0} décide : {1}", "decides_unasked_you": "{0} décidez : {1}", "rule_line": "{0} : {1}",
        "by_preference": "selon sa préférence", "by_rule": "selon sa règle {0}", "no_rule": "aucune règle ne s'applique",
        "seats_you_are": "Vous êtes {0}", "seats_partner": ", avec {0} pour partenaire",
        "seats_partners": ", avec {0} pour partenaires", "seats_against": ", contre {0}",
        "bot_random": "coups au hasard", "bot_greedy": "glouton", "bot_mcts": "recherche, {0} itérations",
        "bot_mcts_time": "recherche, {0} par décision",
        "seats_alone": " et jouez seul", "seat_by_rules": "{0} (place {1}, jouée par ses règles)",
        "game_over": "Partie terminée. {0}", "scores": "Scores : {0}", "standing": "{0} : {1}",
        "left": "Partie laissée inachevée.",
        "outcome_team": "{0} gagne ({1}).", "your_team_cap": "Votre équipe", "team_cap": "L'équipe {0}",
        "outcome_none": "Aucun gagnant.",
        "expansions": "Extensions : {0}.", "power": "{0} joue avec le pouvoir {1}.", "scenario": "Scénario : {0}.",
        "sheet": "{0} joue {1} : sa fiche, {2}.", "sheets_each": "Chaque joueur prend la fiche du {0} qu'il joue :",
        "sheets_other": "Chaque autre joueur prend la fiche du {0} qu'il joue :",
        "seen": "-- ce que vous voyez (vous êtes le joueur {0} sur {1}) --", "tapped_item": "{0} (inclinée)",
        "hidden_cards": "{0} carte cachée", "hidden_cards_many": "{0} cartes cachées", "yours_among": " (les vôtres : {0})",
        "group_you": "vous", "group_team_you": "votre équipe", "group_game": "le jeu", "group_team": "équipe {0}",
        "left_in_supply": "  reste en réserve : {0}",
        "changed": "-- ce qui a changé --", "unchanged": "-- rien de ce que vous voyez n'a changé --", "choose": "Choisissez",
        "your_choice": "votre choix (1-{0}, q pour quitter) : ",
        "ask": "{0} : l'utiliser ?", "ask_plain": "Utiliser {0} ?", "yes": "oui", "no": "non", "none": "aucun",
        "please": "  tapez un nombre de 1 à {0}, ou q pour quitter (? N : la carte de l'option N telle qu'imprimée ; "
                  "why COUP : pourquoi un coup n'est pas proposé ; bot : ce que le dernier robot a pesé)",
        "no_bot": "  aucun robot n'a encore pesé d'options dans cette partie",
        "bot_weighed": "  {0}, à « {1} » :",
        "supply_left": "{0} en réserve", "forked": "Partie reprise de la trace {0}, à l'événement {1}.",
        "is_asked": "{0} doit répondre à « {1} »{2}", "is_asked_you": "Vous devez répondre à « {1} »{2}",
        "game_is_over": "la partie est finie",
        "clock_out": "-- Le temps de {0} est écoulé : le robot {1} décide à sa place.",
        "undo_asks": "-- {0} demande à reprendre la décision {1} (« {2} »).",
        "undo_refused": "-- {0} refuse de reprendre la décision de {1}.",
        "undo_done": "-- La décision {0} est reprise, tous d'accord ({1}) : la table est comme avant elle.",
        "undo_done_1": "-- La décision {0} et celle qui la suit sont reprises, tous d'accord ({1}) : la table "
                       "est comme avant elle.",
        "undo_done_many": "-- La décision {0} et les {2} qui la suivent sont reprises, tous d'accord ({1}) : la "
                          "table est comme avant elle.",
        # why not? (view.why says the engine's phrases with these)
        "why_game_over": "la partie est finie : aucun coup n'est possible",
        "why_no_move": "aucun coup donné",
        "why_unknown": "aucune option, carte ni action {0} n'est connue ici",
        "why_offered": "{0} est proposé maintenant : option {1} de {2}",
        "why_not_yours": "c'est à {0} de décider maintenant ({1}), pas à {2}",
        "why_not_yours_you": "c'est à {0} de décider maintenant ({1}), pas à vous",
        "why_not_among": "{0} n'est pas proposé : {1} n'est pas dans {2}{3}",
        "why_not_among_it": "{0} n'est pas proposé : ce n'est pas un membre de {1}{2}",
        "why_possible": "{0} est possible maintenant",
        "why_not_offered": "{0} n'est pas proposé : {1} est faux",
        "why_no_action": "{0} n'a pas d'action à utiliser",
        "why_not_in_play": "{0} n'est pas possible : {1} n'est pas en jeu sous le contrôle de {2}{3}",
        "why_not_in_play_you": "{0} n'est pas possible : {1} n'est pas en jeu sous votre contrôle{3}",
        "why_no_action_now": "{0} n'est pas possible : aucune action de carte n'est proposée maintenant, pendant la "
                             "question {1}",
        "why_other_window": "{0} n'est pas possible maintenant : elle s'utilise pendant {1}, et cette décision "
                            "propose les actions pendant {2}",
        "why_used": "{0} n'est pas possible : elle a déjà servi, une fois par {1}",
        "why_condition": "{0} n'est pas possible : sa condition {1} est fausse",
        "why_cost": "{0} n'est pas possible : son coût {1} ne peut pas être payé",
        "why_action_possible": "{0} de {1} est possible maintenant",
        "why_is_in": " (dans {0})",
        "why_did_you_mean": " ; vouliez-vous dire {0} ?",
        "why_or": "{0} ou {1}",
        "why_rules_of_procedure": "la procédure {0}",
        "why_rules_of_keyword": "le mot-clé {0}",
        "why_is": "{0} = {1}",
        "why_holds": "{0} contient {1}",
        "why_is_empty": "{0} est vide",
        "why_quoted_false": "« {0} » est faux",
        "why_of_classes": " (de classe {0})",
        "why_of_no_class": " (d'aucune classe)",
        "why_in_call": "dans {0}",
        "why_in_call_where": "dans {0}, où {1}",
        "why_call_where": "{0}, où {1},",
        "why_described": "{0} ({1})",
        "why_gives": "{0} donne {1}",
        "why_gives_nothing": "{0} ne donne rien : {1} est vide",
        "why_left_out": "{0} : {1} est faux",
        "why_left_out_why": "{0} : {1} est faux ({2})",
        "why_leaves_out": "{0} laisse de côté {1}",
        "why_more": "et {0} de plus",
        "why_an_error": "une erreur ({0})",
        "why_has_for_cost": "{0} a {1} {2}, le coût est de {3}",
        "why_has_for_cost_you": "vous avez {1} {2}, le coût est de {3}",
        "why_colon": " : ", "why_semicolon": " ; ",
        "why_rules_line": "règles de {0}, où la question est posée : {1}",
        "why_what": "pourquoi quoi ? tapez why et un coup : le libellé d'une option, une carte, « use CARTE »",
        "why_at_event": "à l'événement {0} : {1}",
    },
}
LANGS = tuple(WORDS)
# the words a French name in the plural begins with: the articles and determiners of the plural
_FRENCH_PLURAL_ARTICLES = frozenset(("les", "des", "ces", "mes", "tes", "ses", "nos", "vos", "leurs"))

# 'de le joueur 2' -> 'du joueur 2', 'à les ateliers' -> 'aux ateliers', 'le atelier' -> "l'atelier":
# the rules of the prose renderer, one copy
french_spelling = elide


class Words:
    """The sentences of one language: `w(key, *args)`, the key's template filled in (its `_you`
    form when `you`); in French the words around the arguments spelt as French writes them, the
    arguments given as `said(text)` (content: labels, prompts, logs) left as they are."""

    def __init__(self, lang: str = "en"):
        if lang not in WORDS:
            raise ValueError(f"no narration in '{lang}': languages {', '.join(LANGS)}")
        self.lang = lang
        self.table = WORDS[lang]

    def template(self, key: str, you: bool = False) -> str:
        if you and key + "_you" in self.table:
            return self.table[key + "_you"]
        return self.table[key]

    def has(self, key: str) -> bool:
        return key in self.table

    def plural(self, n) -> bool:
        """Whether a noun counted `n` is said in the plural: English for every number but 1 and
        -1 ('0 cubes', '1 cube', '-1 cube'); French from 2 on, as its grammars count ('0 cube',
        '2 cubes'). A count that is no number (None) takes the plural."""
        if not isinstance(n, int):
            return True
        return abs(n) >= 2 if self.lang == "fr" else abs(n) != 1

    def plural_name(self, name: str, plural: bool = False) -> bool:
        """Whether a name a card is printed with takes a verb in the plural: in French when its
        card says it names several things (`plural`, « Jardins suspendus passent ») or it
        begins with a plural article (« Les Marchands du port passent »). English verbs in the
        past take no number ('moved', 'tapped')."""
        if self.lang != "fr":
            return False
        return plural or (" " in name and name.split(" ", 1)[0].lower() in _FRENCH_PLURAL_ARTICLES)

    def w(self, key: str, *args, you: bool = False, **named) -> str:
        text = self.template(key, you)
        if self.lang != "fr":
            return text.format(*args, **named)
        kept = []

        def hold(a):
            if isinstance(a, Said):
                kept.append(str(a))
                return f"\x00{len(kept) - 1}\x00"
            return a
        text = french_spelling(text.format(*[hold(a) for a in args], **{k: hold(v) for k, v in named.items()}))
        return re.sub("\x00([0-9]+)\x00", lambda m: kept[int(m.group(1))], text)


_WORDS: dict = {}


def words_in(lang: str) -> Words:
    """The Words of a language, made once."""
    got = _WORDS.get(lang)
    if got is None:
        got = _WORDS[lang] = Words(lang)
    return got


class Said(str):
    """Text as content wrote it (a label, a prompt, a log): told as it is, never respelt."""


def bot_said(name: str, lang: str) -> str:
    """A bot as a seat played by it is told, by the name the command line takes in its words
    ('greedy', « glouton »; 'mcts:400': 'search, 400 iterations'); a bot the words do not know
    (a file of one's own) by its name."""
    kind, _, budget = str(name).partition(":")
    w = words_in(lang)
    key = f"bot_{kind}" + ("_time" if budget.endswith("s") else "")
    if not w.has(key) or (kind == "mcts") != bool(budget):
        return str(name)
    return w.w(key, Said(budget))


def cap(text: str) -> str:
    """The first letter of a sentence in upper case ('joueur 2 a choisi' -> 'Joueur 2 a choisi')."""
    return text[:1].upper() + text[1:]
