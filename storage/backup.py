"""Online backups of the embedded SQLite database (PostgreSQL: use pg_dump, see the README)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from storage.db import is_sqlite


class BackupError(Exception):
    pass


def sqlite_path(database_url: str) -> Path:
    if not is_sqlite(database_url):
        raise BackupError("the database is not SQLite; for PostgreSQL run: "
                          "pg_dump --format=custom --file=sideline.dump DATABASE_URL")
    database = make_url(database_url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory database can't be backed up")
    return Path(database)


def backup_sqlite(database_url: str, destination: Path) -> int:
    """Copy a live SQLite database page by page (SQLite's online backup API); returns pages."""
    source_path = sqlite_path(database_url)
    if not source_path.exists():
        raise BackupError(f"no database at {source_path}")
    if destination.exists():
        raise BackupError(f"{destination} exists already; choose a new file")
    if not destination.parent.is_dir():
        raise BackupError(f"{destination}: the folder {destination.parent} does not exist (create it first: "
                          f"mkdir -p {destination.parent})")
    try:
        return _copy(source_path, destination)
    except sqlite3.Error as exc:  # e.g. a folder this user may not write to
        raise BackupError(f"{destination}: {exc} (check the destination folder's permissions)") from exc


def _copy(source_path: Path, destination: Path) -> int:
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(destination)
    except sqlite3.Error:
        source.close()
        raise
    try:
        source.backup(target, pages=256)  # small steps: writers are never blocked for long
        pages = target.execute("PRAGMA page_count").fetchone()[0]
        check = target.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise BackupError(f"the backup failed its integrity check: {check}")
        return int(pages)
    finally:
        target.close()
        source.close()
