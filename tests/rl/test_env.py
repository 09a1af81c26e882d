"""Every game as a PettingZoo AEC environment: PettingZoo's own API and seed tests, observations
masked as `state.observation` masks them, and action numbers that stand for the engine's options."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the environments need regles[rl] (PettingZoo, Gymnasium)")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import interpreter  # noqa: E402
from interpreter.content.folders import shipped_games  # noqa: E402
from gamekit import player_counts  # noqa: E402
from interpreter.engine.values import Comp  # noqa: E402
from interpreter.rl import env, raw_env  # noqa: E402
from interpreter.rl.actions import ActionMap  # noqa: E402
from interpreter.rl.encoding import Encoding  # noqa: E402

# PettingZoo warns of every Dict observation space, as it does for its own games with action masks
pytestmark = [pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
              pytest.mark.filterwarnings("ignore:Observation space for each agent")]

GAMES = [(g, n) for g in shipped_games() for n in player_counts(g)]


@pytest.mark.parametrize("game_id,players", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(game_id, players):
    api_test(env(game_id, players=players), num_cycles=120)
    seed_test(lambda: env(game_id, players=players), num_cycles=40)


def test_a_player_count_an_expansion_allows_is_named_and_plays_with_it():
    with pytest.raises(ValueError, match=r"not 5 \(with expansions=\['cinq'\]: up to 5\)"):
        env("seeders-exodus", players=5)
    with pytest.raises(ValueError, match=r"Karman Swap is for 2 to 4 players, not 5\Z"):
        env("karman-swap", players=5)
    e = env("seeders-exodus", players=5, expansions=["cinq"])
    api_test(e, num_cycles=60)
    assert e.possible_agents == [f"player_{i}" for i in range(1, 6)]


def _random_states(game_id, players, seed, every=7, limit=400):
    game = interpreter.load(game_id)
    st = game.new_state(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_terminal() and steps < limit:
        if steps % every == 0:
            yield st
        st.apply(rng.randrange(len(st.legal_actions())))
        steps += 1


def _hidden_from(st, seat):
    """(zone key, its list) of the zones holding components the seat may not see."""
    obs = st.observation(seat)
    return [(k, st.zones[k]) for k, v in obs["zones"].items() if isinstance(v, dict) and st.zones.get(k)]


@pytest.mark.parametrize("game_id", shipped_games())
def test_what_a_seat_may_not_see_changes_nothing_of_its_observation(game_id):
    """Swapping two components the seat cannot see (from hidden zones) leaves its observation dict
    and its vector as they were; the vector of a seat that sees one of them changes."""
    game = interpreter.load(game_id)
    players = game.max_players
    enc = Encoding(game.program, players)
    swapped = seen_change = 0
    for st in _random_states(game_id, players, seed=4):
        for seat in range(players):
            hidden = _hidden_from(st, seat)
            pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]]
            if not pairs:
                continue
            # a pair one of whose zones another seat sees, when there is one
            (ka, la), (kb, lb) = max(pairs, key=lambda p: any(
                not isinstance(st.observation(o)["zones"][p[0][0]], dict) for o in range(players) if o != seat))
            twin = st.clone()
            a, b = la[-1], lb[-1]
            twin.zones[ka][-1], twin.zones[kb][-1] = b, a
            twin.where[a], twin.where[b] = kb, ka
            if st.program.comp_card[a].id == st.program.comp_card[b].id:
                continue
            assert twin.observation(seat) == st.observation(seat)
            assert np.array_equal(enc.encode(twin, seat), enc.encode(st, seat))
            swapped += 1
            for other in range(players):
                if other != seat and not isinstance(st.observation(other)["zones"][ka], dict):
                    assert not np.array_equal(enc.encode(twin, other), enc.encode(st, other))
                    seen_change += 1
    assert swapped > 5
    if game_id != "etherium":  # its hidden zones are decks nobody sees
        assert seen_change > 0


@pytest.mark.parametrize("game_id", shipped_games())
def test_components_a_seat_cannot_see_read_zero(game_id):
    game = interpreter.load(game_id)
    players = game.max_players
    enc = Encoding(game.program, players)
    base = enc.offset("components")
    checked = 0
    for st in _random_states(game_id, players, seed=9):
        for seat in range(players):
            obs = st.observation(seat)
            visible = {c["id"] for v in obs["zones"].values() if isinstance(v, list) for c in v}
            visible |= {c["id"] for v in obs["zones"].values() if isinstance(v, dict) for c in v.get("yours", ())}
            rows = enc.encode(st, seat)[base:base + enc.comps * enc.comp_width].reshape(enc.comps, enc.comp_width)
            assert set(np.flatnonzero(rows[:, 0]).tolist()) == visible
            assert not rows[[c for c in range(enc.comps) if c not in visible]].any()
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("game_id", shipped_games())
def test_each_action_number_is_the_option_it_stands_for(game_id):
    """Applying the option through its number (the environment) and by its index (the engine)
    gives the same state; numbers of one decision are distinct and inside the space, and a menu
    option offered for a component has the same number in every state it is offered."""
    game = interpreter.load(game_id)
    players = game.min_players
    am = ActionMap(game.program, players)
    assert am.position is None and not am.needs_position  # no shipped choice needs positions
    meaning: dict = {}
    decisions = 0
    for st in _random_states(game_id, players, seed=2, every=3):
        numbers = am.numbers(st)
        assert len(set(numbers)) == len(numbers) == len(st.legal_actions())
        assert all(0 <= k < am.size for k in numbers)
        labels = st.labels()
        for k, label in zip(numbers, labels):
            meaning.setdefault(k, set()).add(label)
        i = random.Random(decisions).randrange(len(numbers))
        by_index, by_number = st.clone(), st.clone()
        by_index.apply(i)
        e = raw_env(game, players)
        e.reset(seed=0)
        e.state_ = by_number
        e._after_step()
        e.step(numbers[i])
        assert by_number.to_json() == by_index.to_json()
        decisions += 1
    assert decisions > 10
    # a component's number is the same whatever the prompt: the label names that component
    for k, labels in meaning.items():
        text = am.describe(k)
        if am.picks.comp is not None and k < len(am.picks.comps):  # picking a component: its title is said
            assert all(game.program.comp_card[am.picks.comps[k]].title in lab for lab in labels), (text, labels)


def test_observations_masks_rewards_and_render():
    e = env("karman-swap", players=2, render_mode="ansi")
    e.reset(seed=5)
    first = e.render()
    assert "Karman" in first
    seen_terminal = False
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, info = e.last()
        other = [a for a in e.agents if a != agent]
        if not (term or trunc):
            mask = obs["action_mask"]
            assert mask.sum() == len(info["legal_moves"]) > 0
            for a in other:
                assert e.observe(a)["action_mask"].sum() == 0
            action = int(np.flatnonzero(mask)[0])
            e.step(action)
            assert isinstance(e.render(), str)
        else:
            seen_terminal = True
            assert reward in (-1.0, 0.0, 1.0)
            e.step(None)
    assert seen_terminal and not e.agents
    returns = e.unwrapped.state_.returns()
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_wrapper_keeps_the_order_of_calls_and_reads_the_environment_as_it_is():
    """The wrapper reads agents, the agent to move and `last()` in one call each (`aec.InOrder`):
    the same errors before reset as PettingZoo's own wrapper, and after it the raw environment's
    values, the infos saying the legal moves of the agent to move alone."""
    from pettingzoo.utils import wrappers
    e = env("karman-swap", players=3)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    for read in (lambda: e.agents, lambda: e.agent_selection, lambda: e.last(), lambda: e.rewards):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            read()
    e.reset(seed=3)
    raw = e.unwrapped
    rng = random.Random(3)
    for _ in range(60):
        agent = e.agent_selection
        assert agent == raw.agent_selection and e.agents is raw.agents
        obs, reward, term, trunc, info = e.last()
        assert (reward, term, trunc) == (raw._cumulative_rewards[agent], raw.terminations[agent],
                                         raw.truncations[agent])
        assert info["legal_moves"] == raw.legal_moves()
        assert sorted(info["legal_moves"]) == np.flatnonzero(obs["action_mask"]).tolist()
        assert all(raw.infos[a] == {"legal_moves": []} for a in e.agents if a != agent)
        e.step(rng.choice(info["legal_moves"]))


def test_an_illegal_action_is_refused_with_its_meaning():
    e = raw_env("karman-swap", 2)
    e.reset(seed=1)
    legal = set(e.legal_moves())
    illegal = next(k for k in range(e.actions.size) if k not in legal)
    with pytest.raises(ValueError, match="is not legal"):
        e.step(illegal)


def test_explain_prints_the_layout(capsys):
    from interpreter.cli import main
    assert main(["explain", "seeders-exodus", "--observation", "-n", "3"]) == 0
    out = capsys.readouterr().out
    size = Encoding(interpreter.load("seeders-exodus").program, 3).size
    assert f"Observation of seeders-exodus for 3 players: {size:,} values" in out
    assert "components" in out and "Actions of seeders-exodus for 3 players:" in out
    assert main(["explain", "seeders-exodus"]) == 2
    assert main(["explain", "seeders-exodus", "--observation", "-n", "9"]) == 2


def test_components_are_numbered_as_the_game_numbers_them():
    game = interpreter.load("karman-swap")
    am = ActionMap(game.program, 2)
    assert am.describe(am.pick + 3) == f"pick component 3 ({game.program.comp_card[Comp(3)].title})"


@pytest.mark.parametrize("game_id", shipped_games())
def test_the_observation_kept_per_seat_is_the_one_built_from_nothing(game_id):
    """`Encoding.encode` keeps, per seat, where each zone and counter goes, and `KeptObservations`
    each seat's last vector, changed where the state changed; after every step of random games,
    at every player count, every seat's vector is the one built from nothing
    (`encoding_plain.rebuilt`), taps, tags, changed attributes and controllers included."""
    from interpreter.rl.encoding_plain import rebuilt
    from interpreter.rl.kept_observation import KeptObservations
    game = interpreter.load(game_id)
    compared = 0
    for players in player_counts(game_id):
        enc = Encoding(game.program, players)
        kept = KeptObservations(enc)
        st = game.new_state(players, players)
        r = random.Random(players)
        for step in range(400):
            if st.is_terminal():
                break
            for seat in range(players):
                if (step + seat) % 3 == 0:  # each seat's kept vector a few steps behind, as in play
                    continue
                plain = rebuilt(enc, st, seat)
                assert np.array_equal(enc.encode(st, seat), plain), f"seat {seat} after step {step}"
                assert np.array_equal(kept.encode(st, seat), plain), f"kept, seat {seat} after step {step}"
                compared += 1
            st.apply(r.randrange(len(st.legal_actions())))
    assert compared > 500


_HANDS = {"game.yaml": """\
kind: game
id: hands
title: Hands
players: {min: 2, max: 3}
zones:
  deck: {scope: game}
  table: {scope: player, in_play: true}
  under: {scope: card, visibility: owner}
