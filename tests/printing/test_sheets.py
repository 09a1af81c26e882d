"""`regles sheets`: print-and-play PDFs of a game's cards, nine to a page, and an SVG per card."""
import math
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import interpreter
from interpreter import cli
from interpreter.printing import sheets
from interpreter.printing.cardlayout import CARD_H, CARD_W, Text, lay_out
from interpreter.printing.faces import Face

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


GAMES = ("karman-swap", "etherium", "seeders-exodus")


class Sheets:
    """One game's sheets as `regles sheets GAME` prints them by default, read back from the PDF."""

    def __init__(self, game, folder, *options):
        import contextlib
        import io
        pytest.importorskip("reportlab")
        pypdf = pytest.importorskip("pypdf")
        self.game = interpreter.load(game)
        self.path = folder / f"{game}.pdf"
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            self.status = cli.main(["sheets", game, "--out", str(self.path), *options])
        self.stderr, self.stdout = err.getvalue(), out.getvalue()
        self.sizes, texts = [], []
        for page in pypdf.PdfReader(str(self.path)).pages:
            def seen(text, cm, tm, font, size):
                if text.strip():
                    self.sizes.append(size * abs(tm[3]) * abs(cm[3]))
            texts.append(page.extract_text(visitor_text=seen))
        self.pages = texts
        self.text = " ".join(" ".join(t.split()) for t in texts)
        self.squeezed = "".join(self.text.split())  # no space at all: lines break anywhere


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """Each shipped game's default sheets, made once for the module when first asked."""
    made = {}

    def get(game):
        if game not in made:
            made[game] = Sheets(game, tmp_path_factory.mktemp(game))
        return made[game]
    return get


@pytest.fixture(scope="module")
def seeders_pdf(shipped):
    return shipped("seeders-exodus").path


def squeeze(text) -> str:
    return "".join(str(text).split())


@pytest.mark.parametrize("game", GAMES)
def test_no_text_is_printed_smaller_than_7_pt(shipped, game):
    # before the card faces came from the content, Karman Swap's smallest text was 4.2 pt and
    # Etherium's 3.7 pt; now nothing is smaller than 7 pt, measured from the PDF's text operators
    sheets_ = shipped(game)
    assert sheets_.status == 0, sheets_.stderr
    assert sheets_.sizes and min(sheets_.sizes) >= 7.0 - 1e-6


@pytest.mark.parametrize("game", GAMES)
def test_every_card_prints_its_face_in_the_game_language(shipped, game):
    """Each card's face (its printed text, its keywords' texts, else prose: `Prose.face`), in the
    language the game is printed in, is on the sheets; a card whose text does not fit at 7 pt is
    named on the standard error, and only such a card may miss words."""
    from interpreter.language.prose import Prose
    from interpreter.printing import faces as F
    sheets_ = shipped(game)
    defn = sheets_.game.program.defn
    assert f"in '{defn.language}'" in sheets_.stdout
    prose = Prose(defn, sheets_.game.program.found, defn.language)
    printed = {f.id: f for f in F.faces(defn, prose, defn.cards)}
    missing, checked = [], 0
    for card in defn.cards:
        if card.copies <= 0:
            continue
        face = printed[card.id]
        assert squeeze(card.title) in sheets_.squeezed
        if isinstance(face, F.Tile):
            continue
        for line in prose.face_texts(card) or [t for _, t in face.abilities]:
            checked += 1
            if squeeze(line) not in sheets_.squeezed:
                missing.append(card.id)
    told = {line.split(": ")[2] for line in sheets_.stderr.splitlines() if "does not fit at 7 pt" in line}
    assert set(missing) <= told, sorted(set(missing) - told)
    assert checked and len(set(missing)) <= len(defn.cards) // 20  # a few long prose faces, waiting for a text


@pytest.fixture
def mod(tmp_path):
    folder = tmp_path / "my-mod"
    folder.mkdir()
    (folder / "cards.yaml").write_text(HOSTILE, encoding="utf-8")
    return folder


def test_a_page_holds_nine_cards_and_each_card_is_printed_as_often_as_its_copies(shipped):
    sheets_ = shipped("seeders-exodus")
    game = sheets_.game
    defn = game.program.defn
    # a card each player has (per_player) is printed once per player, for the most players; the
    # negotiators are tiles (the game's print: hints), on a page of their own after the cards
    tiled = {c.id for c in defn.cards if c.component == "negotiator"}
    total = sum(c.copies * (game.max_players if c.per_player else 1) for c in defn.cards if c.id not in tiled)
    assert len(sheets_.pages) == math.ceil(total / 9) + 1
    assert sheets_.text.count("Négociateur Déviant") == game.max_players
    text = sheets_.text
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


