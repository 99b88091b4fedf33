"""What players asked that /rule couldn't answer, and what a league's commissioners do about it.

Every /rule question is kept with how sure its answer was. Under an answer, "Helped" and "Not what I
asked" are recorded once per person. Commissioners list the questions the bot was unsure of, found
nothing for, or that someone marked not what they asked (/rulebook unanswered, and weekly in the admin
channel: digest.py); they link one to the section that answers it, and questions like it find that
section first in their league from then on. Who asked is shown only where the league turned it on.
A league's own words ("biscuit" means "ball") are kept here too: /rule reads them beside its preset's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clean_user_text, clip
from bot.errors import InvalidInput, NotFound
from bot.services.rulebooks.answers import CitedSection, RuleAnswer
from bot.services.rulebooks.digest import ensure_digest
from bot.services.rulebooks.lookup import RulesLookupService
from bot.services.rulebooks.questions import AskedQuestion, unanswered_questions
from storage.db import retried_on_disconnect, rowcount, upsert_insert
from storage.models import RuleFeedback, RuleFeedbackSettings, RuleLink, RuleQuestion, RuleWord
from storage.text import printable

#: A league's own word, and what it means, are short: a word or a few.
MAX_WORD = 40
MAX_LEAGUE_WORDS = 200
#: Questions listed by /rulebook unanswered (the newest; the count says how many in all).
UNANSWERED_SHOWN = 15
_WORD = re.compile(r"[a-z0-9][a-z0-9 '’-]*")
_REF = re.compile(r"#?\s*(\d{1,12})")

Outcome = Literal["sure", "unsure", "none"]
Press = Literal["recorded", "already"]


@dataclass(frozen=True)
class Unanswered:
    questions: tuple[AskedQuestion, ...]
    total: int
    show_askers: bool


@dataclass(frozen=True)
class Linked:
    question: str
    section: CitedSection
    replaced: str | None  # the section the same question was linked to before


def _word(text: str, what: str) -> str:
    """A league word as stored: lower case, single spaces; a clear refusal otherwise."""
    word = " ".join(text.casefold().replace("’", "'").split())
    shown = clean_user_text(text, MAX_WORD) or "(empty)"
    if not word or len(word) > MAX_WORD or not _WORD.fullmatch(word):
        raise InvalidInput(f"“{shown}” can't be {what}: use letters, numbers, spaces, hyphens or apostrophes, "
                           f"at most {MAX_WORD} characters. Nothing changed.")
    from bot.league.rulebooks.lexicon import STOPWORDS, words  # the stemmer loads at the first use of /rule

    if all(w in STOPWORDS for w in words(word)):
        raise InvalidInput(f"“{shown}” is too common a word to stand for anything in the rulebook. Nothing changed.")
    return word


def question_ref(text: str) -> int:
    """The question a commissioner picked (the suggestions fill in its number, "#12")."""
    found = _REF.fullmatch(text.strip())
    if found is None:
        raise InvalidInput("Pick the question from the suggestions as you type (they show its number, e.g. #12). "
                           "Nothing changed.")
    return int(found[1])


@retried_on_disconnect
class RuleFeedbackService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 rules: RulesLookupService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.rules = rules

    # --- players ------------------------------------------------------------------------------

    async def record(self, caller: Caller, answer: RuleAnswer) -> int | None:
        """Keep a question asked with /rule (not a citation looked up, nor an empty one); its id, for the
        answer's feedback buttons."""
        if answer.exact or answer.empty_question:
            return None
        now = self.clock.now()
        async with self.sessions.begin() as session:
            row = RuleQuestion(league_id=caller.league_id, question=answer.question, asked_by=caller.discord_id,
                               asked_at=now, outcome=answer.confidence, cited=list(answer.cited))
            session.add(row)
            await session.flush()
            if answer.confidence != "sure":
                await ensure_digest(session, caller.league, caller.league_id, now)
            return row.id

    async def press(self, caller: Caller, question_id: int, helped: bool) -> Press:
        """A press of "Helped" or "Not what I asked": the first per person counts, later ones don't."""
        async with self.sessions.begin() as session:
            asked = await session.scalar(select(RuleQuestion.id).where(
                RuleQuestion.id == question_id, RuleQuestion.league_id == caller.league_id))
            if asked is None:
                raise NotFound("That answer is no longer on record here. Ask again with /rule.")
            result = await session.execute(upsert_insert(session)(RuleFeedback).values(
                league_id=caller.league_id, question_id=question_id, member_id=caller.discord_id, helped=helped,
                at=self.clock.now()).on_conflict_do_nothing(index_elements=["question_id", "member_id"]))
            if not rowcount(result):
                return "already"
            if not helped:
                await ensure_digest(session, caller.league, caller.league_id, self.clock.now())
        return "recorded"

    # --- commissioners: the questions ------------------------------------------------------------

    async def show_askers(self, session: AsyncSession, league_id: int) -> bool:
        return bool(await session.scalar(select(RuleFeedbackSettings.show_askers)
                                         .where(RuleFeedbackSettings.league_id == league_id)))

    async def unanswered(self, caller: Caller, limit: int = UNANSWERED_SHOWN) -> Unanswered:
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            found, total = await unanswered_questions(session, caller.league_id, limit=limit)
            show = await self.show_askers(session, caller.league_id)
        if not show:
            found = [AskedQuestion(q.id, q.question, q.asked_at, q.outcome, q.cited, q.not_helped, q.helped)
                     for q in found]
        return Unanswered(tuple(found), total, show)

    async def question_choices(self, caller: Caller, typed: str) -> list[tuple[str, str]]:
        """Unanswered questions for an autocomplete box, newest first: (label, id). Commissioners only."""
        if not caller.is_commissioner:
            return []
        async with self.sessions() as session:
            found, _ = await unanswered_questions(session, caller.league_id, limit=25,
                                                  matching=printable(typed).strip())
        return [(clip(f"#{q.id} {q.question}", 100), str(q.id)) for q in found]

    async def _question(self, session: AsyncSession, caller: Caller, ref: str) -> RuleQuestion:
        row = await session.scalar(select(RuleQuestion).where(
            RuleQuestion.id == question_ref(ref), RuleQuestion.league_id == caller.league_id))
        if row is None:
            raise NotFound("There's no such question in this league's list. Pick one from the suggestions as you "
                           "type. Nothing changed.")
        return row

    async def link(self, caller: Caller, ref: str, citation: str) -> Linked:
        """Link a question to the section that answers it: this league's search finds that section first
        for questions like it, and the question leaves the unanswered list."""
        caller.require(Role.COMMISSIONER)
        index = await self.rules.index(caller.league_id)
        section = index.get(citation.strip()) if index is not None else None
        if section is None:
            shown = clean_user_text(citation, 80) or "(empty)"
            raise NotFound(f"There's no section “{shown}” in this league's rulebook. Pick one from the suggestions "
                           "as you type. Nothing changed.")
        if section.heading_only:
            raise InvalidInput(f"{section.citation} is a part of the rulebook, not a rule: pick one of the sections "
                               "under it. Nothing changed.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            question = await self._question(session, caller, ref)
            text = question.question
            link = await session.scalar(select(RuleLink).where(RuleLink.league_id == caller.league_id,
                                                               RuleLink.question == text))
            replaced = link.citation if link is not None and link.citation != section.citation else None
            if link is None:
                session.add(RuleLink(league_id=caller.league_id, question=text, citation=section.citation,
                                     linked_by=caller.discord_id, linked_at=now))
            else:
                link.citation, link.linked_by, link.linked_at = section.citation, caller.discord_id, now
            await self._resolve(session, caller, text, now)
        self.rules.words_changed(caller.league_id)
        return Linked(text, CitedSection.of(section), replaced)

    async def dismiss(self, caller: Caller, ref: str) -> str:
        """Take a question off the unanswered list without linking it (not a rules question)."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            question = await self._question(session, caller, ref)
            await self._resolve(session, caller, question.question, self.clock.now())
            return question.question

    async def _resolve(self, session: AsyncSession, caller: Caller, text: str, now: datetime) -> None:
        """The question, and the same question asked again, leave the list."""
        await session.execute(update(RuleQuestion).where(
            RuleQuestion.league_id == caller.league_id, RuleQuestion.resolved_at.is_(None),
            func.lower(RuleQuestion.question) == text.lower()).values(resolved_at=now, resolved_by=caller.discord_id))

    async def set_show_askers(self, caller: Caller, show: bool) -> bool:
        """Whether commissioners see who asked each question (off until a commissioner turns it on)."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            row = await session.scalar(select(RuleFeedbackSettings)
                                       .where(RuleFeedbackSettings.league_id == caller.league_id))
            before = bool(row and row.show_askers)
            if row is None:
                session.add(RuleFeedbackSettings(league_id=caller.league_id, show_askers=show,
                                                 changed_by=caller.discord_id, changed_at=self.clock.now()))
            else:
                row.show_askers, row.changed_by, row.changed_at = show, caller.discord_id, self.clock.now()
        return before != show

    # --- commissioners: the league's own words -------------------------------------------------------

    async def add_word(self, caller: Caller, word: str, means: str) -> tuple[str, str, str | None]:
        """The league's word and what it means; the meaning it had before, if any."""
        caller.require(Role.COMMISSIONER)
        said, meant = _word(word, "a word"), _word(means, "what a word means")
        if said == meant:
            raise InvalidInput(f"“{said}” can't mean itself: give the rulebook's word for it. Nothing changed.")
        async with self.sessions.begin() as session:
            row = await session.scalar(select(RuleWord).where(RuleWord.league_id == caller.league_id,
                                                              RuleWord.word == said))
            before = row.means if row is not None else None
            if row is None:
                count = await session.scalar(select(func.count()).select_from(RuleWord)
                                             .where(RuleWord.league_id == caller.league_id)) or 0
                if count >= MAX_LEAGUE_WORDS:
                    raise InvalidInput(f"This league has {MAX_LEAGUE_WORDS} words of its own already; remove one "
                                       "first. Nothing changed.")
                session.add(RuleWord(league_id=caller.league_id, word=said, means=meant,
                                     added_by=caller.discord_id, added_at=self.clock.now()))
            else:
                row.means, row.added_by, row.added_at = meant, caller.discord_id, self.clock.now()
        self.rules.words_changed(caller.league_id)
        return said, meant, before

    async def remove_word(self, caller: Caller, word: str) -> str:
        caller.require(Role.COMMISSIONER)
        said = " ".join(printable(word).casefold().replace("’", "'").split())
        async with self.sessions.begin() as session:
            result = await session.execute(delete(RuleWord).where(RuleWord.league_id == caller.league_id,
                                                                  RuleWord.word == said))
            if not rowcount(result):
                shown = clean_user_text(word, MAX_WORD) or "(empty)"
                raise NotFound(f"“{shown}” isn't one of this league's words (see them with /rulebook words list). "
                               "Nothing changed.")
        self.rules.words_changed(caller.league_id)
        return said

    async def league_words(self, caller: Caller) -> tuple[tuple[str, str], ...]:
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            rows = (await session.execute(select(RuleWord.word, RuleWord.means)
                                          .where(RuleWord.league_id == caller.league_id)
                                          .order_by(RuleWord.word))).all()
        return tuple((w, m) for w, m in rows)

    async def word_choices(self, caller: Caller, typed: str) -> list[str]:
        """The league's words starting with what is typed (commissioners only)."""
        if not caller.is_commissioner:
            return []
        needle = printable(typed).strip().casefold()
        return [w for w, _ in await self.league_words(caller) if w.startswith(needle)][:25]
