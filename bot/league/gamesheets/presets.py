"""Each preset's settings for game sheets, officials, goals and statistics, cited."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameSheetCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    officials: str = ""
    off_sheet: str = ""
    stats: str = ""


@dataclass(frozen=True)
class GameSheetRules:
    """The numbers and switches behind game sheets, officials and statistics."""

    # Each game needs both officials, a referee and a timekeeper, to begin; the commissioners hear which
    # games lack one before the game and again at its start (without a referee they take the duties).
    officials_both_required: bool = False
    # Hours before a game's start at which the commissioners hear that it lacks an official (the second
    # notice comes at the start).
    warn_unassigned_hours_before: int = 24
    # A goal whose scorer or an assister isn't on the scoring team's game sheet is recorded as disallowed
    # and each such player gets a minor; off, such a goal is refused, saying who isn't on the sheet.
    goal_off_sheet_disallowed_with_minor: bool = False
    # Day of the week (0 = Monday ... 6 = Sunday) the statistics are posted in the standings channel, at 9:00
    # league time, one message edited in place week after week; None = no weekly post.
    stats_post_weekday: int | None = None
    gamesheet_citations: GameSheetCitations = field(default_factory=GameSheetCitations)

    def __post_init__(self) -> None:
        if self.warn_unassigned_hours_before < 1:
            raise ValueError("rules.warn_unassigned_hours_before must be at least 1")
        if self.stats_post_weekday is not None and not 0 <= self.stats_post_weekday <= 6:
            raise ValueError("rules.stats_post_weekday must be 0 (Monday) to 6 (Sunday), or not set")


GAMESHEET_PRESETS: dict[str, GameSheetRules] = {
    "coed-ball-hockey": GameSheetRules(
        # Co-ed rules: referees only ("Ref interaction"); no timekeeper is named.
        officials_both_required=False,
    ),
    "youth-ball-hockey": GameSheetRules(
        # Youth 2.2 — "at least 2 officials, one referee and one timekeeper ... A game cannot begin without
        # both officials present"; Youth 1.14 — without a referee the commissioners assume the duties.
        officials_both_required=True,
        # Youth 3.4 (1) — "Player is not on the game sheet and he or a teammate scores a goal. (Minor also
        # assessed)".
        goal_off_sheet_disallowed_with_minor=True,
        # Youth 2.16 — the statistician updates the statistics and posts them "the following week": Mondays.
        stats_post_weekday=0,
        gamesheet_citations=GameSheetCitations(officials="Youth 2.2, 1.14", off_sheet="Youth 3.4 (1)",
                                               stats="Youth 2.16"),
    ),
    "indoor-soccer": GameSheetRules(
        # Indoor soccer rules: a referee only.
        officials_both_required=False,
    ),
}
