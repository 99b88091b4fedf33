"""A real ``sideline run`` process for tests/reliability/test_graceful_stop.py and test_shards.py, offline.

Usage: ``python tests/reliability/service_child.py DB_URL DIR NOW_ISO [--checkins] [--gateway]
[--leagues N] [--shared SENDS_FILE] [run options...]``. It writes DIR/config.toml (the league of
tests/reliability/reminders_kill_child.py, or with ``--leagues N`` the N leagues of ``many_leagues``)
and runs ``bot.cli.main(["--config", ..., "run", *run options])``, the command an operator runs
(e.g. with ``--shard-ids 0 --shard-count 2``), with two seams: the bot is built with a fixed clock
and logs in to the fake Discord (tests/harness), and its gateway is a fake one. By default that
gateway sends GUILD_CREATE and then, with ``--checkins``, a steady burst of ``/checkin``
interactions, at most ``IN_FLIGHT`` unanswered at a time, until the connection is closed. With
``--gateway`` discord.py connects for real to tests/harness/fake_gateway.py, which reads the shard
of each IDENTIFY, sends GUILD_CREATE only for that shard's servers, then a ``/help`` from each of them.
It writes down, one JSON line each:

- DIR/sends.jsonl (or the ``--shared`` file): the messages Discord created, reloaded at start, so
  Discord's nonce check spans restarts, as tests/reliability/reminders_kill_child.py does; a shared
  file is read again, under a lock, before each message, so the check spans processes running at once;
- DIR/fed.jsonl: each interaction as the gateway delivers it;
- DIR/answers.jsonl: each answer to one of those interactions (what the player read);
- DIR/identified.jsonl (``--gateway``): the shard field of each IDENTIFY and the servers it was sent.
"""

from __future__ import annotations

import asyncio
import csv
import fcntl
import json
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.cli import main as cli  # noqa: E402
from bot.clock import FixedClock  # noqa: E402
from bot.config.settings import Settings  # noqa: E402
from bot.run import app  # noqa: E402
from tests.conftest import CHANNELS, DATA, GUILD, ROLES  # noqa: E402
from tests.harness import Call, FakeDiscord, FakeGateway, Harness, Member  # noqa: E402
from tests.harness.fake_gateway import FakeSocket  # noqa: E402
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
game_card_offsets = []  # reminders only: no officials assigned here
""", encoding="utf-8")


def many_leagues(db_url: str, count: int) -> str:
    """A config file's text: ``count`` leagues, each on its own server, the servers alternating
    between the shards of a bot with 2 (a server's shard is ``(guild_id >> 22) % shard_count``)."""
    tables = "".join(f"""
[[leagues]]
key = "l{i}"
name = "League {i}"
guild_id = {league_guild(i)}
preset = "coed-ball-hockey"
timezone = "America/Toronto"

[leagues.reminders]
game_offsets = ["2h"]
captain_alert_offsets = []
game_card_offsets = []  # reminders only: no officials assigned here
""" for i in range(count))
    return f'[bot]\ndatabase_url = "{db_url}"\nlog_level = "INFO"\nsend_rate = 50\n{tables}'


def league_guild(i: int) -> int:
    return GUILD + (i << 22)


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


def shared_nonces(fake: FakeDiscord, record: Path, by: str) -> None:
    """Discord's nonce check across processes sending at once: before each message, under a lock on
    the shared record, read what the others created since, then create (or answer with the earlier
    message) and write it down, as one Discord would."""
    record.touch()
    remember_in(fake, record, by=by)
    lock = record.with_name(record.name + ".lock").open("a")
    news = record.open(encoding="utf-8")
    news.seek(0, 2)  # what was there at start, remember_in read
    answer = fake.request

    def request(method: str, url: str, **kwargs: Any) -> Any:
        if method != "POST" or "/channels/" not in url or "/messages" not in url:
            return answer(method, url, **kwargs)
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # every line is written under it: none is torn here
        try:
            for text in news.readlines():
                line = json.loads(text)
                if not line["duplicate"]:
                    fake._nonces[(line["channel"], line["nonce"])] = fake._message(line["channel"],
                                                                                  {"content": line["content"]})
            return answer(method, url, **kwargs)
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)

    fake.request = request  # type: ignore[method-assign]


def answer_help(harness: Harness, gateway: FakeGateway, fed: Any, by: str,
                pending: dict[str, dict[str, Any]]) -> None:
    """Once a connection has its servers, a member of each asks for ``/help`` through it."""

    def on_ready(socket: FakeSocket) -> None:
        for guild_id in gateway.guilds:
            if socket.owns(guild_id):
                member = Member(id=900_000 + guild_id % 1000, name="Player")
                payload = harness._base(2, member, guild_id, None, harness._command_data("/help", {}, guild_id))
                line = {"guild": guild_id, "shard": list(socket.shard or (0, 1)), "process": by}
                pending[payload["id"]] = line
                fed.write(json.dumps(line) + "\n")
                gateway.dispatch("INTERACTION_CREATE", payload)

    gateway.on_ready.append(on_ready)


def offline(directory: Path, now: datetime, feed_checkins: bool, *, real_gateway: bool = False,
            shared: Path | None = None, by: str = "") -> None:
    """Build `sideline run`'s bot on the fake Discord with a fake gateway."""
    real_create_bot = app.create_bot

    def create_bot(settings: Settings, **kwargs: Any) -> app.SidelineBot:
        bot = real_create_bot(settings, clock=FixedClock(now))
        harness = Harness(bot)
        harness.install()
        if shared is not None:
            shared_nonces(harness.discord, shared, by)
        else:
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
        if real_gateway:  # discord.py's own connection code, against Discord's gateway as faked
            bot.courier.pace_from_settings()  # [bot] send_rate, shared by the processes running
            gateway = harness.serve_gateway()
            identified = lines_to(directory / "identified.jsonl")
            gateway.on_ready.append(lambda socket: identified.write(json.dumps({
                "shard": socket.shard, "guilds": sorted(g for g in gateway.guilds if socket.owns(g))}) + "\n"))
            answer_help(harness, gateway, fed, by, pending)
            return bot
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

    app.create_bot = create_bot  # `sideline run` builds its bot through bot.run.app.create_bot


def main(argv: list[str]) -> int:
    db_url, directory, now = argv[0], Path(argv[1]), datetime.fromisoformat(argv[2])
    options = list(argv[3:])
    flags = {flag: flag in options for flag in ("--checkins", "--gateway")}
    options = [o for o in options if o not in flags]
    leagues = shared = None
    for name in ("--leagues", "--shared"):
        if name in options:
            at = options.index(name)
            value = options[at + 1]
            del options[at:at + 2]
            if name == "--leagues":
                leagues = int(value)
            else:
                shared = Path(value)
    config = directory / "config.toml"
    if leagues is None:
        write_config(config, db_url)
    else:
        config.write_text(many_leagues(db_url, leagues), encoding="utf-8")
    offline(directory, now, flags["--checkins"], real_gateway=flags["--gateway"], shared=shared,
            by=" ".join(options) or "unsharded")
    return cli.main(["--config", str(config), "run", *options])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
