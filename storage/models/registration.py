"""Registration for a season (youth 1.2, 1.15): the windows commissioners open per division, who
registered (with their private date of birth and dues), the age exceptions commissioners record, and the
waiting-list offers made when a spot opens (one row per registrant and opening, so none is made twice)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class RegistrationWindow(Base):
    """A division's registration for a season, opened (and closed) by a commissioner, with its fee."""

    __tablename__ = "registration_windows"
    __table_args__ = (UniqueConstraint("season_id", "division"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    division: Mapped[str] = mapped_column(String(100))
    fee_cents: Mapped[int] = mapped_column(default=0)
    payment_link: Mapped[str] = mapped_column(String(300), default="")
    draft_date: Mapped[date | None] = mapped_column(Date)  # "paid before the draft" (1.15): a day commissioners set
    opened_by: Mapped[int] = mapped_column(Snowflake)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Registration(Base):
    """One registrant in one window. ``discord_id`` is whoever submitted the form: the player, or their
    guardian when registering a minor; every message about the registration goes to them."""

    __tablename__ = "registrations"
    __table_args__ = (Index("ix_registrations_window_status", "window_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    window_id: Mapped[int] = mapped_column(ForeignKey("registration_windows.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    date_of_birth: Mapped[date] = mapped_column(Date)  # private: commissioners only
    positions: Mapped[str] = mapped_column(String(100), default="")
    guardian: Mapped[str] = mapped_column(String(100), default="")
    notes: Mapped[str] = mapped_column(String(1000), default="")
    discord_id: Mapped[int] = mapped_column(Snowflake, index=True)
    # registered | waiting | offered | rejected | replaced | declined (accepted offers become registered)
    status: Mapped[str] = mapped_column(String(20))
    queue_position: Mapped[int | None]  # order on the waiting list
    fee_cents: Mapped[int] = mapped_column(default=0)
    # unpaid | in_person | online | waived | refunded | partial
    payment_state: Mapped[str] = mapped_column(String(20), default="unpaid")
    paid_cents: Mapped[int] = mapped_column(default=0)
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    payment_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    exception_reason: Mapped[str] = mapped_column(String(200), default="")
    exception_by: Mapped[int | None] = mapped_column(Snowflake)
    decision_reason: Mapped[str] = mapped_column(String(500), default="")
    decided_by: Mapped[int | None] = mapped_column(Snowflake)


class RegistrationException(Base):
    """A commissioner's leave for one member's registrant to play outside the division's age band."""

    __tablename__ = "registration_exceptions"
    __table_args__ = (UniqueConstraint("window_id", "discord_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    window_id: Mapped[int] = mapped_column(ForeignKey("registration_windows.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    reason: Mapped[str] = mapped_column(String(200))
    recorded_by: Mapped[int] = mapped_column(Snowflake)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    used_by: Mapped[int | None] = mapped_column(ForeignKey("registrations.id", ondelete="SET NULL"))


#: What an offered spot is: a registrant's place in the division, or a team's place left by a player an
#: approved replacement request (youth 1.16) takes off the roster.
OPENING_KINDS = ("registration", "replacement")


class RegistrationOffer(Base):
    """A spot offered to a waiting registrant: ``opening_kind`` and ``opening`` name the spot (the registration
    it replaces, or the replacement request that opened it), unique with the registrant, so a restart or a
    second press never offers the same spot twice."""

    __tablename__ = "registration_offers"
    __table_args__ = (UniqueConstraint("registration_id", "opening_kind", "opening"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    registration_id: Mapped[int] = mapped_column(ForeignKey("registrations.id", ondelete="CASCADE"))
    opening: Mapped[int]  # the id of the registration (or replacement request) whose spot this is
    opening_kind: Mapped[str] = mapped_column(String(12), default="registration", server_default="registration")
    offered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    answer: Mapped[str] = mapped_column(String(20), default="")  # "" | accepted | declined | expired
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
