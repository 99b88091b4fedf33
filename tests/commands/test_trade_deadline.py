"""Youth 1.9, "the deadline for trades is at the end of week 10": with seasons, trade_deadline_week has
an effect. A player who left another team this season can't join a new one after the deadline week."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from storage.models import RosterEntry
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness, Member

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
WEEK_10_ENDS = datetime(2030, 3, 18, 4, tzinfo=UTC)  # midnight 18 March in Toronto: Monday of week 11


async def on_teams(h: Harness) -> int:
    async with h.bot.sessions() as session:
        return len((await session.scalars(select(RosterEntry.id))).all())


@pytest.mark.parametrize("settings", [YOUTH])
async def test_a_move_after_the_trade_deadline_week_is_refused(harness: Harness, league: SampleLeague) -> None:
    boss, alice = league.commissioner(), league.player("Alice Hart")
    await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=12)
    harness.bot.clock.set(datetime(2030, 3, 18, 3, 59, tzinfo=UTC))  # type: ignore[attr-defined]
    await harness.slash("/roster remove", as_=boss, player=league.player("Bea Quinn"))
    moved = await harness.slash("/roster add", as_=boss, player=league.player("Bea Quinn"), team="Owls")
    assert "is now on Owls" in moved.content, "a minute before the deadline a trade is fine"

    harness.bot.clock.set(WEEK_10_ENDS)  # type: ignore[attr-defined]
    await harness.slash("/roster remove", as_=boss, player=alice)
    before = await on_teams(harness)
    refused = await harness.slash("/roster add", as_=boss, player=alice, team="Owls")
    assert refused.ephemeral
    assert refused.content == ("The trade deadline has passed: trades must take effect by the end of week 10 "
                               f"of Winter 2030 (<t:{int(WEEK_10_ENDS.timestamp())}:F>) (Youth 1.9). A commissioner "
                               "can move the deadline with `/setup rule key:trade_deadline_week`.")
    assert await on_teams(harness) == before
    # Someone new to the league isn't traded: the roster still takes them.
    newcomer = Member(id=800_000_000_000_000_077, name="New Nia")
    added = await harness.slash("/roster add", as_=boss, player=newcomer, team="Owls")
    assert "is now on Owls" in added.content, added.content


@pytest.mark.parametrize("settings", [YOUTH])
async def test_registering_after_a_cleared_start_is_no_trade(harness: Harness, league: SampleLeague) -> None:
    """Players who left their teams because the season started rosters:clear are registering, not being
    traded, even after the deadline week; a move they make afterwards is a trade again."""
    boss, alice = league.commissioner(), league.player("Alice Hart")
    await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=1)
    await harness.slash("/season end", as_=boss)
    harness.bot.clock.set(datetime(2030, 3, 26, 12, tzinfo=UTC))  # type: ignore[attr-defined]  # Spring's week 11
    started = await harness.slash("/season start", as_=boss, name="Spring 2030", first_day="2030-01-14", weeks=12,
                                  rosters="clear")
    assert "Rosters cleared: 28 players" in started.content, started.content
    joined = await harness.slash("/roster add", as_=boss, player=alice, team="Owls")
    assert "Alice Hart is now on Owls" in joined.content, joined.content
    await harness.slash("/roster remove", as_=boss, player=alice)
    traded = await harness.slash("/roster add", as_=boss, player=alice, team="Bears")
    assert traded.ephemeral and traded.content.startswith("The trade deadline has passed"), traded.content
    assert await on_teams(harness) == 0
