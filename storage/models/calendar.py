"""Calendar feeds: one secret link per person and feed, which /calendar reset revokes.

A token is ``<selector>.<verifier>``: the selector finds the row (unique, indexed), the verifier is
compared with ``hmac.compare_digest``, so how long a lookup takes says nothing about how much of a
guessed secret was right. The verifier is kept as issued because /calendar shows the same link
again on another device (a hash could not be shown again); it only grants reading a schedule that
every member of the server may read with /schedule anyway.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

FEED_SCOPES = ("player", "team", "league")


class CalendarFeed(Base):
    """A person's link to one feed: their own games, a team's, or the whole league's."""

    __tablename__ = "calendar_feeds"
    __table_args__ = (
        UniqueConstraint("selector"),
        CheckConstraint(f"scope IN {FEED_SCOPES!r}", name="scope"),
        CheckConstraint("(scope = 'team') = (team_id IS NOT NULL)", name="team_scope_has_team"),
        Index("ix_calendar_feeds_owner", "league_id", "owner_discord_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    owner_discord_id: Mapped[int] = mapped_column(Snowflake)
    scope: Mapped[str] = mapped_column(String(16))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    selector: Mapped[str] = mapped_column(String(32))
    verifier: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
