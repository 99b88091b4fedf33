"""Proposing a legal order that keeps the captain's preferred shooters where the rules allow."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.league.shootouts.eligibility import Shooter, ShootoutPool
from bot.league.shootouts.order import Tracker, plural
from bot.league.shootouts.presets import ShootoutError, ShootoutRules


def _candidates(t: Tracker, priority: Sequence[Shooter]) -> list[int]:
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


def _group_open(t: Tracker) -> bool:
    """Whether the next shooter joins a group that still has a W/NB quota to fill."""
    start, end, gmin = t.group(t.n + 1)
    return not (t.n + 1 == start or end is None or gmin == 0)


def _worth_trying(t: Tracker, priority: Sequence[Shooter]) -> list[int]:
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


def _can_finish_group(t: Tracker, priority: Sequence[Shooter]) -> bool:
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


def _try(t: Tracker, pid: int, priority: Sequence[Shooter]) -> Tracker | None:
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
    tracker = Tracker.start(rules, own_pool, other_pool, playoff)
    first = tracker.req.initial_shooters
    cite = rules.initial_citation(playoff)
    if not tracker.own:
        raise ShootoutError(f"No eligible shooters: the shootout needs {first} ({cite})")
    if len(tracker.own) < first:
        raise ShootoutError(
            f"Only {plural(len(tracker.own), 'eligible shooter', 'eligible shooters')}; "
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


def _priority(t: Tracker, queue: Iterable[int]) -> list[Shooter]:
    seen: dict[int, Shooter] = {}
    for pid in queue:
        seen.setdefault(pid, t.own[pid])
    for s in t.own.values():
        seen.setdefault(s.player_id, s)
    return list(seen.values())


def _choose(
    t: Tracker, queue: Sequence[int], priority: Sequence[Shooter]
) -> tuple[int, Tracker] | None:
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

