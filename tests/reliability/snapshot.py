"""A whole-database fingerprint, to prove a refused command wrote nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import select

from storage.models import Base


async def snapshot(sessions: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in primary-key order."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    async with sessions() as session:
        for table in Base.metadata.sorted_tables:
            query = select(table).order_by(*table.primary_key.columns)
            out[table.name] = [tuple(row) for row in (await session.execute(query)).all()]
    return out


def snapshot_file(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The same fingerprint read straight from a SQLite file, for the fuzz loop that takes two per
    example: ~30 reads through the async driver cost a thread hop each, a plain connection none."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return {table.name: conn.execute(
                    f"SELECT * FROM {table.name} ORDER BY {', '.join(c.name for c in table.primary_key.columns)}"
                ).fetchall()
                for table in Base.metadata.sorted_tables}


def changed_tables(before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    return [name for name in after if before.get(name) != after[name]]
