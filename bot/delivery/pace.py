"""Pace: Discord allows a bot 50 requests a second in all, and 5 messages per 5 s
in a channel. discord.py keeps to each channel's limit by the rate-limit headers (it waits when a
channel's bucket is empty), but the global limit has no headers until a 429, which stalls every
request of the bot. So a paced courier (``Pace``) sends at most ``rate`` requests a second, in lanes:
one per channel (or DM, or all action rows together), the lanes side by side, each in order; and it
claims rows spread over channels, so one busy channel's wait doesn't hold the others up. A 429 that
comes anyway is waited out by discord.py, or the row is retried later with the same nonce: never lost,
never doubled.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass

BATCH = 10  # at Discord's 5 sends per channel per 5 s, a batch for one channel goes out in ~10 s


@dataclass(frozen=True)
class Pace:
    """How fast this process sends. ``rate``: requests a second, just under Discord's global 50 (a
    bot's processes share those 50: give each its part); None sends one row at a time, unpaced (the
    fake Discord of the tests has no limits unless a test sets them). ``claim``: rows claimed at once,
    about 5 s of sends at the rate (a claim is renewed while it is worked on, see ``LEASE``);
    ``lanes``: rows being delivered at once (each holds a database session briefly). A running bot's
    courier takes its ``share`` of ``[bot] send_rate``, the live processes counted (bot/delivery/courier.py)."""

    rate: float | None = 48.0
    claim: int = 240
    lanes: int = 24
    window: float = 1.0  # Discord's global window; a test may scale it down with the fake's

    @classmethod
    def share(cls, processes: int, rate: float = 48.0) -> Pace:
        """This process's part when ``processes`` processes of the bot send at once; smaller claims
        (about 2 s of sends), so the last rows are shared out evenly rather than left to one process."""
        if processes <= 1:
            return cls(rate=rate, claim=max(BATCH, int(rate * 5)))
        part = rate / processes
        return cls(rate=part, claim=max(BATCH, int(part * 2)))


UNPACED = Pace(rate=None, claim=BATCH, lanes=1)


class Pacer:
    """At most ``rate * window`` turns in any ``window`` seconds: a sliding log of the turns given,
    stamped when given, so a stalled event loop can't bunch more of them into one of Discord's
    windows than it allows. Turns are given in the order asked, at least half the even spacing
    apart (no burst of a whole window's worth at once)."""

    def __init__(self, rate: float, window: float = 1.0) -> None:
        self.window = window
        self.per_window = max(1, int(rate * window))
        self.gap = window / self.per_window / 2
        self._given: deque[float] = deque()
        self._order = asyncio.Lock()

    async def turn(self) -> None:
        async with self._order:
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._given and self._given[0] <= now - self.window:
                    self._given.popleft()
                if len(self._given) >= self.per_window:
                    wait = self._given[0] + self.window - now
                else:
                    wait = self._given[-1] + self.gap - now if self._given else 0.0
                if wait <= 0:
                    self._given.append(now)
                    return
                await asyncio.sleep(wait)
