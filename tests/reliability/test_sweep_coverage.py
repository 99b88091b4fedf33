"""The generated sweeps reach the whole command tree: every slash command at any depth, global or
for one server, and a value for every option of every type, in the fuzz (test_fuzz_commands.py), the
permission matrix (test_permissions.py) and the isolation probes (test_isolation.py). A command added
later is swept as it is, without anyone editing the sweeps; the last test adds one and shows it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.access import Role
from bot.client.tree import reply, requires
from bot.errors import UserFacingError
from cogs._common import bot_of, game_autocomplete
from tests.conftest import CHANNELS
from tests.harness import Member
from tests.reliability.commands import OPTION_TYPES, LeafCommand, leaf_commands
from tests.reliability.isolation_world import ID_OPTIONS, probe_options
from tests.reliability.test_fuzz_commands import COMMANDS, World, command_strategy, option_strategy, run_one
from tests.reliability.test_permissions import plausible_options, run


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = World(tmp_path_factory.mktemp("coverage"))
    yield w
    w.close()


def probe_world(world: World) -> Any:
    """What the isolation probes read of their world, without populating two leagues."""
    return SimpleNamespace(ids={kind: [1, 2] for kind in ID_OPTIONS.values()},
                           suggested={}, first_channels={*CHANNELS.values()})


def missing_required(command: LeafCommand, values: dict[str, Any]) -> list[str]:
    return [o["name"] for o in command.options if o.get("required") and o["name"] not in values]


def every_slash_command(world: World) -> set[str]:
    """Read from discord.py's tree by its own walk, not by the sweeps' (tests/reliability/commands.py)."""
    tree = world.h.bot.tree
    found: set[str] = set()
    for guild in (None, *(discord.Object(id=g.id) for g in world.h.bot.guilds)):
        walked = tree.walk_commands(guild=guild, type=discord.AppCommandType.chat_input)
        found |= {f"/{c.qualified_name}" for c in walked if isinstance(c, app_commands.Command)}
    return found


def test_the_sweeps_walk_every_slash_command(world: World) -> None:
    every = every_slash_command(world)
    assert len(every) >= 80  # the tree was read
    assert {c.path for c in leaf_commands(world.h.bot)} == every
    assert set(COMMANDS) == every  # what the sweeps are parametrized with


def test_every_option_of_every_command_gets_a_value_in_every_sweep(world: World) -> None:
    seen_types: set[int] = set()
    for command in leaf_commands(world.h.bot):
        for option in command.options:
            seen_types.add(option["type"])
            option_strategy(world, option)  # raises for a type the fuzz can't make
        assert missing_required(command, plausible_options(world, command)) == [], command.path
        for k in range(3):
            assert missing_required(command, probe_options(probe_world(world), command, k)) == [], command.path
    assert seen_types <= set(OPTION_TYPES), seen_types - set(OPTION_TYPES)
    assert len(seen_types) >= 7, seen_types  # strings, numbers, booleans, members, channels, roles, files


# --- a command added later --------------------------------------------------------------------------------------
def add_a_new_command(world: World) -> str:
    """A privileged command two groups deep with one option of every type, that echoes its text at length."""
    outer = app_commands.Group(name="newfeature", description="A feature added after the sweeps were written",
                               guild_only=True)
    inner = app_commands.Group(name="deep", description="Nested", parent=outer)

    @inner.command(name="leaf", description="Every option type", extras=requires(Role.COMMISSIONER))
    @app_commands.autocomplete(game=game_autocomplete)
    async def leaf(interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                   note: app_commands.Range[str, 1, 1000], count: app_commands.Range[int, 0, 9], share: float,
                   loud: bool, who: discord.Member, where: discord.TextChannel, role: discord.Role,
                   anyone: discord.User | discord.Role, file: discord.Attachment) -> None:
        bot_of(interaction).caller(interaction).require(Role.COMMISSIONER)
        if count > 5:
            raise UserFacingError("Count at most 5.")
        await reply(interaction, f"Noted for {game}: {note} · {note} · {note}", ephemeral=True)

    world.h.bot.tree.add_command(outer)
    return "/newfeature deep leaf"


def test_a_new_command_is_swept_without_anyone_editing_the_sweeps(tmp_path: Path) -> None:
    world = World(tmp_path)
    try:
        path = add_a_new_command(world)
        command = next(c for c in leaf_commands(world.h.bot) if c.path == path)
        assert {o["type"] for o in command.options} == set(OPTION_TYPES)
        assert command.requires == ("commissioner",)

        # the fuzz: hostile values at every length the options allow; answers Discord takes, refusals private
        @settings(max_examples=int(os.environ.get("SIDELINE_FUZZ_EXAMPLES", "30")) // 5 + 5, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], database=None)
        @given(options=command_strategy(world, command), actor=st.sampled_from(world.actors))
        def fuzz(options: dict[str, Any], actor: Member) -> None:
            world.loop.run_until_complete(run_one(world, command, actor, options, None))

        fuzz()
        # the permission matrix: a player is refused with nothing written
        options = plausible_options(world, command)
        cause, changed = world.loop.run_until_complete(run(world, path, world.sample.player("Bea Quinn"), options))
        assert isinstance(cause, UserFacingError) and changed == []
        # the isolation probes: a value naming the first server's objects for every option
        for k in range(3):
            assert missing_required(command, probe_options(probe_world(world), command, k)) == []
        # and the commissioner's at-the-limit note comes back within Discord's 2,000 characters
        options["note"] = "<@500000000000000001> " * 45 + "x" * 10
        answer = world.loop.run_until_complete(world.h.slash(path, as_=world.sample.commissioner(), **options))
        assert answer.ephemeral and 1900 < len(answer.content) <= 2000, len(answer.content)
        world.h.discord.check()
    finally:
        world.close()
