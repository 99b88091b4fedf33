"""/suspend and /suspensions through the real command tree, and how suspensions are served."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from storage.models import Deadline, Game, League, OutboxMessage, Suspension, Team
from tests.conftest import CHANNELS, GUILD, SampleLeague
from tests.harness import Harness

ANNOUNCEMENTS = CHANNELS["announcements"]
# Hawks play G1 (Sat 11 Jan), G3 (18 Jan) and G5 (25 Jan), each at 19:00 Toronto (00:00 UTC the next day).
HAWKS_GAMES = {"G1": datetime(2030, 1, 12, tzinfo=UTC), "G3": datetime(2030, 1, 19, tzinfo=UTC),
               "G5": datetime(2030, 1, 26, tzinfo=UTC)}
STARTS = {**HAWKS_GAMES, "G2": datetime(2030, 1, 12, 1, tzinfo=UTC), "G4": datetime(2030, 1, 19, 1, tzinfo=UTC),
          "G6": datetime(2030, 1, 26, 1, tzinfo=UTC), "P1": datetime(2030, 2, 2, tzinfo=UTC)}


async def rows(h: Harness) -> list[tuple[str, int, int, str]]:
    async with h.bot.sessions() as s:
        found = (await s.scalars(select(Suspension).order_by(Suspension.id))).unique().all()
        return [(r.player.name, r.games, r.games_served, r.status) for r in found]


async def outbox_count(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return await s.scalar(select(func.count()).select_from(OutboxMessage)) or 0


async def suspend(h: Harness, league: SampleLeague, name: str, games: int, reason: str = "Boarding in G0") -> int:
    reply = await h.slash("/suspend", as_=league.commissioner(), player=league.player(name), games=games,
                          reason=reason)
    assert reply.ephemeral and "Suspension #" in reply.content, reply.content
    return int(reply.content.split("#")[1].split()[0])


async def enter_result(h: Harness, league: SampleLeague, code: str) -> None:
    h.bot.clock.set(max(h.bot.clock.now(), STARTS[code] + timedelta(hours=2)))  # type: ignore[attr-defined]
    reply = await h.slash("/result enter", as_=league.referee(), game=code, home=3, away=1, decided="regulation")
    assert "Recorded" in reply.content, reply.content


async def test_the_bot_is_wired_to_discipline(harness: Harness) -> None:
    services = harness.bot.services
    for needs_the_check in (services.checkins, services.shootout_orders, services.shootout_scoring):
        assert needs_the_check.suspensions is services.discipline
    # A result freezes the game sheets (what "played" counts), then counts suspensions down.
    hook = services.results.on_result
    assert hook is services.imports.importer.on_result is services.shootout_scoring.on_result
    steps = hook.steps  # type: ignore[attr-defined]
    assert steps[:2] == (services.gamesheets.freeze_at_result, services.discipline.count_down)


async def test_a_player_cannot_suspend_and_nothing_changes(harness: Harness, league: SampleLeague) -> None:
    before = await outbox_count(harness)
    reply = await harness.slash("/suspend", as_=league.player("Bea Quinn"), player=league.player("Alice Hart"),
                                games=2, reason="no reason")
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await rows(harness) == []
    assert await outbox_count(harness) == before
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Deadline)) == 0


async def test_a_captain_cannot_suspend_either(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/suspend", as_=league.captain("Owls"), player=league.player("Alice Hart"),
                                games=1, reason="rough")
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await rows(harness) == []


async def test_a_suspension_is_announced_pinging_only_the_player_and_told_privately(
        harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    reply = await harness.slash("/suspend", as_=league.commissioner(), player=alice, games=2,
                                reason="Slashing @everyone <@&1001> after the whistle")
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    assert "Suspension #" in reply.content and "Announced" in reply.content
    assert await rows(harness) == [("Alice Hart", 2, 0, "active")]
    await harness.bot.courier.deliver_due()

    (announced,) = harness.discord.channel_messages(ANNOUNCEMENTS)
    assert announced.content.startswith(f"🚫 <@{alice.id}> (Alice Hart, Hawks) is suspended for 2 games")
    assert announced.allowed_mentions == {"parse": [], "users": [alice.id]}
    assert "Slashing" not in announced.content, "the reason is shown only to the player, captains, commissioners"
    assert all(c.channel_id == ANNOUNCEMENTS for c in harness.discord.channel_messages())

    (dm,) = harness.discord.dms(alice.id)
    assert "Slashing @\u200beveryone <@\u200b&1001> after the whistle" in dm.content  # cleaned
    assert "`/appeal file suspension:" in dm.content and "reason:<why>`" in dm.content
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Suspension))
        window = await s.scalar(select(Deadline).where(Deadline.ref == f"suspension:{row.id}:appeal-window"))
    assert window is not None and window.kind == "appeal_window" and window.audience_kind == "player"
    assert window.audience_id == alice.id
    assert window.due_at == row.issued_at + timedelta(days=7)
    assert f"<t:{int(window.due_at.timestamp())}:F>" in dm.content


async def test_the_suspended_players_checkin_is_refused_with_the_reason(harness: Harness, league: SampleLeague) -> None:
    await suspend(harness, league, "Alice Hart", 1, reason="Fighting in the parking lot")
    alice = league.player("Alice Hart")
    reply = await harness.slash("/checkin", as_=alice, status="in", game="G1")
    assert reply.ephemeral
    assert "You can't check in for G1" in reply.content and "Fighting in the parking lot" in reply.content
    out = await harness.slash("/checkin", as_=alice, status="out", game="G1")
    assert "can't" not in out.content
    later = await harness.slash("/checkin", as_=alice, status="in", game="G3")
    assert "can't check in" not in later.content, "a 1-game suspension is served in G1 only"
    teammate = await harness.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    assert "can't check in" not in teammate.content


async def test_lineup_excludes_a_player_suspended_after_checking_in(harness: Harness, league: SampleLeague) -> None:
    carl = league.player("Carl Diaz")
    assert "can't" not in (await harness.slash("/checkin", as_=carl, status="in", game="G1")).content
    await suspend(harness, league, "Carl Diaz", 1)
    reply = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert "Carl Diaz is suspended and cannot play" in reply.text


async def test_a_two_game_suspension_counts_down_with_the_teams_results_then_ends(
        harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    await suspend(harness, league, "Alice Hart", 2)
    await suspend(harness, league, "Omar Fox", 1)  # Owls: G1, G3, G6
    await enter_result(harness, league, "G2")  # Bears vs Wolves: not a Hawks game
    assert await rows(harness) == [("Alice Hart", 2, 0, "active"), ("Omar Fox", 1, 0, "active")]

    await enter_result(harness, league, "G1")
    assert await rows(harness) == [("Alice Hart", 2, 1, "active"), ("Omar Fox", 1, 1, "served")]
    listing = await harness.slash("/suspensions", as_=league.player("Walt Orr"))
    assert "1 of 2 games left" in listing.text and "Omar Fox" not in listing.text
    assert "can't check in for G3" in (await harness.slash("/checkin", as_=alice, status="in", game="G3")).content

    await enter_result(harness, league, "G3")
    assert await rows(harness) == [("Alice Hart", 2, 2, "served"), ("Omar Fox", 1, 1, "served")]
    assert "can't" not in (await harness.slash("/checkin", as_=alice, status="in", game="G5")).content
    assert "Nobody is suspended" in (await harness.slash("/suspensions", as_=alice)).text
    await harness.bot.courier.deliver_due()
    assert any("is served" in dm.content for dm in harness.discord.dms(alice.id))


async def test_a_result_entered_twice_or_corrected_counts_once(harness: Harness, league: SampleLeague) -> None:
    await suspend(harness, league, "Alice Hart", 2)
    await enter_result(harness, league, "G1")
    fixed = await harness.slash("/result fix", as_=league.commissioner(), game="G1", home=4, reason="typo")
    assert "Corrected" in fixed.content
    assert await rows(harness) == [("Alice Hart", 2, 1, "active")]


async def test_suspensions_add_up_and_are_served_one_after_the_other(harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    await suspend(harness, league, "Alice Hart", 1)
    await suspend(harness, league, "Alice Hart", 1)
    assert "can't check in for G1" in (await harness.slash("/checkin", as_=alice, status="in", game="G1")).content
    assert "can't check in for G3" in (await harness.slash("/checkin", as_=alice, status="in", game="G3")).content
    assert "can't" not in (await harness.slash("/checkin", as_=alice, status="in", game="G5")).content
    await enter_result(harness, league, "G1")
    assert await rows(harness) == [("Alice Hart", 1, 1, "served"), ("Alice Hart", 1, 0, "active")]


async def test_unserved_games_carry_into_the_playoffs(harness: Harness, league: SampleLeague) -> None:
    async with harness.bot.sessions.begin() as s:
        league_id = await s.scalar(select(League.id).where(League.key == "coed"))
        hawks = await s.scalar(select(Team).where(Team.name == "Hawks"))
        owls = await s.scalar(select(Team).where(Team.name == "Owls"))
        s.add(Game(league_id=league_id, code="P1", home_team_id=hawks.id, away_team_id=owls.id,
                   starts_at=datetime(2030, 2, 2, tzinfo=UTC), kind="playoff"))
    alice = league.player("Alice Hart")
    await suspend(harness, league, "Alice Hart", 4)
    assert "can't check in for P1" in (await harness.slash("/checkin", as_=alice, status="in", game="P1")).content
    for code in ("G1", "G3", "G5"):
        await enter_result(harness, league, code)
    assert await rows(harness) == [("Alice Hart", 4, 3, "active")]
    harness.bot.clock.set(STARTS["P1"] - timedelta(days=1))  # type: ignore[attr-defined]
    assert "can't check in for P1" in (await harness.slash("/checkin", as_=alice, status="in", game="P1")).content
    await enter_result(harness, league, "P1")
    assert await rows(harness) == [("Alice Hart", 4, 4, "served")]


async def test_suspensions_list_shows_details_only_to_those_allowed(harness: Harness, league: SampleLeague) -> None:
    await suspend(harness, league, "Yuri Bell", 2, reason="Spearing")
    seen = {}
    for who, member in (("player", league.player("Yuri Bell")), ("captain", league.captain("Bears")),
                        ("commissioner", league.commissioner()), ("teammate", league.player("Zed Lowe")),
                        ("captain without the role", league.captain("Bears", with_role=False)),
                        ("other captain", league.captain("Owls")), ("referee", league.referee())):
        reply = await harness.slash("/suspensions", as_=member)
        assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
        assert "Yuri Bell (Bears)" in reply.text and "2 of 2 games left" in reply.text
        seen[who] = "Spearing" in reply.text
    assert seen == {"player": True, "captain": True, "commissioner": True, "teammate": False,
                    "captain without the role": False, "other captain": False, "referee": False}


async def test_until_when_names_the_last_game_to_sit_out(harness: Harness, league: SampleLeague) -> None:
    await suspend(harness, league, "Alice Hart", 2)
    await suspend(harness, league, "Omar Fox", 5)
    text = (await harness.slash("/suspensions", as_=league.player("Walt Orr"))).text
    alice_line = next(line for line in text.splitlines() if "Alice Hart" in line)
    assert f"through the game of <t:{int(HAWKS_GAMES['G3'].timestamp())}:f>" in alice_line
    omar_line = next(line for line in text.splitlines() if "Omar Fox" in line)
    assert "not all its games are scheduled" in omar_line


async def test_only_rostered_players_can_be_suspended(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/suspend", as_=league.commissioner(), player=league.stranger(), games=1,
                                reason="not even here")
    assert reply.ephemeral and "isn't on a team's roster" in reply.content
    assert await rows(harness) == []


async def test_results_recorded_without_the_hook_are_counted_at_start(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    """A result stored without the countdown (an older version's backfill) is caught up at start."""
    await suspend(harness, league, "Alice Hart", 1)

    async def not_counted(session, league_id: int, game_id: int) -> None:  # type: ignore[no-untyped-def]
        return None

    monkeypatch.setattr(harness.bot.services.results, "on_result", not_counted)
    await enter_result(harness, league, "G1")
    assert await rows(harness) == [("Alice Hart", 1, 0, "active")]
    assert "Nobody is suspended" in (await harness.slash("/suspensions", as_=league.commissioner())).text
    alice = league.player("Alice Hart")
    assert "can't" not in (await harness.slash("/checkin", as_=alice, status="in", game="G3")).content
    async with harness.bot.sessions.begin() as s:
        assert await harness.bot.services.discipline.reconcile(s, harness.bot.league_ids[GUILD]) == 1
    assert await rows(harness) == [("Alice Hart", 1, 1, "served")]
