"""Discipline: what a called infraction costs, how suspensions are served, and how appeals work.

Pure rules. A referee calls an infraction from the preset's catalogue; `apply_penalty` returns the
minutes, ejection, game misconduct and automatic suspension, each consequence with its rulebook
citation, plus a one-line summary for the referee. Suspensions are served in the team's next games;
appeals follow youth rules 1.12, 1.13, 1.20 and 1.21.

Choices the rulebooks leave open (or contradict), decided here:
- The same act appears at several severities (youth "Referee abuse" is a minor, a double minor, a
  10-minute misconduct and a game misconduct; co-ed "verbal abuse" is a severe offence and a reason
  for a 5-minute misconduct, "ref abuse" an extreme offence). Each severity is its own catalogue
  entry and the referee picks one; the escalations below then apply.
- Youth warnings 3.2 (5)-(7) (corralling, holding up play, stepping on the ball) are also delay-of-
  game minors in 3.7 with no order given; as with 3.2 (1) and (8), which say "first time", the first
  in a game is a warning and a repeat in the same game is the 3.7 minor (`repeat_becomes`).
- Youth 3.11 (3) "three minors": a double minor counts as two minors (it is two 2-minute minors,
  3.8), a bench minor counts for nobody (it is the team's). Setting:
  `discipline_minors_per_double_minor`.
- "The last 5 minutes of a game": `minute` is the elapsed game minute (0 at the opening face-off,
  periods back to back), and a penalty is late when `minute >= game_length - 5`; overtime counts as
  late. Without a minute the late rules cannot be checked, and the outcome says so.
- Several automatic suspensions from one call do not add up: the longest applies.
- Youth 1.12: a referee suspends for at most one game; anything longer (the 15 games of 3.11 (4))
  is recorded and marked pending the commissioner's review.
- Co-ed severe offences (listed under "Major offenses (sit for 2 minutes)") sit 2 minutes and carry
  a 1-5 game suspension: the minimum is recorded now, the league sets the length. Extreme offences
  have no stated consequence; they are the worst category, so the player is ejected (a game
  misconduct, which co-ed referees may give at discretion) and the league decides any suspension.
  "Severe, intentional or repeated" infractions are written up: a second infraction of any kind in
  a game is reported (`discipline_review_after_infractions`).
- Indoor soccer has only yellow cards (2 minutes down) and ejections ("substitutions may not be made
  for ejected players").
- Appeals: the co-ed and indoor rulebooks have none; their presets use the youth numbers (once,
  within 7 days, decided within 5 days) as the league default. An appeal is allowed up to and
  including exactly 7 days after issue. A suspension becomes final when its appeals are used up
  and decided, or when the window passes with no appeal pending; a final suspension is never
  shortened (1.20.2). A served or overturned suspension cannot be appealed (an appeal asks for
  games to be taken off, 1.21).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Literal, cast, get_args

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

ConsequenceKind = Literal["penalty", "ejection", "game_misconduct", "suspension", "review", "note"]
SuspensionStatus = Literal["active", "served", "overturned"]
AppealOutcome = Literal["upheld", "reduced", "overturned"]
APPEAL_OUTCOMES: tuple[str, ...] = get_args(AppealOutcome)

_LABELS: dict[str, str] = {
    "warning": "warning",
    "faceoff_ejection": "removed from the face-off",
    "bench_minor": "bench minor",
    "minor": "minor",
    "double_minor": "double minor",
    "major": "major",
    "misconduct_10": "10-minute misconduct",
    "misconduct_5": "5-minute misconduct",
    "game_misconduct": "game misconduct",
    "severe": "severe offence",
    "extreme": "extreme offence",
    "yellow_card": "yellow card",
}
_LEAGUE_SETTING = "league setting"
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


class DisciplineError(ValueError):
    """A discipline request the rules refuse; the message is polite and safe to show."""

    def __init__(self, message: str, *, citation: str = "", valid: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.citation = citation
        self.valid = tuple(valid)


# --------------------------------------------------------------------------- catalogue


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


def _entries(
    category: Category,
    minutes: int,
    rows: Iterable[tuple[str, str, str] | tuple[str, str, str, str | None]],
    *,
    ejection: bool = False,
    suspension_games: tuple[int, int] | None = None,
) -> tuple[Infraction, ...]:
    """Catalogue rows (key, name, citation[, repeat_becomes]) with their category's costs."""
    out = []
    for row in rows:
        key, name, citation = row[0], row[1], row[2]
        repeat = row[3] if len(row) > 3 else None
        out.append(
            Infraction(
                key=key,
                name=name,
                category=category,
                minutes=minutes,
                citation=citation,
                ejection=ejection,
                suspension_games=suspension_games,
                repeat_becomes=repeat,
            )
        )
    return tuple(out)


