"""The command tree as tree.sync() would PUT it must be one Discord accepts (docs/testing.md)."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.harness import Harness

NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)
OPTION_TYPES_WITH_CHOICES = {3, 4, 10}


def check_option(path: str, option: dict[str, Any], problems: list[str]) -> None:
    name = option["name"]
    where = f"{path} {name}"
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: bad name")
    if not 1 <= len(option.get("description", "")) <= 100:
        problems.append(f"{where}: description must be 1-100 characters")
    choices = option.get("choices") or []
    if len(choices) > 25:
        problems.append(f"{where}: more than 25 choices")
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: choices together with autocomplete")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= 100:
            problems.append(f"{where}: choice name length")
        if isinstance(choice["value"], str) and len(choice["value"]) > 100:
            problems.append(f"{where}: choice value too long")
    if option.get("type") == 3 and option.get("max_length") is not None and not (
            1 <= option["max_length"] <= 6000):
        problems.append(f"{where}: max_length out of range")
    sub = option.get("options") or []
    if option["type"] in (1, 2):
        check_options(where, sub, problems)


def check_options(path: str, options: list[dict[str, Any]], problems: list[str]) -> None:
    if len(options) > 25:
        problems.append(f"{path}: more than 25 options")
    seen_optional = False
    for option in options:
        if option["type"] not in (1, 2):
            if option.get("required"):
                if seen_optional:
                    problems.append(f"{path} {option['name']}: required option after an optional one")
            else:
                seen_optional = True
        check_option(path, option, problems)
    names = [o["name"] for o in options]
    if len(names) != len(set(names)):
        problems.append(f"{path}: duplicate option names")


async def test_command_tree_is_one_discord_accepts(harness: Harness) -> None:
    payload = [c.to_dict(harness.bot.tree) for c in harness.bot.tree.get_commands()]
    json.dumps(payload)  # serialisable exactly as sync() would send it
    problems: list[str] = []
    slash = [c for c in payload if c.get("type", 1) == 1]
    assert 1 <= len(slash) <= 100
    names = [c["name"] for c in payload]
    assert len(names) == len(set(names)), "duplicate top-level commands"
    for command in slash:
        where = f"/{command['name']}"
        if not NAME.match(command["name"]) or command["name"] != command["name"].lower():
            problems.append(f"{where}: bad name")
        if not 1 <= len(command.get("description", "")) <= 100:
            problems.append(f"{where}: description must be 1-100 characters")
        check_options(where, command.get("options") or [], problems)
    assert not problems, "\n".join(problems)


async def test_every_command_is_guild_only(harness: Harness) -> None:
    for command in harness.bot.tree.get_commands():
        data = command.to_dict(harness.bot.tree)
        assert data.get("contexts") == [0], f"/{command.name} is usable in DMs"
