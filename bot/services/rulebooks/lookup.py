"""A league's rulebook: import it into storage, and answer `/rule` from an in-process index.

The parsing and the search are pure (`bot.league.rulebooks.rulebook`, `bot.league.rulebooks.search`); this
service stores the sections per league and keeps one `RuleIndex` per league in memory, keyed by
the stored fingerprint. An import through this service replaces the cached index at once; an
import by another process (the CLI) is noticed by re-reading the fingerprint, at most every
`RECHECK_SECONDS`, so autocomplete doesn't query the database on every keystroke.

A league set up in Discord with nothing imported reads its preset's rulebook as shipped
(`bot.league.rulebooks.presets`), parsed once per process and shared by every such league.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import quote
from bot.errors import InvalidInput, NotFound
from bot.league.rulebooks.facts import fact_lines
from bot.league.rulebooks.presets import preset_rulebook
from bot.league.rulebooks.rulebook import MAX_QUERY_CHARS, Section, parse_rulebook, rulebook_fingerprint
from bot.league.rules import PRESET_NAMES, Rules
from bot.services.rulebooks.answers import CitedSection, RuleAnswer
from storage.db import retried_on_disconnect
from storage.models import League, LeagueSetup, Rulebook, RuleLink, RuleSection, RuleWord
from storage.text import printable

if TYPE_CHECKING:
    from bot.league.rulebooks.found import Link
    from bot.league.rulebooks.lexicon import Lexicon
    from bot.league.rulebooks.search import RuleIndex

log = logging.getLogger("sideline.rules")

#: A plain-text rulebook is tens of kilobytes; anything this big is the wrong file.
MAX_RULEBOOK_BYTES = 2_000_000
#: Questions longer than this are read only up to here (the search reads no further either).
MAX_QUESTION_CHARS = MAX_QUERY_CHARS
RELATED = 2
#: Sections offered when the search isn't sure which one answers.
CHOICES = 3
#: A related section must score at least this share of the best one, or it is noise.
RELATED_MIN_SHARE = 0.2
#: How long a cached index is trusted before the stored fingerprint is read again.
RECHECK_SECONDS = 5.0
#: Parts (or sections) listed to browse when a question is empty or matches nothing.
BROWSE = 12
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")

NO_RULEBOOK = (
    "No rulebook has been imported for this league yet, so there's nothing to look up. "
    "This league's settings live in the bot's config file: a commissioner can ask the bot's operator "
    "to add the league's rulebook there."
)
#: What marks a cached index as a preset's rulebook as shipped, not an import.
_PRESET_MARK = "preset:"


class NoRulebook(NotFound):
    """The league has no imported rulebook."""

    def __init__(self) -> None:
        super().__init__(NO_RULEBOOK)


class UnreadableRulebook(InvalidInput):
    """A rulebook file that is empty, not UTF-8 text, or otherwise not importable."""


@dataclass(frozen=True)
class RulebookImport:
    league_id: int
    source: str
    fingerprint: str
    sections: int
    replaced: int  # sections the import replaced (0 on a first import)
    imported_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "fingerprint": self.fingerprint, "sections": self.sections,
                "replaced": self.replaced, "imported_at": self.imported_at.isoformat()}


SyncStatus = Literal["imported", "unchanged", "missing", "unreadable", "failed"]


@dataclass(frozen=True)
class RulebookSync:
    """What start-up did with one league's configured rulebook file."""

    league_key: str
    path: Path
    status: SyncStatus
    detail: str = ""
    result: RulebookImport | None = None


def decode_rulebook(data: bytes, source: str) -> str:
    """The file's text, or a clear refusal: too big, not UTF-8, binary, or empty."""
    if len(data) > MAX_RULEBOOK_BYTES:
        raise UnreadableRulebook(f"{source} is {len(data):,} bytes; a rulebook is plain text well under "
                                 f"{MAX_RULEBOOK_BYTES // 1_000_000} MB. Is it the right file?")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableRulebook(f"{source} is not UTF-8 text (byte {exc.start}); save it as UTF-8 "
                                 "plain text or Markdown and try again.") from None
    if "\x00" in text:
        raise UnreadableRulebook(f"{source} contains NUL bytes, so it is not a text file; "
                                 "export the rulebook as plain text.")
    if not text.lstrip("\ufeff").strip():
        raise UnreadableRulebook(f"{source} is empty; there are no rules in it.")
    return text


