"""Deliver queued messages to Discord: claim due rows, send once, record what happened.

Failure policy (docs/product.md §5):
- 429 and 5xx: discord.py retries briefly itself; if it still fails, the row is retried later
  with backoff, never lost and never doubled (each row is sent with a nonce Discord enforces).
- 403 / 404 on a channel: the row fails, the league's admins are told once per channel.
- A closed DM: the row fails, logged and counted; never a crash.
- Past its expiry (a reminder after the game started): skipped with a log line.
- Action rows (``OutboxKinds.actions``: a game's scheduled event, a member's team role) are calls to
  Discord, not messages: the action makes them with ``bot.delivery.discord_actions`` and says what became of
  the row; a 403 it reports itself (bot/services/discord_sync/), and it looks before it repeats a
  call an earlier attempt may have made (no nonce protects those).

Claims: a process claims rows for a short lease and takes back what a stopped
process held (bot/delivery/claims.py). Resending a row is harmless: the nonce makes Discord answer with the
first message.

Shards: queued messages are REST sends, which no gateway shard owns, so every
live process drains the whole outbox, whichever shard's server a row is for; the reminders of a
process that died go out from the others. Each round the courier reads again the leagues set up
in Discord on other processes' servers (their /setup runs there), and within a round one it has
not heard of before it sends that league's row (``refresh_leagues``).

The pace of sending: bot/delivery/pace.py. Discord's global limit is the bot token's, shared by its
processes, so a courier sends at its part of ``[bot] send_rate``, the processes counted by their
presence locks every ``RECOUNT_EVERY`` seconds: when one stops, the others speed up.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Collection
from datetime import datetime, timedelta
from functools import partial
from typing import Final, Protocol

import discord
from discord.http import HTTPClient
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot import logs
from bot.clock import Clock
from bot.config.settings import Settings
from bot.delivery.claims import LEASE, RENEW_EVERY, STUCK_AFTER, Claimed, Claims, PresenceLost
from bot.delivery.discord_actions import DiscordActions
from bot.delivery.pace import Pace, Pacer
from bot.discord_text import fit_content, fit_embeds
from bot.services import outbox
from bot.services.outbox import Action, ActionRow, DeliveryStats, FanOut, OutboxKinds, Outgoing
from storage.db import rowcount
from storage.models import OutboxMessage

__all__ = ["LEASE", "RENEW_EVERY", "STUCK_AFTER", "CheckInView", "Claimed", "Courier", "button_view", "nonce_for"]

log = logging.getLogger("sideline.courier")

MAX_ATTEMPTS = 8
RECOUNT_EVERY = 5.0  # seconds between counts of the bot's live processes, who share its send rate
BACKOFF_BASE = timedelta(seconds=30)
THREAD_ARCHIVE_MINUTES: Final = 10080  # a week


def nonce_for(send_key: str) -> str:
    """A stable nonce per send key: Discord refuses to create a second message with it."""
    return hashlib.blake2b(send_key.encode(), digest_size=12).hexdigest()[:25]


def backoff(attempts: int) -> timedelta:
    return min(BACKOFF_BASE * 2 ** max(0, attempts - 1), timedelta(hours=1))


#: (game code, league id) -> the In / Out / Maybe buttons for that game; the check-in feature
#: (cogs/checkins/_buttons.py) makes them, and bot/run/app.py hands that to the courier.
CheckInView = Callable[[str, int], discord.ui.View]


class CourierHost(Protocol):
    """What the courier needs of the bot: the leagues, the database, the clock and Discord's API."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    clock: Clock
    http: HTTPClient

    @property
    def user(self) -> discord.ClientUser | None: ...

    async def refresh_leagues(self, guild_ids: Collection[int] | None = None) -> None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...


def button_view(buttons: tuple[tuple[str, str], ...], view: discord.ui.View | None = None) -> discord.ui.View:
    """Plain buttons by (label, custom_id); a DynamicItem registered for the custom_id handles clicks."""
    view = view or discord.ui.View(timeout=None)
    for label, custom_id in buttons:
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id, style=discord.ButtonStyle.primary))
    view.stop()  # nothing for discord.py to track in memory: the clicks go to the DynamicItems
    return view


