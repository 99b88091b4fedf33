"""Quiet game reminders: one message per team per game in its channel, kept up to date in place.

Choices the spec leaves open, decided here:
- The first reminder a team gets for a game posts its reminder message: the game, the counts
  (in, out, maybe, no answer yet), who is still to answer and the In / Out / Maybe buttons, the team's
  arena duty for the game (bot/services/shared/duties.py) and the equipment every player must wear where
  the rulebook mandates it (youth 1.17). It pings the players who have not answered (and, when the team is
  on duty, its captains). Its Discord id is kept (``reminder_messages``).
- Each answer then edits that message (bot/services/reminders/messages.py); so does each later
  reminder time, which posts nothing new and pings nobody, except the last one before the game: it
  posts one short "last call" that pings only the players who still have not answered, with the
  buttons, and nothing at all when everyone has. The last one is the team's last reminder row
  still to come for the game, so a league's own offsets (or a game moved late) decide it.
- Mentions stay restricted to those players (allowed_mentions users, at most 100); the text names
  as many as fit in Discord's 2,000 characters and counts the rest. An edit mentions nobody.
- Players who chose DMs hear by DM at the first and the last reminder only; a team without a
  channel likewise gets DMs at those two, each player who has not answered once each time.
- A reminder message deleted on Discord (an edit answered 404) is forgotten, not retried: the next
  reminder time posts a new one, pinging only if it is the last.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clip, timestamp
from bot.league.availability import AWAY, status_with_away
from bot.league.discipline.cleanup import RULE_SETTINGS, cited
from bot.league.officials import equipment_text
from bot.services import outbox
from bot.services.availability.away import away_marks
from bot.services.deadlines.service import FANOUT_USER
from bot.services.discord_sync.api import Gone, Refused
from bot.services.outbox import ActionOutcome, ActionRow, FanOut, Outgoing, Rendered
from bot.services.reminders.messages import digest, edit_prefix, queue_edit, record_post, reminder_message
from bot.services.reminders.plan import (
    CONTENT_LIMIT,
    REMINDER_KIND,
    Waiting,
    game_heading,
    still_useful,
    waiting_players,
)
from bot.services.shared.attendance import roster_answers
from bot.services.shared.duties import duty_citations, rota_for
from storage import lookups
from storage.models import Game, OutboxMessage, ReminderMessage, Team

log = logging.getLogger("sideline.reminders")

MAX_PINGS = 100  # Discord: allowed_mentions.users holds at most 100 ids
DUTY_NAMES = {"setup": ("🛠️", "Setup"), "cleanup": ("🧹", "Cleanup")}
EQUIPMENT = "mandatory_equipment"


@dataclass(frozen=True)
class Card:
    """The team's reminder message as it reads now, and who it may ping when it is posted."""

    content: str
    waiting: Waiting
    named: tuple[int, ...]  # the players who have not answered that the text mentions
    captains: tuple[int, ...] = ()  # mentioned for cleanup duty


def mention_list(user_ids: tuple[int, ...], room: int, others: int = 0) -> tuple[str, tuple[int, ...]]:
    """As many mentions as fit in ``room`` characters (and Discord's 100), then "(and N more)"."""
    named: list[int] = []
    text = ""
    for i, user in enumerate(user_ids):
        more = len(user_ids) - i - 1 + others
        piece = f"{' ' if named else ''}<@{user}>"
        tail = f" (and {more} more)" if more else ""
        if len(named) >= MAX_PINGS or len(text) + len(piece) + len(tail) > room:
            break
        named.append(user)
        text += piece
    rest = len(user_ids) - len(named) + others
    return text + (f" (and {rest} more)" if rest else ""), tuple(named)


def _counts(statuses: list[str | None]) -> str:
    going, out, maybe = statuses.count("in"), statuses.count("out") + statuses.count(AWAY), statuses.count("maybe")
    return f"✅ {going} in · ❌ {out} out · 🤔 {maybe} maybe · ⏳ {statuses.count(None)} no answer yet"


