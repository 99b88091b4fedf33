"""Captains relay a message to their game's referees; referees acknowledge or answer it.

Co-ed rules: Ref interaction 1 — players don't talk to the referees during a game; they tell their
captain, who relays "at an opportune time". Here a captain's relay is posted to the league's
referees channel and DMed to the referees assigned to the game, with Acknowledge / Reply buttons;
the captain is told by DM when a referee acknowledges or answers.

Choices the spec leaves open, decided here:
- Who may relay: the captain role AND captain of a team playing the game (or its stand-in for the game,
  bot/services/people.py), inside the game's relay window (``rules.deadlines.relay_window_hours`` around
  the start: "a game their team plays today").
- The limit (``rules.deadlines.relay_limit_per_game``, 5 by default) counts per team and game, as
  the rules module defines it; co-captains share it.
- Who may acknowledge or answer: the game's assigned referees (also by DM, where Discord gives no
  roles), anyone with the league's referee role, and commissioners. One answer per relay; the first
  acknowledgement and the first answer are recorded, later presses change nothing.
- ``/relay inbox``: unanswered relays of the last ``INBOX_DAYS`` days for games assigned to the
  caller, plus (for referee-role holders) games nobody is assigned to; commissioners see all.
- Button custom_ids are ``sideline:relay:<ack|reply>:<relay id>``; a press is checked against the
  server it came from, so a forged or foreign id is refused and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import blank, clean_user_text, clip, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.deadlines import check_relay
from bot.league.gamesheets.officials import OFFICIAL_ROLES
from bot.league.messages import TEXT_LIMIT
from bot.services import outbox
from bot.services.outbox import Outgoing
from bot.services.people import captained_sides, membership, require_captain_role_or_acting
from bot.services.shared.games import find_game
from storage.db import retried_on_disconnect, rowcount
from storage.models import Dispute, Game, League, RefereeAssignment, Relay

INBOX_DAYS = 7
INBOX_LIMIT = 25
MAX_ROW_ID = 2**31 - 1  # a forged custom_id must not overflow an integer column
ACK, REPLY = "ack", "reply"
BUTTON_PREFIX = "sideline:relay:"


def button_id(action: str, relay_id: int) -> str:
    """The custom_id of a relay's Acknowledge / Reply button (the relay cog handles the press)."""
    return f"{BUTTON_PREFIX}{action}:{relay_id}"


def relay_buttons(relay_id: int) -> tuple[tuple[str, str], ...]:
    return (("Acknowledge", button_id(ACK, relay_id)), ("Reply", button_id(REPLY, relay_id)))


@dataclass(frozen=True)
class RelayLine:
    """A relay as referees, captains and the audit export see it."""

    id: int
    game_code: str
    game_title: str
    starts_at: datetime
    team: str
    captain_id: int
    captain_name: str
    message: str
    created_at: datetime
    status: str
    acknowledged_by_name: str
    acknowledged_at: datetime | None
    answered_by_name: str
    answered_at: datetime | None
    answer: str


@dataclass(frozen=True)
class RelaySent:
    relay: RelayLine
    referees_channel: int | None
    referees_dmed: int
    used: int  # relays this team has sent for this game, this one included
    limit: int


@dataclass(frozen=True)
class RelayUpdate:
    relay: RelayLine
    changed: bool  # False: someone had already done it (nothing new is sent)


@dataclass(frozen=True)
class Responder:
    """Whoever pressed a relay's button; ``caller`` is None in a DM (Discord gives no roles there)."""

    discord_id: int
    display_name: str
    caller: Caller | None = None


@dataclass(frozen=True)
class RefereeChange:
    game_code: str
    game_title: str
    referee_name: str
    action: str  # "assigned" | "already assigned" | "removed" | "not assigned" | "switched" (now the other role)
    referees: tuple[str, ...]  # the game's referees afterwards
    role: str = "referee"  # the role the change is about: referee or timekeeper (youth 2.2)
    timekeepers: tuple[str, ...] = ()  # the game's timekeepers afterwards


def line(relay: Relay) -> RelayLine:
    game = relay.game
    return RelayLine(relay.id, game.code, f"{game.home.name} vs {game.away.name}", game.starts_at, relay.team.name,
                     relay.captain_id, relay.captain_name, relay.message, relay.created_at, relay.status,
                     relay.acknowledged_by_name, relay.acknowledged_at, relay.answered_by_name, relay.answered_at,
                     relay.answer)


def quoted(text: str) -> str:
    return "\n".join(f"> {part}" for part in text.splitlines() or [""])


