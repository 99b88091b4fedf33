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


def unbounded_text_options(command: dict[str, Any], path: str = "") -> list[str]:
    """Text options Discord would let through at any length (up to its own 6,000): a string option
    with neither a max_length nor a fixed list of choices."""
    where = f"{path} {command['name']}".strip()
    found: list[str] = []
    for option in command.get("options") or []:
        if option["type"] in (1, 2):
            found += unbounded_text_options(option, where)
        elif option["type"] == 3 and option.get("max_length") is None and not option.get("choices"):
            found.append(f"/{where} option {option['name']}: add max_length")
    return found


async def test_every_text_option_says_how_long_it_may_be(harness: Harness) -> None:
    """Discord refuses a value longer than max_length before the bot sees it, and discord.py checks
    nothing: without one, a 6,000-character team name or citation reaches the bot (and whatever echoes
    it back fails). Each option gets a length that fits what it is (cogs/_common.py ``GameCode``,
    ``TeamName``; bot/league/messages.py ``TEXT_LIMIT`` for messages)."""
    payload = [c.to_dict(harness.bot.tree) for c in harness.bot.tree.get_commands()]
    problems = [p for command in payload for p in unbounded_text_options(command)]
    assert sum(len(text_options(command)) for command in payload) >= 50  # the tree was read
    assert not problems, "Discord takes any length for these (up to 6,000 characters):\n" + "\n".join(problems)


def text_options(command: dict[str, Any]) -> list[dict[str, Any]]:
    """Every text option of the command, however deep."""
    out: list[dict[str, Any]] = []
    for option in command.get("options") or []:
        out += text_options(option) if option["type"] in (1, 2) else [option] * (option["type"] == 3)
    return out


def test_an_option_without_a_length_is_named_as_the_coordinator_reads_it() -> None:
    command = {"name": "gamesheet", "options": [{"name": "post", "type": 1, "options": [
        {"name": "game", "type": 3, "max_length": 64}, {"name": "notes", "type": 3},
        {"name": "side", "type": 3, "choices": [{"name": "home", "value": "home"}]}]}]}
    assert unbounded_text_options(command) == ["/gamesheet post option notes: add max_length"]


async def test_every_command_is_guild_only(harness: Harness) -> None:
    for command in harness.bot.tree.get_commands():
        data = command.to_dict(harness.bot.tree)
        assert data.get("contexts") == [0], f"/{command.name} is usable in DMs"
