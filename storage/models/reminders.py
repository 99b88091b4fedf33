"""The game reminder each team's channel shows: posted once per game, then edited as players answer."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class ReminderMessage(Base):
    """A team's reminder message for one game: where it is, what it last showed, whether an edit waits.

    The row is written when the reminder is rendered (``post_key`` names the outbox row that posts
    it) and gets ``message_id`` once Discord has it; a message deleted on Discord loses its id, and
    the next reminder posts a new one. Its existence also says the team had its first reminder.
    """

    __tablename__ = "reminder_messages"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    guild_id: Mapped[int] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake)
    post_key: Mapped[str] = mapped_column(String(200))
    message_id: Mapped[int | None] = mapped_column(Snowflake)
    shown: Mapped[str] = mapped_column(String(32), default="")  # a digest of the text it shows
    edit_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # an edit is queued for then
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    edited_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
