"""/import teams|players: the captains, players and channels a file names must be this server's.

Members are asked of Discord by id (``Guild.query_members``, a hundred at a time; no privileged
intent needed); channels are the server's own, so one server's file can't point a team at another
server's channel. Nothing is imported while any id is unknown.
"""

from __future__ import annotations

import discord

from bot.errors import InvalidInput
from bot.services.imports.csv_rows import CsvImportError, decode
from bot.services.imports.server_ids import not_on_server, references
from cogs.imports._player_names import clip_lines

PER_QUERY = 100  # Discord's most user ids per member request


async def check_on_server(guild: discord.Guild | None, kind: str, data: bytes) -> None:
    try:
        text = decode(data)
    except CsvImportError:
        return  # the importer reports it
    refs = references(kind, text)
    if not refs.found:
        return
    wanted = sorted(refs.member_ids())
    members: set[int] = set()
    channels: set[int] = set()
    if guild is not None:
        channels = {r.id for r in refs.found if not r.member and guild.get_channel_or_thread(r.id) is not None}
        for start in range(0, len(wanted), PER_QUERY):
            chunk = wanted[start:start + PER_QUERY]
            try:
                found = await guild.query_members(user_ids=chunk, limit=PER_QUERY, cache=False)
            except (TimeoutError, discord.ClientException):  # no gateway answer (or not connected)
                raise InvalidInput("Nothing was imported: Discord didn't answer when I checked the file's members "
                                   "against this server. Try again in a minute.") from None
            members |= {m.id for m in found}
    problems = not_on_server(refs, members, channels)
    if problems:
        raise InvalidInput(clip_lines("Nothing was imported. Fix these and upload the file again:",
                                      [f"• {p}" for p in problems]))
