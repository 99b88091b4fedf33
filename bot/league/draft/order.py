"""The draft lottery and the pick order (youth 1.7).

The lottery is reproducible from its recorded seed, by hand if need be: each team's key is the SHA-256 (hex)
of ``<seed>:<team name in lower case>``, and the draft order is the teams sorted by that key, smallest first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from bot.league.draft.presets import DraftOrder

T = TypeVar("T")


def lottery_key(seed: str, team: str) -> str:
    return hashlib.sha256(f"{seed}:{team.strip().casefold()}".encode()).hexdigest()


def lottery(seed: str, teams: Sequence[str]) -> list[str]:
    """The teams in draft order for this seed: the same seed always gives the same order."""
    if len({t.strip().casefold() for t in teams}) != len(teams):
        raise ValueError("team names must differ")
    return sorted(teams, key=lambda team: (lottery_key(seed, team), team))


@dataclass(frozen=True)
class Slot(Generic[T]):
    number: int  # 1, 2, ... over the whole draft
    round: int  # 1-based
    team: T


def pick_order(teams: Sequence[T], rounds: int, order: DraftOrder) -> list[Slot[T]]:
    """Every pick of the draft: the lottery order in odd rounds; in even rounds reversed for a snake."""
    slots: list[Slot[T]] = []
    for rnd in range(1, rounds + 1):
        this = list(reversed(teams)) if order == "snake" and rnd % 2 == 0 else list(teams)
        slots.extend(Slot(len(slots) + 1, rnd, team) for team in this)
    return slots


@dataclass(frozen=True)
class Progress(Generic[T]):
    on_the_clock: Slot[T] | None  # None: the draft is over
    over: bool
    why_over: str = ""  # "all picks made" | "no players left"


def progress(slots: Sequence[Slot[T]], picks_made: int, players_left: int) -> Progress[T]:
    """Who picks next after ``picks_made`` picks (skipped ones count). Fewer players than picks ends the draft
    cleanly once the last available player is taken: the remaining picks are not made."""
    if picks_made >= len(slots):
        return Progress(None, True, "all picks made")
    if players_left <= 0:
        return Progress(None, True, "no players left")
    return Progress(slots[picks_made], False)


def deadline(now: datetime, pick_seconds: int) -> datetime:
    """When the pick now on the clock runs out."""
    return now + timedelta(seconds=pick_seconds)


def clock_ran_out(now: datetime, due: datetime | None) -> bool:
    return due is not None and now >= due
