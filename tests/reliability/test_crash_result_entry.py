"""A bot SIGKILLed while a referee enters results leaves every game all-or-nothing.

tests/reliability/results_kill_child.py enters 40 results one by one through ``/result enter`` and ``/result
forfeit`` on a SQLite file while four players' suspensions count down. It is killed at exact moments
of one result's unit of work (mid-flush, in the result hooks, at COMMIT, after COMMIT) and at seeded
random times. After each kill the database must hold a prefix of the entries, each game complete
(result row, final status, one audit entry with the same values, suspensions counted down, their
"served" DM queued and appeal windows closed) or untouched, and the standings the service and
``sideline standings --json`` show must be the pure engine's over the surviving results. A last run
enters everything again and ends at the standings of the whole plan.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import LeagueSettings
from bot.league.standings.table import GameResult, StandingsRow, compute_standings
from bot.run.app import create_bot
from bot.services.discipline.core import Discipline, serving_plan, window_ref
from bot.services.standings import StandingsService, StandingsTable
from storage.db import create_engine, session_factory
from storage.models import Suspension
from tests.conftest import DATA, SampleLeague
from tests.harness import Harness
from tests.reliability.results_kill_child import GAMES, MOMENTS, Planned, games_csv, plan, settings_for

CHILD = Path(__file__).resolve().parent / "results_kill_child.py"
ROOT = CHILD.parents[2]
SUSPENDED = {"Bea Quinn": 2, "Uma Reed": 1, "Zed Lowe": 3, "Eve Sato": 12}  # one per team, games to serve
SELF_KILLS = [("flush", "R05"), ("hook", "R12"), ("commit", "R19"), ("reply", "R26")]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


async def prepare(db_file: Path) -> LeagueSettings:
    """The sample teams and players, the 40 games, and the suspensions, issued before the first game."""
    settings = settings_for(db_file)
    bot = create_bot(settings, engine=create_engine(f"sqlite+aiosqlite:///{db_file}"),
                     clock=FixedClock(datetime(2030, 1, 5, 12, tzinfo=UTC)), run_scheduler=False)
    h = await Harness(bot).start()
    try:
        league, importer = settings.leagues[0], bot.services.imports.importer
        for kind in ("teams", "players"):
            await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=bot.clock.now())
        await importer.run("games", games_csv(), league, now=bot.clock.now())
        people = SampleLeague(h)
        for name, games in SUSPENDED.items():
            reply = await h.slash("/suspend", as_=people.commissioner(), player=people.player(name), games=games,
                                  reason="Fighting")
            assert reply.text.startswith("Suspension #"), reply.text
    finally:
        await h.close()
    return league


async def run_child(db_file: Path, *args: str, kill_after: int | None = None,
                    rng: random.Random | None = None) -> tuple[int, list[str], list[str]]:
    """Run the child; with ``kill_after``, SIGKILL it a random instant after that many new entries.

    Returns its exit code and the games it acknowledged as entered and as unchanged.
    """
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), str(db_file), *args, cwd=str(ROOT), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    entered: list[str] = []
    unchanged: list[str] = []
    while line := await asyncio.wait_for(proc.stdout.readline(), 60):
        game, outcome = line.decode().split(maxsplit=1)
        assert outcome.strip() in ("entered", "unchanged"), line
        (entered if outcome.strip() == "entered" else unchanged).append(game)
        if kill_after is not None and len(entered) == kill_after and rng is not None:
            await asyncio.sleep(rng.uniform(0, 0.03))  # somewhere in the next entry (or between two)
            proc.send_signal(signal.SIGKILL)
            kill_after = None  # what it still printed before dying was acknowledged too: keep reading
    return await proc.wait(), entered, unchanged


@dataclass
class Stored:
    """One game as the file holds it."""

    status: str
    result: tuple[Any, ...] | None = None
    audit: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def raw_state(db_file: Path) -> dict[str, Stored]:
    """Per game, straight from the file (no ORM): status, result values, audit entries."""
    with sqlite3.connect(db_file) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        games = {code: Stored(status) for code, status in conn.execute("SELECT code, status FROM games")}
        for row in conn.execute(
                "SELECT g.code, r.home_score, r.away_score, r.decided, r.shootout_home, r.shootout_away, t.name "
                "FROM results r JOIN games g ON g.id = r.game_id LEFT JOIN teams t ON t.id = r.forfeit_team_id"):
            games[row[0]].result = tuple(row[1:])
        for code, action, new in conn.execute(
                "SELECT g.code, c.action, c.new FROM result_changes c JOIN games g ON g.id = c.game_id ORDER BY c.id"):
            games[code].audit.append((action, json.loads(new)))
    return games


def expected_values(p: Planned, league: LeagueSettings) -> tuple[Any, ...]:
    """The result row the entry should leave: a forfeit stores the rules' score, the forfeiting side low."""
    r = p.result
    if r.decided == "forfeit":
        win, lose = league.rules.standings.standings_forfeit_score
        home, away = (lose, win) if r.forfeit_team == r.home else (win, lose)
        return home, away, "forfeit", None, None, r.forfeit_team
    return r.home_goals, r.away_goals, r.decided, r.shootout_home, r.shootout_away, None


