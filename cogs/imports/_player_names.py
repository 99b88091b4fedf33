"""/import players: a discord_id cell may be a username, resolved against the server's members with
``Guild.query_members`` (no privileged intent needed); nothing is imported until every name resolves."""

from __future__ import annotations

import discord

from bot.discord_text import clean_user_text
from bot.errors import InvalidInput
from bot.services.imports.csv_rows import CsvImportError, decode
from bot.services.imports.player_names import Candidate, named_rows, pick, with_ids

MAX_NAMES = 200  # one gateway query per distinct name


async def resolve_player_names(guild: discord.Guild | None, data: bytes) -> bytes:
    try:
        text = decode(data)
    except CsvImportError:
        return data  # the importer reports it
    named = named_rows(text)
    if not named:
        return data
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
                                   "or use ids in the discord_id column.") from None
            found[key] = pick(name, [Candidate(m.id, m.name, m.display_name) for m in members])
    problems = [f"• line {line}: {clean_user_text(str(found[n.casefold()]), 120)}" for line, n in named
                if isinstance(found[n.casefold()], str)]
    if problems:
        raise InvalidInput(clip_lines("Nothing was imported. Fix these and upload the file again:", problems))
    return with_ids(text, {line: int(found[n.casefold()]) for line, n in named}).encode("utf-8")


def clip_lines(head: str, lines: list[str], limit: int = 15) -> str:
    more = f"\n… and {len(lines) - limit} more" if len(lines) > limit else ""
    return head + "\n" + "\n".join(lines[:limit]) + more
