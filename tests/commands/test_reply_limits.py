"""Answers stay within Discord's limits: what the user typed is quoted clipped, and the reply helpers
(bot/client/tree.py) clip whatever is still too long rather than let Discord refuse the answer."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from bot.client.tree import defer, reply
from bot.discord_text import CONTENT_LIMIT, EMBED_TOTAL, embeds_length
from tests.commands.test_rulebooks import SYNTHETIC, import_text
from tests.conftest import SampleLeague
from tests.harness import Harness

MENTION = "<@500000000000000001>"


def long_embeds() -> list[discord.Embed]:
    first = discord.Embed(title="T" * 300, description="D" * 5000)
    for i in range(30):
        first.add_field(name=f"field {i}", value="V" * 1100, inline=False)
    first.set_footer(text="F" * 2100)
    return [first, discord.Embed(description="E" * 4000)]


@pytest.mark.parametrize("deferred", [False, True], ids=["at once", "after deferring"])
async def test_an_answer_longer_than_discord_takes_is_clipped_not_refused(
        harness: Harness, league: SampleLeague, deferred: bool, caplog: pytest.LogCaptureFixture) -> None:
    @app_commands.command(name="longwinded", description="Answers at length")
    async def longwinded(interaction: discord.Interaction) -> None:
        if deferred:
            await defer(interaction)
        await reply(interaction, f"Hello {MENTION} " * 200, embeds=long_embeds(), ephemeral=True)

    harness.bot.tree.add_command(longwinded)
    with caplog.at_level(logging.WARNING, logger="sideline"):
        answer = await harness.slash("/longwinded", as_=league.player("Alice Hart"))

    harness.discord.check()  # nothing real Discord would refuse
    body = answer.last.payload
    # cut before the mention it would have split ("Hello <@5000…" would show as broken text)
    assert 1900 < len(body["content"]) <= CONTENT_LIMIT and body["content"].endswith(f"{MENTION} Hello…")
    assert EMBED_TOTAL - 100 < embeds_length(body["embeds"]) <= EMBED_TOTAL
    assert len(body["embeds"][0]["fields"]) == 25 and body["embeds"][0]["fields"][-1]["value"] == "6 more not shown"
    assert "/longwinded was longer than Discord takes" in caplog.text


async def test_an_answer_that_fits_is_sent_as_written(harness: Harness, league: SampleLeague,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    embed = discord.Embed(title="Standings", description="x" * 4096)

    @app_commands.command(name="exact", description="Answers at the limit")
    async def exact(interaction: discord.Interaction) -> None:
        await reply(interaction, "y" * CONTENT_LIMIT, embed=embed)

    harness.bot.tree.add_command(exact)
    with caplog.at_level(logging.WARNING, logger="sideline"):
        answer = await harness.slash("/exact", as_=league.player("Alice Hart"))
    assert answer.last.payload["content"] == "y" * CONTENT_LIMIT
    assert answer.last.payload["embeds"][0]["description"] == "x" * 4096
    assert "longer than Discord takes" not in caplog.text


async def test_a_section_not_found_quotes_the_citation_clipped(harness: Harness, league: SampleLeague) -> None:
    """Discord lets a citation be 100 characters (the option's max_length): the answer quotes it clipped."""
    await import_text(harness, SYNTHETIC)
    citation = "9." + "9" * 98
    answer = await harness.slash("/rulebook section", as_=league.player("Alice Hart"), citation=citation)
    assert answer.ephemeral and "There's no section “9.999" in answer.content
    assert citation not in answer.content and "…”" in answer.content
