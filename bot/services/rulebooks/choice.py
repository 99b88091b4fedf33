"""Which rulebook a league answers `/rule` from, and changing it from Discord with /setup rulebook.

A league set up in Discord starts on its preset's rulebook as shipped; an upload replaces it (one
transaction, with its audit row) and a reset goes back. A league from config.toml keeps its
``rulebook =`` file: the file is the file's, so /setup refuses to change it, as for every setting.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clean_user_text
from bot.errors import InvalidInput, NoLeague
from bot.league.rulebooks.rulebook import example_section
from bot.services.rulebooks.answers import CitedSection
from bot.services.rulebooks.lookup import (
    MAX_RULEBOOK_BYTES,
    RulesLookupService,
    UnreadableRulebook,
    preset_index,
)
from bot.services.setup.league_setup import START, Actor, LeagueSetupService
from storage.db import retried_on_disconnect
from storage.models import League, LeagueSetup, SetupChange

#: What an upload may be: plain text or Markdown, as a word processor exports it.
TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
AUDIT_KEY = "rulebook"

RulebookKind = Literal["preset", "upload", "file", "none"]


@dataclass(frozen=True)
class RulebookInUse:
    """The rulebook a league reads: its preset's as shipped, an upload, an imported file, or none."""

    kind: RulebookKind
    preset: str
    sections: int = 0
    source: str = ""  # the uploaded file's name, or the path a file was imported from
    by: int | None = None  # who uploaded it
    at: datetime | None = None  # when it was uploaded or imported
    configured: PurePath | None = None  # config.toml's `rulebook` for the league

    def describe(self, *, in_discord: bool) -> str:
        """In plain words; in Discord without a file path, with a mention and a Discord timestamp."""
        when = "" if self.at is None else (f" on <t:{int(self.at.timestamp())}:F>" if in_discord
                                           else f" on {self.at:%Y-%m-%d %H:%M} UTC")
        count = f" ({self.sections} sections)"
        if self.kind == "preset":
            return f"the {self.preset} preset's rulebook, as shipped with Sideline{count}"
        if self.kind == "upload":
            who = f" by <@{self.by}>" if self.by else ""
            return f"{clean_user_text(self.source, 80)}, uploaded in Discord{who}{when}{count}"
        if self.kind == "file":
            if in_discord:
                return f"a file the bot's operator imported{when}{count}"
            configured = " (the config file's rulebook)" if self.configured and str(self.configured) == self.source \
                else ""
            return f"the file {self.source}{configured}, imported{when}{count}"
        if self.configured is not None:
            return "none yet" if in_discord else (f"none imported yet: the config file names {self.configured}, "
                                                  "which the bot imports when it starts")
        return "none yet"

    def short(self) -> str:
        """For the audit trail: what was in use, in a few words."""
        if self.kind == "preset":
            return f"preset {self.preset}"
        if self.kind == "none":
            return "none"
        return f"{self.kind} {self.source} ({self.sections} sections)"

    def as_dict(self) -> dict[str, Any]:
        """The CLI's `--json` shape."""
        return {"kind": self.kind, "preset": self.preset, "sections": self.sections, "source": self.source or None,
                "uploaded_by": str(self.by) if self.by else None,
                "at": self.at.isoformat() if self.at else None,
                "configured": str(self.configured) if self.configured else None}


@dataclass(frozen=True)
class RulebookChanged:
    """What /setup rulebook did: before and after, and one section to show as an example."""

    league_name: str
    before: RulebookInUse
    after: RulebookInUse
    example: CitedSection | None = None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def upload_name(filename: str) -> str:
    """The uploaded file's name as a reply may show it."""
    return clean_user_text(PurePath(filename or "upload").name, 80) or "upload"


