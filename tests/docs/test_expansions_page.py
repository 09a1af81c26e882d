"""docs/expansions.md lists the extension points every shipped game declares, and only those."""
import re

import yaml

from gamekit import ROOT


def test_the_page_lists_every_extension_point_of_every_shipped_game():
    page = (ROOT / "docs" / "expansions.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| ([a-z-]+) \| `([a-z_]+)[`(]", page, re.M))
    declared = set()
    for game_file in (ROOT / "content").glob("*/game.yaml"):
        data = yaml.safe_load(game_file.read_text(encoding="utf-8"))
        declared |= {(data["id"], name) for name in data.get("extension_points") or {}}
    assert declared, "no shipped game declares an extension point: the test reads nothing"
    assert listed == declared
