"""What a referee can call: an infraction, its category and costs, and finding one by key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

Category = Literal[
    "warning",
    "faceoff_ejection",
    "bench_minor",
    "minor",
    "double_minor",
    "major",
    "misconduct_10",
    "misconduct_5",
    "game_misconduct",
    "severe",
    "extreme",
    "yellow_card",
]
CATEGORIES: tuple[str, ...] = get_args(Category)


class DisciplineError(ValueError):
    """A discipline request the rules refuse; the message is polite and safe to show."""

    def __init__(self, message: str, *, citation: str = "", valid: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.citation = citation
        self.valid = tuple(valid)



@dataclass(frozen=True)
class Infraction:
    """One thing a referee can call, with what it costs in the rulebook."""

    key: str
    name: str
    category: Category
    # Penalty minutes (the time served off the court); 0 for warnings and ejections.
    minutes: int
    citation: str
    # The player leaves the game for good.
    ejection: bool = False
    # Games of suspension (fewest, most); fewest == most means automatic. None = none stated.
    suspension_games: tuple[int, int] | None = None
    # A repeat by the same player in the same game is called as this infraction instead.
    repeat_becomes: str | None = None

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"infraction {self.key!r}: unknown category {self.category!r}")
        if self.minutes < 0:
            raise ValueError(f"infraction {self.key!r}: minutes must not be negative")
        if self.suspension_games is not None:
            low, high = self.suspension_games
            if not 0 < low <= high:
                raise ValueError(f"infraction {self.key!r}: bad suspension range {low}-{high}")


def _normalise_key(text: str) -> str:
    return "_".join(text.strip().casefold().replace("-", " ").split())


def find_infraction(catalogue: Sequence[Infraction], infraction_key: str) -> Infraction:
    """The catalogue entry for a key (case, spaces and dashes forgiven)."""
    wanted = _normalise_key(infraction_key)
    for infraction in catalogue:
        if infraction.key == wanted:
            return infraction
    valid = [i.key for i in catalogue]
    raise DisciplineError(
        f"Unknown infraction {infraction_key!r}. Valid infractions: {', '.join(valid)}.",
        valid=valid,
    )
