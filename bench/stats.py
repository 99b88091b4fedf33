"""/stats leaders over a big league: 100,000 players on 5,000 teams, 20,000 played games with their game sheets
(480,000 lines), 120,000 goals and 60,000 penalties, and 2,000 upcoming games for check-ins.

Run: python -m bench.stats [--rates 100,300] [--seconds 10] [--players 100000] [--games 20000]

First, at the service: each category's leaders (the league's down the index of the season totals; a division's
from its teams' lines, first and then kept), and what counting one game again costs (each goal, sheet
change, penalty or result does it). Then open loop, as bench.burst drives it (raw INTERACTION_CREATE in, the
callback leaving for Discord timed): at R per second for ``--seconds``, 40% /stats leaders (a random
category), 20% /stats player, 40% /checkin, with a goal recorded every second (each one counts its game
again and moves the totals), through the real command tree with the production deadline guard.
Prints per command the time to acknowledge (p50 / p99 / max), the interactions that missed Discord's 3 s
deadline and the event loop's longest stall. The goal is bench.burst's: no missed deadline at any R.
With SIDELINE_BENCH_PG_URL set, PostgreSQL too. Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from datetime import timedelta
from typing import Any

from bench.burst import DEADLINE_S, INTERACTION_PATH, Run, open_loop
from bench.idle import league
from bench.league_data import NOW
from bench.machine import describe, fresh_database, percentile, reproduce
from tests.harness.fake_discord import fresh_snowflake, settle

PER_TEAM = 20
KINDS = ("leaders", "player", "checkin", "goal")
CATEGORIES = ("points", "goals", "assists", "pim", "gp")
BATCH = 20_000


def discord_id(team: int, slot: int) -> int:
    return 10**16 + team * PER_TEAM + slot


async def build(url: str, players: int, games: int) -> tuple[Any, list[Any], list[Any]]:
    """The bot over the big league; returns (harness, played game rows, upcoming game rows)."""
    from sqlalchemy import insert, select

    from bot.clock import FixedClock
    from bot.config.settings import parse_settings
    from bot.run.app import create_bot, freeze_startup_objects
    from bot.services.stats.lines import ensure_seasons
    from storage.models import (
        Division,
        Game,
        GameSheet,
        GameSheetEntry,
        Goal,
        Penalty,
        Player,
        Result,
        RosterEntry,
        StatLine,
        Team,
    )
    from tests.harness import Harness

    teams_n = players // PER_TEAM
    settings = parse_settings({"bot": {"database_url": url},
                               "leagues": [{**league(1, "youth-ball-hockey"),
                                            "roles": {"captain": 11, "referee": 12, "commissioner": 13,
                                                      "timekeeper": 14}}]})
    bot = create_bot(settings, clock=FixedClock(NOW), run_scheduler=False)
    harness = await Harness(bot).start()
    harness.keep_deadline()
    harness.discord.validates = False
    freeze_startup_objects()
    league_id = next(iter(bot.league_ids.values()))
    rng = random.Random(11)

    async def rows(model: Any, values: list[dict[str, Any]]) -> None:
        for start in range(0, len(values), BATCH):
            async with bot.sessions.begin() as s:
                await s.execute(insert(model), values[start:start + BATCH])

    await rows(Division, [{"league_id": league_id, "name": name} for name in ("junior", "senior")])
    async with bot.sessions() as s:
        divisions = (await s.scalars(select(Division.id).order_by(Division.id))).all()
    await rows(Team, [{"league_id": league_id, "name": f"Team {i:04d}", "division_id": divisions[i % 2],
                       "channel_id": 10**15 + i} for i in range(teams_n)])
    async with bot.sessions() as s:
        teams = (await s.scalars(select(Team.id).order_by(Team.id))).all()
    await rows(Player, [{"league_id": league_id, "discord_id": 10**16 + i, "name": f"Player {i}", "gender": None}
                        for i in range(players)])
    async with bot.sessions() as s:
        player_ids = (await s.scalars(select(Player.id).order_by(Player.id))).all()
    await rows(RosterEntry, [{"league_id": league_id, "team_id": teams[i // PER_TEAM], "player_id": p,
                              "added_at": NOW - timedelta(days=400),
                              "position": "goalie" if i % PER_TEAM == PER_TEAM - 1 else "skater"}
                             for i, p in enumerate(player_ids)])
    schedule = []
    for g in range(games + 2000):
        home, away = rng.sample(range(teams_n), 2)
        past = g < games
        schedule.append({"league_id": league_id, "code": f"G{g}", "home_team_id": teams[home],
                         "away_team_id": teams[away], "venue": "Rink", "kind": "regular",
                         "starts_at": NOW - timedelta(days=1 + g % 300) if past else NOW + timedelta(hours=6 + g % 500),
                         "status": "final" if past else "scheduled"})
    await rows(Game, schedule)
    async with bot.sessions() as s:
        game_rows = (await s.execute(select(Game.id, Game.code, Game.home_team_id, Game.away_team_id,
                                            Game.starts_at).order_by(Game.id))).all()
    played, upcoming = game_rows[:games], game_rows[games:]
    index = {t: i for i, t in enumerate(teams)}
    results, sheets, lines, goals, penalties, stat_lines = [], [], [], [], [], []
    for row in played:
        score: dict[int, int] = {}
        forfeit = rng.random() < 0.01
        counted: dict[int, dict[str, Any]] = {}  # the game's statistics lines (bot/services/stats/lines.py)
        goalie_of: dict[int, int] = {}
        for team in (row.home_team_id, row.away_team_id):
            base = index[team] * PER_TEAM
            dressed = [*sorted(rng.sample(range(PER_TEAM - 1), 11)), PER_TEAM - 1]
            ids = [player_ids[base + slot] for slot in dressed]
            goalie_of[team] = ids[-1]
            sheets.append({"game_id": row.id, "team_id": team, "league_id": league_id, "confirmed_by_name": "",
                           "frozen_at": NOW})
            lines += [{"league_id": league_id, "game_id": row.id, "team_id": team, "player_id": pid,
                       "name": "P", "position": "goalie" if pid == ids[-1] else "skater", "source": "checkin",
                       "added_at": NOW} for pid in ids]
            for pid in ids:
                counted[pid] = {"team_id": team, "gp": 1, "goals": 0, "assists": 0, "pim": 0,
                                "goalie": int(pid == ids[-1]), "goals_against": 0, "shutout": 0}
            score[team] = rng.randint(0, 6)
            for _ in range(score[team]):
                scorer, a1, a2 = rng.sample(ids[:-1], 3)
                assists = [a for a, p in ((a1, 0.8), (a2, 0.5)) if rng.random() < p]
                goals.append({"league_id": league_id, "game_id": row.id, "team_id": team, "scorer_id": scorer,
                              "assist1_id": assists[0] if assists else None,
                              "assist2_id": assists[1] if len(assists) > 1 else None, "disallowed": False,
                              "disallowed_reason": "", "recorded_by": 1, "recorded_at": NOW, "goalie_id": None})
                counted[scorer]["goals"] += 1
                for a in assists:
                    counted[a]["assists"] += 1
            for _ in range(rng.randint(0, 3)):
                pid = rng.choice(ids)
                penalties.append({"league_id": league_id, "game_id": row.id, "player_id": pid,
                                  "team_id": team, "infraction_key": "tripping", "called_key": "tripping",
                                  "category": "minor", "minutes": 2, "summary": "Tripping: minor, 2 minutes",
                                  "referee_id": 1, "created_at": NOW})
                counted[pid]["pim"] += 2
        home, away = row.home_team_id, row.away_team_id
        for team, other in ((home, away), (away, home)):
            counted[goalie_of[team]]["shutout"] = int(score[other] == 0)
        results.append({"league_id": league_id, "game_id": row.id, "home_score": score[home],
                        "away_score": score[away], "entered_at": NOW, "decided": "forfeit" if forfeit else "regulation",
                        "forfeit_team_id": away if forfeit else None})
        if not forfeit:
            stat_lines += [{"game_id": row.id, "player_id": pid, "league_id": league_id, "season_id": 0,
                            "starts_at": row.starts_at, **numbers} for pid, numbers in counted.items()]
    for model, values in ((Result, results), (GameSheet, sheets), (GameSheetEntry, lines), (Goal, goals),
                          (Penalty, penalties), (StatLine, stat_lines)):
        await rows(model, values)
    # The totals counted from the lines once, as after a change of seasons (bot/services/stats/lines.py).
    started = time.perf_counter()
    async with bot.sessions.begin() as s:
        await ensure_seasons(s, league_id)
    print(f"league: {players:,} players, {teams_n:,} teams, {games:,} played games, {len(lines):,} sheet lines, "
          f"{len(goals):,} goals, {len(penalties):,} penalties, {len(upcoming):,} upcoming games; "
          f"{len(stat_lines):,} statistics lines, totals counted from them in {time.perf_counter() - started:.1f} s",
          flush=True)
    return harness, list(played), list(upcoming)


def payload(harness: Any, kind: str, rng: random.Random, played: list[Any], upcoming: list[Any],
            team_index: dict[int, int]) -> dict[str, Any]:
    """One interaction as Discord would send it, built before the clock starts."""
    from tests.harness import Member

    guild = harness.default_guild
    options: dict[str, Any]
    if kind == "leaders":
        path, options, who = "/stats leaders", {"category": rng.choice(CATEGORIES)}, Member(discord_id(0, 1), "P")
    elif kind == "player":
        target = Member(discord_id(rng.randrange(len(team_index)), rng.randrange(PER_TEAM)), "Q")
        harness.join(target, guild)
        path, options, who = "/stats player", {"member": target}, Member(discord_id(1, 1), "P")
    elif kind == "goal":  # the timekeeper records a goal by a goalie (always on the sheet) in a played game
        game = rng.choice(played[-500:])
        team = team_index[game.home_team_id]
        scorer = Member(discord_id(team, PER_TEAM - 1), "G")
        harness.join(scorer, guild)
        path, who = "/goal add", Member(9 * 10**16, "Timekeeper", role_ids=(14,))
        options = {"game": game.code, "team": f"Team {team:04d}", "scorer": scorer}
    else:
        game = rng.choice(upcoming)
        team = team_index[game.home_team_id]
        path, options = "/checkin", {"status": rng.choice(["in", "out", "maybe"]), "game": game.code}
        who = Member(discord_id(team, rng.randrange(PER_TEAM)), "P")
    return harness._base(2, who, guild, None, harness._command_data(path, options, guild))


async def answer_once(harness: Any, body: dict[str, Any]) -> float:
    """Feed one interaction and wait for everything it sets off: seconds to its acknowledgement."""
    fed = time.perf_counter()
    acked: list[float] = []

    def on_call(call: Any) -> None:
        if INTERACTION_PATH.match(call.path) and not acked:
            acked.append(time.perf_counter())

    harness.discord.hooks.append(on_call)
    baseline = set(asyncio.all_tasks())
    body["id"] = str(fresh_snowflake())
    harness.bot._connection.parsers["INTERACTION_CREATE"](body)
    await settle(baseline, 120)
    harness.discord.hooks.remove(on_call)
    return (acked[0] if acked else time.perf_counter()) - fed


async def drive(harness: Any, rate: int, seconds: float, rng: random.Random, played: list[Any],
                upcoming: list[Any], team_index: dict[int, int]) -> Run:
    """Open loop: ``rate`` interactions a second, a goal every second among them, whatever the answers do."""
    mix = ["leaders"] * 4 + ["player"] * 2 + ["checkin"] * 4
    count = int(rate * seconds)
    planned = [("goal" if n % rate == rate // 2 else rng.choice(mix)) for n in range(count)]
    bodies = [(kind, payload(harness, kind, rng, played, upcoming, team_index)) for kind in planned]
    return await open_loop(harness, bodies, rate, settle_seconds=300)


def report(run: Run, label: str) -> None:
    print(f"\n{label}: R = {run.rate}/s, {len(run.fed_at):,} interactions, longest loop stall "
          f"{run.longest_stall_ms:.1f} ms, missed the {DEADLINE_S:.0f} s deadline: {run.missed()}")
    print(f"  {'command':10s} {'n':>6s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s}")
    every: list[float] = []
    for kind in KINDS:
        acks = run.acks_ms(kind)
        every += acks
        if acks:
            print(f"  {kind:10s} {len(acks):6d} {percentile(acks, 50):8.2f} {percentile(acks, 99):8.2f} "
                  f"{max(acks):8.2f}")
    if every:
        print(f"  {'all':10s} {len(every):6d} {percentile(every, 50):8.2f} {percentile(every, 99):8.2f} "
              f"{max(every):8.2f}")


async def aggregates(harness: Any, played: list[Any]) -> None:
    """The reads and the writes behind them, at the service: each category's leaders (the league's, down the
    totals' index; a division's, a grouped query kept until the statistics change), and counting one game again
    (what each goal, sheet change, penalty or result costs)."""
    from bot.services.stats.lines import refresh_game

    bot = harness.bot
    service = bot.services.stats
    league = bot.settings.leagues[0]
    league_id = next(iter(bot.league_ids.values()))
    for label, division in (("league", None), ("division, first", "senior"), ("division, kept", "senior")):
        figures = []
        for category in CATEGORIES:
            started = time.perf_counter()
            async with bot.sessions() as session:
                await service.league_leaders(session, league, league_id, category,  # type: ignore[arg-type]
                                             division=division)
            figures.append(f"{category} {(time.perf_counter() - started) * 1000:.1f}")
        print(f"  leaders, {label} (ms): " + ", ".join(figures))
    timings = []
    for row in played[:20]:
        started = time.perf_counter()
        async with bot.sessions.begin() as session:
            await refresh_game(session, league_id, row.id)
        timings.append((time.perf_counter() - started) * 1000)
    print(f"  a game's statistics counted again: p50 {percentile(timings, 50):.1f} ms, max {max(timings):.1f} ms")


async def bench(kind: str, rates: list[int], seconds: float, players: int, games: int) -> None:
    async with fresh_database(None if kind == "sqlite" else os.environ["SIDELINE_BENCH_PG_URL"], "stats") as url:
        started = time.perf_counter()
        harness, played, upcoming = await build(url, players, games)
        print(f"{kind}: built in {time.perf_counter() - started:.0f} s", flush=True)
        try:
            await aggregates(harness, played)
            from sqlalchemy import select

            from storage.models import Team

            async with harness.bot.sessions() as session:
                teams = (await session.scalars(select(Team.id).order_by(Team.id))).all()
            team_index = {t: i for i, t in enumerate(teams)}
            rng = random.Random(5)
            single = await answer_once(harness, payload(harness, "leaders", rng, played, upcoming, team_index))
            print(f"  one /stats leaders through the command tree, kept: acknowledged in {single * 1000:.1f} ms")
            await drive(harness, 20, 2, rng, played, upcoming, team_index)  # warm up
            for rate in rates:
                report(await drive(harness, rate, seconds, rng, played, upcoming, team_index), kind)
        finally:
            await harness.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", default="100,300")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",") if r]
    kinds = ["sqlite"] + (["postgresql"] if os.environ.get("SIDELINE_BENCH_PG_URL") else [])
    for kind in kinds:
        asyncio.run(bench(kind, rates, args.seconds, args.players, args.games))
    print(describe())
    print(reproduce("bench.stats", f"--rates {args.rates} --seconds {args.seconds:g} --players {args.players} "
                                   f"--games {args.games}"))


if __name__ == "__main__":
    main()
