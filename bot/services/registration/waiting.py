"""Dues and the waiting list (youth 1.15): payments recorded (never processed), the reminder before a fee's
deadline, the commissioners' one-button confirmation to replace a registrant who hasn't paid (a replacement
player who hasn't paid their prorated fee is only reported: their place is a team's), rejections,
and spots offered down the waiting list: a registrant's spot, or a team's place left by a player whose
replacement the commissioners approved (youth 1.16), which the registrant who accepts takes on that team's
roster with the season's fee prorated.

Restart safety: every message is an outbox row with a key of its own (sent once, even across a restart);
an offer is a row unique per registrant and opening (the registration or replacement request whose spot it
is), so nobody is offered the same spot twice; an offer's time limit is an outbox action due when it runs
out.
Choices the spec leaves open: the confirmation goes to the league's admin channel (commissioners' own);
an offer that runs out puts the registrant back in their place on the list (not offered that spot again);
declining an offer takes them off the list.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.registration.forms import PAYMENT_STATES, FormProblem, money, owes, parse_amount, payment_due
from bot.league.registration.presets import RegistrationRules
from bot.league.replacements.conditions import prorated_fee_cents
from bot.league.seasons import season_start
from bot.services import outbox
from bot.services.discord_sync import team_roles
from bot.services.outbox import ActionOutcome, ActionRow, Outgoing
from bot.services.registration.shared import BUTTON_PREFIX, HOLDING, Line, line_of, registration_of
from bot.services.shared.guardians import managed_player_for
from bot.services.shared.seasons import running_season, team_regular_games
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import (
    League,
    Player,
    Registration,
    RegistrationOffer,
    RegistrationWindow,
    ReplacementRequest,
    RosterEntry,
    Season,
    Team,
)

log = logging.getLogger("sideline.registration")

EXPIRY_KIND = "registration_offer_expiry"
ACCEPT, DECLINE = "accept", "decline"
REGISTRATION, REPLACEMENT = "registration", "replacement"  # what opened a spot (RegistrationOffer.opening_kind)


def replace_button_id(registration_id: int) -> str:
    return f"{BUTTON_PREFIX}replace:{registration_id}"


def offer_button_id(action: str, offer_id: int) -> str:
    return f"{BUTTON_PREFIX}offer:{action}:{offer_id}"


@dataclass(frozen=True)
class Opening:
    """A spot to offer down the list: a registrant's (``REGISTRATION``, their registration's id) or a team's
    place a replacement request opened (``REPLACEMENT``, the request's id)."""

    kind: str
    id: int


@dataclass(frozen=True)
class Decided:
    line: Line
    offered_to: str | None = None  # the waiting registrant the spot went to


@dataclass(frozen=True)
class OfferAnswer:
    name: str
    division: str
    answer: str  # accepted | declined | already accepted | already declined | already expired | expired
    payment_due_at: datetime | None = None
    fee_cents: int = 0
    payment_link: str = ""
    team: str = ""  # a replacement's spot: the team they join


@dataclass(frozen=True)
class _League:
    """What the messages need of a league: its ids, name, settings and the commissioners' channel."""

    league_id: int
    guild_id: int
    name: str
    config: LeagueSettings
    admin_channel: int | None
    timezone: ZoneInfo

    @property
    def rules(self) -> RegistrationRules:
        return self.config.rules.registration


@retried_on_disconnect
class WaitingListService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    # --- commissioners ---------------------------------------------------------------------------
    async def payment(self, caller: Caller, registration: str, state: str, amount: str | None = None) -> Line:
        """Record how a registrant's fee stands; a settled fee cancels its reminder and confirmation."""
        caller.require(Role.COMMISSIONER)
        if state not in PAYMENT_STATES:
            raise InvalidInput(f"The payment must be one of: {', '.join(PAYMENT_STATES)}.")
        try:
            cents = parse_amount(amount) if amount and amount.strip() else None
        except FormProblem as problem:
            raise InvalidInput(f"Amount: {problem}") from None
        async with self.sessions.begin() as session:
            row, window, season = await registration_of(session, caller, registration)
            if cents is not None and cents > max(row.fee_cents, 0) and state != "refunded":
                raise InvalidInput(f"That's more than the fee ({money(row.fee_cents)}).")
            if state == "partial" and (cents is None or cents <= 0 or cents >= row.fee_cents):
                raise InvalidInput(f"A partial payment needs the amount received, less than the fee "
                                   f"({money(row.fee_cents)}).")
            row.payment_state = state
            row.paid_cents = cents if cents is not None else (row.fee_cents if state in ("in_person", "online")
                                                               else 0)
            if not owes(row.fee_cents, row.payment_state, row.paid_cents):
                await outbox.cancel_pending(session, caller.league_id, _dues_key(row.id))
            return line_of(row, window, season)

    async def reject(self, caller: Caller, registration: str, reason: str) -> Decided:
        """Youth 1.15: commissioners may reject a registrant; the reason goes to them privately."""
        caller.require(Role.COMMISSIONER)
        why = clean_user_text(reason or "", 500)
        if not why:
            raise InvalidInput("Give a reason: it's sent to them privately.")
        now = self.clock.now()
        league = self._league(caller.league.guild_id, caller.league_id)
        async with self.sessions.begin() as session:
            row, window, season = await registration_of(session, caller, registration)
            if row.status in ("rejected", "replaced", "declined"):
                raise Conflict(f"#{row.id} {row.name} is already {row.status}.")
            held, opening = row.status in HOLDING, Opening(REGISTRATION, row.id)
            pending = await session.scalar(select(RegistrationOffer).where(
                RegistrationOffer.registration_id == row.id, RegistrationOffer.answer == ""))
            if pending is not None:  # they held an offered spot: it passes on as that same spot
                pending.answer, pending.answered_at, opening = "withdrawn", now, _opening_of(pending)
                await outbox.cancel_pending(session, league.league_id, f"registration:offer:{pending.id}:")
            await self._end(session, league, row, "rejected", why, caller.discord_id, now)
            await outbox.tell(session, league_id=league.league_id, guild_id=league.guild_id,
                              key=f"registration:{row.id}:rejected", user_id=row.discord_id, due_at=now,
                              text=f"🚫 {league.name}: the registration of {row.name} for {window.division} "
                              f"({season.name}) was rejected by the commissioners. Their reason: {why}")
            offered = await _pass_on(session, league, window, opening, now) if held else None
            return Decided(line_of(row, window, season), offered)

    async def replace(self, caller: Caller, registration_id: int) -> Decided:
        """The commissioner's confirmation: a registrant who hasn't paid by their deadline gives up their spot
        to the first on the waiting list (youth 1.15). Never a replacement player: their place is a team's,
        so a button left from before they were told apart is refused."""
        caller.require(Role.COMMISSIONER)
        now = self.clock.now()
        league = self._league(caller.league.guild_id, caller.league_id)
        async with self.sessions.begin() as session:
            row, window, season = await registration_of(session, caller, str(registration_id))
            if row.status != "registered":
                raise Conflict(f"#{row.id} {row.name} is {row.status} now: nothing to replace.")
            if await _replacing(session, league.league_id, row.id) is not None:
                raise Conflict(f"#{row.id} {row.name} joined a team as a replacement player, so their spot isn't "
                               "offered down the waiting list; nothing changed. Record their payment with "
                               "/registration payment, or take them off the team with /roster remove.")
            if not owes(row.fee_cents, row.payment_state, row.paid_cents):
                raise Conflict(f"#{row.id} {row.name} has paid since: they keep their spot.")
            if row.payment_due_at is None or row.payment_due_at > now:
                raise Conflict(f"#{row.id} {row.name}'s fee isn't due until "
                               f"{timestamp(row.payment_due_at or now)}.")
            await self._end(session, league, row, "replaced", "fee not paid by the deadline", caller.discord_id, now)
            await outbox.tell(session, league_id=league.league_id, guild_id=league.guild_id,
                              key=f"registration:{row.id}:replaced", user_id=row.discord_id, due_at=now,
                              text=f"{league.name}: {row.name}'s fee for {window.division} wasn't received by "
                              f"{timestamp(row.payment_due_at)}, so the spot went to the waiting list{_cited(league)}. "
                              "Contact the commissioners if this is a mistake.")
            offered = await _offer_next(session, league, window, Opening(REGISTRATION, row.id), now)
            return Decided(line_of(row, window, season), offered)

    # --- the registrant offered a spot --------------------------------------------------------------
    async def answer_offer(self, user_id: int, offer_id: int, accept: bool) -> OfferAnswer:
        """Accept or Decline under an offer: only the member who registered may answer, once."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            found = (await session.execute(
                select(RegistrationOffer, Registration, RegistrationWindow)
                .join(Registration, Registration.id == RegistrationOffer.registration_id)
                .join(RegistrationWindow, RegistrationWindow.id == Registration.window_id)
                .where(RegistrationOffer.id == offer_id))).first()
            if found is None or found[1].discord_id != user_id:
                raise NotAllowed("That offer isn't yours to answer.")
            offer, row, window = found
            league = await self._league_of(session, offer.league_id)
            if offer.answer:
                return OfferAnswer(row.name, window.division, f"already {offer.answer}")
            if now >= offer.expires_at:
                await self._expire(session, league, offer, row, window, now)
                return OfferAnswer(row.name, window.division, "expired")
            offer.answer, offer.answered_at = ("accepted" if accept else "declined"), now
            if accept and offer.opening_kind == REPLACEMENT:
                team = await _join_team(session, league, offer, row, window, now)
                row.status, row.queue_position, row.registered_at = "registered", None, now
                await self._plan_dues(session, league, row, window, now)
                return OfferAnswer(row.name, window.division, "accepted", row.payment_due_at, row.fee_cents,
                                   window.payment_link, team)
            if accept:
                row.status, row.queue_position, row.registered_at = "registered", None, now
                row.payment_due_at = self._due(league, window, now) if row.fee_cents > 0 else None
                await self._plan_dues(session, league, row, window, now)
                return OfferAnswer(row.name, window.division, "accepted", row.payment_due_at, row.fee_cents,
                                   window.payment_link)
            await self._end(session, league, row, "declined", "declined the offered spot", user_id, now)
            await _pass_on(session, league, window, _opening_of(offer), now)
            return OfferAnswer(row.name, window.division, "declined")

    async def expire_offer(self, api: object, row: ActionRow) -> ActionOutcome:
        """The outbox action due when an offer runs out: the next on the list is offered the spot."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            offer = await session.get(RegistrationOffer, int(row.args["offer_id"]))
            if offer is None or offer.answer:
                return ActionOutcome("skipped", "answered already")
            registration = await session.get(Registration, offer.registration_id)
            window = await session.get(RegistrationWindow, registration.window_id) if registration else None
            if registration is None or window is None:
                return ActionOutcome("skipped", "the registration is gone")
            league = await self._league_of(session, offer.league_id)
            await self._expire(session, league, offer, registration, window, now)
            return ActionOutcome("skipped", "expired: offered to the next")

    async def plan(self, session: AsyncSession, league_id: int, guild_id: int, row: Registration,
                   window: RegistrationWindow) -> None:
        """A new registration's reminder before its fee deadline and the confirmation at it, in its own
        unit of work."""
        await self._plan_dues(session, self._league(guild_id, league_id), row, window, self.clock.now())

    # --- inside ----------------------------------------------------------------------------------
    async def _plan_dues(self, session: AsyncSession, league: _League, row: Registration,
                         window: RegistrationWindow, now: datetime) -> None:
        due = row.payment_due_at
        if due is None or not owes(row.fee_cents, row.payment_state, row.paid_cents):
            return
        key = f"{_dues_key(row.id)}{due.isoformat()}"
        to_pay = money(row.fee_cents - row.paid_cents)
        replacing = await _replacing(session, league.league_id, row.id)
        hours = league.rules.payment_nudge_hours
        if hours and due - timedelta(hours=hours) > now:
            link = f" Pay on the league's payment page: <{window.payment_link}>." if window.payment_link else ""
            unpaid = ("Unpaid by then, the commissioners decide whether they stay on the team." if replacing
                      else "Unpaid by then, the spot may go to the next on the waiting list.")
            await outbox.tell(session, league_id=league.league_id, guild_id=league.guild_id,
                              key=f"{key}:nudge", user_id=row.discord_id, due_at=due - timedelta(hours=hours),
                              text=f"💳 {league.name}: {row.name}'s fee ({to_pay} to pay) for {window.division} is "
                              f"due by {timestamp(due)}.{link} {unpaid}")
        if league.admin_channel is None:
            return
        if replacing is not None:  # a team's place, not a spot in the division: the waiting list has no say
            request, team = replacing
            cite = league.config.rules.replacements.replacement_citations.fee
            overdue = Outgoing(content=clip(
                f"⏰ #{row.id} {row.name}, who joined {team} ({window.division}) as the replacement player for "
                f"{request.player_name} (replacement request #{request.id}), hasn't paid the prorated fee "
                f"({to_pay} to pay) due before their first game, {timestamp(due)}{f' ({cite})' if cite else ''}. "
                "They're still on the team and nothing happens on its own: it's the commissioners' decision. "
                "/registration payment records the fee once paid; /roster remove takes them off the team.", 2000))
        else:
            overdue = Outgoing(content=clip(
                f"⏰ #{row.id} {row.name} ({window.division}) hasn't paid their fee ({to_pay} to pay) by "
                f"{timestamp(due)}. Replace them with the first on the waiting list{_cited(league)}? Nothing "
                "happens until a commissioner confirms.", 2000),
                buttons=((f"Replace #{row.id}", replace_button_id(row.id)),))
        await outbox.enqueue(session, league_id=league.league_id, guild_id=league.guild_id, key=f"{key}:overdue",
                             due_at=due, channel_id=league.admin_channel, message=overdue)

    async def _expire(self, session: AsyncSession, league: _League, offer: RegistrationOffer, row: Registration,
                      window: RegistrationWindow, now: datetime) -> None:
        offer.answer, offer.answered_at = "expired", now
        if row.status == "offered":
            row.status = "waiting"  # back in their place; not offered this spot again
        await outbox.tell(session, league_id=league.league_id, guild_id=league.guild_id,
                          key=f"registration:offer:{offer.id}:expired", user_id=row.discord_id, due_at=now,
                          text=f"{league.name}: the spot in {window.division} offered to {row.name} wasn't accepted in "
                          "time and goes to the next on the waiting list. They keep their place on it.")
        await _pass_on(session, league, window, _opening_of(offer), now)

    async def _end(self, session: AsyncSession, league: _League, row: Registration, status: str, reason: str,
                   by: int, now: datetime) -> None:
        row.status, row.decision_reason, row.decided_by, row.queue_position = status, reason, by, None
        await outbox.cancel_pending(session, league.league_id, _dues_key(row.id))

    @staticmethod
    def _due(league: _League, window: RegistrationWindow, now: datetime) -> datetime:
        draft = season_start(window.draft_date, league.timezone) if window.draft_date else None
        return payment_due(now, league.rules, draft)

    async def _league_of(self, session: AsyncSession, league_id: int) -> _League:
        guild_id = await session.scalar(select(League.guild_id).where(League.id == league_id))
        return self._league(int(guild_id or 0), league_id)

    def _league(self, guild_id: int, league_id: int) -> _League:
        cfg = self.settings.league_for_guild(guild_id)
        if cfg is None:
            raise NotFound("That league is no longer set up here.")
        return _league_of(cfg, league_id)


async def _offer_next(session: AsyncSession, league: _League, window: RegistrationWindow, opening: Opening,
                      now: datetime) -> str | None:
    """Offer the spot ``opening`` names to the first waiting registrant not yet offered it."""
    offered = select(RegistrationOffer.registration_id).where(RegistrationOffer.opening_kind == opening.kind,
                                                              RegistrationOffer.opening == opening.id)
    nxt = await session.scalar(select(Registration).where(
        Registration.window_id == window.id, Registration.status == "waiting",
        Registration.id.not_in(offered)).order_by(Registration.queue_position, Registration.id).limit(1))
    if nxt is None:
        return None
    expires = now + timedelta(hours=league.rules.offer_hours)
    offer = RegistrationOffer(league_id=league.league_id, registration_id=nxt.id, opening=opening.id,
                              opening_kind=opening.kind, offered_at=now, expires_at=expires)
    session.add(offer)
    await session.flush()
    nxt.status = "offered"
    guardian = " (you registered them as their guardian)" if nxt.guardian else ""
    spot = f"a spot in {window.division}"
    if opening.kind == REPLACEMENT:
        team = await _team_name(session, league.league_id, opening.id)
        spot = f"a spot on {team} ({window.division}) for the rest of the season, replacing a player,"
    await outbox.enqueue(
        session, league_id=league.league_id, guild_id=league.guild_id, key=f"registration:offer:{offer.id}:dm",
        due_at=now, user_id=nxt.discord_id, message=Outgoing(
            content=clip(f"🎉 {league.name}: {spot} opened for {nxt.name}{guardian}, first on the waiting list. "
                         f"Accept it by {timestamp(expires)}, or it goes to the next.", 2000),
            buttons=(("Accept", offer_button_id(ACCEPT, offer.id)), ("Decline", offer_button_id(DECLINE, offer.id)))))
    await outbox.enqueue(session, league_id=league.league_id, guild_id=league.guild_id,
                         key=f"registration:offer:{offer.id}:expiry", due_at=expires, kind=EXPIRY_KIND,
                         args={"offer_id": offer.id}, action=True)
    log.info("registration #%s offered the %s spot of #%s", nxt.id, opening.kind, opening.id)
    return nxt.name


async def _pass_on(session: AsyncSession, league: _League, window: RegistrationWindow, opening: Opening,
                   now: datetime) -> str | None:
    """Offer a spot its last offer didn't fill to the next on the list. A team's place with no one left to
    offer it to is the commissioners' again: they're told in their channel, to name a replacement."""
    offered = await _offer_next(session, league, window, opening, now)
    if offered is None and opening.kind == REPLACEMENT and league.admin_channel is not None:
        team = await _team_name(session, league.league_id, opening.id)
        await outbox.enqueue(
            session, league_id=league.league_id, guild_id=league.guild_id, key=f"replacement:{opening.id}:list-empty",
            due_at=now, channel_id=league.admin_channel, message=Outgoing(content=clip(
                f"🔁 No one else is on {window.division}'s waiting list to take the place on {team} (replacement "
                f"request #{opening.id}): everyone on it declined or didn't answer in time. Name the replacement "
                "yourselves and add them with /roster add.", 2000)))
    return offered


async def replacement_window(session: AsyncSession, league_id: int, team: Team) -> RegistrationWindow | None:
    """The waiting list a replacement for ``team`` is drawn from (youth 1.16): the running season's
    registration of the team's division, or its only one when the team has no division; None without."""
    season = await running_season(session, league_id)
    if season is None:
        return None
    windows = list((await session.scalars(select(RegistrationWindow).where(
        RegistrationWindow.league_id == league_id, RegistrationWindow.season_id == season.id)
        .order_by(RegistrationWindow.id))).all())
    if team.division is None:
        return windows[0] if len(windows) == 1 else None
    wanted = team.division.name.casefold()
    return next((w for w in windows if w.division.casefold() == wanted), None)


async def offer_replacement(session: AsyncSession, league: LeagueSettings, league_id: int,
                            window: RegistrationWindow, request_id: int, now: datetime) -> str | None:
    """Offer the team's place an approved replacement request opened to the first on ``window``'s
    waiting list: their name, or None when no one waits. One offer per registrant and request, so a
    second approval or a restart offers nobody twice."""
    return await _offer_next(session, _league_of(league, league_id), window, Opening(REPLACEMENT, request_id), now)


async def _join_team(session: AsyncSession, league: _League, offer: RegistrationOffer, row: Registration,
                     window: RegistrationWindow, now: datetime) -> str:
    """The registrant who accepted a replacement's spot joins the team's roster (a minor registered by a
    guardian as a player without a Discord account, managed by that guardian), and owes the season's fee
    prorated by the team's games left, due before their first game (youth 1.16). The team's name."""
    request = await session.scalar(select(ReplacementRequest).where(
        ReplacementRequest.id == offer.opening, ReplacementRequest.league_id == league.league_id))
    team = await lookups.team_by_id(session, league.league_id, request.team_id) if request else None
    if request is None or team is None:
        raise Conflict("The team that spot was on is gone; nothing changed. Contact the commissioners.")
    if row.guardian:  # the guardian's player by that name (a past season's), else a new one they manage
        player, on = await managed_player_for(session, league.league_id, guardian_id=row.discord_id, name=row.name,
                                              added_by=request.decided_by or row.discord_id)
    else:
        found = await lookups.player_by_discord(session, league.league_id, row.discord_id)
        player = found or Player(league_id=league.league_id, discord_id=row.discord_id, name=row.name)
        if found is None:
            session.add(player)
            await session.flush()
        entry = await lookups.roster_entry(session, league.league_id, row.discord_id)
        on = entry.team_id if entry is not None else None
    if on is not None and on != team.id:
        raise Conflict(f"{row.name} is already on another team's roster, so they can't take this spot yet; "
                       "nothing changed. Contact the commissioners.")
    if on is None:
        session.add(RosterEntry(league_id=league.league_id, team_id=team.id, player_id=player.id,
                                position="goalie" if "goal" in row.positions.casefold() else "skater", added_at=now))
        if player.discord_id is not None:
            await team_roles.follow(session, league.config, league.league_id, team.id, player.discord_id, now)
    season = await session.get(Season, window.season_id)
    games = await team_regular_games(session, league.league_id, team.id, season.starts_at) if season else []
    upcoming = [g for g in games if g > now]
    season_fee = league.config.rules.replacements.replacement_season_dues_cents
    fee = prorated_fee_cents(window.fee_cents if season_fee is None else season_fee, len(upcoming), len(games))
    row.fee_cents, row.payment_state, row.paid_cents = fee or 0, "unpaid", 0
    row.payment_due_at = upcoming[0] if upcoming and fee else None
    request.replacement_name, request.replacement_discord_id = row.name, player.discord_id
    request.prorated_fee_cents, request.fee_due_at = fee, upcoming[0] if upcoming else None
    await outbox.tell(session, league_id=league.league_id, guild_id=league.guild_id,
                      key=f"replacement:{request.id}:joined", user_id=request.requested_by, due_at=now,
                      text=f"✅ {league.name}: {row.name}, from the waiting list, accepted and joins {team.name}, "
                      f"replacing {request.player_name} (request #{request.id}).")
    log.info("registration #%s joins team %s for replacement request #%s", row.id, team.id, request.id)
    return team.name


async def _team_name(session: AsyncSession, league_id: int, request_id: int) -> str | None:
    """The team whose place a replacement request opened."""
    return await session.scalar(select(Team.name).join(ReplacementRequest, ReplacementRequest.team_id == Team.id)
                                .where(ReplacementRequest.id == request_id, ReplacementRequest.league_id == league_id))


async def _replacing(session: AsyncSession, league_id: int, registration_id: int
                     ) -> tuple[ReplacementRequest, str] | None:
    """How a registration that joined a team as a replacement player is told apart (youth 1.16): its accepted
    offer of the place a replacement request opened. That request and the team's name; None for a registrant
    whose spot is in the division."""
    found = (await session.execute(
        select(ReplacementRequest, Team.name)
        .join(RegistrationOffer, (RegistrationOffer.opening == ReplacementRequest.id)
              & (RegistrationOffer.opening_kind == REPLACEMENT))
        .join(Team, Team.id == ReplacementRequest.team_id)
        .where(RegistrationOffer.registration_id == registration_id, RegistrationOffer.answer == "accepted",
               ReplacementRequest.league_id == league_id))).first()
    return (found[0], found[1]) if found is not None else None


def _opening_of(offer: RegistrationOffer) -> Opening:
    return Opening(offer.opening_kind, offer.opening)


def _league_of(cfg: LeagueSettings, league_id: int) -> _League:
    return _League(league_id, cfg.guild_id, cfg.name, cfg, cfg.channels.admin, cfg.timezone)


def _cited(league: _League) -> str:
    citation = league.rules.registration_citations.payment
    return f" ({citation})" if citation else ""


def _dues_key(registration_id: int) -> str:
    return f"registration:{registration_id}:dues:"

