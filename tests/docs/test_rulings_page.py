"""docs/rulings.md says what the content rules and authors (it is generated from it)."""
import subprocess
import sys

from gamekit import ROOT


def test_rulings_page_is_in_step_with_the_content():
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_rulings.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_rulings_page_lists_the_rulings_of_each_game():
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    assert "## Karman Swap" in text and "### Rulings" in text
    assert "research gems are turned into discovery gems" in text
    assert "| `cards/planets.yaml` | Ith |" in text
