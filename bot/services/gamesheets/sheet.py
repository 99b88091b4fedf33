"""/gamesheet show|add|remove|confirm: each team's sheet for a game, changed by hand and logged.

What is on a sheet, who may change it and when it stops following the team's answers is
bot/league/gamesheets/sheet.py's. Choices the spec leaves open, decided here:
- Anyone in the league may read a sheet (names and positions, as the standings are public); who made
  each change is shown with it.
- Someone added by hand is a league player on the team's roster or a spare who took a spot with it, not
  suspended for the game, and not on the other team's sheet. A guest is added with /guest add.
- A change first stores what the answers say (so the change is made to the sheet as everyone saw it).
- A cancelled game has no sheet to change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import AllLeagues, LeagueSettings
from bot.discord_text import clean_user_text, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.gamesheets.sheet import Changer, Line, Refusal, line_key, may_change, may_confirm
from bot.services.gamesheets.lines import TeamSheet, ensure_sheet, freeze, store_sync, stored, team_sheet
from bot.services.people import membership
from bot.services.shared.attendance import GameRef, game_ref
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import find_game, lock_game
from bot.services.shared.guardians import Pick, player_named
from bot.services.stats.lines import refresh_game
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, GameSheetChange, GameSheetEntry, GameSpare, League, Player, RosterEntry, Team
from storage.text import printable

RECENT_CHANGES = 5
RECENT_GAMES = timedelta(days=14)
MAX_NUMBER = 999
_MENTION = re.compile(r"^<@!?(\d{1,20})>$")
_KEY = re.compile(r"^(player|guest):(\d{1,19})$")


@dataclass(frozen=True)
class ChangeLine:
    action: str
    name: str
    by: str
    at: datetime


@dataclass(frozen=True)
class TeamSheetView:
    team: str
    lines: tuple[Line, ...]
    confirmed_by: str | None
    confirmed_at: datetime | None
    frozen: bool
    changes: tuple[ChangeLine, ...]


@dataclass(frozen=True)
class SheetView:
    game: GameRef
    teams: tuple[TeamSheetView, ...]


@dataclass(frozen=True)
class SheetChanged:
    """What a change did (``action``: added, already, removed, not-there, confirmed, already-confirmed)."""

    game: GameRef
    team: str
    action: str
    name: str
    sheet: TeamSheetView


def _changer(caller: Caller, captain_of: frozenset[int]) -> Changer:
    return Changer(commissioner=caller.is_commissioner, official=caller.is_referee or caller.is_timekeeper,
                   captain_of=captain_of if caller.has_captain_role else frozenset())


def _refuse(refusal: Refusal, game: Game, team: Team, verb: str) -> NotAllowed:
    if refusal == "other_team":
        return NotAllowed(f"Only {team.name}'s captain, the officials or a commissioner can {verb} {team.name}'s "
                          "sheet.")
    if refusal == "started":
        if verb == "confirm":
            return NotAllowed(f"{game.code} has its result: an official or a commissioner confirms {team.name}'s "
                              "sheet now.")
        return NotAllowed(f"{game.code} has started: {team.name}'s sheet is changed by the officials and the "
                          "commissioners now.")
    return NotAllowed(f"Only a team's captain, the officials or a commissioner can {verb} a game sheet.")


@retried_on_disconnect
class GameSheetService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, leagues: AllLeagues, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.leagues = leagues
        self.suspensions = require_check(suspensions, "game sheets")

    # --- reading ---------------------------------------------------------------------------------------
    async def show(self, caller: Caller, game_code: str, team_name: str | None = None) -> SheetView:
        """Each team's sheet (or the named team's), as it reads now."""
        async with self.sessions() as session:
            game = await find_game(session, caller, game_code)
            teams = _sides(game, team_name)
            views = [await self._view(session, caller.league, game, t) for t in teams]
            return SheetView(game_ref(game), tuple(views))

    async def _view(self, session: AsyncSession, league: LeagueSettings, game: Game, team: Team) -> TeamSheetView:
        sheet = await team_sheet(session, league, game.league_id, game.id, game.starts_at, team.id, self.suspensions,
                                 final=game.status == "final")
        return _view_of(team, sheet, await _changes(session, game.id, team.id))

    async def games(self, caller: Caller, text: str) -> list[Game]:
        """Games for autocomplete: from two weeks back (sheets are corrected after a game), soonest first."""
        async with self.sessions() as session:
            return list(await lookups.search_games(session, caller.league_id, self.clock.now() - RECENT_GAMES, text))

    async def names(self, caller: Caller, game_code: str, text: str) -> list[tuple[str, str]]:
        """(label, value) of the game's sheet lines matching the text, for autocomplete."""
        needle = text.strip().casefold()
        async with self.sessions() as session:
            game = await lookups.game_by_code(session, caller.league_id, printable(game_code).strip())
            if game is None:
                return []
            found = []
            for team in (game.home, game.away):
                sheet = await team_sheet(session, caller.league, game.league_id, game.id, game.starts_at, team.id,
                                         self.suspensions, final=game.status == "final")
                found += [(f"{line.label} · {team.name}", line.key) for line in sheet.lines
                          if not needle or needle in line.name.casefold()]
            return found[:25]

    # --- changing --------------------------------------------------------------------------------------
    async def add(self, caller: Caller, game_code: str, discord_id: Pick, *, team_name: str | None = None,
                  number: int | None = None) -> SheetChanged:
        """A captain (own team, before the start), an official or a commissioner puts a player on a sheet:
        a member, or by name a player without a Discord account."""
        self._may_use(caller)
        if number is not None and not 0 <= number <= MAX_NUMBER:
            raise InvalidInput(f"A sweater number is 0 to {MAX_NUMBER}.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await self._open_game(session, caller, game_code)
            player = (await player_named(session, caller.league_id, caller.league.name, discord_id)
                      if isinstance(discord_id, str) else
                      await lookups.player_by_discord(session, caller.league_id, discord_id))
            if player is None:
                raise NotFound(f"That member isn't a player in {caller.league.name}: a captain adds them to the "
                               "roster first (/roster add).")
            team = await self._team_for(session, caller, game, player, team_name)
            await self._check_may_change(session, caller, game, team, now, "change")
            position = await self._eligible(session, caller, game, team, player)
            rows = await self._synced(session, caller.league, game, team, now)
            other = next(t for t in (game.home, game.away) if t.id != team.id)
            if await _on_sheet(session, game.id, player.id, other.id):
                raise Conflict(f"{player.name} is on {other.name}'s sheet for {game.code}: a player plays for one "
                               "side. Remove them there first.")
            line = next((r for r in rows if r.player_id == player.id), None)
            if line is not None and line.removed_at is None:
                if number is not None and line.number != number:
                    line.number = number
                    return await self._done(session, caller, game, team, "numbered", line.name, now)
                return await self._done(session, caller, game, team, "already", line.name, now, log=False)
            if line is None:
                line = GameSheetEntry(league_id=caller.league_id, game_id=game.id, team_id=team.id,
                                      player_id=player.id, name=player.name[:100], position=position,
                                      source="added", added_at=now)
                session.add(line)
            line.source, line.removed_at, line.removed_by = "added", None, None
            line.added_by, line.added_at = caller.discord_id, now
            if number is not None:
                line.number = number
            return await self._done(session, caller, game, team, "added", line.name, now)

    async def remove(self, caller: Caller, game_code: str, who: str) -> SheetChanged:
        """Take someone off a sheet: kept as removed, so the team's answers don't put them back."""
        self._may_use(caller)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await self._open_game(session, caller, game_code)
            found: list[tuple[Team, Line]] = []
            for team in (game.home, game.away):
                sheet = await team_sheet(session, caller.league, game.league_id, game.id, game.starts_at, team.id,
                                         self.suspensions, final=game.status == "final")
                found += [(team, line) for line in sheet.lines if await _is(session, caller, line, who)]
            if not found:
                raise NotFound(f"Nobody called “{clean_user_text(who, 100)}” is on a sheet for {game.code}. Pick "
                               "one from the suggestions.")
            if len(found) > 1:
                raise Conflict(f"More than one line of {game.code} is called “{clean_user_text(who, 100)}”: pick one "
                               "from the suggestions.")
            team, line = found[0]
            await self._check_may_change(session, caller, game, team, now, "change")
            rows = await self._synced(session, caller.league, game, team, now)  # the sheet as everyone saw it
            row = next(r for r in rows if line_key(r.player_id, r.guest_id) == line.key)
            row.removed_at, row.removed_by = now, caller.discord_id
            return await self._done(session, caller, game, team, "removed", row.name, now)

    async def confirm(self, caller: Caller, game_code: str, team_name: str) -> SheetChanged:
        """The captain or an official confirms a team's sheet: it no longer follows the team's answers."""
        self._may_use(caller)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await self._open_game(session, caller, game_code)
            team = _sides(game, team_name)[0]
            member = await membership(session, caller)
            refusal = may_confirm(_changer(caller, member.captain_of), team.id, final=game.status == "final")
            if refusal is not None:
                raise _refuse(refusal, game, team, "confirm")
            rows = await self._synced(session, caller.league, game, team, now)
            sheet = await ensure_sheet(session, caller.league_id, game.id, team.id)
            if sheet.confirmed_at is not None:
                return await self._done(session, caller, game, team, "already-confirmed", sheet.confirmed_by_name,
                                        now, log=False)
            if not any(r.removed_at is None for r in rows):
                raise Conflict(f"{team.name}'s sheet for {game.code} has nobody on it yet: add the players first.")
            name = clean_user_text(caller.display_name, 100) or str(caller.discord_id)
            sheet.confirmed_by, sheet.confirmed_by_name, sheet.confirmed_at = caller.discord_id, name, now
            if sheet.frozen_at is None:
                sheet.frozen_at = now
            return await self._done(session, caller, game, team, "confirmed", "", now)

    async def freeze_at_result(self, session: AsyncSession, league_id: int, game_id: int) -> None:
        """The result hook (bot/services/results.py): the sheets are kept as they were when it was recorded."""
        game = await session.get(Game, game_id)
        league_key = await session.scalar(select(League.key).where(League.id == league_id))
        league = next((lg for lg in self.leagues if lg.key == league_key), None)
        if game is None or game.league_id != league_id or league is None:
            return
        await freeze(session, league, league_id, game.id, game.starts_at, game.team_ids(), self.suspensions,
                     self.clock.now())

    # --- helpers -----------------------------------------------------------------------------------------
    @staticmethod
    def _may_use(caller: Caller) -> None:
        caller.require(Role.CAPTAIN, Role.REFEREE, Role.TIMEKEEPER, Role.COMMISSIONER)

    @staticmethod
    async def _open_game(session: AsyncSession, caller: Caller, game_code: str) -> Game:
        game = await lock_game(session, caller, game_code)
        if game.status == "cancelled":
            raise Conflict(f"{game.code} was cancelled: it has no game sheet.")
        return game

    async def _check_may_change(self, session: AsyncSession, caller: Caller, game: Game, team: Team,
                                now: datetime, verb: str) -> None:
        member = await membership(session, caller)
        refusal = may_change(_changer(caller, member.captain_of), team.id, started=game.starts_at <= now)
        if refusal is not None:
            raise _refuse(refusal, game, team, verb)

    async def _synced(self, session: AsyncSession, league: LeagueSettings, game: Game, team: Team,
                      now: datetime) -> list[GameSheetEntry]:
        """The team's stored lines, brought up to its answers first unless the sheet is frozen."""
        if game.status == "final":  # its sheet stopped following the answers at the result
            return await stored(session, game.id, team.id)
        return await store_sync(session, league, game.league_id, game.id, game.starts_at, team.id, self.suspensions,
                                now)

    async def _team_for(self, session: AsyncSession, caller: Caller, game: Game, player: Player,
                        team_name: str | None) -> Team:
        if team_name is not None and team_name.strip():
            return _sides(game, team_name)[0]
        on_roster = await session.scalar(select(RosterEntry.team_id).where(
            RosterEntry.league_id == caller.league_id, RosterEntry.player_id == player.id))
        spare_for = await session.scalar(select(GameSpare.team_id).where(
            GameSpare.game_id == game.id, GameSpare.player_id == player.id).limit(1))
        for team_id in (on_roster, spare_for):
            for side in (game.home, game.away):
                if side.id == team_id:
                    return side
        raise InvalidInput(f"{player.name} is on neither {game.home.name}'s nor {game.away.name}'s roster: name the "
                           "team (`team`), and add them to its roster first.")

    async def _eligible(self, session: AsyncSession, caller: Caller, game: Game, team: Team,
                        player: Player) -> str:
        """The player's position for the team, if they may play this game for it; refuses why not."""
        entry = await session.scalar(select(RosterEntry).where(RosterEntry.league_id == caller.league_id,
                                                               RosterEntry.player_id == player.id))
        position = entry.position if entry is not None and entry.team_id == team.id else None
        if position is None:
            position = await session.scalar(select(GameSpare.position).where(
                GameSpare.game_id == game.id, GameSpare.team_id == team.id, GameSpare.player_id == player.id))
        if position is None:
            raise Conflict(f"{player.name} isn't on {team.name}'s roster nor a spare for it in {game.code}: a captain "
                           "adds them with /roster add, or asks for a spare with /spare request.")
        reason = await self.suspensions.reason(session, league_id=caller.league_id, player_id=player.id,
                                               game_id=game.id)
        if reason:
            raise Conflict(f"{player.name} can't be on the sheet for {game.code}: {reason}")
        return str(position)

    async def _done(self, session: AsyncSession, caller: Caller, game: Game, team: Team, action: str, name: str,
                    now: datetime, *, log: bool = True) -> SheetChanged:
        if log:
            session.add(GameSheetChange(league_id=caller.league_id, game_id=game.id, team_id=team.id,
                                        action="added" if action == "numbered" else action, name=name[:100],
                                        changed_by=caller.discord_id,
                                        changed_by_name=clean_user_text(caller.display_name, 100),
                                        changed_at=now))
        await session.flush()
        if log:  # the game's statistics count its sheets (once it has a result)
            await refresh_game(session, caller.league_id, game.id)
        view = await self._view(session, caller.league, game, team)
        return SheetChanged(game_ref(game), team.name, action, name, view)


async def _is(session: AsyncSession, caller: Caller, line: Line, who: str) -> bool:
    """Whether ``who`` (a mention, a suggestion's value or a name) names this line."""
    text = printable(who).strip()
    mention = _MENTION.match(text)
    if mention:
        player = await lookups.player_by_discord(session, caller.league_id, int(mention[1]))
        return player is not None and line.player_id == player.id
    if _KEY.match(text):
        return line.key == text
    return line.name.casefold() == text.casefold()


def _sides(game: Game, team_name: str | None) -> list[Team]:
    if team_name is None or not team_name.strip():
        return [game.home, game.away]
    typed = printable(team_name).strip().casefold()
    for team in (game.home, game.away):
        if team.name.casefold() == typed:
            return [team]
    raise InvalidInput(f"{game.code} is {game.home.name} vs {game.away.name}: pick one of those two teams.")


async def _on_sheet(session: AsyncSession, game_id: int, player_id: int, team_id: int) -> bool:
    return await session.scalar(select(GameSheetEntry.id).where(
        GameSheetEntry.game_id == game_id, GameSheetEntry.player_id == player_id, GameSheetEntry.team_id == team_id,
        GameSheetEntry.removed_at.is_(None))) is not None


async def _changes(session: AsyncSession, game_id: int, team_id: int) -> tuple[ChangeLine, ...]:
    rows = (await session.scalars(select(GameSheetChange).where(
        GameSheetChange.game_id == game_id, GameSheetChange.team_id == team_id)
        .order_by(GameSheetChange.changed_at.desc(), GameSheetChange.id.desc()).limit(RECENT_CHANGES))).all()
    return tuple(ChangeLine(r.action, r.name, r.changed_by_name or str(r.changed_by), r.changed_at) for r in rows)


def _view_of(team: Team, sheet: TeamSheet, changes: tuple[ChangeLine, ...]) -> TeamSheetView:
    return TeamSheetView(team.name, sheet.lines, sheet.confirmed_by, sheet.confirmed_at, sheet.frozen, changes)


def change_words(change: ChangeLine) -> str:
    """"+ Dan Roy by Hawks Captain, <t:…:R>" for the sheet's log."""
    sign = {"added": "+", "removed": "−", "confirmed": "✔"}.get(change.action, "·")
    what = "confirmed the sheet" if change.action == "confirmed" else change.name
    return f"{sign} {what} · {change.by}, {timestamp(change.at, 'R')}"