def relay_text(r: RelayLine) -> str:
    """The message referees read, in the channel and by DM."""
    head = (f"📣 **Relay #{r.id}** · `{r.game_code}` {r.game_title} · {timestamp(r.starts_at, 'f')}\n"
            f"From **{clip(r.captain_name, 80)}** (<@{r.captain_id}>), captain of {r.team}:")
    return clip(f"{head}\n{quoted(r.message)}\nAcknowledge it, or reply: the captain is told by DM.", 2000)


def _name(text: str) -> str:
    return clean_user_text(text, 100) or "someone"


async def _assigned_referees(session: AsyncSession, game_id: int,
                             role: str | None = "referee") -> list[RefereeAssignment]:
    """The game's referees (relays reach them), or its officials of ``role`` (None: all of them)."""
    query = select(RefereeAssignment).where(RefereeAssignment.game_id == game_id)
    if role is not None:
        query = query.where(RefereeAssignment.role == role)
    return list((await session.scalars(query.order_by(RefereeAssignment.id))).all())


async def _relay_for(session: AsyncSession, responder: Responder, relay_id: int) -> Relay:
    """The relay a button names, if the presser may act on it; refusals never reveal other servers."""
    relay = await session.get(Relay, relay_id) if 0 < relay_id <= MAX_ROW_ID else None
    caller = responder.caller
    if relay is None or (caller is not None and relay.league_id != caller.league_id):
        raise NotFound("That relay doesn't exist here, so there's nothing to answer.")
    assigned = await session.scalar(select(RefereeAssignment.id).where(
        RefereeAssignment.game_id == relay.game_id, RefereeAssignment.referee_id == responder.discord_id,
        RefereeAssignment.role == "referee"))
    if assigned is None and not (caller is not None and (caller.is_referee or caller.is_commissioner)):
        if caller is None:
            raise NotAllowed("Only the referees assigned to this game can answer it here; "
                             "use the buttons in the league's referees channel.")
        raise NotAllowed(f"Only a referee or commissioner of {caller.league.name} can answer relays.")
    return relay


async def _notify_captain(session: AsyncSession, relay: Relay, guild_id: int, key: str, text: str,
                          now: datetime) -> None:
    await outbox.enqueue(session, league_id=relay.league_id, guild_id=guild_id, key=f"relay:{relay.id}:{key}",
                         due_at=now, message=Outgoing(content=clip(text, 2000)), user_id=relay.captain_id)


