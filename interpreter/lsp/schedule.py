"""When packs are checked: a moment after the last edit, one check at a time, none stale.

Each edit asks for a check of its document's pack a moment later (`delay`), and a newer
edit of the same pack puts that moment off again, so typing makes no check until it pauses.
Opening, saving or closing a document asks at once. A pack waits for its turn at most once
in the queue, however many requests it gets: a newer request joins the one waiting (which is
skipped: one check serves the documents of both), and a check that a newer request made stale
while it ran is told so (its `stale()`), to keep what it found (completion uses its names)
but not publish it: the documents it was for are served by the newer one. The queue is served
in order, but a pack someone waits for (`hurry`: a completion in a document whose pack was
never checked) goes first, so that completion and hover never wait behind the checks of other
packs. The work itself is `run(pack, paths, stale)`, a coroutine, `paths` the documents that
asked, and it says whether it published.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("regles.lsp")


class Checks:
    """The checks asked for, by pack, and how many were run and how many skipped as stale."""

    def __init__(self, delay: float, run: Callable[[tuple, set, Callable[[], bool]], Awaitable[bool]]):
        self.delay = delay  # seconds of quiet after an edit before its pack is checked
        self.run = run
        self.latest: dict[tuple, int] = {}  # pack -> the number of its latest request
        self.timers: dict[tuple, asyncio.TimerHandle] = {}  # pack -> its check put off until edits pause
        self.queue: dict[tuple, set[str]] = {}  # pack -> the documents that asked, in the order asked
        self.owed: dict[tuple, set[str]] = {}  # pack -> the documents a stale check did not publish to
        self.hurried: set[tuple] = set()  # packs someone waits for: first in the queue
        self.worker: asyncio.Task | None = None  # the task that serves the queue, while there is one
        self.started = 0
        self.skipped = 0

    def request(self, pack: tuple, path: str, wait: bool) -> None:
        """Ask for a check of `pack` for document `path`: after `delay` when `wait`, else at once.
        Called on the server's event loop."""
        self.latest[pack] = self.latest.get(pack, 0) + 1
        timer = self.timers.pop(pack, None)
        if timer is not None:
            timer.cancel()
            self.skipped += 1
        if wait:
            self.timers[pack] = asyncio.get_running_loop().call_later(self.delay, self._enqueue, pack, path)
        else:
            self._enqueue(pack, path)

    def hurry(self, pack: tuple) -> None:
        """Check `pack` before the others waiting, for someone waits for it."""
        self.hurried.add(pack)

    def _enqueue(self, pack: tuple, path: str) -> None:
        self.timers.pop(pack, None)  # a timer that fires is the pack's last: a newer request cancels it
        if pack in self.queue:
            self.skipped += 1  # the request waiting: one check serves both
        self.queue.setdefault(pack, set()).add(path)
        self.queue[pack] |= self.owed.pop(pack, set())
        if self.worker is None or self.worker.done():
            self.worker = asyncio.ensure_future(self._serve())

    async def _serve(self) -> None:
        while self.queue:
            pack = next((p for p in self.queue if p in self.hurried), next(iter(self.queue)))
            paths = self.queue.pop(pack)
            self.hurried.discard(pack)
            self.started += 1
            try:
                published = await self.run(pack, paths, lambda pack=pack, number=self.latest[pack]:
                                           self.latest[pack] != number)
            except Exception:  # a fault of regles itself: said in the log, and the queue still served
                log.exception("a check of %s failed", min(paths))
                continue
            if not published:  # stale: the newer request publishes to these documents too
                (self.queue if pack in self.queue else self.owed).setdefault(pack, set()).update(paths)
