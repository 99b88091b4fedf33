"""What a call costs: `apply_penalty` runs the preset's escalations, one named step each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bot.league.discipline.infractions import Category, DisciplineError, Infraction, find_infraction
from bot.league.discipline.lengths import suspension_length
from bot.league.discipline.presets import DisciplineRules

ConsequenceKind = Literal["penalty", "ejection", "game_misconduct", "suspension", "review", "note"]

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
    # Games of suspension to record now (the minimum when the league sets the length; held at the
    # referee's limit when the call asks for more, youth 1.12).
    suspension_games: int
    # (fewest, most) when the league sets the length; None otherwise.
    suspension_range: tuple[int, int] | None
    # The league (commissioner) must review: possible or longer suspension.
    pending_review: bool
    consequences: tuple[Consequence, ...]
    summary: str
    record: PenaltyRecord
    # Games the call itself asks for (the catalogue's or the referee's), before the referee's limit.
    suspension_asked: int = 0


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


def _crossed(before: int, after: int, threshold: int | None) -> bool:
    return threshold is not None and before < threshold <= after


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"



@dataclass
class _Ruling:
    """What a call adds up to so far, as each step below finds it."""

    infraction: Infraction
    consequences: list[Consequence] = field(default_factory=list)
    ejected: bool = False
    game_misconduct: bool = False
    suspension_games: int = 0
    suspension_asked: int = 0
    suspension_range: tuple[int, int] | None = None
    pending_review: bool = False
    # A consequence already says the commissioner reviews it (said once, not per reason).
    said_review: bool = False

    def add(self, kind: ConsequenceKind, text: str, citation: str) -> None:
        self.consequences.append(Consequence(kind, text, citation))

    def suspend(self, games: int) -> None:
        """Several automatic suspensions from one call do not add up: the longest applies."""
        self.suspension_games = max(self.suspension_games, games)

    def review(self) -> None:
        self.pending_review = self.said_review = True


def apply_penalty(
    rules: DisciplineRules,
    catalogue: Sequence[Infraction],
    prior_penalties_in_game_for_player: Sequence[PenaltyRecord],
    infraction_key: str,
    minute: int | None,
    game_length_minutes: int,
    referee_games: int | None = None,
) -> PenaltyOutcome:
    """Apply a call and the preset's escalations; every consequence cites its rule.

    `minute` is the elapsed game minute (None if unknown); `game_length_minutes` is regulation
    length (`GameFormat.regulation_minutes`); `referee_games` is a suspension the referee gives on
    top of the rulebook's, in games (youth 1.12: "penalties or suspensions ... deemed necessary").
    """
    called = find_infraction(catalogue, infraction_key)
    if minute is not None and minute < 0:
        raise DisciplineError(f"The minute must be 0 or later, not {minute}.")
    if game_length_minutes <= 0:
        raise ValueError(f"game_length_minutes must be positive, not {game_length_minutes}")
    prior = list(prior_penalties_in_game_for_player)
    infraction = _repeat_called_as(called, catalogue, prior)
    current = PenaltyRecord(infraction.key, infraction.category, minute)
    ruling = _Ruling(infraction, game_misconduct=infraction.category == "game_misconduct")

    _penalty_time(ruling, called)
    _ejection(ruling)
    _game_misconduct_by_count(ruling, rules, prior, current)
    _late_in_the_game(ruling, rules, minute, game_length_minutes)
    _suspension_the_infraction_carries(ruling)
    _the_referees_suspension(ruling, rules, referee_games)
    ruling.suspension_asked = ruling.suspension_games
    _beyond_the_referees_limit(ruling, rules)
    _reported_to_the_league(ruling, rules, prior)
    if ruling.ejected and rules.discipline_no_substitute_for_ejected:
        ruling.add("note", "Substitutions may not be made for ejected players: the team plays one short for "
                           "the rest of the game", rules.discipline_citations.no_substitute_for_ejected)

    # A rule turned on by a league's override has no rulebook citation: say where it comes from.
    out = [replace(c, citation=c.citation or _LEAGUE_SETTING) for c in ruling.consequences]
    return PenaltyOutcome(
        called=called.key,
        infraction=infraction,
        minutes=infraction.minutes,
        ejected=ruling.ejected,
        game_misconduct=ruling.game_misconduct,
        suspension_games=ruling.suspension_games,
        suspension_range=ruling.suspension_range,
        pending_review=ruling.pending_review,
        consequences=tuple(out),
        summary=f"{called.name}: " + "; ".join(c.text for c in out),
        record=current,
        suspension_asked=ruling.suspension_asked,
    )


def _repeat_called_as(called: Infraction, catalogue: Sequence[Infraction],
                      prior: Sequence[PenaltyRecord]) -> Infraction:
    """A warning repeated in the same game is called as its minor (youth 3.2, `repeat_becomes`)."""
    if called.repeat_becomes is not None and any(
        p.infraction_key in (called.key, called.repeat_becomes) for p in prior
    ):
        return find_infraction(catalogue, called.repeat_becomes)
    return called


def _penalty_time(ruling: _Ruling, called: Infraction) -> None:
    """The penalty itself: a warning, a yellow card, or the category and its minutes."""
    infraction = ruling.infraction
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
    if infraction is not called:
        text = f"repeated in this game: {text.replace(label, f'{label} instead of a warning', 1)}"
        citation = f"{called.citation}; {infraction.citation}"
    ruling.add("penalty", text, citation)


def _ejection(ruling: _Ruling) -> None:
    """Infractions that put the player out of the game for good."""
    if ruling.infraction.ejection:
        ruling.ejected = True
        ruling.add("ejection", "ejected from the game", ruling.infraction.citation)


def _game_misconduct_by_count(ruling: _Ruling, rules: DisciplineRules, prior: Sequence[PenaltyRecord],
                              current: PenaltyRecord) -> None:
    """Youth 3.11 (1)-(3): so many majors, 10-minute misconducts or minors in one game."""
    cites = rules.discipline_citations
    counted = (
        ({"major": 1}, rules.discipline_game_misconduct_after_majors, "major",
         cites.game_misconduct_after_majors),
        ({"misconduct_10": 1}, rules.discipline_game_misconduct_after_misconducts, "10-minute misconduct",
         cites.game_misconduct_after_misconducts),
        ({"minor": 1, "double_minor": rules.discipline_minors_per_double_minor},
         rules.discipline_game_misconduct_after_minors, "minor", cites.game_misconduct_after_minors),
    )
    for weights, threshold, what, cite in counted:
        before = _count(prior, weights)
        after = before + _count([current], weights)
        if not _crossed(before, after, threshold):
            continue
        if ruling.infraction.category == "double_minor" and after - before > 1:
            reason = f"double minor makes {after} minors"
        else:
            reason = f"{_ordinal(after)} {what}"
        ruling.add("game_misconduct", f"{reason}: game misconduct" + ("" if ruling.ejected else ", ejected"), cite)
        ruling.game_misconduct = ruling.ejected = True


def _late_in_the_game(ruling: _Ruling, rules: DisciplineRules, minute: int | None, game_length_minutes: int) -> None:
    """Youth 3.9 and 3.10 notes: a major or a 10-minute misconduct in the game's last minutes."""
    cites = rules.discipline_citations
    late_rules = (
        ("major", rules.discipline_late_major_minutes, rules.discipline_late_major_suspension_games,
         False, "major", cites.late_major),
        ("misconduct_10", rules.discipline_late_misconduct_minutes, rules.discipline_late_misconduct_suspension_games,
         rules.discipline_late_misconduct_pending_review, "10-minute misconduct", cites.late_misconduct),
    )
    for category, window, games, review, what, cite in late_rules:
        if ruling.infraction.category != category or window is None:
            continue
        if minute is None:
            ruling.add("note", f"no minute given: the last-{window}-minutes rule was not checked", cite)
            continue
        if minute < game_length_minutes - window:
            continue
        parts = [] if ruling.ejected else ["ejected"]
        if games:
            parts.append(f"automatic {games}-game suspension")
            ruling.suspend(games)
        if review:
            parts.append("pending the commissioner's review")
            ruling.review()
        ruling.ejected = True
        text = f"{what} in the last {window} minutes: " + ", ".join(parts or ["ejected"])
        ruling.add("suspension" if games else "ejection", text, cite)


