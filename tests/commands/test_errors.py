"""The one global error handler: polite for known errors, a reference id for bugs."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from sqlalchemy import select

from storage.models import Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness, Member


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


NEWCOMER = Member(id=800_000_000_000_000_070, name="New Noa")
GUILD_ONLY_FROM_A_DM = [
    ("/roster add", {"player": NEWCOMER}),
    ("/roster remove", {"player": NEWCOMER}),
    ("/suspend", {"player": NEWCOMER, "games": 1, "reason": "boarding"}),
    ("/penalty", {"game": "G1", "player": NEWCOMER, "infraction": "slashing"}),
    ("/game referee", {"game": "G1", "member": NEWCOMER}),
    ("/checkin", {"status": "in"}),
    ("/schedule", {}),
]


@pytest.mark.parametrize(("path", "options"), GUILD_ONLY_FROM_A_DM, ids=[p for p, _ in GUILD_ONLY_FROM_A_DM])
async def test_guild_only_commands_invoked_from_a_dm_are_answered_politely(
        harness: Harness, league: SampleLeague, path: str, options: dict[str, Any]) -> None:
    """A member option can't be read in a DM (TransformerError), which read
    "something went wrong"; every command says where it works instead, and changes nothing."""
    before = await rows_of(harness)
    data = harness._command_data(path, options, None)
    reply = await harness._feed(harness._base(2, league.commissioner(), None, None, data))
    assert reply.ephemeral, reply.text
    assert "in your league's server" in reply.content and "went wrong" not in reply.text, reply.text
    assert await rows_of(harness) == before


async def test_a_member_option_naming_someone_not_in_the_server_is_answered_politely(
        harness: Harness, league: SampleLeague) -> None:
    """Discord sends only the user, not the member, for someone who isn't in the server."""
    data = harness._command_data("/roster add", {"player": NEWCOMER}, harness.default_guild)
    data["resolved"].pop("members")
    reply = await harness._feed(harness._base(2, league.captain("Hawks"), harness.default_guild, None, data))
    assert reply.ephemeral and "went wrong" not in reply.text, reply.text
    assert "isn't a member of this server" in reply.content
    assert NEWCOMER.id not in [p for p, *_ in await rows_of(harness)]


async def rows_of(h: Harness) -> list[tuple[int, int, int]]:
    """Players and their roster places, to see that nothing changed."""
    async with h.bot.sessions() as s:
        rows = await s.execute(select(Player.discord_id, RosterEntry.team_id, RosterEntry.player_id)
                               .outerjoin(RosterEntry, RosterEntry.player_id == Player.id).order_by(Player.id))
        return [tuple(r) for r in rows.all()]
