"""A league set up in Discord is a league of the command line too: every subcommand that takes
--league finds it as it finds the config file's, `leagues list` shows both, and an unknown key is one
line that lists the keys of both."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main as cli
from bot.cli.common import open_database
from bot.clock import FixedClock
from bot.config.settings import load_settings
from bot.run.app import create_bot
from bot.services.setup.league_setup import Actor
from storage.db import create_engine
from tests.commands.empty_server import CHANNEL_IDS, GUILD, no_leagues, open_server
from tests.harness import Harness

ROOT = Path(__file__).resolve().parents[2]
YOUTH_GUILD = 4242
RULEBOOK = """# Thursday Ball Hockey rules

## 4.1 Game length
Two halves of twenty minutes.

## 4.2 Overtime
A tied game goes to five minutes of sudden-death overtime, three on three.
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def only_bot_table(tmp_path: Path) -> Path:
    """The default path (README): a config with no [[leagues]], the leagues set up in Discord."""
    path = tmp_path / "config.toml"
    path.write_text(f'[bot]\ndatabase_url = "sqlite+aiosqlite:///{tmp_path / "league.db"}"\n', encoding="utf-8")
    return path


@pytest.fixture
def with_file_league(tmp_path: Path) -> Path:
    """The example config (a league `coed` on its own server) beside a league set up in Discord."""
    text = re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), (ROOT / "config.leagues.example.toml").read_text())
    text = text.replace("sqlite+aiosqlite:///sideline.db", f"sqlite+aiosqlite:///{tmp_path / 'league.db'}")
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def set_up_with_the_service(config: Path) -> str:
    """A youth league created by the setup service, as /setup league does, in Winnipeg's time zone (the
    file's league plays in Toronto's, so an answer in Winnipeg's time is the Discord league's)."""
    async def create() -> str:
        async with open_database(load_settings(config)) as db:
            created = await db.services().setup.create(
                YOUTH_GUILD, Actor(discord_id=77, manages_server=True), preset="youth-ball-hockey",
                name="Youth Hockey", timezone="America/Winnipeg")
            return created.league.key

    return asyncio.run(create())


async def set_up_through_the_tree(url: str) -> tuple[str, list[int]]:
    """/setup league on an empty server, as a new commissioner does; two members to captain teams."""
    bot = create_bot(no_leagues(url), engine=create_engine(url), clock=FixedClock(datetime(2030, 1, 5, tzinfo=UTC)),
                     run_scheduler=False)
    h = await Harness(bot).start()
    try:
        server = open_server(h)
        reply = await server.slash("/setup league", as_=server.admin(), preset="coed-ball-hockey",
                                   name="Thursday Ball Hockey", timezone="America/Toronto")
        assert "set up" in reply.content, reply.content
        league = bot.settings.league_for_guild(GUILD)
        assert league is not None
        return league.key, [server.person("Cam Captain").id, server.person("Dee Captain").id]
    finally:
        await h.close()


async def standings_in_discord(url: str) -> str:
    bot = create_bot(no_leagues(url), engine=create_engine(url), clock=FixedClock(datetime(2030, 1, 5, tzinfo=UTC)),
                     run_scheduler=False)
    h = await Harness(bot).start()
    try:
        server = open_server(h)
        reply = await server.slash("/standings show", as_=server.person("Pat Player"))
        return json.dumps(reply.last.payload)
    finally:
        await h.close()