counters:
  charge: {scope: card, visibility: owner}
  points: {scope: player}
score: points
procedures:
  game: |
    repeat 12 times:
      for each p in players:
        choose c from [each x in deck] + [each x in in_play() where holder(x) != p] by p "Card to take"
        move c to p.table
        if count(deck) > 0:
          move top(deck) to c.under
        add 1 to c.charge
    win [each p in players where p.points == max(q.points for each q in players)]
""", "cards.yaml": """\
kind: cards
game: hands
start: deck
cards:
  - {id: a, title: A, copies: 10}
"""}


# as _HANDS, but each card taken has the card it covers put under the new one: cards two and
# three levels down change hands with the card on the table, without moving
_NESTED = {"game.yaml": _HANDS["game.yaml"].replace("id: hands", "id: nested").replace("""\
        if count(deck) > 0:
          move top(deck) to c.under
""", """\
        if count(deck) > 0:
          let u = top(deck)
          move u to c.under
          add 1 to u.charge
          for each y in c.under:
            if y != u:
              move y to u.under
"""), "cards.yaml": _HANDS["cards.yaml"].replace("game: hands", "game: nested")}


@pytest.mark.parametrize("files", [_HANDS, _NESTED], ids=["hands", "nested"])
def test_kept_observations_follow_components_that_change_hands(tmp_path, files):
    """Cards that hold a zone and a counter only their controller sees are taken from one table
    to another, with the cards under them: each seat's kept vector shows them, or stops showing
    them, as the one built from nothing does."""
    assert "let u" in files["game.yaml"] or files is _HANDS
    steps = _kept_against_rebuilt(tmp_path, files, lambda st: list(st.where))
    taken = sum(1 for before, after in steps for c, z in enumerate(before)
                if z is not None and str(z).startswith("table") and after[c] != z)
    assert taken > 5  # cards did change hands, with what they hold


def _kept_against_rebuilt(tmp_path, files: dict, note) -> list:
    """Play 4 random games of 3 players of the game of `files`, and before each step assert that
    every seat's kept vector is the one built from nothing (one observer for every game, as an
    environment's from reset to reset); (`note` of the state before, after) for each step."""
    from interpreter.rl.encoding_plain import rebuilt
    from interpreter.rl.kept_observation import KeptObservations
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    game = interpreter.load(str(tmp_path))
    enc = Encoding(game.program, 3)
    kept = KeptObservations(enc)
    steps = []
    for seed in range(4):
        st = game.new_state(3, seed)
        r = random.Random(seed)
        while not st.is_terminal():
            for seat in range(3):
                assert np.array_equal(kept.encode(st, seat), rebuilt(enc, st, seat)), f"seat {seat}"
            before = note(st)
            st.apply(r.randrange(len(st.legal_actions())))
            steps.append((before, note(st)))
    return steps


