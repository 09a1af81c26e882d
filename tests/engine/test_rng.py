"""The game's random generator (engine.values.Rng): its shuffle's draws made in the loop are
the draws of the plain loop through `below`, so that every game and search deals as before."""
from __future__ import annotations

import random

from interpreter.engine.values import GivenRng, Rng


def test_a_shuffle_deals_as_the_plain_loop_and_leaves_the_generator_where_it_leaves_it():
    r = random.Random(5)
    for _ in range(400):
        seed = r.getrandbits(64)
        n = r.choice([0, 1, 2, 3, 7, 52, 170, r.randrange(1, 400)])
        fast, plain = list(range(n)), list(range(n))
        a, b = Rng(seed), Rng(seed)
        a.shuffle(fast)
        b.shuffle_plain(plain)
        assert fast == plain
        assert a.state == b.state and a.next64() == b.next64()
    # the seeds that make `below` draw again (a value past the last whole multiple of n) are
    # rare at small n: some shuffle of a long list meets them, and deals as the plain loop then
    dealt = list(range(5000))
    Rng(1).shuffle(dealt)
    assert dealt != list(range(5000)) and sorted(dealt) == list(range(5000))


def test_a_generator_of_another_kind_shuffles_its_own_way():
    given = GivenRng((1, 0))
    items = ["a", "b", "c"]
    given.shuffle(items)  # its outcomes, as given: the third place swapped with the second, then
    assert items == ["c", "a", "b"]  # the second with the first
    assert given.pos == 2
