"""Every expected failure of `sideline` is one line on stderr, the right exit code (2: usage,
config, the database or Discord; 1: the data), nothing on stdout (``{"error": ...}`` with --json), no
traceback (unless --debug), and for refused data an unchanged database. Run in-process through
``bot.cli.main``; only `make run` needs a subprocess."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import subprocess
import types
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
from sqlalchemy import text

from bot.cli import main as cli
from bot.config.settings import EXAMPLE_IDS
from storage.db import create_engine
from tests.harness.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
EXAMPLE = (ROOT / "config.leagues.example.toml").read_text()
# The example with real-looking ids, its database in the config's folder (a relative path).
REAL = re.sub(r"\b([12])(\d{17})\b", lambda m: str(int(m[0]) + 7), EXAMPLE)

Edit = Callable[[str], str]


def _set(old: str, new: str) -> Edit:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new)
    return edit


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err, err
    assert lines[0].startswith("sideline: "), lines[0]
    return lines[0]


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIDELINE_TOKEN", raising=False)
    monkeypatch.delenv("SIDELINE_CONFIG", raising=False)


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- every config mistake: check-config, exit 2, the file, the key and what is wrong -----------------------
CONFIG_CASES: list[tuple[str, Edit, str]] = [
    ("rule value out of range", _set("women_nonbinary_on_court = 2", "women_nonbinary_on_court = 9"),
     "leagues[0].rules.women_nonbinary_on_court: must be between 0"),
    ("bad rule list", _set("women_nonbinary_on_court = 2", 'standings_tiebreakers = ["banana"]'),
     "leagues[0].rules.standings_tiebreakers"),
    ("reminder setting among the rules, ignored there",
     _set("women_nonbinary_on_court = 2", 'captain_alert_lead_times = ["banana"]'),
     "leagues[0].rules.captain_alert_lead_times: is ignored here: reminders are set in [leagues.reminders] "
     "as captain_alert_offsets"),
    ("duplicate of [leagues.reminders]", _set("women_nonbinary_on_court = 2", 'game_reminder_offsets = ["1h"]'),
     "leagues[0].rules.game_reminder_offsets: is ignored here"),
    ("bad reminder list", _set('captain_alert_offsets = ["1d", "3h"]', 'captain_alert_offsets = ["banana"]'),
     "leagues[0].reminders.captain_alert_offsets: 'banana' is not a duration"),
    ("unknown setting", _set('timezone = "America/Toronto"', 'timezone = "America/Toronto"\ncolour = "red"'),
     "leagues[0].colour: unknown key"),
    ("sync SQLite driver", _set("sqlite+aiosqlite:///sideline.db", "sqlite:///league.db"),
     "bot.database_url: 'sqlite' is a synchronous driver; the bot needs the asyncio one: write "
     "'sqlite+aiosqlite:///league.db'"),
    ("sync PostgreSQL driver", _set("sqlite+aiosqlite:///sideline.db", "postgresql://u:secret@db.example/league"),
     "bot.database_url: 'postgresql' is not the asyncio driver; write "
     "'postgresql+asyncpg://u:***@db.example/league'"),
    ("missing time zone", _set('timezone = "America/Toronto"\n', ""), "leagues[0].timezone: is required"),
    ("abbreviation", _set('"America/Toronto"', '"EST"'),
     "leagues[0].timezone: 'EST' is an abbreviation or a fixed offset, which ignores daylight saving"),
    ("fixed offset", _set('"America/Toronto"', '"UTC-5"'),
     "leagues[0].timezone: 'UTC-5' is an abbreviation or a fixed offset"),
    ("missing rulebook file", _set('# rulebook = "rulebooks/coed.txt"', 'rulebook = "rulebooks/coed.txt"'),
     "leagues[0].rulebook: no file at "),
]


@pytest.mark.parametrize(("edit", "expected"), [c[1:] for c in CONFIG_CASES], ids=[c[0] for c in CONFIG_CASES])
def test_a_config_mistake_is_one_line_naming_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          edit: Edit, expected: str) -> None:
    config = write(tmp_path, edit(REAL))
    code, out, err = run(capsys, "check-config", str(config))
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"sideline: {config}: {expected}")
    assert "secret" not in err


def test_utc_itself_is_a_fine_time_zone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL.replace('"America/Toronto"', '"UTC"'))
    code, out, err = run(capsys, "check-config", str(config))
    assert code == 0, err
    assert "(server 1234567890123" in out and ", UTC)" in out


def test_the_untouched_example_fails_naming_every_placeholder(capsys: pytest.CaptureFixture[str]) -> None:
    config = ROOT / "config.leagues.example.toml"
    code, out, err = run(capsys, "check-config", str(config))
    assert (code, out) == (2, "")
    line = one_line(err)
    assert line.startswith(f"sideline: {config}: leagues[0].guild_id, leagues[0].roles.captain, ")
    for key in ("roles.referee", "roles.commissioner", "channels.announcements", "channels.standings",
                "channels.referees"):
        assert f"leagues[0].{key}" in line
    assert "placeholder" in line and "/setup league" in line


def test_the_placeholders_are_the_examples_own_ids() -> None:
    """Change an id in the example and check-config would stop recognising it: keep them in step."""
    in_example = {int(n) for n in re.findall(r"\b\d{18}\b", EXAMPLE)}
    assert in_example and in_example <= EXAMPLE_IDS


def test_the_default_example_without_leagues_stays_valid(capsys: pytest.CaptureFixture[str]) -> None:
    """Leagues set up with /setup need none in the file: the default config passes, and says so."""
    code, out, err = run(capsys, "check-config", str(ROOT / "config.example.toml"))
    assert code == 0, err
    assert "OK, 0 league(s)" in out and "/setup league" in out


def test_a_relative_sqlite_path_is_beside_the_config_not_the_current_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "league"
    home.mkdir()
    config = write(home, REAL.replace("sqlite+aiosqlite:///sideline.db", "sqlite+aiosqlite:///data.db"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, _, err = run(capsys, "--config", str(config), "db", "upgrade")
    assert code == 0, err
    assert (home / "data.db").is_file() and not list(elsewhere.iterdir())


# --- the database, Discord, arguments ----------------------------------------------------------------------
def test_postgresql_not_answering_names_host_and_port(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL.replace("sqlite+aiosqlite:///sideline.db",
                                          "postgresql+asyncpg://u:secret@127.0.0.1:1/league"))
    code, out, err = run(capsys, "--config", str(config), "db", "upgrade")
    assert (code, out) == (2, "")
    line = one_line(err)
    assert line.startswith("sideline: database 127.0.0.1:1/league: the server isn't answering (ConnectionRefused")
    assert "is PostgreSQL running there?" in line and "secret" not in err


def test_a_sqlite_folder_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL.replace("sqlite+aiosqlite:///sideline.db", "sqlite+aiosqlite:///nowhere/x.db"))
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "coed")
    assert (code, out) == (2, "")
    assert one_line(err) == (f"sideline: database {tmp_path / 'nowhere' / 'x.db'}: the folder {tmp_path / 'nowhere'} "
                             "does not exist (create it, or fix bot.database_url; a relative path is relative to "
                             "the config file's folder)")
    assert not (tmp_path / "nowhere").exists()


def test_a_backup_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(tmp_path, REAL)
    assert run(capsys, "--config", str(config), "db", "upgrade")[0] == 0
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--config", str(config), "db", "backup", "backups/x.db")
    assert (code, out) == (2, "")
    assert one_line(err) == ("sideline: db backup: backups/x.db: the folder backups does not exist "
                             "(create it first: mkdir -p backups)")


@pytest.mark.parametrize("argv", [
    ("standings", "--league", "Coed"),
    ("reminders", "list", "--league", "Coed"),
    ("rules", "show", "--league", "Coed"),
    ("import", "teams", str(DATA / "teams.csv"), "--league", "Coed"),
])
def test_an_unknown_league_lists_the_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          argv: tuple[str, ...]) -> None:
    config = write(tmp_path, REAL)
    code, out, err = run(capsys, "--config", str(config), *argv)
    assert (code, out) == (2, "")
    assert one_line(err) == "sideline: --league Coed: no such league (known: coed)"


def test_no_config_file_says_how_to_make_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "config.toml"
    code, out, err = run(capsys, "--config", str(missing), "standings", "--league", "coed")
    assert (code, out) == (2, "")
    assert one_line(err) == (f"sideline: {missing}: (file): not found (write one with: sideline init-config "
                             f"{missing}; or give --config PATH or $SIDELINE_CONFIG)")


def test_an_unexpected_error_is_one_line_too_and_says_it_is_a_bug(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("bot.services.standings.StandingsService.league_table", broken)
    code, out, err = run(capsys, "--config", str(write(tmp_path, REAL)), "standings", "--league", "coed")
    assert (code, out) == (1, "")
    assert one_line(err) == ("sideline: unexpected error: RuntimeError: boom second line (run again with --debug "
                             "for the traceback, and please report it)")


def test_with_json_the_failure_is_json_on_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL)
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "nope", "--json")
    assert code == 2
    assert json.loads(out) == {"error": "--league nope: no such league (known: coed)", "exit_code": 2}
    one_line(err)


def test_health_answers_json_even_when_the_config_is_wrong(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL.replace('"America/Toronto"', '"EST"'))
    code, out, err = run(capsys, "--config", str(config), "health")
    assert code == 2
    assert json.loads(out)["error"].startswith(f"{config}: leagues[0].timezone: 'EST' is an abbreviation")
    one_line(err)


def test_debug_shows_the_traceback_then_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL)
    code, out, err = run(capsys, "--config", str(config), "--debug", "standings", "--league", "nope")
    assert (code, out) == (2, "")
    assert "Traceback" in err and "UnknownLeague" in err
    assert err.strip().splitlines()[-1] == "sideline: --league nope: no such league (known: coed)"


def test_refused_data_exits_1_and_leaves_the_database_as_it_was(tmp_path: Path, db_url: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, REAL.replace("sqlite+aiosqlite:///sideline.db", db_url))
    assert run(capsys, "--config", str(config), "import", "teams", str(DATA / "teams.csv"), "--league", "coed")[0] == 0

    async def count() -> tuple[int, ...]:
        engine = create_engine(db_url)
        try:
            async with engine.connect() as conn:
                return tuple([(await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one()
                              for table in ("leagues", "teams", "divisions", "league_setups", "setup_changes")])
        finally:
            await engine.dispose()

    before = asyncio.run(count())
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "coed", "--division", "Nowhere")
    assert (code, out) == (1, "")
    assert "Nowhere" in one_line(err)
    code, out, err = run(capsys, "--config", str(config), "leagues", "export", "--league", "coed")
    assert (code, out) == (1, "")
    assert one_line(err).startswith("sideline: --league coed: that league is set up in the config file already")
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "nope", "--json")
    assert code == 2 and json.loads(out)["error"].startswith("--league nope: no such league")
    assert asyncio.run(count()) == before


# --- sideline run: the token and Discord's refusals ------------------------------------------------------
def _accepting_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord(bot_user={"id": "1", "username": "Sideline", "discriminator": "0", "avatar": None,
                                 "bot": True, "global_name": None}, application_id=2)

    async def accept(self: discord.http.HTTPClient, token: str) -> dict[str, object]:  # as tests/harness does
        self._HTTPClient__session = fake  # type: ignore[attr-defined]
        self._global_over = asyncio.Event()
        self._global_over.set()
        self.token = token
        return await self.request(discord.http.Route("GET", "/users/@me"))  # type: ignore[no-any-return]

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:  # the gateway: not here
        return None

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", accept)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setenv("SIDELINE_TOKEN", "accepted-token")


def test_run_without_a_token(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--config", str(write(tmp_path, REAL)), "run")
    assert (code, out) == (2, "")
    assert "SIDELINE_TOKEN" in one_line(err)


def test_run_with_a_rejected_token(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    async def reject(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", reject)
    monkeypatch.setenv("SIDELINE_TOKEN", "not-a-real-token")
    code, out, err = run(capsys, "--config", str(write(tmp_path, REAL)), "run")
    assert (code, out) == (2, "")
    assert one_line(err).startswith("sideline: Discord rejected the token in SIDELINE_TOKEN")


def test_run_sync_refused_names_the_server_and_the_scopes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _accepting_discord(monkeypatch)

    async def refuse(self: object, *, guild: object = None) -> list[object]:
        response = types.SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, {"message": "Missing Access", "code": 50001})  # type: ignore[arg-type]

    monkeypatch.setattr(discord.app_commands.CommandTree, "sync", refuse)
    code, out, err = run(capsys, "--config", str(write(tmp_path, REAL)), "run", "--sync")
    assert (code, out) == (2, "")
    assert one_line(err) == ("sideline: run --sync: Discord refused to publish the commands to server "
                             "123456789012345685 (league coed): 403 Missing Access (invite the bot to that server "
                             "with the scopes bot and applications.commands, or fix guild_id)")


# --- start-up: no voice warning, Alembic quiet, one line when ready ------------------------------------------
@pytest.mark.parametrize("migrated_before", [True, False], ids=["up to date", "fresh database"])
def test_start_up_says_ready_and_nothing_about_voice_or_alembic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, migrated_before: bool) -> None:
    _accepting_discord(monkeypatch)
    ready: list[str] = []

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        joined = [types.SimpleNamespace(id=777, name="Other server")]
        monkeypatch.setattr(type(self), "guilds", property(lambda _: joined))
        await self.on_ready()  # type: ignore[attr-defined]
        await self.on_ready()  # type: ignore[attr-defined]  # a reconnect: said once
        ready.append("yes")

    monkeypatch.setattr(discord.Client, "connect", connect)
    config = write(tmp_path, REAL)
    if migrated_before:
        assert run(capsys, "--config", str(config), "db", "upgrade")[0] == 0
    caplog.set_level(logging.DEBUG)
    try:
        code, _, err = run(capsys, "--config", str(config), "run")
    finally:
        import gc

        gc.unfreeze()
    assert code == 0, err
    assert ready
    messages = [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if "PyNaCl" in m or "davey" in m]
    assert not [r for r in caplog.records if r.name.startswith("alembic") and r.levelno < logging.WARNING]
    migrated = [m for m in messages if m.startswith("database migrated from empty to ")]
    assert len(migrated) == (0 if migrated_before else 1)
    said = [r for r in caplog.records if r.getMessage().startswith("ready: ")]
    assert [r.getMessage() for r in said] == ["ready: 0 leagues on 1 server"]
    assert said[0].levelno == logging.INFO
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "not in its server" in
              r.getMessage()]
    assert warned == ["league coed (Summer Co-ed Ball Hockey): the bot is not in its server 123456789012345685; "
                      "invite it with the scopes bot and applications.commands, or fix guild_id in the config"]


def test_ready_names_the_leagues_and_servers(tmp_path: Path) -> None:
    from bot.config.settings import load_settings
    from bot.run.app import create_bot

    bot = create_bot(load_settings(write(tmp_path, REAL)), run_scheduler=False)
    joined = [types.SimpleNamespace(id=123456789012345685, name="Rink"), types.SimpleNamespace(id=5, name="Other")]
    type(bot).guilds = property(lambda _: joined)  # type: ignore[assignment,method-assign]
    try:
        assert bot.ready_line() == "ready: 1 league on 2 servers (Summer Co-ed Ball Hockey on Rink)"
        assert bot.missing_servers() == []
    finally:
        del type(bot).guilds  # back to discord.Client's
        asyncio.run(bot.engine.dispose())


# --- the newcomer path: `make run` with no config writes one and stops ----------------------------------------
def test_init_config_writes_the_example_and_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    code, out, err = run(capsys, "init-config", str(path))
    assert code == 0, err
    assert path.read_text() == (ROOT / "config.example.toml").read_text()
    assert "the bot was not started" in out and "export SIDELINE_TOKEN=" in out and "/setup league" in out
    assert "bot and applications.commands" in out
    code, out, err = run(capsys, "init-config", str(path))  # never overwrites
    assert (code, out) == (2, "")
    assert "exists already" in one_line(err)


def test_make_run_without_a_config_creates_it_and_stops(tmp_path: Path) -> None:
    venv = ROOT / ".venv"
    if not (venv / "bin" / "sideline").exists():
        pytest.skip("needs the .venv that make setup builds")
    config = tmp_path / "config.toml"
    env = {k: v for k, v in os.environ.items() if k not in ("SIDELINE_TOKEN", "SIDELINE_CONFIG", "MAKEFLAGS")}
    result = subprocess.run(["make", "-s", "-o", f"{venv}/bin/sideline", "run", f"VENV={venv}", f"CONFIG={config}"],
                            cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert config.is_file() and f"created {config}" in result.stdout
    assert "SIDELINE_TOKEN" in result.stdout and "/setup league" in result.stdout
    assert result.stderr == ""  # not started: without a token, `run` would have said so there


def test_no_voice_warning_in_a_fresh_process(tmp_path: Path) -> None:
    """discord.py warns once per process when the first client is made: a fresh interpreter shows it."""
    import sys

    config = write(tmp_path, REAL)
    code = ("import logging, sys; logging.basicConfig(level=logging.DEBUG)\n"
            "from bot.run.app import create_bot\nfrom bot.config.settings import load_settings\n"
            f"create_bot(load_settings({str(config)!r}))\nprint('made')")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "made", result.stderr
    assert "PyNaCl" not in result.stderr and "davey" not in result.stderr
    assert "voice will NOT be supported" not in result.stderr
