"""Players without a Discord account and the members who manage them (their guardians).

Such a player has no ``discord_id``: whatever would reach the player by Discord reaches their
guardians instead (DMs, reminders), and text names the player instead of mentioning them. A guardian
acts only for the players they manage in the league they were added in: every query here is scoped by
league and by the guardian's own id, so another member (or another server) never reaches the player.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.discord_text import clean_text, clean_user_text, quote
from bot.errors import InvalidInput, NotAllowed, NotFound
from bot.services.name_resolution import Candidate, Token, matches
from storage.models import Player, PlayerGuardian, RosterEntry

#: A player as a command names them: a member's Discord id, or typed text for one without an account.
Pick = int | str


@dataclass(frozen=True)
class ManagedPlayer:
    """A player the caller manages, with their roster place (``team_id`` None: on no roster)."""

    player_id: int
    name: str
    team_id: int | None


async def managed_players(session: AsyncSession, league_id: int, guardian_id: int) -> list[ManagedPlayer]:
    """The players ``guardian_id`` manages in the league, by name."""
    rows = await session.execute(
        select(Player.id, Player.name, RosterEntry.team_id)
        .join(PlayerGuardian, PlayerGuardian.player_id == Player.id)
        .outerjoin(RosterEntry, RosterEntry.player_id == Player.id)
        .where(PlayerGuardian.league_id == league_id, PlayerGuardian.discord_id == guardian_id,
               Player.league_id == league_id)
        .order_by(Player.name, Player.id))
    return [ManagedPlayer(r.id, r.name, r.team_id) for r in rows]


def managed_key(guardian_id: int, name: str) -> tuple[int, str]:
    """A guardian's player as a registration names them: the guardian, and the name as stored, case aside."""
    return guardian_id, clean_text(name)[:100].strip().casefold()


async def managed_on_teams(session: AsyncSession, league_id: int) -> set[tuple[int, str]]:
    """``managed_key`` of each guardian's player already on a team: the player ``managed_player_for`` gives a
    registration by that guardian and name (their oldest of that name) plays for a team."""
    rows = await session.execute(
        select(PlayerGuardian.discord_id, Player.name, RosterEntry.team_id)
        .join(Player, Player.id == PlayerGuardian.player_id)
        .outerjoin(RosterEntry, RosterEntry.player_id == Player.id)
        .where(PlayerGuardian.league_id == league_id, Player.league_id == league_id)
        .order_by(Player.id))
    oldest: dict[tuple[int, str], int | None] = {}
    for guardian, name, team in rows:
        oldest.setdefault(managed_key(guardian, name), team)
    return {key for key, team in oldest.items() if team is not None}


def same_name(stored: str, asked: str) -> bool:
    """Whether two names are one managed player's: case aside, spaces at the ends trimmed."""
    return stored.strip().casefold() == asked.strip().casefold()


async def managed_player_for(session: AsyncSession, league_id: int, *, guardian_id: int, name: str,
                             added_by: int) -> tuple[Player, int | None]:
    """The player a guardian's registration names, with the team whose roster they are on: the one
    ``guardian_id`` already manages in the league by that name (last season's, or made by an earlier
    step), else a new one they manage. One child is one player, so their schedule and check-ins stay
    together; another guardian's player of that name is another child and is never reused."""
    clean = clean_text(name)[:100]
    mine = sorted((m for m in await managed_players(session, league_id, guardian_id) if same_name(m.name, clean)),
                  key=lambda m: m.player_id)
    if mine:
        found = await session.get(Player, mine[0].player_id)
        if found is not None:
            return found, mine[0].team_id
    player = Player(league_id=league_id, discord_id=None, name=clean)
    session.add(player)
    await session.flush()
    session.add(PlayerGuardian(league_id=league_id, player_id=player.id, discord_id=guardian_id, added_by=added_by))
    await session.flush()
    return player, None


def pick_managed(players: Sequence[ManagedPlayer], asked: str) -> ManagedPlayer:
    """The caller's player named ``asked`` (a name, or the id an autocomplete suggestion carries).

    Only the caller's own players are searched, so a name of someone else's player reads as unknown.
    """
    text = asked.strip()
    if text.isdecimal():
        for p in players:
            if str(p.player_id) == text:
                return p
    named = [p for p in players if same_name(p.name, text)]
    if len(named) == 1:
        return named[0]
    if named:
        raise InvalidInput("You manage more than one player by that name: pick one from the suggestions.")
    raise NotFound(f"You don't manage a player called “{quote(text)}” in this league. "
                   "Pick one of your players from the suggestions.")


