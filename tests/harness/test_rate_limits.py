"""The fake Discord's rate limits answer like Discord's, and discord.py paces itself by them."""

from __future__ import annotations

import json
import time

from discord.http import Route

from tests.harness import FakeDiscord, Harness
from tests.harness.rate_limits import BUCKET, RateLimits

EPOCH = 1_800_000_000.0


def limited_fake(now: list[float], **limits: float) -> FakeDiscord:
    fake = FakeDiscord({"id": "1", "username": "bot", "discriminator": "0", "avatar": None}, 2)
    fake.rate_limits = RateLimits(clock=lambda: now[0], wall=lambda: EPOCH + now[0], **limits)  # type: ignore[arg-type]
    return fake


def post(fake: FakeDiscord, channel: int) -> tuple[int, dict[str, object], dict[str, str]]:
    response = fake.request("POST", f"https://discord.com/api/v10/channels/{channel}/messages",
                            data=json.dumps({"content": "hi"}))
    return response.status, json.loads(response._text), dict(response.headers)


def test_a_channel_takes_five_messages_in_five_seconds_then_answers_429_like_discord() -> None:
    now = [100.0]
    fake = limited_fake(now)
    for i in range(5):
        status, _, headers = post(fake, 7)
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == str(4 - i)
        assert headers["X-RateLimit-Bucket"] == BUCKET
        assert float(headers["X-RateLimit-Reset-After"]) == 5.0
        assert float(headers["X-RateLimit-Reset"]) == EPOCH + 105.0
    now[0] += 2.0
    status, body, headers = post(fake, 7)
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 3.0, "global": False}
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["X-RateLimit-Remaining"] == "0" and headers["Retry-After"] == "3" and headers["Via"]
    assert post(fake, 8)[0] == 200, "another channel has its own limit"
    now[0] += 3.0
    assert post(fake, 7)[0] == 200, "the window is over"
    assert (fake.rate_limits.route_429s, fake.rate_limits.global_429s) == (1, 0)  # type: ignore[union-attr]


def test_fifty_requests_a_second_then_a_global_429() -> None:
    now = [0.0]
    fake = limited_fake(now)
    assert all(post(fake, channel)[0] == 200 for channel in range(50))
    now[0] += 0.75
    status, body, headers = post(fake, 99)
    assert status == 429 and body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": True}
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "user"
    assert fake.request("GET", "https://discord.com/api/v10/users/@me").status == 429, "every route counts"
    now[0] += 0.25
    assert post(fake, 99)[0] == 200
    assert fake.rate_limits.global_429s == 2  # type: ignore[union-attr]


def test_limits_are_off_unless_a_test_turns_them_on() -> None:
    fake = FakeDiscord({"id": "1", "username": "bot", "discriminator": "0", "avatar": None}, 2)
    assert all(post(fake, 7)[0] == 200 for _ in range(20))


async def test_discord_py_reads_the_headers_and_waits_instead_of_hitting_429(harness: Harness) -> None:
    harness.discord.rate_limits = RateLimits(channel_limit=2, channel_window=0.2)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=123)
    started = time.monotonic()
    for _ in range(5):  # 2 + 2 + 1: two waits for the window to end
        await harness.bot.http.request(route, json={"content": "hi"})
    assert time.monotonic() - started >= 0.35
    assert harness.discord.rate_limits.route_429s == 0
    assert len(harness.discord.channel_messages(123)) == 5


async def test_a_429_discord_py_did_not_see_coming_is_waited_out_and_retried(harness: Harness) -> None:
    limits = harness.discord.rate_limits = RateLimits(channel_limit=2, channel_window=0.2)
    for _ in range(2):  # another process used the channel's budget
        post(harness.discord, 124)
    await harness.bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=124),
                                   json={"content": "hi"})
    assert limits.route_429s == 1 and len(harness.discord.channel_messages(124)) == 3