def _suspension_the_infraction_carries(ruling: _Ruling) -> None:
    """Automatic when the catalogue gives one length; a range is for the league to set (minimum now)."""
    infraction = ruling.infraction
    if infraction.suspension_games is None:
        return
    low, high = infraction.suspension_games
    ruling.suspend(low)
    if low == high:
        text = f"automatic {low}-game suspension"
    else:
        ruling.suspension_range = (low, high)
        ruling.review()
        text = f"suspension of {low}-{high} games, length set by the league"
    ruling.add("suspension", text, infraction.citation)


def _the_referees_suspension(ruling: _Ruling, rules: DisciplineRules, games: int | None) -> None:
    """A suspension the referee gives for the call (youth 1.12), in games: never longer than the rulebook
    gives the infraction (co-ed severe offences: at most 5); a shorter one leaves its minimum standing."""
    if games is None:
        return
    if games < 1:
        raise DisciplineError(f"A referee's suspension is at least 1 game, not {games}.")
    carried = ruling.infraction.suspension_games
    if carried is not None and games > carried[1]:
        suspension_length(rules, ruling.infraction, games, by_commissioner=False)
    ruling.suspend(games)
    ruling.add("suspension", f"referee's suspension: {_plural(games, 'game')}",
               rules.discipline_citations.referee_max_suspension)


def _beyond_the_referees_limit(ruling: _Ruling, rules: DisciplineRules) -> None:
    """Youth 1.12: a referee suspends for at most so many games; the rest waits for the commissioner.

    The suspension is held at the limit (in force at once) and marked pending review: a commissioner
    confirms it, sets its length (the asked length, or another) or lifts it.
    """
    limit = rules.discipline_referee_max_suspension_games
    if limit is None or ruling.suspension_games <= limit:
        return
    asked = ruling.suspension_games
    ruling.suspension_games = limit
    ruling.add("review", f"held at {_plural(limit, 'game')} (a referee's limit) until the commissioner reviews "
                         f"the {_plural(asked, 'game')} asked", rules.discipline_citations.referee_max_suspension)
    ruling.review()


def _reported_to_the_league(ruling: _Ruling, rules: DisciplineRules, prior: Sequence[PenaltyRecord]) -> None:
    """Categories the league always reviews, and the n-th infraction of any kind in a game (written up)."""
    cites = rules.discipline_citations
    reasons: list[tuple[str, str]] = []
    if ruling.infraction.category in rules.discipline_review_categories or (
        ruling.game_misconduct and "game_misconduct" in rules.discipline_review_categories
    ):
        reasons.append(("reported to the league: possible suspension", cites.review))
    if _crossed(len(prior), len(prior) + 1, rules.discipline_review_after_infractions):
        reasons.append((f"{_ordinal(len(prior) + 1)} infraction in this game: written up", cites.repeated))
    if not reasons:
        return
    ruling.pending_review = True
    if not ruling.said_review:
        ruling.add("review", *reasons[0])
    for text, cite in reasons[1:]:
        ruling.add("review", text, cite)


def _count(records: Iterable[PenaltyRecord], categories: dict[str, int]) -> int:
    return sum(categories.get(r.category, 0) for r in records)
