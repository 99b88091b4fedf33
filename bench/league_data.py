"""The benchmark league: 200 teams, 4,000 players, 2,000 upcoming games with 20,000 check-ins and
2,000 played games with results, behind a started bot on the offline harness."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select

from bench.idle import league

TEAMS, PLAYERS, GAMES, CHECKINS, RESULTS = 200, 4000, 2000, 20_000, 2000
PLAYERS_PER_TEAM = PLAYERS // TEAMS
NOW = datetime(2030, 1, 5, 12, tzinfo=UTC)
RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rulebooks" / "coed-ball-hockey-tournament.txt"


def player_id(team_index: int, slot: int) -> int:
    """The Discord id of a team's player (slot 0 is also the team's captain)."""
    return 10**16 + team_index * PLAYERS_PER_TEAM + slot


async def build(database_url: str, **rules: Any):  # type: ignore[no-untyped-def]
    """A started bot over the benchmark league; returns (harness, upcoming games, team index)."""
    from bot.clock import FixedClock
    from bot.config.settings import parse_settings
    from bot.run.app import create_bot, freeze_startup_objects
    from storage.models import CheckIn, Division, Game, Player, Result, RosterEntry, Team, TeamCaptain
    from tests.harness import Harness

    settings = parse_settings({"bot": {"database_url": database_url},
                               "leagues": [{**league(1, "coed-ball-hockey"),
                                            "rules": {"roster_limit": 40, **rules}}]})
    bot = create_bot(settings, clock=FixedClock(NOW), run_scheduler=False)
    harness = await Harness(bot).start()
    harness.keep_deadline()  # the bot's deadline guard as in production (tests opt in to it)
    # Real Discord checks what it receives on its own machines; the fake's check against Discord's
    # API spec (the tests keep it on) would be counted here as the bot's own time.
    harness.discord.validates = False
    freeze_startup_objects()  # as `sideline run` does once the bot has logged in
    league_id = next(iter(bot.league_ids.values()))
    rng = random.Random(10)
    async with bot.sessions.begin() as s:
        await s.execute(insert(Division), [{"league_id": league_id, "name": f"D{i}"} for i in range(10)])
        divisions = (await s.scalars(select(Division.id).order_by(Division.id))).all()
        await s.execute(insert(Team), [{"league_id": league_id, "name": f"Team {i:03d}", "division_id":
                                        divisions[i % 10], "channel_id": 10**15 + i} for i in range(TEAMS)])
        teams = (await s.scalars(select(Team.id).order_by(Team.id))).all()
        await s.execute(insert(TeamCaptain), [{"league_id": league_id, "team_id": t, "discord_id": player_id(i, 0)}
                                              for i, t in enumerate(teams)])
        genders = ["woman", "man", "man", "non-binary", "man", None]
        await s.execute(insert(Player), [{"league_id": league_id, "discord_id": 10**16 + i, "name": f"Player {i}",
                                          "gender": genders[i % 6]} for i in range(PLAYERS)])
        players = (await s.scalars(select(Player.id).order_by(Player.id))).all()
        await s.execute(insert(RosterEntry), [{"league_id": league_id, "team_id": teams[i // PLAYERS_PER_TEAM],
                                               "player_id": p, "added_at": NOW,
                                               "position": "goalie" if i % PLAYERS_PER_TEAM == 19 else "skater"}
                                              for i, p in enumerate(players)])
        games = []
        for g in range(RESULTS + GAMES):
            home, away = rng.sample(range(TEAMS), 2)
            past = g < RESULTS
            starts = NOW - timedelta(days=1 + g % 60) if past else NOW + timedelta(hours=6 + g % 500)
            games.append({"league_id": league_id, "code": f"G{g}", "home_team_id": teams[home],
                          "away_team_id": teams[away], "starts_at": starts, "venue": "Rink",
                          "kind": "regular", "status": "final" if past else "scheduled"})
        await s.execute(insert(Game), games)
        game_rows = (await s.execute(select(Game.id, Game.code, Game.home_team_id, Game.away_team_id)
                                     .order_by(Game.id))).all()
        await s.execute(insert(Result), [{"league_id": league_id, "game_id": row.id, "home_score": rng.randint(0, 6),
                                          "away_score": rng.randint(0, 6), "decided": "regulation",
                                          "entered_at": NOW} for row in game_rows[:RESULTS]])
        team_index = {t: i for i, t in enumerate(teams)}
        checkins, seen = [], set()
        upcoming = game_rows[RESULTS:]
        while len(checkins) < CHECKINS:
            row = rng.choice(upcoming)
            team = rng.choice((row.home_team_id, row.away_team_id))
            pid = players[team_index[team] * PLAYERS_PER_TEAM + rng.randrange(PLAYERS_PER_TEAM)]
            if (row.id, pid) in seen:
                continue
            seen.add((row.id, pid))
            checkins.append({"league_id": league_id, "game_id": row.id, "player_id": pid,
                             "status": rng.choice(("in", "in", "out", "maybe")), "updated_at": NOW})
        await s.execute(insert(CheckIn), checkins)
    if RULEBOOK.exists():
        from bot.services.rulebooks.lookup import RulesLookupService

        await RulesLookupService(bot.sessions, bot.clock).import_rulebook(league_id, RULEBOOK.read_bytes(),
                                                                         str(RULEBOOK))
    return harness, upcoming, team_index
