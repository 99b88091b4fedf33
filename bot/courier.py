"""Deliver queued messages to Discord: claim due rows, send once, record what happened.

Failure policy (product.md §5, issue 4):
- 429 and 5xx: discord.py retries briefly itself; if it still fails, the row is retried later
  with backoff, never lost and never doubled (each row is sent with a nonce Discord enforces).
- 403 / 404 on a channel: the row fails, the league's admins are told once per channel.
- A closed DM: the row fails, logged and counted; never a crash.
- Past its expiry (a reminder after the game started): skipped with a log line.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord
from sqlalchemy import or_, select, update

from bot.services import outbox
from bot.services.outbox import DeliveryStats, FanOut, OutboxKinds, Outgoing
from storage.models import OutboxMessage

if TYPE_CHECKING:
    from bot.app import SidelineBot

log = logging.getLogger("sideline.courier")

MAX_ATTEMPTS = 8
BATCH = 200
STUCK_AFTER = timedelta(minutes=2)  # a claimed row not finished by then is retried (same nonce)
BACKOFF_BASE = timedelta(seconds=30)
THREAD_ARCHIVE_MINUTES = 10080  # a week


def nonce_for(send_key: str) -> str:
    """A stable nonce per send key: Discord refuses to create a second message with it."""
    return hashlib.blake2b(send_key.encode(), digest_size=12).hexdigest()[:25]


def backoff(attempts: int) -> timedelta:
    return min(BACKOFF_BASE * 2 ** max(0, attempts - 1), timedelta(hours=1))


def button_view(buttons: tuple[tuple[str, str], ...], view: discord.ui.View | None = None) -> discord.ui.View:
    """Plain buttons by (label, custom_id); a DynamicItem registered for the custom_id handles clicks."""
    view = view or discord.ui.View(timeout=None)
    for label, custom_id in buttons:
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id, style=discord.ButtonStyle.primary))
    view.stop()  # nothing for discord.py to track in memory: the clicks go to the DynamicItems
    return view


@dataclass(frozen=True)
class Claimed:
    id: int
    league_id: int
    guild_id: int
    send_key: str
    kind: str
    channel_id: int | None
    user_id: int | None
    expires_at: datetime | None
    attempts: int


class Courier:
    def __init__(self, bot: SidelineBot, kinds: OutboxKinds, *, shard_id: int = 0, shard_count: int = 1) -> None:
        self.bot = bot
        self.kinds = kinds
        self.shard_id, self.shard_count = shard_id, shard_count
        self.totals = DeliveryStats()

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.shard_count == self.shard_id

    @property
    def guild_ids(self) -> list[int]:
        return [lg.guild_id for lg in self.bot.settings.leagues if self.owns(lg.guild_id)]

    async def next_due(self) -> datetime | None:
        async with self.bot.sessions() as session:
            return await session.scalar(
                select(OutboxMessage.next_attempt_at)
                .where(OutboxMessage.status.in_(("pending", "sending")), OutboxMessage.guild_id.in_(self.guild_ids))
                .order_by(OutboxMessage.next_attempt_at).limit(1)
            )

    async def recover(self) -> int:
        """After a crash: rows claimed but never finished go back to pending (the nonce prevents doubles)."""
        cutoff = self.bot.clock.now() - STUCK_AFTER
        async with self.bot.sessions.begin() as session:
            result = await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.status == "sending", OutboxMessage.guild_id.in_(self.guild_ids),
                       or_(OutboxMessage.claimed_at.is_(None), OutboxMessage.claimed_at <= cutoff))
                .values(status="pending")
            )
            return result.rowcount or 0

    async def deliver_due(self) -> DeliveryStats:
        """Send everything due now; returns what happened in this round."""
        stats = DeliveryStats()
        while True:
            batch = await self._claim(BATCH)
            if not batch:
                break
            for row in batch:
                await self._deliver(row, stats)
        for name in ("sent", "retried", "failed", "skipped"):
            setattr(self.totals, name, getattr(self.totals, name) + getattr(stats, name))
        return stats

    async def _claim(self, limit: int) -> list[Claimed]:
        now = self.bot.clock.now()
        async with self.bot.sessions.begin() as session:
            query = (select(OutboxMessage).where(
                OutboxMessage.status == "pending", OutboxMessage.next_attempt_at <= now,
                OutboxMessage.guild_id.in_(self.guild_ids))
                .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit))
            if session.bind.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            rows = list((await session.scalars(query)).all())
            for row in rows:
                row.status, row.claimed_at, row.attempts = "sending", now, row.attempts + 1
            return [Claimed(r.id, r.league_id, r.guild_id, r.send_key, r.kind, r.channel_id, r.user_id,
                            r.expires_at, r.attempts) for r in rows]

    async def _finish(self, row_id: int, **values: object) -> None:
        async with self.bot.sessions.begin() as session:
            await session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id).values(**values))

    async def _deliver(self, row: Claimed, stats: DeliveryStats) -> None:
        now = self.bot.clock.now()
        if row.expires_at is not None and now >= row.expires_at:
            log.info("skipped %s: due while the bot was down and no longer useful", row.send_key)
            stats.skipped += 1
            await self._finish(row.id, status="skipped", last_error="expired before it could be sent")
            return
        try:
            async with self.bot.sessions.begin() as session:
                db_row = await session.get(OutboxMessage, row.id)
                assert db_row is not None
                render = self.kinds.renderers.get(row.kind)
                if render is None:
                    raise LookupError(f"no renderer for outbox kind {row.kind!r} (bot/composition.py names them)")
                rendered = await render(session, db_row, now)
                if isinstance(rendered, FanOut):
                    for suffix, user_id, message in rendered.children:
                        await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id,
                                             key=f"{row.send_key}:{suffix}", due_at=now, message=message,
                                             user_id=user_id, expires_at=row.expires_at)
                    db_row.status, db_row.sent_at = "sent", now
                    stats.sent += 1
                    return
            if rendered is None:
                stats.skipped += 1
                await self._finish(row.id, status="skipped", last_error="nothing to send any more")
                return
            message = await self._send(row, rendered)
        except (discord.Forbidden, discord.NotFound) as exc:
            await self._undeliverable(row, exc, stats)
        except (discord.RateLimited, discord.DiscordServerError, discord.HTTPException, OSError) as exc:
            await self._retry_later(row, exc, stats)
        except Exception as exc:  # a bug in a renderer: keep the row, log it, retry with backoff
            log.exception("error delivering %s", row.send_key)
            await self._retry_later(row, exc, stats)
        else:
            stats.sent += 1
            await self._finish(row.id, status="sent", sent_at=self.bot.clock.now(), message_id=message.id,
                               last_error=None)

    async def _send(self, row: Claimed, rendered: Outgoing) -> discord.Message:
        target: discord.abc.Messageable
        if row.user_id is not None:
            target = await self.bot.create_dm(discord.Object(id=row.user_id))  # type: ignore[arg-type]
        else:
            assert row.channel_id is not None
            target = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(id=u) for u in rendered.ping_user_ids])
        kwargs: dict[str, object] = {}
        view: discord.ui.View | None = None
        if rendered.checkin_game:
            from cogs._checkin_buttons import checkin_view  # the check-in feature owns the buttons

            view = checkin_view(rendered.checkin_game)
        if rendered.buttons:
            view = button_view(rendered.buttons, view)
        if view is not None:
            kwargs["view"] = view
        return await target.send(
            rendered.content or None, embeds=[discord.Embed.from_dict(e) for e in rendered.embeds],
            allowed_mentions=mentions, nonce=nonce_for(row.send_key), **kwargs)

    async def _after_failure(self, row: Claimed, error: str) -> None:
        """Let the feature that queued the row follow up once (e.g. a fallback for a refused DM)."""
        hook = self.kinds.failure_hooks.get(row.kind)
        if hook is None:
            return
        try:
            await hook(self, row, error)
        except Exception:
            log.exception("failure follow-up for %s raised", row.send_key)

    async def start_private_thread(self, channel_id: int, *, name: str, reason: str) -> int | None:
        """A private thread in a channel, for a failure hook; None when Discord refused (logged)."""
        try:
            thread = await self.bot.http.start_thread_without_message(
                channel_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.private_thread.value, invitable=False, reason=reason)
        except discord.HTTPException as exc:
            log.info("no private thread in channel %s (%s)", channel_id, exc)
            return None
        return int(thread["id"])

    async def _retry_later(self, row: Claimed, exc: BaseException, stats: DeliveryStats) -> None:
        error = f"{exc.__class__.__name__}: {exc}"[:300]
        if row.attempts >= MAX_ATTEMPTS:
            log.error("giving up on %s after %d attempts: %s", row.send_key, row.attempts, error)
            stats.failed += 1
            await self._finish(row.id, status="failed", last_error=error)
            await self._after_failure(row, error)
            return
        when = self.bot.clock.now() + backoff(row.attempts)
        log.warning("will retry %s at %s: %s", row.send_key, when.isoformat(), error)
        stats.retried += 1
        await self._finish(row.id, status="pending", next_attempt_at=when, last_error=error)

    async def _undeliverable(self, row: Claimed, exc: discord.HTTPException, stats: DeliveryStats) -> None:
        error = f"{exc.status} {exc.text or exc.__class__.__name__}"[:300]
        stats.failed += 1
        stats.errors.append(f"{row.send_key}: {error}")
        if row.user_id is not None:
            log.info("could not DM user %s (%s): %s", row.user_id, row.send_key, error)
            await self._finish(row.id, status="failed", last_error=error)
            await self._after_failure(row, error)
            return
        log.warning("channel %s refused %s: %s", row.channel_id, row.send_key, error)
        async with self.bot.sessions.begin() as session:
            await session.execute(update(OutboxMessage).where(OutboxMessage.id == row.id)
                                  .values(status="failed", last_error=error))
            await self._tell_admins_once(session, row, error)
        await self._after_failure(row, error)

    async def _tell_admins_once(self, session: outbox.AsyncSession, row: Claimed, error: str) -> None:
        league = self.bot.settings.league_for_guild(row.guild_id)
        admin_channel = league and (league.channels.admin or league.channels.announcements)
        if not admin_channel or admin_channel == row.channel_id:
            log.error("no working admin channel to report that channel %s refused messages", row.channel_id)
            return
        text = (f"Sideline couldn't post in <#{row.channel_id}> ({error}). The channel may have been "
                "deleted or the bot lacks permission there. Reminders for it are paused until it's fixed.")
        await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id,
                             key=f"delivery-problem:{row.channel_id}", due_at=self.bot.clock.now(),
                             message=Outgoing(content=text), channel_id=admin_channel)
