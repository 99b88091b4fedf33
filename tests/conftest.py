"""Shared fixtures: settings, a fresh database per test, and the offline harness."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from sqlalchemy import true
from sqlalchemy.engine import URL, make_url

from bot.clock import FixedClock
from bot.config.settings import ENVIRONMENT, Settings, parse_settings
from bot.run.app import create_bot
from bot.services.shared.attendance import CheckInContextQuery
from storage import migrate
from storage.db import create_engine
from tests.harness import FakeDiscord, Harness, Member

# CI replays the same examples every run (main stays green on the same code); locally they vary.
# SIDELINE_FUZZ_EXAMPLES raises the example count for a longer hunt.
hypothesis_settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("SIDELINE_FUZZ_EXAMPLES", "200")),
)
hypothesis_settings.register_profile(
    "dev", deadline=None, max_examples=int(os.environ.get("SIDELINE_FUZZ_EXAMPLES", "200")),
)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PG_URL_ENV = "SIDELINE_TEST_PG_URL"

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
ROLES = {"captain": 1001, "referee": 1002, "commissioner": 1003, "timekeeper": 1004}
OTHER_ROLES = {"captain": 2001, "referee": 2002, "commissioner": 2003, "timekeeper": 2004}
CHANNELS = {"announcements": 3001, "standings": 3002, "referees": 3003}
OTHER_CHANNELS = {"announcements": 4001, "standings": 4002, "referees": 4003}


def league_config(key: str = "coed", guild: int = GUILD, preset: str = "coed-ball-hockey",
                  roles: dict[str, int] = ROLES, channels: dict[str, int] = CHANNELS,
                  **extra: object) -> dict[str, object]:
    return {"key": key, "name": f"{key.title()} League", "guild_id": guild, "preset": preset,
            "timezone": "America/Toronto", "roles": dict(roles), "channels": dict(channels), **extra}


def make_settings(*leagues: dict[str, object], url: str = "sqlite+aiosqlite:///unused.db") -> Settings:
    return parse_settings({"bot": {"database_url": url},
                           "leagues": list(leagues) or [league_config()]}, "test-config.toml")


def database_urls() -> list[str]:
    urls = ["sqlite"]
    if os.environ.get(PG_URL_ENV):
        urls.append("postgresql")
    return urls


class SchemaTemplates:
    """One migrated database per kind and test worker, made on first use: each test then starts
    from a copy (a file copy; PostgreSQL's CREATE DATABASE ... TEMPLATE) instead of running every
    migration again. tests/storage/test_migrations.py still upgrades an empty one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.sqlite: Path | None = None
        self.postgresql: str | None = None

    def sqlite_copy(self, destination: Path) -> None:
        if self.sqlite is None:
            template = self.folder / "template.db"
            asyncio.run(_migrate(f"sqlite+aiosqlite:///{template}"))
            self.sqlite = template
        shutil.copyfile(self.sqlite, destination)

    def postgresql_template(self, base: URL) -> str:
        if self.postgresql is None:
            name = f"sideline_template_{uuid.uuid4().hex[:12]}"
            asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
            asyncio.run(_migrate(base.set(database=name).render_as_string(hide_password=False)))
            self.postgresql = name
        return self.postgresql

    def drop(self) -> None:
        if self.postgresql is not None:
            asyncio.run(_pg_admin(make_url(os.environ[PG_URL_ENV]),
                                  f'DROP DATABASE IF EXISTS "{self.postgresql}" WITH (FORCE)'))


async def _migrate(url: str) -> None:
    engine = create_engine(url)
    try:
        await migrate.upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def schema_templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SchemaTemplates]:
    templates = SchemaTemplates(tmp_path_factory.mktemp("schema"))
    yield templates
    templates.drop()


@pytest.fixture(params=database_urls())
def db_url(request: pytest.FixtureRequest, tmp_path: Path, schema_templates: SchemaTemplates) -> Iterator[str]:
    """A fresh database at the newest schema, with no rows: a SQLite file, or (with
    SIDELINE_TEST_PG_URL) PostgreSQL."""
    if request.param == "sqlite":
        schema_templates.sqlite_copy(tmp_path / "sideline.db")
        yield f"sqlite+aiosqlite:///{tmp_path / 'sideline.db'}"
        return
    base = make_url(os.environ[PG_URL_ENV])
    with _pg_database(base, f"TEMPLATE \"{schema_templates.postgresql_template(base)}\"") as url:
        yield url


