"""User text made safe to store or to use as a query parameter, on every database.

PostgreSQL refuses NUL in text (asyncpg raises) where SQLite takes it, and no name a person types
contains a control character on purpose: they are dropped, not refused, so "Haw\\x00ks" still finds
the Hawks. The same goes for the C1 controls and the bidirectional overrides and isolates (U+202A-E,
U+2066-9), which turn the text after them around on the reader's screen ("Hawks\\u202eskwaH").
Every place where user text meets the database goes through ``printable``.
"""

from __future__ import annotations

from functools import lru_cache

_DROPPED = (*range(0x20), 0x7F, *range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))


@lru_cache(maxsize=8)
def _table(keep: str) -> dict[int, None]:
    return dict.fromkeys(c for c in _DROPPED if chr(c) not in keep)


def printable(text: str | None, keep: str = "") -> str:
    """``text`` without control characters (C0, DEL, C1) or bidirectional overrides and isolates,
    except those in ``keep`` (e.g. "\\n\\t")."""
    return (text or "").translate(_table(keep))