_MARKS = {"game.yaml": """\
kind: game
id: marks
title: Marks
players: {min: 2, max: 3}
attributes:
  value: {type: number, default: 0}
classes: [Marked]
components:
  card: {attributes: [value]}
zones:
  deck: {scope: game}
  table: {scope: player, in_play: true}
  hand: {scope: player, visibility: owner}
counters:
  points: {scope: player}
  turn: {scope: game}
score: points
procedures:
  game: |
    repeat 15 times:
      for each p in players:
        choose c from [each x in deck] + [each x in in_play()] + [each x in p.hand] by p "Card to mark"
        add 1 to turn
        let k = turn % 5
        if k == 0:
          move c to p.table
        if k == 1:
          move c to p.hand
        if k == 2:
          if tapped(c):
            untap c
          else:
            tap c
        if k == 3:
          if has(c, "Marked"):
            untag c as Marked
          else:
            tag c as Marked
        if k == 4:
          set c.value = c.value + 1
""", "cards.yaml": """\
kind: cards
game: marks
start: deck
cards:
  - {id: a, title: A, copies: 8, value: 1}
"""}


def test_kept_observations_follow_taps_tags_and_attributes(tmp_path):
    """Cards are tapped, tagged and given a new value where they lie, in a zone every seat sees
    or one only the owner does, and moved to a hand (which drops a tap): each seat's kept
    vector shows what changed as the one built from nothing does."""
    steps = _kept_against_rebuilt(tmp_path, _MARKS, lambda st: (st.vt, st.vo, list(st.where)))
    marked = sum(1 for before, after in steps if after[:2] != before[:2] and after[2] == before[2])
    assert marked > 20  # taps, tags or values changed where the cards lay


