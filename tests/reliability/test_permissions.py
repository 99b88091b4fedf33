"""The permission matrix, generated from the command tree so a new command cannot skip it.

Every privileged command (``extras["requires"]``) is run by people who hold none of its roles
(a player, the captain of a team not in the game, a referee, a member with no league role) and
must be refused with nothing written. That the roles it names succeed is checked in
``test_permissions_allowed.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.errors import UserFacingError
from tests.conftest import CHANNELS, ROLES
from tests.harness import Attachment, Member
from tests.reliability.commands import DESTRUCTIVE, LeafCommand, leaf_commands, within_length
from tests.reliability.snapshot import changed_tables, snapshot
from tests.reliability.test_fuzz_commands import COMMANDS, World

DATA = Path(__file__).resolve().parents[1] / "data"
PLAUSIBLE = {"game": "G1", "team": "Hawks", "division": "North", "infraction": "tripping", "status": "in",
             "outcome": "upheld", "decided": "regulation"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = World(tmp_path_factory.mktemp("perm"))
    yield w
    w.close()


def plausible_options(world: World, command: LeafCommand) -> dict[str, Any]:
    """Values a real user would send: the sample league's game, team and players."""
    out: dict[str, Any] = {}
    for option in command.options:
        name, kind = option["name"], option["type"]
        if not option.get("required") and name not in ("game", "team", *DESTRUCTIVE):
            continue
        if name in DESTRUCTIVE:
            assert DESTRUCTIVE[name] in [c["value"] for c in option["choices"]], (command.path, name)
            out[name] = DESTRUCTIVE[name]
        elif option.get("choices"):
            out[name] = option["choices"][0]["value"]
        elif kind == 3:
            out[name] = within_length(option, PLAUSIBLE.get(
                name, "Alice Hart" if "shoot" in name or "player" in name else "A note"))
        elif kind == 4:
            out[name] = max(option.get("min_value", 1), min(1, option.get("max_value", 1)))
        elif kind == 10:
            out[name] = float(option.get("min_value", 1))
        elif kind == 5:
            out[name] = False
        elif kind in (6, 9):
            out[name] = world.sample.player("Alice Hart")
        elif kind == 7:
            out[name] = discord.Object(CHANNELS["announcements"])
        elif kind == 8:
            out[name] = discord.Object(ROLES["captain"])
        elif kind == 11:
            out[name] = Attachment("teams.csv", (DATA / "teams.csv").read_bytes())
        else:
            raise AssertionError(f"{command.path}: no plausible value for option {name!r} of type {kind}")
    return out


def people(world: World) -> dict[str, Member]:
    return {"player": world.sample.player("Bea Quinn"), "captain of another team": world.sample.captain("Bears"),
            "referee": world.sample.referee(), "timekeeper": world.sample.timekeeper(),
            "no league role": world.sample.stranger()}


ROLE_OF = {"player": set(), "captain of another team": {"captain"}, "referee": {"referee"},
           "timekeeper": {"timekeeper"}, "no league role": set()}


async def run(world: World, path: str, actor: Member,
              options: dict[str, Any]) -> tuple[BaseException | None, list[str]]:
    before = await snapshot(world.h.bot.sessions)
    reply = await world.h.slash(path, as_=actor, **options)
    outcome = world.outcomes.pop(int(reply.first.path.split("/")[2]), None)
    cause = None if outcome is None else (getattr(outcome, "original", None) or outcome.__cause__ or outcome)
    return cause, changed_tables(before, await snapshot(world.h.bot.sessions))


@pytest.mark.parametrize("path", COMMANDS)
def test_people_without_the_role_are_refused_and_nothing_is_written(world: World, path: str) -> None:
    command = next(c for c in leaf_commands(world.h.bot) if c.path == path)
    if not command.privileged:
        pytest.skip(f"{path} is for everyone")
    options = plausible_options(world, command)
    for who, actor in people(world).items():
        if ROLE_OF[who] & set(command.requires) and who != "captain of another team":
            continue
        cause, changed = world.loop.run_until_complete(run(world, path, actor, options))
        assert isinstance(cause, UserFacingError), f"{path} as {who}: not refused ({cause!r})"
        assert changed == [], f"{path} as {who}: refused but wrote {changed}"
