"""Trades between two teams (youth 1.9): the proposal, each traded player and which way they go, the other
team's answer, a commissioner's veto, and when the trade took effect."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.trades import STATES
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class Trade(Base):
    """One trade: ``from_team`` proposed it to ``to_team``; it takes effect at ``effective_at`` unless it is
    declined, withdrawn or vetoed first; ``applied_at`` is when the players actually moved."""

    __tablename__ = "trades"
    __table_args__ = (
        CheckConstraint(f"state IN {STATES!r}", name="state"),
        Index("ix_trades_league_state", "league_id", "state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    from_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    to_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    state: Mapped[str] = mapped_column(String(16), default="proposed")
    submitted_by: Mapped[int] = mapped_column(Snowflake)
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    effective_at: Mapped[datetime] = mapped_column(UTCDateTime)
    answered_by: Mapped[int | None] = mapped_column(Snowflake)  # the other team's captain, or the vetoing commissioner
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    note: Mapped[str] = mapped_column(String(300), default="")  # a veto's reason, or why it couldn't take effect
    applied_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class TradePlayer(Base):
    """A player in a trade, leaving ``from_team_id`` for the trade's other team."""

    __tablename__ = "trade_players"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    trade_id: Mapped[int] = mapped_column(ForeignKey("trades.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    from_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100), default="")  # as it was when proposed
