"""The standings message survives a crash between posting it and saving its id.

Discord has the message, the database does not know its id yet: the next publish must adopt that
message and edit it, never leave it in the channel beside a second one.
"""

from __future__ import annotations

import contextlib

from sqlalchemy import select

from bot.clock import FixedClock
from bot.delivery.courier import LEASE
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import StandingsPost
from tests.conftest import CHANNELS, SampleLeague
from tests.harness import Call, Harness

STANDINGS_CHANNEL = CHANNELS["standings"]


class ProcessKilled(BaseException):
    """Stands for the process dying: not an Exception, so no handler in the bot swallows it."""


async def test_a_crash_after_posting_the_standings_leaves_one_message(
        harness: Harness, league: SampleLeague, db_url: str, clock: FixedClock) -> None:
    fake = harness.discord

    def killed_once_discord_has_it(call: Call) -> None:
        if call.method == "POST" and call.channel_id == STANDINGS_CHANNEL and call.status == 200:
            fake.hooks.remove(killed_once_discord_has_it)
            raise ProcessKilled

    fake.hooks.append(killed_once_discord_has_it)
    with contextlib.suppress(ProcessKilled):
        await harness.slash("/standings post", as_=league.commissioner())
    assert len(fake.channel_messages(STANDINGS_CHANNEL)) == 1, "Discord took the message before the crash"
    await harness.bot.engine.dispose()
    if not db_url.startswith("sqlite"):  # SQLite is one process: a restart takes back at once
        clock.advance(seconds=LEASE.total_seconds() + 1)  # elsewhere a dead process's lease lapses first
    # a new process on the same database and the same Discord
    bot = create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    restarted = Harness(bot)
    restarted.discord = fake
    await restarted.start()
    try:
        await bot.courier.recover()
        again = await restarted.slash("/standings post", as_=league.commissioner())
        assert again.content == f"Refreshed the standings message in <#{STANDINGS_CHANNEL}>."
        assert len(fake.channel_messages(STANDINGS_CHANNEL)) == 1, "one standings message, never a second"
        async with bot.sessions() as s:
            post = await s.scalar(select(StandingsPost))
        posted = [int(m["id"]) for (channel, _nonce), m in fake._nonces.items() if channel == STANDINGS_CHANNEL]
        assert post is not None and [post.message_id] == posted  # the message Discord made before the crash
        edits = [c.path for c in fake.calls if c.method == "PATCH" and c.channel_id == STANDINGS_CHANNEL]
        assert edits == [f"/channels/{STANDINGS_CHANNEL}/messages/{post.message_id}"]
    finally:
        await restarted.close()
