"""Each preset's draft settings (the order of rounds, the pick clock, rounds, who may be picked), cited."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DraftOrder = Literal["snake", "straight"]


@dataclass(frozen=True)
class DraftCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    order: str = ""
    paid: str = ""


@dataclass(frozen=True)
class DraftRules:
    """How a division's draft runs: the lottery order each round, the clock on each pick, who can be picked."""

    # "snake": the lottery order in odd rounds, reversed in even rounds; "straight": the lottery order every round.
    draft_order: DraftOrder = "snake"
    # Rounds a draft has unless the commissioner sets it up with another number.
    draft_rounds: int = 8
    # Seconds the team on the clock has for its pick unless the commissioner sets another number.
    draft_pick_seconds: int = 180
    # When the clock runs out the pick is skipped (the team loses it) and the next team is on the clock;
    # off: the clock is shown only and the draft waits.
    draft_auto_skip: bool = True
    # Only registrants whose fee is settled (paid, waived) can be picked.
    draft_paid_only: bool = False
    draft_citations: DraftCitations = field(default_factory=DraftCitations)

    def __post_init__(self) -> None:
        if self.draft_order not in ("snake", "straight"):
            raise ValueError(f"rules.draft_order must be snake or straight, not {self.draft_order!r}")
        if self.draft_rounds < 1 or self.draft_pick_seconds < 1:
            raise ValueError("rules.draft_rounds and rules.draft_pick_seconds must be at least 1")


DRAFT_PRESETS: dict[str, DraftRules] = {
    # The co-ed tournament's rulebook has no draft: teams come formed. A league that drafts anyway gets the
    # common rec-league snake, and a clock that only shows (nobody loses a pick to a slow phone).
    "coed-ball-hockey": DraftRules(draft_auto_skip=False),
    "youth-ball-hockey": DraftRules(
        # Youth 1.7 — "The first, third, fifth, and seventh rounds will occur in the order determined by the draft
        # lottery. The second, fourth, sixth, and eighth rounds will proceed in reverse order."
        draft_order="snake",
        draft_rounds=8,
        # Youth 1.15 — "players must pay their fees in full before the season draft".
        draft_paid_only=True,
        draft_citations=DraftCitations(order="Youth 1.7", paid="Youth 1.15"),
    ),
    # The indoor soccer rulebook is silent on drafts too: as the co-ed preset.
    "indoor-soccer": DraftRules(draft_auto_skip=False),
}