_COED = "Co-ed rules: Penalties"
_COED_CATALOGUE: tuple[Infraction, ...] = (
    # "Minor offenses (warning)"
    *_entries(
        "warning",
        0,
        [
            ("holding", "Holding", f"{_COED}, minor offenses (1)"),
            ("hooking", "Hooking", f"{_COED}, minor offenses (2)"),
            ("lofting", "Lofting", f"{_COED}, minor offenses (3)"),
            (
                "goalie_covering_out_of_crease",
                "Goalie covering out of the crease",
                f"{_COED}, minor offenses (4)",
            ),
            ("goalie_delay_of_game", "Goalie delay of game", f"{_COED}, minor offenses (5)"),
        ],
    ),
    # "Major offenses (sit for 2 minutes)"
    *_entries(
        "major",
        2,
        [
            ("high_sticking", "High sticking", f"{_COED}, major offenses (1)"),
            ("slapshot", "Slapshot", f"{_COED}, major offenses (2)"),
        ],
    ),
    # "3. Severe offenses (1 game – 5 game suspensions)", listed under the 2-minute majors.
    *_entries(
        "severe",
        2,
        [
            ("slashing", "Slashing", f"{_COED}, severe offenses (1)"),
            (
                "throwing_smashing_stick",
                "Throwing or smashing a stick",
                f"{_COED}, severe offenses (2); No stick throwing/smashing",
            ),
            ("tripping", "Tripping", f"{_COED}, severe offenses (3)"),
            ("verbal_abuse", "Verbal abuse", f"{_COED}, severe offenses (4)"),
        ],
        suspension_games=(1, 5),
    ),
    # "Extreme offenses": no consequence stated; ejected, the league decides the rest.
    *_entries(
        "extreme",
        0,
        [
            ("ref_abuse", "Referee abuse", f"{_COED}, extreme offenses (1)"),
            (
                "pushing_roughing_fighting",
                "Pushing, roughing or fighting",
                f"{_COED}, extreme offenses (2); Prohibited actions",
            ),
        ],
        ejection=True,
    ),
    # "A 5-minute misconduct penalty can be given to any player based on referee discretion."
    *_entries(
        "misconduct_5",
        5,
        [
            (
                "penalty_on_breakaway",
                "Penalty against a player on a breakaway",
                f"{_COED}, 5-minute misconduct",
            ),
            (
                "verbal_abuse_misconduct",
                "Verbal abuse of refs or other players (misconduct)",
                f"{_COED}, 5-minute misconduct",
            ),
        ],
    ),
    # "sit the rest of the game (a game misconduct)"
    *_entries(
        "game_misconduct",
        0,
        [("game_misconduct", "Game misconduct (referee's discretion)", f"{_COED}, misconducts")],
        ejection=True,
    ),
)

