"""Roster changes by captains and commissioners, under the preset's roster limit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import clean_text, quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.checkins.lineup import check_roster_limit
from bot.league.deadlines import trade_deadline
from bot.league.rosters import REMOVED, SEASON, Stint
from bot.league.vocabulary import GENDERS, POSITIONS, Gender, Position
from bot.services.discord_sync import team_roles
from bot.services.people import is_captain_of, membership, require_captain_or_commissioner, resolve_team
from bot.services.rosters import history as roster_history
from bot.services.shared.draft import draft_done
from bot.services.shared.guardians import accountless, guardians_of, is_guardian
from bot.services.shared.seasons import running_season, season_range
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Player, PlayerGuardian, RosterDeparture, RosterEntry, Team


@dataclass(frozen=True)
class RosterLine:
    discord_id: int | None  # None: a player without a Discord account, managed by ``guardians``
    name: str
    position: str
    gender: str | None
    left_at: datetime | None = None  # in ``RosterView.left``: when they left the team
    guardians: tuple[int, ...] = ()


@dataclass(frozen=True)
class RosterView:
    team: str
    lines: tuple[RosterLine, ...]  # on the team now, or at the end of the earlier season asked for
    limit: int | None  # shown for today's roster only
    season: str | None = None  # the season the view is of (None: the league has no seasons)
    past: bool = False  # an earlier season's roster (``lines``: as it finished)
    left: tuple[RosterLine, ...] = ()  # on the team during the season, gone by its end (or by now)


@dataclass(frozen=True)
class GuardianAdded:
    player: str
    added: bool  # False: they already managed the player
    guardians: int  # how many the player has now


@dataclass(frozen=True)
class GuardianRemoved:
    player: str
    guardians: int  # how many the player has left (never 0)
    stepped_down: bool  # the guardian removed themself


@dataclass(frozen=True)
class RosterChange:
    team: str
    player: str
    action: str  # "added" | "moved position" | "removed"
    size: int
    limit: int | None


@retried_on_disconnect
class RosterService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock  # when a team role's change is due

    async def show(self, caller: Caller, team_name: str | None, season: str | None = None) -> RosterView:
        """Today's roster (and who left it this season), or with ``season`` who was on the team then."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            team = await resolve_team(session, caller, team_name, member)
            require_captain_or_commissioner(caller, member, team)
            span = await season_range(session, caller.league_id, season)
            asked = season is not None and season.strip() != ""
            # Today's roster runs to now even when the latest season has ended (players join between
            # seasons); an earlier season's ends when the next starts or when it was ended.
            ends = [at for at in (span.ends_at, span.ended_at) if at is not None] if asked else []
            end = min(ends) if ends else None
            roster = await roster_history.team_roster(session, caller.league_id, team.id, span.starts_at, end)
            players = {p.id: p for p in (await session.scalars(select(Player).where(
                Player.league_id == caller.league_id,
                Player.id.in_([s.player_id for s in roster.finished + roster.left])))).all()}
            guardians = await guardians_of(session, caller.league_id,
                                           [p.id for p in players.values() if p.discord_id is None])

            def line(stint: Stint, left: bool) -> RosterLine:
                who = players[stint.player_id]
                return RosterLine(who.discord_id, who.name, stint.position or "skater", who.gender,
                                  stint.left_at if left else None, guardians.get(who.id, ()))

            lines = sorted((line(s, False) for s in roster.finished),
                           key=lambda r: (r.position == "goalie", r.name.casefold()))
            left = sorted((line(s, True) for s in roster.left) if span.name is not None else (),
                          key=lambda r: (r.left_at.timestamp() if r.left_at else 0.0, r.name.casefold()))
            return RosterView(team=team.name, lines=tuple(lines),
                              limit=None if end is not None else caller.league.rules.lineup.roster_limit,
                              season=span.name, past=end is not None, left=tuple(left))

    async def add(self, caller: Caller, *, discord_id: int, name: str, position: str | None,
                  gender: str | None, team_name: str | None = None) -> RosterChange:
        if position is not None and position not in POSITIONS:
            raise InvalidInput(f"Position must be one of: {', '.join(POSITIONS)}.")
        if gender is not None and gender not in GENDERS:
            raise InvalidInput(f"Gender must be one of: {', '.join(GENDERS)}.")
        try:
            return await self._add(caller, discord_id, name, position, gender, team_name)
        except IntegrityError:
            # Someone added the same person at the same moment (on PostgreSQL both units of work run
            # side by side, and the second one's new player row or roster place breaks a unique key
            # once the first commits). Once more, the same steps read what they did and answer for it.
            try:
                return await self._add(caller, discord_id, name, position, gender, team_name)
            except IntegrityError:
                raise Conflict("Someone changed that roster at the same moment. Check it with /roster show "
                               "and try again.") from None

    async def _add(self, caller: Caller, discord_id: int, name: str, position: Position | None,
                   gender: Gender | None, team_name: str | None) -> RosterChange:
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            team = await resolve_team(session, caller, team_name, member)
            require_captain_or_commissioner(caller, member, team)
            player = await lookups.player_by_discord(session, caller.league_id, discord_id)
            if player is None:
                player = Player(league_id=caller.league_id, discord_id=discord_id, name=clean_text(name)[:100],
                                gender=gender)
                session.add(player)
                await session.flush()
            elif gender is not None:
                player.gender = gender
            entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is not None and entry.team_id != team.id:
                other = await lookups.team_by_id(session, caller.league_id, entry.team_id)
                await self._check_trade_only(session, caller, team, player.id)
                raise Conflict(f"{player.name} is already on {other.name if other else 'another team'}; "
                               "a player can be on one team per league. Remove them there first.")
            limit = caller.league.rules.lineup.roster_limit
            if entry is not None:
                entry.position = position or entry.position
                size = await lookups.roster_size(session, caller.league_id, team.id)
                return RosterChange(team.name, player.name, "updated", size, limit)
            await self._check_trade_only(session, caller, team, player.id)
            await self._check_trade_deadline(session, caller, player.id, team.id)
            size = await lookups.roster_size(session, caller.league_id, team.id)
            breach = check_roster_limit(caller.league.rules.lineup, size + 1)
            if breach is not None:
                raise Conflict(f"{team.name} already has {size} players: {breach.message}")
            session.add(RosterEntry(league_id=caller.league_id, team_id=team.id, player_id=player.id,
                                    position=position or "skater", added_at=self.clock.now()))
            await team_roles.follow(session, caller.league, caller.league_id, team.id, discord_id, self.clock.now())
            return RosterChange(team.name, player.name, "added", size + 1, limit)

    async def add_managed(self, caller: Caller, *, name: str, guardian_id: int, position: str | None,
                          gender: str | None, team_name: str | None = None) -> RosterChange:
        """Put a player without a Discord account on a team, managed by ``guardian_id``; the same name
        on the same team is the same player (the guardian is added, position and category updated)."""
        if position is not None and position not in POSITIONS:
            raise InvalidInput(f"Position must be one of: {', '.join(POSITIONS)}.")
        if gender is not None and gender not in GENDERS:
            raise InvalidInput(f"Gender must be one of: {', '.join(GENDERS)}.")
        clean = clean_text(name)[:100]
        if not clean:
            raise InvalidInput("Give the player's name (they have no Discord account, so the name is how "
                               "everyone sees them).")
        try:
            async with self.sessions.begin() as session:
                return await self._add_managed(session, caller, clean, guardian_id, position, gender, team_name)
        except IntegrityError:
            raise Conflict("Someone changed that roster at the same moment. Check it with /roster show "
                           "and try again.") from None

    async def _add_managed(self, session: AsyncSession, caller: Caller, name: str, guardian_id: int,
                           position: Position | None, gender: Gender | None, team_name: str | None) -> RosterChange:
        member = await membership(session, caller)
        team = await resolve_team(session, caller, team_name, member)
        require_captain_or_commissioner(caller, member, team)
        limit = caller.league.rules.lineup.roster_limit
        same = await _managed_by_name(session, caller.league_id, name)
        if same is not None:
            player, entry = same
            if entry is not None and entry.team_id != team.id:
                other = await lookups.team_by_id(session, caller.league_id, entry.team_id)
                await self._check_trade_only(session, caller, team, player.id)
                raise Conflict(f"A player called {player.name} is already on {other.name if other else 'another team'}"
                               "; a player can be on one team per league. Give this one another name (a last "
                               "initial) or remove them there first.")
            if gender is not None:
                player.gender = gender
            await _add_guardian_row(session, caller, player.id, guardian_id)
            if entry is not None:
                entry.position = position or entry.position
                size = await lookups.roster_size(session, caller.league_id, team.id)
                return RosterChange(team.name, player.name, "updated", size, limit)
        else:
            player = Player(league_id=caller.league_id, discord_id=None, name=name, gender=gender)
            session.add(player)
            await session.flush()
            await _add_guardian_row(session, caller, player.id, guardian_id)
        await self._check_trade_only(session, caller, team, player.id)
        await self._check_trade_deadline(session, caller, player.id, team.id)
        size = await lookups.roster_size(session, caller.league_id, team.id)
        breach = check_roster_limit(caller.league.rules.lineup, size + 1)
        if breach is not None:
            raise Conflict(f"{team.name} already has {size} players: {breach.message}")
        session.add(RosterEntry(league_id=caller.league_id, team_id=team.id, player_id=player.id,
                                position=position or "skater", added_at=self.clock.now()))
        return RosterChange(team.name, player.name, "added", size + 1, limit)

    async def add_guardian(self, caller: Caller, *, player: str, guardian_id: int) -> GuardianAdded:
        """Another guardian for a player without a Discord account (their team's captains, commissioners)."""
        try:
            async with self.sessions.begin() as session:
                member = await membership(session, caller)
                found = await _managed_by_name(session, caller.league_id, player, id_text=True)
                team_id = found[1].team_id if found is not None and found[1] is not None else None
                allowed = caller.is_commissioner or (team_id is not None and is_captain_of(caller, member, team_id))
                if found is None or not allowed:  # one answer for both: nothing said about whose player it is
                    raise NotFound(f"You can't add a guardian to “{quote(player)}”: it must be a player without "
                                   "a Discord account on a team you captain (commissioners: any team). "
                                   "Nothing changed.")
                added = await _add_guardian_row(session, caller, found[0].id, guardian_id)
                count = len((await guardians_of(session, caller.league_id, [found[0].id])).get(found[0].id, ()))
                return GuardianAdded(found[0].name, added, count)
        except IntegrityError:
            raise Conflict("Someone changed that player's guardians at the same moment; try again.") from None

    async def remove_guardian(self, caller: Caller, *, player: str, guardian_id: int) -> GuardianRemoved:
        """A guardian stops managing a player: removed by the team's captains or a commissioner, or stepping
        down themself. Refused when it would leave the player with nobody to answer for them."""
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            found = await _managed_by_name(session, caller.league_id, player, id_text=True)
            own = found is not None and guardian_id == caller.discord_id and await is_guardian(
                session, caller.league_id, found[0].id, caller.discord_id)
            team_id = found[1].team_id if found is not None and found[1] is not None else None
            allowed = own or caller.is_commissioner or (team_id is not None and is_captain_of(caller, member, team_id))
            if found is None or not allowed:  # one answer for both, as for adding
                raise NotFound(f"You can't remove a guardian of “{quote(player)}”: it must be a player without a "
                               "Discord account on a team you captain (commissioners: any team), or one you manage "
                               "yourself. Nothing changed.")
            target = found[0]
            await session.refresh(target, with_for_update=True)  # two removals at once can't leave nobody
            guardians = (await guardians_of(session, caller.league_id, [target.id])).get(target.id, ())
            if guardian_id not in guardians:
                raise NotFound(f"<@{guardian_id}> doesn't manage {target.name}. Nothing changed.")
            if len(guardians) == 1:
                raise Conflict(f"<@{guardian_id}> is {target.name}'s only guardian: a player without a Discord "
                               "account always has someone to check in and hear reminders for them. Add another "
                               "guardian first (/roster guardian add), or take the player off the roster. "
                               "Nothing changed.")
            row = await session.scalar(select(PlayerGuardian).where(
                PlayerGuardian.league_id == caller.league_id, PlayerGuardian.player_id == target.id,
                PlayerGuardian.discord_id == guardian_id))
            await session.delete(row)
            return GuardianRemoved(target.name, len(guardians) - 1, guardian_id == caller.discord_id)

    async def managed_names(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """(label, value) suggestions: players without an account on the teams the caller captains
        (every team for a commissioner), for /roster guardian add."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            rows = (await session.execute(
                select(Player.id, Player.name, RosterEntry.team_id)
                .join(RosterEntry, RosterEntry.player_id == Player.id)
                .where(Player.league_id == caller.league_id, Player.discord_id.is_(None))
                .order_by(Player.name, Player.id))).all()
            typed = current.strip().casefold()
            return [(r.name, str(r.id)) for r in rows
                    if (caller.is_commissioner or is_captain_of(caller, member, r.team_id))
                    and typed in r.name.casefold()][:25]

    async def accountless_names(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """(label, value) suggestions: every player of the league without a Discord account, for commands
        that otherwise pick a member (game sheets, goals, penalties, statistics)."""
        async with self.sessions() as session:
            return await accountless(session, caller.league_id, current)

    async def _check_trade_only(self, session: AsyncSession, caller: Caller, team: Team, player_id: int) -> None:
        """Where players move between teams only by trade once the draft is done (youth 1.9, after 1.7's draft),
        a player on another team, or who left one since the draft, can't be added here: that move is a trade."""
        rules = caller.league.rules.trades
        if not rules.trades_only_after_draft:
            return
        division = team.division.name if team.division is not None else None
        held = await draft_done(session, caller.league_id, division, caller.league.timezone, self.clock.now())
        if held is None:
            return
        elsewhere = await session.scalar(select(RosterEntry.id).where(
            RosterEntry.league_id == caller.league_id, RosterEntry.player_id == player_id,
            RosterEntry.team_id != team.id).limit(1))
        # The team they last left since the draft: another one makes this a move (back to the same team isn't).
        last_left = await session.scalar(select(RosterDeparture.team_id).where(
            RosterDeparture.league_id == caller.league_id, RosterDeparture.player_id == player_id,
            RosterDeparture.left_at >= held, RosterDeparture.reason.is_distinct_from(SEASON))
            .order_by(RosterDeparture.left_at.desc(), RosterDeparture.id.desc()).limit(1))
        if elsewhere is None and (last_left is None or last_left == team.id):
            return
        cite = f" ({rules.trade_citations.trade})" if rules.trade_citations.trade else ""
        raise Conflict(f"Since the draft, players move between teams only by trade{cite}. A captain proposes one "
                       "with /trade propose, the other team's captain accepts it, and it takes effect after the "
                       "league's notice. Nothing changed.")

    async def _check_trade_deadline(self, session: AsyncSession, caller: Caller, player_id: int, team_id: int) -> None:
        """A player who left another team this season and joins this one is traded: refused after the
        trade deadline week (youth 1.9: "the deadline for trades is at the end of week 10")."""
        rules = caller.league.rules.deadlines
        if rules.trade_deadline_week is None:
            return
        season = await running_season(session, caller.league_id)
        if season is None:
            return
        # Leaving at a season's start with the rosters cleared is re-registering, not a trade.
        moved = await session.scalar(select(RosterDeparture.id).where(
            RosterDeparture.league_id == caller.league_id, RosterDeparture.player_id == player_id,
            RosterDeparture.team_id != team_id, RosterDeparture.left_at >= season.starts_at,
            RosterDeparture.reason.is_distinct_from(SEASON)).limit(1))
        deadline = trade_deadline(season.first_day, caller.league.timezone, rules)
        if moved is None or deadline is None or self.clock.now() < deadline:
            return
        cite = rules.deadline_citations.trades or "league setting trade_deadline_week"
        raise Conflict(f"The trade deadline has passed: trades must take effect by the end of week "
                       f"{rules.trade_deadline_week} of {season.name} (<t:{int(deadline.timestamp())}:F>) ({cite}). "
                       "A commissioner can move the deadline with `/setup rule key:trade_deadline_week`.")

    async def remove(self, caller: Caller, *, discord_id: int | None, team_name: str | None = None,
                     managed: str | None = None) -> RosterChange:
        """Take a player off their team; ``managed`` names a player without a Discord account instead."""
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            if managed is not None:
                found = await _managed_by_name(session, caller.league_id, managed, id_text=True)
                entry = found[1] if found is not None else None
            else:
                assert discord_id is not None
                entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is None:
                raise NotFound("That player isn't on any roster in this league.")
            team = await lookups.team_by_id(session, caller.league_id, entry.team_id)
            assert team is not None
            if team_name and team.name.lower() != team_name.strip().lower():
                raise NotFound(f"That player isn't on {quote(team_name)}.")
            require_captain_or_commissioner(caller, member, team)
            name = entry.player.name
            # Kept, so that a suspension follows the player to their next team (youth 1.20.1) and
            # /roster show season: still lists them.
            roster_history.leave(session, entry, self.clock.now(), REMOVED)
            await session.delete(entry)
            await session.flush()
            if discord_id is not None:  # a player without a Discord account holds no team role
                await team_roles.follow(session, caller.league, caller.league_id, team.id, discord_id,
                                        self.clock.now())
            size = await lookups.roster_size(session, caller.league_id, team.id)
            return RosterChange(team.name, name, "removed", size, caller.league.rules.lineup.roster_limit)


async def _managed_by_name(session: AsyncSession, league_id: int, name: str, *,
                           id_text: bool = False) -> tuple[Player, RosterEntry | None] | None:
    """The league's player without a Discord account called ``name`` (or, with ``id_text``, whose id it
    is, as suggestions carry), with their roster place."""
    text = clean_text(name)  # as names are stored: no control characters reach the query
    found = select(Player, RosterEntry).outerjoin(RosterEntry, RosterEntry.player_id == Player.id).where(
        Player.league_id == league_id, Player.discord_id.is_(None))
    if id_text and text.isascii() and text.isdigit() and len(text) <= 18:  # a row id, never past 64 bits
        row = (await session.execute(found.where(Player.id == int(text)))).first()
        if row is not None:
            return row[0], row[1]
    row = (await session.execute(found.where(func.lower(Player.name) == text.lower()).order_by(Player.id))).first()
    return (row[0], row[1]) if row is not None else None


async def _add_guardian_row(session: AsyncSession, caller: Caller, player_id: int, guardian_id: int) -> bool:
    """Record ``guardian_id`` as managing the player; False when they already did."""
    if await is_guardian(session, caller.league_id, player_id, guardian_id):
        return False
    session.add(PlayerGuardian(league_id=caller.league_id, player_id=player_id, discord_id=guardian_id,
                               added_by=caller.discord_id))
    await session.flush()
    return True