def _section_of(row: RuleSection) -> Section:
    return Section(
        citation=row.citation, title=row.title, text=row.text,
        lines=tuple(row.lines.split("\n")) if row.lines else (),
        line_numbers=tuple(row.line_numbers or ()), ordinal=row.ordinal,
        kind=row.kind,
        parent=row.parent,
    )


def _row_of(league_id: int, section: Section) -> RuleSection:
    return RuleSection(
        league_id=league_id, ordinal=section.ordinal, citation=section.citation, title=section.title,
        text=section.text, kind=section.kind, parent=section.parent, lines="\n".join(section.lines),
        line_numbers=list(section.line_numbers),
    )


def _lexicon(preset: str | None) -> Lexicon:
    """The preset's players' words (every sport's for a league of no known preset)."""
    from bot.league.rulebooks.lexicon import lexicon_for  # the search and its stemmer load when first used

    return lexicon_for(preset if preset in PRESET_NAMES else None)


def _build_index(sections: Sequence[Section], preset: str | None) -> RuleIndex:
    from bot.league.rulebooks.search import RuleIndex  # the search (2 MB with its stemmer) loads when first used

    return RuleIndex.build(sections, _lexicon(preset))


def _parse_and_index(text: str, preset: str | None) -> tuple[list[Section], RuleIndex]:
    sections = parse_rulebook(text)
    return sections, _build_index(sections, preset)


@cache
def _preset_fingerprints() -> dict[str, str]:
    """Each shipped rulebook's fingerprint -> its preset: a league reading one (as shipped, or imported
    word for word) gets the numbers its preset's vocabulary names per section."""
    found = {}
    for name in PRESET_NAMES:
        data = preset_rulebook(name)
        if data is not None:
            found[rulebook_fingerprint(data.decode("utf-8"))] = name
    return found


@dataclass(frozen=True)
class _LeagueWords:
    """A league's own words and linked questions, over the index they were read for."""

    index: RuleIndex
    lexicon: Lexicon
    links: tuple[Link, ...]
    checked: float


@cache
def preset_index(preset: str) -> tuple[str, RuleIndex] | None:
    """The preset's shipped rulebook, parsed and indexed once per process: (fingerprint, index)."""
    data = preset_rulebook(preset)
    if data is None:
        return None
    text = data.decode("utf-8")
    return _PRESET_MARK + rulebook_fingerprint(text), _build_index(parse_rulebook(text), preset)


#: Called inside an import's (or a reset's) transaction, e.g. to write the audit row with it.
AlsoInTransaction = Callable[[AsyncSession], None]


