"""A whole-database fingerprint, to prove a refused command wrote nothing."""

from __future__ import annotations

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


def changed_tables(before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    return [name for name in after if before.get(name) != after[name]]
