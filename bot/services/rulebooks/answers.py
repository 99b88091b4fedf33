"""What /rule shows: a rulebook section as users see it, and an answer to a question (the best
section, the closest few when the search isn't sure, or sections to browse when nothing matched)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.league.rulebooks.rulebook import Section

if TYPE_CHECKING:
    from bot.league.rulebooks.found import Confidence

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")


@dataclass(frozen=True)
class CitedSection:
    """One rulebook section as users see it; `score` is the search score (0 for lookups)."""

    citation: str
    title: str
    text: str
    kind: str
    parent: str = ""
    score: float = 0.0

    @property
    def label(self) -> str:
        """'2.7 Offsides'; just 'GOALIE SAFETY 3' when the title only repeats the heading."""
        title = self.title.strip()
        bare = _PARENTHETICAL.sub("", title).strip()  # "Overtime (OT)" under the heading "Overtime"
        if not bare or bare.casefold() in self.citation.casefold():
            return self.citation
        return f"{self.citation} {title}"

    @property
    def caption(self) -> str:
        """The label, plus the first words of the text when the label alone says nothing
        ("Overtime 1 · If the game is tied at the end…"): for suggestions and buttons."""
        label = self.label
        if label != self.citation or self.kind not in ("bullet", "paragraph", "preamble"):
            return label
        words = " ".join(self.text.split())
        return f"{label} · {words}" if words else label

    @property
    def heading_only(self) -> bool:
        """A heading whose content lives in the sections under it."""
        return self.kind == "heading" and "\n" not in self.text

    def as_dict(self) -> dict[str, Any]:
        """The CLI's `--json` shape."""
        return {"citation": self.citation, "title": self.title, "text": self.text, "score": self.score}

    @classmethod
    def of(cls, section: Section, score: float = 0.0) -> CitedSection:
        return cls(section.citation, section.title, section.text, section.kind, section.parent, score)


@dataclass(frozen=True)
class RuleAnswer:
    """What `/rule` (or a lookup by citation) found.

    ``best`` is None when the question was empty or nothing matched; then ``contents`` lists
    sections to browse (the rulebook's parts when it has headings). For a heading looked up by
    citation, ``contents`` are its sections. ``exact`` marks a lookup by citation, not a question.
    ``confidence`` "unsure": ``choices`` are the closest sections, none of them sure. ``facts`` are the
    league's own numbers on what was asked (bot/league/rulebooks/facts.py).
    """

    league_id: int
    question: str  # as read: stripped and cut to MAX_QUESTION_CHARS
    best: CitedSection | None
    related: tuple[CitedSection, ...] = ()
    contents: tuple[CitedSection, ...] = ()
    clipped: bool = False  # the question was longer than MAX_QUESTION_CHARS
    exact: bool = False
    confidence: Confidence = "sure"
    choices: tuple[CitedSection, ...] = ()
    facts: tuple[str, ...] = ()
    linked: bool = False  # a commissioner linked a question like this one to ``best``

    @property
    def empty_question(self) -> bool:
        return not self.question

    @property
    def cited(self) -> tuple[str, ...]:
        """The citations the answer showed: the section, or the choices offered."""
        if self.confidence == "unsure":
            return tuple(c.citation for c in self.choices)
        return (self.best.citation,) if self.best is not None else ()
