"""/game add|move|cancel through the real command tree: commissioners only; reminders follow the game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import Game, OutboxMessage
from tests.conftest import SampleLeague
from tests.harness import Harness, Member

HAWKS, OWLS = 600_000_000_000_000_001, 600_000_000_000_000_002
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
WOLVES_PLAYERS = [500_000_000_000_000_031 + i for i in range(6)]


async def snapshot(h: Harness) -> tuple[list[tuple[str, str, datetime]], list[tuple[str, str, datetime]]]:
    async with h.bot.sessions() as s:
        games = (await s.execute(select(Game.code, Game.status, Game.starts_at).order_by(Game.code))).all()
        rows = (await s.execute(select(OutboxMessage.send_key, OutboxMessage.status, OutboxMessage.due_at)
                                .order_by(OutboxMessage.send_key))).all()
    return [tuple(g) for g in games], [tuple(r) for r in rows]


async def reminder_rows(h: Harness, code: str) -> list[OutboxMessage]:
    async with h.bot.sessions() as s:
        game_id = await s.scalar(select(Game.id).where(Game.code == code))
        return list((await s.scalars(select(OutboxMessage).where(
            OutboxMessage.send_key.startswith(f"game-reminders:{game_id}:")).order_by(OutboxMessage.send_key))).all())


@pytest.mark.parametrize(("path", "options"), [
    ("/game add", {"home": "Hawks", "away": "Owls", "starts_at": "2030-02-01 19:00"}),
    ("/game move", {"game": "G1", "starts_at": "2030-01-12 19:00"}),
    ("/game cancel", {"game": "G1"}),
])
@pytest.mark.parametrize("who", ["player", "captain"])
async def test_only_commissioners_manage_games_and_nothing_is_written(
        harness: Harness, league: SampleLeague, path: str, options: dict[str, str], who: str) -> None:
    before = await snapshot(harness)
    member = league.player("Bea Quinn") if who == "player" else league.captain("Hawks")
    reply = await harness.slash(path, as_=member, **options)
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await snapshot(harness) == before
    assert harness.discord.channel_messages() == []


async def test_a_commissioner_adds_a_game_and_its_reminders_are_planned(harness: Harness,
                                                                        league: SampleLeague) -> None:
    reply = await harness.slash("/game add", as_=league.commissioner(), home="Hawks", away="Owls",
                                starts_at="2030-02-01 19:00", venue="Rink C", kind="playoff")
    assert reply.ephemeral and reply.last.allowed_mentions == {"parse": []}
    start = datetime(2030, 2, 2, 0, 0, tzinfo=UTC)
    assert f"Added `G7` Hawks vs Owls, <t:{int(start.timestamp())}:F> at Rink C (playoff)" in reply.content
    async with harness.bot.sessions() as s:
        game = await s.scalar(select(Game).where(Game.code == "G7"))
    assert game is not None and game.starts_at == start and game.status == "scheduled"
    planned = await reminder_rows(harness, "G7")
    assert len(planned) == 2 * (3 + 2) + 1, "two teams' reminders and lineup checks, and the officials' card"
    assert sorted({start - r.due_at for r in planned}) == [timedelta(hours=h) for h in (2, 3, 24, 48)]
    assert "10 reminders and lineup checks planned" in reply.content, "the card isn't the teams' reminder"


async def test_a_chosen_game_id_is_kept_and_must_be_new(harness: Harness, league: SampleLeague) -> None:
    commish = league.commissioner()
    reply = await harness.slash("/game add", as_=commish, home="Hawks", away="Owls",
                                starts_at="2030-02-01 19:00", code="FINAL-1")
    assert "Added `FINAL-1`" in reply.content
    again = await harness.slash("/game add", as_=commish, home="Bears", away="Owls",
                                starts_at="2030-02-02 19:00", code="FINAL-1")
    assert "already a game `FINAL-1`" in again.content


@pytest.mark.parametrize(("options", "expected"), [
    ({"starts_at": "2030-03-10 02:30"}, "does not exist in America/Toronto (the clocks skip that hour)"),
    ({"starts_at": "2030-01-01 19:00"}, "is in the past"),
    ({"starts_at": "next friday"}, "is not a date and time like 2026-12-05 19:00"),
    ({"away": "Hawks"}, "two different teams"),
    ({"away": "Ravens"}, "no team called “Ravens”"),
    ({"code": "bad code!"}, "A game id is 1-32 letters"),
])
async def test_bad_games_are_refused_and_nothing_is_written(harness: Harness, league: SampleLeague,
                                                            options: dict[str, str], expected: str) -> None:
    before = await snapshot(harness)
    values = {"home": "Hawks", "away": "Owls", "starts_at": "2030-02-01 19:00", **options}
    reply = await harness.slash("/game add", as_=league.commissioner(), **values)
    assert reply.ephemeral and expected in reply.content
    assert await snapshot(harness) == before


async def test_moving_a_game_after_its_first_reminder_moves_the_rest(harness: Harness, league: SampleLeague,
                                                                     clock: FixedClock) -> None:
    clock.set(G1_START - timedelta(hours=48))
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(HAWKS)) == 1
    clock.set(G1_START - timedelta(hours=47))
    reply = await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-12 19:00")
    new_start = datetime(2030, 1, 13, 0, 0, tzinfo=UTC)
    assert reply.ephemeral and "Moved `G1`" in reply.content and "both teams are told" in reply.content
    all_rows = await reminder_rows(harness, "G1")
    hawks = {r.send_key.rsplit(":", 1)[1]: r for r in all_rows if r.channel_id == HAWKS}
    assert hawks["2880m"].status == "sent"
    assert (hawks["1440m"].status, hawks["1440m"].due_at) == ("pending", new_start - timedelta(hours=24))
    assert (hawks["120m"].status, hawks["120m"].due_at) == ("pending", new_start - timedelta(hours=2))
    assert all(r.expires_at == new_start for r in all_rows if r.status == "pending")
    await harness.bot.courier.deliver_due()
    for channel in (HAWKS, OWLS):
        notices = [c for c in harness.discord.channel_messages(channel) if "new time" in c.content]
        assert len(notices) == 1 and f"<t:{int(new_start.timestamp())}:F>" in notices[0].content
        # answers for the old time still stand: the notice carries the buttons to change them
        assert "Can you still make it?" in notices[0].content
        league_id = harness.bot.league_ids[harness.default_guild]
        assert notices[0].custom_ids() == [f"sideline:checkin@{league_id}:G1:{s}" for s in ("in", "out", "maybe")]
        assert notices[0].allowed_mentions is not None and notices[0].allowed_mentions["parse"] == []
    for hours in (25, 24, 3, 2):
        clock.set(new_start - timedelta(hours=hours))
        await harness.bot.courier.deliver_due()
    reminders = [c for c in harness.discord.channel_messages(HAWKS) if "Are you in" in c.content]
    assert len(reminders) == 2  # the team's message at 48 h (old time), the last call 2 h before the new time
    assert f"<t:{int(new_start.timestamp())}:R>" in reminders[1].content
    # the message posted at 48 h was edited to show the new time, and posted again nowhere
    edits = harness.discord.edits(HAWKS)
    assert edits and f"<t:{int(new_start.timestamp())}:F>" in edits[-1].content


async def test_moving_a_game_closer_drops_reminders_whose_time_passed(harness: Harness, league: SampleLeague,
                                                                      clock: FixedClock) -> None:
    clock.set(datetime(2030, 1, 8, 12, 0, tzinfo=UTC))
    await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-09 12:00")
    rows = await reminder_rows(harness, "G1")
    assert {r.send_key.rsplit(":", 1)[1] for r in rows if r.status == "pending" and r.kind == "game_reminder"} == {
        "1440m", "120m"}
    assert {r.send_key.rsplit(":", 1)[1] for r in rows if r.status == "cancelled"} == {"2880m"}


async def test_cancelling_tells_each_team_once_and_stops_reminders(harness: Harness, league: SampleLeague,
                                                                   clock: FixedClock) -> None:
    commish = league.commissioner()
    reply = await harness.slash("/game cancel", as_=commish, game="G1")
    assert reply.ephemeral and "Cancelled `G1`" in reply.content
    again = await harness.slash("/game cancel", as_=commish, game="G1")
    assert again.ephemeral and again.content == "Game G1 was already cancelled."
    assert {r.status for r in await reminder_rows(harness, "G1")} == {"cancelled"}
    for hours in (48, 24, 2):
        clock.set(G1_START - timedelta(hours=hours))
        await harness.bot.courier.deliver_due()
    for channel in (HAWKS, OWLS):
        (notice,) = harness.discord.channel_messages(channel)
        assert "is **cancelled**" in notice.content and "`G1`" in notice.content


async def test_cancelling_a_game_of_a_team_without_a_channel_dms_its_players(
        harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/game cancel", as_=league.commissioner(), game="G2")
    await harness.bot.courier.deliver_due()
    assert all(len(harness.discord.dms(p)) == 1 for p in WOLVES_PLAYERS)
    assert "cancelled" in harness.discord.dms(WOLVES_PLAYERS[0])[0].content


async def test_a_cancelled_game_cannot_move(harness: Harness, league: SampleLeague) -> None:
    commish = league.commissioner()
    await harness.slash("/game cancel", as_=commish, game="G1")
    reply = await harness.slash("/game move", as_=commish, game="G1", starts_at="2030-01-12 19:00")
    assert "only a scheduled game can move" in reply.content


async def test_server_managers_count_as_commissioners(harness: Harness, league: SampleLeague) -> None:
    admin = Member(id=700_000_000_000_000_099, name="Owner Olga", manage_guild=True)
    reply = await harness.slash("/game add", as_=admin, home="Bears", away="Wolves", starts_at="2030-02-01 20:00")
    assert "Added `G7`" in reply.content


async def test_team_options_autocomplete(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/game add", focused="away", as_=league.commissioner(), away="ow")
    assert [c["value"] for c in reply.autocomplete_choices] == ["Owls"]
