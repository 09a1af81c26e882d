"""`regles sheets`: print-and-play PDFs of a game's cards, nine to a page, and an SVG per card."""
import math
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import interpreter
from interpreter.tools import cli, sheets
from interpreter.tools.cardlayout import CARD_H, CARD_W, Text, lay_out
from interpreter.tools.faces import Face

SVG = "{http://www.w3.org/2000/svg}"

HOSTILE = """\
kind: cards
game: seeders-exodus
set: hostile
cards:
  - {id: "mon-module", title: "Mon <module> & \\"co\\" ]]> </svg> \\x07\\u202e end", caste: Noyau, type: Module,
     cost: 2, recycle: 1, prestige: 2}
  - {id: "mon-equipage", title: "Mon équipage", caste: Noyau, type: Équipage, copies: 2}
"""


def pdf_text(path) -> str:
    """The text of every page of a PDF, its spaces and line breaks made single spaces."""
    pypdf = pytest.importorskip("pypdf")
    return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(path)).pages)


def pages_of(path) -> int:
    pypdf = pytest.importorskip("pypdf")
    return len(pypdf.PdfReader(str(path)).pages)


@pytest.fixture(scope="module")
def seeders_pdf(tmp_path_factory):
    pytest.importorskip("reportlab")
    out = tmp_path_factory.mktemp("sheets") / "cards.pdf"
    assert cli.main(["sheets", "seeders-exodus", "--players", "2", "--out", str(out)]) == 0
    return out


@pytest.fixture
def mod(tmp_path):
    folder = tmp_path / "my-mod"
    folder.mkdir()
    (folder / "cards.yaml").write_text(HOSTILE, encoding="utf-8")
    return folder


def test_a_page_holds_nine_cards_and_each_card_is_printed_as_often_as_its_copies(seeders_pdf):
    defn = interpreter.load("seeders-exodus").program.defn
    # a card each player has (per_player) is printed once per player: --players 2
    total = sum(c.copies * (2 if c.per_player else 1) for c in defn.cards)
    assert pages_of(seeders_pdf) == math.ceil(total / 9)
    text = pdf_text(seeders_pdf)
    missing = [c.title for c in defn.cards if " ".join(c.title.split()) not in text]
    assert missing == []
    converti = next(c for c in defn.cards if c.id == "converti")  # nine copies of one card
    assert text.count(converti.title) >= converti.copies


def test_a_page_renders_as_an_a4_image_with_the_bands_in_colour(seeders_pdf, tmp_path):
    pdfium = _renderer()
    if pdfium is not None:
        image = pdfium.PdfDocument(str(seeders_pdf))[0].render(scale=2).to_pil().convert("RGB")
    else:
        subprocess.run(["pdftoppm", "-png", "-r", "144", "-f", "1", "-l", "1", str(seeders_pdf),
                        str(tmp_path / "page")], check=True)
        from PIL import Image
        image = Image.open(next(tmp_path.glob("page*.png"))).convert("RGB")
    assert abs(image.size[0] - 1191) <= 2 and abs(image.size[1] - 1684) <= 2  # A4 at 144 dpi
    colours = {c for _, c in image.getcolors(1 << 24)}
    # the first cards' band is the colour the cards of their band print (blue), not a palette's
    assert any(abs(r - 0x15) < 12 and abs(g - 0x65) < 12 and abs(b - 0xc0) < 12 for r, g, b in colours)


def _renderer():
    try:
        import pypdfium2
        return pypdfium2
    except ImportError:
        if shutil.which("pdftoppm") is None:
            pytest.skip("no PDF renderer: neither pypdfium2 (the test extra) nor pdftoppm")
        pytest.importorskip("PIL")
        return None


