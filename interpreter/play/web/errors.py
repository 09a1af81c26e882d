"""The refusal a request to the web table meets: what is wrong, with the HTTP status that says why."""
from __future__ import annotations

from ...view.narrate_words import LANGS


class TableError(Exception):
    """A request a table refuses, with the HTTP status that says why (400, 403, 404, 409)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def language(value, what: str) -> str:
    """`value` as the language a `what` ('table', 'replay') is told in, English when none is
    given; a 400 names the languages there are."""
    lang = value or "en"
    if lang not in LANGS:
        raise TableError(400, f"'lang' is the language the {what} is told in: one of {', '.join(LANGS)}")
    return lang
