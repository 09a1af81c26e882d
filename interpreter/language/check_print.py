"""Checking a game's print hints (`print:` of a game file), read by `regles sheets`.

The schema has checked their shape; what is checked here is what they name: each
key a component kind the game declares, and each attribute a hint reads
(`band`, `symbol`, `art`, `figures`, `hide`, a tile's `cells` and `number`) an
attribute the game declares. A hint naming nothing is an error, with a
did-you-mean, as for the table's hints (`check_table`). A symbol that is no shape
the layout draws, or a colour that is no colour (of a value or of the back), is a
warning: the sheets still print, with the default shape or colour. Each picture a
kind's cards name through `art` is checked as the sheets read it
(`content.pictures`): a file beside the cards file, PNG or JPEG, small
enough; one that is not is an error where the card names it (H003).
"""
from __future__ import annotations

from ..content.colours import colour_of
from ..names import did_you_mean
from ..content.pictures import picture_of
from .check_table import key_pos


SHAPES = ("circle", "square", "diamond", "triangle", "star", "hexagon", "bolt", "sun", "moon", "drop", "cross")


def check_print_hints(defn, error, warning=None) -> None:
    """Report through `error(code, pos, message, hint)` what the hints of `defn.print_hints` name that
    the game lacks, and through `warning` a shape or colour the sheets do not know."""
    hints = getattr(defn, "print_hints", None)
    if not isinstance(hints, dict):
        return
    here = getattr(hints, "pos", defn.pos)
    kinds = set(defn.components) | {c.component for c in defn.cards}
    for kind, hint in hints.items():
        where = key_pos(hints, kind, here)
        if kind not in kinds:
            error("N016", where, f"print hints name unknown component kind '{kind}'",
                  did_you_mean(kind, kinds) or "component kinds: " + ", ".join(sorted(kinds)))
            continue
        if not isinstance(hint, dict):
            continue
        named = [(key, hint.get(key)) for key in ("band", "symbol", "art")]
        named += [(key, name) for key in ("figures", "hide") for name in (hint.get(key) or [])
                  if isinstance(hint.get(key), list)]
        tile = hint.get("tile")
        if isinstance(tile, dict):
            named += [(f"tile.{key}", tile.get(key)) for key in ("cells", "number")]
        for value, shape in (hint.get("symbols") or {}).items() if isinstance(hint.get("symbols"), dict) else ():
            if warning is not None and shape not in SHAPES:
                warning("H002", key_pos(hint, "symbols", where), f"print hints of '{kind}': '{shape}' (for '{value}') is "
                        "no shape the sheets draw; they draw the default one", did_you_mean(str(shape), SHAPES)
                        or "shapes: " + ", ".join(SHAPES))
        for value, colour in (hint.get("colours") or {}).items() if isinstance(hint.get("colours"), dict) else ():
            if warning is not None and colour_of(colour) is None:
                warning("H002", key_pos(hint, "colours", where), f"print hints of '{kind}': '{colour}' (for '{value}') is "
                        "no colour the sheets know", "a colour word in English or French, or '#rrggbb'")
        back = hint.get("back")
        if isinstance(back, dict) and isinstance(back.get("colour"), str) and warning is not None \
                and colour_of(back["colour"]) is None:
            warning("H002", key_pos(back, "colour", key_pos(hint, "back", where)), f"print hints of '{kind}': "
                    f"'{back['colour']}' (for its back) is no colour the sheets know",
                    "a colour word in English or French, or '#rrggbb'")
        for key, name in named:
            if isinstance(name, str) and name not in defn.attributes:
                error("N003", key_pos(hint, key.split(".")[0], where),
                      f"print hints of '{kind}': {key} names unknown attribute '{name}'",
                      did_you_mean(name, defn.attributes))
        art = hint.get("art")
        if isinstance(art, str) and art in defn.attributes:
            for card in defn.cards:
                value = card.attrs.get(art)
                if card.component != kind or not isinstance(value, str):
                    continue
                found = picture_of(card.file, value)
                if isinstance(found, str):
                    error("H003", getattr(value, "pos", None) or card.key_pos.get(art, card.pos),
                          f"print hints of '{kind}': {art} of '{card.id}' is not printed: {found}",
                          "a PNG or JPEG file in the cards file's folder or below, named from it (images/x.png)")
