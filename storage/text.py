"""User text made safe to store or to use as a query parameter, on every database.

PostgreSQL refuses NUL in text (asyncpg raises) where SQLite takes it, and no name a person types
contains a control character on purpose: they are dropped, not refused, so "Haw\\x00ks" still finds
the Hawks. Every place where user text meets the database goes through ``printable``.
"""

from __future__ import annotations


def printable(text: str | None, keep: str = "") -> str:
    """``text`` without C0 control characters and DEL (except those in ``keep``, e.g. "\\n\\t")."""
    return "".join(ch for ch in text or "" if (ch >= " " and ch != "\x7f") or ch in keep)
