"""Cards as prose: the rules of a pack written in English or French for people.

`Prose(defn, findings, lang)` writes a card as it would be printed, an ability
as sentences, a keyword's definition; `check_prose` checks a pack's vocabulary
and warns when a keyword's printed text disagrees with its rules. The
renderers are classes, one per language (`English`, and `French`, which
changes only its words and what its grammar needs); see docs/language.md,
"Cards as prose".
"""
from __future__ import annotations

from .cards import LANGS, RENDERERS, Prose
from .english import English
from .french import French
from .renderer import Renderer

__all__ = ["LANGS", "RENDERERS", "English", "French", "Prose", "Renderer"]
