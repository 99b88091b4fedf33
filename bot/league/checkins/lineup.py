"""Checking a team's lineup for a game: who counts, who goes in goal, and whether the team can start."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from bot.league.checkins.presets import LineupRules

Position = Literal["skater", "goalie"]
Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]

_POSITIONS: frozenset[str] = frozenset(get_args(Position))
_GENDERS: frozenset[str] = frozenset(get_args(Gender))
_COUNTS_TOWARD_WOMEN_NONBINARY: frozenset[str] = frozenset({"woman", "non-binary"})

# Finding codes: stable, one per distinct problem (the reminders alert captains once per code).
EXCLUDED_SUSPENDED = "excluded_suspended"
EXCLUDED_UNROSTERED = "excluded_unrostered"
EXCLUDED_GUEST_UNAPPROVED = "excluded_guest_unapproved"
NO_GOALIE = "no_goalie"
SHORT_OF_WOMEN = "short_of_women"
SHORT_OF_SKATERS = "short_of_skaters"
BELOW_MINIMUM_TO_START = "below_minimum_to_start"
ROSTER_LIMIT = "roster_limit"

FINDING_CODES: tuple[str, ...] = (
    EXCLUDED_SUSPENDED,
    EXCLUDED_UNROSTERED,
    EXCLUDED_GUEST_UNAPPROVED,
    NO_GOALIE,
    SHORT_OF_WOMEN,
    SHORT_OF_SKATERS,
    BELOW_MINIMUM_TO_START,
    ROSTER_LIMIT,
)


@dataclass(frozen=True)
class Finding:
    """One problem with a lineup or roster, and the rule that makes it a problem."""

    code: str
    message: str
    rule: str


@dataclass(frozen=True)
class CheckedInPlayer:
    """A player who said they are in for the game."""

    player_id: int
    name: str
    position: Position
    gender: Gender | None
    rostered: bool = True
    suspended: bool = False
    guest_approved: bool = False

    def __post_init__(self) -> None:
        if self.position not in _POSITIONS:
            raise ValueError(f"position must be one of {sorted(_POSITIONS)}, not {self.position!r}")
        if self.gender is not None and self.gender not in _GENDERS:
            raise ValueError(
                f"gender must be one of {sorted(_GENDERS)} or None, not {self.gender!r}"
            )

    @property
    def counts_toward_women_nonbinary(self) -> bool:
        """Woman and non-binary count toward on-court minimums; unknown does not."""
        return self.gender in _COUNTS_TOWARD_WOMEN_NONBINARY


@dataclass(frozen=True)
class ExcludedPlayer:
    """A checked-in player who may not play, and why (the finding code)."""

    player: CheckedInPlayer
    code: str
    reason: str


@dataclass(frozen=True)
class LineupReport:
    """What a team may put on the court from its check-ins, and what is wrong."""

    # Skaters on a full court, and how many of them must be women/non-binary.
    skater_spots: int
    women_nonbinary_required: int
    # Eligible women/non-binary who are not in goal.
    women_nonbinary_available: int
    # The most skaters the team may put on the court now.
    skaters_allowed: int
    # skater_spots - skaters_allowed, split by cause.
    short_by: int
    short_because_of_women_rule: int
    short_because_too_few_skaters: int
    # The player in goal; a stand-in is a skater put in goal because no goalie checked in.
    goalie: CheckedInPlayer | None
    goalie_is_stand_in: bool
    # Every eligible player except the one in goal, in check-in order.
    eligible_skaters: tuple[CheckedInPlayer, ...]
    # A legal unit of `skaters_allowed` skaters: the required women/non-binary first, then the
    # rest in check-in order.
    starting_skaters: tuple[CheckedInPlayer, ...]
    excluded: tuple[ExcludedPlayer, ...]
    minimum_to_start_met: bool
    findings: tuple[Finding, ...]

    @property
    def codes(self) -> frozenset[str]:
        """The distinct problems found."""
        return frozenset(finding.code for finding in self.findings)

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.findings


def check_roster_limit(rules: LineupRules, roster_size: int) -> Finding | None:
    """A finding when a roster of this size breaks the league's roster limit."""
    if rules.roster_limit is None or roster_size <= rules.roster_limit:
        return None
    return Finding(
        ROSTER_LIMIT,
        f"The roster has {_count(roster_size, 'player')}; the limit is {rules.roster_limit}.",
        _cite(rules.citations.roster, "roster_limit"),
    )


