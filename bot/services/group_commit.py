"""Group commit: requests that arrive while one unit of work runs are handled together in the next.

SQLite has one writer at a time, and here every unit of work holds the write lock from its BEGIN
(storage/db.py), so a burst of check-ins (a reminder goes out, everyone taps In) would queue for
one transaction each. Most of a transaction's cost is fixed (BEGIN, COMMIT, a thread hop per
statement), so handling the queue in batches multiplies throughput while each request still gets
its own answer or its own error.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

log = logging.getLogger("sideline.group_commit")

Request = TypeVar("Request")
Answer = TypeVar("Answer")

#: Handles a batch in one unit of work: one answer or one exception per request, in order.
BatchHandler = Callable[[Sequence[Request]], Awaitable[Sequence[Answer | BaseException]]]


class GroupCommit(Generic[Request, Answer]):
    def __init__(self, handle: BatchHandler[Request, Answer], *, max_batch: int = 100) -> None:
        self._handle = handle
        self._max_batch = max_batch
        self._queue: list[tuple[Request, asyncio.Future[Answer]]] = []
        self._drainer: asyncio.Task[None] | None = None

    async def submit(self, request: Request) -> Answer:
        """The request's answer (or its exception), once the batch it joined has committed."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._queue.append((request, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain(), name="group-commit")
        return await future

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:self._max_batch], self._queue[self._max_batch:]
            live = [(r, f) for r, f in batch if not f.done()]  # a cancelled caller no longer waits
            if not live:
                continue
            try:
                answers = await self._handle([r for r, _ in live])
            except Exception as error:  # the whole unit of work failed: each caller hears why
                answers = [error] * len(live)
            except BaseException as error:  # cancelled or exiting: nobody is left waiting forever
                for _, future in live:
                    if not future.done():
                        future.set_exception(error)
                raise
            for (_, future), answer in zip(live, answers, strict=True):
                if future.done():
                    continue
                if isinstance(answer, BaseException):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)
