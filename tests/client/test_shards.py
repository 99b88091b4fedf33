"""A sharded bot, in one test process: discord.py's AutoShardedBot for exactly
its shards, connected through the fake gateway; nothing assumes it sees every server (the ready
line, the missing-servers warning, leagues set up in Discord by another process); and the outbox,
which no shard owns, is drained whole by any process, with the bot's send rate shared out among the
live processes (PostgreSQL counts them by their presence locks)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from discord.ext import commands
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from bot.client.bot import ShardedSidelineBot
from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.config.shards import Shards, shard_of
from bot.run.app import SidelineBot, create_bot
from bot.services import outbox
from bot.services.outbox import Outgoing
from bot.services.reminders.plan import plan_games
from bot.services.setup.league_setup import Actor
from storage.db import create_engine
from storage.models import Game, OutboxMessage, Team
from tests.conftest import CHANNELS, GUILD, OTHER_CHANNELS, OTHER_ROLES, league_config, make_settings
from tests.harness import Call, Harness

NOW = datetime(2030, 1, 5, 12, tzinfo=UTC)
OTHER_GUILD = GUILD + (1 << 22)  # the server next to GUILD is on the other shard of a bot with 2


def two_leagues(url: str, shards: Shards) -> Settings:
    settings = make_settings(league_config(), league_config("other", OTHER_GUILD, roles=OTHER_ROLES,
                                                            channels=OTHER_CHANNELS), url=url)
    return dataclasses.replace(settings, shards=shards)


async def start(settings: Settings, url: str, *, gateway: bool = False,
                discord: Harness | None = None) -> Harness:
    bot = create_bot(settings, engine=create_engine(url), clock=FixedClock(NOW), run_scheduler=False)
    harness = Harness(bot)
    if discord is not None:
        harness.discord = discord.discord  # one Discord, one bot token
    if not gateway:
        return await harness.start()
    harness.serve_gateway()
    harness.install()
    await bot.login("offline-test-token")
    return harness


@pytest.fixture
async def connected(db_url: str) -> AsyncIterator[Harness]:
    """A bot running shard ``shard_of(GUILD, 2)`` of 2, connected to the fake gateway."""
    harness = await start(two_leagues(db_url, Shards(ids=(shard_of(GUILD, 2),), count=2)), db_url, gateway=True)
    bot = harness.bot
    gateway = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), 30)
    yield harness
    await harness.close()
    await asyncio.wait({gateway}, timeout=10)


def test_shard_settings_make_an_auto_sharded_bot_for_exactly_those_shards() -> None:
    plain = create_bot(make_settings(), run_scheduler=False)
    assert type(plain) is SidelineBot and not isinstance(plain, commands.AutoShardedBot)
    sharded = create_bot(dataclasses.replace(make_settings(), shards=Shards(ids=(1, 3), count=4)), run_scheduler=False)
    assert isinstance(sharded, ShardedSidelineBot) and isinstance(sharded, commands.AutoShardedBot)
    assert isinstance(sharded, SidelineBot)  # every line of Sideline is SidelineBot's
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 3], 4)
    every = create_bot(dataclasses.replace(make_settings(), shards=Shards(count=2)), run_scheduler=False)
    assert (every.shard_ids, every.shard_count) == ([0, 1], 2)
    assert every.owns(GUILD) and every.owns(OTHER_GUILD)
    assert sharded.owns(GUILD) == (shard_of(GUILD, 4) in (1, 3))


async def test_a_shard_identifies_as_itself_and_warns_of_no_other_shards_server(connected: Harness) -> None:
    bot, gateway = connected.bot, connected.discord.gateway
    assert gateway is not None
    mine = shard_of(GUILD, 2)
    assert gateway.identifies == [(mine, 2)]
    assert [g.id for g in bot.guilds] == [GUILD]  # the gateway sent this shard's server only
    assert not bot.owns(OTHER_GUILD)
    assert bot.missing_servers() == [], "the other league's server is another process's shard's"
    assert bot.ready_line() == f"ready: 1 league on 1 server, shard {mine} of 2 (Coed League on Coed League)"


async def test_a_shard_answers_its_servers_interactions_from_the_gateway(connected: Harness) -> None:
    gateway = connected.discord.gateway
    assert gateway is not None
    answered: list[Call] = []
    done = asyncio.Event()

    def on_call(call: Call) -> None:
        if call.path.startswith("/interactions/"):
            answered.append(call)
            done.set()

    connected.discord.hooks.append(on_call)
    member = connected.member("Pat")
    payload = connected._base(2, member, GUILD, None, connected._command_data("/help", {}, GUILD))
    assert gateway.dispatch("INTERACTION_CREATE", payload) is not None
    await asyncio.wait_for(done.wait(), 10)
    assert answered[0].status == 200 and answered[0].path.startswith(f"/interactions/{payload['id']}/")
    other = connected._base(2, member, OTHER_GUILD, None, connected._command_data("/help", {}, OTHER_GUILD))
    assert gateway.dispatch("INTERACTION_CREATE", other) is None, "Discord sends it to the other shard"


async def test_an_unsharded_bot_connects_without_a_shard_field_and_sees_every_server(db_url: str) -> None:
    harness = await start(two_leagues(db_url, Shards()), db_url, gateway=True)
    bot = harness.bot
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        assert harness.discord.gateway is not None and harness.discord.gateway.identifies == [None]
        assert sorted(g.id for g in bot.guilds) == sorted((GUILD, OTHER_GUILD))
    finally:
        await harness.close()
        await asyncio.wait({task}, timeout=10)


async def test_a_league_set_up_in_another_process_is_read_before_its_messages_go_out(db_url: str) -> None:
    """Process A runs GUILD's shard and sets a league up there with /setup (OTHER_GUILD is in the
    file); process B, on the other shard, has never heard of it, yet sends its queued messages,
    and keeps the leagues of its own servers as it has them."""
    a = await start(two_leagues(db_url, Shards(ids=(shard_of(GUILD, 2),), count=2)), db_url)
    only_other = dataclasses.replace(make_settings(league_config("other", OTHER_GUILD, roles=OTHER_ROLES,
                                                                 channels=OTHER_CHANNELS), url=db_url),
                                     shards=Shards(ids=(shard_of(OTHER_GUILD, 2),), count=2))
    try:
        a.bot.settings = dataclasses.replace(only_other, shards=a.bot.settings.shards)  # GUILD: not in the file
        a.bot.services.setup.settings = a.bot.settings
        b = await start(only_other, db_url, discord=a)
        new_guild = GUILD + (2 << 22)  # another server of A's shard
        assert a.bot.owns(new_guild) and not b.bot.owns(new_guild)
        changed = await a.bot.services.setup.create(new_guild, Actor(discord_id=77, manages_server=True),
                                                    preset="indoor-soccer", name="Futsal", timezone="America/Toronto")
        assert b.bot.settings.league_for_guild(new_guild) is None
        async with a.bot.sessions.begin() as session:
            await outbox.enqueue(session, league_id=changed.league_id, guild_id=new_guild, key="welcome", due_at=NOW,
                                 message=Outgoing(content="Welcome to Futsal"), channel_id=CHANNELS["announcements"])
        mine = b.bot.settings.league_for_guild(OTHER_GUILD)
        stats = await b.bot.courier.deliver_due()
        assert stats.sent == 1 and [c.content for c in a.discord.channel_messages()] == ["Welcome to Futsal"]
        league = b.bot.settings.league_for_guild(new_guild)
        assert league is not None and league.name == "Futsal" and b.bot.league_ids[new_guild] == changed.league_id
        assert b.bot.settings.league_for_guild(OTHER_GUILD) is mine
        await b.close()
    finally:
        await a.close()


async def test_any_process_drains_the_whole_outbox_whichever_shard_a_server_is_on(db_url: str) -> None:
    """Queued messages are REST sends no shard owns: a process sends its own servers' and the
    other shard's alike, so the reminders of a process that died still go out."""
    settings = two_leagues(db_url, Shards(ids=(shard_of(GUILD, 2),), count=2))
    harness = await start(settings, db_url)
    try:
        async with harness.bot.sessions.begin() as session:
            for guild, channel in ((GUILD, CHANNELS["announcements"]), (OTHER_GUILD, OTHER_CHANNELS["announcements"])):
                for i in range(3):
                    await outbox.enqueue(session, league_id=harness.bot.league_ids[guild], guild_id=guild,
                                         key=f"{guild}:{i}", due_at=NOW, message=Outgoing(content=f"{guild} {i}"),
                                         channel_id=channel)
        assert await harness.bot.courier.next_due() == NOW
        stats = await harness.bot.courier.deliver_due()
        assert stats.sent == 6 and len(harness.discord.channel_messages(OTHER_CHANNELS["announcements"])) == 3
    finally:
        await harness.close()


