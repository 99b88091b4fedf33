"""Pending sends: what goes to whom and when, and what became of it.

The database, not the scheduler, is the memory of what must be sent and what was sent.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

OUTBOX_STATUSES = ("pending", "sending", "sent", "failed", "cancelled", "skipped")


class OutboxMessage(Base):
    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    guild_id: Mapped[int] = mapped_column(Snowflake)  # whose message; any process sends it, whatever its shards
    send_key: Mapped[str] = mapped_column(String(200), unique=True)  # one per message and recipient
    kind: Mapped[str] = mapped_column(String(40))
    args: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    channel_id: Mapped[int | None] = mapped_column(Snowflake)
    user_id: Mapped[int | None] = mapped_column(Snowflake)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # too late to be useful after this
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # While ``sending``: the courier (one per process) that claimed the row, and until when its claim
    # holds unless renewed; a row whose lease ran out, or whose claimer is gone, is taken back.
    claimed_by: Mapped[str | None] = mapped_column(String(32))
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    message_id: Mapped[int | None] = mapped_column(Snowflake)
    last_error: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