_YOUTH_CATALOGUE: tuple[Infraction, ...] = (
    *_entries(
        "warning",
        0,
        [
            (
                "goalie_holding_ball_outside_crease",
                "Goalie holding the ball outside the crease",
                "Youth 3.2 (1)",
                "delay_of_game_goalie_outside_crease",
            ),
            ("heckling_referee_warning", "Heckling the referee / arguing a call", "Youth 3.2 (2)"),
            ("illegal_faceoff_technique", "Illegal face-off technique", "Youth 3.2 (3)"),
            ("illegal_faceoff_lineup", "Lining up illegally for a face-off", "Youth 3.2 (4)"),
            ("corralling_ball", "Corralling the ball", "Youth 3.2 (5)", "delay_of_game_corralling"),
            (
                "holding_up_play",
                "Holding up play",
                "Youth 3.2 (6)",
                "delay_of_game_holding_up_play",
            ),
            (
                "stepping_on_ball",
                "Stepping on the ball deliberately",
                "Youth 3.2 (7)",
                "delay_of_game_stepping_on_ball",
            ),
            (
                "improper_equipment",
                "Not wearing proper equipment",
                "Youth 3.2 (8)",
                "equipment_infraction",
            ),
        ],
    ),
    *_entries(
        "faceoff_ejection",
        0,
        [
            (
                "faceoff_ejection_lineup",
                "Lining up illegally, second time on the same face-off",
                "Youth 3.3 (1)",
            ),
            (
                "faceoff_ejection_technique",
                "Illegal face-off technique, second time on the same face-off",
                "Youth 3.3 (2)",
            ),
        ],
    ),
    *_entries(
        "bench_minor",
        2,
        [
            ("bench_minor_uniform", "Bench minor: players not in proper uniform", "Youth 3.7 (1)"),
            ("bench_minor_too_many_players", "Bench minor: too many players", "Youth 3.7 (2)"),
            (
                "bench_minor_equipment_from_bench",
                "Bench minor: stick or equipment from the bench obstructing play",
                "Youth 3.7 (3)",
            ),
            (
                "bench_minor_heckling",
                "Bench minor: heckling the referee / arguing a call",
                "Youth 3.7 (4)",
            ),
            (
                "bench_minor_throwing_from_bench",
                "Bench minor: throwing something from the bench",
                "Youth 3.7 (5)",
            ),
            (
                "bench_minor_setup_cleanup",
                "Bench minor: failing to set up or clean up",
                "Youth 3.7 (6), 2.15",
            ),
            ("bench_minor_not_ready", "Bench minor: team not ready at start", "Youth 3.7 (7), 2.4"),
            (
                "bench_minor_dangerous_equipment",
                "Bench minor: dangerous equipment (jewellery, watches)",
                "Youth 3.7 (8)",
            ),
        ],
    ),
    *_entries(
        "minor",
        2,
        [
            ("cross_checking", "Cross-checking", "Youth 3.7"),
            (
                "delay_of_game_closing_hand",
                "Delay of game: closing the hand on the ball",
                "Youth 3.7 delay of game (1)",
            ),
            (
                "delay_of_game_goalie_outside_crease",
                "Delay of game: goalie holding the ball outside the crease (second time)",
                "Youth 3.7 delay of game (2)",
            ),
            (
                "delay_of_game_corralling",
                "Delay of game: corralling the ball",
                "Youth 3.7 delay of game (3)",
            ),
            (
                "delay_of_game_hand_in_crease",
                "Delay of game: holding the ball with the hands in the crease",
                "Youth 3.7 delay of game (4)",
            ),
            (
                "delay_of_game_shooting_out",
                "Delay of game: deliberately shooting the ball out",
                "Youth 3.7 delay of game (5)",
            ),
            (
                "delay_of_game_stepping_on_ball",
                "Delay of game: stepping on the ball",
                "Youth 3.7 delay of game (6)",
            ),
            (
                "delay_of_game_holding_up_play",
                "Delay of game: holding up play",
                "Youth 3.7 delay of game (7)",
            ),
            ("elbowing", "Elbowing", "Youth 3.7"),
            (
                "high_sticking",
                "High sticking (ball above the waist / blade above the shoulder)",
                "Youth 3.7",
            ),
            (
                "high_sticking_contact",
                "High sticking (accidental contact with a player)",
                "Youth 3.7",
            ),
            ("holding", "Holding", "Youth 3.7"),
            ("hooking", "Hooking", "Youth 3.7"),
            ("instigating", "Instigating", "Youth 3.7"),
            ("interference", "Interference", "Youth 3.7"),
            ("leaving_penalty_box_early", "Leaving the penalty box early", "Youth 3.7"),
            ("referee_abuse_minor", "Referee abuse, physical or verbal (minor)", "Youth 3.7"),
            ("roughing", "Roughing", "Youth 3.7"),
            ("slashing", "Slashing", "Youth 3.7"),
            (
                "equipment_infraction",
                "Equipment infraction: no goggles, shin pads or gloves",
                "Youth 3.7",
            ),
            (
                "throwing_stick_at_ball",
                "Throwing a stick or equipment to knock the ball away",
                "Youth 3.7",
            ),
            (
                "throwing_stick_at_net",
                "Throwing a stick or equipment to stop a goal (goalie in net)",
                "Youth 3.7",
            ),
            ("tripping", "Tripping", "Youth 3.7"),
            ("unsportsmanlike_conduct", "Unsportsmanlike conduct", "Youth 3.7"),
            ("not_on_game_sheet", "Player not on the game sheet", "Youth 3.4 (1)"),
        ],
    ),
    *_entries(
        "double_minor",
        4,
        [
            ("cross_checking_flagrant", "Cross-checking, flagrant", "Youth 3.8 (1)"),
            ("elbowing_vicious", "Elbowing, vicious", "Youth 3.8 (2)"),
            ("punching", "Punching with gloves on", "Youth 3.8 (3)"),
            (
                "referee_abuse_double_minor",
                "Referee abuse, physical or verbal (double minor)",
                "Youth 3.8 (4)",
            ),
            ("roughing_excessive", "Roughing, excessive", "Youth 3.8 (5)"),
            ("slashing_flagrant", "Slashing, flagrant", "Youth 3.8 (6)"),
            (
                "unsportsmanlike_conduct_double_minor",
                "Unsportsmanlike conduct (double minor)",
                "Youth 3.8 (7)",
            ),
        ],
    ),
    # "Majors (five minutes/ejection/possible suspension)"; 3.1: majors entail ejection.
    *_entries(
        "major",
        5,
        [
            ("vicious_play", "Deliberately vicious, dangerous play", "Youth 3.9 (1)"),
            ("boarding", "Boarding", "Youth 3.9 (2)"),
            ("butt_ending", "Butt-ending", "Youth 3.9 (3)"),
            ("fighting", "Fighting", "Youth 3.9 (4)"),
            ("head_butting", "Head-butting", "Youth 3.9 (5)"),
            ("high_sticking_blood", "High-sticking (drawing blood)", "Youth 3.9 (6)"),
            ("hitting_from_behind", "Hitting from behind", "Youth 3.9 (7)"),
            ("intent_to_injure", "Intent to injure", "Youth 3.9 (8)"),
            ("kicking", "Kicking", "Youth 3.9 (9)"),
            ("kneeing", "Kneeing", "Youth 3.9 (10)"),
            (
                "leaving_bench_for_fight",
                "Leaving the bench or box to join a fight or argument",
                "Youth 3.9 (11)",
            ),
            ("shooting_ball_at_player", "Shooting the ball at a player", "Youth 3.9 (12)"),
            ("spearing", "Spearing", "Youth 3.9 (13)"),
            ("spitting", "Spitting at or towards a player", "Youth 3.9 (14)"),
            ("third_man_in", "Third man in", "Youth 3.9 (15)"),
        ],
        ejection=True,
    ),
    *_entries(
        "misconduct_10",
        10,
        [
            (
                "unsportsmanlike_misconduct",
                "Unsportsmanlike conduct (10-minute misconduct)",
                "Youth 3.10",
            ),
            (
                "referee_abuse_verbal_misconduct",
                "Verbal referee abuse (10-minute misconduct)",
                "Youth 3.10",
            ),
        ],
    ),
    Infraction(
        key="referee_abuse_physical",
        name="Physical referee abuse",
        category="game_misconduct",
        minutes=0,
        citation="Youth 3.11 (4)",
        ejection=True,
        suspension_games=(15, 15),
    ),
    Infraction(
        key="referee_abuse_verbal_game_misconduct",
        name="Verbal referee abuse (game misconduct)",
        category="game_misconduct",
        minutes=0,
        citation="Youth 3.11 (5)",
        ejection=True,
    ),
)