@pytest.mark.parametrize("game_id", shipped_games())
def test_scaled_observations_lie_in_minus_one_to_one_and_keep_the_order_of_values(game_id):
    """With `scaled=True` each value of the vector is mapped into [-1, 1] by what the content
    declares of it: counts over the room of their zone, bounded counters over their bound, the
    others by a signed logarithm. Every seat's vector after every step of random games is in the
    space, is the raw vector mapped so, and keeps which values are 0, their signs and order."""
    players = max(player_counts(game_id))
    scaled, raw = env(game_id, players=players, scaled=True), env(game_id, players=players)
    space = scaled.observation_space("player_1")["observation"]
    assert space.low.min() == -1.0 and space.high.max() == 1.0
    enc = scaled.unwrapped.encoding
    inverse, logs = enc.scaling()
    linear = np.ones(enc.size, bool)
    linear[logs] = False
    changed = 0
    for seed in range(2):
        scaled.reset(seed=seed)
        raw.reset(seed=seed)
        rng = random.Random(seed)
        for _ in scaled.agent_iter(400):
            obs, _, over, cut, _ = scaled.last()
            plain = raw.last()[0]["observation"]
            x = obs["observation"]
            assert space.contains(x)
            assert np.array_equal(np.sign(x), np.sign(plain))
            assert np.allclose(x[linear], plain[linear] * inverse[linear])
            changed += int(np.any(x[linear] != plain[linear]))
            if over or cut:
                break
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            scaled.step(action)
            raw.step(action)
    assert changed > 0  # some counts or counters were divided by their room or bound
    order = np.array([-7.0, -1.0, 0.0, 1.0, 3.0, 40.0, 2e9], np.float32)
    vector = np.zeros(enc.size, np.float32)
    if logs.size:  # the signed logarithm keeps the order of values, and stays within [-1, 1]
        at = logs[0]
        mapped = []
        for v in order:
            vector[at] = v
            mapped.append(enc.scaled(vector)[at])
        assert mapped == sorted(mapped) and -1 <= mapped[0] and mapped[-1] <= 1 and mapped[2] == 0


