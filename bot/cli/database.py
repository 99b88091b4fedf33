"""`sideline db upgrade` and `sideline db backup PATH`: database maintenance."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from bot.cli.common import open_database, say
from bot.config.settings import Settings
from storage.backup import backup_sqlite


async def cmd_db_upgrade(args: argparse.Namespace, settings: Settings) -> int:
    async with open_database(settings) as db:
        before, after = db.revision_before, db.revision_after
    human = (f"database already up to date (revision {after})" if before == after else
             f"database upgraded to revision {after} (was {before or 'empty'})")
    say(args, human, {"before": before, "after": after, "upgraded": before != after})
    return 0


async def cmd_db_backup(args: argparse.Namespace, settings: Settings) -> int:
    destination = Path(args.path)
    pages = await asyncio.to_thread(backup_sqlite, settings.database_url, destination)  # BackupError: failures.py
    say(args, f"backed up to {destination} ({pages} pages, integrity ok)",
        {"path": str(destination), "pages": pages})
    return 0


def register(subparsers: Any) -> None:
    db = subparsers.add_parser("db", help="database maintenance").add_subparsers(dest="db_command", required=True)
    up = db.add_parser("upgrade", help="apply pending migrations")
    up.add_argument("--json", action="store_true")
    up.set_defaults(handler=cmd_db_upgrade)

    backup = db.add_parser("backup", help="copy the SQLite database while the bot runs")
    backup.add_argument("path", help="the new backup file")
    backup.add_argument("--json", action="store_true")
    backup.set_defaults(handler=cmd_db_backup)