def test_the_acceptance_commands_work_on_a_league_set_up_with_slash_setup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = only_bot_table(tmp_path)
    url = load_settings(config).database_url
    key, (cam, dee) = asyncio.run(set_up_through_the_tree(url))
    c = ("--config", str(config))

    teams = tmp_path / "teams.csv"
    teams.write_text("team,division,captain_discord_ids,channel_id\n"
                     f"Hawks,,{cam},{CHANNEL_IDS['hawks']}\nOwls,,{dee},{CHANNEL_IDS['owls']}\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("game_id,starts_at,home,away,venue,kind\nG1,2024-01-11 19:00,Hawks,Owls,Rink A,regular\n",
                     encoding="utf-8")
    results = tmp_path / "results.csv"
    results.write_text("game_id,home_score,away_score,decided\nG1,4,2,regulation\n", encoding="utf-8")
    for kind, path, *flags in (("teams", teams), ("games", games, "--allow-past"), ("results", results)):
        code, out, err = run(capsys, *c, "import", kind, str(path), "--league", key, *flags)
        assert code == 0, err
        assert out.startswith(f"{path}: "), out

    code, out, err = run(capsys, *c, "standings", "--league", key, "--json")
    assert code == 0, err
    rows = {row["team"]: row for row in json.loads(out)}
    assert set(rows) == {"Hawks", "Owls"}
    assert (rows["Hawks"]["w"], rows["Hawks"]["gf"], rows["Owls"]["l"]) == (1, 4, 1)
    assert "Hawks" in asyncio.run(standings_in_discord(url))  # the same league, the same rows

    rulebook = tmp_path / "rules.md"
    rulebook.write_text(RULEBOOK, encoding="utf-8")
    code, out, err = run(capsys, *c, "rules", "import", str(rulebook), "--league", key)
    assert code == 0, err
    assert re.fullmatch(rf"{re.escape(str(rulebook))}: imported \d+ sections into league {key}.*\n", out), out
    code, out, err = run(capsys, *c, "rules", "search", "--league", key, "--json", "how", "long", "is", "overtime")
    assert code == 0, err
    assert "sudden-death overtime" in json.loads(out)[0]["text"]

    code, out, err = run(capsys, *c, "leagues", "export", "--league", key)
    assert code == 0, err
    assert f'key = "{key}"' in out and f"guild_id = {GUILD}" in out and 'preset = "coed-ball-hockey"' in out


# Every subcommand that takes --league, with what it needs besides; the Discord league is the youth one.
COMMANDS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("import",): ("players", "PLAYERS"),
    ("rules", "import"): ("RULEBOOK",),
    ("rules", "search"): ("overtime",),
    ("rules", "show"): (),
    ("standings",): (),
    ("season", "start"): ("--name", "Winter", "--first-day", "2030-01-07", "--weeks", "8"),
    ("season", "end"): (),
    ("season", "show"): (),
    ("relays", "export"): (),
    ("discipline", "export"): (),
    ("reminders", "list"): (),
    ("calendar", "export"): (),
    ("leagues", "export"): (),
    ("stats", "export"): (),
    ("schedule", "generate"): ("--slots", "SLOTS", "--meetings", "1"),
}


