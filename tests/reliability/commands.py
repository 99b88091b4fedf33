"""The command tree as Discord sees it: every leaf command with its options, for generated tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.run.app import SidelineBot

#: Optional choices that make a command do more: the sweeps send them at their most destructive, so a
#: refusal (or a command from another server) is shown to write nothing even then. /season start
#: rosters:clear takes every player of the league off their team.
DESTRUCTIVE = {"rosters": "clear"}


@dataclass(frozen=True)
class LeafCommand:
    path: str  # "/roster add"
    options: tuple[dict[str, Any], ...]
    requires: tuple[str, ...]  # roles from the command's extras; () = everyone

    @property
    def privileged(self) -> bool:
        return bool(self.requires)


#: Discord's option types (1 and 2 are subcommands and groups): the sweeps give each a value.
OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 7: "channel", 8: "role", 9: "mentionable",
                10: "number", 11: "attachment"}


def leaf_commands(bot: SidelineBot) -> list[LeafCommand]:
    """Every slash command a user can run, at any depth of groups, global or for one server (a
    context menu has no options to send and no slash path: the sweeps can't type it)."""
    leaves: list[LeafCommand] = []

    def walk(command: Any, data: dict[str, Any], prefix: str) -> None:
        path = f"{prefix} {data['name']}".strip()
        options = data.get("options") or []
        subs = [o for o in options if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk(command.get_command(sub["name"]), sub, path)
        else:
            leaves.append(LeafCommand(f"/{path}", tuple(options), tuple(command.extras.get("requires", ()))))

    servers = {guild.id for guild in bot.guilds} | {league.guild_id for league in bot.settings.leagues}
    guilds = [None, *(discord.Object(id=server) for server in sorted(servers))]
    for guild in guilds:
        for command in bot.tree.get_commands(guild=guild, type=discord.AppCommandType.chat_input):
            walk(command, command.to_dict(bot.tree), "")
    return sorted({c.path: c for c in leaves}.values(), key=lambda c: c.path)


def within_length(option: dict[str, Any], text: str) -> str:
    """A sweep's text for an option, cut or padded to the lengths Discord lets a user type in it."""
    text = text[:option.get("max_length", len(text))]
    return text + "x" * max(0, option.get("min_length", 0) - len(text))