async def answering_for(session: AsyncSession, league_id: int, guardian_id: int, player: str | None,
                        player_id: int | None) -> ManagedPlayer:
    """The managed player a guardian named (typed, or a reminder button's id); only their own are searched."""
    mine = await managed_players(session, league_id, guardian_id)
    if player_id is not None:
        found = next((m for m in mine if m.player_id == player_id), None)
        if found is None:
            raise NotAllowed("That button answers for a player you don't manage; nothing changed. "
                             "Use /checkin in your league's server.")
        return found
    assert player is not None
    return pick_managed(mine, player)


async def only_managed(session: AsyncSession, league_id: int, guardian_id: int) -> ManagedPlayer | None:
    """A caller on no roster who manages exactly one player answers for them; several: they must pick."""
    mine = await managed_players(session, league_id, guardian_id)
    if len(mine) > 1:
        raise InvalidInput(f"You manage {len(mine)} players: pick whom you answer for with /checkin's player "
                           "option, or the buttons in the reminder DM about that player. Nothing changed.")
    return mine[0] if mine else None


async def guardians_of(session: AsyncSession, league_id: int,
                       player_ids: Collection[int]) -> dict[int, tuple[int, ...]]:
    """Player id -> the Discord ids of their guardians, in the order they were added."""
    if not player_ids:
        return {}
    rows = await session.execute(
        select(PlayerGuardian.player_id, PlayerGuardian.discord_id)
        .where(PlayerGuardian.league_id == league_id, PlayerGuardian.player_id.in_(list(player_ids)))
        .order_by(PlayerGuardian.id))
    found: dict[int, list[int]] = {}
    for player_id, discord_id in rows:
        found.setdefault(player_id, []).append(discord_id)
    return {p: tuple(ids) for p, ids in found.items()}


async def is_guardian(session: AsyncSession, league_id: int, player_id: int, discord_id: int) -> bool:
    return await session.scalar(select(PlayerGuardian.id).where(
        PlayerGuardian.league_id == league_id, PlayerGuardian.player_id == player_id,
        PlayerGuardian.discord_id == discord_id)) is not None


async def reach(session: AsyncSession, league_id: int, player: Player) -> tuple[int, ...]:
    """Whom a DM to ``player`` goes to: the player, or the guardians of a player without an account."""
    if player.discord_id is not None:
        return (player.discord_id,)
    return (await guardians_of(session, league_id, [player.id])).get(player.id, ())


def whose(player: Player) -> str:
    """"Your" in a DM to the player; the player's name in one to their guardians."""
    return "Your" if player.discord_id is not None else f"{clean_user_text(player.name, 100)}'s"


def mention(discord_id: int | None, name: str) -> str:
    """A player as text: their mention, or their name when they have no Discord account."""
    return f"<@{discord_id}>" if discord_id is not None else f"**{clean_user_text(name, 100)}**"


async def player_named(session: AsyncSession, league_id: int, league_name: str, text: str) -> Player:
    """The league player a command names by text, for players with no member to pick (no Discord account):
    a suggestion's id, else the name as bot/services/name_resolution.py matches names; asked back when unsure."""
    typed = text.strip()
    if typed.isdecimal() and len(typed) < 19:
        found = await session.get(Player, int(typed))
        if found is not None and found.league_id == league_id:
            return found
    players = (await session.scalars(select(Player).where(Player.league_id == league_id)
                                     .order_by(Player.name, Player.id))).all()
    by_id = {p.id: p for p in players}
    named = matches(Token(typed[:100]), [Candidate(p.id, p.name) for p in players])
    if len(named) == 1:
        return by_id[named[0].key]
    if named:
        names = ", ".join(clean_user_text(c.name, 100) for c in named[:5])
        raise InvalidInput(f"“{quote(typed)}” matches {names}: pick one from the suggestions. Nothing changed.")
    raise NotFound(f"No player called “{quote(typed)}” in {league_name}: pick one from the suggestions.")


async def accountless(session: AsyncSession, league_id: int, typed: str) -> list[tuple[str, str]]:
    """(name, id) of the league's players without a Discord account whose name holds ``typed``, for autocomplete."""
    rows = (await session.execute(select(Player.id, Player.name).where(
        Player.league_id == league_id, Player.discord_id.is_(None)).order_by(Player.name, Player.id))).all()
    needle = typed.strip().casefold()
    return [(r.name, str(r.id)) for r in rows if needle in r.name.casefold()][:25]
