"""The kept observation's difference of a zone's members before and after (`_difference`), a fast
path (comparisons of lists, and the sums of ids for one member taken or put anywhere), compared
with the plain difference of the two lists on random changes."""
from __future__ import annotations

import random

from interpreter.engine.values import Comp
from interpreter.rl.kept_observation import _difference


def _plain(old: list, new: list) -> tuple:
    return [c for c in old if c not in new], [c for c in new if c not in old]


def test_the_difference_of_members_is_the_plain_one():
    r = random.Random(7)
    kinds = {"end": 0, "middle": 0, "other": 0}
    for _ in range(20000):
        old = [Comp(i) for i in r.sample(range(60), r.randrange(0, 20))]
        new = old[:]
        for _ in range(r.randrange(0, 4)):
            op = r.randrange(4)
            if op == 0 and new:
                new.pop(r.randrange(len(new)))
            elif op == 1:
                c = Comp(r.randrange(60, 90))
                if c not in new:
                    new.insert(r.randrange(len(new) + 1), c)
            elif op == 2 and new:
                new.insert(r.randrange(len(new) + 1), new.pop(r.randrange(len(new))))
            elif op == 3:
                new.append(Comp(r.randrange(90, 99)))
        new = list(dict.fromkeys(new))  # members are distinct
        left, came = _difference(old, new)
        assert (list(left), list(came)) == _plain(old, new), (old, new)
        assert all(type(c) is Comp for c in [*left, *came])
        one = len(left) + len(came) == 1
        at_end = one and (old[:len(new)] == new or new[:len(old)] == old)
        kinds["end" if at_end else "middle" if one else "other"] += 1
    assert min(kinds.values()) > 1000  # each path was taken
