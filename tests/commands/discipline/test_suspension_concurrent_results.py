"""Two results entered at the same time for games of a suspended player's team (SQLite and PostgreSQL).

On PostgreSQL each result's transaction counted the suspension down without seeing the other's
result: the suspension stayed at 1 of 2 games served and the player was never told it ended. Both
units of work are held, after storing their result and before counting down, until the other has
stored its own (or a short wait passes: on SQLite the second waits for the write lock instead).
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from storage.models import OutboxMessage
from tests.commands.discipline.test_suspensions import rows, suspend
from tests.conftest import SampleLeague
from tests.harness import Harness

RENDEZVOUS_S = 2.0  # long enough for the other command to store its result; never an assertion


def hold_until_both_recorded(monkeypatch: pytest.MonkeyPatch, harness: Harness) -> None:
    """Each result's count-down waits until the other result is stored too (its own transaction open)."""
    results = harness.bot.services.results
    original = results.on_result
    arrived = 0
    both = asyncio.Event()

    async def meet_then_count(session, league_id: int, game_id: int) -> None:  # type: ignore[no-untyped-def]
        nonlocal arrived
        arrived += 1
        if arrived >= 2:
            both.set()
        with suppress(TimeoutError):  # SQLite: the other is queued behind this unit's write lock
            await asyncio.wait_for(both.wait(), RENDEZVOUS_S)
        await original(session, league_id, game_id)

    monkeypatch.setattr(results, "on_result", meet_then_count)


async def test_two_results_at_once_serve_both_games_and_tell_the_player_once(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = league.player("Alice Hart")
    suspension = await suspend(harness, league, "Alice Hart", 2)  # served in Hawks' G1 and G3
    harness.bot.clock.set(datetime(2030, 1, 19, tzinfo=UTC) + timedelta(hours=3))  # type: ignore[attr-defined]
    hold_until_both_recorded(monkeypatch, harness)

    replies = await asyncio.gather(*(
        harness.slash("/result enter", as_=league.referee(), game=code, home=3, away=1, decided="regulation")
        for code in ("G1", "G3")))

    answered = {r.content.split(":")[0] for reply in replies for r in reply.responses}  # replies interleave
    assert answered == {"Recorded game G1", "Recorded game G3"}, answered
    assert await rows(harness) == [("Alice Hart", 2, 2, "served")]
    async with harness.bot.sessions() as s:
        keys = sorted((await s.scalars(select(OutboxMessage.send_key).where(
            OutboxMessage.send_key.like(f"suspension:{suspension}:served%")))).all())
    assert keys == [f"suspension:{suspension}:served", f"suspension:{suspension}:served:1"]
    await harness.bot.courier.deliver_due()
    ended = [dm for dm in harness.discord.dms(alice.id) if "is served" in dm.content]
    assert len(ended) == 1, [dm.content for dm in harness.discord.dms(alice.id)]
    assert "can't" not in (await harness.slash("/checkin", as_=alice, status="in", game="G5")).content
