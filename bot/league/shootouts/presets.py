"""Each preset's shootout numbers, each with its citation, and the words every shootout module shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Side = Literal["home", "away"]


class ShootoutError(ValueError):
    """No legal order exists, or an attempt does not fit the shootout so far."""


@dataclass(frozen=True)
class ShootoutCitations:
    """Where each shootout rule comes from; quoted in every violation."""

    initial: str = "Shootout rules"
    initial_playoff: str = "Shootout rules"
    women_initial: str = "Shootout rules"
    women_blocks: str = "Shootout rules"
    no_repeat: str = "Shootout rules"
    eligibility: str = "Shootout rules"
    goalie_change: str = "Shootout rules"
    # Where the rulebook contradicts itself on the playoff shooters: the other section, and how many it
    # gives ("" / 0: no contradiction). Cited wherever the count is applied.
    initial_playoff_other: str = ""
    initial_playoff_other_count: int = 0


@dataclass(frozen=True)
class ShootoutRules:
    """A league's shootout settings (flat ``shootout_*`` keys, overridable in config)."""

    # Co-ed "Shootouts": "Teams will select 3 players to shoot"; youth 2.13B: "three players from
    # each team"; indoor "Overtime": "a 4-person shootout".
    shootout_initial_shooters: int = 3
    # Youth 1.19 says playoff ties go to "a 5-round shootout", contradicting 2.13B (3 shooters in a
    # playoff game); youth shootouts only happen in playoffs (2.13A), so this setting decides.
    # Co-ed: "followed for all regulation and playoff games" (3); indoor: playoffs only (4).
    shootout_initial_shooters_playoff: int = 3
    # Co-ed "Shootouts": "at least 1 of these 3 shooters must be female or non-binary".
    shootout_min_women_initial: int = 0
    # Co-ed "Shoot-Out Format past first 3 shooters": "For every 3 shooters after the initial 3, at
    # least 1 must be female or non-binary". Block size 0 = no blocks.
    shootout_block_size: int = 0
    # Women/non-binary shooters required in each such block of shooters.
    shootout_min_women_per_block: int = 0
    # Co-ed: "all of your players have to shoot before you can repeat a player"; youth 2.14: "a
    # player cannot take more than one shot until all shooters on his team have shot"; indoor: the
    # rulebook is silent, the same rule is assumed (set False to allow repeats).
    shootout_no_repeat_until_all_shot: bool = True
    # Co-ed: "Teams match the roster size and make-up of the smaller team" (see module docstring).
    shootout_match_smaller_team: bool = False
    # Indoor "Overtime": "Only players on the floor at the end of the second overtime period are
    # eligible for the shootout".
    shootout_only_players_on_floor: bool = False
    # Indoor "Substitutions": "Goalies may not be substituted during shootout". Others: silent.
    shootout_goalie_may_change: bool = True
    # No rulebook excludes goalies from shooting; co-ed says "all of your players" must shoot.
    shootout_goalies_may_shoot: bool = True
    # Co-ed: "teams will shoot back and forth"; indoor: "rotating between teams after each shot";
    # youth: silent, penalty-shot shootouts alternate by convention.
    shootout_alternating: bool = True
    shootout_citations: ShootoutCitations = field(default_factory=ShootoutCitations)

    def initial_shooters(self, playoff: bool = False) -> int:
        """Shooters per team before sudden death."""
        return self.shootout_initial_shooters_playoff if playoff else self.shootout_initial_shooters

    def initial_citation(self, playoff: bool = False) -> str:
        """The rule that sets ``initial_shooters(playoff)``; where the rulebook contradicts itself, both
        sections, and which one this league applies (youth 1.19 five rounds vs 2.13B three shooters)."""
        c = self.shootout_citations
        if not playoff:
            return c.initial
        n = self.shootout_initial_shooters_playoff
        if not c.initial_playoff_other:
            return c.initial_playoff
        if c.initial_playoff_other_count != n:
            other = f"{c.initial_playoff_other} says {c.initial_playoff_other_count}"
            return f"{c.initial_playoff}; {other}: this league applies {n}"
        return f"{c.initial_playoff_other}; {c.initial_playoff} differs: this league applies {n}"

    def other_reading(self, playoff: bool, shooters: int) -> str | None:
        """When an order follows the rulebook's other reading: which rule the league applies, and how a
        commissioner changes it. None otherwise."""
        c = self.shootout_citations
        if not (playoff and c.initial_playoff_other and shooters == c.initial_playoff_other_count
                and shooters != self.shootout_initial_shooters_playoff):
            return None
        return (f"Your order follows {c.initial_playoff_other} ({c.initial_playoff_other_count} shooters); this "
                f"league applies {c.initial_playoff} ({self.shootout_initial_shooters_playoff}). A commissioner "
                f"can change it: /setup rule key:shootout_initial_shooters_playoff "
                f"value:{c.initial_playoff_other_count}")


