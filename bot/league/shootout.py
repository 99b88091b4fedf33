"""Shootouts: who may shoot in what order, and who has won.

Pure rules for the three leagues' rulebooks (``shared/rulebooks``); every number is a field of
``ShootoutRules`` so a league can override it. Nothing here imports discord or storage: callers pass
plain ``Shooter`` / ``ShootoutPool`` values and get back plain results, including *why* an order is
not allowed (``Violation`` with a rulebook citation).

How the co-ed rules fit together (our reading, written down because the rulebook is terse)
------------------------------------------------------------------------------------------
Rulebook: "Teams will select 3 players to shoot, and at least 1 of these 3 shooters must be female
or non-binary ... For every 3 shooters after the initial 3, at least 1 must be female or non-binary.
Teams match the roster size and make-up of the smaller team. For example, one team only has 3 women
and the other team has 6, the team with 6 only has to have 3 of their women shoot. Regarding your
entire roster that day - all of your players have to shoot before you can repeat a player (male or
female), however, if one team has 10 people present and the other team has 14, the team with 14 can
repeat players after 10 shooters."

1. Groups. The first 3 shooters are 3 different players with at least 1 woman/non-binary (W/NB)
   player. After them the order is cut into blocks of 3 (shooters 4-6, 7-9, ...), each with at
   least 1 W/NB shooter. A block the order has not filled yet is not judged: the next name can still
   complete it.
2. Rounds. "All of your players have to shoot before you can repeat a player": a team's order is
   cut into rounds. Nobody shoots twice in a round; a round ends as soon as everyone it must include
   has shot, and then everyone may shoot again.
3. Matching the smaller team. We match each part of the make-up separately: a round must include
   ``min(ours, theirs)`` W/NB players and ``min(ours, theirs)`` other players, i.e. the make-up both
   teams can field. This gives both rulebook examples: 14 present (6 W/NB, 8 others) against 10
   (3 W/NB, 7 others) -> the 14 may repeat after 10 shooters (3 W/NB + 7 others); 6 W/NB against 3
   -> the team with 6 only has to have 3 of its W/NB players shoot. It is symmetric, and a team
   never needs more different shooters per round than the smaller team has players. Floor: a round
   never has fewer different shooters than the initial group (3), so make-ups with nothing in
   common (all-women against all-men) do not allow the same shooter every time.
4. Blocks against rounds. Taken literally, the two rules contradict each other for any team whose
   W/NB players are fewer than a third of its round (1 woman and 13 men: shooters 4-6 need her again
   long before the 13 men have shot). The women example shows W/NB players cycle on their own count,
   so: once a round's W/NB players (the matched number) have all shot, one of them may shoot again
   before the round ends, taking turns (nobody a third time before the others a second time), but
   only as the W/NB shooter her block needs: a block holding a repeated W/NB shooter holds no other
   W/NB shooter. The exception exists only to keep the block rule satisfiable; it does not let a
   team with many women stack them ahead of its other players.
5. Nobody to match. When the matched make-up has no W/NB players (either team has none eligible),
   the W/NB minimums are waived for both teams: the team without W/NB players cannot meet them, and
   the other team matches that make-up. W/NB players then shoot like anyone else (no early repeats).
6. Goalies. No rulebook excludes goalies from shooting and the co-ed rule says "all of your players",
   so goalies may shoot and count (``shootout_goalies_may_shoot``; set it to False to exclude them,
   which also drops them from the matching counts).

Youth (2.13B, 2.14, 1.19) and indoor soccer have no W/NB quotas and no matching: the first 3 (youth;
5 in playoffs per 1.19, a setting) or 4 (indoor) shooters are different players, then sudden death,
and nobody repeats until every eligible teammate has shot. Indoor soccer: only players on the floor at
the end of the second overtime may shoot, and the goalie may not be changed.

The opponent's pool is optional: ``None`` (or an empty pool) means it is not known yet, and the
team is judged against its own roster without matching.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Side = Literal["home", "away"]

_MAX_NAMES = 4  # names listed in a message before "and N more"


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
        """The rule that sets ``initial_shooters(playoff)``."""
        c = self.shootout_citations
        return c.initial_playoff if playoff else c.initial


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
            goalie_change=_COED_SHOOTOUTS,
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
            women_initial="Youth rules 2.13B",
            women_blocks="Youth rules 2.13B",
            no_repeat="Youth rules 2.14",
            eligibility="Youth rules 2.14",
            goalie_change="Youth rules 2.13B",
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
            goalie_change="Indoor soccer rules: Substitutions",
        ),
    ),
}


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
        if _exclusion(rules, s) is None:
            out.append(s)
    return tuple(out)


def _exclusion(rules: ShootoutRules, s: Shooter) -> str | None:
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


# --------------------------------------------------------------------------------------------------
# Walking an order


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _women(n: int, more: str = "") -> str:
    return _plural(n, f"{more}woman or non-binary player", f"{more}women or non-binary players")


def _names(shooters: Sequence[Shooter]) -> str:
    names = [s.name for s in shooters[:_MAX_NAMES]]
    if len(shooters) > _MAX_NAMES:
        names.append(f"and {len(shooters) - _MAX_NAMES} more")
    return ", ".join(names)


@dataclass
class _Tracker:
    """Walks an order shooter by shooter, keeping what the rules need to judge the next one."""

    rules: ShootoutRules
    req: ShootoutRequirements
    initial_cite: str
    own: dict[int, Shooter]
    excluded: dict[int, Shooter]
    others: dict[int, Shooter]
    n: int = 0
    rounds_done: int = 0
    initial: set[int] = field(default_factory=set)
    round_seen: set[int] = field(default_factory=set)
    round_women: int = 0
    chunk: list[int] = field(default_factory=list)
    # W/NB shooters of the current group: (position, shooter, repeated in this round).
    group_women: list[tuple[int, Shooter, bool]] = field(default_factory=list)
    lone_reported: set[int] = field(default_factory=set)

    @classmethod
    def start(
        cls,
        rules: ShootoutRules,
        own_pool: ShootoutPool,
        other_pool: ShootoutPool | None,
        playoff: bool,
    ) -> _Tracker:
        own = {s.player_id: s for s in eligible_shooters(rules, own_pool)}
        excluded: dict[int, Shooter] = {}
        for s in own_pool.eligible:
            if s.player_id not in own and s.player_id not in excluded:
                excluded[s.player_id] = s
        others = {s.player_id: s for s in (other_pool.eligible if other_pool else ())}
        req = shootout_requirements(rules, own_pool, other_pool, playoff)
        return cls(
            rules=rules,
            req=req,
            initial_cite=rules.initial_citation(playoff),
            own=own,
            excluded=excluded,
            others=others,
        )

    def copy(self) -> _Tracker:
        twin = copy.copy(self)
        twin.initial = set(self.initial)
        twin.round_seen = set(self.round_seen)
        twin.chunk = list(self.chunk)
        twin.group_women = list(self.group_women)
        twin.lone_reported = set(self.lone_reported)
        return twin

    # Groups: the initial shooters, then blocks (or one open-ended group when there are none).
    def group(self, pos: int) -> tuple[int, int | None, int]:
        """(first position, last position or None, W/NB minimum) of the group holding ``pos``."""
        first = self.req.initial_shooters
        if pos <= first:
            return 1, first, self.req.min_women_initial
        size = self.req.block_size
        if size <= 0:
            return first + 1, None, 0
        k = (pos - first - 1) // size
        start = first + k * size + 1
        return start, start + size - 1, self.req.min_women_per_block

    def _label(self, pos: int) -> str:
        start, end, _ = self.group(pos)
        if start == 1:
            return f"the first {self.req.initial_shooters} shooters"
        return f"shooters {start}-{end}"

    def is_woman(self, s: Shooter) -> bool:
        return self.req.gendered and s.counts_as_woman

    def _v(self, code: str, pos: int | None, text: str, rule: str) -> Violation:
        prefix = f"Shooter {pos}: " if pos is not None else ""
        return Violation(code, f"{prefix}{text} ({rule})", rule, pos)

    def place(self, pid: int) -> list[Violation]:
        """Add the next shooter; return what that breaks (including a group it completes)."""
        self.n += 1
        pos = self.n
        start, end, gmin = self.group(pos)
        if pos == start:
            self.group_women = []
        shooter = self.own.get(pid)
        if shooter is None:
            found = [self._ineligible(pos, pid)]
        else:
            found = self._judge(pos, shooter, gmin)
            self._record(pos, shooter)
        if end is not None and pos == end and len(self.group_women) < gmin:
            found.append(self._quota_missed(pos, gmin))
        return found

    def _ineligible(self, pos: int, pid: int) -> Violation:
        cite = self.rules.shootout_citations.eligibility
        s = self.excluded.get(pid)
        if s is not None and _exclusion(self.rules, s) == "not_on_floor":
            text = (
                f"{s.name} was not on the floor at the end of overtime; only those players may "
                "shoot"
            )
            return self._v("not_on_floor", pos, text, cite)
        if s is not None:
            text = f"{s.name} is a goalie, and goalies may not shoot in this league's shootouts"
            return self._v("goalie_may_not_shoot", pos, text, cite)
        other = self.others.get(pid)
        if other is not None:
            return self._v("other_team", pos, f"{other.name} plays for the other team", cite)
        text = (
            f"player {pid} is not one of your eligible shooters (checked in, on the roster and "
            "not suspended)"
        )
        return self._v("not_eligible", pos, text, cite)

    def _judge(self, pos: int, s: Shooter, gmin: int) -> list[Violation]:
        cites = self.rules.shootout_citations
        first = self.req.initial_shooters
        if pos <= first and s.player_id in self.initial:
            text = (
                f"{s.name} is already one of the first {first} shooters; they must be "
                f"{first} different players"
            )
            return [self._v("initial_repeat", pos, text, self.initial_cite)]
        if not self.rules.shootout_no_repeat_until_all_shot:
            return []
        repeat = s.player_id in self.round_seen
        woman = self.is_woman(s)
        if repeat and not (woman and gmin > 0):
            return [self._repeat(pos, s)]
        if not woman:
            return []
        chunk = self._current_chunk()
        if repeat and s.player_id in chunk:
            waiting = [w for w in self.own.values() if self.is_woman(w) and w.player_id not in chunk]
            need = self.req.women_per_round - len(chunk)
            text = (
                f"{s.name} already shot; {_women(need, more='more ')} must take a turn before {s.name} "
                f"shoots again (not yet: {_names(waiting)})"
            )
            return [self._v("women_take_turns", pos, text, cites.no_repeat)]
        if len(self.group_women) + 1 <= gmin:
            return []
        if repeat:
            return [self._lone(pos, s, self.group_women[0][1], self.group_women[0][0])]
        return [
            self._lone(rpos, rs, s, pos)
            for rpos, rs, was_repeat in self.group_women
            if was_repeat and rpos not in self.lone_reported
        ]

    def _current_chunk(self) -> list[int]:
        return [] if len(self.chunk) >= self.req.women_per_round else self.chunk

    def _repeat(self, pos: int, s: Shooter) -> Violation:
        req = self.req
        seen = len(self.round_seen)
        women, others = self.round_women, seen - self.round_women
        fresh = [p for p in self.own.values() if p.player_id not in self.round_seen]
        need_w, need_o = req.women_per_round, req.others_per_round
        if req.gendered and need_w and req.shooters_per_round <= need_w + need_o:
            wanted = f"{need_o} other teammates and {_women(need_w)}" if need_o else _women(need_w)
            so_far = f"{others} and {women}" if need_o else str(women)
            fresh = [
                p
                for p in fresh
                if (women < need_w and self.is_woman(p))
                or (others < need_o and not self.is_woman(p))
            ]
        elif req.gendered and req.shooters_per_round <= need_o:
            wanted = f"{need_o} teammates who are not women or non-binary players"
            so_far = str(others)
            fresh = [p for p in fresh if not self.is_woman(p)]
        else:
            wanted = _plural(req.shooters_per_round, "teammate", "different teammates")
            so_far = str(seen)
        text = f"{s.name} already shot; {wanted} must shoot before anyone repeats (so far {so_far}"
        if fresh:
            text += f"; not yet: {_names(fresh)}"
        return self._v("repeat", pos, f"{text})", self.rules.shootout_citations.no_repeat)

    def _lone(self, rpos: int, rs: Shooter, other: Shooter, opos: int) -> Violation:
        self.lone_reported.add(rpos)
        text = (
            f"{rs.name} already shot, and not everyone has had a turn; a woman or non-binary "
            f"player may shoot again this early only to fill the quota of {self._label(rpos)}, "
            f"and {other.name} (shooter {opos}) already fills it"
        )
        return self._v("women_repeat_not_needed", rpos, text, self.rules.shootout_citations.no_repeat)

    def _quota_missed(self, pos: int, gmin: int) -> Violation:
        cites = self.rules.shootout_citations
        start, end, _ = self.group(pos)
        if start == 1:
            text = f"the first {end} shooters must include at least {_women(gmin)}"
            return self._v("initial_women", pos, text, cites.women_initial)
        text = (
            f"Shooters {start}-{end}: every {self.req.block_size} shooters after the first "
            f"{self.req.initial_shooters} must include at least {_women(gmin)} "
            f"({cites.women_blocks})"
        )
        return Violation("block_women", text, cites.women_blocks, pos)

    def _record(self, pos: int, s: Shooter) -> None:
        pid = s.player_id
        if pos <= self.req.initial_shooters:
            self.initial.add(pid)
        repeat = pid in self.round_seen
        if self.is_woman(s):
            if len(self.chunk) >= self.req.women_per_round:
                self.chunk = []
            if pid not in self.chunk:
                self.chunk.append(pid)
            self.group_women.append((pos, s, repeat))
        if not repeat:
            self.round_seen.add(pid)
            self.round_women += self.is_woman(s)
        self._maybe_end_round()

    def _maybe_end_round(self) -> None:
        req = self.req
        others = len(self.round_seen) - self.round_women
        if (
            self.round_women >= req.women_per_round
            and others >= req.others_per_round
            and len(self.round_seen) >= req.shooters_per_round
        ):
            self.rounds_done += 1
            self.round_seen = set()
            self.round_women = 0
            self.chunk = []


def validate_order(
    rules: ShootoutRules,
    own_pool: ShootoutPool,
    other_pool: ShootoutPool | None,
    order: Sequence[int],
    playoff: bool = False,
) -> list[Violation]:
    """Every reason this shootout order (player ids, initial then sudden death) is not allowed."""
    tracker = _Tracker.start(rules, own_pool, other_pool, playoff)
    first = tracker.req.initial_shooters
    cite = rules.initial_citation(playoff)
    found: list[Violation] = []
    if len(tracker.own) < first:
        text = (
            f"Only {_plural(len(tracker.own), 'eligible shooter', 'eligible shooters')}; "
            f"the shootout needs {first} different players to start ({cite})"
        )
        found.append(Violation("pool_too_small", text, cite, None))
    if len(order) < first:
        listed = _plural(len(order), "shooter", "shooters")
        text = f"The order lists {listed}; the first {first} are required"
        found.append(Violation("too_few_shooters", f"{text} ({cite})", cite, None))
    for pid in order:
        found.extend(tracker.place(pid))
    return found


def validate_goalie_change(
    rules: ShootoutRules, started: Shooter, goalie: Shooter
) -> list[Violation]:
    """Whether ``goalie`` may replace ``started`` in goal during the shootout."""
    if rules.shootout_goalie_may_change or started.player_id == goalie.player_id:
        return []
    cite = rules.shootout_citations.goalie_change
    text = (
        f"{goalie.name} may not replace {started.name} in goal: the goalie may not be changed "
        f"during the shootout ({cite})"
    )
    return [Violation("goalie_change", text, cite, None)]


# --------------------------------------------------------------------------------------------------
# Proposing an order


def _candidates(t: _Tracker, priority: Sequence[Shooter]) -> list[int]:
    """Everyone, in the order worth trying: who has not shot this round first, in the captain's
    priority; W/NB players after the others once the current group has the ones it needs."""
    start, _, gmin = t.group(t.n + 1)
    women_in_group = 0 if t.n + 1 == start else len(t.group_women)
    quota_met = women_in_group >= gmin

    def rank(s: Shooter) -> tuple[bool, bool]:
        return s.player_id in t.round_seen, quota_met and t.is_woman(s)

    return [s.player_id for s in sorted(priority, key=rank)]


# Positions a group-completion search may try before it gives up on a choice (the rules bound a
# block to 20 shooters; a block that can be completed is found in a few dozen steps).
_SEARCH_BUDGET = 20_000


def _group_open(t: _Tracker) -> bool:
    """Whether the next shooter joins a group that still has a W/NB quota to fill."""
    start, end, gmin = t.group(t.n + 1)
    return not (t.n + 1 == start or end is None or gmin == 0)


def _worth_trying(t: _Tracker, priority: Sequence[Shooter]) -> list[int]:
    """The candidates for the next position of an open group, without those that can't lead
    anywhere: once the W/NB shooters the group still needs fill its last positions, only W/NB
    players (any other choice misses the quota), and nobody once they no longer fit."""
    start, end, gmin = t.group(t.n + 1)
    candidates = _candidates(t, priority)
    if end is None:
        return candidates
    need = gmin - (0 if t.n + 1 == start else len(t.group_women))
    slots = end - t.n
    if need > slots:
        return []
    if need == slots:
        return [pid for pid in candidates if t.is_woman(t.own[pid])]
    return candidates


def _can_finish_group(t: _Tracker, priority: Sequence[Shooter]) -> bool:
    """Whether the current group can still be completed legally (a fresh group always can).

    A depth-first search with its own stack, so a long block can't overflow Python's; when the
    search runs out of budget the choice that led here counts as unfinishable."""
    if not _group_open(t):
        return True
    states = [t]
    pending = [iter(_worth_trying(t, priority))]
    budget = _SEARCH_BUDGET
    while pending:
        for pid in pending[-1]:
            budget -= 1
            if budget < 0:
                return False
            trial = states[-1].copy()
            if trial.place(pid):
                continue
            if not _group_open(trial):
                return True
            states.append(trial)
            pending.append(iter(_worth_trying(trial, priority)))
            break
        else:
            states.pop()
            pending.pop()
    return False


def _try(t: _Tracker, pid: int, priority: Sequence[Shooter]) -> _Tracker | None:
    trial = t.copy()
    if trial.place(pid) or not _can_finish_group(trial, priority):
        return None
    return trial


def suggest_order(
    rules: ShootoutRules,
    own_pool: ShootoutPool,
    other_pool: ShootoutPool | None = None,
    preferred: Sequence[int] = (),
    length: int | None = None,
    playoff: bool = False,
) -> list[int]:
    """Propose a legal order, keeping the captain's preferred shooters where the rules allow.

    ``length`` defaults to one full round (every shooter the round needs, once) and at least as
    many sudden-death shooters as initial ones, or the preferred list if it is longer.
    """
    tracker = _Tracker.start(rules, own_pool, other_pool, playoff)
    first = tracker.req.initial_shooters
    cite = rules.initial_citation(playoff)
    if not tracker.own:
        raise ShootoutError(f"No eligible shooters: the shootout needs {first} ({cite})")
    if len(tracker.own) < first:
        raise ShootoutError(
            f"Only {_plural(len(tracker.own), 'eligible shooter', 'eligible shooters')}; "
            f"the shootout needs {first} different players to start ({cite})"
        )
    if length is not None and length < first:
        raise ShootoutError(f"An order needs at least the first {first} shooters ({cite})")
    queue = [pid for pid in preferred if pid in tracker.own]
    priority = _priority(tracker, queue)
    minimum = max(2 * first, len(queue))
    # A round takes at most one W/NB repeat per block on top of its different shooters.
    cap = length if length is not None else minimum + 3 * len(tracker.own) + first
    order: list[int] = []
    while len(order) < cap:
        if length is None and len(order) >= minimum and tracker.rounds_done >= 1:
            break
        chosen = _choose(tracker, queue, priority)
        if chosen is None:  # pragma: no cover - the checks above leave a legal choice
            raise ShootoutError(f"No legal shooter for position {len(order) + 1}")
        pid, tracker = chosen
        if queue and pid in queue:
            queue.remove(pid)
        order.append(pid)
    return order


def _priority(t: _Tracker, queue: Iterable[int]) -> list[Shooter]:
    seen: dict[int, Shooter] = {}
    for pid in queue:
        seen.setdefault(pid, t.own[pid])
    for s in t.own.values():
        seen.setdefault(s.player_id, s)
    return list(seen.values())


def _choose(
    t: _Tracker, queue: Sequence[int], priority: Sequence[Shooter]
) -> tuple[int, _Tracker] | None:
    tried: set[int] = set()
    for pid in queue:
        if pid in tried:
            continue
        tried.add(pid)
        after = _try(t, pid, priority)
        if after is not None:
            return pid, after
    for pid in _candidates(t, priority):
        after = _try(t, pid, priority)
        if after is not None:
            return pid, after
    return None


# --------------------------------------------------------------------------------------------------
# Scoring


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
