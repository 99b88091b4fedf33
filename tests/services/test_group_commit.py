"""GroupCommit: requests that arrive together share one handler call, and each gets its own answer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.services.group_commit import GroupCommit


async def test_requests_that_arrive_together_share_a_batch_and_keep_their_own_answers() -> None:
    batches: list[list[int]] = []

    async def handle(requests: Sequence[int]) -> list[int | BaseException]:
        batches.append(list(requests))
        await asyncio.sleep(0)  # a unit of work takes a while; more requests queue meanwhile
        return [ValueError(f"odd {r}") if r % 2 else r * 10 for r in requests]

    group: GroupCommit[int, int] = GroupCommit(handle, max_batch=4)
    outcomes = await asyncio.gather(*(group.submit(i) for i in range(10)), return_exceptions=True)
    assert [o if isinstance(o, int) else str(o) for o in outcomes] == [
        0, "odd 1", 20, "odd 3", 40, "odd 5", 60, "odd 7", 80, "odd 9"]
    assert [len(b) for b in batches] == [4, 4, 2]
    assert [r for b in batches for r in b] == list(range(10))  # in arrival order, each once


async def test_a_failed_unit_of_work_fails_each_request_in_it_and_the_next_batch_runs() -> None:
    calls = 0

    async def handle(requests: Sequence[str]) -> list[str | BaseException]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database is locked")
        return [r.upper() for r in requests]

    group: GroupCommit[str, str] = GroupCommit(handle, max_batch=2)
    outcomes = await asyncio.gather(*(group.submit(r) for r in "abc"), return_exceptions=True)
    assert [str(o) for o in outcomes[:2]] == ["database is locked"] * 2
    assert outcomes[2] == "C"


async def test_a_caller_that_stopped_waiting_is_skipped() -> None:
    seen: list[str] = []

    async def handle(requests: Sequence[str]) -> list[str | BaseException]:
        seen.extend(requests)
        return list(requests)

    group: GroupCommit[str, str] = GroupCommit(handle)
    gone = asyncio.ensure_future(group.submit("gone"))
    kept = asyncio.ensure_future(group.submit("kept"))
    gone.cancel()
    assert await kept == "kept"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert seen == ["kept"]
