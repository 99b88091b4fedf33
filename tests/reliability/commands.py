"""The command tree as Discord sees it: every leaf command with its options, for generated tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def leaf_commands(bot: SidelineBot) -> list[LeafCommand]:
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

    for command in bot.tree.get_commands():
        walk(command, command.to_dict(bot.tree), "")
    return sorted(leaves, key=lambda c: c.path)
