"""Slash commands under a large league, through the real command tree, as ratios to the floor.

Run: python -m bench.interactions [--count N]

Builds 200 teams, 4,000 players, 2,000 upcoming games with 20,000 check-ins, and 2,000 played
games with results in SQLite, then replays a mix (check-in 50%, whoisin 10%, lineup 10%,
schedule 10%, rule 10%, standings 10%) through the offline harness: raw INTERACTION_CREATE in,
captured HTTP out. The floor is a no-op command through the same tree; beside it, a no-op that
opens a unit of work and runs one query (SELECT 1, as the hot queries run) shows what the
database stack alone costs any command that reads. Also a check-in burst (players checking in
concurrently for 50 games) against the raw rate of committed single-row aiosqlite inserts.
Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import discord
from discord import app_commands
from sqlalchemy import insert, literal, select

from bench.idle import league
from bench.machine import describe, percentile, reproduce
from storage.db import PlainQuery, plain_rows

TEAMS, PLAYERS, GAMES, CHECKINS, RESULTS = 200, 4000, 2000, 20_000, 2000
PLAYED = RESULTS  # played games carry the results; the GAMES upcoming ones carry check-ins
NOW = datetime(2030, 1, 5, 12, tzinfo=UTC)
RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rulebooks" / "coed-ball-hockey-tournament.txt"


async def build(db: Path):  # type: ignore[no-untyped-def]
    from bot.app import create_bot, freeze_startup_objects
    from bot.clock import FixedClock
    from bot.settings import parse_settings
    from storage.models import CheckIn, Division, Game, Player, Result, RosterEntry, Team, TeamCaptain
    from tests.harness import Harness

    settings = parse_settings({"bot": {"database_url": f"sqlite+aiosqlite:///{db}"},
                               "leagues": [{**league(1, "coed-ball-hockey"), "rules": {"roster_limit": 40}}]})
    bot = create_bot(settings, clock=FixedClock(NOW), run_scheduler=False)
    harness = await Harness(bot).start()
    freeze_startup_objects()  # as `sideline run` does once the bot has logged in
    league_id = next(iter(bot.league_ids.values()))
    rng = random.Random(10)
    async with bot.sessions.begin() as s:
        await s.execute(insert(Division), [{"league_id": league_id, "name": f"D{i}"} for i in range(10)])
        divisions = (await s.scalars(select(Division.id))).all()
        await s.execute(insert(Team), [{"league_id": league_id, "name": f"Team {i:03d}", "division_id":
                                        divisions[i % 10], "channel_id": 10**15 + i} for i in range(TEAMS)])
        teams = (await s.scalars(select(Team.id).order_by(Team.id))).all()
        await s.execute(insert(TeamCaptain), [{"league_id": league_id, "team_id": t, "discord_id": 10**16 + i * 20}
                                              for i, t in enumerate(teams)])
        genders = ["woman", "man", "man", "non-binary", "man", None]
        await s.execute(insert(Player), [{"league_id": league_id, "discord_id": 10**16 + i, "name": f"Player {i}",
                                          "gender": genders[i % 6]} for i in range(PLAYERS)])
        players = (await s.scalars(select(Player.id).order_by(Player.id))).all()
        await s.execute(insert(RosterEntry), [{"league_id": league_id, "team_id": teams[i // 20], "player_id": p,
                                               "position": "goalie" if i % 20 == 19 else "skater",
                                               "added_at": NOW} for i, p in enumerate(players)])
        games = []
        for g in range(PLAYED + GAMES):
            home, away = rng.sample(range(TEAMS), 2)
            past = g < RESULTS
            starts = NOW - timedelta(days=1 + g % 60) if past else NOW + timedelta(hours=6 + g % 500)
            games.append({"league_id": league_id, "code": f"G{g}", "home_team_id": teams[home],
                          "away_team_id": teams[away], "starts_at": starts, "venue": "Rink",
                          "kind": "regular", "status": "final" if past else "scheduled"})
        await s.execute(insert(Game), games)
        game_rows = (await s.execute(select(Game.id, Game.home_team_id, Game.away_team_id).order_by(Game.id))).all()
        await s.execute(insert(Result), [{"league_id": league_id, "game_id": gid, "home_score": rng.randint(0, 6),
                                          "away_score": rng.randint(0, 6), "decided": "regulation",
                                          "entered_at": NOW} for gid, _, _ in game_rows[:RESULTS]])
        team_index = {t: i for i, t in enumerate(teams)}
        checkins, seen = [], set()
        upcoming = game_rows[RESULTS:]
        while len(checkins) < CHECKINS:
            gid, home, away = rng.choice(upcoming)
            team = rng.choice((home, away))
            pid = players[team_index[team] * 20 + rng.randrange(20)]
            if (gid, pid) in seen:
                continue
            seen.add((gid, pid))
            checkins.append({"league_id": league_id, "game_id": gid, "player_id": pid,
                             "status": rng.choice(("in", "in", "out", "maybe")), "updated_at": NOW})
        await s.execute(insert(CheckIn), checkins)
    if RULEBOOK.exists():
        from bot.services.rules_lookup import RulesLookupService

        await RulesLookupService(bot.sessions, bot.clock).import_rulebook(league_id, RULEBOOK.read_bytes(),
                                                                         str(RULEBOOK))
    return harness, upcoming, team_index


def add_noop(bot: discord.Client) -> None:
    @app_commands.command(name="noop", description="Answers at once: the floor")
    @app_commands.guild_only()
    async def noop(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    one = PlainQuery(select(literal(1)))

    @app_commands.command(name="noopdb", description="A unit of work and one query, then answers")
    @app_commands.guild_only()
    async def noop_db(interaction: discord.Interaction) -> None:
        """The cheapest database command the stack allows: what any command that reads pays first
        (a unit of work and one query, run the way the hot queries run: storage.db.PlainQuery)."""
        async with bot.sessions() as session:  # type: ignore[attr-defined]
            await plain_rows(session, one)
        await interaction.response.send_message("ok", ephemeral=True)

    bot.tree.add_command(noop)  # type: ignore[attr-defined]
    bot.tree.add_command(noop_db)  # type: ignore[attr-defined]


async def replay(count: int) -> None:
    from tests.harness import Member

    with tempfile.TemporaryDirectory() as tmp:
        harness, upcoming, team_index = await build(Path(tmp) / "bench.db")
        add_noop(harness.bot)
        rng = random.Random(7)
        cfg = harness.bot.settings.leagues[0]
        questions = ["can i fight", "how long is overtime", "how many girls on the floor", "offside",
                     "shootout shooters", "what if we dont have enough players", "goalie crease"]

        def player_for(team_i: int) -> Member:
            return Member(id=10**16 + team_i * 20 + rng.randrange(1, 19), name="P")

        def captain_for(team_i: int) -> Member:
            return Member(id=10**16 + team_i * 20, name="C", role_ids=(cfg.roles.captain,))

        timings: dict[str, list[float]] = defaultdict(list)
        plan = (["checkin"] * 50 + ["whoisin"] * 10 + ["lineup"] * 10 + ["schedule"] * 10 + ["rule"] * 10
                + ["standings"] * 10)
        for i in range(count * 11 // 9):  # the count, plus one no-op and one no-op with a unit of work per 9
            kind = "noop" if i % 11 == 10 else "noop_db" if i % 11 == 5 else rng.choice(plan)
            gid, home, _away = rng.choice(upcoming)
            team_i = team_index[home]
            code = f"G{gid - 1}"
            if kind == "checkin":
                args = ("/checkin", player_for(team_i), {"status": rng.choice(["in", "out", "maybe"]), "game": code})
            elif kind == "whoisin":
                args = ("/whoisin", player_for(team_i), {"game": code})
            elif kind == "lineup":
                args = ("/lineup", captain_for(team_i), {"game": code})
            elif kind == "schedule":
                args = ("/schedule", player_for(team_i), {})
            elif kind == "rule":
                args = ("/rule", player_for(team_i), {"question": rng.choice(questions)})
            elif kind == "standings":
                args = ("/standings show", player_for(team_i), {})
            elif kind == "noop_db":
                args = ("/noopdb", player_for(team_i), {})
            else:
                args = ("/noop", player_for(team_i), {})
            started = time.perf_counter()
            reply = await harness.slash(args[0], as_=args[1], **args[2])
            timings[kind].append((time.perf_counter() - started) * 1000)
            if i < 50 and not reply.responses:
                raise RuntimeError(f"{args[0]} did not answer")
            harness.discord.clear()  # the fake Discord keeps every request for tests; a bot keeps none
        floor = percentile(timings["noop"], 99)
        print(f"{count:,} interactions (+{len(timings['noop']):,} no-op, +{len(timings['noop_db']):,} no-op with "
              "a unit of work and one query) through the real command tree")
        print(f"{'command':12s} {'n':>6s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s} {'p99/floor':>10s}")
        for kind in ("noop", "noop_db", "checkin", "whoisin", "lineup", "schedule", "rule", "standings"):
            t = timings[kind]
            print(f"{kind:12s} {len(t):6d} {percentile(t, 50):8.2f} {percentile(t, 99):8.2f} {max(t):8.2f} "
                  f"{percentile(t, 99) / floor:9.1f}x")
        await burst(harness, upcoming, team_index)
        await harness.close()


async def burst(harness, upcoming, team_index) -> None:  # type: ignore[no-untyped-def]
    """1,000 players check in concurrently for 50 games, against raw single-row inserts."""
    from tests.harness import Member

    bot = harness.bot
    service = bot.services.checkins
    games = upcoming[:50]
    calls = []
    for i in range(1000):
        gid, home, _ = games[i % 50]
        member = Member(id=10**16 + team_index[home] * 20 + (i // 50) % 19, name="P")
        calls.append((member, f"G{gid - 1}"))
    from bot.access import Caller

    cfg = bot.settings.leagues[0]
    league_id = bot.league_ids[cfg.guild_id]

    async def one(member: Member, code: str) -> None:
        caller = Caller(member.id, member.name, cfg, league_id)
        await service.check_in(caller, "in", code)

    started = time.perf_counter()
    await asyncio.gather(*(one(m, c) for m, c in calls), return_exceptions=True)
    ours = len(calls) / (time.perf_counter() - started)

    with tempfile.TemporaryDirectory() as tmp:
        async with aiosqlite.connect(Path(tmp) / "raw.db") as db:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("CREATE TABLE t (game INTEGER, player INTEGER, status TEXT, PRIMARY KEY (game, player))")
            started = time.perf_counter()
            for i in range(1000):
                await db.execute("INSERT INTO t VALUES (?, ?, 'in')", (i % 50, i))
                await db.commit()
            raw = 1000 / (time.perf_counter() - started)
    print(f"check-in burst: {ours:,.0f} check-ins/s vs raw committed inserts {raw:,.0f}/s "
          f"= {ours / raw:.0%} of raw (goal ≥ 50%)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    args = parser.parse_args()
    asyncio.run(replay(args.count))
    print(describe())
    print(reproduce("bench.interactions", f"--count {args.count}"))


if __name__ == "__main__":
    main()
