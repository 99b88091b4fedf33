"""/import through the real command tree: a commissioner uploads CSVs, nobody else can."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.services.imports import importer
from bot.services.imports.importer import plan_schedule
from bot.services.reminders.plan import plan_games
from storage.models import CheckIn, Game
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness, Member, Reply
from tests.reliability.snapshot import changed_tables, snapshot

DATA = Path(__file__).resolve().parents[1] / "data"


async def test_a_commissioner_imports_games_from_an_attachment(harness: Harness, league: SampleLeague) -> None:
    csv = b"game_id,starts_at,home,away,venue,kind\nG7,2030-02-01 19:00,Hawks,Wolves,Rink C,regular\n"
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("games.csv", csv))
    assert reply.ephemeral
    assert "games.csv: games: 1 created, 0 updated, 0 unchanged." in reply.text
    schedule = await harness.slash("/schedule", as_=league.player("Alice Hart"))
    assert "`G7`" in schedule.text


async def test_a_bad_csv_lists_the_problems_and_imports_nothing(harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    csv = (b"game_id,starts_at,home,away,venue,kind\n"
           b"G8,2030-02-01 19:00,Hawks,Penguins,Rink C,regular\nG9,soon,Hawks,Owls,,\n")
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("g.csv", csv))
    assert reply.ephemeral
    assert "Nothing was imported" in reply.text
    assert "line 3: starts_at 'soon' is not a date and time" in reply.text
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


async def test_a_captain_cannot_import(harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/import teams", as_=league.captain("Hawks"),
                                file=Attachment("teams.csv", (DATA / "teams.csv").read_bytes()))
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert not [c for c in harness.discord.calls if c.method == "GET" and "attachments" in c.path]
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


def season(rows: int, *, unknown_team_last: bool = False) -> bytes:
    """``rows`` games of the sample teams from February 2030 on, two an hour from 18:00 to 21:00 on two
    rinks (a round robin: no team plays twice at once, no rink holds two games)."""
    teams = ("Hawks", "Owls", "Bears", "Wolves")
    rounds = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
    lines = ["game_id,starts_at,home,away,venue,kind"]
    for i in range(rows):
        slot = i // 2
        home, away = rounds[slot % 3][i % 2]
        lines.append(f"B{i:05d},{date(2030, 2, 1) + timedelta(days=slot // 4)} {18 + slot % 4}:00,"
                     f"{teams[home]},{teams[away]},Rink {i % 2 + 1},")
    if unknown_team_last:
        lines[-1] = f"B{rows - 1:05d},2030-02-01 18:00,Penguins,Owls,Rink,"
    return ("\n".join(lines) + "\n").encode()


class CheckInsMeanwhile:
    """Holds one step of the import until two more check-ins have been answered: the second was sent
    after the step was reached, so it was answered while the import was under way, not queued behind
    it. A step that blocks the event loop (or holds the write lock) gets no answers: it goes on after
    ``WAIT_S`` and the test's count of answers shows it."""

    WAIT_S = 30.0

    def __init__(self) -> None:
        self.answered = 0
        self._more = asyncio.Event()

    def note_answer(self) -> None:
        self.answered += 1
        self._more.set()

    def hold(self) -> None:
        """For a step in a worker thread."""
        target, deadline = self.answered + 2, time.monotonic() + self.WAIT_S
        while self.answered < target and time.monotonic() < deadline:
            time.sleep(0.005)

    async def hold_on_the_loop(self) -> None:
        target = self.answered + 2
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.WAIT_S):
                while self.answered < target:
                    self._more.clear()
                    await self._more.wait()


