"""A store shared within a block of work, one per thread, and what it keeps for the next block.

    FILES = SharedStore("files loaded", lambda: KEPT, lambda kept: len(kept) > MOST)
    with FILES.block(kept=True):       # a check: what it loads is shared by its packs
        store = FILES.get()            # the block's dict, or None outside any block

A check lays a game's expansions over it in several packs, which read the same files and
texts and check the same cards: within its block each is loaded, parsed or checked once
(`source.shared_loads`, `texts.shared_parses`, `check_reuse.shared_checks`). A block within a
block uses the outer one's store.

The store of a block is the thread's own (a context variable), so that two threads loading
games at once (a cluster's worker, a program using regles) never swap each other's store in
and out. With `kept`, the block uses the store kept from one block to the next (a language
server checks a pack again at each edit), cleared at the block's end when it holds too much;
only one block at a time keeps: a block that finds the kept store in use by another thread
works with a store of its own, as a block that keeps nothing does.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable


class SharedStore:
    """A dict shared within a block of work (see the module's docstring). `kept()` gives the dict
    kept from one block to the next (looked up at each block, so that it may be replaced), and
    `too_much(kept)` says whether it holds more than a block may leave."""

    def __init__(self, name: str, kept: Callable[[], dict], too_much: Callable[[dict], bool]):
        self.current: ContextVar = ContextVar(name, default=None)
        self.kept = kept
        self.too_much = too_much
        self.keeping = threading.Lock()  # held by the block that uses the kept store

    def get(self) -> dict | None:
        """The store of the block under way in this thread, or None."""
        return self.current.get()

    @contextmanager
    def block(self, kept: bool = False, store: dict | None = None):
        """A block of work: its store is the outer block's when one is under way in this thread,
        else the kept store (`kept`, when no other thread uses it), else `store`, else a new dict."""
        if self.current.get() is not None:
            yield
            return
        keeping = kept and self.keeping.acquire(blocking=False)
        try:
            kept_store = self.kept() if keeping else None
            token = self.current.set(kept_store if keeping else store if store is not None else {})
            try:
                yield
            finally:
                self.current.reset(token)
                if keeping and self.too_much(kept_store):
                    kept_store.clear()
        finally:
            if keeping:
                self.keeping.release()
