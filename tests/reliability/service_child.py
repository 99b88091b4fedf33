"""A real ``sideline run`` process for tests/reliability/test_graceful_stop.py, offline: SIGTERM it and watch.

Usage: ``python tests/reliability/service_child.py DB_URL DIR NOW_ISO [--checkins]``. It writes DIR/config.toml
(the league of tests/reliability/reminders_kill_child.py) and runs ``bot.cli.main(["--config", ..., "run"])``,
the command an operator runs, with two seams: the bot is built with a fixed clock and logs in to
the fake Discord (tests/harness), and its gateway is a fake one that sends GUILD_CREATE and then,
with ``--checkins``, a steady burst of ``/checkin`` interactions, at most ``IN_FLIGHT`` unanswered
at a time, until the connection is closed. It writes down, one JSON line each:

- DIR/sends.jsonl: the messages Discord created (reloaded at start, so Discord's nonce check spans
  restarts, as tests/reliability/reminders_kill_child.py does);
- DIR/fed.jsonl: each check-in interaction as the gateway delivers it;
- DIR/answers.jsonl: each answer to one of those interactions (what the player read).
"""

from __future__ import annotations

import asyncio
import csv
import json
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import app, cli  # noqa: E402
from bot.clock import FixedClock  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.conftest import CHANNELS, DATA, GUILD, ROLES  # noqa: E402
from tests.harness import Call, Harness, Member  # noqa: E402
from tests.reliability.reminders_kill_child import remember_in  # noqa: E402

IN_FLIGHT = 16  # interactions the fake gateway delivers before earlier ones are answered
SEND_TAKES = 0.03  # seconds Discord takes to answer a message send: a SIGTERM lands mid-send
TEAMS = ("Hawks", "Owls", "Bears")  # the teams of tests/reliability/test_reminders_kill.py's games


def write_config(path: Path, db_url: str) -> None:
    """tests/reliability/reminders_kill_child.py's settings, as a config file: one reminder 2 h before each game."""
    roles = "\n".join(f"{k} = {v}" for k, v in ROLES.items())
    channels = "\n".join(f"{k} = {v}" for k, v in CHANNELS.items())
    path.write_text(f"""[bot]
database_url = "{db_url}"
log_level = "INFO"

[[leagues]]
key = "coed"
name = "Coed League"
guild_id = {GUILD}
preset = "coed-ball-hockey"
timezone = "America/Toronto"

[leagues.roles]
{roles}

[leagues.channels]
{channels}

[leagues.reminders]
game_offsets = ["2h"]
captain_alert_offsets = []
""", encoding="utf-8")


def checkins(games: int) -> Iterator[tuple[int, str, str, str]]:
    """(discord id, name, game code, status): each player once per game of their team, games in turn."""
    players = [(int(r["discord_id"]), r["name"], r["team"]) for r in csv.DictReader((DATA / "players.csv").open())]
    for i in range(games):
        playing = {TEAMS[i % 3], TEAMS[(i + 1) % 3]}
        for n, (discord_id, name, team) in enumerate(players):
            if team in playing:
                yield discord_id, name, f"K{i}", ("in", "maybe")[(i + n) % 2]


def lines_to(path: Path) -> Any:
    return path.open("a", encoding="utf-8", buffering=1)  # line-buffered: each line reaches the OS at once


class Delayed:
    """A fake Discord response that arrives ``seconds`` later (Discord has made the message by then)."""

    def __init__(self, response: Any, seconds: float) -> None:
        self.response, self.seconds = response, seconds

    async def __aenter__(self) -> Any:
        await asyncio.sleep(self.seconds)
        return await self.response.__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        await self.response.__aexit__(*exc)


def slow_sends(harness: Harness) -> None:
    fake = harness.discord
    answer = fake.request

    def request(method: str, url: str, **kwargs: Any) -> Any:
        response = answer(method, url, **kwargs)
        return Delayed(response, SEND_TAKES) if method == "POST" and "/channels/" in url else response

    fake.request = request  # type: ignore[method-assign]


def offline(directory: Path, now: datetime, feed_checkins: bool) -> None:
    """Build `sideline run`'s bot on the fake Discord with a fake gateway."""
    real_create_bot = app.create_bot

    def create_bot(settings: Settings, **kwargs: Any) -> app.SidelineBot:
        bot = real_create_bot(settings, clock=FixedClock(now))
        harness = Harness(bot)
        harness.install()
        remember_in(harness.discord, directory / "sends.jsonl")
        fed, answers = lines_to(directory / "fed.jsonl"), lines_to(directory / "answers.jsonl")
        pending: dict[str, dict[str, Any]] = {}
        room = asyncio.Event()  # fewer than IN_FLIGHT interactions unanswered

        def answered(call: Call) -> None:
            parts = call.path.split("/")
            if call.method == "POST" and len(parts) == 5 and parts[1] == "interactions" and parts[2] in pending:
                answers.write(json.dumps({**pending.pop(parts[2]), "reply": call.content,
                                          "status_code": call.status}) + "\n")
                room.set()

        harness.discord.hooks.append(answered)
        slow_sends(harness)

        async def gateway(*, reconnect: bool = True) -> None:
            harness.add_league_guilds()
            if feed_checkins:
                for discord_id, name, code, status in checkins(150):
                    while len(pending) >= IN_FLIGHT:
                        room.clear()
                        await room.wait()
                    member = Member(id=discord_id, name=name)
                    data = harness._command_data("/checkin", {"status": status, "game": code}, GUILD)
                    payload = harness._base(2, member, GUILD, None, data)
                    line = {"player": discord_id, "game": code, "status": status}
                    pending[payload["id"]] = line
                    fed.write(json.dumps(line) + "\n")
                    bot._connection.parsers["INTERACTION_CREATE"](payload)
                    await asyncio.sleep(0)
            await asyncio.Event().wait()  # connected until the bot closes the connection

        bot.connect = gateway  # type: ignore[method-assign]
        return bot

    app.create_bot = create_bot  # `sideline run` builds its bot through bot.app.create_bot


def main(argv: list[str]) -> int:
    db_url, directory, now = argv[0], Path(argv[1]), datetime.fromisoformat(argv[2])
    config = directory / "config.toml"
    write_config(config, db_url)
    offline(directory, now, "--checkins" in argv[3:])
    return cli.main(["--config", str(config), "run"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
