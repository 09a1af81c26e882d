"""What a block of work shares (`interpreter.shared_store`), per thread: two threads loading
or checking at once each keep their own store, and leave none behind them; only one block at a
time uses the store kept from one block to the next."""
from __future__ import annotations

import threading

import interpreter
from interpreter.content import source
from interpreter.language import check_reuse, texts
from interpreter.rulings.check import check_paths
from interpreter.resources import content_dir
from interpreter.shared_store import SharedStore


def _store(kept: dict, most: int = 100) -> SharedStore:
    return SharedStore("test store", lambda: kept, lambda k: len(k) > most)


def test_blocks_crossing_in_two_threads_keep_their_own_stores_and_leave_none():
    # thread A opens a block, B opens one, A closes, B closes: with one store for the process,
    # B's closing put A's store back for good (every later block then took it for an outer one)
    store = _store({})
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def a():
        with store.block():
            seen["a"] = store.get()
            a_in.set()
            b_in.wait(10)
        a_out.set()
        seen["a after"] = store.get()

    def b():
        a_in.wait(10)
        with store.block():
            seen["b"] = store.get()
            b_in.set()
            a_out.wait(10)
            seen["b after a"] = store.get()
        seen["b after"] = store.get()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen["a"] is not None and seen["b"] is not None and seen["a"] is not seen["b"]
    assert seen["b after a"] is seen["b"]  # A's end took nothing from B
    assert seen["a after"] is None and seen["b after"] is None and store.get() is None


def test_a_block_within_a_block_shares_the_outer_store():
    store = _store({})
    given = {"x": 1}
    with store.block(store=given):
        with store.block(kept=True):
            assert store.get() is given
        assert store.get() is given
    assert store.get() is None


def test_one_block_at_a_time_uses_the_kept_store_and_it_is_cleared_past_its_bound():
    kept = {}
    store = _store(kept, most=2)
    inside, done = threading.Event(), threading.Event()
    other = {}

    def second():
        inside.wait(10)
        with store.block(kept=True):
            other["store"] = store.get()
        done.set()

    t = threading.Thread(target=second)
    t.start()
    with store.block(kept=True):
        assert store.get() is kept
        store.get()["a"] = 1
        inside.set()
        done.wait(10)
    t.join(10)
    assert other["store"] is not kept and other["store"] == {}  # kept in use: a store of its own
    assert kept == {"a": 1}
    with store.block(kept=True):
        store.get().update(b=2, c=3)
    assert kept == {}  # past its bound at the block's end: cleared


def test_games_loaded_and_checked_in_threads_at_once_leave_no_store_behind():
    errors = []

    def work(i):
        try:
            if i % 2:
                interpreter.load("karman-swap")
            else:
                assert check_paths([str(content_dir() / "karman-swap")]).ok
        except Exception as exc:  # noqa: BLE001 (any failure is the test's finding)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert texts.SHARED_TREES.get() is None and source.SHARED_LOADS.get() is None
    assert check_reuse.SHARED_CHECKS.get() is None