TEXTS = """\
kind: cards
game: seeders-exodus
set: texts
start: deck
cards:
  - {id: "mon-texte", title: "Mon texte", caste: Noyau, type: Module, cost: 1,
     text: {fr: "Gagnez 2 PP à la fin de la partie.", en: "Score 2 PP at the end of the game."}}
  - {id: "trop-long", title: "Trop long", caste: Noyau, type: Module,
     text: {fr: "%s", en: "%s"}}
  - {id: "fleche", title: "Flèche", caste: Noyau, type: Module,
     text: {fr: "[2]-[1] \u2192 [1]-[1]", en: "[2]-[1] \u2192 [1]-[1]"}}
""" % ("Un texte bien trop long pour une carte. " * 40, "A text far too long for a card. " * 40)


@pytest.fixture
def texts_mod(tmp_path):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "cards.yaml").write_text(TEXTS, encoding="utf-8")
    return folder


def test_a_card_prints_its_own_text_in_the_language_asked_and_a_text_too_long_is_named(texts_mod, tmp_path, capsys):
    pytest.importorskip("reportlab")
    out = tmp_path / "t.pdf"
    args = ["sheets", "seeders-exodus", "--with", str(texts_mod), "--set", "texts", "--out", str(out)]
    assert cli.main(args) == 0  # the game's language (fr) by default
    err = capsys.readouterr().err
    assert "Gagnez 2 PP à la fin de la partie." in pdf_text(out)
    assert "seeders-exodus: trop-long: its text does not fit at 7 pt and is cut" in err
    assert "seeders-exodus: mon-texte" not in err
    assert "seeders-exodus: fleche: the font has no glyph for '\u2192', printed blank" in err
    assert "\u2026" in pdf_text(out)  # the cut is marked on the card
    # in English; and with --strict, the same sheets are written but the cut is an error
    assert cli.main(args + ["--lang", "en", "--strict"]) == 1
    assert "Score 2 PP at the end of the game." in pdf_text(out)


def _sizes(path) -> list:
    pypdf = pytest.importorskip("pypdf")
    found = []
    for page in pypdf.PdfReader(str(path)).pages:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: found.append(size) if text.strip() else None)
    return found


def _positions(path, page: int) -> dict:
    """text -> its x on page `page` of a PDF."""
    pypdf = pytest.importorskip("pypdf")
    found = {}

    def seen(text, cm, tm, font, size):
        if text.strip():
            found.setdefault(text.strip(), tm[4] * cm[0] + cm[4])
    pypdf.PdfReader(str(path)).pages[page].extract_text(visitor_text=seen)
    return found


def test_backs_follow_each_page_mirrored_with_the_game_title_and_the_kind(tmp_path, capsys):
    pytest.importorskip("reportlab")
    out = tmp_path / "b.pdf"
    assert cli.main(["sheets", "karman-swap", "--cards", "vermille,juhel", "--backs", "--out", str(out)]) == 0
    assert pages_of(out) == 2
    front, back = _positions(out, 0), _positions(out, 1)
    width = 595.27
    assert front["Vermille"] < width / 3 and width / 3 < front["Juhel"] < 2 * width / 3
    # the back of the first card (a creature, kind 'card') is behind it: in the right column
    assert "Karman" in " ".join(back) and {"Carte", "Planète"} <= set(back)
    assert back["Carte"] > 2 * width / 3 and width / 3 < back["Planète"] < 2 * width / 3


def test_a_bleed_sets_the_cards_apart_six_to_a_page_with_nothing_below_7_pt(tmp_path):
    pytest.importorskip("reportlab")
    out = tmp_path / "bleed.pdf"
    seven = "vermille,ronce-crabe,k-ib,cendreux,shergal-noir,pyrax,juhel"
    assert cli.main(["sheets", "karman-swap", "--cards", seven, "--bleed", "3", "--backs", "--out", str(out)]) == 0
    assert pages_of(out) == 4  # six cards, their backs, the seventh, its back
    assert min(_sizes(out)) >= 7.0
    assert cli.main(["sheets", "karman-swap", "--bleed", "9", "--out", str(out)]) == 2


