"""Each preset's replacement settings (youth 1.16: long-term injuries and absences), cited."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ReplacementCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    injury: str = ""
    absence: str = ""
    emergency: str = ""
    fee: str = ""  # the replacement pays a prorated fee before their first game


@dataclass(frozen=True)
class ReplacementRules:
    """The numbers behind a captain's request to replace a player, and the commissioners' decision."""

    # Days after the injury was disclosed within which the captain must ask to replace the player; None = no limit.
    replacement_injury_window_days: int | None = 14
    # An injured player can be replaced until the end of this week of the season; None = all season.
    replacement_injury_last_week: int | None = 8
    # Whether the replaced injured player gets part of their fee back (the amount is the commissioners').
    replacement_injury_refund: bool = True
    # A player who played none of their team's first this many games of the season may be replaced.
    replacement_absence_first_games: int = 3
    # A player absent from at least replacement_absence_count of their team's first this many games may be replaced.
    replacement_absence_games: int = 8
    # How many absences in those first games let a captain replace the player.
    replacement_absence_count: int = 4
    # An absent player can be replaced until the end of this week of the season; None = all season.
    replacement_absence_last_week: int | None = 8
    # Commissioners may approve a request whose conditions don't hold, in an emergency, giving a reason.
    replacement_emergency_override: bool = True
    # The season's fee in cents, which a replacement pays prorated by the games left; None = not known to the bot.
    replacement_season_dues_cents: int | None = None
    replacement_citations: ReplacementCitations = field(default_factory=ReplacementCitations)

    def __post_init__(self) -> None:
        for key in ("replacement_injury_window_days", "replacement_injury_last_week", "replacement_absence_last_week",
                    "replacement_season_dues_cents"):
            value = getattr(self, key)
            if value is not None and value < 0:
                raise ValueError(f"rules.{key} must not be negative")
        if min(self.replacement_absence_first_games, self.replacement_absence_games,
               self.replacement_absence_count) < 1:
            raise ValueError("rules.replacement_absence_first_games, replacement_absence_games and "
                             "replacement_absence_count must be at least 1")
        if self.replacement_absence_count > self.replacement_absence_games:
            raise ValueError("rules.replacement_absence_count can't be more than replacement_absence_games")


_YOUTH = "Youth 1.16"

REPLACEMENT_PRESETS: dict[str, ReplacementRules] = {
    # Co-ed rules: silent (a one-off tournament): youth 1.16's numbers as league settings.
    "coed-ball-hockey": ReplacementRules(),
    "youth-ball-hockey": ReplacementRules(
        # Youth 1.16 — "Decision to replace the injured player must be exercised within 2 weeks of the disclosure
        # of the injury. Injured players can only be replaced up until the end of Week 8. Partial refunds will
        # be granted".
        replacement_injury_window_days=14,
        replacement_injury_last_week=8,
        replacement_injury_refund=True,
        # Youth 1.16 — "Players who do not participate in any of the first 3 games of the season, or are absent
        # in 4 of the first 8 games of the season may be replaced ... by the end of Week 8".
        replacement_absence_first_games=3,
        replacement_absence_games=8,
        replacement_absence_count=4,
        replacement_absence_last_week=8,
        # Youth 1.16 — "The commissioner(s) will assess emergency situations, and further action may be taken
        # past Week 8."
        replacement_emergency_override=True,
        # Youth 1.16 — "replacing player(s) must pay a prorated fee before their first game."
        replacement_citations=ReplacementCitations(injury=_YOUTH, absence=_YOUTH, emergency=_YOUTH, fee=_YOUTH),
    ),
    # Indoor soccer rules: silent: youth 1.16's numbers as league settings.
    "indoor-soccer": ReplacementRules(),
}