@retried_on_disconnect
class RelayService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def send(self, caller: Caller, game_code: str, message: str) -> RelaySent:
        """A captain's relay to the game's referees: stored, then queued to the channel and their DMs."""
        text = clean_user_text(message, TEXT_LIMIT)
        if blank(text):
            raise InvalidInput("Write the message for the referees.")
        rules = caller.league.rules.deadlines
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            member = await membership(session, caller, game)
            require_captain_role_or_acting(caller, member)
            teams = captained_sides(caller, member, game, to="relay about")
            if game.status == "cancelled":
                raise Conflict(f"`{game.code}` was cancelled, so there's no referee to relay to.")
            team_id = teams[0]
            # Serialise relays per game on PostgreSQL (SQLite's BEGIN IMMEDIATE already does).
            await session.scalar(select(Game.id).where(Game.id == game.id).with_for_update())
            used = await session.scalar(select(func.count()).select_from(Relay).where(
                Relay.game_id == game.id, Relay.team_id == team_id)) or 0
            problems = check_relay(game.starts_at.astimezone(caller.league.timezone), now, used, rules)
            if problems:
                text_ = " ".join(p.message for p in problems)
                if any(p.code == "relay_limit" for p in problems):
                    text_ += " For a formal complaint, a captain can use `/dispute file`."
                raise Conflict(f"Sorry, that relay can't be sent: {text_}")
            referees = await _assigned_referees(session, game.id)
            channel = caller.league.channels.referees
            if channel is None and not referees:
                raise Conflict(f"Nobody can receive relays for `{game.code}` yet: the league has no referees "
                               "channel and no referee is assigned to the game. Ask a commissioner.")
            relay = Relay(league_id=caller.league_id, game_id=game.id, team_id=team_id,
                          captain_id=caller.discord_id, captain_name=_name(caller.display_name), message=text,
                          created_at=now, status="open")
            session.add(relay)
            await session.flush()
            await session.refresh(relay, ["game", "team"])
            result = line(relay)
            outgoing = Outgoing(content=relay_text(result), buttons=relay_buttons(relay.id))
            guild_id = caller.league.guild_id
            if channel is not None:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=guild_id,
                                     key=f"relay:{relay.id}:channel", due_at=now, message=outgoing, channel_id=channel)
            for ref in referees:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=guild_id,
                                     key=f"relay:{relay.id}:ref:{ref.referee_id}", due_at=now, message=outgoing,
                                     user_id=ref.referee_id)
            return RelaySent(result, channel, len(referees), used + 1, rules.relay_limit_per_game)

    async def acknowledge(self, responder: Responder, relay_id: int) -> RelayUpdate:
        """Record the first acknowledgement and tell the captain; later presses change nothing."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            relay = await _relay_for(session, responder, relay_id)
            done = await session.execute(
                update(Relay).where(Relay.id == relay.id, Relay.acknowledged_at.is_(None))
                .values(acknowledged_by=responder.discord_id, acknowledged_by_name=_name(responder.display_name),
                        acknowledged_at=now, status="acknowledged")
                .execution_options(synchronize_session=False))
            changed = bool(rowcount(done))
            await session.refresh(relay)
            if changed and relay.answered_at is None:
                guild_id = await _guild_of(session, relay)
                await _notify_captain(session, relay, guild_id, "acknowledged",
                                      f"✅ {relay.acknowledged_by_name} acknowledged your relay #{relay.id} about "
                                      f"`{relay.game.code}` ({relay.game.home.name} vs {relay.game.away.name}):\n"
                                      f"{quoted(clip(relay.message, 300))}", now)
            return RelayUpdate(line(relay), changed)

    async def check_can_answer(self, responder: Responder, relay_id: int) -> RelayLine:
        """Before the reply form opens: the presser may answer and nobody has yet."""
        async with self.sessions() as session:
            relay = await _relay_for(session, responder, relay_id)
            if relay.answered_at is not None:
                raise Conflict(f"Relay #{relay.id} was already answered by {relay.answered_by_name}.")
            return line(relay)

    async def answer(self, responder: Responder, relay_id: int, text: str) -> RelayUpdate:
        """Record the answer (once) and send it to the captain by DM."""
        answer = clean_user_text(text, TEXT_LIMIT)
        if blank(answer):
            raise InvalidInput("The reply was empty, so nothing was sent.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            relay = await _relay_for(session, responder, relay_id)
            name = _name(responder.display_name)
            done = await session.execute(
                update(Relay).where(Relay.id == relay.id, Relay.answered_at.is_(None))
                .values(answered_by=responder.discord_id, answered_by_name=name, answered_at=now, answer=answer,
                        status="answered",
                        acknowledged_by=func.coalesce(Relay.acknowledged_by, responder.discord_id),
                        acknowledged_by_name=func.coalesce(func.nullif(Relay.acknowledged_by_name, ""), name),
                        acknowledged_at=func.coalesce(Relay.acknowledged_at, now))
                .execution_options(synchronize_session=False))
            if not rowcount(done):
                await session.refresh(relay)
                raise Conflict(f"Relay #{relay.id} was already answered by {relay.answered_by_name}.")
            await session.refresh(relay)
            guild_id = await _guild_of(session, relay)
            await _notify_captain(session, relay, guild_id, "answered",
                                  f"💬 {name} answered your relay #{relay.id} about `{relay.game.code}` "
                                  f"({relay.game.home.name} vs {relay.game.away.name}):\n{quoted(answer)}\n"
                                  f"You wrote:\n{quoted(clip(relay.message, 300))}", now)
            return RelayUpdate(line(relay), True)

    async def inbox(self, caller: Caller) -> tuple[RelayLine, ...]:
        """Unanswered relays for the caller's games, oldest first."""
        since = self.clock.now() - timedelta(days=INBOX_DAYS)
        async with self.sessions() as session:
            mine = select(RefereeAssignment.game_id).where(RefereeAssignment.league_id == caller.league_id,
                                                           RefereeAssignment.referee_id == caller.discord_id,
                                                           RefereeAssignment.role == "referee")
            has_assignments = await session.scalar(select(exists(mine)))
            if not (caller.is_referee or caller.is_commissioner or has_assignments):
                raise NotAllowed(f"Only a referee of {caller.league.name} has a relay inbox.")
            query = select(Relay).where(Relay.league_id == caller.league_id, Relay.answered_at.is_(None),
                                        Relay.created_at >= since)
            if not caller.is_commissioner:
                yours: list[ColumnElement[bool]] = [Relay.game_id.in_(mine)]
                if caller.is_referee:  # games nobody is assigned to are every referee's
                    yours.append(~exists().where(RefereeAssignment.game_id == Relay.game_id,
                                                 RefereeAssignment.role == "referee"))
                query = query.where(or_(*yours))
            relays = (await session.scalars(query.order_by(Relay.created_at, Relay.id).limit(INBOX_LIMIT))).all()
            return tuple(line(r) for r in relays)

    async def assign_referee(self, caller: Caller, game_code: str, referee_id: int, referee_name: str, *,
                             remove: bool = False, role: str = "referee") -> RefereeChange:
        """Commissioners assign (or unassign) a game's referee or timekeeper (youth 2.2); relays for it reach its
        referees by DM. One role per person and game: assigning the other role moves them to it."""
        caller.require(Role.COMMISSIONER)
        if role not in OFFICIAL_ROLES:
            raise InvalidInput(f"An official is {' or a '.join(OFFICIAL_ROLES)}.")
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            current = await session.scalar(select(RefereeAssignment).where(
                RefereeAssignment.game_id == game.id, RefereeAssignment.referee_id == referee_id))
            name = _name(referee_name)
            if remove:
                action = "removed" if current is not None and current.role == role else "not assigned"
                if action == "removed":
                    await session.delete(current)
            elif current is None:
                session.add(RefereeAssignment(league_id=caller.league_id, game_id=game.id, referee_id=referee_id,
                                              referee_name=name, role=role, assigned_by=caller.discord_id,
                                              assigned_at=self.clock.now()))
                action = "assigned"
            elif current.role != role:
                current.role, current.referee_name = role, name
                current.assigned_by, current.assigned_at = caller.discord_id, self.clock.now()
                action = "switched"
            else:
                action = "already assigned"
            await session.flush()
            everyone = await _assigned_referees(session, game.id, None)
            names = {r: tuple(a.referee_name or str(a.referee_id) for a in everyone if a.role == r)
                     for r in OFFICIAL_ROLES}
            return RefereeChange(game.code, f"{game.home.name} vs {game.away.name}", name, action,
                                 names["referee"], role, names["timekeeper"])


