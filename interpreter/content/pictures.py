"""The picture files content names for its cards (a kind's `art:` print hint), as untrusted input.

A card's picture is a PNG or JPEG file named by one of its attributes, by a path relative to
the folder of the cards file that declares the card. Content may be anyone's, so a picture is
printed only when it is a file in that folder or below it (no absolute path, no `..` or link
leading out) of at most `MAX_BYTES`: `picture_of` gives the file or says why not, for
`regles check` (H003, where the path is written) and for the sheets (`printing.art`), which
decode it.
"""
from __future__ import annotations

import os
from pathlib import Path

SUFFIXES = (".png", ".jpg", ".jpeg")
MAX_BYTES = 8 * 1024 * 1024


def picture_of(cards_file, value) -> Path | str:
    """The picture file `value` names for a card declared in `cards_file`, or why it cannot be
    printed (a text)."""
    if not isinstance(value, str) or not value.strip():
        return "no file named"
    text = value.strip()
    if "\x00" in text or len(text) > 500:
        return f"'{text[:60]}' is no file name"
    if os.path.isabs(text) or text.startswith(("/", "\\")) or ":" in text.split("/")[0]:
        return f"'{text[:60]}' is an absolute path: name a file beside the cards file, as images/{Path(text).name}"
    folder = Path(str(cards_file)).parent.resolve()
    path = (folder / text).resolve()
    try:
        path.relative_to(folder)
    except ValueError:
        return f"'{text[:60]}' leads out of the cards file's folder: pictures are read from it and below only"
    if path.suffix.lower() not in SUFFIXES:
        return f"'{text[:60]}' is not a PNG or JPEG file (.png, .jpg, .jpeg)"
    if not path.is_file():
        return f"no file '{text[:60]}' beside the cards file"
    if path.stat().st_size > MAX_BYTES:
        return f"'{text[:60]}' is larger than {MAX_BYTES // (1024 * 1024)} MB"
    return path
