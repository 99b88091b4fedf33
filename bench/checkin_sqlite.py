"""How much of a check-in is SQLite itself: the part no change to the bot's own code can remove.

Run: python -m bench.checkin_sqlite [--count N]

On the interactions benchmark's league, replays check-ins alternating with the no-op floor through
the real command tree, and times every call into sqlite3 a check-in makes (BEGIN, its statements,
COMMIT) by wrapping the driver's three entry points. Prints the floor, the check-in, the SQLite
part and the rest, as p50 / p90 / p99, beside the interactions goal (a check-in's p99 at most twice
the floor's). Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.interactions import add_noop, build
from bench.machine import describe, percentile, reproduce


def _timed(function: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started
    return timed


async def replay(count: int) -> None:
    import storage.sqlite_driver as driver
    from tests.harness import Member

    spent = [0.0]
    driver._begin_without_waiting = _timed(driver._begin_without_waiting, spent)  # type: ignore[assignment]
    driver._execute = _timed(driver._execute, spent)  # type: ignore[assignment]
    driver.OneTripConnection.commit = _timed(driver.OneTripConnection.commit, spent)  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        harness, upcoming, team_index = await build(Path(tmp) / "bench.db")
        add_noop(harness.bot)
        rng = random.Random(7)
        floor: list[float] = []
        checkin: list[float] = []
        in_sqlite: list[float] = []
        for i in range(2 * count + 200):  # the first 100 of each warm up
            gid, home, _away = rng.choice(upcoming)
            member = Member(id=10**16 + team_index[home] * 20 + rng.randrange(1, 19), name="P")
            spent[0] = 0.0
            started = time.perf_counter()
            if i % 2:
                await harness.slash("/noop", as_=member)
            else:
                await harness.slash("/checkin", as_=member, status=rng.choice(["in", "out", "maybe"]),
                                    game=f"G{gid - 1}")
            took = time.perf_counter() - started
            harness.discord.clear()
            if i < 200:
                continue
            if i % 2:
                floor.append(took * 1000)
            else:
                checkin.append(took * 1000)
                in_sqlite.append(spent[0] * 1000)
        await harness.close()
    rest = [c - s for c, s in zip(checkin, in_sqlite, strict=True)]
    print(f"{count:,} check-ins and {count:,} no-ops, alternating, through the real command tree")
    print(f"{'':28s} {'p50 ms':>8s} {'p90 ms':>8s} {'p99 ms':>8s}")
    for name, values in (("no-op (floor)", floor), ("checkin", checkin), ("  of which in SQLite", in_sqlite),
                         ("  of which everything else", rest)):
        print(f"{name:28s} {percentile(values, 50):8.3f} {percentile(values, 90):8.3f} {percentile(values, 99):8.3f}")
    budget = 2 * percentile(floor, 99)
    print(f"goal: checkin p99 <= 2x the floor's = {budget:.3f} ms; SQLite's own calls alone take "
          f"{percentile(in_sqlite, 99):.3f} ms at p99, leaving {budget - percentile(in_sqlite, 99):.3f} ms for "
          "the floor's own path, the command and its reply")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=5000)
    args = parser.parse_args()
    asyncio.run(replay(args.count))
    print(describe())
    print(reproduce("bench.checkin_sqlite", f"--count {args.count}"))


if __name__ == "__main__":
    main()
