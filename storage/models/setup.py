"""Leagues set up in Discord (/setup): their settings, and who changed what when.

A league from config.toml has no row here: the file manages it. A league created with
``/setup league`` keeps here what config.toml would otherwise hold, so the same validation
(bot/config/settings.py) builds it, and ``sideline leagues export`` can write it back as TOML.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class LeagueSetup(Base):
    """One league's settings as set in Discord; the same keys as a ``[[leagues]]`` table."""

    __tablename__ = "league_setups"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    timezone: Mapped[str] = mapped_column(String(64))
    captain_role_id: Mapped[int | None] = mapped_column(Snowflake)
    referee_role_id: Mapped[int | None] = mapped_column(Snowflake)
    commissioner_role_id: Mapped[int | None] = mapped_column(Snowflake)
    timekeeper_role_id: Mapped[int | None] = mapped_column(Snowflake)
    announcements_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    standings_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    referees_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    admin_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    draft_channel_id: Mapped[int | None] = mapped_column(Snowflake)  # the draft board (none: where it starts)
    # {rule key: value}, as a [leagues.rules] table holds them; None offsets mean the defaults.
    rule_overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    game_offsets: Mapped[list[str] | None] = mapped_column(JSON)
    captain_alert_offsets: Mapped[list[str] | None] = mapped_column(JSON)
    game_card_offsets: Mapped[list[str] | None] = mapped_column(JSON)  # the officials' game card
    # Games as Discord scheduled events, and a Discord role per team (bot/services/discord_sync/).
    scheduled_events: Mapped[bool] = mapped_column(default=False, server_default=false())
    team_roles: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_by: Mapped[int] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SetupChange(Base):
    """The audit trail of /setup: who changed which setting when, from what to what."""

    __tablename__ = "setup_changes"
    __table_args__ = (Index("ix_setup_changes_league_key", "league_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    changed_by: Mapped[int] = mapped_column(Snowflake)
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    key: Mapped[str] = mapped_column(String(100))
    old_value: Mapped[str | None] = mapped_column(Text)
    new_value: Mapped[str | None] = mapped_column(Text)


class GenderAsk(Base):
    """A player checked in without a gender category in a league whose rules need one, and was asked
    (once: this row says so; the answer lives on the player, private as ever)."""

    __tablename__ = "gender_asks"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
