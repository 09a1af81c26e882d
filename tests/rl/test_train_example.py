"""The training example with rlax (examples/train_rlax.py): its policy picks only legal actions, its
updates change the policy and are reproduced from their seed, and, trained for its default budget,
it wins more often against random than before, as docs/researchers.md says.

Each check runs in a process of its own: JAX starts threads, and other tests of the same worker
fork processes (simulate's workers), which JAX's threads could leave deadlocked."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("rlax") is None or importlib.util.find_spec("pettingzoo") is None:
    pytest.skip("the example needs regles[train] (rlax, optax, JAX, PettingZoo)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "train_rlax.py"
PAGE = ROOT / "docs" / "researchers.md"

_LOAD = f"""
import importlib.util, json, sys
import numpy as np
spec = importlib.util.spec_from_file_location("train_rlax", {str(EXAMPLE)!r})
example = importlib.util.module_from_spec(spec)
sys.modules["train_rlax"] = example
spec.loader.exec_module(example)
import jax
"""


def _facts(code: str) -> dict:
    """What `code`, run after the example is loaded in a new process, prints as its last line (JSON)."""
    run = subprocess.run([sys.executable, "-c", _LOAD + code], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_policy_picks_only_actions_the_mask_allows():
    facts = _facts("""
rng = np.random.default_rng(0)
params = example.init(jax.random.PRNGKey(0), 30, 50)
obs = rng.normal(size=(64, 30)).astype(np.float32) * 20
mask = rng.random((64, 50)) < 0.1
mask[np.arange(64), rng.integers(50, size=64)] = True  # at least one legal action each
actions, logp, _ = example.act(params, obs, mask, jax.random.PRNGKey(1))
print(json.dumps({"legal": [bool(mask[i, a]) for i, a in enumerate(np.asarray(actions))],
                  "logp": np.asarray(logp).tolist(), "forbidden": int((~mask).sum())}))
""")
    assert len(facts["legal"]) == 64 and all(facts["legal"])
    assert facts["forbidden"] > 64 * 40  # most actions were forbidden: a policy ignoring the mask would pick some
    assert all(-50 < p <= 0 for p in facts["logp"])


def test_an_update_changes_the_policy_and_is_reproduced_from_its_seed():
    facts = _facts("""
first, played = example.train(2, seed=3, log=None)
again, played_again = example.train(2, seed=3, log=None)
other, _ = example.train(2, seed=4, log=None)
untrained = example.init(jax.random.split(jax.random.PRNGKey(3))[1], first["w1"].shape[0], first["wp"].shape[1])
print(json.dumps({"played": [played, played_again],
                  "same": all(np.array_equal(first[k], again[k]) for k in first),
                  "learnt": not np.allclose(first["wp"], untrained["wp"]),
                  "seeded": not np.allclose(first["wp"], other["wp"])}))
""")
    assert facts["played"][0] == facts["played"][1] > 0  # 2 updates of 8 x 64 steps end some games
    assert facts["same"] and facts["learnt"] and facts["seeded"]


def _command(*args: str) -> re.Match:
    run = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    got = re.fullmatch(r"against random: (\d+)% before training, (\d+)% after (\d+) games \((\d+) updates, \d+ s of "
                       r"processor time\)\n", run.stdout)
    assert got, run.stdout
    return got


def test_the_command_says_its_win_rates():
    got = _command("--updates", "2", "--games", "4")
    assert all(0 <= int(got.group(k)) <= 100 for k in (1, 2)) and int(got.group(3)) > 0 and got.group(4) == "2"


@pytest.mark.slow  # a few minutes of training: the example's other tests run in the default suite
def test_trained_for_its_budget_it_wins_more_often_as_the_page_says():
    got = _command()
    before, after = int(got.group(1)), int(got.group(2))
    assert after >= before + 15
    said = f"against random: {before}% before training, {after}% after {got.group(3)} games"
    assert said in PAGE.read_text(encoding="utf-8")