_COED_SHOOTOUTS = "Co-ed rules: Shootouts"
_COED_PAST_3 = "Co-ed rules: Shoot-Out Format past first 3 shooters"
_INDOOR_OT = "Indoor soccer rules: Overtime"

SHOOTOUT_PRESETS: dict[str, ShootoutRules] = {
    "coed-ball-hockey": ShootoutRules(
        shootout_initial_shooters=3,
        shootout_initial_shooters_playoff=3,
        shootout_min_women_initial=1,
        shootout_block_size=3,
        shootout_min_women_per_block=1,
        shootout_no_repeat_until_all_shot=True,
        shootout_match_smaller_team=True,
        shootout_only_players_on_floor=False,
        shootout_goalie_may_change=True,
        shootout_goalies_may_shoot=True,
        shootout_alternating=True,
        shootout_citations=ShootoutCitations(
            initial=_COED_SHOOTOUTS,
            initial_playoff=_COED_SHOOTOUTS,
            women_initial=_COED_SHOOTOUTS,
            women_blocks=_COED_PAST_3,
            no_repeat=_COED_PAST_3,
            eligibility=_COED_SHOOTOUTS,
            goalie_change="",  # rulebook silent: the goalie may change
        ),
    ),
    "youth-ball-hockey": ShootoutRules(
        shootout_initial_shooters=3,
        shootout_initial_shooters_playoff=5,
        shootout_min_women_initial=0,
        shootout_block_size=0,
        shootout_min_women_per_block=0,
        shootout_no_repeat_until_all_shot=True,
        shootout_match_smaller_team=False,
        shootout_only_players_on_floor=False,
        shootout_goalie_may_change=True,
        shootout_goalies_may_shoot=True,
        shootout_alternating=True,
        shootout_citations=ShootoutCitations(
            initial="Youth rules 2.13B",
            initial_playoff="Youth rules 1.19",
            # Youth 1.19 "a 5-round shootout" vs 2.13B "three players from each team" in a playoff game.
            initial_playoff_other="Youth rules 2.13B",
            initial_playoff_other_count=3,
            women_initial="Youth rules 2.13B",
            women_blocks="Youth rules 2.13B",
            no_repeat="Youth rules 2.14",
            eligibility="Youth rules 2.14",
            goalie_change="",  # rulebook silent: the goalie may change
        ),
    ),
    "indoor-soccer": ShootoutRules(
        shootout_initial_shooters=4,
        shootout_initial_shooters_playoff=4,
        shootout_min_women_initial=0,
        shootout_block_size=0,
        shootout_min_women_per_block=0,
        shootout_no_repeat_until_all_shot=True,
        shootout_match_smaller_team=False,
        shootout_only_players_on_floor=True,
        shootout_goalie_may_change=False,
        shootout_goalies_may_shoot=True,
        shootout_alternating=True,
        shootout_citations=ShootoutCitations(
            initial=_INDOOR_OT,
            initial_playoff=_INDOOR_OT,
            women_initial=_INDOOR_OT,
            women_blocks=_INDOOR_OT,
            no_repeat=_INDOOR_OT,
            eligibility=_INDOOR_OT,
            goalie_change="Indoor soccer rules: Substitutions, “Goalies may not be substituted during shootout”",
        ),
    ),
}

