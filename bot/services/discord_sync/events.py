"""Games as Discord scheduled events: created, moved and cancelled with the game, through the outbox.

Choices the spec leaves open, decided here:
- A change queues one action row per game (key ``game-event:<game>:<n>``) unless one is waiting:
  the row reads the game when it runs, so a game moved twice before the courier runs is one PATCH.
- What an event last showed is stored as a fingerprint (``game_events.synced``): a row that finds
  it equal to what the game should show sends nothing.
- Exactly once across a kill: a row claimed again after its process died (attempts > 1), or any row
  of a game whose other row was tried without a recorded outcome, first asks Discord what is there
  (the events' list, found by the marker line of the description, or the event itself) and adopts
  it, so a POST or PATCH that reached Discord before the kill is not sent again. A row another live
  process holds for the same game makes this one wait (``later``).
- A cancelled game's event is set to status 4 (CANCELED, which Discord allows from SCHEDULED).
  Games that have started are left alone: Discord ends an external event at its end time.
- A 403 (no Manage Events) fails the row and is told to the commissioners once (problems.py); the
  next success clears it. ``/setup discord scheduled-events:True`` brings every upcoming game up to date.
- Turning the setting off leaves the events on Discord as they are.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.league.scheduled_events import CANCELED, EventShape, event_body, event_shape, marker, shows
from bot.services import outbox
from bot.services.discord_sync import problems
from bot.services.discord_sync.api import DiscordCalls, Gone, Refused
from bot.services.outbox import ActionOutcome, ActionRow
from storage.db import upsert_insert
from storage.models import Game, GameEvent

log = logging.getLogger("sideline.discord_sync")

EVENT_KIND = "scheduled_event"
SCOPE = "scheduled-events"
FORBIDDEN = ("Sideline couldn't create or update the games' Discord events: it needs the **Manage Events** "
             "permission (Server Settings > Roles > Sideline). Give it that, then run "
             "`/setup discord scheduled-events:True` to bring every upcoming game's event up to date.")


def event_prefix(game_id: int) -> str:
    return f"game-event:{game_id}:"


def shape_of(game: Game, league: LeagueSettings) -> EventShape:
    return event_shape(home=game.home.name, away=game.away.name, venue=game.venue, code=game.code,
                       starts_at=game.starts_at, kind=game.kind, game_format=league.rules.game_format,
                       cancelled=game.status == "cancelled")


async def follow_game(session: AsyncSession, league: LeagueSettings, game: Game, now: datetime) -> bool:
    """Queue the game's event to follow it (added, moved, cancelled); True when a row was queued."""
    if not league.scheduled_events or game.starts_at <= now:
        return False
    if game.status == "cancelled" and await session.get(GameEvent, game.id) is None:
        return False  # never had an event: nothing to cancel
    if await outbox.has_pending(session, game.league_id, event_prefix(game.id)):
        return False  # the waiting row reads the game when it runs
    await outbox.enqueue(session, league_id=game.league_id, guild_id=league.guild_id,
                         key=f"{event_prefix(game.id)}{uuid.uuid4().hex[:16]}", due_at=now, kind=EVENT_KIND,
                         args={"game_id": game.id}, expires_at=game.starts_at, action=True)
    return True


async def follow_games(session: AsyncSession, league: LeagueSettings, league_id: int, now: datetime) -> int:
    """Every upcoming game whose event doesn't show it yet (turned on, or after a fix): queued."""
    if not league.scheduled_events:
        return 0
    rows = (await session.execute(select(Game, GameEvent.synced).outerjoin(GameEvent, GameEvent.game_id == Game.id)
                                  .where(Game.league_id == league_id, Game.starts_at > now))).all()
    queued = 0
    for game, synced in rows:
        if synced != shape_of(game, league).fingerprint:
            queued += await follow_game(session, league, game, now)
    return queued


