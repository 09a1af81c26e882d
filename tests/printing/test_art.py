"""A kind's `print:` hints `art:` (a picture per card, from a file beside the cards file) and
`back:` (the back's colour and words): checked by `regles check` as untrusted input (H003),
drawn in the PDF, the SVG and the Tabletop Simulator decks."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from interpreter import cli
from interpreter.printing import art

pytest.importorskip("reportlab")
Image = pytest.importorskip("PIL.Image")

GAME = """\
kind: game
id: pix
title: Pix
players: {min: 2, max: 2}
attributes:
  value: {type: number, default: 0}
  picture: {type: string, default: ""}
zones:
  deck: {scope: game, visibility: hidden}
counters:
  points: {scope: player}
score: points
print:
  card:
    art: picture
    back: {colour: "#225522", title: "Pix!", text: "a deck of pictures"}
procedures:
  game: |
    for each p in players:
      choose by p "Ready?":
        option "Ready":
          score 1 to p
        option "Go":
          score 0 to p
    win players[1]
"""


def make(folder: Path, pictures: dict) -> str:
    """A game whose cards show `pictures` (card id -> the path written)."""
    (folder / "images").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    rows = "".join(f"  - {{id: {card}, title: {card.title()}, value: 1, picture: {path}}}\n"
                   for card, path in pictures.items())
    (folder / "cards.yaml").write_text(f"kind: cards\ngame: pix\nstart: deck\ncards:\n{rows}", encoding="utf-8")
    return str(folder)


def run(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_a_picture_that_cannot_be_printed_is_an_error_where_it_is_named(tmp_path, capsys):
    outside = tmp_path / "outside.png"
    Image.new("RGB", (10, 10)).save(outside)
    game = make(tmp_path / "g", {"up": "../outside.png", "abs": str(outside), "gone": "images/gone.png",
                                 "gif": "images/x.gif", "link": "images/link.png", "fine": "images/fine.png"})
    Image.new("RGB", (10, 10)).save(tmp_path / "g" / "images" / "fine.png")
    (tmp_path / "g" / "images" / "x.gif").write_bytes(b"GIF89a")
    os.symlink(outside, tmp_path / "g" / "images" / "link.png")
    status, out, err = run(capsys, "check", game)
    assert status == 1
    report = out + err
    for line, why in ((5, "leads out of the cards file's folder"), (6, "is an absolute path"),
                      (7, "no file 'images/gone.png' beside the cards file"), (8, "is not a PNG or JPEG file"),
                      (9, "leads out of the cards file's folder")):  # a link is followed, and leads out
        assert f"cards.yaml:{line}:" in report and why in report, (line, why)
    assert report.count("error[H003]") == 5 and "'fine'" not in report


def test_pictures_and_backs_are_drawn_in_the_pdf_the_svg_and_the_decks(tmp_path, capsys):
    pdfium = pytest.importorskip("pypdfium2")
    game = make(tmp_path / "g", {"red": "images/red.png", "plain": "images/plain.jpg"})
    Image.new("RGB", (300, 200), (220, 20, 20)).save(tmp_path / "g" / "images" / "red.png")
    Image.new("RGB", (200, 300), (20, 20, 220)).save(tmp_path / "g" / "images" / "plain.jpg")
    status, out, err = run(capsys, "sheets", game, "--out", str(tmp_path / "p.pdf"), "--backs",
                           "--svg-dir", str(tmp_path / "svg"), "--tts", str(tmp_path / "tts"))
    assert status == 0, err
    page = pdfium.PdfDocument(str(tmp_path / "p.pdf"))[0].render(scale=1).to_pil().convert("RGB")
    assert _has(page, (220, 20, 20)) and _has(page, (20, 20, 220))  # both pictures, drawn on the page
    svg = (tmp_path / "svg" / "red.svg").read_text(encoding="utf-8")
    assert 'href="data:image/png;base64,' in svg and "images/red.png" not in svg  # shown, not named
    data = json.loads((tmp_path / "tts" / "pix.json").read_text(encoding="utf-8"))
    deck = data["ObjectStates"][0]
    sheet = Image.open(tmp_path / "tts" / "pix-faces-1.png").convert("RGB")
    places = {c["GMNotes"]: c["CardID"] % 100 for c in deck["ContainedObjects"]}
    w, h = sheet.size[0] // deck["CustomDeck"]["1"]["NumWidth"], sheet.size[1] // deck["CustomDeck"]["1"]["NumHeight"]
    red, plain = (sheet.crop((places[c] * w, 0, places[c] * w + w, h)) for c in ("red", "plain"))
    assert _has(red, (220, 20, 20)) and not _has(red, (20, 20, 220))  # each card its own picture
    assert _has(plain, (20, 20, 220)) and not _has(plain, (220, 20, 20))
    back = Image.open(tmp_path / "tts" / "pix-back-1.png").convert("RGB")
    assert back.getpixel((3, 3)) == (0x22, 0x55, 0x22)  # the hint's colour, to the edge
    pypdf = pytest.importorskip("pypdf")
    backs = " ".join(pypdf.PdfReader(str(tmp_path / "p.pdf")).pages[1].extract_text().split())
    assert "Pix!" in backs and "a deck of pictures" in backs
    assert deck["Nickname"].startswith("Pix")


def test_a_picture_too_large_or_unreadable_is_left_blank_and_said(tmp_path, capsys):
    game = make(tmp_path / "g", {"wide": "images/wide.png", "noise": "images/noise.png"})
    Image.new("1", (art.MAX_SIDE + 1, 2)).save(tmp_path / "g" / "images" / "wide.png")  # a few bytes, a huge claim
    (tmp_path / "g" / "images" / "noise.png").write_bytes(os.urandom(500))
    assert art.load(tmp_path / "g" / "images" / "wide.png").endswith(f"more than {art.MAX_SIDE} a side")
    status, out, err = run(capsys, "sheets", game, "--out", str(tmp_path / "p.pdf"))
    assert status == 0
    assert "the picture wide.png is not drawn" in err and "the picture noise.png is not drawn" in err


def _has(image, colour, near: int = 12) -> bool:
    return any(all(abs(a - b) <= near for a, b in zip(c, colour)) for _, c in image.getcolors(1 << 24))


def test_a_kind_s_size_lays_its_cards_out_to_it_on_paper_svg_and_table(tmp_path, capsys):
    pytest.importorskip("pypdfium2")
    game = make(tmp_path / "g", {f"c{i}": "images/p.png" for i in range(17)})
    Image.new("RGB", (30, 20), (20, 160, 20)).save(tmp_path / "g" / "images" / "p.png")
    yaml = tmp_path / "g" / "game.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("    art: picture\n", "    art: picture\n    size: [41, 63]\n"),
                    encoding="utf-8")
    status, out, err = run(capsys, "sheets", game, "--out", str(tmp_path / "p.pdf"), "--svg-dir", str(tmp_path / "svg"),
                           "--tts", str(tmp_path / "tts"))
    assert status == 0, err
    assert "wrote " in out and ": 2 pages, 17 cards" in out  # 4 x 4 mini cards to an A4 page, not 3 x 3
    assert 'width="41mm" height="63mm"' in (tmp_path / "svg" / "c0.svg").read_text(encoding="utf-8")
    sheet = json.loads((tmp_path / "tts" / "pix.json").read_text(encoding="utf-8"))["ObjectStates"][0]["CustomDeck"]["1"]
    faces = Image.open(tmp_path / "tts" / "pix-faces-1.png")
    assert faces.size == (sheet["NumWidth"] * 400, sheet["NumHeight"] * round(400 * 63 / 41))
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("size: [41, 63]", "size: [41, 900]"), encoding="utf-8")
    status, out, err = run(capsys, "check", game)
    assert status == 1 and "size" in out + err  # beyond 150 mm: the schema says so