async def test_processes_share_the_bots_send_rate_and_a_survivor_takes_all_of_it(pg_url: str) -> None:
    """Discord's global limit is per bot token: each live process sends at its part of [bot]
    send_rate, counted by the presence locks; when one stops the other speeds up."""
    settings = dataclasses.replace(make_settings(url=pg_url), send_rate=40.0)
    first = await start(settings, pg_url)
    second = await start(settings, pg_url, discord=first)
    couriers = [first.bot.courier, second.bot.courier]
    try:
        for courier in couriers:
            courier.pace_from_settings()  # the harness's unpaced courier back to the bot's own pace
            assert courier.pace.rate == 40.0
            await courier.announce_presence()
        for courier in couriers:
            courier.pace_from_settings()  # count again now, not RECOUNT_EVERY seconds on
            await courier._share_rate()
            assert (courier.processes, courier.pace.rate) == (2, 20.0)
        await second.bot.courier.close()  # its presence lock goes, as when a process dies
        couriers[0].pace_from_settings()
        await couriers[0]._share_rate()
        assert (couriers[0].processes, couriers[0].pace.rate) == (1, 40.0)
        assert couriers[0].pace.claim == 200  # about 5 s of sends when alone, 2 s when shared
    finally:
        await second.close()
        await first.close()


