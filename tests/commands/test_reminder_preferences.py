"""/profile reminders through the real command tree: DM or team channel, muted kinds, and never a muted
message a captain must get."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import ReminderPreference
from tests.conftest import SampleLeague
from tests.harness import Harness

HAWKS_CHANNEL = 600_000_000_000_000_001
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
ALICE, BEA, CARL, DAN = (500_000_000_000_000_001, 500_000_000_000_000_002, 500_000_000_000_000_003,
                         500_000_000_000_000_004)


def mentions(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"<@!?(\d+)>", text)}


async def prefs(h: Harness) -> list[tuple[str, bool, bool]]:
    async with h.bot.sessions() as s:
        rows = (await s.execute(select(ReminderPreference.delivery, ReminderPreference.mute_game_reminders,
                                       ReminderPreference.mute_deadline_nudges))).all()
    return [tuple(r) for r in rows]


async def test_defaults_are_shown_and_nothing_is_stored_until_a_choice(harness: Harness,
                                                                       league: SampleLeague) -> None:
    reply = await harness.slash("/profile reminders", as_=league.player("Bea Quinn"))
    assert reply.ephemeral
    assert "Game reminders: on, in your team's channel (with a ping)" in reply.text, reply.text
    assert "Deadline nudges meant for you: on" in reply.text and "(saved)" not in reply.text
    assert await prefs(harness) == []
    stranger = await harness.slash("/profile reminders", as_=league.stranger(), delivery="dm")
    assert stranger.ephemeral and "keeps no profile for you" in stranger.text
    assert await prefs(harness) == []


async def test_dm_players_get_the_reminder_by_dm_and_muted_players_get_nothing(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    dm = await harness.slash("/profile reminders", as_=league.player("Bea Quinn"), delivery="dm")
    assert "(saved)" in dm.text and "Game reminders: on, by DM" in dm.text
    muted = await harness.slash("/profile reminders", as_=league.player("Carl Diaz"), game_reminders="off")
    assert "Game reminders: muted" in muted.text
    assert sorted(await prefs(harness)) == [("channel", True, False), ("dm", False, False)]
    clock.set(G1_START - timedelta(hours=48))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()  # the DMs the channel reminder queued
    (post,) = harness.discord.channel_messages(HAWKS_CHANNEL)
    assert DAN in mentions(post.content) and BEA not in mentions(post.content) and CARL not in mentions(post.content)
    assert BEA not in post.allowed_mentions["users"] and CARL not in post.allowed_mentions["users"]
    assert "(and 2 more)" in post.content
    (bea_dm,) = harness.discord.dms(BEA)
    league_id = harness.bot.league_ids[harness.default_guild]
    assert "`G1`" in bea_dm.content and bea_dm.custom_ids()[0] == f"sideline:checkin@{league_id}:G1:in"
    assert harness.discord.dms(CARL) == []
    # Once Bea answers, the next reminder neither pings nor DMs her.
    await harness.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    clock.set(G1_START - timedelta(hours=24))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.dms(BEA)) == 1


async def test_away_beats_a_dm_preference(harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/profile reminders", as_=bea, delivery="dm")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-11"})
    for hours in (48, 24, 2):
        clock.set(G1_START - timedelta(hours=hours))
        await harness.bot.courier.deliver_due()
        await harness.bot.courier.deliver_due()
    assert harness.discord.dms(BEA) == []


async def test_a_captain_who_muted_everything_still_gets_lineup_alerts_and_own_deadlines(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    alice = league.captain("Hawks")
    await harness.slash("/profile reminders", as_=alice, game_reminders="off", deadline_nudges="off")
    await harness.slash("/profile reminders", as_=league.player("Bea Quinn"), deadline_nudges="off")
    kay = league.commissioner()
    for who in (ALICE, BEA):
        added = await harness.slash("/deadline add", as_=kay, name=f"Forms for {who}", due="2030-01-08 12:00",
                                    audience=f"<@{who}>", nudges="2h")
        assert "Added" in added.text, added.text
    clock.set(datetime(2030, 1, 8, 15, 30, tzinfo=UTC))  # 2 h before 12:00 Toronto
    await harness.bot.courier.deliver_due()
    assert [d for d in harness.discord.dms(BEA) if "Forms for" in d.content] == [], "Bea muted her nudges"
    assert [d for d in harness.discord.dms(ALICE) if f"Forms for {ALICE}" in d.content], "a captain's arrive"
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole"):  # no goalie, no women: alerts
        await harness.slash("/checkin", as_=league.player(name), status="in", game="G1")
    clock.set(G1_START - timedelta(hours=24))
    await harness.bot.courier.deliver_due()
    alerts = [d for d in harness.discord.dms(ALICE) if "lineup for" in d.content]
    assert alerts, "captain alerts are never muted"
    posts = harness.discord.channel_messages(HAWKS_CHANNEL)
    assert posts and all(ALICE not in mentions(p.content) for p in posts), "her own game reminder is muted"


async def test_profile_forget_removes_away_ranges_and_reminder_choices(harness: Harness,
                                                                        league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/profile reminders", as_=bea, delivery="dm")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-12"}, note="Private reason")
    await harness.slash("/profile reminders", as_=league.player("Carl Diaz"), delivery="dm")
    reply = await harness.slash("/profile forget", as_=bea)
    assert "Removed from Coed League: your gender, 1 away range and your reminder choices." in reply.text, reply.text
    assert await prefs(harness) == [("dm", False, False)], "Carl's choice stays"
    listed = await harness.slash("/away list", as_=bea)
    assert "not marked away" in listed.text
