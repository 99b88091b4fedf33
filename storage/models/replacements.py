"""Captains' requests to replace a long-term injured or absent player (youth 1.16), with the conditions the
bot checked when they asked, and the commissioners' decision."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.replacements.conditions import REASONS
from storage.models.base import Base, Snowflake, UTCDateTime, partial_index, utcnow

REQUEST_STATUSES = ("pending", "approved", "declined")


class ReplacementRequest(Base):
    """One request: the player, their team, why (injury or absence), each condition's verdict as the captain
    was shown it, and once decided by whom, when, any emergency override's reason, the refund to the replaced
    player (injury) and the fee the replacement owes before their first game."""

    __tablename__ = "replacement_requests"
    __table_args__ = (
        CheckConstraint(f"reason IN {REASONS!r}", name="reason"),
        CheckConstraint(f"status IN {REQUEST_STATUSES!r}", name="status"),
        Index("ix_replacement_requests_league_status", "league_id", "status"),
        # One waiting request per player: two captains' clicks at the same moment don't file two.
        partial_index("uq_replacement_requests_pending", "player_id", unique=True, where="status = 'pending'"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    player_name: Mapped[str] = mapped_column(String(100), default="")
    reason: Mapped[str] = mapped_column(String(16))
    disclosed_on: Mapped[date | None] = mapped_column(Date)  # injury: when it was disclosed
    verdicts: Mapped[str] = mapped_column(Text, default="")  # one line per condition, as the captain saw them
    conditions_met: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    requested_by: Mapped[int] = mapped_column(Snowflake)
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    decided_by: Mapped[int | None] = mapped_column(Snowflake)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    decision_note: Mapped[str] = mapped_column(String(300), default="")
    override_reason: Mapped[str] = mapped_column(String(300), default="")  # an emergency approval's reason
    replacement_name: Mapped[str] = mapped_column(String(100), default="")
    replacement_discord_id: Mapped[int | None] = mapped_column(Snowflake)
    refund_cents: Mapped[int | None]
    prorated_fee_cents: Mapped[int | None]
    fee_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the team's next game after approval