class EventSync:
    """The action behind each queued row: bring one game's event in line with the game."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def __call__(self, api: DiscordCalls, row: ActionRow) -> ActionOutcome:
        now = self.clock.now()
        league = self.settings.league_for_guild(row.guild_id)
        async with self.sessions() as session:
            game = await session.get(Game, int(row.args["game_id"]))
            if game is None or game.league_id != row.league_id or league is None or not league.scheduled_events:
                return ActionOutcome("skipped", "the game or the setting is gone")
            if game.starts_at <= now:
                return ActionOutcome("skipped", "the game has started: Discord ends its event")
            if await outbox.others_sending(session, row, event_prefix(game.id)):
                return ActionOutcome("later", "another change of this game's event is being sent")
            unknown = await outbox.outcome_unknown(session, row, event_prefix(game.id))
            shape, code = shape_of(game, league), game.code
            linked = await session.get(GameEvent, game.id)
            event_id, synced = (linked.event_id, linked.synced) if linked else (None, None)
        if synced == shape.fingerprint:
            return ActionOutcome("skipped", "the event already shows the game")
        try:
            status, event_id = await self._sync(api, row, shape, code, event_id, look_first=unknown)
        except Refused as exc:
            async with self.sessions.begin() as session:
                await problems.report_once(session, league, row.league_id, SCOPE, FORBIDDEN, now)
            return ActionOutcome("failed", str(exc))
        async with self.sessions.begin() as session:
            if event_id is None:
                await session.execute(delete(GameEvent).where(GameEvent.game_id == int(row.args["game_id"])))
            else:
                await self._link(session, row, event_id, shape, now)
            await problems.clear(session, row.league_id, SCOPE)
        return ActionOutcome(status)

    async def _sync(self, api: DiscordCalls, row: ActionRow, shape: EventShape, code: str,
                    event_id: int | None, *, look_first: bool) -> tuple[str, int | None]:
        """(outcome, the event's id now) after at most one POST or PATCH. ``look_first``: an earlier
        attempt may have reached Discord before its process died, so see what is there first."""
        current: dict[str, Any] | None = None
        if event_id is None and look_first:
            current = await self._created_before(api, row.guild_id, code)
        elif event_id is not None and look_first:
            try:
                current = await api.scheduled_event(row.guild_id, event_id)
            except Gone:
                current = None
        if current is not None:
            event_id = int(current["id"])
            if shows(current, shape):
                return "skipped", event_id
        if event_id is None:
            if shape.cancelled:
                return "skipped", None
            created = await api.create_scheduled_event(row.guild_id, event_body(shape))
            log.info("game %s: created scheduled event %s", code, created["id"])
            return "sent", int(created["id"])
        body: dict[str, Any] = {"status": CANCELED} if shape.cancelled else event_body(shape)
        try:
            await api.edit_scheduled_event(row.guild_id, event_id, body)
        except Gone:  # deleted on Discord by someone: a later change (or a restart) makes a new one
            log.info("game %s: its scheduled event %s was deleted on Discord", code, event_id)
            return "skipped", None
        return "sent", event_id

    @staticmethod
    async def _created_before(api: DiscordCalls, guild_id: int, code: str) -> dict[str, Any] | None:
        bot_id = api.bot_user_id
        for event in await api.scheduled_events(guild_id):
            lines = str(event.get("description") or "").splitlines()
            mine = bot_id is None or str(event.get("creator_id")) == str(bot_id)
            if mine and lines and lines[-1] == marker(code):
                return event
        return None

    @staticmethod
    async def _link(session: AsyncSession, row: ActionRow, event_id: int, shape: EventShape, now: datetime) -> None:
        values = {"event_id": event_id, "synced": shape.fingerprint, "updated_at": now}
        await session.execute(upsert_insert(session)(GameEvent).values(
            game_id=int(row.args["game_id"]), league_id=row.league_id, **values).on_conflict_do_update(
            index_elements=["game_id"], set_=values))
