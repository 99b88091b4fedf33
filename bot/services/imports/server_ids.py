"""The people and channels a teams or players file names, and which of them the server doesn't have.

A captain ``123`` or a channel ``999`` imports fine and breaks the season later: the captain can't
use a captain command, the team's reminders go nowhere. Discord is asked (in cogs/) which of these
ids are members and channels of the server the file was uploaded in; this module says what to ask
and, from the answer, which lines to refuse. The CLI, with no server to ask, checks none of this.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.discord_text import clean_user_text
from bot.services.imports.csv_rows import CsvImportError, Problem, read_players, read_teams

JOIN_FIRST = "check the id, or have them join the server first"


@dataclass(frozen=True)
class Reference:
    """One id a row gives: a member (``member``) or a channel, and how the row names it."""

    line: int
    id: int
    member: bool
    label: str  # "Hawks: captain", "discord_id"


@dataclass(frozen=True)
class References:
    found: list[Reference]
    problems: list[Problem]  # the file's own mistakes, reported with the server's in one round

    def member_ids(self) -> set[int]:
        return {r.id for r in self.found if r.member}


def references(kind: str, text: str) -> References:
    """The ids of a teams or players file's good rows (none for other kinds, or a file that can't be read)."""
    try:
        if kind == "teams":
            teams = read_teams(text)
            found = [Reference(r.line, c, True, f"{clean_user_text(r.team, 100)}: captain")
                     for r in teams.rows for c in r.captain_ids]
            found += [Reference(r.line, r.channel_id, False, f"{clean_user_text(r.team, 100)}: channel")
                      for r in teams.rows if r.channel_id is not None]
            return References(sorted(found, key=lambda r: r.line), teams.problems)
        if kind == "players":
            players = read_players(text)
            return References([Reference(r.line, r.discord_id, True, "discord_id") for r in players.rows],
                              players.problems)
    except CsvImportError:
        pass  # the importer reports it
    return References([], [])


def not_on_server(refs: References, members: Collection[int], channels: Collection[int]) -> list[Problem]:
    """Each id the server doesn't have, by line; with the file's own problems when there is any."""
    unknown = []
    for r in refs.found:
        if r.member and r.id not in members:
            unknown.append(Problem(r.line, f"{r.label} {r.id} is not a member of this server ({JOIN_FIRST})"))
        elif not r.member and r.id not in channels:
            unknown.append(Problem(r.line, f"{r.label} {r.id} is not a channel of this server"))
    return sorted(unknown + refs.problems, key=lambda p: p.line) if unknown else []