async def import_while_checking_in(harness: Harness, league: SampleLeague, data: bytes,
                                   monkeypatch: pytest.MonkeyPatch) -> tuple[Reply, list[Reply], int, str]:
    """/import games, and Alice checking in again and again from the moment the file is read until
    the import is done: the import's reply, the check-ins, how many were answered before the
    import's own answer, and her last answer. The import is held where check-ins must get through:
    while the file is checked (off the loop, before the write lock), and between the transactions
    that plan the new games' reminders; so the count doesn't depend on how fast this machine is."""
    meanwhile = CheckInsMeanwhile()
    held: set[str] = set()

    def checking(*args: Any, **kwargs: Any) -> Any:
        if "check" not in held:
            held.add("check")
            meanwhile.hold()
        return plan_schedule(*args, **kwargs)

    async def planning(*args: Any, **kwargs: Any) -> Any:
        if "plan" not in held:
            held.add("plan")
            await meanwhile.hold_on_the_loop()
        return await plan_games(*args, **kwargs)

    monkeypatch.setattr(importer, "plan_schedule", checking)
    monkeypatch.setattr(importer, "plan_games", planning)
    start = len(harness.discord.calls)
    importing = asyncio.ensure_future(harness.slash("/import games", as_=league.commissioner(),
                                                    file=Attachment("season.csv", data)))
    while not importing.done():  # until the bot has fetched the file: then it reads it
        if any(c.method == "GET" and "attachments" in c.path for c in harness.discord.calls[start:]):
            break
        await asyncio.sleep(0)
    checkins: list[Reply] = []
    status = ""
    while not importing.done():
        status = ("in", "out")[len(checkins) % 2]
        checkins.append(await harness.slash("/checkin", as_=league.player("Alice Hart"), game="G3", status=status))
        meanwhile.note_answer()
        await asyncio.sleep(0.01)  # a player, not a flood: the import gets the processor too
    reply = await importing
    texts = [c.text for c in harness.discord.calls[start:]]
    answered = next(i for i, t in enumerate(texts) if "games: " in t or "Nothing was imported" in t)
    return reply, checkins, sum(ANSWERED in t for t in texts[:answered]), status


LARGE = 2_000  # a file of a real league's size
ANSWERED = "for Owls vs Hawks"  # a check-in's answer for G3


async def test_a_large_import_does_not_freeze_the_bot(harness: Harness, league: SampleLeague,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A big schedule file was imported on the event loop in one long transaction: every command
    waited for it (105 s for 20,000 rows). Now check-ins are answered while it runs, and the file
    still goes in whole or not at all."""
    before = await snapshot(harness.bot.sessions)
    reply, checkins, during, _ = await import_while_checking_in(
        harness, league, season(LARGE, unknown_team_last=True), monkeypatch)
    assert "Nothing was imported" in reply.text and f"line {LARGE + 1}: unknown team 'Penguins'" in reply.text
    assert during >= 2, "every check-in waited for the whole import"
    assert [r.text for r in checkins if ANSWERED not in r.text or "went wrong" in r.text] == []
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == ["checkins"]

    reply, checkins, during, last = await import_while_checking_in(harness, league, season(LARGE), monkeypatch)
    assert f"games: {LARGE} created, 0 updated, 0 unchanged" in reply.text, reply.text
    assert during >= 4, "every check-in waited for the whole import"
    assert [r.text for r in checkins if ANSWERED not in r.text or "went wrong" in r.text] == []
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Game)) == 6 + LARGE
        assert (await s.scalars(select(CheckIn.status))).all() == [last]


async def test_a_semicolon_file_with_usernames_imports_and_warnings_are_shown(harness: Harness,
                                                                             league: SampleLeague) -> None:
    """Excel in many locales writes semicolons; the answer says how the file was read, and a
    second player of one name on a team is imported with a warning."""
    harness.join(Member(id=900_000_000_000_000_001, name="alice.h"), harness.default_guild or 0)
    csv = b"discord_id;name;team;position;gender\n@alice.h;Alice Hart;Hawks;G;F\n"
    reply = await harness.slash("/import players", as_=league.commissioner(), file=Attachment("p.csv", csv))
    assert reply.ephemeral
    assert reply.text.splitlines() == [
        "p.csv: players: 1 created, 0 updated, 0 unchanged (read as semicolon-separated).",
        "• warning: line 2: Hawks has 2 players named 'Alice Hart' (line 2, 1 already on the roster); imported, "
        "each with their own Discord id"]


def test_each_import_command_names_the_columns_the_importer_reads(harness: Harness) -> None:
    """The slash descriptions are written out by hand: they must say what the importer reads."""
    from bot.services.imports.csv_rows import COLUMNS

    group = harness.bot.tree.get_command("import")
    assert group is not None
    for command in group.walk_commands():  # type: ignore[union-attr]
        assert f"({COLUMNS[command.name].header()})" in command.description
