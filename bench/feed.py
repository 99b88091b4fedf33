"""Calendar feeds of a big league: how long the event loop stalls while calendar apps fetch it.

Run: python -m bench.feed [--games 20000] [--clients 20] [--requests 5] [--idle 5]

A started bot (offline harness, a SQLite file) serves its calendar feed on 127.0.0.1 (the real
server, bot/web/feed_server.py) for a league of N games (40 teams). A ticker task in the bot's
process records the event loop's longest stall, while C calendar apps, in a process of their own so
that their work isn't counted as the bot's, fetch the whole league's feed over HTTP:

1. ``cold``: all at once, nothing built yet (the first fetch after a start);
2. ``again``: R fetches each without a validator (an app that never sends If-None-Match);
3. ``304``: R fetches each with the ETag they were given (what subscribed apps do every hour);
4. ``changed``: one game moves, then all at once with the old ETag (a new file for everyone).

Per phase: answers by status, the response time (p50/p99/max), the files built, the longest loop
stall, and the longest run of the loop thread's own CPU time between two ticks (code holding the
loop; the rest of a stall is waiting: for the machine's cores, or for the interpreter lock while the
feed is built in its thread); first, ``idle``: the longest stall of the same ticker with no request
at all (``--idle`` seconds), what a busy machine alone costs. Goal: the longest stall ≤ 100 ms
throughout. Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.idle import league
from bench.machine import describe, percentile, reproduce

TEAMS = 40
NOW = datetime(2030, 1, 5, 12, tzinfo=UTC)
STALL_GOAL_MS = 100
ROOT = Path(__file__).resolve().parents[1]


async def fetch_as_apps(url: str, clients: int, requests: int, etag: str | None) -> list[tuple[int, float, str]]:
    """The calendar apps' side (run in its own process): each of ``clients`` fetches ``requests``
    times, one after another, a new connection each; (status, seconds, ETag) per fetch."""
    import aiohttp

    headers = {"If-None-Match": etag} if etag else {}
    answers: list[tuple[int, float, str]] = []

    async def app() -> None:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as http:
            for _ in range(requests):
                started = time.perf_counter()
                async with http.get(url, headers=headers) as response:
                    await response.read()
                    answers.append((response.status, time.perf_counter() - started, response.headers["ETag"]))

    await asyncio.gather(*(app() for _ in range(clients)))
    return answers


async def phase(url: str, clients: int, requests: int, etag: str | None) -> list[tuple[int, float, str]]:
    """The apps' fetches, from a separate process."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.feed", "--as-apps", url, str(clients), str(requests), etag or "",
        stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    out, _ = await child.communicate()
    assert child.returncode == 0, "the calendar apps' process failed"
    return [(status, seconds, etag) for status, seconds, etag in json.loads(out)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def seed(bot: Any, games: int) -> tuple[str, int]:
    """40 teams and ``games`` games, two an evening; a link to the whole league's feed. (token, a game id)"""
    from sqlalchemy import insert, select

    from bot.services.calendar.service import new_token
    from storage.models import CalendarFeed, Game, Team

    league_id = next(iter(bot.league_ids.values()))
    async with bot.sessions.begin() as s:
        await s.execute(insert(Team), [{"league_id": league_id, "name": f"Team {i:02d}"} for i in range(TEAMS)])
        teams = (await s.scalars(select(Team.id).order_by(Team.id))).all()
        for start in range(0, games, 5000):
            await s.execute(insert(Game), [
                {"league_id": league_id, "code": f"G{g}", "home_team_id": teams[g % TEAMS],
                 "away_team_id": teams[(g * 7 + 1) % TEAMS],  # 6g + 1 is odd: never the home team
                 "starts_at": NOW + timedelta(days=g // 2, hours=g % 2), "venue": f"Rink {g % 5}",
                 "kind": "regular", "status": "scheduled", "revised_at": NOW}
                for g in range(start, min(games, start + 5000))])
        selector, verifier = new_token()
        s.add(CalendarFeed(league_id=league_id, owner_discord_id=10**16, scope="league", team_id=None,
                           selector=selector, verifier=verifier))
        first = await s.scalar(select(Game.id).order_by(Game.id).limit(1))
    return f"{selector}.{verifier}", int(first or 0)


async def run(games: int, clients: int, requests: int, idle: float) -> list[dict[str, Any]]:
    from sqlalchemy import update

    from bot.clock import FixedClock
    from bot.config.settings import parse_settings
    from bot.run.app import create_bot, freeze_startup_objects
    from storage.models import Game
    from tests.harness import Harness

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        settings = parse_settings({"bot": {"database_url": f"sqlite+aiosqlite:///{Path(tmp) / 'bot.db'}",
                                           "calendar_port": port},
                                   "leagues": [league(1, "coed-ball-hockey")]})
        bot = create_bot(settings, clock=FixedClock(NOW), run_scheduler=False)
        harness = await Harness(bot).start()
        harness.discord.validates = False
        freeze_startup_objects()
        token, game_id = await seed(bot, games)
        url = f"http://127.0.0.1:{port}/cal/{token}.ics"
        files = bot.services.calendar.files
        stalls: list[float] = []
        busy: list[float] = []  # the loop thread's own CPU time over each of those stretches
        done = asyncio.Event()

        async def ticker() -> None:
            while not done.is_set():
                started, cpu = time.perf_counter(), time.thread_time()
                await asyncio.sleep(0.005)
                stalls.append(time.perf_counter() - started - 0.005)
                busy.append(time.thread_time() - cpu)

        ticking = asyncio.create_task(ticker())
        results: list[dict[str, Any]] = []
        etag: str | None = None

        async def measure(name: str, per_client: int, validator: str | None) -> None:
            nonlocal etag
            stalls.clear()
            busy.clear()
            built = files.builds
            answers = await phase(url, clients, per_client, validator)
            times = [seconds for _, seconds, _ in answers]
            statuses: dict[int, int] = {}
            for status, _, _ in answers:
                statuses[status] = statuses.get(status, 0) + 1
            etag = answers[-1][2]
            results.append({"phase": name, "answers": statuses, "p50_ms": percentile(times, 50) * 1000,
                            "p99_ms": percentile(times, 99) * 1000, "max_ms": max(times) * 1000,
                            "built": files.builds - built, "stall_ms": max(stalls, default=0) * 1000,
                            "busy_ms": max(busy, default=0) * 1000})

        stalls.clear()
        busy.clear()
        await asyncio.sleep(idle)  # the machine's own noise: the same ticker with nothing to do
        results.append({"phase": "idle", "answers": {}, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0, "built": 0,
                        "stall_ms": max(stalls, default=0) * 1000, "busy_ms": max(busy, default=0) * 1000})
        await measure("cold", 1, None)
        await measure("again", requests, None)
        await measure("304", requests, etag)
        async with bot.sessions.begin() as s:  # a game moves, as /game move does (bot/services/games.py)
            await s.execute(update(Game).where(Game.id == game_id).values(
                starts_at=NOW + timedelta(hours=3), sequence=Game.sequence + 1, revised_at=NOW + timedelta(minutes=1)))
        await measure("changed", 1, etag)
        done.set()
        await ticking
        await harness.close()
    return results


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--as-apps":
        url, clients, requests, etag = sys.argv[2:6]
        print(json.dumps(asyncio.run(fetch_as_apps(url, int(clients), int(requests), etag or None))))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=5, help="fetches per app in the again and 304 phases")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of the idle phase")
    args = parser.parse_args()
    results = asyncio.run(run(args.games, args.clients, args.requests, args.idle))
    print(f"{args.games} games, {args.clients} calendar apps")
    print(f"{'phase':>8s} {'answers':>16s} {'p50 ms':>9s} {'p99 ms':>9s} {'max ms':>9s} {'built':>6s} "
          f"{'longest loop stall ms':>22s} {'longest run of loop CPU ms':>27s}")
    for r in results:
        answers = ", ".join(f"{n}x{status}" for status, n in sorted(r["answers"].items())) or "-"
        print(f"{r['phase']:>8s} {answers:>16s} {r['p50_ms']:9.1f} {r['p99_ms']:9.1f} {r['max_ms']:9.1f} "
              f"{r['built']:6d} {r['stall_ms']:22.1f} {r['busy_ms']:27.1f}")
    longest = max(r["stall_ms"] for r in results if r["phase"] != "idle")
    verdict = "met" if longest <= STALL_GOAL_MS else "NOT met"
    print(f"longest loop stall {longest:.1f} ms (goal ≤ {STALL_GOAL_MS} ms: {verdict})")
    print(describe())
    print(reproduce("bench.feed", "--games", str(args.games), "--clients", str(args.clients),
                    "--requests", str(args.requests), "--idle", f"{args.idle:g}"))


if __name__ == "__main__":
    main()