def test_scaled_environments_pass_pettingzoo_s_api_test():
    api_test(env("karman-swap", players=2, scaled=True), num_cycles=60)


@pytest.mark.parametrize("game_id", shipped_games())
def test_the_decision_block_names_the_kind_and_choice_point_asked(game_id):
    """The deciding seat's vector has a 1 at the decision's kind and at its choice point, found
    by its text (`Encoding.points`), and the number of its options; the choice point kept by
    the position's identity (`_point_of`) is the one its text names."""
    from interpreter.rl.encoding import KINDS
    e = env(game_id, players=max(player_counts(game_id)))
    e.reset(seed=2)
    raw = e.unwrapped
    enc = raw.encoding
    base, n, points = enc.offset("decision"), raw.players, enc.points
    rng = random.Random(2)
    asked = set()
    for agent in e.agent_iter(300):
        obs, _, over, cut, _ = e.last()
        if over or cut:
            break
        d = raw.state_.pending
        x = obs["observation"]
        k = base + n + 1
        assert x[base] == 1 and x[k + KINDS.index(d.kind)] == 1  # it decides (seat +0), and what kind
        point = points.get(str(d.pos), len(points))
        block = x[k + len(KINDS):k + len(KINDS) + len(points) + 1]
        assert block[point] == 1 and block.sum() == 1
        assert x[k + len(KINDS) + len(points) + 1] == len(d.entries)
        asked.add(point)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(asked) > 3


def test_render_tells_the_game_as_play_does_a_run_of_moves_in_one_line():
    e = env("karman-swap", players=2, render_mode="ansi")
    e.reset(seed=1)
    told = e.render().splitlines()
    dealt = [line for line in told if line.endswith("moved from deck to player 1's hand")]
    assert len(dealt) == 1 and dealt[0].count(",") >= 5  # the hand dealt, one line naming each card