_INDOOR = "Indoor soccer rules: General"
_INDOOR_CATALOGUE: tuple[Infraction, ...] = (
    *_entries(
        "yellow_card",
        2,
        [
            ("slide_tackle", "Slide tackling", _INDOOR),
            ("jewelry", "Wearing jewellery after the game started", _INDOOR),
            ("yellow_card", "Yellow card (other)", _INDOOR),
        ],
    ),
    Infraction(
        key="ejection",
        name="Ejection (red card)",
        category="game_misconduct",
        minutes=0,
        citation="Indoor soccer rules: Substitutions",
        ejection=True,
    ),
)

PENALTY_CATALOGUES: dict[str, tuple[Infraction, ...]] = {
    "coed-ball-hockey": _COED_CATALOGUE,
    "youth-ball-hockey": _YOUTH_CATALOGUE,
    "indoor-soccer": _INDOOR_CATALOGUE,
}


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


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class DisciplineCitations:
    """Where each discipline rule comes from ("" when the rulebook is silent)."""

    game_misconduct_after_majors: str = ""
    game_misconduct_after_misconducts: str = ""
    game_misconduct_after_minors: str = ""
    late_major: str = ""
    late_misconduct: str = ""
    referee_max_suspension: str = ""
    review: str = ""
    repeated: str = ""
    serving: str = ""
    appeal_window: str = ""
    appeal_decision: str = ""
    appeals_allowed: str = ""
    final: str = ""


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
    discipline_late_major_suspension_games: int = 1
    # A 10-minute misconduct in the last this-many minutes ejects and suspends; None = no rule.
    discipline_late_misconduct_minutes: int | None = None
    discipline_late_misconduct_suspension_games: int = 1
    # That late-misconduct suspension waits for the commissioner's review.
    discipline_late_misconduct_pending_review: bool = True
    # Longest suspension a referee gives alone; longer ones need the commissioner. None = any.
    discipline_referee_max_suspension_games: int | None = None
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
        # Co-ed rules: Penalties — "severe enough, intentional, or repeated ... written up".
        discipline_review_categories=("severe", "extreme", "game_misconduct"),
        discipline_review_after_infractions=2,
        # Co-ed rulebook has no appeals: league default, the youth numbers.
        appeal_window_days=7,
        appeal_decision_days=5,
        appeals_allowed=1,
        # Product spec §2: "served in the team's next games", whatever they are.
        suspensions_carry_into_playoffs=True,
        suspensions_carry_into_next_season=True,
        discipline_citations=DisciplineCitations(
            review=f"{_COED} (severe, intentional or repeated: written up)",
            repeated=f"{_COED} (severe, intentional or repeated: written up)",
            serving="product spec §2 (served in the team's next games)",
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
        # Indoor rulebook has no appeals: league default, the youth numbers.
        appeal_window_days=7,
        appeal_decision_days=5,
        appeals_allowed=1,
        suspensions_carry_into_playoffs=True,
        suspensions_carry_into_next_season=True,
        discipline_citations=DisciplineCitations(
            review="league default (ejections are reported)",
            serving="product spec §2",
            appeal_window=_DEFAULT_APPEALS,
            appeal_decision=_DEFAULT_APPEALS,
            appeals_allowed=_DEFAULT_APPEALS,
            final=_DEFAULT_APPEALS,
        ),
    ),
}


