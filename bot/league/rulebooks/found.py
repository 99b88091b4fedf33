"""What a `/rule` search found and how sure it is of it (bot/league/rulebooks/search.py finds it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.league.rulebooks.rulebook import Section

# How sure an answer is (calibrated on the tuning questions, tests/league/rulebooks/tuning_questions.py):
#: the second section scores at least this share of the best one: too close to call;
CLOSE_MARGIN = 0.85
#: the best section has less than this share of what a section matching everything asked would score;
WEAK_STRENGTH = 0.5
#: a best score below this, with a weak best section, is no match at all (a stray word found somewhere; in a
#: rulebook of a few sections every word scores low, so a strong one there still counts).
NONE_BELOW = 0.7

Confidence = Literal["sure", "unsure", "none"]


@dataclass(frozen=True, slots=True)
class Hit:
    """A section that matches a query, with its relevance score (higher is better)."""

    section: Section
    score: float


@dataclass(frozen=True, slots=True)
class Link:
    """A question a commissioner linked to the section that answers it: a question like it finds that
    section first, in that league."""

    words: frozenset[str]  # RuleIndex.signature of the question
    citation: str


@dataclass(frozen=True)
class Found:
    """What a search found: the best sections, how sure the search is, and the league's numbers a
    situation in the question asked for (names of facts, bot/league/rulebooks/facts.py).

    ``strength`` is the best section's score against the score of a section that matched every
    concept of the question as well as any section did (1.0); ``margin`` the second's score against
    the best's. ``linked``: a commissioner linked a question like this one to the best section."""

    hits: tuple[Hit, ...]
    strength: float = 0.0
    margin: float = 0.0
    facts: tuple[str, ...] = ()
    linked: bool = False
    exact: bool = False  # the question was a citation

    @property
    def confidence(self) -> Confidence:
        """"sure" of the best section, "unsure" between the best few, or "none" matched."""
        if self.exact or self.linked:
            return "sure"
        if not self.hits or (self.hits[0].score < NONE_BELOW and self.strength < WEAK_STRENGTH):
            return "none"
        if self.strength < WEAK_STRENGTH or self.margin >= CLOSE_MARGIN:
            return "unsure"
        return "sure"
