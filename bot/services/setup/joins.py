"""Players in without ids: /join asks a team's captains, who approve or decline with a button.

The request is the player's row (name, and gender if given, private as ever) plus a message to the
captains: the team channel, else a DM to each. That message is the request's record, and the answer to
the player closes it: a press on a request never made, or already answered, changes nothing. The
buttons carry the league, team, player and position (cogs/setup/_join_buttons.py), so they work after
a restart and nothing is kept in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import clean_text
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.checkins.lineup import check_roster_limit
from bot.league.vocabulary import GENDERS, POSITIONS
from bot.services import outbox
from bot.services.discord_sync import team_roles
from bot.services.outbox import Outgoing
from bot.services.people import membership, require_captain_or_commissioner, resolve_team
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import OutboxMessage, Player, RosterEntry, Team

#: The captains' (label, custom_id) buttons for (league id, team id, player id, position): the cog that
#: handles the presses makes them, so this service needs no Discord.
ButtonMaker = Callable[[int, int, int, str], tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class JoinAsked:
    team: str
    asked: str  # "in #channel" or "by direct message"


@dataclass(frozen=True)
class JoinDecided:
    team: str
    player: str
    approved: bool
    size: int


@retried_on_disconnect
class JoinService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def invite(self, caller: Caller, team_name: str | None,
                     make_join_button: Callable[[int, int], tuple[str, str]]) -> str:
        """A captain posts a Join button in the team channel; a press starts the same request as /join."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            team = await resolve_team(session, caller, team_name, member)
            require_captain_or_commissioner(caller, member, team)
            if not team.channel_id:
                raise InvalidInput(f"{team.name} has no channel to post in; a commissioner can set one with "
                                   "/setup team.")
            button = make_join_button(caller.league_id, team.id)
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                 key=f"join-invite:{team.id}:{now.timestamp():.0f}", due_at=now,
                                 message=Outgoing(content=f"Want to play for **{team.name}**? Press Join and "
                                                          "the captains will answer.", buttons=(button,)),
                                 channel_id=team.channel_id)
            return f"Posted a Join button in <#{team.channel_id}>."

    async def team_name(self, league_id: int, team_id: int) -> str:
        async with self.sessions() as session:
            team = await lookups.team_by_id(session, league_id, team_id)
        if team is None:
            raise NotFound("That team is gone; ask a captain for a new invitation.")
        return team.name

    async def ask(self, caller: Caller, team_name: str, *, position: str | None, gender: str | None,
                  make_buttons: ButtonMaker) -> JoinAsked:
        """Check the request now (one roster per league, room on the team), then ask the captains."""
        if position is not None and position not in POSITIONS:
            raise InvalidInput(f"Position must be one of: {', '.join(POSITIONS)}.")
        if gender is not None and gender not in GENDERS:
            raise InvalidInput(f"Gender must be one of: {', '.join(GENDERS)}.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            team = await lookups.team_by_name(session, caller.league_id, team_name)
            if team is None:
                raise NotFound(f"There's no team called “{clean_text(team_name)[:100]}” in {caller.league.name}.")
            await self._check_room(session, caller, team, caller.discord_id)
            captains = await lookups.captain_ids(session, team.id)
            if not captains:
                raise Conflict(f"{team.name} has no captain yet to approve you; ask a commissioner to add you.")
            player = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
            if player is None:
                player = Player(league_id=caller.league_id, discord_id=caller.discord_id,
                                name=clean_text(caller.display_name)[:100] or "Player", gender=gender)
                session.add(player)
                await session.flush()
            elif gender is not None:
                player.gender = gender
            text = (f"🙋 <@{caller.discord_id}> ({player.name}) asks to join **{team.name}** as a "
                    f"{position or 'skater'}. Captains: approve or decline.")
            message = Outgoing(content=text, buttons=make_buttons(caller.league_id, team.id, player.id,
                                                                  position or "skater"))
            key = f"{REQUEST_PREFIX}{team.id}:{player.id}:{now:%Y%m%d}"  # one request a day reaches the captains
            guild = caller.league.guild_id
            if team.channel_id:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=guild, key=key, due_at=now,
                                     message=message, channel_id=team.channel_id)
                return JoinAsked(team.name, f"in <#{team.channel_id}>")
            for captain in captains:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=guild, key=f"{key}:{captain}",
                                     due_at=now, message=message, user_id=captain)
            return JoinAsked(team.name, "by direct message")

    @staticmethod
    async def _check_room(session: AsyncSession, caller: Caller, team: Team, discord_id: int) -> int:
        entry = await lookups.roster_entry(session, caller.league_id, discord_id)
        if entry is not None:
            other = await lookups.team_by_id(session, caller.league_id, entry.team_id)
            where = "that team" if other is None or other.id == team.id else other.name
            raise Conflict(f"You're already on {where}; a player is on one team per league.")
        size = await lookups.roster_size(session, caller.league_id, team.id)
        breach = check_roster_limit(caller.league.rules.lineup, size + 1)
        if breach is not None:
            raise Conflict(f"{team.name}'s roster is full ({size} players; the limit is "
                           f"{caller.league.rules.lineup.roster_limit}).")
        return size

    async def decide(self, caller: Caller, *, team_id: int, player_id: int, position: str,
                     approve: bool) -> JoinDecided:
        """A captain of the team (their role held, by DM too) or a commissioner approves or declines an open
        request; the player hears privately. A request is answered once: a second press changes nothing."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            member = await membership(session, caller)  # first: a refusal names nothing of the team
            captain = team_id in member.captain_of and caller.has_captain_role
            if not (captain or caller.is_commissioner):
                raise NotAllowed("Only the team's captains or a commissioner can answer that request; "
                                 "nothing changed.")
            team = await lookups.team_by_id(session, caller.league_id, team_id)
            player = await session.scalar(select(Player).where(Player.id == player_id,
                                                               Player.league_id == caller.league_id))
            if team is None or player is None or player.discord_id is None:  # only members ask to join
                raise NotFound("That request is no longer open: the team or the player is gone.")
            asked_on = await _open_request(session, caller.league_id, team.id, player.id)
            if asked_on is None:
                raise Conflict(f"That request is no longer open (already answered, or never made); "
                               f"nothing changed. {player.name} can ask again with /join.")
            text = (f"✅ You're on **{team.name}** now. `/help` shows what you can do." if approve
                    else f"Your request to join **{team.name}** was declined.")
            # The answer is claimed first: a concurrent second decision stops here, before any roster write.
            answer = await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                          key=f"{ANSWER_PREFIX}{team.id}:{player.id}:{asked_on}", due_at=now,
                                          message=Outgoing(content=text), user_id=player.discord_id)
            if not answer.created:
                raise Conflict("Another captain just answered that request; nothing changed.")
            size = await lookups.roster_size(session, caller.league_id, team.id)
            if approve:
                entry = await lookups.roster_entry(session, caller.league_id, player.discord_id)
                if entry is not None:
                    raise Conflict(f"{player.name} is already on a roster; nothing changed.")
                size = await self._check_room(session, caller, team, player.discord_id) + 1
                session.add(RosterEntry(league_id=caller.league_id, team_id=team.id, player_id=player.id,
                                        position=position if position in POSITIONS else "skater", added_at=now))
                await team_roles.follow(session, caller.league, caller.league_id, team.id, player.discord_id, now)
            return JoinDecided(team.name, player.name, approve, size)


#: The captains' message is the request's record (``join:<team>:<player>:<day>``); the player's answer,
#: keyed by the request, closes it: its unique send key lets exactly one decision through.
REQUEST_PREFIX = "join:"
ANSWER_PREFIX = "join-answer:"


async def _open_request(session: AsyncSession, league_id: int, team_id: int, player_id: int) -> str | None:
    """The day of the player's latest request to join the team, while no captain has answered it."""
    keys = (await session.scalars(select(OutboxMessage.send_key).where(
        OutboxMessage.league_id == league_id,
        OutboxMessage.send_key.startswith(f"{REQUEST_PREFIX}{team_id}:{player_id}:", autoescape=True)))).all()
    days = sorted({key.split(":")[3] for key in keys if key.count(":") >= 3}, reverse=True)
    if not days:
        return None
    answered = await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == league_id,
        OutboxMessage.send_key == f"{ANSWER_PREFIX}{team_id}:{player_id}:{days[0]}"))
    return None if answered is not None else days[0]