def surviving_results(db_file: Path) -> list[GameResult]:
    """The stored results as the engine's rows, read with plain SQL (independent of the service)."""
    with sqlite3.connect(db_file) as conn:
        rows = conn.execute(
            "SELECT g.code, h.name, a.name, r.home_score, r.away_score, r.decided, r.shootout_home, "
            "r.shootout_away, f.name, r.penalty_waived, g.kind FROM results r JOIN games g ON g.id = r.game_id "
            "JOIN teams h ON h.id = g.home_team_id JOIN teams a ON a.id = g.away_team_id "
            "LEFT JOIN teams f ON f.id = r.forfeit_team_id ORDER BY g.starts_at, g.id").fetchall()
    return [GameResult(code, home, away, hs, as_, decided, so_h, so_a, ff, bool(waived), kind)
            for code, home, away, hs, as_, decided, so_h, so_a, ff, waived, kind in rows]


def team_divisions(db_file: Path) -> dict[str, str]:
    with sqlite3.connect(db_file) as conn:
        return {team: division or "" for team, division in conn.execute(
            "SELECT t.name, d.name FROM teams t LEFT JOIN divisions d ON d.id = t.division_id")}


async def stored_standings_and_suspensions(db_file: Path, league: LeagueSettings) -> tuple[
        tuple[StandingsRow, ...], list[tuple[int, int, str, int, str]]]:
    """The service's table, and per suspension (id, stored served, stored status, served and status
    recomputed from scratch from the surviving results)."""
    engine = create_engine(f"sqlite+aiosqlite:///{db_file}")
    try:
        sessions = session_factory(engine)
        table = await StandingsService(sessions, FixedClock(datetime(2030, 2, 1, tzinfo=UTC))).league_table(league)
        out = []
        async with sessions() as session:
            rows = (await session.scalars(select(Suspension).order_by(Suspension.id))).unique().all()
            for row in rows:
                rules = await Discipline([league]).rules(session, row.league_id)
                plan_ = {s.suspension.id: s for s in await serving_plan(session, row.league_id, row.player_id, rules)}
                serving = plan_[row.id]
                out.append((row.id, row.games_served, row.status, serving.served,
                            "served" if serving.remaining == 0 else "active"))
        return table.rows, out
    finally:
        await engine.dispose()


def messages_and_windows(db_file: Path) -> tuple[set[int], set[int]]:
    """Suspensions whose "served" DM is queued, and those whose appeal window is closed."""
    with sqlite3.connect(db_file) as conn:
        keys = [k for (k,) in conn.execute("SELECT send_key FROM outbox WHERE send_key LIKE 'suspension:%:served'")]
        done = {ref for (ref,) in conn.execute("SELECT ref FROM deadlines WHERE done_at IS NOT NULL")}
        ids = [i for (i,) in conn.execute("SELECT id FROM suspensions")]
    return {int(k.split(":")[1]) for k in keys}, {i for i in ids if window_ref(i) in done}


def cli_standings(db_file: Path, tmp_path: Path) -> list[dict[str, object]]:
    config = tmp_path / "cli.toml"
    config.write_text(f'''
[bot]
database_url = "sqlite+aiosqlite:///{db_file}"
[[leagues]]
key = "coed"
name = "Coed League"
guild_id = 111111111111111111
preset = "coed-ball-hockey"
timezone = "America/Toronto"
''')
    env = {k: v for k, v in os.environ.items() if k != "SIDELINE_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--config", str(config), "standings", "--league", "coed",
                           "--json"], cwd=ROOT, env=env, capture_output=True, timeout=60, check=True)
    return json.loads(done.stdout)


