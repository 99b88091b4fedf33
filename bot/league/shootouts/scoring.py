"""Scoring a shootout attempt by attempt: whose turn it is, the score, and when it is decided."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.league.shootouts.presets import ShootoutError, ShootoutRules, Side


@dataclass(frozen=True)
class Attempt:
    """One shot in the shootout."""

    side: Side
    shooter_id: int
    scored: bool


def _opponent(side: Side) -> Side:
    return "away" if side == "home" else "home"


@dataclass(frozen=True)
class ShootoutState:
    """A shootout so far: the attempts, the score, and whether it is decided."""

    initial_rounds: int
    alternating: bool = True
    first: Side = "home"
    attempts: tuple[Attempt, ...] = ()

    @classmethod
    def begin(
        cls, rules: ShootoutRules, *, playoff: bool = False, first: Side = "home"
    ) -> ShootoutState:
        """A shootout with no attempts yet under these rules."""
        return cls(rules.initial_shooters(playoff), rules.shootout_alternating, first)

    def goals(self, side: Side) -> int:
        """Shootout goals for ``side`` (a separate statistic, youth 2.14)."""
        return sum(a.scored for a in self.attempts if a.side == side)

    def shots(self, side: Side) -> int:
        """Attempts taken by ``side``."""
        return sum(a.side == side for a in self.attempts)

    @property
    def home_goals(self) -> int:
        return self.goals("home")

    @property
    def away_goals(self) -> int:
        return self.goals("away")

    @property
    def rounds_completed(self) -> int:
        """Rounds in which both teams have shot."""
        return min(self.shots("home"), self.shots("away"))

    @property
    def sudden_death(self) -> bool:
        """Whether the initial rounds are over (tied) and single sudden-death rounds are played."""
        return self.rounds_completed >= self.initial_rounds

    @property
    def decided(self) -> bool:
        """Whether one team has won: the other cannot catch up with the shots it has left."""
        return self.winner is not None

    @property
    def winner(self) -> Side | None:
        """The winning side once decided, else None."""
        h, a = self.shots("home"), self.shots("away")
        target = max(self.initial_rounds, h, a)
        gh, ga = self.home_goals, self.away_goals
        if gh > ga + (target - a):
            return "home"
        if ga > gh + (target - h):
            return "away"
        return None

    def may_shoot(self, side: Side) -> bool:
        """Whether ``side`` may take the next attempt."""
        if self.decided:
            return False
        h, a = self.shots("home"), self.shots("away")
        done = min(h, a)
        target = self.initial_rounds if done < self.initial_rounds else done + 1
        if self.shots(side) >= target:
            return False
        return not self.alternating or side == self.next_side

    @property
    def next_side(self) -> Side | None:
        """The side due to shoot next (the one behind, else the first side); None once decided."""
        if self.decided:
            return None
        h, a = self.shots("home"), self.shots("away")
        if h == a:
            return self.first
        return "home" if h < a else "away"


def record_attempt(state: ShootoutState, side: Side, shooter_id: int, scored: bool) -> ShootoutState:
    """The shootout after one more attempt; ShootoutError if that attempt cannot happen now."""
    if state.decided:
        raise ShootoutError(
            f"The shootout is already decided: {state.winner} won "
            f"{state.home_goals}-{state.away_goals} (home-away)"
        )
    if not state.may_shoot(side):
        raise ShootoutError(f"It is not the {side} team's turn: the {_opponent(side)} team shoots next")
    return ShootoutState(
        state.initial_rounds,
        state.alternating,
        state.first,
        (*state.attempts, Attempt(side, shooter_id, scored)),
    )


def score_shootout(
    rules: ShootoutRules,
    attempts: Iterable[Attempt],
    *,
    playoff: bool = False,
    first: Side = "home",
) -> ShootoutState:
    """Replay recorded attempts (e.g. from a game sheet) into a state."""
    state = ShootoutState.begin(rules, playoff=playoff, first=first)
    for a in attempts:
        state = record_attempt(state, a.side, a.shooter_id, a.scored)
    return state
