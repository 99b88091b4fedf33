"""/guest add|clear: a player not on the roster plays one game, once league staff clears them.

Indoor soccer rules, Game: "Only players on roster may play. Guest players may play if they have a
stamped hand indicating that they have paid or an employee tells the referee directly that they
are cleared." Whether a league has guests at all, and whether they need clearing, are the lineup
settings ``guests_allowed`` and ``guests_need_approval`` (bot/league/checkins/presets.py, cited).

Choices the spec leaves open, decided here:
- A captain of a team in the game adds a guest for their team (a commissioner too, naming the team
  when they captain neither); the game must not have started, been cancelled or played.
- A guest is a typed name or a member's mention; someone on either team's roster is refused (they
  check in), and one name is a guest once per team and game (names compare case-insensitively).
- A referee or commissioner of the league clears the guest (the rule's "employee tells the
  referee"), any time before the game is final or cancelled; clearing twice changes nothing.
- A guest who is a league player with a suspension still to serve stays excluded, as a suspended
  player (a suspension counts their own team's games; guesting elsewhere must not get round it).
- Guests never check in: adding one says they are coming. They count in /lineup once cleared (or
  at once where ``guests_need_approval`` is off), after the rostered players, in the order added.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import blank, clean_user_text
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.checkins.lineup import CheckedInPlayer
from bot.league.checkins.presets import LineupRules
from bot.services.people import is_captain_of, membership
from bot.services.shared.attendance import GameSides
from bot.services.shared.eligibility import SuspensionCheck, require_check, suspension_reasons
from bot.services.shared.games import find_game_sides
from storage import lookups
from storage.db import retried_on_disconnect
from storage.lookups import TeamRef
from storage.models import Guest, Player, RosterEntry

NAME_LIMIT = 100
_MENTION = re.compile(r"^<@!?(\d{1,20})>$")


@dataclass(frozen=True)
class GuestLine:
    """A guest as captains, referees and commissioners see them."""

    name: str
    team: str
    game: str
    cleared: bool
    counts: bool  # cleared, or the league doesn't ask for clearance


async def game_guests(session: AsyncSession, league_id: int, game_id: int,
                      team_id: int | None = None) -> Sequence[Guest]:
    """A game's guests (one team's, when given), in the order they were added."""
    query = select(Guest).where(Guest.league_id == league_id, Guest.game_id == game_id)
    if team_id is not None:
        query = query.where(Guest.team_id == team_id)
    return (await session.scalars(query.order_by(Guest.added_at, Guest.id))).all()


async def guest_players(session: AsyncSession, check: SuspensionCheck, league_id: int, game_id: int,
                        team_id: int) -> list[CheckedInPlayer]:
    """A team's guests for a game as the lineup rules take them: not rostered, approved once cleared.

    A guest who is a league player keeps their gender and suspensions; any other guest has no player
    row, so their id is the guest's, negated (never a player's id)."""
    guests = await game_guests(session, league_id, game_id, team_id)
    members = [g.discord_id for g in guests if g.discord_id is not None]
    players: dict[int, Player] = {}
    if members:
        found = await session.scalars(select(Player).where(Player.league_id == league_id,
                                                           Player.discord_id.in_(members)))
        players = {p.discord_id: p for p in found.all() if p.discord_id is not None}
    # Any game still to serve, not only this one: a suspension counts the player's own team's games, and
    # guesting for another team must not be a way around it.
    suspended = await suspension_reasons(check, session, league_id, [p.id for p in players.values()], None)
    out = []
    for guest in guests:
        player = players.get(guest.discord_id) if guest.discord_id is not None else None
        out.append(CheckedInPlayer(player_id=player.id if player else -guest.id, name=f"{guest.name} (guest)",
                                   position="skater", gender=player.gender if player else None, rostered=False,
                                   suspended=player is not None and player.id in suspended,
                                   guest_approved=guest.cleared_at is not None))
    return out


def guest_counts(rules: LineupRules, guest: Guest) -> bool:
    """The guest plays: the league has guests, and this one is cleared (or needs no clearing)."""
    return rules.guests_allowed and (guest.cleared_at is not None or not rules.guests_need_approval)


def _no_guests(caller: Caller) -> str | None:
    """Why this league takes no guests (None: it does), with the rule."""
    rules = caller.league.rules.lineup
    if rules.guests_allowed:
        return None
    cited = rules.citations.guests or "the rulebook has none: league setting guests_allowed"
    return f"{caller.league.name} has no guest players: only players on a roster play ({cited})."


@retried_on_disconnect
class GuestService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "guests")

    async def add(self, caller: Caller, game_code: str, who: str, team_name: str | None = None) -> GuestLine:
        """A captain adds a guest for their team (pending until cleared where the rules ask for it)."""
        name, discord_id = _guest_name(who)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game_sides(session, caller, game_code)
            team = await self._team(session, caller, game, team_name)
            refusal = _no_guests(caller)
            if refusal:
                raise Conflict(refusal)
            if game.ref.status != "scheduled" or game.ref.starts_at <= now:
                raise Conflict(f"{game.ref.code} ({game.ref.title}) is {_state(game, now)}: guests are added "
                               "before a game starts.")
            if discord_id is not None:
                player = await lookups.player_by_discord(session, caller.league_id, discord_id)
                if player is not None:
                    entry = await session.scalar(select(RosterEntry.team_id).where(
                        RosterEntry.league_id == caller.league_id, RosterEntry.player_id == player.id))
                    if entry in (game.home.id, game.away.id):
                        raise Conflict(f"{player.name} is on a roster in this game: they answer with /checkin.")
                    name = player.name
            key = name.casefold()
            if await session.scalar(select(Guest.id).where(Guest.game_id == _id(game), Guest.team_id == team.id,
                                                           Guest.name_key == key)) is not None:
                raise Conflict(f"{name} is already a guest of {team.name} for {game.ref.code}.")
            guest = Guest(league_id=caller.league_id, game_id=_id(game), team_id=team.id, name=name, name_key=key,
                          discord_id=discord_id, added_by=caller.discord_id, added_at=now)
            session.add(guest)
            await session.flush()
            return GuestLine(name, team.name, game.ref.code, False, guest_counts(caller.league.rules.lineup, guest))

    async def clear(self, caller: Caller, game_code: str, who: str) -> GuestLine:
        """A referee or commissioner clears a guest to play (the stamped hand, or staff's word)."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        refusal = _no_guests(caller)
        if refusal:
            raise Conflict(refusal)
        name, discord_id = _guest_name(who)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game_sides(session, caller, game_code)
            if game.ref.status in ("cancelled", "final"):
                raise Conflict(f"{game.ref.code} ({game.ref.title}) is {_state(game, now)}: there is no one to clear.")
            guests = await game_guests(session, caller.league_id, _id(game))
            if discord_id is not None:
                player = await lookups.player_by_discord(session, caller.league_id, discord_id)
                found = [g for g in guests if g.discord_id == discord_id
                         or (player is not None and g.name_key == player.name.casefold())]
            else:
                found = [g for g in guests if g.name_key == name.casefold()]
            if not found:
                listed = ", ".join(g.name for g in guests) or "none yet"
                raise NotFound(f"{game.ref.code} has no guest “{name}” (its guests: {listed}). "
                               "A captain adds one with /guest add.")
            if len(found) > 1:
                raise Conflict(f"Both teams have a guest named {name} in {game.ref.code}: mention the member instead.")
            guest = found[0]
            teams = {game.home.id: game.home.name, game.away.id: game.away.name}
            if guest.cleared_at is None:
                guest.cleared_at, guest.cleared_by = now, caller.discord_id
            return GuestLine(guest.name, teams.get(guest.team_id, "?"), game.ref.code, True,
                             guest_counts(caller.league.rules.lineup, guest))

    async def _team(self, session: AsyncSession, caller: Caller, game: GameSides, team_name: str | None) -> TeamRef:
        member = await membership(session, caller, game)
        if not (caller.has_captain_role or caller.is_commissioner or member.acting_for):
            raise NotAllowed("Only a team's captain or a commissioner can add a guest.")
        sides: tuple[TeamRef, ...] = (game.home, game.away)
        if team_name is not None and team_name.strip():
            named = next((t for t in sides if t.name.casefold() == team_name.strip().casefold()), None)
            if named is None:
                raise InvalidInput(f"{game.ref.code} is {game.ref.title}: pick one of those two teams.")
            sides = (named,)
        allowed = [t for t in sides if caller.is_commissioner or is_captain_of(caller, member, t.id)]
        if not allowed:
            raise NotAllowed(f"Only a captain of {' or '.join(t.name for t in sides)}, or a commissioner, can add "
                             f"a guest for {game.ref.code}.")
        own = [t for t in allowed if is_captain_of(caller, member, t.id)]
        if len(allowed) > 1 and len(own) != 1:
            raise InvalidInput(f"Name the team the guest plays for (`team`): {game.home.name} or {game.away.name}.")
        return own[0] if len(allowed) > 1 else allowed[0]


def _id(game: GameSides) -> int:
    return game.id


def _state(game: GameSides, now: datetime) -> str:
    status = game.ref.status
    if status == "cancelled":
        return "cancelled"
    if status == "final":
        return "already played"
    return "under way" if game.ref.starts_at <= now else "scheduled"


def _guest_name(value: str) -> tuple[str, int | None]:
    """(name, member id): a mention names a member; anything else is the guest's name."""
    text = value.strip()
    mention = _MENTION.match(text)
    if mention:
        member = int(mention[1])
        if not 0 < member < 2**63:
            raise InvalidInput(f"{mention[1][:25]} is not a Discord id.")
        return f"<@{member}>", member
    name = clean_user_text(text, NAME_LIMIT).strip()
    if blank(name) or "\n" in name:
        raise InvalidInput("Give the guest's name (one line), or mention them.")
    return name, None
