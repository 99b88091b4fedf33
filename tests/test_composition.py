"""The composition root (bot/composition.py): the bot and the CLI are wired alike, and fail closed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.composition import build_services
from bot.config.settings import Settings
from bot.services.discipline.core import Discipline
from bot.services.reminders.plan import LineupAlerts
from bot.services.shootouts.orders import ShootoutOrderService
from bot.services.spares.requests import SpareRequestService
from storage.models import Game, League, Suspension, Team
from tests.cli.test_cli import ROOT, sideline
from tests.conftest import CHANNELS, GUILD, ROLES, SampleLeague, league_config, make_settings
from tests.harness import Harness

NO_PLAYOFF_CARRY = make_settings(league_config(rules={"suspensions_carry_into_playoffs": False}))
ISSUED = datetime(2026, 1, 15, 17, tzinfo=UTC)
# Hawks vs Owls, all played before today in real time (the CLI's clock), after the suspension.
PLAYED = {"X1": (datetime(2026, 2, 1, tzinfo=UTC), "regular"), "X2": (datetime(2026, 2, 8, tzinfo=UTC), "regular"),
          "X3": (datetime(2026, 2, 15, tzinfo=UTC), "regular"), "XP": (datetime(2026, 3, 1, tzinfo=UTC), "playoff")}


def config_file(tmp_path: Path, settings: Settings, database_url: str) -> Path:
    """The harness's league as a config file the CLI reads."""
    league = settings.leagues[0]
    path = tmp_path / "config.toml"
    path.write_text(textwrap.dedent(f"""\
        [bot]
        database_url = "{database_url}"

        [[leagues]]
        key = "{league.key}"
        name = "{league.name}"
        guild_id = {GUILD}
        preset = "{league.preset}"
        timezone = "America/Toronto"

        [leagues.roles]
        captain = {ROLES['captain']}
        referee = {ROLES['referee']}
        commissioner = {ROLES['commissioner']}

        [leagues.channels]
        announcements = {CHANNELS['announcements']}
        standings = {CHANNELS['standings']}
        referees = {CHANNELS['referees']}

        [leagues.rules]
        suspensions_carry_into_playoffs = false
        """))
    return path


@pytest.mark.parametrize("settings", [NO_PLAYOFF_CARRY])
@pytest.mark.parametrize("door", ["/result enter", "sideline import results"])
async def test_import_results_honours_the_leagues_playoff_carry_as_result_enter_does(
        harness: Harness, league: SampleLeague, settings: Settings, db_url: str, tmp_path: Path, door: str) -> None:
    """A 5-game suspension, three regular games, then the playoffs: with ``suspensions_carry_into_playoffs
    = false`` it ends at the playoffs (served 3), whichever door the results came through. Before the
    composition root, the CLI counted with the preset's rules (carry on) and left it active."""
    clock: FixedClock = harness.bot.clock  # type: ignore[assignment]
    async with harness.bot.sessions.begin() as s:
        league_id = await s.scalar(select(League.id).where(League.key == "coed"))
        hawks = await s.scalar(select(Team.id).where(Team.name == "Hawks"))
        owls = await s.scalar(select(Team.id).where(Team.name == "Owls"))
        for code, (starts_at, kind) in PLAYED.items():
            s.add(Game(league_id=league_id, code=code, home_team_id=hawks, away_team_id=owls, starts_at=starts_at,
                       kind=kind))
    clock.set(ISSUED)
    reply = await harness.slash("/suspend", as_=league.commissioner(), player=league.player("Alice Hart"), games=5,
                                reason="Boarding")
    assert "Suspension #" in reply.content, reply.content
    clock.set(datetime(2026, 3, 2, tzinfo=UTC))
    if door == "/result enter":
        for code in PLAYED:
            reply = await harness.slash("/result enter", as_=league.referee(), game=code, home=3, away=1,
                                        decided="regulation")
            assert "Recorded" in reply.content, reply.content
    else:
        results = tmp_path / "results.csv"
        results.write_text("game_id,home_score,away_score,decided,shootout_home,shootout_away\n"
                           + "".join(f"{code},3,1,regulation,,\n" for code in PLAYED))
        done = sideline("--config", str(config_file(tmp_path, settings, db_url)), "import", "results", str(results),
                        "--league", "coed")
        assert done.returncode == 0, done.stderr
    async with harness.bot.sessions() as s:
        stored = (await s.execute(select(Suspension.games, Suspension.games_served, Suspension.status))).all()
    assert [tuple(r) for r in stored] == [(5, 3, "served")]


def test_what_must_refuse_suspended_players_is_never_built_without_the_check() -> None:
    settings = make_settings()
    with pytest.raises(TypeError, match="suspension check"):
        ShootoutOrderService(None, FixedClock(ISSUED), suspensions=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="suspension check"):
        LineupAlerts(settings, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="suspension check"):
        SpareRequestService(None, FixedClock(ISSUED), settings, suspensions=None)  # type: ignore[arg-type]
    services = build_services(settings, None, FixedClock(ISSUED))  # type: ignore[arg-type]
    assert isinstance(services.discipline, Discipline)
    assert services.checkins.suspensions is services.discipline
    # Spares are never offered, nor take, a spot while suspended.
    assert services.spare_requests.suspensions is services.spare_pool.suspensions is services.discipline


CHECK_IN_FROM_THE_ROOT = """
import asyncio, sys
from datetime import UTC, datetime
from pathlib import Path

from bot.access import Caller
from bot.clock import FixedClock
from bot.composition import build_services
from bot.errors import NotAllowed
from storage import migrate
from storage.db import create_engine, session_factory
from tests.conftest import DATA, league_config, make_settings

async def main(url):
    settings = make_settings(league_config())
    league = settings.leagues[0]
    engine = create_engine(url)
    await migrate.upgrade(engine)
    services = build_services(settings, session_factory(engine), FixedClock(datetime(2030, 1, 5, tzinfo=UTC)))
    for kind in ("teams", "players", "games"):
        await services.imports.importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league,
                                            now=services.clock.now())
    async with services.sessions() as s:
        league_id = await services.imports.importer.league_id(s, league)
    commissioner = Caller(1, "Commissioner", league, league_id, frozenset({league.roles.commissioner}))
    alice = Caller(500_000_000_000_000_001, "Alice Hart", league, league_id)
    await services.suspensions.suspend(commissioner, discord_id=alice.discord_id, games=1, reason="Boarding")
    try:
        await services.checkins.check_in(alice, "in", "G1")
    except NotAllowed as refused:
        print("refused:", refused.message)
    else:
        print("accepted")
    await engine.dispose()

asyncio.run(main(sys.argv[1]))
"""


def test_a_suspended_players_checkin_is_refused_by_services_built_only_from_the_root(db_url: str) -> None:
    """A fresh process that builds the services and nothing else (no cog, no bot): before the
    composition root, nothing had registered discipline's check there, and the check-in went through."""
    done = subprocess.run([sys.executable, "-c", CHECK_IN_FROM_THE_ROOT, db_url], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: You can't check in for G1: you're suspended"), done.stdout
