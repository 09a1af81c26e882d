"""Rules written as French prose: `French`, the English renderer with French words.

Only what French says otherwise is here: the word table, the articles and the
agreement of 'tel que' with the gender of a noun, the way an action reads
('pendant ... : inclinez cette carte, puis ...', since French card texts chain
imperatives where English says 'you may ... to ...'), and the last touches of
French spelling ('de le' -> 'du', 'le ordre' -> "l'ordre", 'les cartes de vous'
-> 'vos cartes').
"""
from __future__ import annotations

import re

from .. import nodes as N
from .english import English
from .vocabulary import Noun

_VOWEL = "aeiouyhàâäéèêëîïôöûüœAEIOUYHÀÂÉÈÊÎÔÛ"
# words whose h is 'aspiré': no elision before them ('la hauteur', 'le héros', 'ce hasard'),
# the common stems of the language (a word of a game's own that starts so is rare)
_ASPIRATED = r"(?![Hh](?:a(?:ut|sard|che|ine|lte|meau|ngar|rpe|rdi|nche|rnais|ie|lle|mac|ricot)|éros|éri|ibou|" \
             r"iér|o(?:nte|rs|rde|mard|llande|uss)|u(?:tte|rl|ée|it)))"
_ELISIONS = [
    (re.compile(rf"\b([Ll])[ea] {_ASPIRATED}(?=[{_VOWEL}])"), r"\1'"),
    (re.compile(rf"\b([Dd]|[Qq]u|[Nn]|[Jj]|[Ll]orsqu|[Pp]uisqu)e {_ASPIRATED}(?=[{_VOWEL}])"), r"\1'"),
    (re.compile(r"\b([Ss])i (?=il)"), r"\1'"),
    (re.compile(rf"\b([Cc])e {_ASPIRATED}(?=[{_VOWEL}])"), r"\1et "),
    (re.compile(r"\b([Dd])e le\b"), r"\1u"),
    (re.compile(r"\b([Dd])e les\b"), r"\1es"),
    (re.compile(r"\bà le\b"), "au"),
    (re.compile(r"\bà les\b"), "aux"),
    (re.compile(r"\b([Dd])e des\b"), r"\1es"),
]
_WORD = r"(?!(?:de|du|des|d|que|qui|et|ou|à|au|aux|le|la|les|l|un|une|dans|sur|pour|par|est|sont|si)\b)[\w’-]+"
_WORD = rf"(?:d'[\w’-]+|{_WORD})"  # 'cubes d'influence' is one noun
_OF_YOU = re.compile(rf"\b(les|des|le|la|l')\s?((?:{_WORD} ){{0,3}}{_WORD}) de vous\b")  # 'les cartes de vous'
_YOURS = {"les": "your_many", "des": "of_your_many"}
# 'l'emplacement de celui-ci': 'son emplacement'
_OF_IT = re.compile(rf"\b(les|le|la|l')\s?((?:{_WORD} ){{0,2}}{_WORD}) de (?:celui|celle)-ci\b")
_ITS = {"le": "son", "l'": "son", "la": "sa", "les": "ses"}
_PARTICIPLE = re.compile(r"\b(est|sont)( pas)? ([a-zéèêàâîôûç]+)ée(s?)\b")
# an adjective in -ive after « est »: « cette carte est active », « ce lieu est actif »
_ADJECTIVE_IVE = re.compile(r"\b(est|sont)( pas)? ([a-zéèêàâîôûç]+)ive(s?)\b")


def _masculine(phrase: str) -> str:
    """A phrase said of a feminine noun, said of a masculine one: its participle (« posée » ->
    « posé ») and its adjective in -ive (« active » -> « actif ») after « est »."""
    phrase = _PARTICIPLE.sub(lambda m: f"{m.group(1)}{m.group(2) or ''} {m.group(3)}é{m.group(4)}", phrase)
    return _ADJECTIVE_IVE.sub(lambda m: f"{m.group(1)}{m.group(2) or ''} {m.group(3)}if{m.group(4)}", phrase)


