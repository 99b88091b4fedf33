"""`sideline run` from start to a graceful stop: what `systemctl stop` and `docker stop` expect.

SIGTERM or SIGINT: stop reading the gateway, so no new interaction is taken;
stop the scheduler's wake-ups and let the courier finish the message it is sending (it hands the
rest of its claimed batch back, bot/delivery/courier.py); wait for the interactions and units of work in
flight; then close the gateway, HTTP and the database. All of it within ``STOP_WITHIN`` seconds,
inside the 10 s that systemd and Docker wait before SIGKILL; the process then exits 0.

On SQLite the bot is one process by design (bot/delivery/courier.py takes back whatever another process
claimed), so a second ``sideline run`` on the same database file is refused at start, before it
touches the file: an exclusive lock on ``<database>.lock``, held for the process's life.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from bot.config.settings import Settings
    from bot.run.app import SidelineBot

log = logging.getLogger("sideline.lifecycle")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: Seconds the work in flight gets to finish once a stop signal came, then closing gets CLOSE_WITHIN.
STOP_WITHIN = 7.0
CLOSE_WITHIN = 2.0


class AlreadyRunning(RuntimeError):
    """Another bot process holds this SQLite database; the message is one line for the operator."""


async def run_until_stopped(settings: Settings, token: str, *, sync: bool = False) -> None:
    """Build the bot and run it until the gateway connection ends or a stop signal came."""
    from bot.run.app import create_bot

    with single_process(settings.database_url):
        await serve(create_bot(settings), token, sync=sync)


async def serve(bot: SidelineBot, token: str, *, sync: bool = False) -> None:
    """Log in, (sync,) connect; on SIGTERM or SIGINT stop gracefully. The handlers go in first, so
    a signal during start-up (migrations, login) stops the bot before it connects."""
    from bot.run.app import freeze_startup_objects

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    signals = _on_stop_signal(loop, stopping)
    try:
        async with bot:
            await bot.login(token)
            if sync and not stopping.is_set():
                await bot.sync_commands()
            freeze_startup_objects()
            gateway = asyncio.create_task(bot.connect(reconnect=True), name="sideline-gateway")
            signalled = asyncio.create_task(stopping.wait(), name="sideline-stop-signal")
            await asyncio.wait({gateway, signalled}, return_when=asyncio.FIRST_COMPLETED)
            if not gateway.done():
                await stop_gracefully(bot, gateway)
                return
            signalled.cancel()
            await gateway  # the connection ended by itself: its error (if any) is the caller's
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


def _on_stop_signal(loop: asyncio.AbstractEventLoop, stopping: asyncio.Event) -> list[signal.Signals]:
    def handle(sig: signal.Signals) -> None:
        if stopping.is_set():
            log.info("%s again: already stopping", sig.name)
            return
        log.info("%s: stopping gracefully (within %.0f s)", sig.name, STOP_WITHIN)
        stopping.set()

    installed = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, handle, sig)
        except (NotImplementedError, RuntimeError):  # Windows, or not the main thread: default handling
            continue
        installed.append(sig)
    return installed


async def stop_gracefully(bot: SidelineBot, gateway: asyncio.Task[Any], within: float = STOP_WITHIN) -> None:
    """Take nothing new, let what is in flight finish (up to ``within`` seconds), then close."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    gateway.cancel()  # no more gateway events are read: no new interaction reaches the bot
    await asyncio.wait({gateway})
    await _disconnect_shards(bot)
    if not gateway.cancelled() and gateway.exception() is not None:
        log.warning("the gateway connection had ended with an error", exc_info=gateway.exception())
    bot.courier.stop()  # the message being sent goes out; the rest of its batch goes back to the queue
    bot.scheduler.pause()  # no new wake-ups (bot.close shuts it down once the round under way ended)
    left = await _finish_in_flight(deadline)
    if left:
        log.warning("stopping with %d task(s) still running after %.0f s: %s", len(left), within,
                    ", ".join(sorted(t.get_name() for t in left)))
    try:
        async with asyncio.timeout(CLOSE_WITHIN):
            await bot.close()  # gateway socket, HTTP, courier's presence, database
    except TimeoutError:  # e.g. Discord slow to answer the socket's close: the database is closed anyway
        log.warning("Discord's connection did not close within %.0f s; closing the database", CLOSE_WITHIN)
        await bot.courier.close()
        await bot.engine.dispose()
    log.info("stopped")


async def _disconnect_shards(bot: SidelineBot) -> None:
    """A sharded bot (bot/config/shards.py) reads each shard's gateway in a task of its own, which cancelling
    ``connect`` leaves running: close those connections too, so no shard takes a new interaction."""
    import discord

    if isinstance(bot, discord.AutoShardedClient):
        for shard in bot.shards.values():
            await shard.disconnect()


async def _finish_in_flight(deadline: float) -> set[asyncio.Task[Any]]:
    """Wait for every other task on the loop (interaction handlers, the courier's round, the units of
    work they hold), including those they start meanwhile; returns those still running at the deadline."""
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    while True:
        running = {t for t in asyncio.all_tasks() if t is not me and not t.done()}
        remaining = deadline - loop.time()
        if not running or remaining <= 0:
            return running
        await asyncio.wait(running, timeout=remaining)


# --- one process per SQLite file -----------------------------------------------------------------
def lock_path(database_url: str) -> Path | None:
    """``<database>.lock`` for a SQLite file; None for PostgreSQL (many processes share it by design)
    or an in-memory database."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database).resolve()
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def single_process(database_url: str) -> Iterator[None]:
    """Hold an exclusive lock on the SQLite database's lock file while the bot runs; AlreadyRunning if
    another process holds it. The kernel drops the lock when the process ends, however it ends."""
    path = lock_path(database_url)
    if path is None or sys.platform == "win32" or not path.parent.is_dir():  # no folder: SQLite says so
        yield
        return
    import fcntl

    with path.open("a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AlreadyRunning(f"another Sideline bot is running on {path.with_suffix('')} (it holds "
                                 f"{path}); stop it first, or use PostgreSQL to run several") from None
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