async def test_on_sqlite_one_process_sends_at_the_whole_rate(db_url: str) -> None:
    harness = await start(dataclasses.replace(make_settings(url=db_url), send_rate=30.0), db_url)
    try:
        courier = harness.bot.courier
        courier.pace_from_settings()
        await courier._share_rate()
        assert (await courier.claims.live_processes(), courier.pace.rate) == (1, 30.0)
        courier.pace = courier.pace  # a pace set from outside is kept: no more sharing
        assert not courier.shares_rate
    finally:
        await harness.close()


async def test_a_process_that_dies_while_another_sends_has_its_claims_sent_in_the_same_round(
        pg_url: str) -> None:
    """PostgreSQL: B is draining when A dies holding claims; at the end of its round B finds A's
    presence lock free and sends what A held, at once, not after A's lease runs out."""
    settings = make_settings(url=pg_url)
    a = await start(settings, pg_url)
    b = await start(settings, pg_url, discord=a)
    try:
        async with a.bot.sessions.begin() as session:
            league_id = a.bot.league_ids[GUILD]
            for i in range(30):
                await outbox.enqueue(session, league_id=league_id, guild_id=GUILD, key=f"k{i}", due_at=NOW,
                                     message=Outgoing(content=f"m{i}"), channel_id=CHANNELS["announcements"])
        await a.bot.courier.announce_presence()
        held = await a.bot.courier._claim(10)
        dying = asyncio.Event()

        def die_after_the_first_send(call: Call) -> None:
            if call.channel_id and not dying.is_set():
                dying.set()
                asyncio.get_running_loop().create_task(a.bot.courier.close())  # the presence lock goes

        a.discord.hooks.append(die_after_the_first_send)
        stats = await b.bot.courier.deliver_due()
        assert dying.is_set() and len(held) == 10
        assert stats.sent == 30, "the dead process's 10 claims went out in the same round"
        async with b.bot.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(OutboxMessage)
                                        .where(OutboxMessage.status == "sent")) == 30
    finally:
        await b.close()
        await a.close()


