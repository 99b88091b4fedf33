"""The league's spare pool: join, leave, and the list captains and commissioners read.

Choices the issue leaves open, decided here:
- Anyone in the league's server may join; someone not on a roster gets a player row in the league
  (their display name), as a roster add would. Someone on a roster may spare for other teams.
- `/spare join` again updates positions and days; the optional gender sets the player's category
  (the same field `/profile gender` sets) and is never shown back to captains.
- The list never shows a category: given a game, a captain sees only whether each spare would fill
  what their team is missing (and whether they're free then).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import quote
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.league.spares.matching import days_text, fits, parse_days
from bot.league.spares.needs import Need
from bot.league.vocabulary import GENDERS
from bot.services.people import is_captain_of, membership
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import find_game_sides
from bot.services.shared.guardians import answering_for
from bot.services.spares.matching import SpareMatch, candidates_for, need_for
from storage import lookups
from storage.db import retried_on_disconnect, upsert_insert
from storage.models import Player, Spare
from storage.text import printable

POSITIONS_CHOICES = {"skater": (True, False), "goalie": (False, True), "both": (True, True)}


@dataclass(frozen=True)
class SpareEntry:
    """What a spare told the league (shown to them, and to captains without any category)."""

    name: str
    skater: bool
    goalie: bool
    days: str

    @property
    def positions(self) -> str:
        return " and ".join(p for p, on in (("skater", self.skater), ("goalie", self.goalie)) if on)


@dataclass(frozen=True)
class Joined:
    league: str
    entry: SpareEntry
    updated: bool
    gender_set: bool


@dataclass(frozen=True)
class ListedSpare:
    entry: SpareEntry
    # Given a game: whether they would fill what the team is missing, and whether they're free then.
    fills: bool | None = None
    free: bool | None = None


@dataclass(frozen=True)
class SpareList:
    league: str
    spares: tuple[ListedSpare, ...]
    game: str | None = None  # the game's title, when one was named
    team: str | None = None
    need: str | None = None


@retried_on_disconnect
class SparePoolService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "the spare list")

    async def join(self, caller: Caller, positions: str, days: str | None = None,
                   gender: str | None = None, junior: str | None = None) -> Joined:
        """Put the caller on the league's spare list (or update what they said).

        A guardian naming a junior they manage (``junior``) is refused, politely: an offer is a DM whose
        buttons only the spare answers, and the offer and its acceptance (bot/services/spares/requests.py)
        know no guardians yet. Captains still put a junior on a game sheet by name.
        """
        if junior is not None:
            async with self.sessions() as session:
                managed = await answering_for(session, caller.league_id, caller.discord_id, junior, None)
            raise Conflict(f"{managed.name} can't join the spare list yet: spare offers come by DM with buttons "
                           "only the spare themself can answer, and a player without a Discord account has no "
                           f"DMs. Nothing changed. If {managed.name} can fill in for a game, ask that team's "
                           "captain: they can put them on the game sheet by name.")
        if positions not in POSITIONS_CHOICES:
            raise InvalidInput("Positions must be one of: skater, goalie, both.")
        if gender is not None and gender not in GENDERS:
            raise InvalidInput(f"Gender must be one of: {', '.join(GENDERS)}.")
        try:
            free = parse_days(days)
        except ValueError as exc:
            word = quote(str(exc), 20)
            raise InvalidInput(f"I can't read “{word}” as a day. Name days like `mon, wed, sat`, "
                               "or leave it empty for any day.") from None
        skater, goalie = POSITIONS_CHOICES[positions]
        async with self.sessions.begin() as session:
            player = await self._player(session, caller)
            if gender is not None:
                player.gender = gender
            insert = upsert_insert(session)(Spare).values(
                league_id=caller.league_id, player_id=player.id, plays_skater=skater, plays_goalie=goalie,
                free_days="".join(str(d) for d in sorted(free)), joined_at=self.clock.now())
            existed = await session.scalar(select(Spare.id).where(Spare.league_id == caller.league_id,
                                                                  Spare.player_id == player.id))
            await session.execute(insert.on_conflict_do_update(
                index_elements=[Spare.league_id, Spare.player_id],
                set_={"plays_skater": skater, "plays_goalie": goalie, "free_days": insert.excluded.free_days}))
            entry = SpareEntry(player.name, skater, goalie, days_text(free))
        return Joined(caller.league.name, entry, existed is not None, gender is not None)

    async def leave(self, caller: Caller) -> bool:
        """Take the caller off the spare list; False when they weren't on it."""
        async with self.sessions.begin() as session:
            player = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
            if player is None:
                return False
            result = await session.execute(delete(Spare).where(Spare.league_id == caller.league_id,
                                                               Spare.player_id == player.id).returning(Spare.id))
            return result.first() is not None

    async def show(self, caller: Caller, game_code: str | None = None) -> SpareList:
        """The spare list (captains and commissioners); with a game, who would fill the team's gap."""
        if not (caller.is_commissioner or caller.has_captain_role):
            raise NotAllowed("Only captains and commissioners can see the spare list. "
                             "/spare join puts you on it.")
        async with self.sessions() as session:
            if game_code is None or not game_code.strip():
                rows = (await session.execute(
                    select(Player.name, Spare.plays_skater, Spare.plays_goalie, Spare.free_days)
                    .join(Player, Player.id == Spare.player_id)
                    .where(Spare.league_id == caller.league_id).order_by(Player.name))).all()
                return SpareList(caller.league.name, tuple(
                    ListedSpare(SpareEntry(r.name, r.plays_skater, r.plays_goalie,
                                           days_text(int(d) for d in r.free_days))) for r in rows))
            game = await find_game_sides(session, caller, game_code)
            member = await membership(session, caller)
            own = [t for t in (game.home, game.away) if is_captain_of(caller, member, t.id)]
            if not own and not caller.is_commissioner:
                raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name}, or a commissioner, "
                                 f"can match spares to {game.ref.code}.")
            team = own[0] if own else game.home
            need = await need_for(session, self.suspensions, caller.league, caller.league_id, game, team)
            matches = await candidates_for(session, self.suspensions, caller.league_id, game)
            return SpareList(caller.league.name, tuple(_listed(m, need) for m in matches), game.ref.title,
                             team.name, need.describe())

    @staticmethod
    async def _player(session: AsyncSession, caller: Caller) -> Player:
        player = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
        if player is None:
            player = Player(league_id=caller.league_id, discord_id=caller.discord_id,
                            name=printable(caller.display_name).strip()[:100] or "Spare")
            session.add(player)
            await session.flush()
        return player


def _listed(match: SpareMatch, need: Need) -> ListedSpare:
    c = match.candidate
    entry = SpareEntry(match.name, "skater" in c.positions, "goalie" in c.positions, days_text(c.free_days))
    return ListedSpare(entry, fills=fits(need, c), free=not c.busy)