class French(English):
    """Rules as French prose."""

    _PLURAL = re.compile(r"^(?:les|vos|des|ces|nos|leurs|tous les|toutes les)\b")
    _LOCAL_SET = re.compile(r"^(?:ce|cet|cette) ")
    _YOURS = re.compile(r"^vos (.+)$")
    _THE = re.compile(r"^les (.+)$")
    _X_OF = None
    _THEIRS = re.compile(r"^les (.+) (?:de|d'|du|des) (.+)$")

    lang = "fr"
    WORDS = {
        **English.WORDS,
        "rule": "la règle « {0} »",
        "quoted": "« {0} »",
        "true": "vrai", "false": "faux", "nothing": "rien", "empty": "rien",
        "the": "le {0}", "the_f": "la {0}", "the_many": "les {0}", "a": "un {0}", "an": "un {0}", "a_f": "une {0}",
        "of": "{0} de {1}", "your": "votre {0}", "your_many": "vos {0}", "of_your_many": "de vos {0}", "yours": "vous",
        "and": "{0} et {1}", "and_clauses": "{0} et que {1}", "or": "{0} ou {1}", "either": "soit {0}, soit {1}", "list": "{0} et {1}",
        "number_of": "le nombre de {0} de {1}", "number_on": "le nombre de {0} sur {1}",
        "number_yours": "le nombre de vos {0}", "number_keyed": "le nombre de {0} de {1} sur {2}",
        "number_keyed_yours": "le nombre de vos {0} sur {1}",
        "as_many": "autant de {0} que {1}", "amount_if": "{1} si {0}, sinon {2}", "up_to": "{0}, dans la limite de {1}", "per": "{0} pour chaque {1}",
        "among": "{0} parmi {1}", "among_one": "{0} dans {1}", "such_that": "{0} tels que {1}",
        "some": "un {0}",
        "player": ["joueur", "joueurs"], "opponent": ["adversaire", "adversaires"], "card": ["carte", "cartes", "f"],
        "node": ["case", "cases", "f"], "number": ["nombre", "nombres"], "thing": ["élément", "éléments"],
        "result": ["résultat", "résultats"], "place": ["emplacement", "emplacements"],
        "selection": ["sélection", "sélections", "f"], "per_in": "{0} pour chaque {1} dans {2}",
        "that": "ce {0}", "that_f": "cette {0}", "it": "celui-ci", "it_f": "celle-ci", "it_person": "celui-ci", "the_nth": "le {0} {1}", "the_nth_f": "la {0} {1}",
        "another": "un autre {0}", "another_f": "une autre {0}", "a_nth": "un {0} {1}", "a_nth_f": "une {0} {1}",
        "ordinals": ["premier", "deuxième", "troisième", "quatrième", "cinquième"],
        "ordinals_f": ["première", "deuxième", "troisième", "quatrième", "cinquième"],
        "that_many": "ce nombre de {0}", "such": "il existe un tel {1}", "such_f": "il existe une telle {1}",
        "no_such": "il n'existe pas de tel {1}", "no_such_f": "il n'existe pas de telle {1}",
        "or_fail": "{0} (s'il n'y en a pas, cela ne peut pas se faire)", "per_of": "{0} pour chacun de {1}",
        "per_of_f": "{0} pour chacune de {1}", "has_a": "{0} a {1}", "some_have": "vous avez des {0}", "some_there": "il y a des {0}",
        "none_have": "vous n'avez pas de {0}", "none_there": "il n'y a pas de {0}",
        "some_there_in": "il y a des {0} dans {1}", "none_there_in": "il n'y a pas de {0} dans {1}",
        "more_than_them": "vous avez plus de {0} que {1}", "every_one": "chaque {0}", "first_one": "le premier {0}", "first_one_f": "la première {0}",
        "last_one": "le dernier {0}", "last_one_f": "la dernière {0}", "who_has": "qui a {0}", "who_have": "qui ont {0}", "has_no": "{0} n'a pas de {1}",
        "one_of": "l'un de {0}", "one_of_f": "l'une de {0}",
        "each_of": None, "controlled": "{0} est contrôlé par un joueur", "not_controlled": "{0} n'est contrôlé par aucun joueur", "other_than": "autre que {0}", "with": "{0} avec {1}",
        "count_in": "{0} dans {1}", "empty_in": "aucun {0} dans {1}",
        "there_is": "il existe {0}", "there_are": "il existe {0}",
        "at_least": "au moins {0}", "more_than": "plus de {0}", "at_most": "au plus {0}",
        "fewer_than": "moins de {0}", "exactly": "exactement {0}",
        "some_of": "des {0}", "none_of": "aucun {0}", "none_of_f": "aucune {0}",
        "has": ["vous avez {0}", "{who} a {0}"], "has_on": ["vous avez {0} sur {1}", "{who} a {0} sur {1}"],
        "has_none": ["vous n'avez {0}", "{who} n'a {0}"],
        "has_on_none": ["vous n'avez {0} sur {1}", "{who} n'a {0} sur {1}"],
        "on_it": "il y a {0} sur {1}", "on_it_one": "il y a {0} sur {1}", "on_it_none": "il n'y a {0} sur {1}",
        "empty_of_many": "{0} sont vides", "not_empty": "{0} n'est pas vide", "not_empty_many": "{0} ne sont pas vides",
        "mapped": "{expr} pour chaque {var} parmi {source}{where}", "where": " tels que {0}",
        "==": "{0} est {1}", "!=": "{0} n'est pas {1}", "<": "{0} est inférieur à {1}",
        "<=": "{0} est au plus {1}", ">": "{0} est supérieur à {1}", ">=": "{0} est au moins {1}",
        "<_f": "{0} est inférieure à {1}", ">_f": "{0} est supérieure à {1}",
        "is": "{0} est {1}", "isnot": "{0} n'est pas {1}",
        "in": "{0} est parmi {1}", "notin": "{0} n'est pas parmi {1}",
        "exists": "{0} existe", "missing": "{0} n'existe pas", "empty_of": "{0} est vide",
        "no_member": "il n'existe pas {0}",
        "not": "il est faux que {0}",
        "+": "{0} plus {1}", "-": "{0} moins {1}", "*": "{0} fois {1}", "/": "{0} divisé par {1}",
        "//": "{0} divisé par {1}, arrondi à l'inférieur", "%": "le reste de {0} divisé par {1}",
        "neg": "moins {0}", "entry": "l'entrée {1} de {0}", "option": "l'option {0}", "data": "la donnée {0}",
        "move": "mettez {0} dans {1}", "move_into": "mettez {0} {2} {1}", "move_top": "mettez {0} sur le dessus de {1}",
        "move_bottom": "mettez {0} sous {1}", "move_all": "les cartes de {0}",
        "put": "placez {0} sur {1}", "put_keyed": "placez {0} de {1} sur {2}", "of_yours": "{0} de vos {1}",
        "put_keyed_yours": "placez {0} sur {1}", "take_off_keyed_yours": "retirez {0} de {1}",
        "take_off": "retirez {0} de {1}", "take_off_keyed": "retirez {0} de {1} de {2}",
        "give": ["prenez {0}", "donnez {0} à {who}"], "take_away": ["perdez {0}", "prenez {0} à {who}"],
        "add_to": "ajoutez {0} à {1}", "subtract": "retirez {0} de {1}",
        "pay": ["payez {0}", "{who} paie {0}"],
        "gain": ["gagnez {0}", "{who} gagne {0}"], "lose": ["perdez {0}", "{who} perd {0}"],
        "score": ["marquez {0}", "{who} marque {0}"], "credited": "{0}, au titre de {1}",
        "set": "fixez {0} à {1}", "becomes": "{0} devient {1}", "let": "soit {0} : {1}",
        "quantity_keyed": "{0} de {1} sur {2}",
        "signal": "cela compte comme : {0}",
        "shuffle": "mélangez {0}", "tag": "{0} devient {1}", "untag": "{0} n'est plus {1}",
        "tap": "inclinez {0}", "untap": "redressez {0}", "reveal": "révélez {0}", "win": "{0} gagne la partie",
        "exit": "arrêtez « {0} »", "stop": "arrêtez-vous là", "stop_loop": "cessez de répéter",
        "next_turn": "passez au suivant", "do_nothing": "ne faites rien", "fail": "cela ne peut pas se faire",
        "roll": "lancez {0} dés à {1} faces",
        "choose": ["choisissez {0}", "{who} choisit {0}"],
        "may_choose": ["vous pouvez choisir {0}", "{who} peut choisir {0}"],
        "secretly": "en secret, {0}",
        "menu": ["choisissez : {0}", "{who} choisit : {0}"], "menu_or": " ; ou ",
        "option_label": "« {0} » : {1}", "option_only": "comme il est dit", "option_if": "« {0} » (seulement si {2}) : {1}",
        "option_each": "pour chaque {3}, « {0} » : {1}",
        "option_each_if": "pour chaque {3} (seulement si {2}), « {0} » : {1}",
        "actions": "utilisez une action", "actions_during": "utilisez une action de {0}",
        "decide": ["décidez {0} : {1}", "{who} décide {0} : {1}"], "decide_or": " ; sinon ",
        "prefer": "{0}", "prefer_if": "{0} si {1}",
        "use": ["utilisez une action de {0}", "{who} utilise une action de {0}"],
        "use_free": ["utilisez une action de {0} sans en payer les coûts",
                     "{who} utilise une action de {0} sans en payer les coûts"],
        "if": "si {0}, {1}", "elif": "sinon, si {0}, {1}", "else": "sinon, {0}", "branches": " ; ",
        "for": "pour chaque {0} : {1}", "repeat": "faites ceci {0} fois : {1}", "repeat_1": "faites ceci une fois : {0}",
        "repeat_2": "faites ceci deux fois : {0}", "repeat_ever": "répétez : {0}",
        "while": "tant que {0} : {1}", "the_effect": "appliquez {0}",
        "then": ", puis ", "sequence": ". ",
        "this_card": "cette carte", "when": "quand {0}", "whenever": "chaque fois que {0}",
        "if_clause": "{0}, si {1}", "optional": "si vous le souhaitez, {0}", "ability": "{0}, {1}",
        "during": "pendant {0}", "any_time": "à tout moment", "once": "{0}, une fois jusqu'à ce que {1}",
        "may": "{0} : {1}", "may_costs": "{0} : {1}. {2}", "costs": "{0} et {1}",
        "tap_self": "inclinez cette carte", "spend": "retirez {0} de cette carte",
        "sacrifice": "sacrifiez {0} que vous contrôlez",
        "printed": "{0} : {1}",
        "yes": "oui", "no": "non", "attribute": "{0} : {1}", "attributes": " ; ",
        "event_0": "« {0} » a lieu", "event_n": "« {0} » arrive à {1}",
        "function_0": "« {0} »", "function_1": "« {0} » de {1}", "function_n": "« {0} » de {1}",
        "procedure_0": "appliquez « {0} »", "procedure_1": "appliquez « {0} » à {1}",
        "procedure_n": "appliquez « {0} » ({1})",
    }

    def a(self, noun: Noun) -> str:
        return self.w("a_f" if noun.gender == "f" else "a", noun.one)

    def the(self, noun: Noun, many: bool = False) -> str:
        if many:
            return self.w("the_many", noun.many)
        return self.w("the_f" if noun.gender == "f" else "the", noun.one)

    _RELATIVE = [(re.compile(r"^le joueur qui contrôle (?:celui|celle)-ci n'est pas vous$"),
                  ("que vous ne contrôlez pas", "que vous ne contrôlez pas")),
                 (re.compile(r"^le joueur qui contrôle (?:celui|celle)-ci est vous$"),
                  ("que vous contrôlez", "que vous contrôlez")),
                 (re.compile(r"^le joueur qui contrôle (?:celui|celle)-ci est parmi vos adversaires$"),
                  ("que contrôle un adversaire", "que contrôlent vos adversaires")),
                 (re.compile(r"^(?:celui|celle)-ci est contrôlée? par un joueur$"),
                  ("que contrôle un joueur", "que contrôlent des joueurs")),
                 (re.compile(r"^(?:celui|celle)-ci ne porte pas (.+)$"),
                  ("qui ne porte pas \\1", "qui ne portent pas \\1")),
                 (re.compile(r"^(?:celui|celle)-ci porte (.+)$"), ("qui porte \\1", "qui portent \\1")),
                 (re.compile(r"^(?:celui|celle)-ci est (.+)$"), ("qui est \\1", None)),
                 (re.compile(r"^(?:celui|celle)-ci n'est (.+)$"), ("qui n'est \\1", None)),
                 (re.compile(r"^il y a ((?:(?!tel|celui|celle).)+) sur (?:celui|celle)-ci$"),
                  ("qui porte \\1", "qui portent \\1")),
                 (re.compile(r"^il n'y a ((?:(?!tel|celui|celle).)+) sur (?:celui|celle)-ci$"),
                  ("qui ne porte \\1", "qui ne portent \\1")),
                 (re.compile(r"^(?:celui|celle)-ci a (.+)$"), ("qui a \\1", "qui ont \\1")),
                 (re.compile(r"^(le|la|l'|les) ?(.+?) de (?:celui|celle)-ci (est|sont|n'est|ne sont) (.+)$"),
                  ("dont \\1 \\2 \\3 \\4", "dont \\1 \\2 \\3 \\4")),
                 (re.compile(r"^(le|la|l'|les) ?([^ ]+) de (?:son|sa|ses) (.+?) (est|sont|n'est|ne sont) (.+)$"),
                  ("dont \\1 \\2 de \\3 \\4 \\5", "dont \\1 \\2 de \\3 \\4 \\5")),
                 (re.compile(r"^(son|sa|ses) (.+?) (est|sont|n'est|ne sont) (.+)$"),
                  ("dont {\\1} \\2 \\3 \\4", "dont {\\1} \\2 \\3 \\4")),
                 (re.compile(r"^(?:son|sa|ses) "), (None, None))]

    def relative(self, cond: str, many: bool, noun: Noun | None = None) -> str | None:
        cond = self.finish(cond)
        m = self._HAS_ON.match(cond)  # 'sur laquelle ce joueur a des cubes'
        if m:
            which = ("lesquelles" if many else "laquelle") if noun is not None and noun.gender == "f" else \
                ("lesquels" if many else "lequel")
            return f"sur {which} {m.group(1)}"
        for pattern, (one, more) in self._RELATIVE:
            m = pattern.match(cond)
            if m:
                form = more if many else one
                if not form:
                    return None
                said = m.expand(form)  # 'sa prison' said 'dont la prison'
                said = said.replace("{son}", "le").replace("{sa}", "la").replace("{ses}", "les")
                return self.finish(said)
        return None

    _OF_ARG = re.compile(r"^(le |la |l'|les )?(.+?) (?:de |d')\{0\}$")

    _FEMININE = re.compile(r"(?:ée|ion|té|ie|ure|ance|ence|ette|elle)$")

    def noun_of_phrase(self, m) -> Noun:
        word, article = m.group(2), m.group(1)
        feminine = article == "la " or article == "l'" and bool(self._FEMININE.search(word))
        return Noun(word, word + "s", "f" if feminine else "m")

    def agree(self, phrase: str | None, gender: str | None) -> str | None:
        """'{0} est posée' said of a masculine noun: '{0} est posé'."""
        if phrase and gender == "m":
            return _masculine(phrase)
        return phrase

    def said_of(self, args, text: str) -> str:
        """A built-in's phrase agrees with the gender of what it is said of ('ce jeton est incliné',
        'ce jeton n'est pas incliné')."""
        subject = args[0] if len(args) == 1 else None
        loc = self.local(subject.name) if isinstance(subject, N.Name) else None
        # a built-in said « ce qui … » is masculine: « ce qui porte cette carte est incliné »
        phrase = self.builtin("function", subject.func, len(subject.args)) \
            if isinstance(subject, N.Call) and subject.func not in self.defn.functions else None
        neuter = isinstance(phrase, str) and phrase.startswith(("ce qui ", "ce que "))
        if neuter or (loc is not None and loc.noun.gender == "m"):
            text = _masculine(text)
        return text

    _HAS_ON = re.compile(r"^((?:(?!tel|celui|celle).)+?(?: |n')(?:a|avez|ont) (?:(?!tel|celui|celle).)+) sur (?:celui|celle)-ci$")

    def such_that(self, text: str, cond: str, noun: Noun | None, many: bool, parts=()) -> str:
        rel = [self.relative(p, many, noun) for p in parts]
        if parts and all(rel):
            return f"{text} {self.joined(rel, 'and')}"
        feminine = noun is not None and noun.gender == "f"
        tel = ("telles" if many else "telle") if feminine else ("tels" if many else "tel")
        return f"{text} {tel} que {cond}"

    def finish(self, text: str) -> str:
        text = _OF_IT.sub(lambda m: f"{_ITS[m.group(1)]} {m.group(2)}", text)
        text = _OF_YOU.sub(lambda m: self.w(_YOURS.get(m.group(1), "your"), m.group(2)), text)
        return elide(text)


def elide(text: str) -> str:
    """French as it is written: 'le atelier' -> "l'atelier", 'de le joueur' -> 'du joueur',
    'à les ateliers' -> 'aux ateliers', 'si il' -> "s'il", 'ce jeton' stays, 'ce atelier' -> 'cet atelier'."""
    for pattern, replacement in _ELISIONS:
        text = pattern.sub(replacement, text)
    return text
