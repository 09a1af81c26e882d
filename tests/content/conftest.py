"""What the tests of content share: a copy of the docs game to lay expansions over."""
from __future__ import annotations

import shutil

import pytest

from gamekit import FIXTURES


@pytest.fixture
def game_dir(tmp_path):
    """A copy of tests/fixtures/docs-game, free to write expansions and scenarios into."""
    root = tmp_path / "docs-game"
    shutil.copytree(FIXTURES / "docs-game", root)
    return root
