"""Games as Discord scheduled events: created, moved and cancelled with the game,
each request sent once even when the bot dies right after Discord accepted it; a 403 told once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.delivery.courier import LEASE
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import DiscordProblem, Game, GameEvent, OutboxMessage
from tests.conftest import CHANNELS, GUILD, SampleLeague, league_config, make_settings
from tests.harness import Call, Harness
from tests.harness.fake_guild import MANAGE_EVENTS

ADMIN = 3004
K1_START = datetime(2030, 2, 2, 0, 0, tzinfo=UTC)  # 2030-02-01 19:00 in Toronto
K1_MOVED = datetime(2030, 2, 9, 1, 30, tzinfo=UTC)  # 2030-02-08 20:30


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(scheduled_events=True, channels={**CHANNELS, "admin": ADMIN}))


class ProcessKilled(BaseException):
    """The process dying: not an Exception, so nothing in the bot handles it."""


def event_calls(h: Harness, method: str) -> list[Call]:
    return [c for c in h.discord.calls if c.method == method and "/scheduled-events" in c.path and c.status < 300]


def events(h: Harness) -> dict[int, dict[str, Any]]:
    return h.discord.guilds.guild(GUILD).events


def event_of(h: Harness, code: str) -> dict[str, Any]:
    found = [e for e in events(h).values() if e["description"].endswith(f"Sideline game {code}")]
    assert len(found) == 1, f"{len(found)} events for {code}"
    return found[0]


async def stored_event(h: Harness, code: str) -> GameEvent | None:
    async with h.bot.sessions() as s:
        return await s.scalar(select(GameEvent).join(Game, Game.id == GameEvent.game_id).where(Game.code == code))


async def test_each_upcoming_game_becomes_an_external_event(harness: Harness, league: SampleLeague) -> None:
    await harness.bot.courier.deliver_due()
    assert sorted(e["name"] for e in events(harness).values()) == sorted(
        ["Hawks vs Owls", "Bears vs Wolves", "Owls vs Hawks", "Wolves vs Bears", "Hawks vs Bears", "Owls vs Wolves"])
    g1 = event_of(harness, "G1")
    assert (g1["entity_type"], g1["privacy_level"], g1["entity_metadata"]) == (3, 2, {"location": "Rink A"})
    start = datetime.fromisoformat(g1["scheduled_start_time"])
    assert start == datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
    # co-ed: 2 x 20 min, 5 min at half time, then 5 min of overtime after a 5 min break
    assert datetime.fromisoformat(g1["scheduled_end_time"]) - start == timedelta(minutes=55)
    stored = await stored_event(harness, "G1")
    assert stored is not None and stored.event_id == int(g1["id"])
    posts = len(event_calls(harness, "POST"))
    await harness.bot.courier.deliver_due()
    await harness.bot.services.discord_sync.at_start(harness.bot.league_ids)  # a restart: nothing differs
    await harness.bot.courier.deliver_due()
    assert len(event_calls(harness, "POST")) == posts == 6 and event_calls(harness, "PATCH") == []


async def test_no_events_unless_the_league_turns_them_on(db_url: str, clock: FixedClock) -> None:
    bot = create_bot(make_settings(league_config()), engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    try:
        await SampleLeague(h).load()
        await bot.courier.deliver_due()
        assert [c for c in h.discord.calls if "/scheduled-events" in c.path] == []
    finally:
        await h.close()


async def restart(old: Harness, db_url: str, clock: FixedClock, *, first: bool) -> Harness:
    """A new process on the same database and the same Discord, as systemd would start it."""
    await old.bot.courier.close()  # PostgreSQL: the dead process's presence lock goes with it
    if first:
        await old.bot.engine.dispose()  # the fixture closes that bot at the end
    else:
        await old.bot.close()
    if not db_url.startswith("sqlite"):
        clock.advance(seconds=LEASE.total_seconds() + 1)
    bot = create_bot(old.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    new = Harness(bot)
    new.discord = old.discord
    await new.start()
    await bot.courier.recover()
    return new


def kill_after_accepted(h: Harness, method: str) -> None:
    """The worst moment: Discord made the change, the database doesn't know yet."""
    def hook(call: Call) -> None:
        if call.method == method and "/scheduled-events" in call.path and call.status < 300:
            h.discord.hooks.clear()
            raise ProcessKilled
    h.discord.hooks.append(hook)