def check_lineup(
    rules: LineupRules,
    players: Iterable[CheckedInPlayer],
    *,
    roster_size: int | None = None,
) -> LineupReport:
    """Check a team's check-ins against the lineup rules (and the roster limit, given its size)."""
    findings: list[Finding] = []
    eligible: list[CheckedInPlayer] = []
    excluded: list[ExcludedPlayer] = []
    seen: set[int] = set()
    for player in players:
        if player.player_id in seen:
            continue
        seen.add(player.player_id)
        refusal = _refusal(rules, player)
        if refusal is None:
            eligible.append(player)
        else:
            excluded.append(ExcludedPlayer(player, refusal.code, refusal.message))
            findings.append(refusal)

    spots = rules.skater_spots
    required = rules.women_nonbinary_on_court
    goalie, stand_in = _pick_goalie(eligible, required)
    pool = tuple(p for p in eligible if p is not goalie)
    women = sum(p.counts_toward_women_nonbinary for p in pool)
    goalie_counts = goalie is not None and not stand_in and goalie.counts_toward_women_nonbinary
    if rules.goalie_counts_toward_women_nonbinary and goalie_counts:
        women += 1
    women_shortfall = max(0, required - women)
    cap = spots - women_shortfall if rules.plays_short_when_short_of_women else spots
    allowed = min(cap, len(pool))

    if goalie is None or stand_in:
        findings.append(_no_goalie(rules, goalie))
    if women_shortfall:
        findings.append(_short_of_women(rules, women, cap, other_reading_enough=(
            goalie_counts and not rules.goalie_counts_toward_women_nonbinary and women + 1 >= required)))
    if len(pool) < cap:
        findings.append(
            Finding(
                SHORT_OF_SKATERS,
                f"Only {_count(len(pool), 'eligible skater')} checked in for "
                f"{_count(cap, 'skater spot')}: {cap - len(pool)} short.",
                _cite(rules.citations.court, "players_on_court"),
            )
        )
    minimum_met, minimum_finding = _minimum_to_start(rules, goalie, len(pool), stand_in)
    if minimum_finding is not None:
        findings.append(minimum_finding)
    if women_shortfall and not rules.plays_short_when_short_of_women:
        minimum_met = False
    if roster_size is not None and (roster := check_roster_limit(rules, roster_size)):
        findings.append(roster)

    return LineupReport(
        skater_spots=spots,
        women_nonbinary_required=required,
        women_nonbinary_available=women,
        skaters_allowed=allowed,
        short_by=spots - allowed,
        short_because_of_women_rule=spots - cap,
        short_because_too_few_skaters=cap - allowed,
        goalie=goalie,
        goalie_is_stand_in=stand_in,
        eligible_skaters=pool,
        starting_skaters=_starting_skaters(pool, required, allowed),
        excluded=tuple(excluded),
        minimum_to_start_met=minimum_met,
        findings=tuple(findings),
    )


def _refusal(rules: LineupRules, player: CheckedInPlayer) -> Finding | None:
    if player.suspended:
        return Finding(
            EXCLUDED_SUSPENDED,
            f"{player.name} is suspended and cannot play.",
            rules.citations.suspension or "League suspension",
        )
    if player.rostered:
        return None
    if not rules.guests_allowed:
        return Finding(
            EXCLUDED_UNROSTERED,
            f"{player.name} is not on the roster, and this league has no guest players.",
            _cite(rules.citations.guests, "guests_allowed"),
        )
    if rules.guests_need_approval and not player.guest_approved:
        return Finding(
            EXCLUDED_GUEST_UNAPPROVED,
            f"{player.name} is not on the roster and has no staff approval to play as a guest.",
            _cite(rules.citations.guests, "guests_need_approval"),
        )
    return None


def _pick_goalie(
    eligible: list[CheckedInPlayer], required: int
) -> tuple[CheckedInPlayer | None, bool]:
    """The player in goal and whether they are a skater standing in."""
    goalies = [p for p in eligible if p.position == "goalie"]
    skaters = [p for p in eligible if p.position == "skater"]
    if goalies:
        first = goalies[0]
        others = [p for p in eligible if p is not first]
        if (
            first.counts_toward_women_nonbinary
            and sum(p.counts_toward_women_nonbinary for p in others) < required
        ):
            for goalie in goalies:
                if not goalie.counts_toward_women_nonbinary:
                    return goalie, False
        return first, False
    if not skaters:
        return None, False
    for skater in skaters:
        if not skater.counts_toward_women_nonbinary:
            return skater, True
    return skaters[0], True


def _starting_skaters(
    pool: tuple[CheckedInPlayer, ...], required: int, allowed: int
) -> tuple[CheckedInPlayer, ...]:
    first = [p for p in pool if p.counts_toward_women_nonbinary][:required]
    rest = [p for p in pool if p not in first]
    return tuple((first + rest)[:allowed])


def _no_goalie(rules: LineupRules, stand_in: CheckedInPlayer | None) -> Finding:
    if stand_in is None:
        message = "No goalie checked in, and no skater to stand in goal."
    else:
        message = (
            "No goalie checked in: one of the skaters will have to play goal "
            "(the counts here assume one does)."
        )
    if rules.goalie_required_to_start:
        message += " A goalie is needed to start the game: a skater standing in doesn't count."
    return Finding(NO_GOALIE, message, _cite(rules.citations.goalie, "players_on_court"))