@pytest.fixture
def pg_url(schema_templates: SchemaTemplates) -> Iterator[str]:
    """A fresh PostgreSQL database at the newest schema, for what only PostgreSQL does: several bot
    processes on one database. Skipped without SIDELINE_TEST_PG_URL."""
    if not os.environ.get(PG_URL_ENV):
        pytest.skip(f"needs PostgreSQL (several processes on one database): set {PG_URL_ENV}, e.g. "
                    "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    base = make_url(os.environ[PG_URL_ENV])
    with _pg_database(base, f"TEMPLATE \"{schema_templates.postgresql_template(base)}\"") as url:
        yield url


@pytest.fixture(params=database_urls())
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no schema at all, for the tests of migrations themselves."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'sideline.db'}"
        return
    with _pg_database(make_url(os.environ[PG_URL_ENV])) as url:
        yield url


@contextmanager
def _pg_database(base: URL, options: str = "") -> Iterator[str]:
    name = f"sideline_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}" {options}'.strip()))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _pg_admin(url: URL, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(host=url.host, port=url.port or 5432, user=url.username,
                                 password=url.password, database=url.database or "postgres")
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(autouse=True)
def no_deployment_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator's SIDELINE_DATABASE_URL or log settings in the shell would beat every test's config
    file (bot/config/settings.py ``apply_environment``), in this process and the children it starts."""
    for variable in ENVIRONMENT.values():
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture(autouse=True)
def discord_refuses() -> Iterator[None]:
    """Fail any test whose bot sent what real Discord refuses, even with no harness closed."""
    yield
    FakeDiscord.check_all()


@pytest.fixture
def clock() -> FixedClock:
    """Just before the sample season (its games are in January 2030)."""
    return FixedClock(datetime(2030, 1, 5, 12, 0, tzinfo=UTC))


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config())


@pytest.fixture
async def harness(settings: Settings, db_url: str, clock: FixedClock) -> AsyncIterator[Harness]:
    engine = create_engine(db_url)
    bot = create_bot(settings, engine=engine, clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    try:
        yield h
    finally:
        await h.close()


DATA = Path(__file__).resolve().parent / "data"


class SampleLeague:
    """The sample CSVs imported into the harness's first league, with people to act as."""

    def __init__(self, harness: Harness) -> None:
        import csv

        self.h = harness
        self.players = {r["name"]: r for r in csv.DictReader((DATA / "players.csv").open())}
        self.teams = {r["team"]: r for r in csv.DictReader((DATA / "teams.csv").open())}

    async def load(self) -> SampleLeague:

        league = self.h.bot.settings.leagues[0]
        importer = self.h.bot.services.imports.importer
        for kind in ("teams", "players", "games"):
            data = (DATA / f"{kind}.csv").read_bytes()
            if kind == "teams" and league.rules.lineup.court_sizes_by_division:
                # A league whose divisions size the court (youth: junior, senior) takes no others.
                data = data.replace(b",North,", b",senior,").replace(b",South,", b",junior,")
            await importer.run(kind, data, league, now=self.h.bot.clock.now(), allow_past=True)
        return self

    def player(self, name: str, *, roles: tuple[str, ...] = ()) -> Member:
        return self.h.member(name, member_id=int(self.players[name]["discord_id"]), roles=roles)

    def captain(self, team: str, *, with_role: bool = True) -> Member:
        captain_id = int(self.teams[team]["captain_discord_ids"].split()[0])
        return self.h.member(f"{team} Captain", member_id=captain_id,
                             roles=("captain",) if with_role else ())

    def referee(self) -> Member:
        return self.h.member("Ref Rita", member_id=700_000_000_000_000_001, roles=("referee",))

    def commissioner(self) -> Member:
        return self.h.member("Commish Kay", member_id=700_000_000_000_000_002, roles=("commissioner",))

    def timekeeper(self) -> Member:
        return self.h.member("Timekeeper Tom", member_id=700_000_000_000_000_004, roles=("timekeeper",))

    def stranger(self) -> Member:
        return self.h.member("Stranger Sue", member_id=700_000_000_000_000_003)

    def team_channel(self, team: str) -> int | None:
        value = self.teams[team]["channel_id"]
        return int(value) if value else None


def allow_double_booking(monkeypatch: pytest.MonkeyPatch) -> None:
    """For a load of reminders, not a schedule: hundreds of games of the three teams with a channel
    in one hour, which the importer rightly refuses as double-booked."""
    monkeypatch.setattr("bot.services.imports.schedule.double_bookings", lambda *args: [])


@pytest.fixture
async def league(harness: Harness) -> SampleLeague:
    return await SampleLeague(harness).load()


def suspend_by_check(monkeypatch: pytest.MonkeyPatch, bot: object,
                     reason: Callable[..., Awaitable[str | None]]) -> None:
    """Make the bot's discipline feature answer ``reason(session, *, league_id, player_id, game_id)``
    for everyone, as if those players had suspensions, without issuing any."""
    discipline = bot.services.discipline  # type: ignore[attr-defined]

    async def everyone(session: object, *, league_id: int, player_ids: Sequence[int]) -> set[int]:
        return set(player_ids)

    monkeypatch.setattr(discipline, "reason", reason)
    monkeypatch.setattr(discipline, "candidates", everyone)
    monkeypatch.setattr(discipline, "might_be_suspended", lambda league_id, player_id: true())
    # The check-in's one read carries the flag: build it again with the patched check.
    monkeypatch.setattr(bot.services.checkins, "context", CheckInContextQuery(discipline))  # type: ignore[attr-defined]
