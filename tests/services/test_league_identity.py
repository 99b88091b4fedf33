"""A league's data belongs to its server, and the config can't silently move it.

A server's league keeps its data when its key is renamed; a config that would hand one server's
data to another league (two leagues swapping servers, a league moved onto a server that holds
another) is refused in one line, by `check-config`, `sideline import` and at start alike.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from bot.cli import main as cli
from bot.config.settings import SettingsError, load_settings
from bot.run.app import create_bot
from storage.db import create_engine
from tests.conftest import GUILD, OTHER_GUILD
from tests.harness import Harness
from tests.harness.fake_discord import FakeDiscord

DATA = Path(__file__).resolve().parents[1] / "data"


def write_config(tmp_path: Path, *leagues: tuple[str, int], url: str | None = None) -> Path:
    """A config with these (key, server) leagues, on `url` (default: a SQLite file in tmp_path)."""
    url = url or f"sqlite+aiosqlite:///{tmp_path / 'league.db'}"
    parts = [f'[bot]\ndatabase_url = "{url}"\n']
    for key, guild in leagues:
        parts.append(f'[[leagues]]\nkey = "{key}"\nname = "{key.title()} League"\nguild_id = {guild}\n'
                     'preset = "coed-ball-hockey"\ntimezone = "America/Toronto"\n')
    path = tmp_path / "config.toml"
    path.write_text("\n".join(parts))
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def import_teams(capsys: pytest.CaptureFixture[str], config: Path, league: str) -> tuple[int, str, str]:
    return run_cli(capsys, "import", "teams", str(DATA / "teams.csv"), "--league", league,
                   "--config", str(config))


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "IntegrityError" not in err
    return lines[0]


async def start_bot(config: Path) -> Harness:
    settings = load_settings(config)
    h = Harness(create_bot(settings, engine=create_engine(settings.database_url), run_scheduler=False))
    try:
        return await h.start()
    except BaseException:
        await h.close()
        raise


def test_renaming_a_league_key_keeps_its_data(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              caplog: pytest.LogCaptureFixture, db_url: str) -> None:
    config = write_config(tmp_path, ("summer", GUILD), url=db_url)
    code, out, err = import_teams(capsys, config, "summer")
    assert code == 0, err

    config = write_config(tmp_path, ("summer26", GUILD), url=db_url)
    code, out, err = run_cli(capsys, "check-config", str(config))
    assert code == 0, err
    assert f"league 'summer' on server {GUILD} is now 'summer26'" in out

    async def start() -> dict[int, int]:
        h = await start_bot(config)
        try:
            return dict(h.bot.league_ids)
        finally:
            await h.close()

    with caplog.at_level(logging.INFO, logger="sideline"):
        league_ids = asyncio.run(start())
    assert list(league_ids) == [GUILD]
    renamed = [r.getMessage() for r in caplog.records if "is now" in r.getMessage()]
    assert renamed == [f"league 'summer' on server {GUILD} is now 'summer26'"]

    code, out, err = import_teams(capsys, config, "summer26")  # the teams are still there
    assert code == 0, err
    assert "0 created" in out and "4 unchanged" in out, out
    code, out, err = run_cli(capsys, "check-config", str(config))
    assert code == 0 and "is now" not in out  # the rename happened once


def test_swapping_two_leagues_servers_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            db_url: str) -> None:
    config = write_config(tmp_path, ("north", GUILD), ("south", OTHER_GUILD), url=db_url)
    for key in ("north", "south"):
        assert import_teams(capsys, config, key)[0] == 0

    swapped = write_config(tmp_path, ("north", OTHER_GUILD), ("south", GUILD), url=db_url)
    expected = (f"sideline: {swapped}: leagues[0].guild_id: server {OTHER_GUILD} already holds league "
                f"'south' (its data stays with that server)")
    code, _, err = run_cli(capsys, "check-config", str(swapped))
    assert code == 2 and one_line(err).startswith(expected)
    code, _, err = import_teams(capsys, swapped, "north")
    assert code == 2 and one_line(err).startswith(expected)

    with pytest.raises(SettingsError) as refused:  # at start: the same line, nothing written
        asyncio.run(start_bot(swapped))
    assert f"sideline: {refused.value}".startswith(expected)
    assert import_teams(capsys, write_config(tmp_path, ("north", GUILD), ("south", OTHER_GUILD), url=db_url),
                        "north")[0] == 0


def test_a_new_league_on_a_server_that_holds_one_is_refused(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert import_teams(capsys, write_config(tmp_path, ("north", GUILD)), "north")[0] == 0
    # 'north' moves to another server and a new league takes its old one: the data would stay behind.
    moved = write_config(tmp_path, ("north", OTHER_GUILD), ("east", GUILD))
    code, _, err = run_cli(capsys, "check-config", str(moved))
    assert code == 2
    assert one_line(err).startswith(f"sideline: {moved}: leagues[1].guild_id: server {GUILD} already holds "
                                    "league 'north' (its data stays with that server)")
    code, _, err = import_teams(capsys, moved, "east")
    assert code == 2 and "already holds league 'north'" in one_line(err)


def test_sideline_run_refuses_a_swap_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(tmp_path, ("north", GUILD), ("south", OTHER_GUILD))
    for key in ("north", "south"):
        assert import_teams(capsys, config, key)[0] == 0
    swapped = write_config(tmp_path, ("north", OTHER_GUILD), ("south", GUILD))

    fake = FakeDiscord(bot_user={"id": "1", "username": "Sideline", "discriminator": "0", "avatar": None,
                                 "bot": True, "global_name": None}, application_id=2)

    async def accept(self: discord.http.HTTPClient, token: str) -> dict[str, object]:  # as tests/harness does
        self._HTTPClient__session = fake  # type: ignore[attr-defined]
        self._global_over = asyncio.Event()
        self._global_over.set()
        self.token = token
        return await self.request(discord.http.Route("GET", "/users/@me"))  # type: ignore[no-any-return]

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", accept)
    monkeypatch.setenv("SIDELINE_TOKEN", "accepted-token")
    code, _, err = run_cli(capsys, "--config", str(swapped), "run")
    assert code == 2
    assert "already holds league 'south' (its data stays with that server)" in one_line(err)


def test_moving_a_league_to_a_fresh_server_keeps_its_data(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert import_teams(capsys, write_config(tmp_path, ("north", GUILD)), "north")[0] == 0
    moved = write_config(tmp_path, ("north", OTHER_GUILD))
    code, out, err = run_cli(capsys, "check-config", str(moved))
    assert code == 0, err
    assert f"league 'north' moves from server {GUILD} to server {OTHER_GUILD}" in out
    code, out, err = import_teams(capsys, moved, "north")
    assert code == 0 and "4 unchanged" in out, err


def test_check_config_without_a_database_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, ("north", GUILD))
    code, out, err = run_cli(capsys, "check-config", str(config))
    assert code == 0, err
    assert "no database yet" in out
    assert not (tmp_path / "league.db").exists()  # checking never creates it


def test_rules_import_after_a_rename_uses_the_servers_league(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert import_teams(capsys, write_config(tmp_path, ("summer", GUILD)), "summer")[0] == 0
    rulebook = tmp_path / "rules.txt"
    rulebook.write_text("1. Play\n1.1 - Fair play\nBe kind to each other.\n", encoding="utf-8")
    renamed = write_config(tmp_path, ("summer26", GUILD))
    code, out, err = run_cli(capsys, "--config", str(renamed), "rules", "import", str(rulebook),
                             "--league", "summer26")
    assert code == 0, err
    code, out, err = import_teams(capsys, renamed, "summer26")
    assert code == 0 and "4 unchanged" in out, (out, err)
