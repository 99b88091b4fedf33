"""/announce through the real command tree: commissioners only, posted once, never pings everyone."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from storage.models import OutboxMessage
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness

ANNOUNCEMENTS = CHANNELS["announcements"]
NO_ANNOUNCEMENTS = make_settings(league_config(channels={"standings": 3002, "referees": 3003}))


async def queued(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return await s.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.send_key.startswith("announce:"))) or 0


async def test_a_commissioner_announces_and_nobody_is_pinged(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/announce", as_=league.commissioner(),
                                message="@everyone Rink 2 is closed Saturday <@&1001>; games move to Rink 1.")
    assert reply.ephemeral and reply.content == f"Posting it in <#{ANNOUNCEMENTS}>."
    assert await queued(harness) == 1
    await harness.bot.courier.deliver_due()
    (posted,) = harness.discord.channel_messages(ANNOUNCEMENTS)
    assert posted.content.startswith("📣 **")
    assert "Rink 2 is closed Saturday" in posted.content
    assert "@everyone" not in posted.content and "<@&1001>" not in posted.content  # defused
    assert posted.allowed_mentions is not None and posted.allowed_mentions.get("parse") == []
    assert not posted.allowed_mentions.get("roles") and not posted.allowed_mentions.get("users")


@pytest.mark.parametrize("who", ["player", "captain", "referee"])
async def test_only_commissioners_announce_and_nothing_is_queued(harness: Harness, league: SampleLeague,
                                                                  who: str) -> None:
    actor = {"player": league.player("Alice Hart"), "captain": league.captain("Hawks"),
             "referee": league.referee()}[who]
    reply = await harness.slash("/announce", as_=actor, message="Free pizza")
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await queued(harness) == 0


async def test_an_empty_or_overlong_announcement_is_refused(harness: Harness, league: SampleLeague) -> None:
    for text in ("   \u200b ", "x" * 5000):
        reply = await harness.slash("/announce", as_=league.commissioner(), message=text, forged=True)
        assert reply.ephemeral and ("Write the announcement" in reply.content or "at most" in reply.content), \
            reply.content
    assert await queued(harness) == 0


@pytest.mark.parametrize("settings", [NO_ANNOUNCEMENTS])
async def test_without_an_announcements_channel_the_commissioner_is_told(harness: Harness,
                                                                         league: SampleLeague) -> None:
    reply = await harness.slash("/announce", as_=league.commissioner(), message="Playoffs start Monday")
    assert reply.ephemeral and reply.content == ("Coed League has no announcements channel yet, so there's nowhere "
                                                 "to post it. A commissioner picks one with "
                                                 "`/setup channels announcements:`.")
    assert await queued(harness) == 0