class GameReminders:
    """The reminder rows' renderer (and the edits' text): a team on arena duty for the game (youth 2.1: the
    coaches and captains help set the arena up; 2.15: "the captains of the last game each week" clear it)
    hears it, its captains by name, and every team hears the equipment the rulebook mandates (youth 1.17).
    Rendered at send time, so a rescheduled week is read as it is."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def card(self, session: AsyncSession, league_id: int, guild_id: int, game: Game, team: Team) -> Card:
        """The text of the team's reminder message for the game, as the answers stand now."""
        waiting = await waiting_players(session, league_id, game, team)
        roster = await roster_answers(session, league_id, team.id, game.id)
        away = await away_marks(session, league_id, [r.player_id for r in roster], game.starts_at)
        statuses = [status_with_away(r.status, r.answered_at, away[r.player_id].since if r.player_id in away else None)
                    for r in roster]
        head = f"🏒 {team.name}: {game_heading(game)}\n"
        cleanup, captains = await self._duty_lines(session, league_id, guild_id, game, team)
        if not roster:
            body = "Nobody is on the roster yet, so nobody can answer: captains, add your players with `/roster add`."
            return Card(clip(head + body + cleanup, CONTENT_LIMIT), waiting, (), captains)
        head += _counts(statuses) + "\n"
        others = len(waiting.dm) + waiting.quiet + len(waiting.managed)
        ask = "\nAre you in? Tap a button below; this message keeps count as answers come in."
        named: tuple[int, ...] = ()
        if waiting.pinged:
            lead = "Still waiting to hear from: "
            room = CONTENT_LIMIT - len(head) - len(lead) - len(ask) - len(cleanup)
            names, named = mention_list(waiting.pinged, room, others)
            body = lead + names + ask
        elif others:
            body = f"Still waiting to hear from {others} player{'s' * (others != 1)}." + ask
        else:
            body = "Everyone has answered, thanks! You can still change your answer below."
        return Card(clip(head + body + cleanup, CONTENT_LIMIT), waiting, named, captains)

    async def _duty_lines(self, session: AsyncSession, league_id: int, guild_id: int, game: Game,
                          team: Team) -> tuple[str, tuple[int, ...]]:
        """The team's arena duties for the game and the mandatory equipment, and the captains to ping."""
        league = self.settings.league_for_guild(guild_id)
        if league is None:
            return "", ()
        rules = league.rules.deadlines
        equipment = equipment_text(rules.mandatory_equipment)
        text = (f"\n🦺 Every player wears: {equipment} ({cited(rules.deadline_citations.equipment, EQUIPMENT)})."
                if equipment else "")
        rota = await rota_for(session, league, league_id, game)
        duties = rota.duties_of(team.id)
        if not duties:
            return text, ()
        captains = tuple(await lookups.captain_ids(session, team.id))
        who = " ".join(f"<@{c}>" for c in captains) or "Captains"
        cites = duty_citations(league)
        lines = []
        for duty in duties:
            if (duty, team.id) in rota.by_commissioner:
                why, cite = "a commissioner put your team on it", ""
            else:
                why = "this is the day's first game" if duty == "setup" else "this is the week's last game"
                cite = f" ({cited(cites[duty], RULE_SETTINGS[duty])})"
            does = ("helps set the arena up before it" if duty == "setup" else "clears the arena after it")
            icon, name = DUTY_NAMES[duty]
            lines.append(f"\n{icon} {name} duty: {why}. {who}: your team {does}{cite}.")
        return "".join(lines) + text, captains

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        """A reminder time: post the team's message (the first), ping who hasn't answered (the first and
        the last), or only bring the message up to date (the ones between)."""
        live = await still_useful(session, row, now)
        if live is None:
            return None
        game, team = live
        first, last = not await _sent_before(session, row), not await _more_to_come(session, row)
        view = await self.card(session, row.league_id, row.guild_id, game, team)
        pinging = first or last
        dm_text = clip(f"🏒 {team.name}: {game_heading(game)}\nAre you in? Tap a button below.", CONTENT_LIMIT)
        if row.user_id == FANOUT_USER:  # no team channel: a DM to each who hasn't answered, first and last
            message = Outgoing(content=dm_text, checkin_game=game.code)
            everyone = view.waiting.everyone
            children = tuple((str(u), u, message) for u in everyone)
            children += tuple(c for m in view.waiting.managed for c in m.dms("", team, game))
            return FanOut(children) if pinging and children else None
        assert row.channel_id is not None
        if pinging:  # players who asked for DMs hear it there, once each, instead of a ping here
            for user in view.waiting.dm:
                await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id,
                                     key=f"{row.send_key}:dm:{user}", due_at=now,
                                     message=Outgoing(content=dm_text, checkin_game=game.code), user_id=user,
                                     expires_at=row.expires_at)
            for managed in view.waiting.managed:  # guardians answer for players without an account
                for suffix, guardian, message in managed.dms(f"{row.send_key}:dm:", team, game):
                    await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id, key=suffix,
                                         due_at=now, message=message, user_id=guardian, expires_at=row.expires_at)
        posted = await reminder_message(session, game.id, team.id)
        if posted is None or posted.message_id is None or posted.channel_id != row.channel_id:
            await record_post(session, row, game_id=game.id, team_id=team.id, channel_id=row.channel_id,
                              text=view.content, now=now)
            pings = tuple(dict.fromkeys((*(view.captains if first else ()), *view.named))) if pinging else ()
            return Outgoing(content=view.content, checkin_game=game.code, ping_user_ids=pings[:MAX_PINGS])
        await queue_edit(session, league_id=row.league_id, game_id=game.id, team_id=team.id, now=now,
                         expires_at=game.starts_at)
        if not last or not view.waiting.pinged:
            return None
        return self._last_call(posted, game, view)

    def _last_call(self, posted: ReminderMessage, game: Game, view: Card) -> Outgoing:
        link = f"https://discord.com/channels/{posted.guild_id}/{posted.channel_id}/{posted.message_id}"
        head = (f"⏰ Last call for **{game.home.name} vs {game.away.name}** `{game.code}`, "
                f"{timestamp(game.starts_at, 'R')}: ")
        tail = f". Are you in? Tap a button below. Who's coming so far: {link}"
        others = len(view.waiting.dm) + view.waiting.quiet + len(view.waiting.managed)
        names, named = mention_list(view.waiting.pinged, CONTENT_LIMIT - len(head) - len(tail), others)
        return Outgoing(content=clip(head + names + tail, CONTENT_LIMIT), checkin_game=game.code,
                        ping_user_ids=named)


