"""Each preset's discipline numbers (escalations, suspensions, appeals), every one with its citation."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.league.discipline.catalogues import COED_WRITTEN_UP
from bot.league.discipline.infractions import CATEGORIES, Category


@dataclass(frozen=True)
class DisciplineCitations:
    """Where each discipline rule comes from ("" when the rulebook is silent)."""

    game_misconduct_after_majors: str = ""
    game_misconduct_after_misconducts: str = ""
    game_misconduct_after_minors: str = ""
    late_major: str = ""
    late_misconduct: str = ""
    referee_max_suspension: str = ""
    exceed_range: str = ""
    review: str = ""
    repeated: str = ""
    serving: str = ""
    appeal_window: str = ""
    appeal_decision: str = ""
    appeals_allowed: str = ""
    final: str = ""
    no_substitute_for_ejected: str = ""


@dataclass(frozen=True)
class DisciplineRules:
    """The numbers behind penalties, suspensions and appeals; preset plus flat overrides."""

    # Majors in one game that make a game misconduct; None = no such rule.
    discipline_game_misconduct_after_majors: int | None = None
    # 10-minute misconducts in one game that make a game misconduct; None = no such rule.
    discipline_game_misconduct_after_misconducts: int | None = None
    # Minors in one game that make a game misconduct; None = no such rule.
    discipline_game_misconduct_after_minors: int | None = None
    # How many minors a double minor counts as toward that limit.
    discipline_minors_per_double_minor: int = 2
    # A major in the last this-many minutes ejects and suspends; None = no such rule.
    discipline_late_major_minutes: int | None = None
    # Games of suspension for such a late major.
    discipline_late_major_suspension_games: int = 1
    # A 10-minute misconduct in the last this-many minutes ejects and suspends; None = no rule.
    discipline_late_misconduct_minutes: int | None = None
    # Games of suspension for such a late misconduct.
    discipline_late_misconduct_suspension_games: int = 1
    # That late-misconduct suspension waits for the commissioner's review.
    discipline_late_misconduct_pending_review: bool = True
    # Longest suspension a referee gives alone; longer ones need the commissioner. None = any.
    discipline_referee_max_suspension_games: int | None = None
    # The commissioners may set a suspension outside the length the rulebook gives its infraction (co-ed
    # severe offences: 1 to 5 games); off, such a length is refused.
    discipline_commissioner_may_exceed_range: bool = False
    # Categories always reported to the league (possible suspension).
    discipline_review_categories: tuple[Category, ...] = ()
    # The n-th infraction of any kind by a player in one game is reported; None = never.
    discipline_review_after_infractions: int | None = None
    # Days after issue within which an appeal may be filed (inclusive).
    appeal_window_days: int = 7
    # Days after filing within which the league decides an appeal.
    appeal_decision_days: int = 5
    # Appeals per suspension.
    appeals_allowed: int = 1
    # Unserved games carry from the regular season into the playoffs.
    suspensions_carry_into_playoffs: bool = True
    # Unserved games carry into the player's next season.
    suspensions_carry_into_next_season: bool = True
    # An ejected player may not be replaced: the team plays one short for the rest of the game.
    discipline_no_substitute_for_ejected: bool = False
    discipline_citations: DisciplineCitations = field(default_factory=DisciplineCitations)

    def __post_init__(self) -> None:
        for key in (
            "discipline_game_misconduct_after_majors",
            "discipline_game_misconduct_after_misconducts",
            "discipline_game_misconduct_after_minors",
            "discipline_review_after_infractions",
        ):
            value = getattr(self, key)
            _require(value is None or value >= 1, key, "must be at least 1 (or unset)")
        for key in (
            "discipline_minors_per_double_minor",
            "discipline_late_major_minutes",
            "discipline_late_major_suspension_games",
            "discipline_late_misconduct_minutes",
            "discipline_late_misconduct_suspension_games",
            "discipline_referee_max_suspension_games",
            "appeal_window_days",
            "appeal_decision_days",
            "appeals_allowed",
        ):
            value = getattr(self, key)
            _require(value is None or value >= 0, key, "must not be negative")
        unknown = [c for c in self.discipline_review_categories if c not in CATEGORIES]
        _require(
            not unknown,
            "discipline_review_categories",
            f"has unknown categories {unknown} (one of: {', '.join(CATEGORIES)})",
        )


def _require(condition: bool, key: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"rules.{key} {problem}")


_DEFAULT_APPEALS = "league default (rulebook silent; youth 1.21 numbers)"

DISCIPLINE_PRESETS: dict[str, DisciplineRules] = {
    "coed-ball-hockey": DisciplineRules(
        # Co-ed rules: no game-misconduct counts and no late-game rule.
        discipline_game_misconduct_after_majors=None,
        discipline_game_misconduct_after_misconducts=None,
        discipline_game_misconduct_after_minors=None,
        discipline_late_major_minutes=None,
        discipline_late_misconduct_minutes=None,
        discipline_referee_max_suspension_games=None,
        # Co-ed rules: "Severe offenses (1 game – 5 game suspensions)", and no rule lets anyone go beyond
        # that ("subject to change ... up until the start of Game 1" changes the rules, not one case).
        discipline_commissioner_may_exceed_range=False,
        # Co-ed rules: Penalties — "severe enough, intentional, or repeated ... written up".
        discipline_review_categories=("severe", "extreme", "game_misconduct"),
        discipline_review_after_infractions=2,
        # Co-ed rulebook has no appeals: league default, the youth numbers.
        appeal_window_days=7,
        appeal_decision_days=5,
        appeals_allowed=1,
        # docs/product.md §2: "served in the team's next games", whatever they are.
        suspensions_carry_into_playoffs=True,
        suspensions_carry_into_next_season=True,
        discipline_citations=DisciplineCitations(
            review=f"{COED_WRITTEN_UP} (severe, intentional or repeated: written up)",
            repeated=f"{COED_WRITTEN_UP} (severe, intentional or repeated: written up)",
            serving="league default (rulebook silent: served in the team's next games)",
            appeal_window=_DEFAULT_APPEALS,
            appeal_decision=_DEFAULT_APPEALS,
            appeals_allowed=_DEFAULT_APPEALS,
            final=_DEFAULT_APPEALS,
        ),
    ),
    "youth-ball-hockey": DisciplineRules(
        # Youth 3.11 (1) — one major is a game misconduct.
        discipline_game_misconduct_after_majors=1,
        # Youth 3.11 (2) — two 10-minute misconducts in the same game.
        discipline_game_misconduct_after_misconducts=2,
        # Youth 3.11 (3) — three minors.
        discipline_game_misconduct_after_minors=3,
        # Rulebook silent: a double minor (3.8, 4 minutes) is two minors.
        discipline_minors_per_double_minor=2,
        # Youth 3.9 note — a major in the last 5 minutes: ejection + automatic 1-game suspension.
        discipline_late_major_minutes=5,
        discipline_late_major_suspension_games=1,
        # Youth 3.10 note — a 10-minute misconduct in the last 10 minutes: ejection + 1 game,
        # pending commissioner(s) review.
        discipline_late_misconduct_minutes=10,
        discipline_late_misconduct_suspension_games=1,
        discipline_late_misconduct_pending_review=True,
        # Youth 1.12 — referees suspend up to one game; more is discussed with the commissioner.
        discipline_referee_max_suspension_games=1,
        # Youth 1.12 — the commissioners "may decrease/increase the suspension"; 1.13 — they "hold the final
        # decision on all suspensions" (3.11 (4)'s 15 games included).
        discipline_commissioner_may_exceed_range=True,
        # Youth 3.1, 3.9, 3.11 — majors and game misconducts: possible suspension; 1.20.1 —
        # serious offences are reported to the commissioner.
        discipline_review_categories=("major", "game_misconduct"),
        discipline_review_after_infractions=None,
        # Youth 1.21 — appeal within 1 week; decided within 5 days of submission.
        appeal_window_days=7,
        appeal_decision_days=5,
        # Youth 1.12, 1.13 — suspensions may be appealed once.
        appeals_allowed=1,
        # Youth 1.20.1 — carry over from regular season to playoffs.
        suspensions_carry_into_playoffs=True,
        # Youth 1.20.2 — an unfinished suspension continues the next season.
        suspensions_carry_into_next_season=True,
        discipline_citations=DisciplineCitations(
            game_misconduct_after_majors="Youth 3.11 (1)",
            game_misconduct_after_misconducts="Youth 3.11 (2)",
            game_misconduct_after_minors="Youth 3.11 (3)",
            late_major="Youth 3.9 (note)",
            late_misconduct="Youth 3.10 (note)",
            referee_max_suspension="Youth 1.12",
            exceed_range="Youth 1.12, 1.13",
            review="Youth 1.20.1, 3.1",
            serving="Youth 1.20.1, 1.20.2",
            appeal_window="Youth 1.21",
            appeal_decision="Youth 1.21",
            appeals_allowed="Youth 1.12, 1.13",
            final="Youth 1.20.2, 1.21",
        ),
    ),
    "indoor-soccer": DisciplineRules(
        # Indoor soccer rules: yellow cards (2 minutes down) only; no escalations.
        discipline_review_categories=("game_misconduct",),
        # Indoor soccer rules: Substitutions — "Substitutions may not be made for ejected players".
        discipline_no_substitute_for_ejected=True,
        # Indoor rulebook has no appeals: league default, the youth numbers.
        appeal_window_days=7,
        appeal_decision_days=5,
        appeals_allowed=1,
        suspensions_carry_into_playoffs=True,
        suspensions_carry_into_next_season=True,
        discipline_citations=DisciplineCitations(
            review="league default (ejections are reported)",
            no_substitute_for_ejected="Indoor soccer rules: Substitutions",
            serving="league default (rulebook silent: served in the team's next games)",
            appeal_window=_DEFAULT_APPEALS,
            appeal_decision=_DEFAULT_APPEALS,
            appeals_allowed=_DEFAULT_APPEALS,
            final=_DEFAULT_APPEALS,
        ),
    ),
}
