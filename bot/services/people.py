"""Who a caller is in the league: their roster place, the teams they captain, and, for one game, the teams
they act as captain for (a stand-in named for it, an assistant coach while the coach is absent: youth 1.4,
1.6). ``is_captain_of`` is the one check of a captain's powers; a command about a game asks ``membership``
with that game, so a stand-in's powers hold for that game and no other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Caller, Role
from bot.errors import NotAllowed, NotFound
from bot.services.shared.attendance import GameSides
from bot.services.shared.stand_ins import ForGame, acting_captain_of
from storage import lookups
from storage.models import Game, Team
from storage.text import printable

T = TypeVar("T")


@dataclass(frozen=True)
class Membership:
    team_id: int | None  # the roster team (None: on no roster in this league)
    player_id: int | None  # set when team_id is
    captain_of: frozenset[int]
    # Teams of the game the membership was asked for that the caller acts as captain for, without being
    # its captain (empty when asked without a game).
    acting_for: frozenset[int] = frozenset()


def for_game(game: Game | GameSides) -> ForGame:
    if isinstance(game, GameSides):
        return ForGame(game.id, game.ref.starts_at, (game.home.id, game.away.id))
    return ForGame(game.id, game.starts_at, game.team_ids())


async def membership(session: AsyncSession, caller: Caller, game: Game | GameSides | None = None) -> Membership:
    """The caller's roster place and captaincies; with ``game``, also whom they act as captain for in it."""
    team_id, player_id, captained = await lookups.roster_place_and_captained(session, caller.league_id,
                                                                           caller.discord_id)
    acting: frozenset[int] = frozenset()
    if game is not None:
        acting = await acting_captain_of(session, caller.league_id, caller.discord_id, for_game(game))
    return Membership(team_id=team_id, player_id=player_id, captain_of=frozenset(captained), acting_for=acting)


async def in_game(session: AsyncSession, caller: Caller, member: Membership, game: Game | GameSides) -> Membership:
    """``member`` (asked without a game) with whom the caller acts as captain for in ``game``."""
    return replace(member, acting_for=await acting_captain_of(session, caller.league_id, caller.discord_id,
                                                              for_game(game)))


def own_team_id(member: Membership) -> int | None:
    """The caller's own team: their roster team, else the one team they captain (None: can't tell)."""
    if member.team_id is not None:
        return member.team_id
    return next(iter(member.captain_of)) if len(member.captain_of) == 1 else None


def is_captain_of(caller: Caller, member: Membership, team_id: int) -> bool:
    """Captain means both: the league's captain role and marked captain of that team; or, for the game the
    membership was asked with, standing in for its captain (no role needed: being named is what counts)."""
    return (caller.has_captain_role and team_id in member.captain_of) or team_id in member.acting_for


async def resolve_team(session: AsyncSession, caller: Caller, team_name: str | None,
                       member: Membership) -> Team:
    """The named team, or the caller's own (their roster team, else the team they captain)."""
    return await _resolve(session, caller, team_name, member, lookups.team_by_name, lookups.team_by_id)


async def resolve_team_ref(session: AsyncSession, caller: Caller, team_name: str | None,
                           member: Membership) -> lookups.TeamRef:
    """As :func:`resolve_team`, as plain columns: for replies that only read the team."""
    return await _resolve(session, caller, team_name, member, lookups.team_ref_by_name, lookups.team_ref_by_id)


async def _resolve(session: AsyncSession, caller: Caller, team_name: str | None, member: Membership,
                   by_name: Callable[[AsyncSession, int, str], Awaitable[T | None]],
                   by_id: Callable[[AsyncSession, int, int], Awaitable[T | None]]) -> T:
    if team_name:
        team = await by_name(session, caller.league_id, team_name)
        if team is None:
            raise NotFound(f"There's no team called “{printable(team_name)[:100]}” in {caller.league.name}.")
        return team
    team_id = own_team_id(member)
    if team_id is None:
        raise NotFound("You're not on a team in this league yet. Name a team, or ask your captain to add you.")
    team = await by_id(session, caller.league_id, team_id)
    assert team is not None
    return team


def require_captain_role_or_acting(caller: Caller, member: Membership) -> None:
    """The captain-role check a captain's command about a game makes first: a stand-in for that game (or
    an assistant coach standing in) passes it without the role."""
    if not member.acting_for:
        caller.require(Role.CAPTAIN)


def captained_sides(caller: Caller, member: Membership, game: Game, *, to: str) -> list[int]:
    """The game's teams the caller captains; refuses anyone who captains neither (``to``: the action)."""
    teams = [t for t in game.team_ids() if is_captain_of(caller, member, t)]
    if not teams:
        raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name} can {to} `{game.code}`.")
    return teams


def require_captain_or_commissioner(caller: Caller, member: Membership, team: Team) -> None:
    if caller.is_commissioner or is_captain_of(caller, member, team.id):
        return
    raise NotAllowed(f"Only {team.name}'s captain or a commissioner can do that.")
