"""The season draft (youth 1.7): one draft per season and division, its recorded lottery, and its picks.

A pick's number is unique in its draft and a registration is picked at most once in it, so a second press,
a clock running out at the same moment, or a restart can never make a pick twice."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class Draft(Base):
    """A division's draft for a season. ``lottery`` is the drawn order (team ids, comma-separated), which
    anyone can recompute from ``seed`` and the team names (bot/league/draft/order.py)."""

    __tablename__ = "drafts"
    __table_args__ = (UniqueConstraint("season_id", "division"),
                      CheckConstraint("status IN ('setup', 'drawn', 'running', 'done')", name="status"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    division: Mapped[str] = mapped_column(String(100))
    rounds: Mapped[int]
    pick_seconds: Mapped[int]
    status: Mapped[str] = mapped_column(String(16), default="setup")
    seed: Mapped[str] = mapped_column(String(64), default="")
    lottery: Mapped[str] = mapped_column(String(2000), default="")
    drawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    channel_id: Mapped[int | None] = mapped_column(Snowflake)
    board_key: Mapped[str] = mapped_column(String(200), default="")  # the outbox row that posts the board
    board_message_id: Mapped[int | None] = mapped_column(Snowflake)
    clock_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the pick on the clock runs out
    version: Mapped[int] = mapped_column(default=0)  # one more at every change: a stale clock does nothing
    created_by: Mapped[int] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class DraftPick(Base):
    """One pick: the registration taken (and the player it became), or none when the clock ran out."""

    __tablename__ = "draft_picks"
    __table_args__ = (UniqueConstraint("draft_id", "number"), UniqueConstraint("draft_id", "registration_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    draft_id: Mapped[int] = mapped_column(ForeignKey("drafts.id", ondelete="CASCADE"))
    number: Mapped[int]
    round: Mapped[int]
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    registration_id: Mapped[int | None] = mapped_column(ForeignKey("registrations.id", ondelete="SET NULL"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    made_by: Mapped[int | None] = mapped_column(Snowflake)  # None: skipped when the clock ran out
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
