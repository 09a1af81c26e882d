"""Text broken into lines for a terminal: never between a number and what it counts, nor
before French punctuation that takes a space."""
from __future__ import annotations

import re
import textwrap

from interpreter.view.lines import wrap

SHEET = ("Votre voix porte jusqu'au fond du Conclave. Condition personnelle : si le Vote est à égalité avec "
         "au moins un Prêtre de chaque côté, votre prêche fait pencher le Conclave : vous marquez 1 PP. "
         "Les « Prêtres » comptent ; 12 Crédits aussi !")


def test_no_line_breaks_between_a_number_and_its_word_or_before_french_punctuation():
    broke_before = 0
    for width in range(24, 130):
        lines = wrap(SHEET, width, "  ", "    ")
        assert " ".join(x.strip() for x in lines) == SHEET  # the same words and spaces, only broken
        assert all(len(x) <= width for x in lines if " " in x.strip())  # a line of one long word may be longer
        for before, after in zip(lines, lines[1:], strict=False):
            assert not re.search(r"\d$", before), (width, before, after)  # '... marquez 1' / 'PP.'
            assert not re.match(r"\s*[:;!?»]", after), (width, before, after)
            assert not before.endswith("«"), (width, before, after)
        plain = textwrap.wrap(SHEET, width, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False,
                              break_long_words=False)
        broke_before += any(re.search(r"\d$", x) or re.match(r"\s*[:;!?»]", y)
                            for x, y in zip(plain, plain[1:], strict=False))
    assert broke_before > 10  # Python's own breaking does it at many widths: the test can fail


def test_a_text_with_its_own_unbreakable_spaces_keeps_them():
    text = "Gagnez 2\u00a0PP par Prêtre"
    assert wrap(text, 10) == ["Gagnez", "2\u00a0PP par", "Prêtre"]