def test_pieces_a_game_prints_as_tiles_are_tiles_not_cards(shipped):
    from interpreter.language.prose import Prose
    from interpreter.printing import faces as F
    from interpreter.printing.cardlayout import Poly
    sheets_ = shipped("etherium")
    defn = sheets_.game.program.defn
    assert sheets_.text.count("Terrain moyen") == 4  # its copies, each a tile of two hexes
    tiles = [f for f in F.faces(defn, Prose(defn, sheets_.game.program.found, "fr"), defn.cards)
             if isinstance(f, F.Tile)]
    medium = next(t for t in tiles if t.id == "medium-terrain")
    assert medium.shape == "hex" and [c[2] for c in medium.cells] == ["1", "1"]
    root = ET.fromstring(sheets.svg(medium, sheets.library().measure))
    assert len(root.findall(f"{SVG}polygon")) == 3  # two cells and the cut line round them
    assert {t.id.split("-")[0] for t in tiles} >= {"army", "collector", "token", "city"}
    assert "tiles" in sheets_.stdout


def test_a_face_never_breaks_a_line_between_a_number_and_what_it_counts_nor_before_french_punctuation(monkeypatch):
    from interpreter.printing import cardlayout
    runs = [("Affinité 1 - Module", True), (" : Lors de la phase de Prestige, gagnez 1 PP pour chaque carte", False)]
    written = "".join(t for t, _ in runs)

    def broken_at(width):
        fit = cardlayout.Fitter(lambda text, bold: 0.5 * len(text))  # every character as wide as any other
        lines = ["".join(t for t, _ in line) for line in fit.wrap(runs, width, 1.0)]
        assert " ".join(lines) == written  # the same words and plain spaces, only broken
        return [(a, b) for a, b in zip(lines, lines[1:], strict=False)
                if (a.endswith("1") and b.startswith("PP")) or b.startswith(":")]
    assert [w for w in range(8, 60) if broken_at(w)] == []
    # Python's plain breaking at every space does break there at some widths: the test can fail
    monkeypatch.setattr(cardlayout, "glued", lambda text: text)
    assert len([w for w in range(8, 60) if broken_at(w)]) >= 4


def test_several_words_of_one_kind_on_a_card_each_follow_their_name():
    """A planet's three preys are three colours: printed bare they read 'Vert · Bleu · Rouge', which
    says nothing; each now follows its name ('proie des rouges : Vert'). Words of different kinds
    still say what they are by themselves (a crew's 'Équipage · Secondaire · Ouvrier')."""
    import interpreter
    from interpreter.language.prose import Prose
    from interpreter.printing import faces as F

    def kinds_of(game, title, lang):
        program = interpreter.load(game).program
        prose = Prose(program.defn, program.found, lang)
        card = next(c for c in program.defn.cards if c.title == title)
        return list(F.faces(program.defn, prose, [card])[0].kinds)
    assert kinds_of("karman-swap", "Juhel", "fr") == ["proie des rouges : Vert", "proie des verts : Bleu",
                                                       "proie des bleus : Rouge"]
    assert kinds_of("karman-swap", "Juhel", "en") == ["red prey: Green", "green prey: Blue", "blue prey: Red"]
    assert kinds_of("karman-swap", "Vermille", "fr") == ["Rouge"]
    crew = kinds_of("seeders-exodus", "Ouvrier", "fr")
    assert crew[0] == "Équipage" and "Ouvrier" in crew and not any(":" in k for k in crew), crew


def test_an_english_sheet_prints_the_values_in_english_as_the_card_panel_says_them():
    """A value a card prints is said by the vocabulary's `value:` words of the sheet's language,
    on its band and in its line of kinds: Karman Swap's content, written with the French
    rulebook's words, printed 'Créature' and 'Rouge' on its English sheet."""
    from interpreter.language.prose import Prose
    from interpreter.printing import faces as F

    def face(game, title, lang):
        program = interpreter.load(game).program
        card = next(c for c in program.defn.cards if c.title == title)
        return F.faces(program.defn, Prose(program.defn, program.found, lang), [card])[0]
    english, french = face("karman-swap", "Vermille", "en"), face("karman-swap", "Vermille", "fr")
    assert (english.band, list(english.kinds)) == ("Creature", ["Red"])
    assert (french.band, list(french.kinds)) == ("Créature", ["Rouge"])
    assert face("etherium", "Bûcheron", "en").band == "Season"
