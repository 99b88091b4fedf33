"""/suspend on a player a referee already suspended, through the real command tree: it warns that it would
make a second suspension and waits for `replace:` or `add:`; each does what it says, and nothing else."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import Suspension
from tests.commands.discipline.test_penalties import ADMIN, AFTER_G1_STARTED, suspensions
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels={**CHANNELS, "admin": ADMIN}))


@pytest.fixture
async def refereed(harness: Harness, league: SampleLeague) -> SampleLeague:
    """Alice Hart has the referee's 1-game suspension (#1) for a late major in G1."""
    harness.bot.clock.set(AFTER_G1_STARTED)  # type: ignore[attr-defined]
    reply = await harness.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Alice Hart"),
                                infraction="boarding", minute=42)
    assert "automatic 1-game suspension" in reply.content, reply.content
    assert await suspensions(harness) == [("Alice Hart", 1, "active", True)]
    return league


async def test_a_second_suspension_is_not_made_without_saying_replace_or_add(
        harness: Harness, refereed: SampleLeague) -> None:
    reply = await harness.slash("/suspend", as_=refereed.commissioner(), player=refereed.player("Alice Hart"),
                                games=3, reason="boarding, reviewed on video")
    assert reply.ephemeral
    assert reply.content == ("Alice Hart already has suspension #1 (1 game) from the referee's call in `G1`: this "
                             "would make a second suspension, served after it. Run /suspend again with "
                             "`replace: True` to put this one in its place, or `add: True` to add it as a second "
                             "one. Nothing changed."), reply.content
    assert await suspensions(harness) == [("Alice Hart", 1, "active", True)]
    both = await harness.slash("/suspend", as_=refereed.commissioner(), player=refereed.player("Alice Hart"),
                               games=3, reason="boarding", replace=True, add=True)
    assert both.ephemeral and "Pick one" in both.content
    assert await suspensions(harness) == [("Alice Hart", 1, "active", True)]


async def test_replace_puts_the_commissioners_suspension_in_the_referees_place(
        harness: Harness, refereed: SampleLeague) -> None:
    alice = refereed.player("Alice Hart")
    await harness.bot.courier.deliver_due()
    reply = await harness.slash("/suspend", as_=refereed.commissioner(), player=alice, games=3,
                                reason="boarding, reviewed on video", replace=True)
    assert reply.content.startswith("Suspension #2 recorded: Alice Hart (Hawks), 3 games. It replaces the "
                                    "referee's suspension #1, which no longer counts."), reply.content
    assert await suspensions(harness) == [("Alice Hart", 1, "overturned", True), ("Alice Hart", 3, "active", False)]
    await harness.bot.courier.deliver_due()
    assert any("suspension #1 from the referee's call is replaced by the commissioners' #2" in d.content
               for d in harness.discord.dms(alice.id))
    listed = await harness.slash("/suspensions", as_=refereed.commissioner())
    assert "**#2**" in listed.text and "**#1**" not in listed.text, listed.text


async def test_add_makes_a_second_suspension_served_after_the_first(harness: Harness, refereed: SampleLeague) -> None:
    reply = await harness.slash("/suspend", as_=refereed.commissioner(), player=refereed.player("Alice Hart"),
                                games=2, reason="abuse of officials after the game", add=True)
    assert reply.content.startswith("Suspension #2 recorded: Alice Hart (Hawks), 2 games."), reply.content
    assert "replaces" not in reply.content
    assert await suspensions(harness) == [("Alice Hart", 1, "active", True), ("Alice Hart", 2, "active", False)]


async def test_a_player_with_no_referees_suspension_is_suspended_as_before(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/suspend", as_=league.commissioner(), player=league.player("Bea Quinn"), games=1,
                                reason="unsportsmanlike")
    assert reply.content.startswith("Suspension #1 recorded: Bea Quinn (Hawks), 1 game."), reply.content
    async with harness.bot.sessions() as s:
        assert (await s.scalar(select(Suspension.penalty_id))) is None
