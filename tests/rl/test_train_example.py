"""The training example with rlax (examples/train_rlax.py): its policy picks only legal actions, its
updates change the policy and are reproduced from their seed, and, trained for its default budget,
it wins more often against random than before, as docs/researchers.md says."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the example needs regles[rl]")
pytest.importorskip("rlax", reason="the example needs regles[train] (rlax, optax, JAX)")

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "researchers.md"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_rlax", ROOT / "examples" / "train_rlax.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_rlax"] = module
    spec.loader.exec_module(module)
    return module


def test_the_policy_picks_only_actions_the_mask_allows(example):
    import jax
    rng = np.random.default_rng(0)
    params = example.init(jax.random.PRNGKey(0), 30, 50)
    obs = rng.normal(size=(64, 30)).astype(np.float32) * 20
    mask = rng.random((64, 50)) < 0.1
    mask[np.arange(64), rng.integers(50, size=64)] = True  # at least one legal action each
    actions, logp, _ = example.act(params, obs, mask, jax.random.PRNGKey(1))
    assert all(mask[i, a] for i, a in enumerate(np.asarray(actions)))
    assert np.all(np.asarray(logp) <= 0) and np.all(np.isfinite(np.asarray(logp)))


def test_an_update_changes_the_policy_and_is_reproduced_from_its_seed(example):
    import jax
    first, played = example.train(2, seed=3, log=None)
    again, played_again = example.train(2, seed=3, log=None)
    other, _ = example.train(2, seed=4, log=None)
    untrained = example.init(jax.random.split(jax.random.PRNGKey(3))[1], first["w1"].shape[0], first["wp"].shape[1])
    assert played == played_again > 0  # 2 updates of 8 x 64 steps end some games of Karman Swap
    assert all(np.array_equal(first[k], again[k]) for k in first)
    assert not np.allclose(first["wp"], untrained["wp"])
    assert not np.allclose(first["wp"], other["wp"])


def test_the_command_says_its_win_rates(example):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert example.main(["--updates", "2", "--games", "4"]) == 0
    got = re.fullmatch(r"against random: (\d+)% before training, (\d+)% after (\d+) games \(2 updates, \d+ s of "
                       r"processor time\)\n", out.getvalue())
    assert got, out.getvalue()
    assert all(0 <= int(got.group(k)) <= 100 for k in (1, 2)) and int(got.group(3)) > 0


@pytest.mark.slow  # a few minutes of training: the example's other tests run in the default suite
def test_trained_for_its_budget_it_wins_more_often_as_the_page_says(example):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        example.main([])
    got = re.match(r"against random: (\d+)% before training, (\d+)% after (\d+) games", out.getvalue())
    assert got, out.getvalue()
    before, after = int(got.group(1)), int(got.group(2))
    assert after >= before + 15
    assert got.group(0) in PAGE.read_text(encoding="utf-8")
