"""Walking a captain's shooting order shooter by shooter, and every violation it finds, with its citation."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.league.shootouts.eligibility import (
    Shooter,
    ShootoutPool,
    ShootoutRequirements,
    Violation,
    eligible_shooters,
    exclusion,
    shootout_requirements,
)
from bot.league.shootouts.presets import ShootoutRules

_MAX_NAMES = 4  # names listed in a message before "and N more"


def plural(n: int, one: str, many: str) -> str:
    """``n`` with the word for one or many, as violations and errors say it."""
    return f"{n} {one if n == 1 else many}"


def _women(n: int, more: str = "") -> str:
    return plural(n, f"{more}woman or non-binary player", f"{more}women or non-binary players")


def _names(shooters: Sequence[Shooter]) -> str:
    names = [s.name for s in shooters[:_MAX_NAMES]]
    if len(shooters) > _MAX_NAMES:
        names.append(f"and {len(shooters) - _MAX_NAMES} more")
    return ", ".join(names)


@dataclass
class Tracker:
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
    ) -> Tracker:
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

    def copy(self) -> Tracker:
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
        if s is not None and exclusion(self.rules, s) == "not_on_floor":
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
            wanted = plural(req.shooters_per_round, "teammate", "different teammates")
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
    tracker = Tracker.start(rules, own_pool, other_pool, playoff)
    first = tracker.req.initial_shooters
    cite = rules.initial_citation(playoff)
    found: list[Violation] = []
    if len(tracker.own) < first:
        text = (
            f"Only {plural(len(tracker.own), 'eligible shooter', 'eligible shooters')}; "
            f"the shootout needs {first} different players to start ({cite})"
        )
        found.append(Violation("pool_too_small", text, cite, None))
    if len(order) < first:
        listed = plural(len(order), "shooter", "shooters")
        text = f"The order lists {listed}; the first {first} are required"
        other = rules.other_reading(playoff, len(order))
        found.append(Violation("too_few_shooters", f"{text} ({cite})" + (f". {other}" if other else ""), cite,
                               None))
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