async def test_create_move_cancel_each_sent_once_across_a_kill_and_restart(
        harness: Harness, league: SampleLeague, db_url: str, clock: FixedClock) -> None:
    kay = league.commissioner()
    await harness.bot.courier.deliver_due()  # the sample games' events
    h = harness
    steps = (("/game add", {"home": "Hawks", "away": "Owls", "starts_at": "2030-02-01 19:00", "venue": "Rink C",
                            "code": "K1"}, "POST"),
             ("/game move", {"game": "K1", "starts_at": "2030-02-08 20:30"}, "PATCH"),
             ("/game cancel", {"game": "K1"}, "PATCH"))
    for i, (path, options, method) in enumerate(steps):
        reply = await h.slash(path, as_=kay, **options)
        assert "K1" in reply.content, reply.content
        before = len(event_calls(h, method))
        kill_after_accepted(h, method)
        with pytest.raises(ProcessKilled):
            await h.bot.courier.deliver_due()
        assert len(event_calls(h, method)) == before + 1
        h = await restart(h, db_url, clock, first=i == 0)
        await h.bot.courier.deliver_due()
        assert len(event_calls(h, method)) == before + 1, f"{path}: the request went out again after the restart"
        event = event_of(h, "K1")
        stored = await stored_event(h, "K1")
        assert stored is not None and stored.event_id == int(event["id"])
    assert datetime.fromisoformat(event["scheduled_start_time"]) == K1_MOVED
    assert event["status"] == 4 and event["entity_metadata"] == {"location": "Rink C"}
    assert [c.body for c in event_calls(h, "PATCH")][-1] == {"status": 4}
    assert len([e for e in events(h).values() if e["name"] == "Hawks vs Owls"]) == 2  # G1 and K1, no double
    async with h.bot.sessions() as s:
        left = await s.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.kind == "scheduled_event",
                                     OutboxMessage.status.in_(("pending", "sending"))))
    assert left == 0
    await h.close()


async def test_a_game_moved_twice_before_the_courier_runs_is_one_patch(harness: Harness,
                                                                      league: SampleLeague) -> None:
    kay = league.commissioner()
    await harness.bot.courier.deliver_due()
    await harness.slash("/game move", as_=kay, game="G5", starts_at="2030-01-26 19:00")
    await harness.slash("/game move", as_=kay, game="G5", starts_at="2030-01-27 19:00")
    await harness.bot.courier.deliver_due()
    patches = event_calls(harness, "PATCH")
    assert len(patches) == 1
    assert datetime.fromisoformat(event_of(harness, "G5")["scheduled_start_time"]) == datetime(
        2030, 1, 28, 0, 0, tzinfo=UTC)


async def test_past_games_events_are_left_alone(harness: Harness, league: SampleLeague) -> None:
    await harness.bot.courier.deliver_due()
    harness.bot.clock.set(datetime(2030, 1, 20, 12, 0, tzinfo=UTC))  # type: ignore[attr-defined]  # G1-G4 over
    await harness.bot.services.discord_sync.at_start(harness.bot.league_ids)
    await harness.bot.courier.deliver_due()
    assert event_calls(harness, "PATCH") == []
    assert event_of(harness, "G1")["status"] == 1  # Discord ends it; the bot doesn't touch it


async def test_without_manage_events_the_commissioners_hear_once_and_nothing_retries(
        harness: Harness, league: SampleLeague) -> None:
    guild = harness.discord.guilds.guild(GUILD)
    guild.roles[guild.bot_role]["permissions"] = "0"
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    refused = [c for c in harness.discord.calls if "/scheduled-events" in c.path and c.status == 403]
    assert len(refused) == 6  # once per game, never again
    told = harness.discord.channel_messages(ADMIN)
    assert len(told) == 1 and "Manage Events" in told[0].content
    harness.bot.clock.advance(hours=3)  # type: ignore[attr-defined]  # past any backoff
    await harness.bot.courier.deliver_due()
    assert len([c for c in harness.discord.calls if c.status == 403]) == 6
    await harness.slash("/game move", as_=league.commissioner(), game="G6", starts_at="2030-01-26 20:00")
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(ADMIN)) == 1, "reported once, not at every change"
    # fixed: turning the setting on again brings every game up to date, once
    guild.roles[guild.bot_role]["permissions"] = str(MANAGE_EVENTS)
    reply = await harness.slash("/setup discord", as_=league.commissioner(), scheduled_events=True)
    assert reply.ephemeral and "Queued 6 game event update(s)" in reply.content, reply.content
    await harness.bot.courier.deliver_due()
    assert len(events(harness)) == 6
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(DiscordProblem)) == 0
    assert len(harness.discord.channel_messages(ADMIN)) == 1
    assert all(c.status < 300 for c in event_calls(harness, "POST"))
