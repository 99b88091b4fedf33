"""A process killed in the middle of an import leaves nothing half-imported."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 12000
TEAMS = 120  # 100 players a team: the roster limit's bound


def write_files(tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "config.toml"
    config.write_text(f'''
[bot]
database_url = "sqlite+aiosqlite:///{tmp_path / 'crash.db'}"
[[leagues]]
key = "coed"
name = "Coed"
guild_id = 111111111111111111
preset = "coed-ball-hockey"
timezone = "America/Toronto"
[leagues.rules]
roster_limit = {PLAYERS // TEAMS}
''')
    teams = tmp_path / "teams.csv"
    teams.write_text("team,division,captain_discord_ids\n" + "".join(f"Team {t},North,{t + 1}\n" for t in range(TEAMS)))
    players = tmp_path / "players.csv"
    with players.open("w") as f:
        f.write("discord_id,name,team,position,gender\n")
        for i in range(PLAYERS):
            f.write(f"{10**17 + i},Player {i},Team {i % TEAMS},skater,woman\n")
    return config, players


def sideline(config: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "SIDELINE_TOKEN"}
    return subprocess.Popen([sys.executable, "-m", "bot.cli", "--config", str(config), *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("kill_after", [1.5, 2.5, 3.5])
def test_a_kill_during_an_import_leaves_all_or_nothing(tmp_path: Path, kill_after: float) -> None:
    config, players = write_files(tmp_path)
    teams = tmp_path / "teams.csv"
    assert sideline(config, "import", "teams", str(teams), "--league", "coed").wait(60) == 0
    proc = sideline(config, "import", "players", str(players), "--league", "coed")
    time.sleep(kill_after)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    with sqlite3.connect(tmp_path / "crash.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        players_in = conn.execute("SELECT count(*) FROM players").fetchone()[0]
        roster_in = conn.execute("SELECT count(*) FROM roster_entries").fetchone()[0]
    assert (players_in, roster_in) in ((0, 0), (PLAYERS, PLAYERS)), (players_in, roster_in)
    if kill_after != 2.5:
        return
    # and the same import then completes cleanly
    assert sideline(config, "import", "players", str(players), "--league", "coed").wait(120) == 0
    with sqlite3.connect(tmp_path / "crash.db") as conn:
        assert conn.execute("SELECT count(*) FROM roster_entries").fetchone()[0] == PLAYERS
