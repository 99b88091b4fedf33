"""Hypothesis throws hostile option values at every slash command and autocomplete.

Every answer must be a clean message (never a traceback, never an unhandled error in the
log), refusals are ephemeral and change nothing, and nothing the bot sends can ping
@everyone, @here or a role. The command list comes from the live tree, so a new command
is fuzzed without anyone remembering to add it.

With SIDELINE_TEST_PG_URL set, a few examples per command (SIDELINE_FUZZ_PG_EXAMPLES, 15 by
default) also run on PostgreSQL, which refuses text SQLite takes (NUL).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from bot.clock import FixedClock
from bot.errors import UserFacingError
from bot.run.app import create_bot
from storage.db import create_engine
from tests.conftest import (
    CHANNELS,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    PG_URL_ENV,
    ROLES,
    SampleLeague,
    _pg_admin,
    league_config,
    make_settings,
)
from tests.harness import Attachment, Call, Harness, Member
from tests.harness.discord_words import command_line_words
from tests.reliability.commands import LeafCommand, leaf_commands
from tests.reliability.conftest import ErrorLog
from tests.reliability.snapshot import changed_tables, snapshot, snapshot_file

EXAMPLES = int(os.environ.get("SIDELINE_FUZZ_EXAMPLES", "200"))
PG_EXAMPLES = int(os.environ.get("SIDELINE_FUZZ_PG_EXAMPLES", "15"))  # a round trip per query: keep it short

NASTY_TEXT = [
    "", " ", "@everyone", "@here hello", "<@&1001> ping the captains", "<@500000000000000001>",
    "**bold** __under__ ~~strike~~ `code` ```block```", "'; DROP TABLE games; --", "Robert'); --",
    "\u200b\u200b", "\x00\x01\x1b[31m", "🏒🥅" * 30, "Ｈａｗｋｓ", "hawks", "HAWKS", "G1", "g1", "G999",
    "1900-01-01 00:00", "2999-12-31 23:59", "2030-03-10 02:30", "2030-01-11 19:00", "yesterday",
    "-1", "0", "99999999999999999999", "NaN", "%", "_", "\\", "a" * 100, "x" * 500, "y" * 5000,
    "Alice Hart", "Alice Hart, Bea Quinn, Carl Diaz", "<@500000000000000001>, <@500000000000000002>",
    "2.7", "GOALIE SAFETY", "../../etc/passwd", "null", "None", "true",
]


#: What the tree's handler answers politely (bot/client/tree.py ``report_error``): a refusal, a failed check,
#: and an option discord.py could not read (a channel the bot can't see, someone not in the server).
POLITE = (UserFacingError, app_commands.CheckFailure, app_commands.TransformerError)
DISCORD_MAX_TEXT = 6000  # the longest text option value Discord sends, when the option sets no max_length
AT_THE_LIMIT = ["x", "<@500000000000000001> ", "@everyone <@&1001> ", "<t:1894483200:F> ", "🏒👩‍👩‍👧 ",
                "[rules](https://example.org/r) ", "```\ncode\n", "e\u0301", "🇨🇦", "Hawks, "]


class World:
    """Two leagues on two servers, the sample data in the first, and people from both."""

    def __init__(self, tmp_path: Path, url: str | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.url = url or f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}"
        self.examples = EXAMPLES if self.url.startswith("sqlite") else PG_EXAMPLES
        # The second league takes disputes (the co-ed preset has none: "the referee's call stands"), so that
        # both ways /dispute file answers are walked.
        settings_ = make_settings(league_config(), league_config("other", OTHER_GUILD, roles=OTHER_ROLES,
                                                                 channels=OTHER_CHANNELS,
                                                                 rules={"dispute_calls_allowed": True}))
        engine = create_engine(self.url)
        from datetime import UTC, datetime

        bot = create_bot(settings_, engine=engine, clock=FixedClock(datetime(2030, 1, 5, 12, tzinfo=UTC)),
                         run_scheduler=False)
        self.h: Harness = self.loop.run_until_complete(Harness(bot).start())
        self.sample = self.loop.run_until_complete(SampleLeague(self.h).load())
        self.outcomes: dict[int, BaseException] = {}
        original = bot.tree.on_error

        async def record(interaction: Any, error: Any) -> None:
            self.outcomes[interaction.id] = error
            await original(interaction, error)

        bot.tree.on_error = record  # type: ignore[method-assign]
        self.actors = [self.sample.player("Alice Hart"), self.sample.captain("Hawks"),
                       self.sample.referee(), self.sample.commissioner(), self.sample.stranger()]
        self.other_member = self.h.member("Other Olga", league=1, roles=("commissioner",))

    async def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        url = make_url(self.url)
        if url.get_backend_name() == "sqlite" and url.database:
            return snapshot_file(Path(url.database))
        return await snapshot(self.h.bot.sessions)

    def close(self) -> None:
        self.loop.run_until_complete(self.h.close())
        self.loop.close()


def option_strategy(world: World, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = option["type"]
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    if kind == 3:  # string
        low, high = text_bounds(option)
        pool = [t for t in NASTY_TEXT if low <= len(t) <= high] + at_the_limits(low, high)
        return st.one_of(st.sampled_from(pool), st.text(min_size=low, max_size=min(high, 300)))
    if kind == 4:  # integer
        return st.integers(min_value=option.get("min_value", -(2**53)), max_value=option.get("max_value", 2**53))
    if kind == 10:  # number
        return st.floats(min_value=option.get("min_value", -1e15), max_value=option.get("max_value", 1e15),
                         allow_nan=False, allow_infinity=False)
    if kind == 5:
        return st.booleans()
    if kind in (6, 9):  # user, mentionable
        people = [*world.actors, world.other_member, Member(id=1, name="Ghost"),
                  world.sample.player("Omar Fox"), world.sample.player("Uma Reed")]
        return st.sampled_from(people)
    if kind == 8:  # role: this server's, the other league's, an unknown one
        return st.sampled_from([*ROLES.values(), *OTHER_ROLES.values(), 77]).map(discord.Object)
    if kind == 7:  # channel: this server's, the other league's, an unknown one
        return st.sampled_from([*CHANNELS.values(), *OTHER_CHANNELS.values(), 78]).map(discord.Object)
    if kind == 11:  # attachment
        return st.one_of(
            st.sampled_from([b"", b"\xff\xfe\x00", b"team,division\n", b"a,b,c\n1,2,3\n"]),
            st.binary(max_size=300),
            st.text(max_size=300).map(lambda t: ("game_id,starts_at,home,away,venue,kind\n" + t).encode()),
        ).map(lambda data: Attachment("fuzz.csv", data))
    raise AssertionError(f"no strategy for option type {kind}")


def text_bounds(option: dict[str, Any]) -> tuple[int, int]:
    """The lengths Discord lets a user type: its min_length and max_length, or up to Discord's own
    6,000 for an option that (wrongly: test_every_text_option_says_how_long_it_may_be) has none."""
    low, high = option.get("min_length", 0), option.get("max_length", DISCORD_MAX_TEXT)
    return (max(low, 1) if option.get("required") else low), high


def at_the_limits(low: int, high: int) -> list[str]:
    """Text exactly as long as Discord allows, and as short: what the bot quotes back at its longest,
    full of what a careless cut would break (mentions, timestamps, emoji, links, code blocks)."""
    def filled(piece: str, length: int) -> str:
        return (piece * (length // max(1, len(piece)) + 1))[:length]

    return [filled(piece, length) for piece in AT_THE_LIMIT for length in {low, high} if length > 0] + [""] * (low == 0)


def command_strategy(world: World, command: LeafCommand) -> st.SearchStrategy[dict[str, Any]]:
    required = {o["name"]: option_strategy(world, o) for o in command.options if o.get("required")}
    optional = {o["name"]: option_strategy(world, o) for o in command.options if not o.get("required")}
    return st.fixed_dictionaries(required, optional=optional)


def check_mentions(calls: list[Call]) -> None:
    for call in calls:
        payload = call.payload
        if not isinstance(payload, dict) or not ("content" in payload or "embeds" in payload):
            continue
        mentions = payload.get("allowed_mentions")
        assert mentions is not None, f"{call.method} {call.path} sent without allowed_mentions"
        assert not set(mentions.get("parse", [])) & {"everyone", "roles"}, f"{call.path} may ping: {mentions}"
        assert not mentions.get("roles"), f"{call.path} pings roles: {mentions}"


async def run_one(world: World, command: LeafCommand, actor: Member, options: dict[str, Any],
                  guild_id: int | None) -> None:
    h = world.h
    before = await world.snapshot()
    reply = await h.slash(command.path, as_=actor, guild_id=guild_id, **options)
    refused, h.discord.refusals = h.discord.refusals, []
    assert not refused, f"{command.path} {options!r}: Discord would refuse what the bot sent: {refused}"
    # The bot's own words never show the command line; repeating what was typed may (hypothesis types
    # strings it finds in the code, such as "--version"), so the fake's check is narrowed to the rest.
    h.discord.command_line = []
    typed = " ".join(v for v in options.values() if isinstance(v, str))
    shown = [w for call in reply.calls for w in command_line_words(call.body) if w not in typed]
    assert not shown, f"{command.path} {options!r}: the answer shows the command line: {shown}"
    assert reply.responses, f"{command.path} did not answer {options!r}"
    text = reply.text
    assert "Traceback" not in text and "Exception" not in text
    check_mentions(reply.calls)
    interaction_id = int(reply.first.path.split("/")[2])
    outcome = world.outcomes.pop(interaction_id, None)
    if outcome is not None:
        cause = getattr(outcome, "original", None) or outcome.__cause__ or outcome
        known = isinstance(cause, POLITE)
        assert known, f"{command.path} {options!r}: unhandled {cause!r}"
        assert reply.ephemeral, f"{command.path}: a refusal must be private"
        after = await world.snapshot()
        assert changed_tables(before, after) == [], f"{command.path} refused but wrote {changed_tables(before, after)}"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One world per database for the whole module; PostgreSQL gets a fresh database of its own."""
    if request.param == "sqlite":
        w = World(tmp_path_factory.mktemp("fuzz"))
        yield w
        w.close()
        return
    if not os.environ.get(PG_URL_ENV):
        pytest.skip(f"PostgreSQL fuzzing needs {PG_URL_ENV} (e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/test)")
    base = make_url(os.environ[PG_URL_ENV])
    name = f"sideline_fuzz_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
    try:
        w = World(tmp_path_factory.mktemp("fuzz"), base.set(database=name).render_as_string(hide_password=False))
        try:
            yield w
        finally:
            w.close()
    finally:
        asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def all_commands() -> list[str]:
    """Collected from a throwaway bot so each command is its own test case."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        w = World(Path(tmp))
        try:
            return [c.path for c in leaf_commands(w.h.bot)]
        finally:
            w.close()


COMMANDS = all_commands()


@pytest.mark.parametrize("path", COMMANDS)
def test_hostile_input_gets_a_clean_answer(world: World, path: str, error_log: ErrorLog) -> None:
    command = next(c for c in leaf_commands(world.h.bot) if c.path == path)
    runs = 0

    @settings(max_examples=world.examples, deadline=None, derandomize=bool(os.environ.get("CI")),
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], database=None)
    @given(options=command_strategy(world, command), actor=st.sampled_from(world.actors),
           other_server=st.booleans() if command.path != "/schedule" else st.just(False))
    def case(options: dict[str, Any], actor: Member, other_server: bool) -> None:
        nonlocal runs
        runs += 1
        who = world.other_member if other_server else actor
        guild = OTHER_GUILD if other_server else None
        world.loop.run_until_complete(run_one(world, command, who, options, guild))

    case()
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]
    print(f"{path}: {runs} examples")
    unbounded = [o["name"] for o in command.options
                 if o["type"] == 3 and "max_length" not in o and not o.get("choices")]
    assert not unbounded, f"{path} option {', '.join(unbounded)}: add max_length (Discord lets 6,000 characters in)"


def typing(command: LeafCommand, name: str) -> st.SearchStrategy[str]:
    """What someone may have typed so far in an option: anything up to its max_length."""
    _, high = text_bounds(next(o for o in command.options if o["name"] == name))
    pool = [t for t in NASTY_TEXT if len(t) <= high] + at_the_limits(0, high)
    return st.one_of(st.sampled_from(pool), st.text(max_size=min(high, 100)))


@pytest.mark.parametrize("path", COMMANDS)
def test_autocomplete_never_fails(world: World, path: str, error_log: ErrorLog) -> None:
    command = next(c for c in leaf_commands(world.h.bot) if c.path == path)
    focusable = [o["name"] for o in command.options if o.get("autocomplete")]
    if not focusable:
        pytest.skip(f"{path} has no autocomplete")

    typed = st.sampled_from(focusable).flatmap(lambda name: st.tuples(st.just(name), typing(command, name)))

    @settings(max_examples=world.examples, deadline=None, derandomize=bool(os.environ.get("CI")),
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], database=None)
    @given(focused_and_current=typed, actor=st.sampled_from(world.actors))
    def case(focused_and_current: tuple[str, str], actor: Member) -> None:
        focused, current = focused_and_current
        reply = world.loop.run_until_complete(
            world.h.autocomplete(path, focused=focused, as_=actor, **{focused: current}))
        assert reply.response_type == 8, f"{path} autocomplete did not answer"
        choices = reply.autocomplete_choices
        assert len(choices) <= 25
        assert all(1 <= len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in choices)

    case()
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]

