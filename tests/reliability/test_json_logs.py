"""SIDELINE_LOG_FORMAT=json: one JSON object per line, and each line logged while an
interaction is handled says which server, league and interaction it came from, from whichever module
logged it (bound in the command tree, bot/client/tree.py; bot/logs.py)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import logs
from bot.client.tree import interaction_ids
from bot.services import outbox
from bot.services.outbox import Outgoing
from cogs.checkins._buttons import custom_id_for
from tests.conftest import GUILD, SampleLeague
from tests.harness import Harness, Reply


class JsonLines:
    """What `sideline run` with SIDELINE_LOG_FORMAT=json writes, captured from the root logger."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    def lines(self) -> list[dict[str, Any]]:
        text = self.stream.getvalue()
        assert text.endswith("\n")
        return [json.loads(line) for line in text.splitlines()]  # every line parses on its own

    def about(self, fragment: str) -> list[dict[str, Any]]:
        return [line for line in self.lines() if fragment in line["message"]]


@pytest.fixture
def json_logs() -> Iterator[JsonLines]:
    captured = JsonLines()
    handler = logs.handler("json", captured.stream)
    root, sideline = logging.getLogger(), logging.getLogger("sideline")
    level = sideline.level
    root.addHandler(handler)
    sideline.setLevel(logging.DEBUG)
    try:
        yield captured
    finally:
        root.removeHandler(handler)
        sideline.setLevel(level)


def interaction_id(reply: Reply) -> str:
    """The id Discord gave the interaction: the bot answers on /interactions/{id}/{token}/callback."""
    path = reply.responses[0].path
    assert path.startswith("/interactions/"), path
    return path.split("/")[2]


async def test_a_services_line_during_a_command_carries_its_server_league_and_interaction(
        harness: Harness, league: SampleLeague, json_logs: JsonLines) -> None:
    # 24 h before the game (the clock is 2030-01-05 12:00 UTC): the 2-day reminders are dropped, and the
    # reminders service (bot/services/reminders/plan.py), which knows no interaction, logs it.
    reply = await harness.slash("/game add", as_=league.commissioner(), home="Hawks", away="Owls",
                                starts_at="2030-01-06 07:00")
    assert "Added" in reply.content, reply.content
    (dropped,) = json_logs.about("dropped")
    assert dropped["logger"] == "sideline.reminders" and dropped["level"] == "INFO"
    assert dropped["guild_id"] == str(GUILD) and dropped["league"] == "coed"
    assert dropped["interaction_id"] == interaction_id(reply)
    assert set(dropped) == {"time", "level", "logger", "message", "guild_id", "league", "interaction_id"}
    assert dropped["time"].endswith("+00:00")
    (started,) = json_logs.about("/game add")
    assert started["level"] == "DEBUG" and started["interaction_id"] == interaction_id(reply)


async def test_ids_belong_to_their_own_interaction_and_stay_out_of_other_work(
        harness: Harness, league: SampleLeague, json_logs: JsonLines) -> None:
    first = await harness.slash("/schedule", as_=league.player("Alice Hart"))
    second = await harness.slash("/schedule", as_=league.player("Alice Hart"))
    logging.getLogger("sideline").info("outside any interaction")
    started = json_logs.about("/schedule")
    assert [line["interaction_id"] for line in started] == [interaction_id(first), interaction_id(second)]
    assert interaction_id(first) != interaction_id(second)
    (outside,) = json_logs.about("outside any interaction")
    assert not set(outside) & set(logs.IDS)


async def test_an_unexpected_error_is_one_json_line_with_its_traceback_and_ids(
        harness: Harness, league: SampleLeague, json_logs: JsonLines) -> None:
    @app_commands.command(name="explode", description="Always fails")
    async def explode(interaction: discord.Interaction) -> None:
        raise RuntimeError("line one\nline two")

    harness.bot.tree.add_command(explode)
    reply = await harness.slash("/explode", as_=league.player("Alice Hart"))
    assert "ref " in reply.content
    (error,) = [line for line in json_logs.lines() if line["level"] == "ERROR"]
    assert error["message"].startswith("unhandled error (ref ") and error["guild_id"] == str(GUILD)
    assert error["interaction_id"] == interaction_id(reply) and error["league"] == "coed"
    assert "Traceback" in error["exc_info"] and "RuntimeError: line one\nline two" in error["exc_info"]
    assert len(json_logs.stream.getvalue().splitlines()) == len(json_logs.lines())


async def test_a_button_press_logs_with_its_ids(harness: Harness, league: SampleLeague,
                                                json_logs: JsonLines) -> None:
    reply = await harness.press(custom_id_for("G1", "in", harness.bot.league_ids[GUILD]),
                                as_=league.player("Alice Hart"))
    assert reply.responses, "the press was not answered"
    (pressed,) = json_logs.about("component sideline:checkin@")
    assert pressed["logger"] == "sideline" and pressed["level"] == "DEBUG"
    assert pressed["guild_id"] == str(GUILD) and pressed["league"] == "coed"
    assert pressed["interaction_id"] == interaction_id(reply)


async def test_the_courier_says_which_server_a_queued_message_was_for(harness: Harness,
                                                                   json_logs: JsonLines) -> None:
    now = harness.bot.clock.now()
    async with harness.bot.sessions.begin() as s:
        await outbox.enqueue(s, league_id=harness.bot.league_ids[GUILD], guild_id=GUILD, key="late-1",
                             due_at=now - timedelta(hours=2), expires_at=now - timedelta(hours=1),
                             message=Outgoing(content="too late"), channel_id=3001)
    await harness.bot.courier.deliver_due()
    (skipped,) = json_logs.about("skipped late-1")
    assert skipped["logger"] == "sideline.courier" and skipped["guild_id"] == str(GUILD)
    assert "interaction_id" not in skipped  # no interaction sent it


def test_the_text_format_is_unchanged_and_carries_no_ids() -> None:
    stream = io.StringIO()
    record = logging.LogRecord("sideline.x", logging.WARNING, __file__, 1, "hello %s", ("there",), None)
    with logs.bound(guild_id=GUILD, league="coed", interaction_id=5):
        logs.handler("text", stream).handle(record)
    assert stream.getvalue().endswith(" WARNING sideline.x: hello there\n")


def test_extra_ids_beat_the_bound_ones_and_unknown_ones_are_left_out() -> None:
    stream = io.StringIO()
    log = logging.getLogger("sideline.test_json_logs")
    handler = logs.handler("json", stream)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        with logs.bound(guild_id=1, league="coed", interaction_id=None):
            log.info("queued", extra={"guild_id": 2})
        log.info("after")
    finally:
        log.removeHandler(handler)
    queued, after = (json.loads(line) for line in stream.getvalue().splitlines())
    assert (queued["guild_id"], queued["league"]) == ("2", "coed") and "interaction_id" not in queued
    assert not set(after) & set(logs.IDS)


def test_interaction_ids_without_a_league_or_server() -> None:
    class Client:
        settings = None

    class DM:
        client, guild_id, id = Client(), None, 42

    assert interaction_ids(DM()) == {"guild_id": None, "league": None, "interaction_id": 42}