def _stage(row: OutboxMessage) -> str:
    return ":".join(row.send_key.split(":")[:4]) + ":"  # game-reminders:<game>:<team>:remind:


async def _sent_before(session: AsyncSession, row: OutboxMessage) -> bool:
    """Whether an earlier reminder of the same game and team went out: then this one is not the first."""
    return await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == row.league_id, OutboxMessage.send_key.startswith(_stage(row), autoescape=True),
        OutboxMessage.kind == REMINDER_KIND, OutboxMessage.status == "sent", OutboxMessage.id != row.id).limit(1)) \
        is not None


async def _more_to_come(session: AsyncSession, row: OutboxMessage) -> bool:
    """Whether a later reminder of the same game and team is still to go out: then this is not the last."""
    return await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == row.league_id, OutboxMessage.send_key.startswith(_stage(row), autoescape=True),
        OutboxMessage.kind == REMINDER_KIND, OutboxMessage.status == "pending", OutboxMessage.id != row.id,
        OutboxMessage.due_at > row.due_at).limit(1)) is not None


class MessageEdits(Protocol):
    """The Discord call an edit makes (bot/delivery/discord_actions.py): 404 raises ``Gone``, 403 ``Refused``."""

    async def edit_message(self, channel_id: int, message_id: int, content: str) -> None: ...


class ReminderEdits:
    """The action behind each queued edit: the team's reminder message shows the answers as they are now."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, reminders: GameReminders) -> None:
        self.sessions = sessions
        self.clock = clock
        self.reminders = reminders

    async def __call__(self, api: MessageEdits, row: ActionRow) -> ActionOutcome:
        game_id, team_id = int(row.args["game_id"]), int(row.args["team_id"])
        async with self.sessions.begin() as session:
            posted = await reminder_message(session, game_id, team_id)
            if posted is None or posted.message_id is None or posted.league_id != row.league_id:
                return ActionOutcome("skipped", "no reminder message to edit")
            if await outbox.others_sending(session, row, edit_prefix(game_id, team_id)):
                return ActionOutcome("later", "another edit of this reminder is being sent")
            posted.edit_due_at = None  # an answer from now on queues the next edit
            game, team = await session.get(Game, game_id), await session.get(Team, team_id)
            if game is None or team is None or game.status != "scheduled" or game.starts_at <= self.clock.now():
                return ActionOutcome("skipped", "the game is off or under way")
            content = (await self.reminders.card(session, row.league_id, row.guild_id, game, team)).content
            if digest(content) == posted.shown:
                return ActionOutcome("skipped", "the reminder already shows this")
            channel_id, message_id = posted.channel_id, posted.message_id
        try:
            await api.edit_message(channel_id, message_id, content)
        except Gone as exc:  # deleted on Discord: forgotten, so the next reminder time posts a new one
            log.info("reminder message %s for game %s was deleted on Discord: not edited again", message_id, game_id)
            await self._forget(game_id, team_id, message_id)
            return ActionOutcome("failed", str(exc))
        except Refused as exc:
            return ActionOutcome("failed", str(exc))
        async with self.sessions.begin() as session:
            await session.execute(update(ReminderMessage).where(
                ReminderMessage.game_id == game_id, ReminderMessage.team_id == team_id,
                ReminderMessage.message_id == message_id).values(shown=digest(content), edited_at=self.clock.now()))
        return ActionOutcome("sent")

    async def _forget(self, game_id: int, team_id: int, message_id: int) -> None:
        async with self.sessions.begin() as session:
            await session.execute(update(ReminderMessage).where(
                ReminderMessage.game_id == game_id, ReminderMessage.team_id == team_id,
                ReminderMessage.message_id == message_id).values(message_id=None, edit_due_at=None))