# --------------------------------------------------------------------------- penalties


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty already recorded against a player in the game (as `PenaltyOutcome.record`)."""

    infraction_key: str
    category: Category
    minute: int | None = None


@dataclass(frozen=True)
class Consequence:
    """One thing that happens to the player, and the rule that says so."""

    kind: ConsequenceKind
    text: str
    citation: str


@dataclass(frozen=True)
class PenaltyOutcome:
    """What a call costs: shown to the referee, recorded, and turned into a suspension."""

    called: str  # the key the referee called
    infraction: Infraction  # what is recorded (a repeated warning becomes its minor)
    minutes: int
    ejected: bool
    game_misconduct: bool
    # Games of suspension to record now (the minimum when the league sets the length).
    suspension_games: int
    # (fewest, most) when the league sets the length; None otherwise.
    suspension_range: tuple[int, int] | None
    # The league (commissioner) must review: possible or longer suspension.
    pending_review: bool
    consequences: tuple[Consequence, ...]
    summary: str
    record: PenaltyRecord


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


def _crossed(before: int, after: int, threshold: int | None) -> bool:
    return threshold is not None and before < threshold <= after


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def apply_penalty(
    rules: DisciplineRules,
    catalogue: Sequence[Infraction],
    prior_penalties_in_game_for_player: Sequence[PenaltyRecord],
    infraction_key: str,
    minute: int | None,
    game_length_minutes: int,
) -> PenaltyOutcome:
    """Apply a call and the preset's escalations; every consequence cites its rule.

    `minute` is the elapsed game minute (None if unknown); `game_length_minutes` is regulation
    length (`GameFormat.regulation_minutes`).
    """
    called = find_infraction(catalogue, infraction_key)
    if minute is not None and minute < 0:
        raise DisciplineError(f"The minute must be 0 or later, not {minute}.")
    if game_length_minutes <= 0:
        raise ValueError(f"game_length_minutes must be positive, not {game_length_minutes}")
    prior = list(prior_penalties_in_game_for_player)
    cites = rules.discipline_citations
    out: list[Consequence] = []

    infraction = called
    repeated = False
    if called.repeat_becomes is not None and any(
        p.infraction_key in (called.key, called.repeat_becomes) for p in prior
    ):
        infraction = find_infraction(catalogue, called.repeat_becomes)
        repeated = True

    label = _LABELS[infraction.category]
    if infraction.category == "warning":
        text = "warning, no penalty time"
    elif infraction.category == "yellow_card":
        down = _plural(infraction.minutes, "minute")
        text = f"yellow card: off the field, team plays down {down}"
    elif infraction.minutes and infraction.category not in ("misconduct_10", "misconduct_5"):
        text = f"{label}, {_plural(infraction.minutes, 'minute')}"
    else:
        text = label
    citation = infraction.citation
    if repeated:
        text = f"repeated in this game: {text.replace(label, f'{label} instead of a warning', 1)}"
        citation = f"{called.citation}; {infraction.citation}"
    out.append(Consequence("penalty", text, citation))

    ejected = False
    game_misconduct = infraction.category == "game_misconduct"
    if infraction.ejection:
        ejected = True
        out.append(Consequence("ejection", "ejected from the game", infraction.citation))

    # Game misconduct by count (youth 3.11 (1)-(3)).
    def count(records: Iterable[PenaltyRecord], categories: dict[str, int]) -> int:
        return sum(categories.get(r.category, 0) for r in records)

    current = PenaltyRecord(infraction.key, infraction.category, minute)
    counted = [
        (
            {"major": 1},
            rules.discipline_game_misconduct_after_majors,
            "major",
            cites.game_misconduct_after_majors,
        ),
        (
            {"misconduct_10": 1},
            rules.discipline_game_misconduct_after_misconducts,
            "10-minute misconduct",
            cites.game_misconduct_after_misconducts,
        ),
        (
            {"minor": 1, "double_minor": rules.discipline_minors_per_double_minor},
            rules.discipline_game_misconduct_after_minors,
            "minor",
            cites.game_misconduct_after_minors,
        ),
    ]
    for weights, threshold, what, cite in counted:
        before = count(prior, weights)
        after = before + count([current], weights)
        if not _crossed(before, after, threshold):
            continue
        if infraction.category == "double_minor" and after - before > 1:
            reason = f"double minor makes {after} minors"
        else:
            reason = f"{_ordinal(after)} {what}"
        text = f"{reason}: game misconduct" + ("" if ejected else ", ejected")
        out.append(Consequence("game_misconduct", text, cite))
        game_misconduct = ejected = True

    # Late-game rules (youth 3.9 and 3.10 notes).
    suspension_games = 0
    suspension_range: tuple[int, int] | None = None
    pending_review = False
    said_review = False
    late_rules = (
        (
            "major",
            rules.discipline_late_major_minutes,
            rules.discipline_late_major_suspension_games,
            False,
            "major",
            cites.late_major,
        ),
        (
            "misconduct_10",
            rules.discipline_late_misconduct_minutes,
            rules.discipline_late_misconduct_suspension_games,
            rules.discipline_late_misconduct_pending_review,
            "10-minute misconduct",
            cites.late_misconduct,
        ),
    )
    for category, window, games, review, what, cite in late_rules:
        if infraction.category != category or window is None:
            continue
        if minute is None:
            out.append(
                Consequence(
                    "note",
                    f"no minute given: the last-{window}-minutes rule was not checked",
                    cite,
                )
            )
            continue
        if minute < game_length_minutes - window:
            continue
        parts = [] if ejected else ["ejected"]
        if games:
            parts.append(f"automatic {games}-game suspension")
            suspension_games = max(suspension_games, games)
        if review:
            parts.append("pending the commissioner's review")
            pending_review = said_review = True
        ejected = True
        text = f"{what} in the last {window} minutes: " + ", ".join(parts or ["ejected"])
        out.append(Consequence("suspension" if games else "ejection", text, cite))

    # Suspension the infraction itself carries.
    if infraction.suspension_games is not None:
        low, high = infraction.suspension_games
        if low == high:
            suspension_games = max(suspension_games, low)
            text = f"automatic {low}-game suspension"
        else:
            suspension_range = (low, high)
            suspension_games = max(suspension_games, low)
            pending_review = said_review = True
            text = f"suspension of {low}-{high} games, length set by the league"
        out.append(Consequence("suspension", text, infraction.citation))

    limit = rules.discipline_referee_max_suspension_games
    if limit is not None and suspension_games > limit and not said_review:
        out.append(
            Consequence(
                "review",
                f"a suspension over {_plural(limit, 'game')} needs the commissioner's decision",
                cites.referee_max_suspension,
            )
        )
        pending_review = said_review = True

    # Reported to the league.
    reasons: list[tuple[str, str]] = []
    if infraction.category in rules.discipline_review_categories or (
        game_misconduct and "game_misconduct" in rules.discipline_review_categories
    ):
        reasons.append(("reported to the league: possible suspension", cites.review))
    if _crossed(len(prior), len(prior) + 1, rules.discipline_review_after_infractions):
        reasons.append((f"{_ordinal(len(prior) + 1)} infraction in this game: written up", cites.repeated))
    if reasons:
        pending_review = True
        if not said_review:
            out.append(Consequence("review", reasons[0][0], reasons[0][1]))
        out.extend(Consequence("review", text, cite) for text, cite in reasons[1:])

    # A rule turned on by a league's override has no rulebook citation: say where it comes from.
    out = [replace(c, citation=c.citation or _LEAGUE_SETTING) for c in out]
    summary = f"{called.name}: " + "; ".join(c.text for c in out)
    return PenaltyOutcome(
        called=called.key,
        infraction=infraction,
        minutes=infraction.minutes,
        ejected=ejected,
        game_misconduct=game_misconduct,
        suspension_games=suspension_games,
        suspension_range=suspension_range,
        pending_review=pending_review,
        consequences=tuple(out),
        summary=summary,
        record=current,
    )


# --------------------------------------------------------------------------- suspensions


def _require_aware(value: datetime, name: str) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, not {value!r}")


@dataclass(frozen=True)
class Suspension:
    """Games a player sits out, served in the team's next games."""

    id: int
    player_id: int
    team_id: int
    games: int
    issued_at: datetime
    reason: str
    status: SuspensionStatus = "active"

    def __post_init__(self) -> None:
        if self.games < 0:
            raise ValueError(f"suspension games must not be negative, not {self.games}")
        _require_aware(self.issued_at, "issued_at")
        if self.status not in get_args(SuspensionStatus):
            raise ValueError(f"unknown suspension status {self.status!r}")


