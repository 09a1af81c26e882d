"""A scenario's sheets per character (`characters:`): one for each value of the attribute the
game's powers are unique by; a missing sheet or an unknown character is reported at its place.
A sheet's title and text are one text or a text by language ('en', 'fr'): another language is
reported at its place."""
from pathlib import Path

import pytest

import interpreter
from interpreter import cli
from interpreter.codes import BY_ID

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "content" / "seeders-exodus" / "expansions" / "tais" / "scenarios" / "tais-2j.yaml"


def test_a_scenario_missing_a_characters_sheet_is_reported_with_its_place_and_code(tmp_path):
    text = SHIPPED.read_text(encoding="utf-8").replace("id: tais-2j", "id: mine").replace("  Moor:", "  Mor:")
    mod = tmp_path / "mine.yaml"
    mod.write_text(text, encoding="utf-8")
    with pytest.raises(interpreter.LoadError) as err:
        interpreter.load("seeders-exodus", expansions=["tais"], mods=[str(mod)])
    out = str(err.value)
    line = text.splitlines().index("characters:") + 1
    assert f"mine.yaml:{line}:1: error[D007]: scenario 'mine' has no sheet for character 'Moor'" in out
    assert "error[N019]: 'Mor' is not a value of 'character'" in out and "did you mean 'Moor'?" in out
    assert BY_ID["D007"].name == "missing-sheet"


def test_every_shipped_scenario_of_an_expansion_with_sheets_has_a_sheet_per_character():
    game = interpreter.load("seeders-exodus", expansions=["tais", "etho", "hanks"])
    seen = set()
    for sc in game.program.defn.scenarios:
        if sc.layer in ("tais", "etho", "hanks"):
            seen.add(sc.layer)
            assert set(sc.data["characters"]) == {"Kessra", "Ilvane", "Brück", "Aldée", "Zéphyr", "Moor"}, sc.id
            assert all(sheet.get("authored") and sheet.get("title") for sheet in sc.data["characters"].values())
            # every text of its sheets in English and in French, none empty
            texts = [sc.data["title"], sc.data["text"]] + [sheet[key] for sheet in sc.data["characters"].values()
                                                          for key in ("title", "text")]
            assert all(set(t) == {"en", "fr"} and all(v.strip() for v in t.values()) for t in texts), sc.id
    assert seen == {"tais", "etho", "hanks"}


@pytest.mark.parametrize("text,said", [
    ('{de: "Die Schmuggler der Soute."}',
     ["mine.yaml:{line}:8: error[S001]: text: unknown key 'de'", "    hint: allowed keys: en, fr"]),
    ("{}", ["mine.yaml:{line}:7: error[S007]: text: expected at least 1 key", "    hint: its keys: en, fr"]),
    ('{en: "Smugglers.", fr: 3}', ["mine.yaml:{line}:30: error[S003]: text.fr: expected a text, found a whole number"]),
])
def test_a_sheet_in_another_language_than_english_or_french_is_reported_at_its_place(tmp_path, monkeypatch, capsys,
                                                                                      text, said):
    lines = ["kind: scenario", "game: seeders-exodus", "id: mine", 'title: {en: "Smugglers", fr: "Contrebandiers"}',
             f"text: {text}", "players: [2]"]
    (tmp_path / "mine.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "mine.yaml"]) == 1
    out = capsys.readouterr().out.splitlines()
    for expected in said:
        assert expected.format(line=5) in out
    assert sum(": error[" in line for line in out) == 1
