"""From sheets to a virtual table: Tabletop Simulator's custom decks (`regles sheets --tts DIR`).

Tabletop Simulator (TTS) takes a custom deck as two images and an object: a *face sheet*, a
grid of card faces at most 10 wide and 7 high, read left to right and top to bottom, and one
*back* for the whole sheet; an object file names them by URL and lists the cards, each by a
`CardID` of `100 * sheet + place on the sheet`. `write` draws each card with the same
layout as the printed sheets (`cardlayout`), at `CARD_PX` pixels wide, into such grids:

- one deck per back (a component kind's colour and name: TTS gives every card of a sheet
  one back), on as many sheets of at most 70 faces as it needs; a card in another player's
  hand shows its back (`BackIsHidden`);
- each card as many times as its copies, as a card of the deck (a kind with one card in all
  is a lone card, as TTS saves one);
- `GAME.json`, a saved object (TTS's "Saved Objects" folder takes it) holding the decks side
  by side, and `GAME-faces-N.png`, `GAME-back-N.png` beside it.

The images are drawn by rendering a PDF of the faces (reportlab, as the sheets) with PDFium
(pypdfium2) and laid in their grid with Pillow; both come with the `sheets` extra. The same
cards give the same files: the object's GUIDs are made from the cards' ids, and nothing of
the time or the machine is written but the images' URL (a `file://` URL of `DIR`, or
`url_base` + the file's name for images put online, which TTS needs to share a table).
Tiles are not decks: they are left out, and said so.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
from pathlib import Path

from .cardlayout import CARD_H, CARD_W, MIN_PT, lay_out, size_of
from .faces import Tile, clean
from .sheets import PdfShapes, file_name, lay_out_back, library

INSTALL = "pip install 'regles[sheets]'"
CARD_PX = 400  # the width of a card on a sheet: a 10 x 7 sheet of 63 x 88 mm cards is 4,000 x 3,913
COLUMNS, ROWS = 10, 7
SLOTS = COLUMNS * ROWS
MAX_CARDS = 10_000  # cards in one object (every copy): a bound on what TTS and the file can hold


class MissingRenderer(Exception):
    """pypdfium2 or Pillow is not installed."""


def renderer():
    try:  # here: only --tts needs them
        import pypdfium2
        from PIL import Image
    except ImportError:
        raise MissingRenderer(f"regles sheets --tts needs pypdfium2 and Pillow: {INSTALL}") from None
    return pypdfium2, Image


def card_height(width: int = CARD_PX, size: tuple = (CARD_W, CARD_H)) -> int:
    """The height in pixels of a card `width` pixels wide, of `size` (points; 63 x 88 mm)."""
    return round(width * size[1] / size[0])


def grid_of(count: int) -> tuple:
    """(columns, rows) of a sheet of `count` faces: at most 10 x 7, at least 2 x 2 (TTS's least)."""
    columns = max(2, min(COLUMNS, count))
    return columns, max(2, math.ceil(count / columns))


def decks(faces) -> list:
    """The cards to export, grouped by back: [(key, name, colour, [face, ...])] in the order
    their kinds first come; tiles left out."""
    out: dict = {}
    for f in faces:
        if isinstance(f, Tile) or not f.copies:
            continue
        out.setdefault(f.back_key, (f.back_key, f.kind, f.back, []))[3].append(f)
    return list(out.values())


def write(folder: str, game_id: str, title: str, faces, url_base: str | None = None,
          notes: list | None = None) -> dict:
    """The decks of `faces` in `folder`: their face sheets, backs and saved object; what does
    not fit a card at the least size is told in `notes`. Returns what was written: the
    object's path, the images' paths, and how many cards, decks and sheets."""
    pypdfium2, Image = renderer()
    lib = library()
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    groups = decks(faces)
    total = sum(f.copies for _, _, _, cards in groups for f in cards)
    if total > MAX_CARDS:
        raise ValueError(f"--tts: {total:,} cards with their copies, more than {MAX_CARDS:,} in one object")
    taken: set = set()
    objects, images, sheet_no = [], [], 0
    for i, (key, kind, back, cards) in enumerate(groups):
        back_name = file_name(f"{game_id}-back-{i + 1}", ".png", taken)
        sample = cards[0]
        size = size_of(sample)
        height = card_height(CARD_PX, size)
        _render([lay_out_back(sample, title, lib.measure)], lib, pypdfium2, size)[0].save(out / back_name)
        images.append(str(out / back_name))
        custom, contained, deck_ids = {}, [], []
        for start in range(0, len(cards), SLOTS):
            chunk = cards[start:start + SLOTS]
            sheet_no += 1
            columns, rows = grid_of(len(chunk))
            laid = []
            for face in chunk:
                cut: list = []
                laid.append(lay_out(face, lib.measure, cut))
                if cut and notes is not None:
                    notes.append(f"{face.id}: {', '.join(dict.fromkeys(cut))} does not fit at {MIN_PT:g} pt and "
                                 "is cut (marked \u2026)")
            pictures = _render(laid, lib, pypdfium2, size, notes)
            grid = Image.new("RGB", (columns * CARD_PX, rows * height), "white")
            for place, picture in enumerate(pictures):
                grid.paste(picture, ((place % columns) * CARD_PX, (place // columns) * height))
            face_name = file_name(f"{game_id}-faces-{sheet_no}", ".png", taken)
            grid.save(out / face_name, optimize=True)
            images.append(str(out / face_name))
            custom[str(sheet_no)] = {"FaceURL": _url(out / face_name, url_base), "BackURL": _url(out / back_name, url_base),
                                     "NumWidth": columns, "NumHeight": rows, "BackIsHidden": True,
                                     "UniqueBack": False, "Type": 0}
            for place, face in enumerate(chunk):
                card_id = 100 * sheet_no + place
                for copy in range(face.copies):
                    deck_ids.append(card_id)
                    contained.append(_card(face, card_id, {str(sheet_no): custom[str(sheet_no)]}, copy))
        name = clean(f"{title}: {kind}" if kind else title)
        position = _transform(3.0 * i)
        if len(contained) == 1:  # one card in all: TTS saves it as a card, not a deck
            objects.append(dict(contained[0], Transform=position))
        else:
            objects.append({"Name": "DeckCustom", "Transform": position, "Nickname": name, "Description": "",
                            "GMNotes": "", "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
                            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
                            "Tooltip": True, "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False,
                            "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained,
                            "GUID": _guid(game_id, "deck", kind, back)})
    saved = {"SaveName": clean(title), "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "VersionNumber": "",
             "ObjectStates": objects, "TabStates": {}}
    path = out / file_name(game_id, ".json", taken)
    path.write_text(json.dumps(saved, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {"object": str(path), "images": images, "cards": total, "decks": len(groups), "sheets": sheet_no}


def _render(layouts: list, lib, pypdfium2, size: tuple, notes: list | None = None) -> list:
    """Each card's shapes (cards of `size`, in points) as a picture CARD_PX wide: drawn in a PDF
    of one card a page, then rendered by PDFium."""
    buffer = io.BytesIO()
    c = lib.canvas.Canvas(buffer, pagesize=size, invariant=1)
    pdf = PdfShapes(lib, c)
    for shapes in layouts:
        pdf.draw(shapes, 0, size[1])
        c.showPage()
    c.save()
    if notes is not None:
        notes.extend(pdf.unread())
    doc = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        scale = CARD_PX / size[0]
        want = (CARD_PX, card_height(CARD_PX, size))
        out = []
        for k in range(len(doc)):
            picture = doc[k].render(scale=scale).to_pil().convert("RGB")
            out.append(picture.resize(want) if picture.size != want else picture)
        return out
    finally:
        doc.close()


def _card(face, card_id: int, custom: dict, copy: int) -> dict:
    description = "\n".join(clean(f"{name}: {text}" if name else text) for name, text in face.abilities)
    return {"Name": "Card", "Transform": _transform(0.0), "Nickname": clean(face.title), "Description": description,
            "GMNotes": face.id, "CardID": card_id, "CustomDeck": custom, "Hands": True, "SidewaysCard": False,
            "GUID": _guid(face.id, str(copy))}


def _transform(x: float) -> dict:
    # face down (rotZ 180) as a deck lies on the table, a little above it so it falls in place
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _guid(*parts) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _url(path: Path, base: str | None) -> str:
    return base.rstrip("/") + "/" + path.name if base else path.resolve().as_uri()
