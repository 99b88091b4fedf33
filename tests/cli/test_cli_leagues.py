"""`sideline leagues export`: a league set up in Discord, as TOML that check-config accepts and that
gives the same league on another install."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import discord

from bot.clock import FixedClock
from bot.config.settings import LeagueSettings, load_settings
from bot.league.setup.rule_settings import SECTIONS
from bot.run.app import create_bot
from storage.db import create_engine
from tests.cli.test_cli import sideline
from tests.commands.empty_server import CHANNEL_IDS, GUILD, ROLE_IDS, no_leagues, open_server
from tests.harness import Harness

SECTIONS_SHOWN = (None, *SECTIONS)


async def setup_show(h: Harness) -> list[str]:
    """Every line of `/setup show` and its rule sections, without the column that says where a value
    comes from: set in Discord on one install, the file on the other."""
    server = open_server(h)
    lines = []
    for section in SECTIONS_SHOWN:
        options = {"section": section} if section else {}
        reply = await server.slash("/setup show", as_=server.admin(), **options)
        (embed,) = reply.first.payload["embeds"]
        for line in [embed["title"], *embed["description"].splitlines()]:
            key_value, *rest = line.split(" · ")
            lines.append(" · ".join([key_value, *rest[1:]]))  # rest[0] is the source
    return lines


async def set_up_in_discord(url: str, shown: list[str] | None = None) -> LeagueSettings:
    bot = create_bot(no_leagues(url), engine=create_engine(url), clock=FixedClock(datetime(2030, 1, 5, tzinfo=UTC)),
                     run_scheduler=False)
    h = await Harness(bot).start()
    try:
        server = open_server(h)
        admin = server.admin()
        for path, options in (
                ("/setup league", {"preset": "youth-ball-hockey", "name": "Youth \"A\" League",
                                   "timezone": "America/Winnipeg"}),
                ("/setup roles", {"captain": discord.Object(ROLE_IDS["captain"])}),
                ("/setup channels", {"standings": discord.Object(CHANNEL_IDS["standings"])}),
                ("/setup rule", {"key": "roster_limit", "value": "15"}),
                ("/setup rule", {"key": "standings_tiebreakers", "value": '["wins", "goal_diff"]'}),
                ("/setup reminders", {"games": "3d 1h"})):
            reply = await server.slash(path, as_=admin, **options)
            assert ("Nothing changed" not in reply.content and "→" in reply.content) or "set up" in reply.content, \
                (path, reply.content)
        league = bot.settings.league_for_guild(GUILD)
        assert league is not None
        if shown is not None:
            shown += await setup_show(h)
        return league
    finally:
        await h.close()


async def shown_from_file(config: Path) -> list[str]:
    settings = load_settings(config)
    bot = create_bot(settings, engine=create_engine(settings.database_url),
                     clock=FixedClock(datetime(2030, 1, 5, tzinfo=UTC)), run_scheduler=False)
    h = await Harness(bot).start()
    try:
        return await setup_show(h)
    finally:
        await h.close()


def test_export_gives_a_config_that_check_config_accepts_and_the_same_league(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'discord.db'}"
    shown_in_discord: list[str] = []
    in_discord = asyncio.run(set_up_in_discord(url, shown_in_discord))
    config = tmp_path / "config.toml"
    config.write_text(f'[bot]\ndatabase_url = "{url}"\n', encoding="utf-8")
    exported = tmp_path / "league.toml"
    result = sideline("leagues", "export", "--league", in_discord.key, "--output", str(exported),
                      "--config", str(config))
    assert result.returncode == 0, result.stderr
    other_install = tmp_path / "other.toml"
    other_install.write_text(f'[bot]\ndatabase_url = "sqlite+aiosqlite:///{tmp_path / "other.db"}"\n\n'
                             + exported.read_text(encoding="utf-8"), encoding="utf-8")
    checked = sideline("check-config", str(other_install))
    assert checked.returncode == 0, checked.stderr
    assert "OK, 1 league(s)" in checked.stdout
    (from_file,) = load_settings(other_install).leagues
    assert from_file == in_discord
    assert from_file.rules.lineup.roster_limit == 15
    assert [str(o) for o in from_file.game_reminder_offsets] == ["3d", "1h"]
    shown_on_the_other_install = asyncio.run(shown_from_file(other_install))
    assert "**Roster limit (roster_limit)** = 15 · league setting" in shown_in_discord
    assert shown_on_the_other_install == shown_in_discord


def test_export_of_an_unknown_league_says_so(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[bot]\ndatabase_url = "sqlite+aiosqlite:///{tmp_path / "x.db"}"\n', encoding="utf-8")
    result = sideline("leagues", "export", "--league", "nope", "--config", str(config))
    assert result.returncode == 2
    assert result.stderr == "sideline: --league nope: no such league (none yet: set one up with /setup league in " \
                            "Discord, or a [[leagues]] table in the config)\n"