def test_a_hostile_title_cannot_break_the_svg_or_the_pdf(mod, tmp_path, capsys):
    pytest.importorskip("reportlab")
    out = tmp_path / "out"
    assert cli.main(["sheets", "seeders-exodus", "--with", str(mod), "--cards", "mod", "--out", f"{out}/"]) == 0
    assert "2 different cards" in capsys.readouterr().out
    root = ET.parse(out / "mon-module.svg").getroot()  # parses: nothing of the title escaped the XML
    title = "".join(root.find(f"{SVG}title").itertext())
    assert title.startswith('Mon <module> & "co" ]]> </svg> ') and title.endswith(" end")
    assert not any(ch in title for ch in "\x07\u202e")
    shown = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert 'Mon <module> & "co"' in shown
    assert sorted(p.name for p in out.iterdir()) == ["mon-equipage.svg", "mon-module.svg", "seeders-exodus.pdf"]
    text = pdf_text(out / "seeders-exodus.pdf")
    assert 'Mon <module> & "co"' in text and text.count("Mon équipage") == 2
    assert pages_of(out / "seeders-exodus.pdf") == 1


def test_no_text_leaves_the_card_however_long():
    lib = pytest.importorskip("reportlab") and sheets.library()
    long = " ".join(["a-very-long-word-" * 12] + ["gain 1 resource and draw a card"] * 300)
    face = Face("x", "T" * 300 + " title", "B" * 200, "#123456", ("kind " * 80,),
                tuple((f"figure {i} " * 5, str(10 ** 30)) for i in range(40)), (("Name " * 30, long),) * 5,
                "footer " * 50, 1)
    texts = [s for s in lay_out(face, lib.measure) if isinstance(s, Text)]
    assert texts and any("\u2026" in t for s in texts for t, _ in s.runs)  # cut, and said so
    for s in texts:
        width = sum(lib.measure(t, b) * s.size for t, b in s.runs)
        left = s.x - {"middle": width / 2, "end": width}.get(s.anchor, 0) * 1
        assert 0 <= left and left + width <= CARD_W + 0.01, s
        assert s.size <= s.y <= CARD_H, s


def test_cards_and_set_choose_what_is_printed(mod, tmp_path, capsys):
    pytest.importorskip("reportlab")
    out = tmp_path / "some.pdf"
    assert cli.main(["sheets", "seeders-exodus", "--cards", "clinique-symbiotique,Forge Orbitale",
                     "--out", str(out), "--lang", "fr"]) == 0
    text = pdf_text(out)
    assert text.count("Clinique symbiotique") == 2 and text.count("Forge Orbitale") == 1  # its 2 copies
    assert "Atelier de Prototypage" not in text
    assert "gagnez 1 ressource pour chacun" in text  # the face in French: Forge Orbitale's printed text
    assert cli.main(["sheets", "seeders-exodus", "--with", str(mod), "--set", "hostile", "--out", str(out)]) == 0
    assert "Mon équipage" in pdf_text(out) and "Forge Orbitale" not in pdf_text(out)
    capsys.readouterr()
    assert cli.main(["sheets", "seeders-exodus", "--cards", "forge-orbital", "--out", str(out)]) == 2
    assert "no card 'forge-orbital'" in capsys.readouterr().err
    assert cli.main(["sheets", "seeders-exodus", "--set", "nope", "--out", str(out)]) == 2
    assert "(sets: base)" in capsys.readouterr().err
    assert cli.main(["sheets", "seeders-exodus", "--out", str(tmp_path / "no" / "such" / "x.pdf")]) == 2


def test_the_same_cards_give_the_same_pdf(tmp_path):
    pytest.importorskip("reportlab")
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (a, b):
        assert cli.main(["sheets", "karman-swap", "--cards", "vermille", "--out", str(out)]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_without_reportlab_the_command_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "reportlab.pdfgen", None)  # importing it raises ImportError
    monkeypatch.setattr(sheets, "_LIBRARY", [])
    assert cli.main(["sheets", "karman-swap", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "pip install 'regles[sheets]'" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
