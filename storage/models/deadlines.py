"""Deadlines as data (appeal windows, decisions due, payments, trades, custom) and captain alerts sent."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

AUDIENCE_KINDS = ("team", "role", "player", "commissioners")


class Deadline(Base):
    """Something due at a time, for an audience that is nudged at set offsets until it is done."""

    __tablename__ = "deadlines"
    __table_args__ = (
        UniqueConstraint("league_id", "ref"),
        CheckConstraint(f"audience_kind IN {AUDIENCE_KINDS!r}", name="audience_kind"),
        Index("ix_deadlines_league_due", "league_id", "due_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32), default="custom")
    subject: Mapped[str] = mapped_column(String(200))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    audience_kind: Mapped[str] = mapped_column(String(16))
    # team: the team's row id; role: a Discord role id; player: a Discord user id; commissioners: none
    audience_id: Mapped[int | None] = mapped_column(Snowflake)
    # nudge offsets before due: minutes (elapsed time), or a spelling with calendar days ("1d", "2d12h")
    offsets: Mapped[list[int | str]] = mapped_column(JSON, default=list)
    ref: Mapped[str | None] = mapped_column(String(100))  # e.g. "dispute:12": other features find it by this
    nag_until_done: Mapped[bool] = mapped_column(default=False)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    done_note: Mapped[str] = mapped_column(String(300), default="")
    created_by: Mapped[int | None] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CaptainAlert(Base):
    """A lineup problem the captains were told about, so it is not repeated while it stays the same."""

    __tablename__ = "captain_alerts"
    __table_args__ = (UniqueConstraint("game_id", "team_id", "problem_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    problem_code: Mapped[str] = mapped_column(String(40))
    message_hash: Mapped[str] = mapped_column(String(32))
    alerted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
