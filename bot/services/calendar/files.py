"""Feed files built once per version, off the event loop, and kept while they fit.

Writing a league's 20,000 games as iCalendar is seconds of pure-Python work: on the event loop it
froze the bot for every request. Here it runs in a thread (``asyncio.to_thread``), one build at a
time (the thread shares the interpreter's lock with the loop: two builds at once would not finish
sooner, and would take turns with the loop more often), and requests for the same version wait for
the same build. A built file is kept under its validator, which names everything in it (`Feed` in
bot/services/calendar/service.py), so it is answered again until a game changes; the least recently
used are let go past `BUDGET` bytes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import ParamSpec

#: Bytes of built files kept: a league of 20,000 games is about 6.5 MB.
BUDGET = 32 * 1024 * 1024

P = ParamSpec("P")


class FeedFiles:
    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.kept: OrderedDict[str, bytes] = OrderedDict()
        self.size = 0
        self.building: dict[str, asyncio.Task[bytes]] = {}
        self.builds = 0  # files built so far (what a test or bench/feed.py counts)
        self._one_at_a_time = asyncio.Semaphore(1)

    async def get(self, version: str, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The file of this version: kept, being built for another request, or made now by ``make``."""
        kept = self.kept.get(version)
        if kept is not None:
            self.kept.move_to_end(version)
            return kept
        task = self.building.get(version)
        if task is None:
            task = self.building[version] = asyncio.create_task(self._make(version, make))
        return await asyncio.shield(task)  # a request that gives up doesn't stop the others' build

    async def build(self, write: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
        """``write(*args)`` in a thread, one at a time."""
        async with self._one_at_a_time:
            self.builds += 1
            return await asyncio.to_thread(write, *args, **kwargs)

    async def _make(self, version: str, make: Callable[[], Awaitable[bytes]]) -> bytes:
        try:
            body = await make()
        finally:
            del self.building[version]
        if len(body) <= self.budget:
            self.kept[version] = body
            self.size += len(body)
            while self.size > self.budget:
                _, dropped = self.kept.popitem(last=False)
                self.size -= len(dropped)
        return body

