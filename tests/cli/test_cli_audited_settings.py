"""`sideline check-config` takes the settings the rulebook audit added, and refuses a value out of bounds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.test_cli import ROOT, sideline

AUDITED = ("standings_forfeit_goals_count = true\nstandings_all_teams_qualify = false\n"
           "standings_seeding_games_guaranteed = 3\ndiscipline_commissioner_may_exceed_range = true\n"
           "dispute_calls_allowed = true\n")


def config_with(tmp_path: Path, rules: str) -> Path:
    text = re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), (ROOT / "config.leagues.example.toml").read_text())
    text = text.replace("sqlite+aiosqlite:///sideline.db", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    text = text.replace("[leagues.rules]\n", f"[leagues.rules]\n{rules}", 1)
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_check_config_accepts_the_audited_settings(tmp_path: Path) -> None:
    config = config_with(tmp_path, AUDITED)
    result = sideline("check-config", str(config))
    assert result.returncode == 0, result.stderr
    assert f"{config}: OK, 1 league(s)" in result.stdout


@pytest.mark.parametrize(("line", "problem"), [
    ("standings_seeding_games_guaranteed = 60\n",
     "standings_seeding_games_guaranteed: must be between 0 and 50, not 60"),
    ("dispute_calls_allowed = 1\n", "dispute_calls_allowed: must be true or false, not 1"),
])
def test_check_config_names_an_audited_setting_out_of_bounds(tmp_path: Path, line: str, problem: str) -> None:
    config = config_with(tmp_path, line)
    result = sideline("check-config", str(config))
    assert result.returncode == 2
    assert problem in result.stderr, result.stderr
