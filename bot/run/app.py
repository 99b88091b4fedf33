"""The composition root on Discord's side: the bot, the cogs it loads and the buttons its courier
attaches. It sits above everything it assembles, so nothing imports it but the entry points."""

from __future__ import annotations

import gc
import pkgutil

from sqlalchemy.ext.asyncio import AsyncEngine

import cogs
from bot.client.bot import ShardedSidelineBot, SidelineBot
from bot.clock import Clock
from bot.config.settings import Settings
from cogs.checkins._buttons import checkin_view

__all__ = ["SidelineBot", "cog_extensions", "create_bot", "freeze_startup_objects"]


def cog_extensions() -> list[str]:
    """Every cog module: ``cogs/<name>.py`` and ``cogs/<feature>/<name>.py``. A feature's folder is a
    package, not a cog, and the underscored modules are shared glue (buttons, autocomplete)."""
    found = pkgutil.walk_packages(cogs.__path__, prefix="cogs.")
    return sorted(m.name for m in found if not m.ispkg and not m.name.rpartition(".")[2].startswith("_"))


def freeze_startup_objects() -> None:
    """Once the bot has started: its modules, mappings and settings live as long as the process, so
    take them out of the collector's full passes, which walked every one of them while holding the
    event loop (measured in bench/README.md). Not per bot: tests make hundreds."""
    gc.collect()
    gc.freeze()


def create_bot(settings: Settings, *, engine: AsyncEngine | None = None,
               clock: Clock | None = None, run_scheduler: bool = True) -> SidelineBot:
    """The bot for these settings: on discord.py's AutoShardedBot when they name shards."""
    bot_class = ShardedSidelineBot if settings.shards.sharded else SidelineBot
    return bot_class(settings, extensions=cog_extensions(), checkin_view=checkin_view, engine=engine,
                       clock=clock, run_scheduler=run_scheduler)
