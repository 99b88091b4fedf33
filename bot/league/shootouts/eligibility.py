"""Who may shoot, and how many shooters (and women or non-binary players) an order needs."""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.shootouts.presets import ShootoutRules


@dataclass(frozen=True)
class Shooter:
    """A player who might shoot; ``counts_as_woman`` covers women and non-binary players."""

    player_id: int
    name: str
    counts_as_woman: bool
    position: str = "skater"
    on_floor: bool = True


@dataclass(frozen=True)
class ShootoutPool:
    """A team's players who may take part (checked in, rostered, not suspended)."""

    eligible: tuple[Shooter, ...] = ()


@dataclass(frozen=True)
class Violation:
    """One reason an order is not allowed, in a captain's words, with the rule it breaks."""

    code: str
    message: str
    rule: str
    position: int | None


@dataclass(frozen=True)
class ShootoutRequirements:
    """What a team's order must satisfy once both teams' pools are known."""

    initial_shooters: int
    # Whether women/non-binary players are counted separately (the league has quotas).
    gendered: bool
    # Different W/NB and other players a round must include (see module docstring, 2-3).
    women_per_round: int
    others_per_round: int
    # Different shooters a round must include in all (never fewer than the initial group).
    shooters_per_round: int
    # Effective W/NB minimums (0 when waived).
    min_women_initial: int
    block_size: int
    min_women_per_block: int
    # The league has W/NB minimums but the matched make-up has no W/NB players.
    women_quota_waived: bool
    # The round was lowered to match the other team.
    matched: bool


def eligible_shooters(rules: ShootoutRules, pool: ShootoutPool | None) -> tuple[Shooter, ...]:
    """The pool's players who may shoot under these rules (first entry wins for duplicate ids)."""
    if pool is None:
        return ()
    seen: set[int] = set()
    out: list[Shooter] = []
    for s in pool.eligible:
        if s.player_id in seen:
            continue
        seen.add(s.player_id)
        if exclusion(rules, s) is None:
            out.append(s)
    return tuple(out)


def exclusion(rules: ShootoutRules, s: Shooter) -> str | None:
    """Why the rules keep a present player from shooting (a code), or None when they may."""
    if rules.shootout_only_players_on_floor and not s.on_floor:
        return "not_on_floor"
    if not rules.shootout_goalies_may_shoot and s.position == "goalie":
        return "goalie_may_not_shoot"
    return None


def _is_gendered(rules: ShootoutRules) -> bool:
    blocks = rules.shootout_block_size > 0 and rules.shootout_min_women_per_block > 0
    return rules.shootout_min_women_initial > 0 or blocks


def shootout_requirements(
    rules: ShootoutRules,
    own_pool: ShootoutPool,
    other_pool: ShootoutPool | None = None,
    playoff: bool = False,
) -> ShootoutRequirements:
    """Derive a team's round size and W/NB minimums, matched to the other team when the rules say so."""
    own = eligible_shooters(rules, own_pool)
    other = eligible_shooters(rules, other_pool)
    initial = rules.initial_shooters(playoff)
    match = rules.shootout_match_smaller_team and len(other) > 0
    own_w = sum(s.counts_as_woman for s in own)
    gendered = _is_gendered(rules)
    if gendered:
        other_w = sum(s.counts_as_woman for s in other)
        women = min(own_w, other_w) if match else own_w
        others = min(len(own) - own_w, len(other) - other_w) if match else len(own) - own_w
        full = (own_w, len(own) - own_w)
    else:
        women = 0
        others = min(len(own), len(other)) if match else len(own)
        full = (0, len(own))
    per_round = min(len(own), max(women + others, initial))
    block = max(rules.shootout_block_size, 0)
    min_initial = min(rules.shootout_min_women_initial, women, initial) if gendered else 0
    min_block = min(rules.shootout_min_women_per_block, women, block) if gendered else 0
    return ShootoutRequirements(
        initial_shooters=initial,
        gendered=gendered,
        women_per_round=women,
        others_per_round=others,
        shooters_per_round=per_round,
        min_women_initial=max(min_initial, 0),
        block_size=block,
        min_women_per_block=max(min_block, 0),
        women_quota_waived=gendered and women == 0,
        matched=(women, others) != full,
    )

