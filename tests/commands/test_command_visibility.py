"""Discord shows only what a member may use: every commissioner-only command, as tree.sync() PUTs it,
carries default_member_permissions (Manage Server). Captain and referee commands stay visible."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.access import Role
from bot.client.tree import REQUIRES, hide_commissioner_commands, requires
from tests.harness import Harness

MANAGE_GUILD = discord.Permissions(manage_guild=True).value  # as tree.sync() sends it


def leaves(command: Any) -> list[app_commands.Command[Any, ..., Any]]:
    if isinstance(command, app_commands.Group):
        return [c for c in command.walk_commands() if isinstance(c, app_commands.Command)]
    return [command]


def unmarked(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Commissioner-only top-level commands whose synced payload lacks default_member_permissions."""
    problems = []
    for command in tree.get_commands():
        found = leaves(command)
        only_commissioners = found and all(c.extras.get(REQUIRES) == ("commissioner",) for c in found)
        payload = command.to_dict(tree)
        if only_commissioners and payload.get("default_member_permissions") != MANAGE_GUILD:
            problems.append(command.name)
    return problems


async def test_every_commissioner_only_command_is_hidden_from_players(harness: Harness) -> None:
    assert unmarked(harness.bot.tree) == []
    payload = {c.name: c.to_dict(harness.bot.tree) for c in harness.bot.tree.get_commands()}
    for name in ("setup", "announce", "game", "deadline", "import"):
        assert payload[name]["default_member_permissions"] == MANAGE_GUILD, name
    for name in ("schedule", "checkin", "roster", "lineup", "result"):  # players, captains, referees
        assert payload[name].get("default_member_permissions") is None, name


async def test_a_new_commissioner_command_without_the_mark_is_caught(harness: Harness) -> None:
    tree = harness.bot.tree

    async def callback(interaction: discord.Interaction) -> None: ...

    new = app_commands.Command(name="newthing", description="x", callback=callback,
                               extras=requires(Role.COMMISSIONER))
    tree.add_command(new)
    try:
        assert unmarked(tree) == ["newthing"]  # the guard fails for an unmarked one ...
        assert "newthing" in hide_commissioner_commands(tree)  # ... and start-up marks it
        assert unmarked(tree) == []
    finally:
        tree.remove_command("newthing")
