"""Reading and storing a team's game sheet: what its answers put on it, what is stored, and the sync
that brings the stored lines up to the answers (bot/league/gamesheets/sheet.py decides).

Other features ask this too: goals need the sheet (a scorer not on it, youth 3.4 (1)), the late-start
prompt counts it, and the result hook freezes it (``freeze``) so games played count what it said then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.league.gamesheets.sheet import Candidate, Entry, Line, lines, sync
from bot.services.availability.away import answers_as_read
from bot.services.availability.guests import game_guests, guest_counts
from bot.services.shared.attendance import roster_answers
from bot.services.shared.eligibility import SuspensionCheck, suspension_reasons
from bot.services.shared.game_spares import team_spares
from storage.db import upsert_insert
from storage.models import GameSheet, GameSheetEntry, Player


@dataclass(frozen=True)
class TeamSheet:
    """One team's sheet as it reads now, and whether it still follows the team's answers."""

    team_id: int
    lines: tuple[Line, ...]
    entries: tuple[Entry, ...]  # what is stored (removed lines too)
    confirmed_by: str | None
    confirmed_at: datetime | None
    frozen: bool


async def candidates(session: AsyncSession, league: LeagueSettings, league_id: int, game_id: int,
                     starts_at: datetime, team_id: int, suspensions: SuspensionCheck) -> list[Candidate]:
    """Who the team's answers put on its sheet: players "in" (away ranges read as /whoisin does), spares
    who took a spot, guests who count; never a suspended player."""
    roster = await roster_answers(session, league_id, team_id, game_id)
    read = (await answers_as_read(session, league_id, starts_at,
                                  [(r.player_id, r.status, r.answered_at) for r in roster])).status
    found = [Candidate(r.player_id, None, r.name, r.position, "checkin") for r in roster
             if read[r.player_id] == "in"]
    found += [Candidate(s.player_id, None, s.name, s.position, "spare")
              for s in await team_spares(session, league_id, game_id, team_id)]
    guests = [g for g in await game_guests(session, league_id, game_id, team_id)
              if guest_counts(league.rules.lineup, g)]
    members = [g.discord_id for g in guests if g.discord_id is not None]
    players: dict[int, Player] = {}
    if members:
        players = {p.discord_id: p for p in (await session.scalars(select(Player).where(
            Player.league_id == league_id, Player.discord_id.in_(members)))).all() if p.discord_id is not None}
    for g in guests:
        player = players.get(g.discord_id) if g.discord_id is not None else None
        found.append(Candidate(player.id if player else None, g.id, player.name if player else g.name, "skater",
                               "guest"))
    suspended = await suspension_reasons(suspensions, session, league_id,
                                         [c.player_id for c in found if c.player_id is not None], game_id)
    return [c for c in found if c.player_id not in suspended]


def _entry(row: GameSheetEntry) -> Entry:
    return Entry(row.id, row.player_id, row.guest_id, row.name, row.position, row.source, row.number,
                 row.removed_at is not None)


async def stored(session: AsyncSession, game_id: int, team_id: int) -> list[GameSheetEntry]:
    return list((await session.scalars(select(GameSheetEntry).where(
        GameSheetEntry.game_id == game_id, GameSheetEntry.team_id == team_id).order_by(GameSheetEntry.id))).all())


async def sheet_row(session: AsyncSession, game_id: int, team_id: int) -> GameSheet | None:
    return await session.get(GameSheet, (game_id, team_id))


async def team_sheet(session: AsyncSession, league: LeagueSettings, league_id: int, game_id: int,
                     starts_at: datetime, team_id: int, suspensions: SuspensionCheck, *,
                     final: bool) -> TeamSheet:
    """The team's sheet as it reads now (writes nothing): frozen once confirmed or once the game is final."""
    row = await sheet_row(session, game_id, team_id)
    frozen = final or (row is not None and row.frozen_at is not None)
    entries = [_entry(e) for e in await stored(session, game_id, team_id)]
    wanted = [] if frozen else await candidates(session, league, league_id, game_id, starts_at, team_id,
                                                 suspensions)
    return TeamSheet(team_id, tuple(lines(wanted, entries, frozen=frozen)), tuple(entries),
                     row.confirmed_by_name if row is not None and row.confirmed_at is not None else None,
                     row.confirmed_at if row is not None else None, frozen)


async def store_sync(session: AsyncSession, league: LeagueSettings, league_id: int, game_id: int,
                     starts_at: datetime, team_id: int, suspensions: SuspensionCheck, now: datetime, *,
                     force: bool = False) -> list[GameSheetEntry]:
    """Store what the team's answers put on its sheet, unless it is frozen (``force``: even though the game
    is final, for the result hook); returns the stored lines."""
    row = await sheet_row(session, game_id, team_id)
    rows = await stored(session, game_id, team_id)
    if row is not None and row.frozen_at is not None and not force:
        return rows
    wanted = await candidates(session, league, league_id, game_id, starts_at, team_id, suspensions)
    plan = sync(wanted, [_entry(e) for e in rows])
    if plan.drop:
        await session.execute(delete(GameSheetEntry).where(GameSheetEntry.id.in_(plan.drop)))
    for c in plan.add:
        session.add(GameSheetEntry(league_id=league_id, game_id=game_id, team_id=team_id, player_id=c.player_id,
                                   guest_id=c.guest_id, name=c.name[:100], position=c.position, source=c.source,
                                   added_at=now))
    if plan.changes:
        await session.flush()
        rows = await stored(session, game_id, team_id)
    return rows


async def ensure_sheet(session: AsyncSession, league_id: int, game_id: int, team_id: int) -> GameSheet:
    """The team's sheet row, made if there is none (one per game and team, even when two ask at once)."""
    await session.execute(upsert_insert(session)(GameSheet).values(
        game_id=game_id, team_id=team_id, league_id=league_id, confirmed_by_name="").on_conflict_do_nothing(
        index_elements=["game_id", "team_id"]))
    row = await session.get(GameSheet, (game_id, team_id), populate_existing=True)
    assert row is not None
    return row


async def freeze(session: AsyncSession, league: LeagueSettings, league_id: int, game_id: int, starts_at: datetime,
                 team_ids: Sequence[int], suspensions: SuspensionCheck, now: datetime) -> None:
    """The game has its result: each team's sheet is stored as its answers left it (unless frozen before)
    and follows them no more. Idempotent: a corrected result changes nothing here."""
    for team_id in team_ids:
        row = await ensure_sheet(session, league_id, game_id, team_id)
        if row.frozen_at is not None:
            continue
        await store_sync(session, league, league_id, game_id, starts_at, team_id, suspensions, now, force=True)
        row.frozen_at = now
