"""Interactions arriving at a fixed rate, as Discord delivers them: what a user waits for an answer.

Run: python -m bench.burst [--rates 100,300,1000] [--seconds 10] [--with-background] [--only KIND] [--busy]

Open loop: interactions arrive at R per second for 10 s whether or not earlier ones have been
answered, through the real command tree (raw INTERACTION_CREATE in, captured HTTP out) against
the benchmark league (bench/league_data.py): 60% check-ins (half slash, half button), 10% each
/whoisin, /schedule, /standings show and /rule. For each command it prints the time to
acknowledge (feed to the interaction callback leaving for Discord) p50 / p99 / max, how many
missed Discord's 3 s deadline, and the event loop's longest stall. `--with-background` runs R =
300 while 1,000 queued messages go out, a 5,000-row players file goes through /import and the
standings are posted. `--busy`: the same while a CPU-bound competitor process runs on every core
(bench/machine.py; they stop by themselves), as on a machine busy with other work. Each run prints
the machine's cores and load average beside its figures. With SIDELINE_BENCH_PG_URL set,
everything runs on PostgreSQL too.

Goals: at R = 300, p99 ≤ 50 ms and longest stall ≤ 50 ms on SQLite; no missed deadline at any
R, quiet or busy; busy, p99 ≤ 500 ms at R = 100; with the background work, longest stall ≤ 100 ms.
Capacity: the highest R tried whose p99 stays ≤ 100 ms. Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from bench.league_data import NOW, TEAMS, build, player_id
from bench.machine import busy_cores, describe, fresh_database, load, percentile, reproduce
from tests.harness.fake_discord import fresh_snowflake, settle

DEADLINE_S = 3.0
#: How long the competitors of a --busy run may outlive the interactions: the answers still coming.
BUSY_MARGIN_S = 60.0
KINDS = ("checkin", "button", "whoisin", "schedule", "standings", "rule")
MIX = ["checkin"] * 30 + ["button"] * 30 + ["whoisin", "schedule", "standings", "rule"] * 10
QUESTIONS = ["can i fight", "how long is overtime", "how many girls on the floor", "offside",
             "shootout shooters", "what if we dont have enough players", "goalie crease"]
INTERACTION_PATH = re.compile(r"^/interactions/(\d+)/")


@dataclass
class Run:
    rate: int
    fed_at: dict[int, float] = field(default_factory=dict)  # interaction id -> when it arrived
    kind_of: dict[int, str] = field(default_factory=dict)
    acked_at: dict[int, float] = field(default_factory=dict)
    longest_stall_ms: float = 0.0

    def acks_ms(self, kind: str) -> list[float]:
        return [(self.acked_at[i] - self.fed_at[i]) * 1000 for i, k in self.kind_of.items()
                if k == kind and i in self.acked_at]

    def missed(self) -> int:
        return sum(1 for i, fed in self.fed_at.items()
                   if i not in self.acked_at or self.acked_at[i] - fed > DEADLINE_S)

    def all_acks_ms(self) -> list[float]:
        return [ms for kind in KINDS for ms in self.acks_ms(kind)]


class StallMonitor:
    """The longest time the event loop was held: a 5 ms ticker's worst lateness."""

    def __init__(self, tick: float = 0.005) -> None:
        self.tick, self.longest = tick, 0.0
        self.task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(self.tick)
            self.longest = max(self.longest, time.perf_counter() - started - self.tick)

    def __enter__(self) -> StallMonitor:
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()


def payloads(harness: Any, upcoming: Any, team_index: dict[int, int], count: int,
             rng: random.Random, mix: list[str] = MIX) -> Iterator[tuple[str, dict[str, Any]]]:
    """Interactions as Discord would send them, built before the clock starts."""
    from cogs.checkins._buttons import custom_id_for
    from tests.harness import Member

    guild = harness.default_guild
    for _ in range(count):
        kind = rng.choice(mix)
        game = rng.choice(upcoming)
        team = team_index[game.home_team_id]
        player = Member(id=player_id(team, rng.randrange(1, 19)), name="P")
        if kind == "checkin":
            path, options = "/checkin", {"status": rng.choice(["in", "out", "maybe"]), "game": game.code}
        elif kind == "whoisin":
            path, options = "/whoisin", {"game": game.code}
        elif kind == "schedule":
            path, options = "/schedule", {}
        elif kind == "standings":
            path, options = "/standings show", {}
        elif kind == "rule":
            path, options = "/rule", {"question": rng.choice(QUESTIONS)}
        else:
            custom_id = custom_id_for(game.code, rng.choice(["in", "out", "maybe"]), harness.bot.league_ids[guild])
            yield kind, button_payload(harness, custom_id, player, guild)
            continue
        yield kind, harness._base(2, player, guild, None, harness._command_data(path, options, guild))