@retried_on_disconnect
class RulesLookupService:
    """Rulebook imports and lookups; one instance per process keeps the per-league indexes."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock
        self._indexes: dict[int, tuple[str, RuleIndex]] = {}  # league id -> (fingerprint, index)
        # Leagues that imported the same rulebook under the same preset read one index, kept while any does.
        self._shared: weakref.WeakValueDictionary[tuple[str, str | None], RuleIndex] = weakref.WeakValueDictionary()
        self._checked: dict[int, float] = {}  # league id -> time.monotonic() of the last fingerprint read
        self._locks: dict[int, asyncio.Lock] = {}
        self._words: dict[int, _LeagueWords] = {}
        self.recheck_seconds = RECHECK_SECONDS

    # --- import ------------------------------------------------------------------------------

    async def import_rulebook(self, league_id: int, data: bytes, source: str, *, uploaded_by: int | None = None,
                              also: AlsoInTransaction | None = None) -> RulebookImport:
        """Replace the league's sections with the file's, in one transaction; a bad file changes nothing.
        ``uploaded_by``: the member who uploaded it in Discord (else it came from a file)."""
        text = decode_rulebook(data, source)
        async with self.sessions() as session:
            preset = await session.scalar(select(League.preset).where(League.id == league_id))
        sections, index = await asyncio.to_thread(_parse_and_index, text, preset)
        if not sections:
            raise UnreadableRulebook(f"{source} has no rules in it; nothing was imported.")
        seen: set[str] = set()
        for section in sections:
            if section.citation in seen:  # the parser numbers repeats, so this is a parser bug
                raise UnreadableRulebook(f"{source}: two sections are both cited as {section.citation!r} "
                                         f"(line {section.line_numbers[0] if section.line_numbers else '?'}).")
            seen.add(section.citation)
        fingerprint = rulebook_fingerprint(text)
        index = self._shared.setdefault((fingerprint, preset), index)
        now = self.clock.now()
        async with self._lock(league_id), self.sessions.begin() as session:
            # Lock the league row so two imports for one league run one after the other (PostgreSQL;
            # SQLite already serialises writers with BEGIN IMMEDIATE).
            league = await session.scalar(select(League.id).where(League.id == league_id).with_for_update())
            if league is None:
                raise NotFound(f"No league with id {league_id} in the database.")
            replaced = await session.scalar(
                select(func.count()).select_from(RuleSection).where(RuleSection.league_id == league_id)) or 0
            await session.execute(delete(RuleSection).where(RuleSection.league_id == league_id))
            book = await session.scalar(select(Rulebook).where(Rulebook.league_id == league_id))
            if book is None:
                book = Rulebook(league_id=league_id)
                session.add(book)
            book.source, book.fingerprint = source, fingerprint
            book.section_count, book.imported_at = len(sections), now
            book.origin, book.imported_by = ("upload" if uploaded_by is not None else "file"), uploaded_by
            session.add_all(_row_of(league_id, s) for s in sections)
            if also is not None:
                also(session)
            self._indexes.pop(league_id, None)
            self._checked.pop(league_id, None)
        self._indexes[league_id] = (fingerprint, index)
        self._checked[league_id] = time.monotonic()
        log.info("imported rulebook %s for league %s: %d sections (fingerprint %s)",
                 source, league_id, len(sections), fingerprint[:12])
        return RulebookImport(league_id, source, fingerprint, len(sections), replaced, now)

    async def import_file(self, league_id: int, path: Path) -> RulebookImport:
        try:
            data = await asyncio.to_thread(path.read_bytes)
        except OSError as exc:
            raise UnreadableRulebook(f"can't read {path}: {exc.strerror or exc}.") from None
        return await self.import_rulebook(league_id, data, str(path))

    async def forget(self, league_id: int, also: AlsoInTransaction | None = None) -> int:
        """Drop the league's imported rulebook (a league set up in Discord goes back to its preset's);
        returns how many sections were dropped."""
        async with self._lock(league_id), self.sessions.begin() as session:
            dropped = await session.scalar(
                select(func.count()).select_from(RuleSection).where(RuleSection.league_id == league_id)) or 0
            await session.execute(delete(RuleSection).where(RuleSection.league_id == league_id))
            await session.execute(delete(Rulebook).where(Rulebook.league_id == league_id))
            if also is not None:
                also(session)
            self._indexes.pop(league_id, None)
            self._checked.pop(league_id, None)
        return dropped

    async def stored(self, league_id: int) -> Rulebook | None:
        """The league's imported rulebook (where from, by whom, when), or None: nothing imported."""
        async with self.sessions() as session:
            return await session.scalar(select(Rulebook).where(Rulebook.league_id == league_id))

    async def stored_fingerprint(self, league_id: int) -> str | None:
        async with self.sessions() as session:
            return await session.scalar(select(Rulebook.fingerprint).where(Rulebook.league_id == league_id))

    async def sync_configured(self, leagues: Iterable[tuple[LeagueSettings, int]]) -> list[RulebookSync]:
        """At start: re-import each configured rulebook whose file changed. Problems are logged, never raised."""
        report: list[RulebookSync] = []
        for league, league_id in leagues:
            if league.rulebook is None:
                continue
            path = league.rulebook
            try:
                outcome = await self._sync_one(league, league_id, path)
            except Exception:  # a broken rulebook must not keep the league's bot from starting
                log.exception("league %s: importing the rulebook %s failed", league.key, path)
                outcome = RulebookSync(league.key, path, "failed", "unexpected error; see the log")
            report.append(outcome)
        return report

    async def _sync_one(self, league: LeagueSettings, league_id: int, path: Path) -> RulebookSync:
        try:
            data = await asyncio.to_thread(path.read_bytes)
        except FileNotFoundError:
            log.warning("league %s: rulebook file %s not found; /rule keeps the last import (if any)",
                        league.key, path)
            return RulebookSync(league.key, path, "missing", "file not found")
        except OSError as exc:
            log.warning("league %s: can't read rulebook %s: %s", league.key, path, exc)
            return RulebookSync(league.key, path, "unreadable", str(exc))
        try:
            text = decode_rulebook(data, str(path))
        except UnreadableRulebook as exc:
            log.warning("league %s: rulebook not imported: %s", league.key, exc.message)
            return RulebookSync(league.key, path, "unreadable", exc.message)
        if rulebook_fingerprint(text) == await self.stored_fingerprint(league_id):
            return RulebookSync(league.key, path, "unchanged")
        try:
            result = await self.import_rulebook(league_id, data, str(path))
        except UnreadableRulebook as exc:
            log.warning("league %s: rulebook not imported: %s", league.key, exc.message)
            return RulebookSync(league.key, path, "unreadable", exc.message)
        return RulebookSync(league.key, path, "imported", f"{result.sections} sections", result)

    # --- the index -----------------------------------------------------------------------------

    def _lock(self, league_id: int) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    def _fresh(self, league_id: int) -> bool:
        checked = self._checked.get(league_id)
        return checked is not None and time.monotonic() - checked < self.recheck_seconds

    async def index(self, league_id: int) -> RuleIndex | None:
        """The league's index, rebuilt only when the stored fingerprint changed; None if nothing imported."""
        if self._fresh(league_id):
            cached = self._indexes.get(league_id)
            return cached[1] if cached else None
        async with self._lock(league_id):
            async with self.sessions() as session:
                stored = (await session.execute(
                    select(Rulebook.fingerprint, League.preset).join(League, League.id == Rulebook.league_id)
                    .where(Rulebook.league_id == league_id))).first()
                if stored is None:
                    return await self._preset_fallback(session, league_id)
                fingerprint, preset = stored
                cached = self._indexes.get(league_id)
                if cached is not None and cached[0] == fingerprint:
                    self._checked[league_id] = time.monotonic()
                    return cached[1]
                index = self._shared.get((fingerprint, preset))
                if index is None:
                    rows = (await session.scalars(
                        select(RuleSection).where(RuleSection.league_id == league_id).order_by(RuleSection.ordinal)
                    )).all()
                    sections = [_section_of(r) for r in rows]
            # If an import committed between the two reads, the next lookup sees a new fingerprint
            # and rebuilds: the cache never keeps stale sections for long.
            if index is None:
                index = await asyncio.to_thread(_build_index, sections, preset)
                index = self._shared.setdefault((fingerprint, preset), index)
            self._indexes[league_id] = (fingerprint, index)
            self._checked[league_id] = time.monotonic()
            return index

    async def _preset_fallback(self, session: AsyncSession, league_id: int) -> RuleIndex | None:
        """Nothing imported: a league set up in Discord reads its preset's rulebook; one from the file, none."""
        preset = await session.scalar(select(League.preset).join(LeagueSetup, LeagueSetup.league_id == League.id)
                                      .where(League.id == league_id))
        found = await asyncio.to_thread(preset_index, preset) if preset else None
        if found is None:
            self._indexes.pop(league_id, None)
        else:
            self._indexes[league_id] = found
        self._checked[league_id] = time.monotonic()
        return found[1] if found else None

    async def _require_index(self, league_id: int) -> RuleIndex:
        index = await self.index(league_id)
        if index is None:
            raise NoRulebook()
        return index

    # --- lookups -------------------------------------------------------------------------------

    async def ask(self, league_id: int, question: str, rules: Rules | None = None) -> RuleAnswer:
        """The section that best answers a casual question and up to two related ones; or, when the
        search isn't sure, the closest three to choose from. ``rules``: the league's, for its numbers."""
        index, lexicon, links = await self._league_view(league_id)
        read = " ".join(printable(question).split())  # "shoot\x00ers" reads as "shooters"
        clipped = len(read) > MAX_QUESTION_CHARS
        read = read[:MAX_QUESTION_CHARS]
        if not read:
            return RuleAnswer(league_id, "", None, contents=self._browse(index))
        found = index.find(read, limit=CHOICES, lexicon=lexicon, links=links)
        confidence = found.confidence
        hits = found.hits
        names = list(found.facts)
        if confidence == "sure" and hits:
            names += self._section_facts(league_id, index).get(hits[0].section.citation, ())
        facts = fact_lines(rules, names) if rules is not None else ()
        if confidence == "none":
            return RuleAnswer(league_id, read, None, contents=self._browse(index), clipped=clipped,
                              confidence="none", facts=facts)
        best = hits[0]
        cited = tuple(CitedSection.of(h.section, h.score) for h in hits)
        if confidence == "unsure":
            return RuleAnswer(league_id, read, cited[0], clipped=clipped, confidence="unsure", choices=cited,
                              facts=facts)
        related = tuple(c for c in cited[1:1 + RELATED] if c.score >= RELATED_MIN_SHARE * best.score)
        return RuleAnswer(league_id, read, cited[0], related, clipped=clipped, exact=found.exact, facts=facts,
                          linked=found.linked)

    def _section_facts(self, league_id: int, index: RuleIndex) -> Mapping[str, tuple[str, ...]]:
        """The league's numbers its preset names per section, when it reads that preset's rulebook."""
        fingerprint = self._indexes.get(league_id, ("", index))[0].removeprefix(_PRESET_MARK)
        preset = _preset_fingerprints().get(fingerprint)
        return _lexicon(preset).vocabulary.facts if preset is not None else {}

    async def _league_view(self, league_id: int) -> tuple[RuleIndex, Lexicon, tuple[Link, ...]]:
        """The league's index, with its own words and linked questions (read again every few seconds)."""
        index = await self._require_index(league_id)
        known = self._words.get(league_id)
        if known is not None and known.index is index and time.monotonic() - known.checked < self.recheck_seconds:
            return index, known.lexicon, known.links
        async with self.sessions() as session:
            words = (await session.execute(select(RuleWord.word, RuleWord.means)
                                           .where(RuleWord.league_id == league_id).order_by(RuleWord.id))).all()
            linked = (await session.execute(select(RuleLink.question, RuleLink.citation)
                                            .where(RuleLink.league_id == league_id).order_by(RuleLink.id))).all()
        from bot.league.rulebooks.found import Link  # loaded with the index

        lexicon = index.lexicon.with_words([(word, means) for word, means in words])
        links = tuple(Link(index.signature(question, lexicon), citation) for question, citation in linked)
        if words or links:
            self._words[league_id] = _LeagueWords(index, lexicon, links, time.monotonic())
        else:  # nothing of its own: no copy kept, only when it was last looked at
            self._words[league_id] = _LeagueWords(index, index.lexicon, (), time.monotonic())
        return index, lexicon, links

    def words_changed(self, league_id: int) -> None:
        """The league's words or links changed in this process: read them again at the next question."""
        self._words.pop(league_id, None)

    async def section(self, league_id: int, citation: str) -> RuleAnswer:
        """Exactly the section with this citation (a heading lists its sections)."""
        index = await self._require_index(league_id)
        citation = printable(citation)
        found = index.get(citation.strip()) if citation.strip() else None
        if found is None:
            shown = quote(citation, 80) or "(empty)"
            raise NotFound(f"There's no section “{shown}” in this league's rulebook. Start typing and pick "
                           "one from the suggestions, or ask in your own words with /rule.")
        contents: tuple[CitedSection, ...] = ()
        if found.kind == "heading":
            contents = tuple(CitedSection.of(s) for s in index.sections
                             if s.parent == found.citation and s is not found)
        return RuleAnswer(league_id, citation.strip()[:MAX_QUESTION_CHARS], CitedSection.of(found),
                          contents=contents, exact=True)

    async def suggest(self, league_id: int, typed: str, limit: int = 25) -> list[CitedSection]:
        """Sections for an autocomplete box; the first sections when nothing is typed yet."""
        index = await self.index(league_id)
        if index is None:
            return []
        return [CitedSection.of(s) for s in index.suggest(printable(typed)[:MAX_QUESTION_CHARS], limit=limit)]

    async def search(self, league_id: int, query: str, limit: int = 5) -> list[CitedSection]:
        """The top sections for a query, best first (the CLI's `rules search`)."""
        index = await self._require_index(league_id)
        hits = index.search(printable(query)[:MAX_QUESTION_CHARS], limit=limit)
        return [CitedSection.of(h.section, h.score) for h in hits]

    @staticmethod
    def _browse(index: RuleIndex) -> tuple[CitedSection, ...]:
        parts = [s for s in index.sections if s.kind == "heading" and not s.parent]
        if len(parts) < 2:
            parts = index.suggest("", limit=BROWSE)
        return tuple(CitedSection.of(s) for s in parts[:BROWSE])