class Courier:
    def __init__(self, bot: CourierHost, kinds: OutboxKinds, *, checkin_view: CheckInView,
                 pace: Pace | None = None) -> None:
        self.bot = bot
        self.kinds = kinds
        self.actions = DiscordActions(bot.http, lambda: bot.user.id if bot.user else None)
        self.checkin_view = checkin_view
        self.totals = DeliveryStats()
        self.claims = Claims(bot)
        self.stopping = False  # a graceful stop: finish the send under way, claim nothing more
        if pace is None:
            self.pace_from_settings()
        else:
            self.pace = pace

    @property
    def pace(self) -> Pace:
        return self._pace

    @pace.setter
    def pace(self, pace: Pace) -> None:
        """A pace given (a test's, a benchmark's) is kept as it is: the courier no longer shares the
        bot's send rate out among its processes itself."""
        self.shares_rate = False
        self._set_pace(pace)

    def pace_from_settings(self) -> None:
        """Send at this process's part of ``[bot] send_rate``, the live processes counted before the
        next claim (and every ``RECOUNT_EVERY`` seconds)."""
        self.shares_rate, self.processes, self._counted_at, self._fewer_seen = True, 1, -math.inf, 0
        self._set_pace(Pace.share(1, self.bot.settings.send_rate))

    def _set_pace(self, pace: Pace) -> None:
        self._pace = pace
        self._pacer = Pacer(pace.rate, pace.window) if pace.rate else None
        self._delivering = asyncio.Semaphore(max(1, pace.lanes))

    async def _share_rate(self) -> None:
        """Discord's global limit is per bot token: this process's part of it, as many as run now."""
        if not self.shares_rate or time.monotonic() - self._counted_at < RECOUNT_EVERY:
            return
        self._counted_at = time.monotonic()
        try:
            processes = await self.claims.live_processes()
        except Exception:  # keep the pace it has; the next count may work
            log.warning("could not count the bot's processes", exc_info=True)
            return
        if processes < self.processes and self._fewer_seen == 0:
            # Speed up only when a second count agrees: a process whose presence connection was lost
            # is uncounted for the moment it takes a fresh lock, and sends on at its part meanwhile.
            self._fewer_seen = 1
            return
        self._fewer_seen = 0
        if processes != self.processes:
            self.processes = processes
            self._set_pace(Pace.share(processes, self.bot.settings.send_rate))
            log.info("%d process(es) of the bot send messages: this one at %.1f of its %.0f requests/s",
                     processes, self._pace.rate or 0, self.bot.settings.send_rate)

    async def next_due(self) -> datetime | None:
        """When there is next something to do: a pending row falls due, or a claim's lease runs out."""
        lease_end = func.coalesce(OutboxMessage.lease_until, OutboxMessage.next_attempt_at)
        async with self.bot.sessions() as session:
            due = await session.scalar(
                select(OutboxMessage.next_attempt_at)
                .where(OutboxMessage.status == "pending")
                .order_by(OutboxMessage.next_attempt_at).limit(1)
            )
            lapses = await session.scalar(
                select(lease_end)
                .where(OutboxMessage.status == "sending")
                .order_by(lease_end).limit(1)
            )
        return min((t for t in (due, lapses) if t is not None), default=None)

    @property
    def claimer(self) -> str:
        """This process's id on its claims."""
        return self.claims.claimer

    async def recover(self) -> int:
        """At start: take back what no live process holds, so a quick restart strands nothing."""
        return await self.claims.recover()

    async def announce_presence(self) -> None:
        await self.claims.announce_presence()

    async def close(self) -> None:
        await self.claims.close()

    async def renew_claims(self) -> int:
        return await self.claims.renew_claims()

    async def _claim(self, limit: int, *, send_key: str | None = None, spread: bool = False) -> list[Claimed]:
        return await self.claims.claim(limit, send_key=send_key, spread=spread)

    async def _keep_presence(self) -> None:
        """Hold a presence lock before claiming; a fresh one after it was lost, then count again."""
        if await self.claims.keep_presence():
            self._counted_at = -math.inf

    async def deliver_due(self) -> DeliveryStats:
        """Send everything due now, a small batch at a time; returns what happened in this round."""
        stats = DeliveryStats()
        await self._keep_presence()
        await self.bot.refresh_leagues()  # sharded: what other processes' /setup changed
        await self.claims.take_back()
        async with self.claims.leases_kept():
            while not self.stopping:
                await self._keep_presence()  # lost while sending the last batch: nothing claimed without it
                await self._share_rate()
                batch = await self._claim(self.pace.claim, spread=self._pacer is not None)
                if not batch:
                    if await self.claims.take_back():  # a process stopped meanwhile: its claims go out now
                        continue
                    break
                unknown = {r.guild_id for r in batch if self.bot.settings.league_for_guild(r.guild_id) is None}
                if unknown:  # a league set up in Discord in another process since this round began
                    await self.bot.refresh_leagues(unknown)
                if self._pacer is None:
                    await self._in_order(batch, stats)
                else:
                    await self._in_lanes(batch, stats)
        self._count(stats)
        return stats

    async def _in_order(self, rows: list[Claimed], stats: DeliveryStats) -> None:
        for i, row in enumerate(rows):
            if self.stopping or self.claims.lost:
                await self.claims.release(rows[i:], "stopping" if self.stopping else "presence lost")
                return
            async with self._delivering:
                with logs.bound(guild_id=row.guild_id):  # JSON log lines say whose message it was
                    await self._deliver(row, stats)

    async def _in_lanes(self, batch: list[Claimed], stats: DeliveryStats) -> None:
        """A lane per channel (a DM's user; all action rows share one, as their checks for a twin
        in flight assume), side by side; the first error (or a kill) stops them all and is raised."""
        lanes: dict[tuple[int | None, int | None], list[Claimed]] = {}
        for row in batch:
            key = (None, None) if row.kind in self.kinds.actions else (row.channel_id, row.user_id)
            lanes.setdefault(key, []).append(row)
        tasks = [asyncio.create_task(self._in_order(rows, stats), name="sideline-courier-lane")
                 for rows in lanes.values()]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for task in tasks:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise error

    def stop(self) -> None:
        """A graceful stop (bot/run/lifecycle.py): the message being sent goes out and is recorded; the
        rest of the claimed batch goes back to the queue, for the next process to send at once."""
        self.stopping = True


    async def deliver_now(self, send_key: str) -> None:
        """Send one queued row at once, due or not, for a caller that waits for it (e.g. the
        standings message); nothing happens if another live process holds it or it is done."""
        await self._keep_presence()
        async with self.claims.leases_kept():
            for row in await self._claim(1, send_key=send_key):
                stats = DeliveryStats()
                with logs.bound(guild_id=row.guild_id):
                    await self._deliver(row, stats)
                self._count(stats)

    def _count(self, stats: DeliveryStats) -> None:
        for name in ("sent", "retried", "failed", "skipped"):
            setattr(self.totals, name, getattr(self.totals, name) + getattr(stats, name))

    async def _finish(self, row_id: int, *, then: Callable[[AsyncSession], Awaitable[None]] | None = None,
                      **values: object) -> None:
        """Record what became of a row this process holds; ``then`` runs in the same unit of work if it did."""
        async with self.bot.sessions.begin() as session:
            done = await session.execute(update(OutboxMessage).where(*self.claims.mine(row_id))
                                         .values(lease_until=None, **values))
            if then is not None and rowcount(done):
                await then(session)

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
                if self.claims.lost:
                    raise PresenceLost(row.send_key)
                if db_row is None or db_row.status != "sending" or db_row.claimed_by != self.claimer:
                    log.info("not sending %s: its claim lapsed and another process took it", row.send_key)
                    return
                action = self.kinds.actions.get(row.kind)
                acting = ActionRow(row.league_id, row.guild_id, row.send_key, dict(db_row.args), row.attempts,
                                   self.claimer)
                render = self.kinds.renderers.get(row.kind)
                if action is None and render is None:
                    raise LookupError(f"no renderer for outbox kind {row.kind!r} (bot/composition.py names them)")
                rendered = None if render is None else await render(session, db_row, now)
                if isinstance(rendered, FanOut):
                    for suffix, user_id, message in rendered.children:
                        await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id,
                                             key=f"{row.send_key}:{suffix}", due_at=now, message=message,
                                             user_id=user_id, expires_at=row.expires_at)
                    db_row.status, db_row.sent_at, db_row.lease_until = "sent", now, None
                    stats.sent += 1
                    return
            if action is not None:
                await self._act(row, action, acting, stats)
                return
            if rendered is None:
                stats.skipped += 1
                await self._finish(row.id, status="skipped", last_error="nothing to send any more")
                return
            sent = await self._send(row, rendered)
        except PresenceLost:  # the claim may be another process's by now: it goes out once, from there or here
            log.info("not sending %s: this process's presence lock was lost", row.send_key)
        except (discord.Forbidden, discord.NotFound) as exc:
            await self._undeliverable(row, exc, stats)
        except (discord.RateLimited, discord.DiscordServerError, discord.HTTPException, OSError) as exc:
            await self._retry_later(row, exc, stats)
        except Exception as exc:  # a bug in a renderer: keep the row, log it, retry with backoff
            log.exception("error delivering %s", row.send_key)
            await self._retry_later(row, exc, stats)
        else:
            stats.sent += 1
            hook = self.kinds.sent_hooks.get(row.kind)  # the feature keeps the message's id, in the same unit of work
            then = None if hook is None else partial(hook, send_key=row.send_key, message_id=sent.id)
            await self._finish(row.id, status="sent", sent_at=self.bot.clock.now(), message_id=sent.id,
                               last_error=None, then=then)

    async def _turn(self) -> None:
        """Wait for this process's next turn to call Discord (``Pace.rate``); no call at all once its
        presence is lost (its claims may be another process's)."""
        if self._pacer is not None:
            await self._pacer.turn()
        if self.claims.lost:
            raise PresenceLost("presence lost while waiting for a turn")

    async def _act(self, row: Claimed, action: Action, acting: ActionRow, stats: DeliveryStats) -> None:
        """An action row: its calls to Discord are the action's; a refusal it handled is final. It is
        paced as one call (most make one or two)."""
        await self._turn()
        outcome = await action(self.actions, acting)
        if outcome.status == "later":
            stats.retried += 1
            await self._finish(row.id, status="pending", next_attempt_at=self.bot.clock.now() + outbox.LATER,
                               last_error=outcome.note)
            return
        if outcome.status == "failed":
            stats.failed += 1
            stats.errors.append(f"{row.send_key}: {outcome.note}")
        else:
            stats.sent += outcome.status == "sent"
            stats.skipped += outcome.status != "sent"
        await self._finish(row.id, status=outcome.status, sent_at=self.bot.clock.now(),
                           last_error=(outcome.note or "")[:300] or None)

    async def _send(self, row: Claimed, rendered: Outgoing) -> discord.Message:
        target: discord.abc.Messageable
        await self._turn()
        if row.user_id is not None:
            target = await self.bot.create_dm(discord.Object(id=row.user_id))
            await self._turn()  # creating the DM channel may have been a request of its own
        else:
            assert row.channel_id is not None
            target = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(id=u) for u in rendered.ping_user_ids])
        view: discord.ui.View | None = None
        if rendered.checkin_game:  # the league: for presses in a DM
            view = self.checkin_view(rendered.checkin_game, row.league_id)
        if rendered.buttons:
            view = button_view(rendered.buttons, view)
        # within Discord's limits whatever the feature wrote (bot/client/tree.py ``within_limits`` does
        # the same for answers): a refused message would be retried, then lost
        content = fit_content(rendered.content) or None
        embeds = [discord.Embed.from_dict(e) for e in fit_embeds(rendered.embeds)]
        nonce = nonce_for(row.send_key)
        if view is None:
            return await target.send(content, embeds=embeds, allowed_mentions=mentions, nonce=nonce)
        return await target.send(content, embeds=embeds, allowed_mentions=mentions, nonce=nonce, view=view)

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
            await session.execute(update(OutboxMessage).where(*self.claims.mine(row.id))
                                  .values(status="failed", last_error=error, lease_until=None))
            await self._tell_admins_once(session, row, error)
        await self._after_failure(row, error)

    async def _tell_admins_once(self, session: AsyncSession, row: Claimed, error: str) -> None:
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
