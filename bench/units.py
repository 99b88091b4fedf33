"""What one unit of work costs, without Discord and through it: the ceiling under every burst figure.

Run: python -m bench.units [--count 1000]   (SIDELINE_BENCH_PG_URL set: PostgreSQL too)

Against the benchmark league (bench/league_data.py), through the services the cogs call: check-ins
one after another and 50 at a time (each its own write unit), /whoisin's read one after another,
and the process's CPU per check-in. Then through discord.py's command tree, one at a time: a slash
/checkin fed to the bot, and a minimal discord.py bot's command (a plain ``discord.Client`` with a
plain ``CommandTree`` whose one command just answers) fed the same way to the same kind of fake
Discord, in turns, and the ratio of their CPU: what the bot adds over discord.py's own floor.
Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.league_data import build, player_id
from bench.machine import describe, fresh_database, load, reproduce
from tests.harness import FakeDiscord, Member, connect
from tests.harness.fake_discord import fresh_snowflake, next_id, settle

#: Turns the slash check-ins and the minimal command take, so that a change in the machine's load
#: weighs on both alike.
TURNS = 5


async def timed(count: int, step: Callable[[], Awaitable[Any]], at_once: int = 1) -> tuple[float, float]:
    """(units per second, CPU ms per unit) for ``count`` units, ``at_once`` in flight."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(0, count, at_once):
        await asyncio.gather(*[step() for _ in range(at_once)])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return count / wall, cpu / count * 1000


async def minimal_bot() -> tuple[Any, Callable[[dict[str, Any]], None]]:
    """A minimal discord.py bot logged in to a fake Discord of its own: one app command that answers.

    Returns the client and how to feed it an interaction, as the gateway would."""
    import discord
    from discord import app_commands

    fake = FakeDiscord(bot_user={"id": str(next_id()), "username": "Minimal", "discriminator": "0", "avatar": None,
                                 "bot": True, "global_name": None}, application_id=next_id())
    fake.validates = False  # as for the bot: real Discord checks requests on its own machines
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="ping", description="Answers.")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    connect(client, fake)
    await client.login("offline-bench-token")
    return client, client._connection.parsers["INTERACTION_CREATE"]


async def through_tree(feed: Callable[[dict[str, Any]], None], make: Callable[[], dict[str, Any]],
                       count: int) -> float:
    """CPU seconds for ``count`` interactions fed one at a time, each answered (and its follow-ups
    done) before the next."""
    payloads = [make() for _ in range(count)]  # built before the clock starts, as Discord builds them
    cpu = time.process_time()
    for payload in payloads:
        payload["id"] = str(fresh_snowflake())
        baseline = set(asyncio.all_tasks())
        feed(payload)
        await settle(baseline, 60)
    return time.process_time() - cpu