async def test_processes_queueing_the_same_reminders_at_once_make_one_row_each(pg_url: str) -> None:
    """PostgreSQL, four processes' sessions at once: a reminder's send key is unique and every queueing
    is an INSERT ... ON CONFLICT DO NOTHING, so planning the same games (a re-import, a move handled
    twice, a nag queued by a renderer whose claim lapsed) queues each reminder once, and exactly one
    of them is told it created it."""
    harness = await start(make_settings(url=pg_url), pg_url)
    engines = [create_engine(pg_url) for _ in range(4)]
    try:
        league = harness.bot.settings.leagues[0]
        league_id = harness.bot.league_ids[GUILD]
        async with harness.bot.sessions.begin() as session:
            teams = [Team(league_id=league_id, name=name, channel_id=CHANNELS["announcements"] + n)
                     for n, name in enumerate(("Hawks", "Owls"))]
            session.add_all(teams)
            await session.flush()
            session.add_all(Game(league_id=league_id, code=f"G{g}", home_team_id=teams[0].id,
                                 away_team_id=teams[1].id, starts_at=NOW + timedelta(days=7, hours=g))
                            for g in range(10))

        async def plan(engine: AsyncEngine) -> int:
            async with AsyncSession(engine, expire_on_commit=False) as session, session.begin():
                games = list((await session.scalars(select(Game).where(Game.league_id == league_id))).all())
                return (await plan_games(session, league, games, NOW)).created

        async def queue_one(engine: AsyncEngine) -> bool:
            async with AsyncSession(engine) as session, session.begin():
                return (await outbox.enqueue(session, league_id=league_id, guild_id=GUILD, key="once", due_at=NOW,
                                             message=Outgoing(content="once"), channel_id=CHANNELS["announcements"])
                        ).created

        created = await asyncio.gather(*(plan(engine) for engine in engines))
        per_game = 2 * (len(league.game_reminder_offsets) + len(league.captain_alert_offsets))
        assert sum(created) == 10 * per_game, f"each reminder created by one process only: {created}"
        assert sorted(await asyncio.gather(*(queue_one(engine) for engine in engines))) == [False] * 3 + [True]
        async with harness.bot.sessions() as session:
            rows = await session.scalar(select(func.count()).select_from(OutboxMessage))
            keys = await session.scalar(select(func.count(func.distinct(OutboxMessage.send_key))))
        cards = 10 * len(league.game_card_offsets)  # the officials' card, one per game and lead time
        assert rows == keys == 10 * per_game + cards + 1
    finally:
        for engine in engines:
            await engine.dispose()
        await harness.close()


async def test_processes_starting_together_on_an_empty_database_both_start(empty_db_url: str) -> None:
    """PostgreSQL: two shards started at once (docker compose, a systemd template) on a database no
    bot has used migrate it and register their leagues one after the other, not into each other."""
    if empty_db_url.startswith("sqlite"):
        pytest.skip("SQLite: one process runs the bot (a second is refused at start, bot/run/lifecycle.py)")
    harnesses: list[Harness] = []
    for shard in (0, 1):  # both log in (migrate, register their leagues) at the same moment below
        settings = two_leagues(empty_db_url, Shards(ids=(shard,), count=2))
        bot = create_bot(settings, engine=create_engine(empty_db_url), clock=FixedClock(NOW), run_scheduler=False)
        harnesses.append(Harness(bot))
    try:
        await asyncio.wait_for(asyncio.gather(*(h.start() for h in harnesses)), 120)  # without the lock: stuck
        ids = [h.bot.league_ids for h in harnesses]
        assert ids[0] == ids[1] and len(ids[0]) == 2, "one row per league, the same for both"
    finally:
        for harness in harnesses:
            await harness.close()