async def _guild_of(session: AsyncSession, relay: Relay) -> int:
    guild_id = await session.scalar(select(League.guild_id).where(League.id == relay.league_id))
    assert guild_id is not None
    return guild_id


# --- the audit trail -----------------------------------------------------------------------------
AUDIT_COLUMNS = (
    "kind", "id", "game", "game_starts_at", "team", "from_discord_id", "from_name", "created_at", "message",
    "status", "acknowledged_by_discord_id", "acknowledged_by", "acknowledged_at", "resolved_by_discord_id",
    "resolved_by", "resolved_at", "outcome", "response", "due_at",
)


def _iso(when: datetime | None) -> str:
    return when.isoformat() if when else ""


def _id(value: int | None) -> str:
    return str(value) if value is not None else ""


async def audit_trail(session: AsyncSession, league_id: int) -> list[dict[str, str]]:
    """Every relay and dispute of a league, oldest first: who, when, what, and what became of it.

    Relays: resolved = answered, response = the referee's answer. Disputes: resolved = decided,
    outcome and response = the commissioners' decision, due_at = when the decision was due.
    """
    rows: list[tuple[datetime, int, dict[str, str]]] = []
    for r in (await session.scalars(select(Relay).where(Relay.league_id == league_id))).all():
        rows.append((r.created_at, 0, {
            "kind": "relay", "id": str(r.id), "game": r.game.code, "game_starts_at": _iso(r.game.starts_at),
            "team": r.team.name, "from_discord_id": str(r.captain_id), "from_name": r.captain_name,
            "created_at": _iso(r.created_at), "message": r.message, "status": r.status,
            "acknowledged_by_discord_id": _id(r.acknowledged_by), "acknowledged_by": r.acknowledged_by_name,
            "acknowledged_at": _iso(r.acknowledged_at), "resolved_by_discord_id": _id(r.answered_by),
            "resolved_by": r.answered_by_name, "resolved_at": _iso(r.answered_at), "outcome": "",
            "response": r.answer, "due_at": ""}))
    for d in (await session.scalars(select(Dispute).where(Dispute.league_id == league_id))).all():
        rows.append((d.created_at, 1, {
            "kind": "dispute", "id": str(d.id), "game": d.game.code, "game_starts_at": _iso(d.game.starts_at),
            "team": d.team.name, "from_discord_id": str(d.captain_id), "from_name": d.captain_name,
            "created_at": _iso(d.created_at), "message": d.message, "status": d.status,
            "acknowledged_by_discord_id": "", "acknowledged_by": "", "acknowledged_at": "",
            "resolved_by_discord_id": _id(d.decided_by), "resolved_by": d.decided_by_name,
            "resolved_at": _iso(d.decided_at), "outcome": d.outcome or "", "response": d.decision,
            "due_at": _iso(d.due_at)}))
    rows.sort(key=lambda item: (item[0], item[1], int(item[2]["id"])))
    return [row for _, _, row in rows]