async def check_consistent(db_file: Path, league: LeagueSettings, planned: list[Planned],
                           acknowledged: set[str]) -> int:
    """Every game all-or-nothing, a prefix of the plan, the derived rows agreeing; returns how many are in."""
    state = raw_state(db_file)
    resulted = [p.game for p in planned if state[p.game].result is not None]
    k = len(resulted)
    assert resulted == [p.game for p in planned[:k]], f"not a prefix of the entries: {resulted}"
    assert acknowledged <= set(resulted), f"acknowledged but lost: {sorted(acknowledged - set(resulted))}"
    for p in planned:
        game = state[p.game]
        if game.result is None:
            assert (game.status, game.audit) == ("scheduled", []), f"{p.game} half-entered: {game}"
            continue
        values = expected_values(p, league)
        assert game.result == values, f"{p.game}: stored {game.result}, entered {values}"
        assert game.status == "final", f"{p.game} has a result but is {game.status}"
        assert len(game.audit) == 1, f"{p.game}: a result with audit entries {game.audit}"
        [(action, new)] = game.audit
        assert action == "entered", (p.game, action)
        assert (new["home_score"], new["away_score"], new["decided"], new["shootout_home"], new["shootout_away"],
                new["forfeit_team"]) == values, f"{p.game}: audit {new} disagrees with the result {values}"

    # suspensions: the stored countdown is what the surviving results say, and its side effects with it
    table_rows, suspensions = await stored_standings_and_suspensions(db_file, league)
    for sid, stored_served, stored_status, served, status in suspensions:
        assert (stored_served, stored_status) == (served, status), f"suspension #{sid} out of step with results"
    served_ids = {sid for sid, _, status, _, _ in suspensions if status == "served"}
    told, closed = messages_and_windows(db_file)
    assert told == served_ids, f"served {served_ids} but told {told}"
    assert closed == served_ids, f"served {served_ids} but windows closed for {closed}"

    # standings: the service's table is the pure engine's over what survived, and over the plan's prefix
    rules = league.rules.standings
    teams = team_divisions(db_file)
    from_scratch = compute_standings(rules, teams, surviving_results(db_file))
    assert list(table_rows) == from_scratch
    assert compute_standings(rules, teams, [p.result for p in planned[:k]]) == from_scratch
    return k


def as_json(league: LeagueSettings, rows: list[StandingsRow]) -> list[dict[str, object]]:
    return StandingsTable(league.key, league.name, league.rules.standings, tuple(rows), 0,
                          datetime(2030, 2, 1, tzinfo=UTC)).json_rows()


async def test_killed_result_entry_leaves_every_game_all_or_nothing(tmp_path: Path) -> None:
    db_file = tmp_path / "bot.db"
    league = await prepare(db_file)
    planned = plan(league.rules)
    codes = [p.game for p in planned]
    entered_ever: list[str] = []

    for moment, game in SELF_KILLS:
        assert moment in MOMENTS
        code, entered, unchanged = await run_child(db_file, moment, game)
        assert code == -signal.SIGKILL, f"the child was to die at {moment} of {game} (exit {code})"
        entered_ever += entered
        k = await check_consistent(db_file, league, planned, set(entered + unchanged))
        expected = codes.index(game) + (1 if moment == "reply" else 0)
        assert k == expected, f"kill at {moment} of {game}: {k} games in, expected {expected}"
        assert game not in entered, "the game's reply was not sent"

    rng = random.Random(611)
    for _ in range(2):
        code, entered, unchanged = await run_child(db_file, kill_after=rng.randint(1, 4), rng=rng)
        assert code == -signal.SIGKILL
        entered_ever += entered
        k = await check_consistent(db_file, league, planned, set(entered + unchanged))
        assert k in (len(entered + unchanged), len(entered + unchanged) + 1)  # at most the one in flight
    assert cli_standings(db_file, tmp_path) == as_json(league, compute_standings(
        league.rules.standings, team_divisions(db_file), surviving_results(db_file)))

    # entering everything again completes, and the table is the whole plan's
    code, entered, unchanged = await run_child(db_file)
    assert code == 0
    entered_ever += entered
    assert await check_consistent(db_file, league, planned, set(codes)) == GAMES
    assert sorted(entered + unchanged) == sorted(codes)
    assert len(entered_ever) == len(set(entered_ever)), "a result was entered twice"
    whole = compute_standings(league.rules.standings, team_divisions(db_file), [p.result for p in planned])
    assert cli_standings(db_file, tmp_path) == as_json(league, whole)
    _, suspensions = await stored_standings_and_suspensions(db_file, league)
    assert {status for _, _, status, _, _ in suspensions} == {"served"}
