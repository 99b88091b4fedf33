"""The fake Discord refuses what real Discord refuses: every body is checked against Discord's own API spec."""

from __future__ import annotations

import contextlib
import io
import json
import re
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.harness import FakeDiscord, Harness

CHANNEL = Route("POST", "/channels/{channel_id}/messages", channel_id=111)
CALLBACK = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                 interaction_id=222, interaction_token="tok")


def buttons(count: int) -> list[dict[str, Any]]:
    return [{"type": 2, "style": 1, "label": f"Game {i}", "custom_id": f"game:{i}"} for i in range(count)]


REFUSED = {  # what the bot might one day send, and where Discord's schema says it is wrong
    "content over 2000": (CHANNEL, {"content": "x" * 2001}, "$.content"),
    "reply over 2000": (CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}, "$.data.content"),
    "embed field without a value": (CALLBACK, {"type": 4, "data": {"embeds": [
        {"title": "Standings", "fields": [{"name": "Rockets"}]}]}}, "$.data.embeds[0].fields[0]"),
    "embed title over 256": (CHANNEL, {"embeds": [{"title": "t" * 257}]}, "$.embeds[0].title"),
    "embed description over 4096": (CALLBACK, {"type": 4, "data": {"embeds": [{"description": "d" * 4097}]}},
                                    "$.data.embeds[0].description"),
    "embed field value over 1024": (CHANNEL, {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
                                    "$.embeds[0].fields[0].value"),
    "embed field name over 256": (CHANNEL, {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
                                  "$.embeds[0].fields[0].name"),
    "embed footer over 2048": (CHANNEL, {"embeds": [{"footer": {"text": "f" * 2049}}]}, "$.embeds[0].footer"),
    "twenty-six embed fields": (CHANNEL, {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
                                "$.embeds[0].fields"),
    "embeds over 6000 in all": (CALLBACK, {"type": 4, "data": {"embeds": [
        {"description": "d" * 4096, "footer": {"text": "f" * 2000}}]}}, "6096 characters in all"),
    "embeds over 6000 across two": (CHANNEL, {"embeds": [
        {"description": "d" * 4000}, {"title": "t", "fields": [{"name": "n", "value": "v" * 1000}] * 2}]},
        "6003 characters in all"),
    "six buttons in a row": (CALLBACK, {"type": 4, "data": {"components": [
        {"type": 1, "components": buttons(6)}]}}, "$.data.components[0].components"),
    "forty-one rows": (CHANNEL, {"content": "pick", "components": [
        {"type": 1, "components": buttons(1)}] * 41}, "$.components"),
    "unknown callback type": (CALLBACK, {"type": 10, "data": {"content": "hi"}}, "$.type"),
    "command description over 100": (
        Route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", application_id=1, guild_id=2),
        [{"name": "standings", "description": "d" * 101, "type": 1}], "$[0].description"),
    "no such endpoint": (Route("POST", "/channels/{channel_id}/standings", channel_id=111), {"content": "hi"},
                         "has no endpoint POST /channels/111/standings"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
async def test_fake_discord_refuses_what_discord_refuses(harness: Harness, case: str) -> None:
    route, body, where = REFUSED[case]
    with pytest.raises(discord.HTTPException):  # answered like Discord: 400 (or 404 for no endpoint)
        await harness.bot.http.request(route, json=body)
    with pytest.raises(AssertionError, match=re.escape(where)):
        harness.discord.check()  # and the test fails, whatever the bot made of the 400


async def test_a_swallowed_refusal_still_fails_the_test(harness: Harness) -> None:
    """The bot may catch the 400 (a post that fails is logged, not raised): closing the harness still fails."""
    channel = harness.bot.get_channel(harness.channels[harness.default_guild or 0][0])
    assert isinstance(channel, discord.TextChannel)
    with contextlib.suppress(discord.HTTPException):  # multipart: its payload_json part is checked
        await channel.send("x" * 2001, file=discord.File(io.BytesIO(b"team,captain\n"), "teams.csv"))
    with pytest.raises(AssertionError, match=r"POST /channels/\{channel_id\}/messages: \$\.content"):
        await harness.close()


async def test_fake_discord_takes_what_discord_takes(harness: Harness) -> None:
    """Today's bodies pass: the real command tree's registration, a DM, a message with mentions and buttons."""
    await harness.bot.sync_commands()
    assert harness.discord.sent(method="PUT", path_prefix="/applications/")
    dm = await harness.bot.create_dm(discord.Object(id=5))  # recipient_id goes as a JSON integer
    await dm.send("Your game is at 7 pm.")
    channel = harness.bot.get_channel(harness.channels[harness.default_guild or 0][0])
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Check in", custom_id="checkin:1"))
    await channel.send("x" * 2000, embed=discord.Embed(title="Standings", description="1. Rockets"), view=view,
                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=5)]),
                       file=discord.File(io.BytesIO(b"a,b\n"), "standings.csv"))
    assert harness.discord.refusals == []


def test_a_harness_never_closed_is_still_checked() -> None:
    """Tests that build their own harness and forget it are caught by the autouse check (tests/conftest.py)."""
    fake = FakeDiscord(bot_user={"id": "1", "username": "Sideline"}, application_id=2)
    answer = fake.request("POST", "https://discord.com/api/v10/channels/1/messages",
                          data=json.dumps({"content": "x" * 2001}))
    assert answer.status == 400
    del fake
    with pytest.raises(AssertionError, match=re.escape("$.content")):
        FakeDiscord.check_all()


SPEAKS_THE_COMMAND_LINE = {  # replies a Discord user could not act on: they name the command line
    "a CLI command": ({"type": 4, "data": {"content": "Run `sideline rules import rules.md` first."}},
                      "['sideline rules']"),
    "a flag": ({"type": 4, "data": {"content": "Use --allow-past to import old games."}}, "['--allow-past']"),
    "a flag in an embed": ({"type": 4, "data": {"embeds": [{"title": "Import", "fields": [
        {"name": "Next", "value": "add `--league coed`"}]}]}}, "['--league']"),
    "a flag on a button": ({"type": 4, "data": {"content": "Import", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Retry --allow-past", "custom_id": "x:1"}]}]}}, "['--allow-past']"),
}


@pytest.mark.parametrize("case", SPEAKS_THE_COMMAND_LINE, ids=list(SPEAKS_THE_COMMAND_LINE))
async def test_a_reply_naming_the_command_line_fails_the_test(harness: Harness, case: str) -> None:
    body, shown = SPEAKS_THE_COMMAND_LINE[case]
    await harness.bot.http.request(CALLBACK, json=body)  # Discord takes it; a user can't act on it
    with pytest.raises(AssertionError, match=re.escape(f"shows the command line to a Discord user: {shown}")):
        harness.discord.check()


async def test_discord_words_pass(harness: Harness) -> None:
    """Slash commands, custom ids, dashes in prose and links (a feed token may hold ``--x``) are Discord's words."""
    await harness.bot.http.request(CALLBACK, json={"type": 4, "data": {"content": (
        "Upload it again with `/import games file: allow_past:True` -- or ask Sideline staff. "
        "Subscribe: <webcal://127.0.0.1:8080/calendar/Ab3.--league9f.ics>"), "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": "sideline:join@1:2"}]}]}})
    harness.discord.check()


@pytest.mark.parametrize(("path", "options", "why"), [
    ("/checkin", {"status": "in", "game": "G" * 65}, "65 characters, over its max_length 64"),
    ("/checkin", {"status": "perhaps"}, "'perhaps' is none of its choices"),
    ("/tellcaptain", {"message": ""}, "0 characters, under its min_length 1"),
    ("/result enter", {"game": "G1", "home": 100, "away": 0, "decided": "regulation"}, "100 is over its max_value 99"),
])
async def test_the_harness_sends_only_option_values_discord_would(harness: Harness, path: str,
                                                                 options: dict[str, Any], why: str) -> None:
    """Discord holds options to their limits before the bot sees them (discord.py checks none): a test
    sending what no user could would test nothing real, so it must say it forges (``forged=True``)."""
    with pytest.raises(ValueError, match=re.escape(why)):
        await harness.slash(path, as_=harness.member("Pat"), **options)
    assert harness.discord.calls == [] or all("/interactions/" not in c.path for c in harness.discord.calls)
    typing = await harness.autocomplete("/checkin", focused="game", as_=harness.member("Pat"), game="")
    assert typing.response_type == 8  # while typing, an option may be shorter than its minimum