def button_payload(harness: Any, custom_id: str, member: Any, guild: int) -> dict[str, Any]:
    channel = harness.channels[guild][0]
    message = {"id": str(10**18 + random.randrange(10**17)), "channel_id": str(channel), "type": 0,
               "content": "", "author": harness.discord.bot_user, "embeds": [], "attachments": [],
               "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
               "timestamp": NOW.isoformat(), "edited_timestamp": None, "flags": 0,
               "components": [{"type": 1, "components": [
                   {"type": 2, "style": 2, "label": "In", "custom_id": custom_id}]}]}
    return harness._base(3, member, guild, channel, {"custom_id": custom_id, "component_type": 2}, message)


async def drive(harness: Any, upcoming: Any, team_index: dict[int, int], rate: int, seconds: float,
                rng: random.Random, mix: list[str] = MIX) -> Run:
    """Feed `rate` interactions a second for `seconds`, on schedule, then wait for the answers."""
    planned = list(payloads(harness, upcoming, team_index, int(rate * seconds), rng, mix))
    # 120 s: every interaction answered, with its follow-ups (edits, captains' DMs)
    return await open_loop(harness, planned, rate, settle_seconds=120)


async def open_loop(harness: Any, planned: list[tuple[str, dict[str, Any]]], rate: int,
                    settle_seconds: float) -> Run:
    """Feed the planned (kind, interaction) pairs at ``rate`` a second whatever the answers do, each stamped
    as Discord stamps it when it sends it; then wait up to ``settle_seconds`` for every answer."""
    run = Run(rate)
    feed = harness.bot._connection.parsers["INTERACTION_CREATE"]

    def on_call(call: Any) -> None:
        match = INTERACTION_PATH.match(call.path)
        if match:
            run.acked_at.setdefault(int(match.group(1)), time.perf_counter())

    harness.discord.hooks.append(on_call)
    loop = asyncio.get_running_loop()
    with StallMonitor() as stalls:
        baseline = set(asyncio.all_tasks())
        start = loop.time()
        for n, (kind, payload) in enumerate(planned):
            delay = start + n / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            payload["id"] = str(fresh_snowflake())  # Discord creates an interaction as it sends it
            interaction_id = int(payload["id"])
            run.kind_of[interaction_id], run.fed_at[interaction_id] = kind, time.perf_counter()
            feed(payload)
        await settle(baseline, settle_seconds)
    harness.discord.hooks.remove(on_call)
    harness.discord.clear()  # the fake keeps every request for tests; a bot keeps none
    run.longest_stall_ms = stalls.longest * 1000
    return run


def report(run: Run, label: str) -> None:
    print(f"\n{label}: R = {run.rate}/s, {len(run.fed_at):,} interactions, "
          f"longest loop stall {run.longest_stall_ms:.1f} ms, missed the 3 s deadline: {run.missed()} "
          f"({load()})")
    print(f"  {'command':10s} {'n':>6s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s}")
    for kind in (*KINDS, "all"):
        acks = run.all_acks_ms() if kind == "all" else run.acks_ms(kind)
        if acks:
            print(f"  {kind:10s} {len(acks):6d} {percentile(acks, 50):8.2f} {percentile(acks, 99):8.2f} "
                  f"{max(acks):8.2f}")


