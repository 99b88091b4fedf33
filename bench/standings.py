"""How long a standings table takes as a league's results grow (goal: 100k games <= 100 ms).

Run: python -m bench.standings [--repeat N] [--teams N] [--seed N]

Synthetic results (regulation, overtime, ties, shootouts, forfeits, some playoff games that do
not count) among teams in divisions of 8, under the youth preset (points, wins, head-to-head,
goal differential), then a worst case for the head-to-head pass. Only compute_standings is
timed: the results are built beforehand and the best of ``--repeat`` runs is reported.
Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from dataclasses import replace

from bench.machine import describe, reproduce
from bot.league.standings.presets import STANDINGS_PRESETS
from bot.league.standings.table import GameResult, compute_standings

SIZES = (1_000, 10_000, 100_000)
GOAL_MS = 100.0


def synthetic_results(count: int, teams: list[str], rng: random.Random) -> list[GameResult]:
    """A season's worth (or many) of plausible results between random pairs of teams."""
    results = []
    for i in range(count):
        home, away = rng.sample(teams, 2)
        roll = rng.random()
        kind = "playoff" if roll > 0.98 else "regular"
        if roll < 0.01:
            results.append(GameResult(f"g{i}", home, away, 0, 0, "forfeit", forfeit_team=home, kind=kind))
            continue
        home_goals, away_goals = rng.randint(0, 7), rng.randint(0, 7)
        if home_goals == away_goals and roll < 0.3:
            so = rng.choice([(1, 0), (0, 1), (3, 2), (2, 3)])
            results.append(
                GameResult(
                    f"g{i}",
                    home,
                    away,
                    home_goals,
                    away_goals,
                    "shootout",
                    shootout_home=so[0],
                    shootout_away=so[1],
                    kind=kind,
                )
            )
            continue
        decided = "overtime" if abs(home_goals - away_goals) == 1 and roll < 0.15 else "regulation"
        results.append(GameResult(f"g{i}", home, away, home_goals, away_goals, decided, kind=kind))
    return results


def best_time(rules, teams: dict[str, str], results: list[GameResult], repeat: int) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        compute_standings(rules, teams, results)
        best = min(best, time.perf_counter() - start)
    return best


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) on log(x): 1.0 means linear growth."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum((a - mx) ** 2 for a in lx)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.standings", description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="runs per size (best is kept)")
    parser.add_argument("--teams", type=int, default=64, help="teams, in divisions of 8")
    parser.add_argument("--seed", type=int, default=1998, help="random seed for the results")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    teams = {f"Team{n:03d}": f"Division {n // 8 + 1}" for n in range(args.teams)}
    names = list(teams)
    rules = STANDINGS_PRESETS["youth-ball-hockey"]

    print(f"standings benchmark: youth preset, {len(teams)} teams, best of {args.repeat} runs")
    times = []
    for size in SIZES:
        results = synthetic_results(size, names, rng)
        seconds = best_time(rules, teams, results, args.repeat)
        times.append(seconds)
        tiebreaks = Counter(row.tiebreak for row in compute_standings(rules, teams, results) if row.tiebreak)
        broken = ", ".join(f"{name} {n}" for name, n in sorted(tiebreaks.items())) or "none"
        print(f"  {size:>7,} games  {seconds * 1000:8.2f} ms  ({seconds / size * 1e9:5.0f} ns/game)")
        print(f"                   rows placed by a tiebreaker: {broken}")
    # Worst case for the head-to-head pass: one division, head_to_head first, so every game is
    # read a second time for the mini-table.
    one_division = dict.fromkeys(names, "All")
    all_tied = replace(rules, standings_tiebreakers=("head_to_head", "points", "goal_diff"))
    worst = best_time(all_tied, one_division, results, args.repeat)
    print(f"  {SIZES[-1]:>7,} games  {worst * 1000:8.2f} ms  worst case: one division, head-to-head over every game")
    exponent = slope([float(s) for s in SIZES], times)
    verdict = "within" if times[-1] * 1000 <= GOAL_MS else "OVER"
    print(f"growth exponent (log-log slope): {exponent:.2f}  (1.00 = linear)")
    print(f"goal: {SIZES[-1]:,} games <= {GOAL_MS:.0f} ms: {verdict}")
    print(describe())
    print(reproduce("bench.standings", f"--repeat {args.repeat} --teams {args.teams} --seed {args.seed}"))


if __name__ == "__main__":
    main()