async def commands_compared(harness: Any, upcoming: Any, team_index: dict[int, int], count: int,
                            rng: random.Random, statements: Callable[[], Awaitable[Any]]) -> None:
    """CPU per slash /checkin through the bot's tree against a minimal bot's command, in turns; and
    beside them ``statements``, a write unit with a check-in's statements and none of its work: the
    minimal command plus that unit is the least a check-in through SQLAlchemy could cost."""
    guild = harness.default_guild
    feed_bot = harness.bot._connection.parsers["INTERACTION_CREATE"]
    client, feed_minimal = await minimal_bot()
    ping = {"id": str(next_id()), "name": "ping", "type": 1, "options": []}

    def slash_checkin() -> dict[str, Any]:
        game = rng.choice(upcoming)
        member = Member(id=player_id(team_index[game.home_team_id], rng.randrange(1, 19)), name="P")
        options = {"status": rng.choice(["in", "out", "maybe"]), "game": game.code}
        return harness._base(2, member, guild, None, harness._command_data("/checkin", options, guild))

    def minimal_command() -> dict[str, Any]:
        member = Member(id=player_id(0, rng.randrange(1, 19)), name="P")
        payload = harness._base(2, member, guild, None, ping)
        payload["application_id"] = str(client.application_id)
        return payload

    try:
        await through_tree(feed_minimal, minimal_command, 50)  # warm up
        await through_tree(feed_bot, slash_checkin, 50)
        per_turn = max(1, count // TURNS)
        minimal = checkins = units_ms = 0.0
        for _ in range(TURNS):
            minimal += await through_tree(feed_minimal, minimal_command, per_turn)
            checkins += await through_tree(feed_bot, slash_checkin, per_turn)
            units_ms += (await timed(per_turn, statements))[1]
            harness.discord.clear()
        n = per_turn * TURNS
        minimal_ms, checkin_ms, unit_ms = minimal / n * 1000, checkins / n * 1000, units_ms / TURNS
        print(f"  {'minimal discord.py command':30s} CPU {minimal_ms:5.3f} ms each (through its CommandTree)")
        print(f"  {'slash /checkin':30s} CPU {checkin_ms:5.3f} ms each (through the bot's tree)")
        print(f"  {'statements of a check-in':30s} CPU {unit_ms:5.3f} ms each (a write unit: BEGIN, a read, "
              "a write, COMMIT)")
        print(f"  CPU per slash check-in / minimal command: {checkin_ms / minimal_ms:.1f} ({load()})")
        print(f"  least it could be through SQLAlchemy, (minimal command + the statements) / minimal command: "
              f"{(minimal_ms + unit_ms) / minimal_ms:.1f}")
    finally:
        await client.close()


async def bench(url: str, count: int) -> None:
    from sqlalchemy import text

    from bot.access import Caller

    select_1 = text("SELECT 1")
    write_nothing = text("UPDATE checkins SET status = status WHERE id = 0")  # a write that changes no row

    harness, upcoming, team_index = await build(url, roster_limit=80)
    bot = harness.bot
    league = bot.settings.leagues[0]
    league_id = bot.league_ids[league.guild_id]
    rng = random.Random(1)

    def someone() -> tuple[Caller, str]:
        game = rng.choice(upcoming)
        member = player_id(team_index[game.home_team_id], rng.randrange(1, 19))
        return Caller(discord_id=member, display_name="P", league=league, league_id=league_id), game.code

    async def check_in() -> None:
        caller, code = someone()
        await bot.services.checkins.check_in(caller, rng.choice(["in", "out", "maybe"]), code)

    async def who_is_in() -> None:
        await bot.services.checkins.who_is_in(*someone())

    async def empty_unit() -> None:  # no statement: SQLAlchemy begins lazily, nothing reaches the driver
        async with bot.sessions.begin():
            pass

    async def select_one() -> None:  # BEGIN IMMEDIATE, one SELECT, COMMIT: the driver's round trips
        async with bot.sessions.begin() as session:
            await session.execute(select_1)

    async def read_and_write() -> None:  # a check-in's statements, none of its work: the floor under it
        async with bot.sessions.begin() as session:
            connection = await session.connection()
            await connection.execute(select_1)
            await connection.execute(write_nothing)

    try:
        await timed(100, check_in)  # warm up
        for label, step, at_once in (("write unit, no statement", empty_unit, 1),
                                     ("write unit, one SELECT 1", select_one, 1),
                                     ("write unit, a read and a write", read_and_write, 1),
                                     ("check-in, one at a time", check_in, 1),
                                     ("check-in, 50 at once", check_in, 50),
                                     ("/whoisin read, one at a time", who_is_in, 1)):
            rate, cpu_ms = await timed(count, step, at_once)
            print(f"  {label:30s} {rate:7.0f}/s  {1000 / rate:6.2f} ms each  CPU {cpu_ms:5.2f} ms each")
        await commands_compared(harness, upcoming, team_index, count, rng, read_and_write)
    finally:
        await harness.close()


async def on(kind: str, count: int) -> None:
    async with fresh_database(None if kind == "sqlite" else os.environ["SIDELINE_BENCH_PG_URL"], "units") as url:
        await bench(url, count)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    print("sqlite (CPU includes aiosqlite's thread):")
    asyncio.run(on("sqlite", args.count))
    if os.environ.get("SIDELINE_BENCH_PG_URL"):
        print("postgresql (CPU is the bot's process only; the server runs beside it):")
        asyncio.run(on("postgresql", args.count))
    print(describe())
    print(reproduce("bench.units", f"--count {args.count}"))


if __name__ == "__main__":
    main()
