"""`regles sheets --tts DIR`: Tabletop Simulator custom decks. The saved object holds to the
format's schema (schemas/tts-saved-object.schema.json), each sheet's image has the grid's size,
every card's place on its sheet shows that card's face, and each shipped game writes its decks."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter import cli
from interpreter.printing import tts
from interpreter.resources import schemas_dir

pytest.importorskip("reportlab")
pytest.importorskip("pypdfium2")
Image = pytest.importorskip("PIL.Image")
jsonschema = pytest.importorskip("jsonschema")


def write(capsys, game, folder, *options):
    status = cli.main(["sheets", game, "--tts", str(folder), *options])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def schema_errors(data) -> list:
    schema = json.loads((schemas_dir() / "tts-saved-object.schema.json").read_text(encoding="utf-8"))
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


def objects(folder: Path, game: str) -> list:
    return json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))["ObjectStates"]


def cards_of(obj) -> list:
    return obj["ContainedObjects"] if obj["Name"] != "Card" else [obj]


def image_of(url: str) -> Image.Image:
    assert url.startswith("file://")
    from urllib.parse import unquote, urlparse
    return Image.open(unquote(urlparse(url).path))


@pytest.mark.parametrize("game", ["karman-swap", "etherium", "seeders-exodus"])
def test_each_shipped_game_writes_decks_that_hold_to_the_format(game, tmp_path, capsys):
    status, out, err = write(capsys, game, tmp_path, "--out", str(tmp_path / "print.pdf"))
    assert status == 0, err
    data = json.loads((tmp_path / f"{game}.json").read_text(encoding="utf-8"))
    assert schema_errors(data) == []
    total = 0
    for obj in data["ObjectStates"]:
        cards = cards_of(obj)
        total += len(cards)
        if obj["Name"] != "Card":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]  # the deck lists the cards it holds
        for card in cards:
            sheet = card["CustomDeck"][str(card["CardID"] // 100)]
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"]  # a place of its grid
            image = image_of(sheet["FaceURL"])
            assert image.size == (sheet["NumWidth"] * tts.CARD_PX, sheet["NumHeight"] * tts.card_height())
            assert image_of(sheet["BackURL"]).size == (tts.CARD_PX, tts.card_height())
    printed = re.search(r"print\.pdf: \d+ pages?, (\d+) cards?", out)
    assert printed and total == int(printed.group(1)) > 0  # as many cards as the print sheets, every copy
    assert f"of {total} cards" in out


def test_every_place_on_a_sheet_shows_its_own_card(tmp_path, capsys):
    status, out, err = write(capsys, "karman-swap", tmp_path)
    assert status == 0, err
    creatures = objects(tmp_path, "karman-swap")[0]
    sheet = creatures["CustomDeck"]["1"]
    grid = image_of(sheet["FaceURL"]).convert("RGB")
    w, h = tts.CARD_PX, tts.card_height()
    seen = {}
    for card in creatures["ContainedObjects"]:
        place = card["CardID"] % 100
        x, y = (place % sheet["NumWidth"]) * w, (place // sheet["NumWidth"]) * h
        seen[card["GMNotes"]] = grid.crop((x, y, x + w, y + h)).tobytes()
    # drawn alone, each card is the very picture at its place
    status, _, err = write(capsys, "karman-swap", tmp_path / "one", "--cards", "pyrax,kraken")
    assert status == 0, err
    alone = objects(tmp_path / "one", "karman-swap")[0]
    small = image_of(alone["CustomDeck"]["1"]["FaceURL"]).convert("RGB")
    for card in alone["ContainedObjects"]:
        place = card["CardID"] % 100
        x = (place % alone["CustomDeck"]["1"]["NumWidth"]) * w
        assert small.crop((x, 0, x + w, h)).tobytes() == seen[card["GMNotes"]], card["GMNotes"]
    assert len(set(seen.values())) == len(seen)  # no two cards share a picture


def test_a_deck_wider_than_a_sheet_takes_more_sheets_and_a_lone_card_is_a_card(tmp_path):
    from interpreter.printing.faces import Face
    faces = [Face(f"c{i}", f"Card {i}", "Band", "#336699", (), (), (), "", 1, kind="Card", back="#224466")
             for i in range(75)] + [Face("solo", "Solo", "Band", "#993333", (), (), (), "", 1, kind="Token", back="#661111")]
    made = tts.write(str(tmp_path), "many", "Many", faces)
    assert made["sheets"] == 3 and made["cards"] == 76
    data = json.loads(Path(made["object"]).read_text(encoding="utf-8"))
    assert schema_errors(data) == []
    deck, lone = data["ObjectStates"]
    assert sorted(deck["CustomDeck"]) == ["1", "2"] and lone["Name"] == "Card"
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)  # 70 faces, then 5
    assert (second["NumWidth"], second["NumHeight"]) == (5, 2)
    assert sorted(c["CardID"] for c in deck["ContainedObjects"])[-5:] == [200, 201, 202, 203, 204]


def test_the_same_cards_give_the_same_files(tmp_path, capsys):
    for name in ("a", "b"):
        assert write(capsys, "karman-swap", tmp_path / name, "--tts-url", "https://example.org/decks/")[0] == 0
    for f in sorted((tmp_path / "a").iterdir()):
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name
    data = json.loads((tmp_path / "a" / "karman-swap.json").read_text(encoding="utf-8"))
    assert data["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"] == "https://example.org/decks/karman-swap-faces-1.png"


@pytest.mark.parametrize("args,message", [
    ([], "say what to write: --out PDF|FOLDER, --tts DIR, or both"),
    (["--tts", "x/", "--tts-url", "ftp://host/"], "--tts-url takes the http(s) address"),
    (["--out", "x.pdf", "--tts-url", "https://host/"], "--tts-url takes the http(s) address"),
])
def test_usage_errors(capsys, args, message):
    status = cli.main(["sheets", "karman-swap", *args])
    out, err = capsys.readouterr()
    assert status == 2 and message in err