@retried_on_disconnect
class RulebookService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 setup: LeagueSetupService, rules: RulesLookupService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.setup = setup
        self.rules = rules

    async def in_use(self, league: LeagueSettings, league_id: int) -> RulebookInUse:
        """Which rulebook `/rule` answers from in this league."""
        book = await self.rules.stored(league_id)
        if book is not None:
            kind: RulebookKind = "upload" if book.origin == "upload" else "file"
            return RulebookInUse(kind, league.preset, book.section_count, book.source, book.imported_by,
                                 book.imported_at, league.rulebook)
        async with self.sessions() as session:
            in_discord = await session.scalar(
                select(LeagueSetup.league_id).where(LeagueSetup.league_id == league_id)) is not None
        if in_discord:  # as the lookup falls back (RulesLookupService.index)
            found = await asyncio.to_thread(preset_index, league.preset)
            if found is not None:
                return RulebookInUse("preset", league.preset, len(found[1].sections))
        return RulebookInUse("none", league.preset, configured=league.rulebook)

    async def _league(self, guild_id: int | None, actor: Actor, *, changing: bool) -> tuple[LeagueSettings, int]:
        league = self.setup.check(guild_id, actor, changing=changing)
        if league is None:
            raise NoLeague(START)
        async with self.sessions() as session:
            league_id = await session.scalar(select(League.id).where(League.guild_id == league.guild_id))
        if league_id is None:
            raise NoLeague(START)
        return league, league_id

    async def show(self, guild_id: int | None, actor: Actor) -> tuple[LeagueSettings, RulebookInUse]:
        """/setup rulebook with no options: what the league reads now."""
        league, league_id = await self._league(guild_id, actor, changing=False)
        return league, await self.in_use(league, league_id)

    def check_upload(self, guild_id: int | None, actor: Actor, filename: str, size: int) -> None:
        """Refuse before downloading: who may, and what the file says it is (its name and size)."""
        self.setup.check(guild_id, actor)
        if self.settings.league_for_guild(guild_id) is None:
            raise NoLeague(START)
        name = upload_name(filename)
        if PurePath(filename).suffix.lower() not in TEXT_SUFFIXES:
            raise InvalidInput(f"{name} is not a text file: upload the rulebook as a .txt or .md file (in Word or "
                               "Google Docs: download it as plain text). Nothing changed.")
        if size > MAX_RULEBOOK_BYTES:
            raise InvalidInput(f"{name} is {size:,} bytes; a rulebook is plain text well under "
                               f"{MAX_RULEBOOK_BYTES // 1_000_000} MB. Is it the right file? Nothing changed.")
        if size == 0:
            raise InvalidInput(f"{name} is empty; there are no rules in it. Nothing changed.")

    async def upload(self, guild_id: int | None, actor: Actor, filename: str, data: bytes) -> RulebookChanged:
        """Replace the league's rulebook with an uploaded text; a file that can't be read changes nothing."""
        self.check_upload(guild_id, actor, filename, len(data))
        league, league_id = await self._league(guild_id, actor, changing=True)
        before = await self.in_use(league, league_id)
        name = upload_name(filename)
        now = self.clock.now()

        def audit(session: AsyncSession) -> None:
            session.add(SetupChange(league_id=league_id, changed_by=actor.discord_id, changed_at=now,
                                    key=AUDIT_KEY, old_value=before.short(), new_value=f"upload {name}"))
        try:
            await self.rules.import_rulebook(league_id, data, name, uploaded_by=actor.discord_id, also=audit)
        except UnreadableRulebook as exc:
            raise InvalidInput(f"{exc.message} Nothing changed.") from None
        index = await self.rules.index(league_id)
        found = example_section(index.sections) if index is not None else None
        return RulebookChanged(league.name, before, await self.in_use(league, league_id),
                               CitedSection.of(found) if found else None)

    async def reset(self, guild_id: int | None, actor: Actor) -> RulebookChanged:
        """Back to the preset's rulebook as shipped."""
        league, league_id = await self._league(guild_id, actor, changing=True)
        before = await self.in_use(league, league_id)
        if before.kind != "preset":
            now = self.clock.now()

            def audit(session: AsyncSession) -> None:
                session.add(SetupChange(league_id=league_id, changed_by=actor.discord_id, changed_at=now,
                                        key=AUDIT_KEY, old_value=before.short(), new_value=f"preset {league.preset}"))
            await self.rules.forget(league_id, also=audit)
        after = await self.in_use(league, league_id)
        index = await self.rules.index(league_id)
        found = example_section(index.sections) if index is not None else None
        return RulebookChanged(league.name, before, after, CitedSection.of(found) if found else None)
