"""Cards, abilities and keywords written as prose: `Prose(defn, findings, lang)`.

The front of the renderers: it knows which keyword each printed ability uses
(the checker's findings) and writes it as the keyword's rules with its
parameters bound ("Bonus 2 - Harbour" -> "... score 2 points for each harbour
..."); a keyword by itself is written with its parameters as their letters.
`face` gives what a card prints, from the content first (`printed`): its own
text, else its keywords' printed texts, else generated prose; `card` gives the
card as printed: its title, a line of its printed attributes, then its face.
"""
from __future__ import annotations

from ...content.model import AbilityDef, CardDef, GameDef, KeywordDef
from .. import nodes as N
from .english import English
from .french import French
from .printed import FaceLine, ability_face, face_lines
from .renderer import UNBOUND

RENDERERS = {"en": English, "fr": French}
LANGS = tuple(RENDERERS)

# the names a body binds: what `choose`, `let`, `for` and the like call a value
_BINDERS = {N.Choose: "var", N.Let: "name", N.For: "var", N.Each: "var", N.Mapped: "var", N.Option: "var",
            N.Decide: "var", N.Roll: "name"}


def bound_names(*trees) -> set:
    """The local names the trees bind."""
    out = set()
    for tree in trees:
        for n in N.walk(tree):
            field = _BINDERS.get(type(n))
            if field is not None and getattr(n, field, None):
                out.add(getattr(n, field))
    return out


class Prose:
    """Writes the cards, abilities and keywords of one pack as prose in language `lang`."""

    def __init__(self, defn: GameDef, findings=None, lang: str = "en"):
        if lang not in RENDERERS:
            raise ValueError(f"no prose in language '{lang}' (languages: {', '.join(LANGS)})")
        self.defn = defn
        self.lang = lang
        self.uses = dict(getattr(findings, "keyword_uses", None) or {})
        self.by_tree = {id(ab.tree): use for ab, use in self.uses.items() if ab.tree is not None}
        self.renderer = RENDERERS[lang](defn)
        self.renderer.types = dict(getattr(findings, "types", None) or {})

    @property
    def fallbacks(self) -> list:
        """The nodes written as their rules text so far: none when the renderer knows every one."""
        return self.renderer.fallbacks

    def _written(self, tree, params: dict, extra=()) -> str:
        r = self.renderer
        saved = r.params, r.locals, r.alive, r.inline, r.tree, r.ahead
        r.params, r.alive, r.inline, r.tree, r.ahead = params, [], {}, tree, []
        r.locals = bound_names(tree, *extra)
        try:
            return r.node(tree)
        except RecursionError:  # a tree deeper than Python goes: said as its rules text
            return r.fallback(tree)
        finally:
            r.params, r.locals, r.alive, r.inline, r.tree, r.ahead = saved

    def node(self, tree) -> str:
        """Any tree of the rules language as prose; a printed keyword through its keyword."""
        use = self.by_tree.get(id(tree))
        if use is not None:
            return self.keyword_use(use)
        text = self._written(tree, {})
        if isinstance(tree, N.Node) and not isinstance(tree, (N.Trigger, N.Action, N.Procedure)):
            return self.renderer.finish(text)
        return text

    def ability(self, ab: AbilityDef) -> str:
        """An ability printed on a card, as sentences."""
        use = self.uses.get(ab)
        if use is not None:
            return self.keyword_use(use)
        if ab.tree is None:
            return self.renderer.fallback(N.Pass(ab.pos))
        return self.node(ab.tree)

    def keyword_use(self, use) -> str:
        """The rules of a keyword with the values a card prints for its parameters."""
        kw = use.keyword
        params = {p: (t, use.bindings.get(p, UNBOUND)) for p, t in kw.params.items()}
        effects = [v for v in use.bindings.values() if isinstance(v, list)]
        return " ".join(self._written(t, params, effects) for t in kw.trees if t is not None)

    def keyword(self, kw: KeywordDef) -> str:
        """A keyword's definition: its rules, its parameters said as their letters."""
        params = {p: (t, UNBOUND) for p, t in kw.params.items()}
        return " ".join(self._written(t, params) for t in kw.trees if t is not None)

    def printed_name(self, ab: AbilityDef) -> str | None:
        """The words of a printed keyword as the card prints them ('Bonus 2 - Harbour'), or None."""
        tree = ab.tree
        if not isinstance(tree, N.PhraseAbility) or ab not in self.uses:
            return None
        text = str(ab.text).strip()
        return (text.split(":", 1)[0] if tree.phrase.body is not None else text).strip()

    def effect(self, use, statements: list) -> str:
        """The effect a card prints after a keyword's ':' ('Activation 2: gain 1 resource')."""
        params = {p: (t, use.bindings.get(p, UNBOUND)) for p, t in use.keyword.params.items()}
        text = self.renderer.finish(self._written(statements, params)).strip()
        if text and text[-1] not in ".!?…":  # a sentence, as a card prints it
            text += "."
        return text[:1].upper() + text[1:]

    def parameter(self, name: str, value) -> str:
        """A keyword's parameter as a card binds it, in words: a number, a class's noun."""
        if isinstance(value, bool):
            return self.renderer.w("yes" if value else "no")
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, str):  # a class: as the card prints it, else its noun in this language
            if self.lang == self.defn.language:
                return value
            noun = self.renderer.vocab.class_noun(value).one
            return noun[:1].upper() + noun[1:] if value[:1].isupper() else noun
        if isinstance(value, list):
            return self._written(value, {})
        return self.renderer.finish(self._written(value, {}))

    def attributes(self, card: CardDef) -> str:
        """The card's printed attributes, named in its language: 'type: Building; cost: 2'."""
        r = self.renderer
        parts = []
        for name, value in card.attrs.items():
            values = value if isinstance(value, list) else [value]
            shown = []
            for v in values:
                word = r.vocab.value_words(v) if isinstance(v, str) else None  # its words in this language
                shown.append(r.w("yes" if v else "no") if isinstance(v, bool) else
                             str(word) if isinstance(word, str) else str(v))  # else as printed
            parts.append(r.w("attribute", r.vocab.noun(name, "attribute").one, ", ".join(shown)))
        return r.WORDS["attributes"].join(parts)

    def face(self, card: CardDef) -> list[FaceLine]:
        """What the card prints, line by line (see `printed`)."""
        return face_lines(self, card)

    def face_texts(self, card: CardDef) -> list[str]:
        """The lines of the card's face as text: a keyword's words, then what it says."""
        return [self.renderer.w("printed", line.name, line.text) if line.name else line.text
                for line in self.face(card)]

    def card(self, card: CardDef) -> list:
        """The card as it would be printed: its title, its attributes, its face."""
        lines = [card.title]
        attrs = self.attributes(card)
        if attrs:
            lines.append(attrs)
        return lines + self.face_texts(card)

    def printed(self, ab: AbilityDef) -> str:
        """One ability as its card prints it, were the card to have no text of its own: a
        keyword's words, then its printed text (or the effect it prints), else prose."""
        line = ability_face(self, ab)
        return self.renderer.w("printed", line.name, line.text) if line.name else line.text

    def reading(self, ab: AbilityDef) -> str:
        """How the engine reads an ability, as prose: a printed keyword's words, then its rules."""
        text = self.ability(ab)
        name = self.printed_name(ab)
        return self.renderer.w("printed", name, text) if name else text
