"""A league's imported rulebook: where it came from, and its citable sections for `/rule`.

A league with no row here reads its preset's rulebook as shipped (bot/league/rulebooks/presets.py)
when it was set up in Discord; a row is the file imported (config.toml, the CLI) or the upload.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.rulebooks.rulebook import SectionKind
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class Rulebook(Base):
    """One per league: the file last imported and its fingerprint (re-import only when it changes)."""

    __tablename__ = "rulebooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), unique=True)
    source: Mapped[str] = mapped_column(Text)  # the path it was imported from, or the uploaded file's name
    # "file": config.toml's `rulebook` or `sideline rules import`; "upload": /setup rulebook file:
    origin: Mapped[str] = mapped_column(String(16), default="file", server_default="file")
    imported_by: Mapped[int | None] = mapped_column(Snowflake)  # who uploaded it in Discord
    fingerprint: Mapped[str] = mapped_column(String(64))  # bot.league.rulebooks.rulebook.rulebook_fingerprint
    section_count: Mapped[int] = mapped_column(default=0)
    imported_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleSection(Base):
    """One citable section, stored with everything `RuleIndex` needs to rebuild it exactly."""

    __tablename__ = "rule_sections"
    __table_args__ = (
        UniqueConstraint("league_id", "ordinal"),
        Index("ix_rule_sections_league_citation", "league_id", "citation"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    ordinal: Mapped[int] = mapped_column()  # reading order in the rulebook
    citation: Mapped[str] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[SectionKind] = mapped_column(String(16))
    parent: Mapped[str] = mapped_column(Text, default="")  # the heading's citation, if any
    lines: Mapped[str] = mapped_column(Text, default="")  # source lines, newline-separated
    line_numbers: Mapped[list[int]] = mapped_column(JSON, default=list)