def commands_with_league(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every subcommand of the real parser that has a --league option."""
    found = {path} if any("--league" in a.option_strings for a in parser._actions) else set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= commands_with_league(sub, (*path, name))
    return found


def test_every_command_that_takes_a_league_is_tested_here() -> None:
    assert commands_with_league(cli.build_parser()) == set(COMMANDS)


def argv_for(command: tuple[str, ...], key: str, tmp_path: Path) -> list[str]:
    players = tmp_path / "players.csv"
    players.write_text("discord_id,name,team,position\n", encoding="utf-8")
    rulebook = tmp_path / "rules.md"
    rulebook.write_text(RULEBOOK, encoding="utf-8")
    slots = tmp_path / "slots.csv"
    slots.write_text("starts_at,venue\n2030-01-08 19:00,Rink\n", encoding="utf-8")
    files = {"PLAYERS": str(players), "RULEBOOK": str(rulebook), "SLOTS": str(slots)}
    return [*command, *(files.get(a, a) for a in COMMANDS[command]), "--league", key]


# What each subcommand answers about the youth league (Winnipeg time, junior/senior divisions).
ANSWERS: dict[tuple[str, ...], str] = {
    ("rules", "show"): "Youth Hockey (youth-hockey, youth-ball-hockey)",
    ("standings",): "Youth Hockey: no teams yet.",
    ("season", "start"): "started Winter: from 2030-01-07, 8 regular-season weeks",
    ("season", "end"): "ended Winter: from 2030-01-07",
    ("season", "show"): "current Winter: from 2030-01-07",
    ("relays", "export"): "league youth-hockey: no relays or disputes yet",
    ("discipline", "export"): "league youth-hockey: 0 penalties, 0 suspensions, 0 appeals, 0 missed cleanups",
    ("reminders", "list"): "youth-hockey: 0 message(s) (pending, sent), times in America/Winnipeg",
    ("calendar", "export"): "X-WR-CALNAME:Youth Hockey\r\nREFRESH-INTERVAL",
    ("stats", "export"): "season,player,discord_id,team,gp,goals,assists,points,pim,",
}


@pytest.mark.parametrize("command", sorted(ANSWERS), ids=" ".join)
def test_each_command_answers_for_a_league_set_up_in_discord(
        command: tuple[str, ...], with_file_league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = set_up_with_the_service(with_file_league)
    assert key == "youth-hockey"
    c = ("--config", str(with_file_league))
    if command[0] == "season" and command != ("season", "start"):  # a season to end or show
        assert run(capsys, *c, *argv_for(("season", "start"), key, tmp_path))[0] == 0
    code, out, err = run(capsys, *c, *argv_for(command, key, tmp_path))
    assert code == 0, err
    assert ANSWERS[command] in out, out
    if command == ("calendar", "export"):
        assert "X-WR-TIMEZONE:America/Winnipeg" in out


def test_import_and_rules_import_write_into_the_discord_league_not_the_files(
        with_file_league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = set_up_with_the_service(with_file_league)
    c = ("--config", str(with_file_league))
    teams = tmp_path / "teams.csv"
    teams.write_text("team,division,captain_discord_ids\nRockets,junior,8001\n", encoding="utf-8")
    code, _, err = run(capsys, *c, "import", "teams", str(teams), "--league", key)
    assert code == 0, err  # junior is a youth division: the coed league would refuse it
    code, out, _ = run(capsys, *c, "standings", "--league", key, "--json")
    assert [row["team"] for row in json.loads(out)] == ["Rockets"]
    code, out, _ = run(capsys, *c, "standings", "--league", "coed", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, err = run(capsys, *c, *argv_for(("rules", "import"), key, tmp_path))
    assert code == 0 and f"sections into league {key}" in out, err
    code, out, err = run(capsys, *c, "rules", "search", "--league", "coed", "overtime")
    assert code == 1 and "league coed has no rulebook yet" in err


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=" ".join)
def test_an_unknown_key_is_one_line_listing_both_kinds_of_league(
        command: tuple[str, ...], with_file_league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_up_with_the_service(with_file_league)
    code, out, err = run(capsys, "--config", str(with_file_league), *argv_for(command, "Youth-Hockey", tmp_path))
    assert (code, out) == (2, "")
    assert err == "sideline: --league Youth-Hockey: no such league (known: coed, youth-hockey)\n"


def test_an_unknown_key_without_a_database_creates_none(
        with_file_league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--config", str(with_file_league), "rules", "import", str(tmp_path / "x.md"),
                         "--league", "nope", "--json")
    assert code == 2
    assert json.loads(out) == {"error": "--league nope: no such league (known: coed)", "exit_code": 2}
    assert err == "sideline: --league nope: no such league (known: coed)\n"
    assert not (tmp_path / "league.db").exists()


def test_leagues_list_shows_every_league_and_where_it_was_set_up(
        with_file_league: Path, capsys: pytest.CaptureFixture[str]) -> None:
    coed = load_settings(with_file_league).league("coed")
    set_up_with_the_service(with_file_league)
    code, out, err = run(capsys, "--config", str(with_file_league), "leagues", "list")
    assert code == 0, err
    assert len({line.index(name) for line, name in zip(out.splitlines(), ("name", coed.name, "Youth Hockey"),
                                                        strict=True)}) == 1  # one column under another
    header, from_file, from_discord = (re.split(r"\s{2,}", line) for line in out.splitlines())
    assert header == ["key", "name", "server", "preset", "set up in"]
    assert from_file == ["coed", coed.name, str(coed.guild_id), "coed-ball-hockey", "config file"]
    assert from_discord == ["youth-hockey", "Youth Hockey", str(YOUTH_GUILD), "youth-ball-hockey",
                            "Discord (/setup)"]
    code, out, err = run(capsys, "--config", str(with_file_league), "leagues", "list", "--json")
    assert code == 0, err
    assert json.loads(out) == [
        {"key": "coed", "name": coed.name, "guild_id": coed.guild_id, "preset": "coed-ball-hockey",
         "timezone": "America/Toronto", "set_up_in": "file"},
        {"key": "youth-hockey", "name": "Youth Hockey", "guild_id": YOUTH_GUILD, "preset": "youth-ball-hockey",
         "timezone": "America/Winnipeg", "set_up_in": "discord"}]


def test_leagues_list_with_no_league_yet_says_how_to_make_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = only_bot_table(tmp_path)
    code, out, err = run(capsys, "--config", str(config), "leagues", "list")
    assert (code, err) == (0, "")
    assert out == ("no leagues yet: set one up with /setup league in Discord, or add a [[leagues]] table to the "
                   "config\n")
    assert not (tmp_path / "league.db").exists()  # listing creates no database
    code, out, _ = run(capsys, "--config", str(config), "leagues", "list", "--json")
    assert json.loads(out) == []


def test_exporting_a_league_of_the_file_says_it_is_there_already(
        with_file_league: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--config", str(with_file_league), "leagues", "export", "--league", "coed")
    assert (code, out) == (1, "")
    assert err == ("sideline: --league coed: that league is set up in the config file already (only a league set "
                   "up in Discord is exported)\n")
