"""Discord's rate limits for the fake Discord (opt-in): a global limit per bot and one per channel for
messages, answered the way real Discord answers them, so discord.py's own bucket handling paces.

Discord (docs "Rate Limits"): every answer on a limited route carries ``X-RateLimit-Limit``,
``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (the route's
hash); a 429 carries the JSON body ``{"message", "retry_after", "global"}``, ``Retry-After``, and
``X-RateLimit-Scope`` (``user`` for the bot's own per-route or global limit), plus
``X-RateLimit-Global: true`` when the global limit was hit. discord.py also wants ``Via`` on a 429
(without it, it takes the 429 for a Cloudflare ban and gives up).

Windows here are fixed: the first request opens one, it lasts ``window`` seconds. The clock is
``time.monotonic`` by default (discord.py sleeps in real time); a test may pass its own.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

MESSAGES = re.compile(r"^/channels/(\d+)/messages$")
RATE_LIMITED = "You are being rate limited."

Answer = tuple[int, object, dict[str, str]]


@dataclass
class Window:
    """One fixed window's count."""

    limit: int
    seconds: float
    opened: float = 0.0
    used: int = 0

    def roll(self, now: float) -> None:
        if self.used == 0 or now >= self.opened + self.seconds:
            self.opened, self.used = now, 0

    def reset_after(self, now: float) -> float:
        """Rounded up to the millisecond, as Discord gives it: waiting that long always finds the window over."""
        return max(0.0, math.ceil((self.opened + self.seconds - now) * 1000) / 1000)


@dataclass
class RateLimits:
    """Discord's limits: ``global_limit`` requests per ``global_window`` s for the bot, and
    ``channel_limit`` messages per ``channel_window`` s per channel (POST /channels/{id}/messages).
    Scale them down in a test; ``global_429s`` and ``route_429s`` count what was refused."""

    global_limit: int = 50
    global_window: float = 1.0
    channel_limit: int = 5
    channel_window: float = 5.0
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # for X-RateLimit-Reset (epoch seconds)
    global_429s: int = 0
    route_429s: int = 0
    _global: Window | None = None
    _channels: dict[int, Window] = field(default_factory=dict)

    def check(self, method: str, path: str) -> tuple[Answer | None, dict[str, str]]:
        """(a 429 to answer instead, or None) and the headers a successful answer carries."""
        now = self.clock()
        glob = self._global = self._global or Window(self.global_limit, self.global_window)
        glob.roll(now)
        m = MESSAGES.match(path) if method == "POST" else None
        channel = None
        if m is not None:
            channel = self._channels.setdefault(int(m.group(1)), Window(self.channel_limit, self.channel_window))
            channel.roll(now)
        if glob.used >= glob.limit:
            self.global_429s += 1
            return self._too_many(glob.reset_after(now), is_global=True), {}
        if channel is not None and channel.used >= channel.limit:
            self.route_429s += 1
            return self._too_many(channel.reset_after(now), is_global=False, bucket=self._headers(channel, now)), {}
        glob.used += 1
        if channel is None:
            return None, {}
        channel.used += 1
        return None, self._headers(channel, now)

    def spend(self, channel_id: int) -> None:
        """What another process of the bot does: use up the channel's messages in its current window."""
        window = self._channels.setdefault(channel_id, Window(self.channel_limit, self.channel_window))
        window.roll(self.clock())
        window.used = window.limit

    def _headers(self, window: Window, now: float) -> dict[str, str]:
        reset_after = window.reset_after(now)
        return {"X-RateLimit-Limit": str(window.limit), "X-RateLimit-Remaining": str(window.limit - window.used),
                "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}", "X-RateLimit-Bucket": BUCKET}

    @staticmethod
    def _too_many(retry_after: float, *, is_global: bool, bucket: dict[str, str] | None = None) -> Answer:
        retry_after = max(retry_after, 0.001)
        headers = {"Via": "1.1 google", "Retry-After": str(max(1, int(retry_after + 0.999))),
                   "X-RateLimit-Scope": "user", **(bucket or {})}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return 429, {"message": RATE_LIMITED, "retry_after": retry_after, "global": is_global}, headers


#: the message route's bucket hash (Discord's are opaque strings, one per route shape)
BUCKET = hashlib.blake2b(b"POST /channels/{channel_id}/messages", digest_size=16).hexdigest()
