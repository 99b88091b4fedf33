"""Spare requests: a captain asks, the bot offers the missing spots to eligible spares in waves, and
the first valid Accept takes a spot.

How it survives restarts and races:
- Each wave is an outbox row (kind ``spare_wave``) queued when the captain asks, the second one
  ``WAVE_DELAY`` later; the courier renders it at send time into one DM per spare, and the offers
  it makes are rows with a unique (request, spare) key written in the same unit of work. A restart
  re-renders an unsent wave; a wave that went out is never rendered again; nobody is offered twice.
- An accept locks the request row (PostgreSQL; SQLite's writers take turns) and takes the spot with
  a conditional UPDATE on the spots filled so far, so of two accepts at the same instant exactly one
  fills; the other reads the lineup again and is told it's filled.
- The request closes when the lineup is legal (checked at every wave and every accept) or the game
  starts; later presses get a polite answer and change nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.spares.matching import offer_waves, role_for
from bot.league.spares.needs import Need
from bot.services import outbox
from bot.services.outbox import FanOut, Outgoing, Rendered
from bot.services.people import is_captain_of, membership
from bot.services.shared.attendance import GameRef, GameSides, game_sides
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import find_game_sides
from bot.services.shared.spare_buttons import ACCEPT, DECLINE, offer_button_id
from bot.services.spares.matching import candidates_for, need_for
from storage import lookups
from storage.db import retried_on_disconnect, rowcount, upsert_insert
from storage.lookups import TeamRef
from storage.models import Game, GameSpare, League, OutboxMessage, Player, SpareOffer, SpareRequest

log = logging.getLogger("sideline.spares")

WAVE_KIND = "spare_wave"
#: The wider second wave goes out this long after the best matches were asked (sooner for a game that near).
WAVE_DELAY = timedelta(hours=2)
CONTENT_LIMIT = 2000


@dataclass(frozen=True)
class Requested:
    game: GameRef
    team: str
    need: str
    first_wave: int  # spares asked now
    second_wave: int  # spares asked later if the spot is still open
    second_wave_at: datetime | None  # None: the second wave went out already
    already_open: bool
    best_first: bool = True  # the first wave are best matches (else: everyone who fits, asked at once)
    asked: tuple[int, int] = (0, 0)  # spares offered so far in the first and the second wave (an open request)


@dataclass(frozen=True)
class OfferAnswer:
    """What the spare reads after pressing Accept or Decline."""

    text: str
    filled: bool = False


def game_line(game: GameRef) -> str:
    return (f"**{game.home} vs {game.away}** · {timestamp(game.starts_at)} ({timestamp(game.starts_at, 'R')}) · "
            f"{game.venue or 'venue TBA'} · `{game.code}`")


def _started(game: GameRef, now: datetime) -> bool:
    return game.status != "scheduled" or game.starts_at <= now


@retried_on_disconnect
class SpareRequestService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.suspensions = require_check(suspensions, "spare requests")

    # --- the captain asks -------------------------------------------------------------------------------
    async def request(self, caller: Caller, game_code: str | None = None, *, game_id: int | None = None,
                      team_id: int | None = None, in_a_dm: bool = False) -> Requested:
        """Open (or reopen) the team's request for the game and queue its waves of offers.

        By command, or by the button under a captain's lineup alert (``game_id`` and ``team_id``). In a
        DM there are no roles to read, so being marked captain of the team is what counts there."""
        if not (caller.has_captain_role or in_a_dm):
            raise NotAllowed("Only a team's captain can ask for a spare. /whoisin shows who is coming.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            if in_a_dm and team_id not in (await membership(session, caller)).captain_of:
                # No server says who is asking: tell nobody else anything about the game or its teams.
                raise NotAllowed("That button is for the team's captains; nothing changed.")
            if game_id is not None:
                code = await session.scalar(select(Game.code).where(Game.id == game_id,
                                                                    Game.league_id == caller.league_id))
                if code is None:
                    raise NotFound("That game is no longer on the schedule; nothing changed.")
                game_code = code
            game = await find_game_sides(session, caller, game_code or "")
            member = await membership(session, caller)
            teams = [t for t in (game.home, game.away)
                     if (t.id in member.captain_of if in_a_dm else is_captain_of(caller, member, t.id))
                     and team_id in (None, t.id)]
            if not teams:
                raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name} can ask for a spare "
                                 f"for {game.ref.code}.")
            team = next((t for t in teams if t.id == member.team_id), teams[0])
            if game.ref.status == "cancelled":
                raise Conflict(f"{game.ref.code} ({game.ref.title}) was cancelled.")
            if _started(game.ref, now):
                raise Conflict(f"{game.ref.code} ({game.ref.title}) has already started: too late to ask spares.")
            need = await need_for(session, self.suspensions, caller.league, caller.league_id, game, team)
            if need.met:
                raise InvalidInput(f"{team.name}'s lineup for {game.ref.code} is already legal: "
                                   "there's nothing to ask spares for. /lineup shows it.")
            request, already = await self._open(session, caller, game, team, need, now)
            matches = await candidates_for(session, self.suspensions, caller.league_id, game)
            offered = set((await session.scalars(select(SpareOffer.player_id)
                                                 .where(SpareOffer.request_id == request.id))).all())
            waves = offer_waves(need, [m.candidate for m in matches if m.candidate.player_id not in offered],
                                _weekday(game.ref, caller.league))
            if already:
                asked, pending = await _asked_so_far(session, request)
                return Requested(game.ref, team.name, need.describe(), len(waves.now), len(waves.later), pending,
                                 True, waves.best, asked)
            second_at = min(now + WAVE_DELAY, now + (game.ref.starts_at - now) / 2)
            for wave, due in ((1, now), (2, second_at)):
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                     key=f"spare:{request.id}:{request.round}:wave{wave}", due_at=due,
                                     kind=WAVE_KIND, user_id=caller.discord_id, expires_at=game.ref.starts_at,
                                     args={"request_id": request.id, "round": request.round, "wave": wave})
            return Requested(game.ref, team.name, need.describe(), len(waves.now), len(waves.later), second_at,
                             False, waves.best)

    async def _open(self, session: AsyncSession, caller: Caller, game: GameSides, team: TeamRef, need: Need,
                    now: datetime) -> tuple[SpareRequest, bool]:
        """The team's request for the game, opened now, or (True) the one already open."""
        insert = upsert_insert(session)(SpareRequest).values(
            league_id=caller.league_id, game_id=game.id, team_id=team.id, requested_by=caller.discord_id,
            status="open", round=1, filled=0, need=need.describe()[:300], created_at=now)
        created = rowcount(await session.execute(insert.on_conflict_do_nothing(
            index_elements=[SpareRequest.game_id, SpareRequest.team_id])))
        request = await session.scalar(select(SpareRequest).where(
            SpareRequest.game_id == game.id, SpareRequest.team_id == team.id).with_for_update())
        assert request is not None
        if created:
            return request, False
        if request.status == "open":
            return request, True
        request.status, request.round, request.filled = "open", request.round + 1, 0
        request.need, request.requested_by, request.created_at, request.closed_at = (
            need.describe()[:300], caller.discord_id, now, None)
        return request, False

    # --- the courier renders a wave -----------------------------------------------------------------------
    async def render_wave(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        """The offers of one wave, as one DM per spare not offered yet; nothing once the request closed."""
        request = await session.get(SpareRequest, int(row.args.get("request_id", 0)))
        if request is None or request.league_id != row.league_id or request.status != "open" \
                or request.round != row.args.get("round"):
            return None
        league = self.settings.league_for_guild(row.guild_id)
        game = await _game(session, request)
        if league is None or game is None:
            return None
        team = game.home if game.home.id == request.team_id else game.away
        if _started(game.ref, now):
            await _close(session, request, "closed", now)
            return None
        need = await need_for(session, self.suspensions, league, request.league_id, game, team)
        if need.met:
            await _close(session, request, "filled", now)
            return None
        offered = set((await session.scalars(select(SpareOffer.player_id)
                                             .where(SpareOffer.request_id == request.id))).all())
        matches = [m for m in await candidates_for(session, self.suspensions, request.league_id, game)
                   if m.candidate.player_id not in offered]
        waves = offer_waves(need, [m.candidate for m in matches], _weekday(game.ref, league))
        wave = int(row.args.get("wave", 1))
        chosen = set(waves.now) | (set(waves.later) if wave > 1 else set())
        children = []
        for match in matches:
            pid = match.candidate.player_id
            if pid not in chosen:
                continue
            offer_id = await session.scalar(
                upsert_insert(session)(SpareOffer).values(
                    league_id=request.league_id, request_id=request.id, player_id=pid, round=request.round,
                    wave=wave, offered_at=now)
                .on_conflict_do_nothing(index_elements=[SpareOffer.request_id, SpareOffer.player_id])
                .returning(SpareOffer.id))
            if offer_id is None:
                continue
            text = clip(f"🙋 **{team.name}** need a spare: {need.describe()}.\n{game_line(game.ref)}\n"
                        "Can you play? The first to accept gets the spot.", CONTENT_LIMIT)
            buttons = (("Accept", offer_button_id(request.league_id, offer_id, ACCEPT)),
                       ("Decline", offer_button_id(request.league_id, offer_id, DECLINE)))
            children.append((str(pid), match.discord_id, Outgoing(content=text, buttons=buttons)))
        log.info("spare request %s round %s wave %s: %d offer(s)", request.id, request.round, wave, len(children))
        return FanOut(tuple(children))

    # --- a spare answers --------------------------------------------------------------------------------
    async def answer(self, league_id: int, offer_id: int, discord_id: int, action: str) -> OfferAnswer:
        """Accept or decline one offer; the first valid accept takes a spot, anything late changes nothing."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            offer = await session.scalar(select(SpareOffer).where(SpareOffer.id == offer_id,
                                                                  SpareOffer.league_id == league_id))
            who = None if offer is None else await session.scalar(
                select(Player.discord_id).where(Player.id == offer.player_id))
            if offer is None or who != discord_id:
                raise NotAllowed("That offer isn't yours to answer.")
            if offer.answer is not None:
                raise Conflict(f"You already {offer.answer} this offer; nothing changed.")
            request = await session.scalar(select(SpareRequest).where(SpareRequest.id == offer.request_id)
                                           .with_for_update())
            assert request is not None
            game = await _game(session, request)
            guild_id = await session.scalar(select(League.guild_id).where(League.id == league_id))
            league = self.settings.league_for_guild(guild_id) if guild_id is not None else None
            if game is None or league is None:
                raise NotFound("That game is gone from the schedule.")
            if request.status != "open" or request.round != offer.round:
                raise Conflict("Thanks, but that spot is already filled (or no longer needed); nothing changed.")
            if _started(game.ref, now):
                await _close(session, request, "closed", now)
                gone = "was cancelled" if game.ref.status == "cancelled" else "has started"
                return OfferAnswer(f"Thanks, but that game {gone}: the request is closed and nothing changed.")
            if action == DECLINE:
                offer.answer, offer.answered_at = "declined", now
                return OfferAnswer(f"No problem: you declined the spot for {game.ref.code}. Thanks for answering.")
            team = game.home if game.home.id == request.team_id else game.away
            return await self._accept(session, league, game, team, request, offer, discord_id, now)

    async def _accept(self, session: AsyncSession, league: LeagueSettings, game: GameSides, team: TeamRef,
                      request: SpareRequest, offer: SpareOffer, discord_id: int, now: datetime) -> OfferAnswer:
        need = await need_for(session, self.suspensions, league, request.league_id, game, team)
        if need.met:
            await _close(session, request, "filled", now)
            await self._tell_the_rest(session, league, request, game, now)
            return OfferAnswer("Thanks, but that spot is already filled; nothing changed.")
        (match,) = await candidates_for(session, self.suspensions, request.league_id, game,
                                        player_ids=[offer.player_id]) or (None,)
        role = None if match is None else role_for(need, match.candidate)
        if match is None or role is None:
            raise Conflict("Thanks, but you can't take this spot now (you may have left the spare list, have a "
                           "game of your own then, or the team now needs someone else); nothing changed.")
        seen = request.filled
        taken = await session.execute(update(SpareRequest)
                                      .where(SpareRequest.id == request.id, SpareRequest.status == "open",
                                             SpareRequest.round == offer.round, SpareRequest.filled == seen)
                                      .values(filled=SpareRequest.filled + 1))
        if rowcount(taken) != 1:  # another accept got there first
            raise Conflict("Thanks, but someone else just took that spot; nothing changed.")
        session.add(GameSpare(league_id=request.league_id, game_id=game.id, team_id=team.id,
                              player_id=offer.player_id, request_id=request.id, position=role, filled_at=now))
        offer.answer, offer.answered_at = "accepted", now
        await session.flush()
        await session.refresh(request)
        after = await need_for(session, self.suspensions, league, request.league_id, game, team)
        if after.met:
            await _close(session, request, "filled", now)
            await self._tell_the_rest(session, league, request, game, now)
        details = game_line(game.ref)
        as_ = "in goal" if role == "goalie" else "as a skater"
        await outbox.enqueue(session, league_id=request.league_id, guild_id=league.guild_id,
                             key=f"spare:{request.id}:{request.round}:confirm:{offer.player_id}", due_at=now,
                             message=Outgoing(content=clip(f"✅ You're playing for **{team.name}** {as_}: "
                                                           f"{details}", CONTENT_LIMIT)),
                             user_id=discord_id)
        status = ("The lineup is now legal." if after.met else f"Still missing: {after.describe()}.")
        for captain in await lookups.captain_ids(session, team.id):
            await outbox.enqueue(
                session, league_id=request.league_id, guild_id=league.guild_id,
                key=f"spare:{request.id}:{request.round}:filled-by:{offer.player_id}:{captain}", due_at=now,
                user_id=captain, message=Outgoing(content=clip(
                    f"🙋 **{match.name}** took a spare spot for {team.name} {as_}: {details}\n{status} "
                    "They're on /whoisin and /lineup.", CONTENT_LIMIT)))
        return OfferAnswer(clip(f"✅ The spot is yours: you're playing for **{team.name}** {as_}.\n{details}\n"
                                "Your captain is told.", CONTENT_LIMIT), filled=True)

    async def _tell_the_rest(self, session: AsyncSession, league: LeagueSettings, request: SpareRequest,
                             game: GameSides, now: datetime) -> None:
        """Everyone offered who hasn't answered hears that the spots are filled."""
        waiting = (await session.execute(
            select(SpareOffer.player_id, Player.discord_id).join(Player, Player.id == SpareOffer.player_id)
            .where(SpareOffer.request_id == request.id, SpareOffer.round == request.round,
                   SpareOffer.answer.is_(None)))).all()
        for row in waiting:
            await outbox.enqueue(
                session, league_id=request.league_id, guild_id=league.guild_id,
                key=f"spare:{request.id}:{request.round}:closed:{row.player_id}", due_at=now, user_id=row.discord_id,
                expires_at=game.ref.starts_at,
                message=Outgoing(content=f"The spare spot for `{game.ref.code}` ({game.ref.title}) is filled. "
                                         "Thanks for being on the spare list!"))


async def _asked_so_far(session: AsyncSession, request: SpareRequest) -> tuple[tuple[int, int], datetime | None]:
    """Spares offered in this round's first and second wave, and when the second goes out (None: it went)."""
    rows = (await session.execute(
        select(SpareOffer.wave, func.count()).where(SpareOffer.request_id == request.id,
                                                    SpareOffer.round == request.round)
        .group_by(SpareOffer.wave))).all()
    by_wave = {int(wave): int(n) for wave, n in rows}
    pending = await session.scalar(select(OutboxMessage.due_at).where(
        OutboxMessage.send_key == f"spare:{request.id}:{request.round}:wave2", OutboxMessage.status == "pending"))
    return (by_wave.get(1, 0), by_wave.get(2, 0)), pending


async def _game(session: AsyncSession, request: SpareRequest) -> GameSides | None:
    game_code = await session.scalar(select(Game.code).where(Game.id == request.game_id))
    return None if game_code is None else await game_sides(session, request.league_id, game_code)


async def _close(session: AsyncSession, request: SpareRequest, status: str, now: datetime) -> None:
    request.status, request.closed_at = status, now
    await session.flush()


def _weekday(game: GameRef, league: LeagueSettings) -> int:
    return game.starts_at.astimezone(league.timezone).weekday()