async def background(harness: Any, done: asyncio.Event) -> dict[str, float]:
    """1,000 queued messages going out, a 5,000-row players import and a standings post, at once."""
    from bot.services import outbox
    from tests.harness import Attachment, Member

    bot = harness.bot
    cfg = bot.settings.leagues[0]
    league_id = bot.league_ids[cfg.guild_id]
    async with bot.sessions.begin() as session:
        for i in range(1000):
            await outbox.enqueue(session, league_id=league_id, guild_id=cfg.guild_id, key=f"bench:{uuid.uuid4()}:{i}",
                                 due_at=NOW - timedelta(minutes=1), args={"content": f"Reminder {i}"},
                                 channel_id=10**15 + i % TEAMS)
    rows = ["discord_id,name,team,position,gender"]
    rows += [f"{5 * 10**16 + i},Newcomer {i},Team {i % TEAMS:03d},skater," for i in range(5000)]
    csv_file = Attachment("players.csv", ("\n".join(rows) + "\n").encode())
    commissioner = Member(id=9 * 10**16, name="Commissioner", role_ids=(cfg.roles.commissioner,))
    timings: dict[str, float] = {}

    async def timed(name: str, coroutine: Any) -> None:
        started = time.perf_counter()
        await coroutine
        timings[name] = time.perf_counter() - started

    async def outbox_drain() -> None:
        while (await bot.courier.deliver_due()).sent:
            pass

    async def command(path: str, **options: Any) -> None:
        """Feed a deferred command and wait for its follow-up, without waiting for anyone else's work."""
        payload = harness._base(2, commissioner, cfg.guild_id, None,
                                harness._command_data(path, options, cfg.guild_id))
        answered = asyncio.get_running_loop().create_future()

        def on_call(call: Any) -> None:
            if call.path.startswith("/webhooks/") and payload["token"] in call.path and not answered.done():
                answered.set_result(call)

        harness.discord.hooks.append(on_call)
        harness.bot._connection.parsers["INTERACTION_CREATE"](payload)
        try:
            async with asyncio.timeout(600):
                await answered
        finally:
            harness.discord.hooks.remove(on_call)

    await asyncio.gather(
        timed("1,000 queued messages sent", outbox_drain()),
        timed("5,000-row /import players", command("/import players", file=csv_file)),
        timed("/standings post", command("/standings post")),
    )
    done.set()
    return timings




async def bench(kind: str, rates: list[int], seconds: float, with_background: bool, mix: list[str] = MIX,
                busy: bool = False) -> None:
    async with fresh_database(None if kind == "sqlite" else os.environ["SIDELINE_BENCH_PG_URL"], "bench") as url:
        harness, upcoming, team_index = await build(url, roster_limit=80)
        rng = random.Random(7)
        try:
            await drive(harness, upcoming, team_index, 50, 2, rng)  # warm up: caches, first standings
            competitors = ExitStack()
            if busy:  # from here on: the measured runs
                runs = len(rates) + (1 if with_background else 0)
                started = competitors.enter_context(busy_cores(runs * seconds + BUSY_MARGIN_S))
                label = f"{kind}, busy"
                print(f"\n{kind}: {started} CPU-bound competitor processes, one per core, beside every run below")
            else:
                label = kind
            with competitors:
                await measure(harness, upcoming, team_index, rng, label, rates, seconds, with_background, mix)
        finally:
            await harness.close()


async def measure(harness: Any, upcoming: Any, team_index: dict[int, int], rng: random.Random, kind: str,
                  rates: list[int], seconds: float, with_background: bool, mix: list[str]) -> None:
    """The runs at each rate (and with the background work), reported as they end."""
    capacity = 0
    for rate in rates:
        run = await drive(harness, upcoming, team_index, rate, seconds, rng, mix)
        report(run, kind)
        if percentile(run.all_acks_ms(), 99) <= 100:
            capacity = max(capacity, rate)
    if rates:
        print(f"\n{kind}: capacity (highest R tried with p99 ≤ 100 ms): {capacity}/s")
    if with_background:
        done = asyncio.Event()
        work = asyncio.create_task(background(harness, done))
        run = await drive(harness, upcoming, team_index, 300, seconds, rng)
        timings = await work
        report(run, f"{kind} with background work")
        for name, took in timings.items():
            print(f"  background: {name} in {took:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", default="100,300,1000")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--with-background", action="store_true")
    parser.add_argument("--only", choices=KINDS, help="one kind of interaction instead of the mix "
                        "(e.g. rule: no database at all, the ceiling of the command tree and the loop)")
    parser.add_argument("--busy", action="store_true", help="with a CPU-bound competitor process on every core")
    args = parser.parse_args()
    mix = [args.only] if args.only else MIX
    rates = [] if args.with_background else [int(r) for r in args.rates.split(",") if r]
    kinds = ["sqlite"] + (["postgresql"] if os.environ.get("SIDELINE_BENCH_PG_URL") else [])
    for kind in kinds:
        asyncio.run(bench(kind, rates, args.seconds, args.with_background, mix, args.busy))
    print(describe())
    extra = "--with-background" if args.with_background else f"--rates {args.rates}"
    extra += f" --seconds {args.seconds:g}"
    extra += f" --only {args.only}" if args.only else ""
    extra += " --busy" if args.busy else ""
    print(reproduce("bench.burst", extra))


if __name__ == "__main__":
    main()
