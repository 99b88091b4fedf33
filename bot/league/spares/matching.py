"""Which spares may be offered a spot, in which wave, and where one plays once they accept."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from bot.league.spares.needs import Need

Position = Literal["skater", "goalie"]

#: Two games whose starts are closer than this overlap: a spare can't play both.
BUSY_WINDOW = timedelta(hours=2)

WEEKDAYS: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class SpareCandidate:
    """A spare in the pool, as the matching sees them for one game."""

    player_id: int
    positions: frozenset[str]
    counts_toward_women_nonbinary: bool
    # Days they said they are usually free (0 = Monday); empty = any day (what /spare join means by no days).
    free_days: frozenset[int] = frozenset()
    busy: bool = False  # a game of their own (or one they fill in for) at that time
    suspended: bool = False
    on_either_team: bool = False


def overlaps(a: datetime, b: datetime) -> bool:
    return abs(a - b) < BUSY_WINDOW


def eligible(candidate: SpareCandidate) -> bool:
    """May play at all: free then, not suspended, not on either team."""
    return not (candidate.busy or candidate.suspended or candidate.on_either_team)


def role_for(need: Need, candidate: SpareCandidate) -> Position | None:
    """Where the spare plays if they take a spot now (None: they fill nothing that is missing).

    The scarce spots first: a woman/non-binary skater where that is missing, then a goalie, then
    any skater."""
    if not eligible(candidate) or need.met:
        return None
    skates = "skater" in candidate.positions
    if need.women_nonbinary and skates and candidate.counts_toward_women_nonbinary:
        return "skater"
    if need.goalie and "goalie" in candidate.positions:
        return "goalie"
    if need.skaters and skates:
        return "skater"
    return None


def fits(need: Need, candidate: SpareCandidate) -> bool:
    return role_for(need, candidate) is not None


def fills_scarce(need: Need, candidate: SpareCandidate) -> bool:
    """Fills the category or the goalie spot (what only some spares can fill), when that is missing."""
    skates = "skater" in candidate.positions
    return bool((need.women_nonbinary and skates and candidate.counts_toward_women_nonbinary)
                or (need.goalie and "goalie" in candidate.positions))


def free_on(candidate: SpareCandidate, weekday: int) -> bool:
    """Free that day by their own word: a spare who named no days is free every day."""
    return not candidate.free_days or weekday in candidate.free_days


def best_match(need: Need, candidate: SpareCandidate, weekday: int) -> bool:
    """A first-wave spare: free that day by their own word, and filling the scarce spot if one is missing."""
    if not fits(need, candidate) or not free_on(candidate, weekday):
        return False
    scarce = need.women_nonbinary > 0 or need.goalie
    return fills_scarce(need, candidate) if scarce else True


@dataclass(frozen=True)
class Waves:
    """Who is offered a spot now and who after the delay; ``best`` says the first wave are best matches."""

    now: tuple[int, ...]
    later: tuple[int, ...]
    best: bool


def offer_waves(need: Need, candidates: Iterable[SpareCandidate], weekday: int) -> Waves:
    """Player ids to offer first (best matches) and then, after a delay, the rest who fit.

    With no best match the rest are the first wave: nobody waits the delay with no one asked."""
    first: list[int] = []
    wider: list[int] = []
    for candidate in candidates:
        if best_match(need, candidate, weekday):
            first.append(candidate.player_id)
        elif fits(need, candidate):
            wider.append(candidate.player_id)
    if not first:
        return Waves(tuple(wider), (), best=False)
    return Waves(tuple(first), tuple(wider), best=True)


def parse_days(text: str | None) -> frozenset[int]:
    """"mon, wed sat" or "any" -> weekday numbers; raises ValueError naming the word it can't read."""
    words = [w for w in (text or "").replace(",", " ").lower().split() if w]
    if not words or words == ["any"]:
        return frozenset()
    days: set[int] = set()
    for word in words:
        key = word[:3]
        if len(word) < 2 or key not in WEEKDAYS or not _full_name(key).startswith(word):
            raise ValueError(word)
        days.add(WEEKDAYS.index(key))
    return frozenset(days)


def _full_name(key: str) -> str:
    return {"mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
            "sat": "saturday", "sun": "sunday"}[key]


def days_text(days: Iterable[int]) -> str:
    chosen = sorted(set(days))
    return ", ".join(WEEKDAYS[d].title() for d in chosen) if chosen else "any day"
