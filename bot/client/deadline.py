"""Every interaction acknowledged within Discord's three seconds, however long its answer takes.

Discord drops an interaction the bot has not acknowledged 3 s after Discord created it: the user
reads "This interaction failed", whatever the bot sends afterwards. The guard watches each command,
button, select and form from its start to its end. One still unanswered ``defer_after`` seconds
after Discord created it (the time in its id, so time spent waiting in this process counts) is
deferred: Discord shows "Sideline is thinking…" (privately where the answer will be private). While
more than ``busy_at`` are in flight, one that writes is deferred at once, since writers take turns
for the database. The answer then fills the deferred response (``reply`` in bot/client/tree.py, the
one path every answer takes), so the user reads the same words either way.

Only discord.py's public interaction API: ``created_at``, ``response.defer``, ``response.is_done``.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger("sideline")

#: Seconds after Discord created an interaction to defer it if unanswered: a second of margin before
#: Discord's three, for the deferral's own trip and a clock a little off.
DEFER_AFTER = 2.0
#: Interactions in flight beyond which one that writes is deferred at once.
BUSY_AT = 100


class Acknowledge(enum.Enum):
    """How an interaction may be deferred: as its answer will look."""

    PRIVATELY = "privately"  # "thinking…" only the user sees, replaced by the private answer
    PUBLICLY = "publicly"  # "thinking…" the channel sees, replaced by the public answer
    BY_EDIT = "by edit"  # a button or select whose answer edits the message it is on
    NEVER = "never"  # an answer that opens a form: Discord takes no form after a deferral


@dataclass(eq=False)
class Watch:
    """One interaction in flight: its timer, a deferral under way, and how it was deferred until an
    answer fills it."""

    interaction: discord.Interaction[Any]
    how: Acknowledge
    timer: asyncio.TimerHandle | None = None
    deferring: asyncio.Task[None] | None = None
    deferred: Acknowledge | None = None


class DeadlineGuard:
    """Defers what would miss Discord's deadline; ``reply`` asks it (``claim``) before every answer."""

    def __init__(self, defer_after: float = DEFER_AFTER, busy_at: int = BUSY_AT) -> None:
        self.defer_after = defer_after
        self.busy_at = busy_at
        self.watched: dict[int, Watch] = {}  # interaction id -> its watch, from its start to its end

    @property
    def in_flight(self) -> int:
        return len(self.watched)

    def watch(self, interaction: discord.Interaction[Any], how: Acknowledge, *, writes: bool) -> None:
        """An interaction starts: defer it at its deadline, or now if it writes while the bot is busy."""
        busy = writes and len(self.watched) >= self.busy_at
        watch = self.watched[interaction.id] = Watch(interaction, how)
        if how is Acknowledge.NEVER:
            return
        if busy:
            self._defer(watch)
        else:
            watch.timer = asyncio.get_running_loop().call_later(self.wait(interaction), self._defer, watch)

    def wait(self, interaction: discord.Interaction[Any]) -> float:
        """Seconds until the interaction is ``defer_after`` old by its creation time; never more than
        ``defer_after`` from now, should this machine's clock be behind Discord's."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        return min(self.defer_after, max(0.0, self.defer_after - age))

    def release(self, interaction: discord.Interaction[Any]) -> None:
        """The interaction's work has ended."""
        watch = self.watched.pop(interaction.id, None)
        if watch is not None and watch.timer is not None:
            watch.timer.cancel()

    async def claim(self, interaction: discord.Interaction[Any]) -> Acknowledge | None:
        """Before an answer goes out: no deferral starts any more, and one under way has finished.
        Returns how the interaction was deferred when this answer is the first since (it then fills
        the deferred response), else None (answer as if no guard existed)."""
        watch = self.watched.get(interaction.id)
        if watch is None:
            return None
        if watch.timer is not None:
            watch.timer.cancel()
            watch.timer = None
        if watch.deferring is not None:
            await asyncio.shield(watch.deferring)
        deferred, watch.deferred = watch.deferred, None
        return deferred

    def deferred(self, interaction: discord.Interaction[Any], how: Acknowledge) -> None:
        """The command deferred it itself: its first answer fills that response, as after the guard's."""
        watch = self.watched.get(interaction.id)
        if watch is not None:
            watch.deferred = how

    def _defer(self, watch: Watch) -> None:
        watch.timer = None
        watch.deferring = asyncio.get_running_loop().create_task(self._deferral(watch))

    async def _deferral(self, watch: Watch) -> None:
        response = watch.interaction.response
        if response.is_done():  # answered without asking first: nothing to defer
            return
        try:
            if watch.how is Acknowledge.BY_EDIT:
                await response.defer()
            else:
                await response.defer(ephemeral=watch.how is Acknowledge.PRIVATELY, thinking=True)
        except (discord.HTTPException, discord.InteractionResponded):
            log.warning("could not defer interaction %s", watch.interaction.id, exc_info=True)
            return
        watch.deferred = watch.how
        log.debug("deferred %s (%s in flight)", watch.how.value, self.in_flight)
