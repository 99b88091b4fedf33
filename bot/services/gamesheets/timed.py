"""Sends a game wants at set moments around its start (the late-start prompts, the officials' notices), as
outbox rows keyed ``<prefix>:<game>:<start epoch>:<moment>``: planned with each game and again at start,
each sent once across restarts (the key), and a moved or cancelled game's pending ones dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.services import outbox
from storage.models import Game, OutboxMessage

#: One send a game wants: (the moment's name, when it is due, when it is no longer worth sending).
Moment = tuple[str, datetime, datetime]


async def plan_game_sends(session: AsyncSession, *, guild_id: int, games: Sequence[Game], kind: str, prefix: str,
                          moment_arg: str, wanted: Callable[[Game], Iterable[Moment]], new: bool,
                          channel_id: int | None = None, user_id: int | None = None) -> int:
    """Queue each game's sends still to come (idempotent by key) and cancel the pending ones no longer
    wanted; ``new``: games just inserted, with nothing queued yet. The row's args name the game, the start
    it was planned for and the moment (under ``moment_arg``). Returns how many were queued."""
    if not games:
        return 0
    existing: dict[str, OutboxMessage] = {}
    if not new:
        key_prefix = f"{prefix}:" if len(games) > 1 else f"{prefix}:{games[0].id}:"
        existing = {r.send_key: r for r in (await session.scalars(select(OutboxMessage).where(
            OutboxMessage.league_id == games[0].league_id, OutboxMessage.kind == kind,
            OutboxMessage.send_key.startswith(key_prefix, autoescape=True)))).all()}
    queued = 0
    planned: set[str] = set()
    for game in games:
        for name, due_at, expires_at in (wanted(game) if game.status == "scheduled" else ()):
            key = f"{prefix}:{game.id}:{int(game.starts_at.timestamp())}:{name}"
            planned.add(key)
            if key in existing:
                continue
            done = await outbox.enqueue(
                session, league_id=game.league_id, guild_id=guild_id, key=key, due_at=due_at, kind=kind,
                channel_id=channel_id, user_id=user_id, expires_at=expires_at,
                args={"game_id": game.id, "starts_at": game.starts_at.isoformat(), moment_arg: name})
            queued += int(done.created)
    ids = {str(g.id) for g in games}
    for key, row in existing.items():
        if key.split(":")[1] in ids and key not in planned and row.status == "pending":
            row.status = "cancelled"
    return queued
