"""How long a suspension for an infraction may be: the range its class carries in the rulebook.

Co-ed "Severe offenses (1 game – 5 game suspensions)": a suspension for slashing is 1 to 5 games, so
8 is refused, whoever asks. Only a rulebook that gives the commissioners the power to go beyond a
stated length lets them (youth 1.12: the commissioners "may decrease/increase the suspension"; 1.13:
they "hold the final decision on all suspensions"); the answer then says which rule they used.
An infraction with no stated length (a co-ed extreme offence, most youth calls) has no range to keep,
and a suspension given for no catalogued infraction (an incident the commissioners investigated)
has none either.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.discipline.infractions import DisciplineError, Infraction
from bot.league.discipline.presets import DisciplineRules


@dataclass(frozen=True)
class SuspensionLength:
    """A length that may stand: inside the infraction's range, or beyond it by the rule in ``beyond``."""

    games: int
    infraction: Infraction | None
    beyond: str = ""  # the rule that lets the commissioners go beyond the range ("" when inside it)

    @property
    def note(self) -> str:
        """For the commissioner: that the length is outside the rulebook's range, and the rule that allows it."""
        if not self.beyond or self.infraction is None or self.infraction.suspension_games is None:
            return ""
        return (f"That is outside the {_span(self.infraction.suspension_games)} the rulebook gives "
                f"{self.infraction.name.lower()} ({self.infraction.citation}); the commissioners may set it "
                f"({self.beyond}).")


def _span(games: tuple[int, int]) -> str:
    low, high = games
    return f"{low} game{'s' if low != 1 else ''}" if low == high else f"{low} to {high} games"


def suspension_length(rules: DisciplineRules, infraction: Infraction | None, games: int, *,
                      by_commissioner: bool) -> SuspensionLength:
    """The length if it may stand, else a DisciplineError that quotes the range and its rule.

    A referee never goes beyond the range; a commissioner only where the rulebook says so
    (``discipline_commissioner_may_exceed_range``)."""
    if infraction is None or infraction.suspension_games is None:
        return SuspensionLength(games, infraction)
    low, high = infraction.suspension_games
    if low <= games <= high:
        return SuspensionLength(games, infraction)
    power = rules.discipline_citations.exceed_range or "a league setting"
    if by_commissioner and rules.discipline_commissioner_may_exceed_range:
        return SuspensionLength(games, infraction, beyond=power)
    who = "the commissioners" if by_commissioner else "a referee"
    raise DisciplineError(
        f"A suspension for {infraction.name.lower()} is {_span((low, high))} ({infraction.citation}), not "
        f"{games}, and this league's rulebook doesn't let {who} go beyond it. Nothing changed.")