def _short_of_women(rules: LineupRules, available: int, cap: int, *,
                    other_reading_enough: bool = False) -> Finding:
    required = rules.women_nonbinary_on_court
    if rules.goalie_counts_toward_women_nonbinary:
        counted, one, many = "the goalie counts too", "woman/non-binary player", "women/non-binary players"
    else:
        counted, one, many = "the goalie does not count", "woman/non-binary skater", "women/non-binary skaters"
    message = f"{_count(available, one, many)} checked in; {required} required on the court ({counted})"
    if rules.plays_short_when_short_of_women:
        message += f": play short, at most {_count(cap, 'skater')} plus the goalie."
    else:
        message += ", and this league does not allow playing short: the team cannot start."
    cite = _cite(rules.citations.women_nonbinary, "women_nonbinary_on_court")
    other = rules.citations.goalie_counts_other
    if other:
        applied = "counts" if rules.goalie_counts_toward_women_nonbinary else "doesn't count"
        cite = f"{cite}; {other} reads it the other way: this league {applied} the goalie"
        if other_reading_enough:
            message += (f" Your woman/non-binary goalie would count under {other}; this league applies "
                        f"{rules.citations.women_nonbinary} (not the goalie). A commissioner can change it: "
                        "/setup rule key:goalie_counts_toward_women_nonbinary value:true")
    return Finding(SHORT_OF_WOMEN, message, cite)


def start_requirements(
    rules: LineupRules, goalie: CheckedInPlayer | None, skaters: int, *, stand_in: bool = False
) -> tuple[bool, tuple[str, ...], tuple[str, ...]]:
    """Whether these counts meet the minimum to start, what it needs and what the team has, in words: the
    one check /lineup, /whoisin, the captains' alert and the findings all read.

    Where the preset needs a goalie to start (youth 2.4: "a minimum of 3 players and one goalie to
    start the game"), a skater standing in goal is no goalie: they count as a skater, and the team has
    no goalie. Where the rulebook sets no minimum (co-ed: a short team plays short) ``needs`` is empty,
    and the team still needs someone in goal and one skater beside them to take the court at all.
    """
    if stand_in and goalie is not None and rules.goalie_required_to_start:
        goalie, skaters, stand_in = None, skaters + 1, False
    needs: list[str] = []
    has: list[str] = []
    met = True
    players = skaters + int(goalie is not None)
    if rules.min_skaters_to_start is not None:
        needs.append(_count(rules.min_skaters_to_start, "skater"))
        has.append(_count(skaters, "skater"))
        met &= skaters >= rules.min_skaters_to_start
    if rules.goalie_required_to_start:
        needs.append("a goalie")
        has.append("no goalie" if goalie is None else "a goalie")
        met &= goalie is not None
    if rules.min_players_to_start is not None:
        needs.append(_count(rules.min_players_to_start, "player"))
        has.append(_count(players, "player"))
        met &= players >= rules.min_players_to_start
    if not needs:
        has.append(_count(players, "eligible player"))
        met = goalie is not None and skaters >= 1
    return met, tuple(needs), tuple(has)


def start_citation(rules: LineupRules) -> str:
    """The rule behind the minimum to start (youth 2.4), or where the rulebook sets none, the court's."""
    if rules.min_skaters_to_start is None and rules.min_players_to_start is None \
            and not rules.goalie_required_to_start:
        return _cite(rules.citations.court, "players_on_court")
    key = "min_players_to_start" if rules.min_skaters_to_start is None else "min_skaters_to_start"
    return _cite(rules.citations.start, key)


def _minimum_to_start(
    rules: LineupRules, goalie: CheckedInPlayer | None, skaters: int, stand_in: bool
) -> tuple[bool, Finding | None]:
    met, needs, has = start_requirements(rules, goalie, skaters, stand_in=stand_in)
    if met:
        return True, None
    if not needs:  # no minimum in the rulebook, and still nobody to put on the court
        message = ("Nobody eligible checked in: the team can't take the court." if goalie is None else
                   f"Only {has[0]} checked in: nobody to skate beside the one in goal.")
        return False, Finding(BELOW_MINIMUM_TO_START, message, start_citation(rules))
    message = f"Not enough to start: needs {' and '.join(needs)}; has {' and '.join(has)}."
    message += _late_start_consequence(rules)
    return False, Finding(BELOW_MINIMUM_TO_START, message, start_citation(rules))


def _late_start_consequence(rules: LineupRules) -> str:
    parts: list[str] = []
    if rules.start_grace_minutes is not None:
        minutes = rules.start_grace_minutes
        grace = f" Still short at the scheduled start: a {minutes}-minute grace period"
        if rules.late_start_bench_minor_minutes is not None:
            grace += (
                f", then a {rules.late_start_bench_minor_minutes}-minute bench minor"
                " to start the game"
            )
        parts.append(grace + ".")
    if rules.forfeit_after_minutes is not None:
        parts.append(
            f" Still short {rules.forfeit_after_minutes} minutes after the scheduled start:"
            " the team forfeits."
        )
    return "".join(parts)


def _cite(citation: str, key: str) -> str:
    """The rulebook citation, or the league setting when the rulebook is silent."""
    return citation or f"League setting: {key}"


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
