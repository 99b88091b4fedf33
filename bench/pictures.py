"""How long the pictures take to draw, and how big they are (goal: < 200 ms each, within Discord's 10 MiB).

Run: python -m bench.pictures [--runs N]

An 8-team bracket halfway through (quarterfinals played with scores, a semifinal played) and a
10-team co-ed table with long names, drawn by the same functions /bracket show and /standings show
call with picture:True. The first draw of each is timed apart (it imports Pillow and loads its font:
what the first picture after a start costs); then median and p99 of wall and CPU time over
``--runs`` draws, and the bytes of each PNG. A 16-team bracket and a 3-division, 30-team table are
drawn too, as the largest a league asks for. Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime

from bench.machine import describe, percentile, reproduce
from bot.league.playoffs import advance, build_bracket, render_bracket
from bot.league.standings.presets import STANDINGS_PRESETS
from bot.league.standings.table import GameResult, compute_standings
from bot.services.pictures import MAX_BYTES, bracket_png, standings_png
from bot.services.playoffs import RENDER_WIDTH, BracketView, Score
from bot.services.standings import StandingsTable

GOAL_MS = 200.0
NAMES = ["Wolves", "Owls", "Bears", "Hawks", "Thunderbirds of the North Shore", "Lions", "Tigers", "Foxes",
         "Eagles", "Sharks", "Ravens", "Coyotes", "Bisons", "Otters", "Falcons", "Moose"]


def sample_bracket(teams: int, rng: random.Random) -> BracketView:
    """A bracket with every first-round game and one more played, each with a score."""
    bracket = build_bracket(NAMES[:teams])
    scores: dict[str, Score] = {}
    played = [m.matchup_id for m in bracket.rounds[0]] + ([bracket.rounds[1][0].matchup_id]
                                                          if len(bracket.rounds) > 2 else [])
    for matchup_id in played:
        matchup = bracket.matchup(matchup_id)
        assert matchup.top is not None
        bracket = advance(bracket, matchup_id, matchup.top.team)
        scores[matchup_id] = Score(rng.randint(3, 7), rng.randint(0, 2), rng.choice(["regulation", "overtime"]))
    games = {m: f"P{i}" for i, m in enumerate(played, start=1)}
    return BracketView(bracket, render_bracket(bracket, RENDER_WIDTH), games, (), "", scores)


def sample_table(teams: int, divisions: int, rng: random.Random) -> StandingsTable:
    """A co-ed table (record, then goals: the widest columns) after a season of random results."""
    names = [NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "") for i in range(teams)]
    division_of = {n: (f"Division {i % divisions + 1}" if divisions > 1 else "") for i, n in enumerate(names)}
    results = [GameResult(f"g{i}", *rng.sample(names, 2), rng.randint(0, 7), rng.randint(0, 7))
               for i in range(teams * 9)]
    rules = STANDINGS_PRESETS["coed-ball-hockey"]
    rows = tuple(compute_standings(rules, division_of, results))
    return StandingsTable("bench", "Bench League", rules, rows, len(results), datetime.now(UTC), season="Winter 2030")


def measure(name: str, draw: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """Print; return p99 wall ms, p99 CPU ms and the PNG's bytes."""
    start, cpu = time.perf_counter(), time.process_time()
    data = draw()
    first, first_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        data = draw()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    median, p99 = statistics.median(walls), percentile(walls, 99)
    print(f"  {name:<34} first {first:7.1f} ms (cpu {first_cpu:6.1f})  median {median:6.1f} ms  p99 {p99:6.1f} ms  "
          f"(cpu median {statistics.median(cpus):5.1f}, p99 {percentile(cpus, 99):5.1f})  {len(data):>8,} bytes")
    return p99, percentile(cpus, 99), len(data)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__)
    parser.add_argument("--runs", type=int, default=50, help="draws of each picture after the first")
    parser.add_argument("--seed", type=int, default=42, help="random seed for scores and results")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"pictures benchmark: {args.runs} draws each after the first (the first imports Pillow: it is the "
          "first picture after a start)")
    eight, ten, sixteen, thirty = (sample_bracket(8, rng), sample_table(10, 1, rng), sample_bracket(16, rng),
                                   sample_table(30, 3, rng))
    goals = [measure("8-team bracket", lambda: bracket_png(eight), args.runs),
             measure("10-team standings", lambda: standings_png(ten), args.runs)]
    measure("16-team bracket (largest)", lambda: bracket_png(sixteen), args.runs)
    measure("30 teams in 3 divisions (large)", lambda: standings_png(thirty), args.runs)
    fits = all(size <= MAX_BYTES for _, _, size in goals)
    wall = all(p99 < GOAL_MS for p99, _, _ in goals)
    cpu = all(p99 < GOAL_MS for _, p99, _ in goals)
    print(f"goal: 8-team bracket and 10-team table each < {GOAL_MS:.0f} ms and <= {MAX_BYTES:,} bytes (Discord's "
          f"attachment limit): size {'within' if fits else 'OVER'}; p99 wall {'within' if wall else 'OVER'}; "
          f"p99 CPU {'within' if cpu else 'OVER'} (wall time on a busy machine counts the others' work too)")
    print(describe())
    print(reproduce("bench.pictures", f"--runs {args.runs} --seed {args.seed}"))


if __name__ == "__main__":
    main()
