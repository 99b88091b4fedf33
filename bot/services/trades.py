"""/trade propose, accept, decline, withdraw, veto and list (youth 1.9), and the trade taking effect.

A captain of one team proposes; a captain of the other accepts or declines; the proposer may withdraw it and
a commissioner may veto it, each until it takes effect. When (the notice after submission, or later if
asked) and whether it is too late (the deadline week) are bot/league/trades.py's.

Restart safety: accepting queues one outbox action keyed by the trade, due at its effect time; the action
moves the players only while the trade is still accepted, in the same unit of work that marks it effective,
so it happens once whatever restarts in between (late, if the bot was down at the time: the trade was in time
when accepted). A suspension needs nothing: it belongs to the player, and
the roster's history (bot/services/rosters/history.py) records the move as for any other.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clean_user_text, clip, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.deadlines import trade_deadline
from bot.league.local_time import parse_local_time
from bot.league.rosters import MOVED
from bot.league.trades import OPEN, check_effect, check_sides, effect_time, vetoable
from bot.services import outbox
from bot.services.discipline.reviews import notify_commissioners
from bot.services.discord_sync import team_roles
from bot.services.outbox import ActionOutcome, ActionRow, Outgoing
from bot.services.people import is_captain_of, membership, own_team_id
from bot.services.rosters import history as roster_history
from bot.services.shared.seasons import running_season
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Player, RosterEntry, Team, Trade, TradePlayer

log = logging.getLogger("sideline.trades")

EFFECT_KIND = "trade_effect"
NOTE_LIMIT = 300
_MENTION = re.compile(r"^<@!?(\d{15,20})>$")


@dataclass(frozen=True)
class TradeView:
    id: int
    from_team: str
    to_team: str
    leaving: tuple[str, ...]  # from ``from_team`` to ``to_team``
    coming: tuple[str, ...]  # from ``to_team`` to ``from_team``
    state: str
    submitted_at: datetime
    effective_at: datetime
    note: str = ""
    rule: str = ""  # the rulebook section behind the notice and the veto ("" in a league without one)

    @property
    def cited(self) -> str:
        """The rule in brackets after a sentence, or nothing in a league whose rulebook has none."""
        return f" ({self.rule})" if self.rule else ""


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


@retried_on_disconnect
class TradeService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings  # the league a queued effect belongs to

    async def propose(self, caller: Caller, *, team: str, players_out: str, players_in: str | None = None,
                      takes_effect: str | None = None, from_team: str | None = None) -> TradeView:
        rules = caller.league.rules.trades
        now = self.clock.now()
        requested = None
        if takes_effect and takes_effect.strip():
            try:
                requested = parse_local_time(takes_effect.strip(), caller.league.timezone)
            except ValueError:
                raise InvalidInput("Give the time the trade should take effect like 2030-02-01 19:00 (the league's "
                                   "time zone), or leave it empty for the earliest. Nothing changed.") from None
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            ours = await self._team(session, caller, from_team) if from_team else None
            if ours is None:
                own = own_team_id(member)
                ours = await lookups.team_by_id(session, caller.league_id, own) if own is not None else None
            if ours is None:
                raise NotFound("You're not a captain of a team in this league. Commissioners: name the proposing "
                               "team in from_team. Nothing changed.")
            if not (caller.is_commissioner or is_captain_of(caller, member, ours.id)):
                raise NotAllowed(f"Only {ours.name}'s captain or a commissioner can propose its trades. Nothing "
                                 "changed.")
            theirs = await self._team(session, caller, team)
            if theirs.id == ours.id:
                raise InvalidInput("A trade is between two different teams. Nothing changed.")
            leaving = await self._players(session, caller, ours, _split(players_out))
            coming = await self._players(session, caller, theirs, _split(players_in))
            problem = check_sides([p.id for p in leaving], [p.id for p in coming])
            if problem is not None:
                raise InvalidInput(f"{problem.cited()} Nothing changed.")
            busy = await session.scalar(select(TradePlayer.trade_id).join(Trade, Trade.id == TradePlayer.trade_id)
                                        .where(TradePlayer.league_id == caller.league_id, Trade.state.in_(OPEN),
                                               TradePlayer.player_id.in_([p.id for p in leaving + coming])).limit(1))
            if busy is not None:
                raise Conflict(f"A player you named is already in trade #{busy}, still open. Nothing changed.")
            effect = effect_time(now, rules, requested)
            await self._check_deadline(session, caller.league, caller.league_id, effect)
            row = Trade(league_id=caller.league_id, from_team_id=ours.id, to_team_id=theirs.id, state="proposed",
                        submitted_by=caller.discord_id, submitted_at=now, effective_at=effect)
            session.add(row)
            await session.flush()
            for team_row, players in ((ours, leaving), (theirs, coming)):
                for p in players:
                    session.add(TradePlayer(league_id=caller.league_id, trade_id=row.id, player_id=p.id,
                                            from_team_id=team_row.id, name=p.name))
            view = _view(row, ours.name, theirs.name, [p.name for p in leaving], [p.name for p in coming],
                         rules.trade_citations.trade)
            await self._tell_team(session, caller.league, caller.league_id, theirs, f"trade:{row.id}:proposed",
                                  f"🔄 {ours.name} proposes trade #{row.id}: {_summary(view)}. It would take effect "
                                  f"{timestamp(effect)}. A captain of {theirs.name} answers with `/trade accept "
                                  f"trade:{row.id}` or `/trade decline trade:{row.id}`.", now)
            await notify_commissioners(session, caller.league, caller.league_id, key=f"trade:{row.id}:filed",
                                       private=clip(f"🔄 Commissioners: trade #{row.id} proposed, {_summary(view)}; "
                                                    f"it would take effect {timestamp(effect)}{view.cited}. You "
                                                    f"can veto it until then with `/trade veto trade:{row.id}`.",
                                                    2000),
                                       public=f"🔄 Commissioners: trade #{row.id} was proposed; `/trade list` shows "
                                              "it.", now=now)
            return view

    async def accept(self, caller: Caller, trade_id: int) -> TradeView:
        """The other team's captain accepts: the trade takes effect at its time (now, if that has passed)."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            row, ours, theirs = await self._to_answer(session, caller, trade_id, "accept")
            row.effective_at = max(row.effective_at, now)
            await self._check_deadline(session, caller.league, caller.league_id, row.effective_at)
            row.state, row.answered_by, row.answered_at = "accepted", caller.discord_id, now
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                 key=f"trade:{row.id}:effect", due_at=row.effective_at, kind=EFFECT_KIND,
                                 args={"trade_id": row.id}, action=True)
            view = await self._view_of(session, row, ours, theirs, caller.league)
            text = (f"✅ {theirs.name} accepted trade #{row.id}: {_summary(view)}. It takes effect "
                    f"{timestamp(row.effective_at)} unless a commissioner vetoes it before then.")
            await self._tell_team(session, caller.league, caller.league_id, ours, f"trade:{row.id}:accepted", text, now)
            await notify_commissioners(session, caller.league, caller.league_id, key=f"trade:{row.id}:accepted",
                                       private=clip(text + f" Veto: `/trade veto trade:{row.id}`.", 2000),
                                       public=f"✅ Trade #{row.id} was accepted; `/trade list` shows it.", now=now)
            return view

    async def decline(self, caller: Caller, trade_id: int) -> TradeView:
        async with self.sessions.begin() as session:
            row, ours, theirs = await self._to_answer(session, caller, trade_id, "decline",
                                                      "; only a commissioner's veto can stop it now")
            return await self._end(session, caller, row, ours, theirs, "declined", "",
                                   f"❌ {theirs.name} declined trade #{row.id}", (ours,))

    async def withdraw(self, caller: Caller, trade_id: int) -> TradeView:
        async with self.sessions.begin() as session:
            row, ours, theirs = await self._open(session, caller, trade_id)
            await self._require_side(session, caller, ours, row, "withdraw")
            if row.effective_at <= self.clock.now():
                raise Conflict(f"Trade #{row.id} is taking effect now. Nothing changed.")
            return await self._end(session, caller, row, ours, theirs, "withdrawn", "",
                                   f"↩️ {ours.name} withdrew trade #{row.id}", (theirs,))

    async def veto(self, caller: Caller, trade_id: int, reason: str | None = None) -> TradeView:
        caller.require(Role.COMMISSIONER)
        said = clean_user_text(reason or "", NOTE_LIMIT).strip()
        async with self.sessions.begin() as session:
            row, ours, theirs = await self._open(session, caller, trade_id)
            if not vetoable(row.state, row.effective_at, self.clock.now()):
                raise Conflict(f"Trade #{row.id} has reached its effect time ({timestamp(row.effective_at)}); a veto "
                               "comes before it. Nothing changed.")
            return await self._end(session, caller, row, ours, theirs, "vetoed", said,
                                   f"⛔ A commissioner vetoed trade #{row.id}", (ours, theirs))

    async def recent(self, caller: Caller, team: str | None = None) -> list[TradeView]:
        """A team's open trades, then its latest finished ones (its captains and commissioners); without a team,
        the caller's own team's, or every team's for a commissioner."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            query = select(Trade).where(Trade.league_id == caller.league_id)
            found = await self._team(session, caller, team) if team else None
            if found is None and not caller.is_commissioner:
                own = own_team_id(member)
                found = await lookups.team_by_id(session, caller.league_id, own) if own is not None else None
                if found is None:
                    raise NotAllowed("Only captains and commissioners see trades.")
            if found is not None:
                if not (caller.is_commissioner or is_captain_of(caller, member, found.id)):
                    raise NotAllowed(f"Only {found.name}'s captain or a commissioner sees its trades.")
                query = query.where(or_(Trade.from_team_id == found.id, Trade.to_team_id == found.id))
            rows = (await session.scalars(query.order_by(Trade.state.not_in(OPEN), Trade.id.desc()).limit(15))).all()
            names = {t.id: t.name for t in (await session.scalars(select(Team).where(
                Team.league_id == caller.league_id))).all()}
            return [await self._view_of(session, r, names, names, caller.league) for r in rows]

    async def open_ids(self, caller: Caller, current: str) -> list[tuple[str, int]]:
        """(label, id) suggestions: the open trades the caller may act on."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            rows = (await session.execute(
                select(Trade.id, Trade.from_team_id, Trade.to_team_id).where(
                    Trade.league_id == caller.league_id, Trade.state.in_(OPEN)).order_by(Trade.id.desc()))).all()
            names = {r.id: r.name for r in (await session.execute(select(Team.id, Team.name).where(
                Team.league_id == caller.league_id))).all()}
            return [(f"#{r.id} {names.get(r.from_team_id, '?')} ⇄ {names.get(r.to_team_id, '?')}", r.id) for r in rows
                    if (caller.is_commissioner or is_captain_of(caller, member, r.from_team_id)
                        or is_captain_of(caller, member, r.to_team_id)) and current.strip() in str(r.id)][:25]

    async def player_names(self, caller: Caller, team: str | None, current: str) -> list[str]:
        """Names on ``team``'s roster (None: the caller's own) matching what is being typed."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            if team:
                found = await lookups.team_by_name(session, caller.league_id, team)
                team_id = found.id if found is not None else None
            else:
                team_id = own_team_id(member)
            if team_id is None and not caller.is_commissioner:
                return []
            query = select(Player.name).join(RosterEntry, RosterEntry.player_id == Player.id).where(
                RosterEntry.league_id == caller.league_id)
            if team_id is not None:  # else a commissioner of no team: every rostered player
                query = query.where(RosterEntry.team_id == team_id)
            names = (await session.scalars(query.order_by(Player.name))).all()
            typed = current.strip().casefold()
            return [n for n in names if typed in n.casefold()][:25]

    async def take_effect(self, api: object, row: ActionRow) -> ActionOutcome:
        """The outbox action due at a trade's effect time: the players move, once."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            trade = await session.scalar(select(Trade).where(Trade.league_id == row.league_id,
                                                             Trade.id == int(row.args["trade_id"])).with_for_update())
            if trade is None or trade.state != "accepted":
                return ActionOutcome("skipped", "no longer accepted")
            league = self.settings.league_for_guild(row.guild_id)
            if league is None:
                return ActionOutcome("skipped", "the league is no longer set up")
            teams = {t.id: t for t in (await session.scalars(select(Team).where(
                Team.league_id == trade.league_id, Team.id.in_([trade.from_team_id, trade.to_team_id])))).all()}
            players = (await session.scalars(select(TradePlayer).where(TradePlayer.trade_id == trade.id))).all()
            entries = {e.player_id: e for e in (await session.scalars(select(RosterEntry).where(
                RosterEntry.league_id == trade.league_id,
                RosterEntry.player_id.in_([p.player_id for p in players])))).all()}
            gone = [p.name for p in players if entries.get(p.player_id) is None
                    or entries[p.player_id].team_id != p.from_team_id]
            view = await self._view_of(session, trade, teams[trade.from_team_id], teams[trade.to_team_id], league)
            if gone:
                trade.state, trade.note = "cancelled", clip(f"no longer on their team: {', '.join(gone)}", NOTE_LIMIT)
                text = (f"⚠️ Trade #{trade.id} ({_summary(view)}) couldn't take effect: "
                        f"{', '.join(gone)} had left their team. Nothing moved; propose it again if still wanted.")
            else:
                for p in players:
                    entry = entries[p.player_id]
                    roster_history.leave(session, entry, now, MOVED)  # kept: a suspension follows the player
                    entry.team_id = trade.to_team_id if p.from_team_id == trade.from_team_id else trade.from_team_id
                    entry.added_at = now
                await session.flush()
                for p in players:
                    discord_id = entries[p.player_id].player.discord_id
                    if discord_id is not None:
                        for team_id in (trade.from_team_id, trade.to_team_id):
                            await team_roles.follow(session, league, trade.league_id, team_id, discord_id, now)
                trade.state, trade.applied_at = "effective", now
                text = f"🔄 Trade #{trade.id} took effect: {_summary(view)}."
            for team in teams.values():
                await self._tell_team(session, league, trade.league_id, team, f"trade:{trade.id}:{trade.state}", text,
                                      now)
            await notify_commissioners(session, league, trade.league_id, key=f"trade:{trade.id}:{trade.state}",
                                       private=clip(text, 2000), public=clip(text, 2000), now=now)
            log.info("trade #%s %s", trade.id, trade.state)
            return ActionOutcome("sent", trade.state)

    # --- inside ----------------------------------------------------------------------------------
    async def _team(self, session: AsyncSession, caller: Caller, name: str) -> Team:
        team = await lookups.team_by_name(session, caller.league_id, name)
        if team is None:
            raise NotFound(f"There's no team called “{quote(name)}” in {caller.league.name}. Nothing changed.")
        return team

    async def _players(self, session: AsyncSession, caller: Caller, team: Team, names: list[str]) -> list[Player]:
        """Each named player (a name or an @mention) on ``team``'s roster."""
        roster = (await session.scalars(select(Player).join(RosterEntry, RosterEntry.player_id == Player.id).where(
            RosterEntry.league_id == caller.league_id, RosterEntry.team_id == team.id))).all()
        found: list[Player] = []
        for name in names:
            mention = _MENTION.match(name)
            matches = ([p for p in roster if p.discord_id == int(mention[1])] if mention
                       else [p for p in roster if p.name.casefold() == name.casefold()])
            if len(matches) != 1:
                why = "isn't" if not matches else "names more than one player"
                raise InvalidInput(f"“{quote(name)}” {why} on {team.name}'s roster: name each player as the roster "
                                   "shows them, separated by commas. Nothing changed.")
            found.append(matches[0])
        return found

    async def _check_deadline(self, session: AsyncSession, league: LeagueSettings, league_id: int,
                              effect: datetime) -> None:
        season = await running_season(session, league_id)
        rules = league.rules
        deadline = (trade_deadline(season.first_day, league.timezone, rules.deadlines)
                    if season is not None else None)
        problem = check_effect(effect, deadline, rules.deadlines.trade_deadline_week, rules.trades)
        if problem is not None and deadline is not None and season is not None:
            raise Conflict(f"{problem.message} of {season.name} ({timestamp(deadline)}), and this one would take "
                           f"effect {timestamp(effect)}" + (f" ({problem.rule})" if problem.rule else "")
                           + ". Nothing changed.")

    async def _open(self, session: AsyncSession, caller: Caller, trade_id: int) -> tuple[Trade, Team, Team]:
        row = await session.scalar(select(Trade).where(Trade.league_id == caller.league_id, Trade.id == trade_id)
                                   .with_for_update())
        if row is None:
            raise NotFound(f"There's no trade #{trade_id} in this league; `/trade list` shows them.")
        if row.state not in OPEN:
            raise Conflict(f"Trade #{row.id} is {row.state} already. Nothing changed.")
        ours = await lookups.team_by_id(session, caller.league_id, row.from_team_id)
        theirs = await lookups.team_by_id(session, caller.league_id, row.to_team_id)
        assert ours is not None and theirs is not None
        return row, ours, theirs

    async def _to_answer(self, session: AsyncSession, caller: Caller, trade_id: int, verb: str,
                         too_late: str = "") -> tuple[Trade, Team, Team]:
        """The open trade the receiving team answers (accept or decline): only while it is still just proposed."""
        row, ours, theirs = await self._open(session, caller, trade_id)
        await self._require_side(session, caller, theirs, row, verb)
        if row.state != "proposed":
            raise Conflict(f"Trade #{row.id} was already accepted{too_late}. Nothing changed.")
        return row, ours, theirs

    async def _require_side(self, session: AsyncSession, caller: Caller, team: Team, row: Trade, verb: str) -> None:
        """Only ``team``'s captain or a commissioner acts for that side of a trade."""
        member = await membership(session, caller)
        if not (caller.is_commissioner or is_captain_of(caller, member, team.id)):
            raise NotAllowed(f"Only {team.name}'s captain or a commissioner can {verb} trade #{row.id}. "
                             "Nothing changed.")

    async def _end(self, session: AsyncSession, caller: Caller, row: Trade, ours: Team, theirs: Team, state: str,
                   note: str, head: str, tell: tuple[Team, ...]) -> TradeView:
        now = self.clock.now()
        row.state, row.answered_by, row.answered_at, row.note = state, caller.discord_id, now, note
        await outbox.cancel_pending(session, caller.league_id, f"trade:{row.id}:effect")
        view = await self._view_of(session, row, ours, theirs, caller.league)
        text = f"{head}: {_summary(view)}. Nothing changes." + (f" Reason: {note}" if note else "")
        for team in tell:
            await self._tell_team(session, caller.league, caller.league_id, team, f"trade:{row.id}:{state}", text, now)
        if state != "vetoed":
            await notify_commissioners(session, caller.league, caller.league_id, key=f"trade:{row.id}:{state}",
                                       private=clip(text, 2000), public=clip(text, 2000), now=now)
        return view

    async def _view_of(self, session: AsyncSession, row: Trade, ours: Team | dict[int, str],
                       theirs: Team | dict[int, str], league: LeagueSettings) -> TradeView:
        players = (await session.execute(select(TradePlayer.name, TradePlayer.from_team_id).where(
            TradePlayer.league_id == row.league_id, TradePlayer.trade_id == row.id).order_by(TradePlayer.id))).all()
        from_name = ours.get(row.from_team_id, "?") if isinstance(ours, dict) else ours.name
        to_name = theirs.get(row.to_team_id, "?") if isinstance(theirs, dict) else theirs.name
        return _view(row, from_name, to_name, [p.name for p in players if p.from_team_id == row.from_team_id],
                     [p.name for p in players if p.from_team_id != row.from_team_id],
                     league.rules.trades.trade_citations.trade)

    async def _tell_team(self, session: AsyncSession, league: LeagueSettings, league_id: int, team: Team, key: str,
                         text: str, now: datetime) -> None:
        """A team hears in its channel, else its captains by DM."""
        message = Outgoing(content=clip(text, 2000))
        if team.channel_id is not None:
            await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=f"{key}:team:{team.id}",
                                 due_at=now, channel_id=team.channel_id, message=message)
            return
        for who in await lookups.captain_ids(session, team.id):
            await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id,
                                 key=f"{key}:team:{team.id}:dm:{who}", due_at=now, user_id=who, message=message)


def _view(row: Trade, from_team: str, to_team: str, leaving: list[str], coming: list[str], rule: str) -> TradeView:
    return TradeView(row.id, from_team, to_team, tuple(leaving), tuple(coming), row.state, row.submitted_at,
                     row.effective_at, row.note, rule)


def _summary(view: TradeView) -> str:
    leaving = ", ".join(view.leaving) or "nobody"
    coming = ", ".join(view.coming) or "nobody"
    return f"{leaving} ({view.from_team}) for {coming} ({view.to_team})"

