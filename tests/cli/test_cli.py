"""The admin command line, run as an operator would."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.cli import main as cli
from tests.harness.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def sideline(*args: str, env: dict[str, str] | None = None,
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k not in ("SIDELINE_TOKEN", "SIDELINE_CONFIG")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd or ROOT, timeout=120)


def write_config(tmp_path: Path) -> Path:
    text = (ROOT / "config.leagues.example.toml").read_text()
    text = text.replace("sqlite+aiosqlite:///sideline.db", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_help_lists_the_commands() -> None:
    result = sideline("--help")
    assert result.returncode == 0
    for word in ("run", "db", "check-config", "import"):
        assert word in result.stdout


def test_check_config_on_the_example_with_real_ids(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    config.write_text(re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), config.read_text()))
    result = sideline("check-config", str(config))
    assert result.returncode == 0, result.stderr
    assert f"{config}: OK, 1 league(s)" in result.stdout


def test_check_config_warns_when_a_league_has_no_admin_channel(tmp_path: Path) -> None:
    """Review notices would go to announcements without the reason."""
    config = write_config(tmp_path)
    config.write_text(re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), config.read_text()))
    result = sideline("check-config", str(config), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["warnings"] == [
        "coed: no admin channel: suspensions waiting for commissioner review go to the announcements channel "
        "without the reason (set channels.admin)"]
    config.write_text(config.read_text().replace("# admin = 200000000000000011", "admin = 200000000000000011"))
    result = sideline("check-config", str(config))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stdout and "no admin channel" not in result.stdout


def test_check_config_on_the_default_config_without_leagues() -> None:
    result = sideline("check-config", "config.example.toml")
    assert result.returncode == 0, result.stderr
    assert "config.example.toml: OK, 0 league(s)" in result.stdout


def test_check_config_names_the_key_when_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "config.leagues.example.toml").read_text().replace('"America/Toronto"', '"Nowhere/City"'))
    result = sideline("check-config", str(bad))
    assert result.returncode == 2
    assert result.stderr.strip() == (f"sideline: {bad}: leagues[0].timezone: unknown time zone "
                                     "'Nowhere/City' (e.g. America/Toronto)")


def test_run_without_a_token_says_how_to_set_it(tmp_path: Path) -> None:
    result = sideline("--config", str(write_config(tmp_path)), "run")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "SIDELINE_TOKEN" in lines[0]
    assert "Traceback" not in result.stderr


def test_python_dash_m_bot_runs_the_bot_too(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SIDELINE_TOKEN"}
    env["SIDELINE_CONFIG"] = str(write_config(tmp_path))
    result = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 2 and "SIDELINE_TOKEN" in result.stderr


def test_a_rejected_token_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    async def reject(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", reject)
    monkeypatch.setenv("SIDELINE_TOKEN", "not-a-real-token")
    code = cli.main(["--config", str(write_config(tmp_path)), "run"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == ["sideline: Discord rejected the token in SIDELINE_TOKEN; copy it "
                                        "again from the Developer Portal (Bot > Reset Token)"]
    assert "not-a-real-token" not in err


def test_run_takes_start_up_objects_out_of_full_collections(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord(bot_user={"id": "1", "username": "Sideline", "discriminator": "0", "avatar": None,
                                 "bot": True, "global_name": None}, application_id=2)

    async def accept(self: discord.http.HTTPClient, token: str) -> dict[str, object]:  # as tests/harness does
        self._HTTPClient__session = fake  # type: ignore[attr-defined]
        self._global_over = asyncio.Event()
        self._global_over.set()
        self.token = token
        return await self.request(discord.http.Route("GET", "/users/@me"))  # type: ignore[no-any-return]

    frozen: list[int] = []

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:  # the gateway: not here
        frozen.append(gc.get_freeze_count())

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", accept)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setenv("SIDELINE_TOKEN", "accepted-token")
    before = gc.get_freeze_count()
    try:
        code = cli.main(["--config", str(write_config(tmp_path)), "run"])
    finally:
        gc.unfreeze()  # the rest of the test run collects as usual
    assert code == 0
    assert frozen and frozen[0] > before + 10_000  # the modules, the mappings, the bot: all started


def test_db_upgrade_then_import_samples(tmp_path: Path) -> None:
    config = str(write_config(tmp_path))
    up = sideline("--config", config, "db", "upgrade", "--json")
    assert up.returncode == 0, up.stderr
    assert json.loads(up.stdout)["before"] is None
    for kind in ("teams", "players", "games"):
        result = sideline("import", kind, str(DATA / f"{kind}.csv"), "--league", "coed", "--config", config)
        assert result.returncode == 0, result.stderr
        assert "created" in result.stdout
    again = sideline("import", "games", str(DATA / "games.csv"), "--league", "coed", "--config", config, "--json")
    assert json.loads(again.stdout) == {"kind": "games", "created": 0, "updated": 0, "unchanged": 6,
                                        "delimiter": ",", "warnings": [], "notes": []}


def test_import_json_says_how_the_file_was_read_and_warns_as_the_text_does(tmp_path: Path) -> None:
    """A script reading --json learns what a person reading the text learns: the delimiter and the warnings."""
    config = str(write_config(tmp_path))
    assert sideline("import", "teams", str(DATA / "teams.csv"), "--league", "coed", "--config", config).returncode == 0
    players = tmp_path / "players.csv"
    players.write_text("discord_id;name;team;position\n101;Al Roy;Hawks;skater\n102;Al Roy;Hawks;skater\n")
    text = sideline("import", "players", str(players), "--league", "coed", "--config", config)
    warning = next(line.removeprefix("warning: ") for line in text.stdout.splitlines() if line.startswith("warning: "))
    again = sideline("import", "players", str(players), "--league", "coed", "--config", config, "--json")
    answer = json.loads(again.stdout)
    assert answer["delimiter"] == ";" and answer["unchanged"] == 2
    assert answer["warnings"] == [warning], (answer, text.stdout)


def test_a_bad_import_lists_problems_with_line_numbers(tmp_path: Path) -> None:
    config = str(write_config(tmp_path))
    bad = tmp_path / "players.csv"
    bad.write_text("discord_id,name,team,position\n1,Al,Nowhere,skater\nx,Bo,Nowhere,goalie\n")
    result = sideline("import", "players", str(bad), "--league", "coed", "--config", config)
    assert result.returncode == 1
    assert "nothing was imported" in result.stderr
    assert f"{bad}:line 3: discord_id 'x' is not a Discord id" in result.stderr


def test_unknown_league_key(tmp_path: Path) -> None:
    result = sideline("import", "teams", str(DATA / "teams.csv"), "--league", "nope",
                      "--config", str(write_config(tmp_path)))
    assert result.returncode == 2 and "--league nope: no such league (known: coed)" in result.stderr


def test_db_backup_copies_the_database(tmp_path: Path) -> None:
    config = str(write_config(tmp_path))
    assert sideline("--config", config, "db", "upgrade").returncode == 0
    result = sideline("--config", config, "db", "backup", str(tmp_path / "copy.db"))
    assert result.returncode == 0, result.stderr
    assert "integrity ok" in result.stdout and (tmp_path / "copy.db").stat().st_size > 0
