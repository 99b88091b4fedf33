"""What is queued in a league's outbox, as an operator reads it (`sideline reminders list`): each row
with the game and team it is about, when it is due, and where it goes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.services.deadlines.service import FANOUT_USER
from bot.services.reminders.messages import EDIT_KIND
from bot.services.reminders.plan import ALERT_KIND, CARD_KIND, NOTICE_KIND, REMINDER_KIND
from storage.models import Game, OutboxMessage, Team

#: What each kind of queued message is, for an operator.
KIND_NAMES = {REMINDER_KIND: "game reminder", ALERT_KIND: "lineup check", NOTICE_KIND: "game notice",
              EDIT_KIND: "game reminder update", CARD_KIND: "officials' game card"}


@dataclass(frozen=True)
class QueuedLine:
    """One outbox row as an operator sees it: what, for which game and team, when, and to where."""

    send_key: str
    kind: str
    status: str
    to: str  # "Hawks' channel 2001", "user <id> (DM)", or "DMs decided at send time"
    due_at: datetime
    expires_at: datetime | None
    sent_at: datetime | None
    attempts: int
    last_error: str | None
    game: str | None = None  # "G7: Hawks vs Wolves"
    game_starts_at: datetime | None = None
    team: str | None = None

    @property
    def what(self) -> str:
        return KIND_NAMES.get(self.kind, self.kind.replace("_", " "))

    def as_json(self) -> dict[str, object]:
        return {"key": self.send_key, "kind": self.kind, "what": self.what, "status": self.status,
                "game": self.game, "game_starts_at": self.game_starts_at and self.game_starts_at.isoformat(),
                "team": self.team, "to": self.to,
                "due_at": self.due_at.isoformat(), "expires_at": self.expires_at and self.expires_at.isoformat(),
                "sent_at": self.sent_at and self.sent_at.isoformat(), "attempts": self.attempts,
                "last_error": self.last_error}


async def queued_messages(session: AsyncSession, league_id: int, statuses: Sequence[str],
                          limit: int = 500) -> list[QueuedLine]:
    """The league's outbox rows with these statuses ("pending" includes rows being sent), by due time,
    each with the game and team it is about (when it is about one)."""
    wanted = set(statuses) | ({"sending"} if "pending" in statuses else set())
    found = (await session.scalars(
        select(OutboxMessage).where(OutboxMessage.league_id == league_id, OutboxMessage.status.in_(wanted))
        .order_by(OutboxMessage.due_at, OutboxMessage.id).limit(limit))).all()
    game_ids = {_int_arg(r, "game_id") for r in found} - {None}
    team_ids = {_int_arg(r, "team_id") for r in found} - {None}
    games = {g.id: g for g in (await session.scalars(
        select(Game).where(Game.league_id == league_id, Game.id.in_(game_ids)))).unique()} if game_ids else {}
    teams = {t.id: t for t in (await session.scalars(
        select(Team).where(Team.league_id == league_id, Team.id.in_(team_ids)))).unique()} if team_ids else {}
    lines = []
    for r in found:
        game, team = games.get(_int_arg(r, "game_id") or 0), teams.get(_int_arg(r, "team_id") or 0)
        lines.append(QueuedLine(
            r.send_key, r.kind, r.status, _recipient(r, team), r.due_at, r.expires_at, r.sent_at, r.attempts,
            r.last_error, game=f"{game.code}: {game.home.name} vs {game.away.name}" if game else None,
            game_starts_at=game.starts_at if game else None, team=team.name if team else None))
    return lines


def _int_arg(row: OutboxMessage, name: str) -> int | None:
    value = (row.args or {}).get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _recipient(row: OutboxMessage, team: Team | None = None) -> str:
    if row.user_id == FANOUT_USER:
        return "DMs decided at send time"
    if row.user_id is None and row.channel_id is None:
        return "the server (a scheduled event or a team role)"
    if row.user_id is not None:
        return f"user {row.user_id} (DM)"
    if team is not None and row.channel_id is not None and row.channel_id == team.channel_id:
        return f"{team.name}'s channel {row.channel_id}"
    return f"channel {row.channel_id}"