def games_remaining(suspension: Suspension, team_games_completed_since_issue: int) -> int:
    """Games still to sit out.

    Count every game the team completed after the suspension was issued, of any kind: regular,
    seeding, playoff, and the next season's (youth 1.20.1, 1.20.2). The game in which it was
    issued does not count. A league whose `suspensions_carry_into_*` is off ends the suspension at
    that boundary instead (the service's job: these functions count, they do not know seasons).
    """
    if team_games_completed_since_issue < 0:
        raise ValueError(
            f"team_games_completed_since_issue must not be negative, not {team_games_completed_since_issue}"
        )
    if suspension.status == "overturned":
        return 0
    return max(0, suspension.games - team_games_completed_since_issue)


# --------------------------------------------------------------------------- appeals


@dataclass(frozen=True)
class Appeal:
    """A player's (or captain's) request to shorten a suspension."""

    id: int
    suspension_id: int
    filed_at: datetime
    reason: str = ""
    outcome: AppealOutcome | None = None
    decided_at: datetime | None = None

    def __post_init__(self) -> None:
        _require_aware(self.filed_at, "filed_at")
        if self.outcome is not None and self.outcome not in APPEAL_OUTCOMES:
            raise ValueError(f"unknown appeal outcome {self.outcome!r}")

    @property
    def decided(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class AppealDecision:
    """The result of deciding an appeal: the suspension's new length and status."""

    appeal_id: int
    outcome: AppealOutcome
    games: int
    status: SuspensionStatus
    decided_at: datetime
    # Decided after the decision was due (still valid; worth a log line).
    late: bool
    summary: str
    citation: str


def appeal_window_closes(suspension: Suspension, *, rules: DisciplineRules) -> datetime:
    """The last moment an appeal may be filed (inclusive): issue + the window's days."""
    return suspension.issued_at + timedelta(days=rules.appeal_window_days)


def appeal_decision_due(appeal: Appeal, *, rules: DisciplineRules) -> datetime:
    """When the league's decision on an appeal is due: filing + the decision days."""
    return appeal.filed_at + timedelta(days=rules.appeal_decision_days)


def _own(suspension: Suspension, appeals: Iterable[Appeal]) -> list[Appeal]:
    return [a for a in appeals if a.suspension_id == suspension.id]


def _when(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y %H:%M %Z").strip()


def is_final(suspension: Suspension, now: datetime, appeals: Sequence[Appeal], *, rules: DisciplineRules) -> bool:
    """Final means it can no longer be shortened (youth 1.20.2, 1.21).

    Final once its appeals are used up and decided, or once the window passed with no appeal
    pending; an overturned suspension is final too.
    """
    _require_aware(now, "now")
    if suspension.status == "overturned":
        return True
    own = _own(suspension, appeals)
    if any(not a.decided for a in own):
        return False
    if sum(a.decided for a in own) >= rules.appeals_allowed:
        return True
    return now > appeal_window_closes(suspension, rules=rules)


def appeal_allowed(
    suspension: Suspension,
    now: datetime,
    prior_appeals: Sequence[Appeal],
    *,
    rules: DisciplineRules,
) -> None:
    """Return if the suspension may be appealed now; raise DisciplineError saying why not."""
    _require_aware(now, "now")
    cites = rules.discipline_citations
    own = _own(suspension, prior_appeals)
    if suspension.status == "overturned":
        raise DisciplineError("This suspension was overturned; there is nothing to appeal.")
    if suspension.status == "served":
        raise DisciplineError(
            "This suspension has been served; an appeal can only shorten games still to serve.",
            citation=cites.appeal_window,
        )
    if rules.appeals_allowed == 0:
        raise DisciplineError("Suspensions in this league cannot be appealed.", citation=cites.appeals_allowed)
    if any(not a.decided for a in own):
        raise DisciplineError(
            "An appeal of this suspension is already waiting for the league's decision.",
            citation=cites.appeal_decision,
        )
    if len(own) >= rules.appeals_allowed:
        times = "once" if rules.appeals_allowed == 1 else f"{rules.appeals_allowed} times"
        raise DisciplineError(
            f"This suspension has already been appealed; a suspension may be appealed {times}.",
            citation=cites.appeals_allowed,
        )
    closes = appeal_window_closes(suspension, rules=rules)
    if now > closes:
        raise DisciplineError(
            f"Sorry, the window to appeal this suspension closed on {_when(closes)} "
            f"({_plural(rules.appeal_window_days, 'day')} after it was issued); it is final.",
            citation=cites.appeal_window,
        )


def decide_appeal(
    suspension: Suspension,
    outcome: str,
    games: int | None = None,
    *,
    now: datetime,
    appeals: Sequence[Appeal],
    rules: DisciplineRules,
) -> AppealDecision:
    """Decide the pending appeal: upheld keeps the games, reduced sets fewer, overturned sets 0."""
    _require_aware(now, "now")
    cites = rules.discipline_citations
    if outcome not in APPEAL_OUTCOMES:
        raise DisciplineError(
            f"Unknown outcome {outcome!r}: use one of {', '.join(APPEAL_OUTCOMES)}.",
            valid=APPEAL_OUTCOMES,
        )
    if outcome != "upheld" and is_final(suspension, now, appeals, rules=rules):
        raise DisciplineError("This suspension is final and cannot be shortened.", citation=cites.final)
    pending = [a for a in _own(suspension, appeals) if not a.decided]
    if not pending:
        raise DisciplineError(
            f"There is no appeal waiting for a decision on suspension {suspension.id}.",
            citation=cites.appeal_decision,
        )
    appeal = pending[0]
    status: SuspensionStatus = suspension.status
    if outcome == "upheld":
        if games is not None and games != suspension.games:
            raise DisciplineError(
                f"An upheld suspension keeps its {_plural(suspension.games, 'game')}; "
                "use 'reduced' to change the length."
            )
        new_games = suspension.games
        summary = f"Appeal upheld: the suspension stays at {_plural(new_games, 'game')}."
    elif outcome == "reduced":
        if games is None or not 0 < games < suspension.games:
            raise DisciplineError(
                f"A reduced suspension needs a number of games between 1 and "
                f"{suspension.games - 1} (it is {_plural(suspension.games, 'game')} now); "
                "use 'overturned' to remove it."
                if suspension.games > 1
                else "A 1-game suspension cannot be reduced; uphold or overturn it."
            )
        new_games = games
        summary = (
            f"Appeal granted in part: the suspension is reduced from "
            f"{suspension.games} to {_plural(new_games, 'game')}."
        )
    else:
        if games not in (None, 0):
            raise DisciplineError("An overturned suspension has no games; leave games empty.")
        new_games = 0
        status = "overturned"
        summary = "Appeal granted: the suspension is overturned."
    return AppealDecision(
        appeal_id=appeal.id,
        outcome=cast(AppealOutcome, outcome),
        games=new_games,
        status=status,
        decided_at=now,
        late=now > appeal_decision_due(appeal, rules=rules),
        summary=summary,
        citation=cites.final or cites.appeal_decision,
    )
