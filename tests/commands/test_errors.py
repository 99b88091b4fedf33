"""The one global error handler: polite for known errors, a reference id for bugs."""

from __future__ import annotations

import logging
import re

import discord
import pytest
from discord import app_commands

from tests.conftest import SampleLeague
from tests.harness import Harness


async def test_an_unexpected_exception_shows_a_reference_and_no_traceback(
        harness: Harness, league: SampleLeague, caplog: pytest.LogCaptureFixture) -> None:
    @app_commands.command(name="explode", description="Always fails")
    async def explode(interaction: discord.Interaction) -> None:
        raise RuntimeError("secret internal detail")

    harness.bot.tree.add_command(explode)
    with caplog.at_level(logging.ERROR, logger="sideline"):
        reply = await harness.slash("/explode", as_=league.player("Alice Hart"))

    assert reply.ephemeral
    match = re.search(r"\(ref ([0-9a-f]{6})\)", reply.content)
    assert match, reply.content
    assert "secret internal detail" not in reply.text and "Traceback" not in reply.text
    logged = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # the log has the traceback


async def test_commands_in_a_server_without_a_league_are_refused_politely(
        harness: Harness, league: SampleLeague) -> None:
    harness.add_guild(999_999_999_999_999_999, "Elsewhere", [], [123])
    reply = await harness.slash("/schedule", as_=league.player("Alice Hart"), guild_id=999_999_999_999_999_999)
    assert reply.ephemeral
    assert "isn't set up for this server" in reply.content


async def test_error_after_defer_is_sent_as_an_ephemeral_followup(
        harness: Harness, league: SampleLeague) -> None:
    @app_commands.command(name="slowfail", description="Defers then fails")
    async def slowfail(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        raise RuntimeError("boom")

    harness.bot.tree.add_command(slowfail)
    reply = await harness.slash("/slowfail", as_=league.player("Alice Hart"))
    assert len(reply.responses) == 2
    assert reply.responses[1].path.startswith("/webhooks/")
    assert reply.responses[1].ephemeral and "ref " in reply.responses[1].content
