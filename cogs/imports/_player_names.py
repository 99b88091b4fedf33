"""/import players and teams: a player's discord_id or a team's captain may be a username, resolved
against the server's members with ``Guild.query_members`` (no privileged intent needed); nothing is
imported until every name resolves."""

from __future__ import annotations

import discord

from bot.discord_text import clean_user_text
from bot.errors import InvalidInput
from bot.services.imports.csv_rows import CsvImportError, decode
from bot.services.imports.player_names import (
    Candidate,
    captains_with_ids,
    named_captains,
    named_rows,
    pick,
    with_ids,
)

MAX_NAMES = 200  # one gateway query per distinct name


async def resolve_player_names(guild: discord.Guild | None, data: bytes) -> bytes:
    """A players file with each username in its discord_id column replaced by the member's id."""
    try:
        text = decode(data)
    except CsvImportError:
        return data  # the importer reports it
    named = named_rows(text)
    if not named:
        return data
    found = await _members(guild, named, "discord_id")
    return with_ids(text, {line: found[n.casefold()] for line, n in named}).encode("utf-8")


async def resolve_captain_names(guild: discord.Guild | None, data: bytes) -> bytes:
    """A teams file with each captain's username replaced by the member's id."""
    try:
        text = decode(data)
    except CsvImportError:
        return data
    named = named_captains(text)
    if not named:
        return data
    return captains_with_ids(text, await _members(guild, named, "captain_discord_ids")).encode("utf-8")


async def _members(guild: discord.Guild | None, named: list[tuple[int, str]], column: str) -> dict[str, int]:
    """The member each name means (by the name, any case), or a refusal naming every line that doesn't."""
    if guild is None or len({n.casefold() for _, n in named}) > MAX_NAMES:
        raise InvalidInput(f"Nothing was imported: give at most {MAX_NAMES} usernames per file, or ids.")
    found: dict[str, int | str] = {}
    for _, name in named:
        key = name.casefold()
        if key not in found:
            try:
                members = await guild.query_members(query=name[:100], limit=25) if name else []
            except (TimeoutError, discord.ClientException):  # no gateway answer (or not connected)
                raise InvalidInput("Nothing was imported: Discord didn't answer the member search. Try again, "
                                   f"or use ids in the {column} column.") from None
            found[key] = pick(name, [Candidate(m.id, m.name, m.display_name) for m in members])
    problems = [f"• line {line}: {clean_user_text(str(found[n.casefold()]), 120)}" for line, n in named
                if isinstance(found[n.casefold()], str)]
    if problems:
        raise InvalidInput(clip_lines("Nothing was imported. Fix these and upload the file again:", problems))
    return {key: int(value) for key, value in found.items()}


def clip_lines(head: str, lines: list[str], limit: int = 15) -> str:
    more = f"\n… and {len(lines) - limit} more" if len(lines) > limit else ""
    return head + "\n" + "\n".join(lines[:limit]) + more
