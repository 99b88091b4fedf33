"""/shootout through the real command tree: orders checked against the rules, attempts to a result."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import (
    Game,
    OutboxMessage,
    Player,
    RefereeAssignment,
    Result,
    Shootout,
    ShootoutAttempt,
    ShootoutOrder,
)
from tests.conftest import SampleLeague, league_config, make_settings, suspend_by_check
from tests.harness import Harness, Member

HAWKS_IN = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Ray Moss", "Uma Reed")
AFTER_G1_OVERTIME = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # G1 starts 11 Jan 19:00 Toronto (00:00 UTC)
THREE_MEN_FIRST = ("Shooter 3: the first 3 shooters must include at least 1 woman or non-binary player "
                   "(Co-ed rules: Shootouts)")


async def check_in(h: Harness, league: SampleLeague, names: tuple[str, ...], game: str = "G1",
                   status: str = "in") -> None:
    for name in names:
        reply = await h.slash("/checkin", as_=league.player(name), status=status, game=game)
        # The check-in's own answer comes first (a player without a gender category is then asked for one).
        assert f"**{status}**" in reply.first.content, reply.first.content


async def orders(h: Harness) -> list[tuple[str, list[str]]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(ShootoutOrder).order_by(ShootoutOrder.id))).all()
        names = dict((await s.execute(select(Player.id, Player.name))).all())
        teams = {}
        for game in (await s.scalars(select(Game))).all():
            teams |= {game.home_team_id: game.home.name, game.away_team_id: game.away.name}
        return [(teams[r.team_id], [names[p] for p in r.shooters]) for r in rows]


@pytest.fixture
async def ready(harness: Harness, league: SampleLeague) -> SampleLeague:
    """G1 (Hawks vs Owls): six Hawks (Alice and Bea count as women/non-binary) and five Owls are in."""
    await check_in(harness, league, HAWKS_IN)
    await check_in(harness, league, OWLS_IN)
    return league


# --- submitting ------------------------------------------------------------------------------------
async def test_three_men_first_in_coed_is_refused_with_the_rule_and_nothing_is_stored(
        harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Carl Diaz, Dan Roy, Eli Park, Alice Hart")
    assert reply.ephemeral
    assert "nothing was saved" in reply.content
    assert THREE_MEN_FIRST in reply.content
    assert "woman" not in reply.content.replace("at least 1 woman or non-binary player", "")  # nobody's gender named
    assert reply.last.allowed_mentions == {"parse": []}
    assert await orders(harness) == []


async def test_a_legal_order_is_stored_and_a_resubmission_replaces_it(harness: Harness, ready: SampleLeague) -> None:
    captain = ready.captain("Hawks")
    reply = await harness.slash("/shootout submit", as_=captain, game="G1",
                                shooters="Alice Hart, carl, <@500000000000000004>")  # Dan Roy by mention
    assert reply.ephemeral
    assert reply.content.startswith("Saved Hawks's shootout order for `G1` (Hawks vs Owls):\n1. Alice Hart\n"
                                    "2. Carl Diaz\n3. Dan Roy")
    assert await orders(harness) == [("Hawks", ["Alice Hart", "Carl Diaz", "Dan Roy"])]
    reply = await harness.slash("/shootout submit", as_=captain, game="G1", shooters="Bea, Eli Park, Gus Lee, Alice")
    assert reply.content.startswith("Replaced Hawks's shootout order")
    assert await orders(harness) == [("Hawks", ["Bea Quinn", "Eli Park", "Gus Lee", "Alice Hart"])]


async def test_a_player_and_another_teams_captain_are_refused(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout submit", as_=ready.player("Carl Diaz"), game="G1",
                                shooters="Alice Hart, Carl Diaz, Dan Roy")
    assert reply.ephemeral and "Only a captain of Hawks or Owls, or a commissioner" in reply.content
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks", with_role=False), game="G1",
                                shooters="Alice Hart, Carl Diaz, Dan Roy")
    assert "Only a captain of Hawks or Owls" in reply.content
    reply = await harness.slash("/shootout submit", as_=ready.captain("Bears"), game="G1",
                                shooters="Alice Hart, Carl Diaz, Dan Roy", team="Hawks")
    assert "Only Hawks's captain or a commissioner" in reply.content
    reply = await harness.slash("/shootout check", as_=ready.player("Carl Diaz"), game="G1")
    assert reply.ephemeral and "Only a captain of Hawks or Owls, a referee" in reply.content
    assert await orders(harness) == []


async def test_a_commissioner_submits_for_a_named_team(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout submit", as_=ready.commissioner(), game="G1",
                                shooters="Pia, Omar, Quin")
    assert "Name the team (Hawks vs Owls)" in reply.content
    reply = await harness.slash("/shootout submit", as_=ready.commissioner(), game="G1",
                                shooters="Pia, Omar, Quin", team="owls")
    assert reply.content.startswith("Saved Owls's shootout order")
    assert await orders(harness) == [("Owls", ["Pia Lund", "Omar Fox", "Quin Ash"])]


async def test_ambiguous_and_unknown_names_are_asked_back_and_nothing_is_stored(
        harness: Harness, ready: SampleLeague) -> None:
    alan = Member(id=800_000_000_000_000_011, name="Alan Bell")
    added = await harness.slash("/roster add", as_=ready.captain("Hawks"), player=alan, gender="man")
    assert "is now on Hawks" in added.content
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Al, Carl Diaz, Zed, Dan Roy")
    assert reply.ephemeral
    assert "“Al” matches Alice Hart and Alan Bell — which one?" in reply.content
    assert "“Zed” doesn't match anyone on Hawks's roster." in reply.content
    assert "Nothing was saved" in reply.content
    assert await orders(harness) == []


async def test_players_who_cannot_shoot_are_named_with_why(harness: Harness, ready: SampleLeague,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    await check_in(harness, ready, ("Hana Kim",), status="maybe")

    async def suspended(session: Any, *, league_id: int, player_id: int, game_id: int | None) -> str | None:
        name = await session.scalar(select(Player.name).where(Player.id == player_id))
        return "suspended" if name == "Dan Roy" else None

    suspend_by_check(monkeypatch, harness.bot, suspended)
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Alice Hart, Finn Cole, Dan Roy, Hana Kim")
    text = reply.content
    assert "Shooter 2: Finn Cole hasn't checked in for G1 (Co-ed rules: Shootouts)" in text
    assert "Shooter 3: Dan Roy is suspended for G1 (Co-ed rules: Shootouts)" in text
    assert "Shooter 4: Hana Kim answered “maybe” for G1, not “in” (Co-ed rules: Shootouts)" in text
    assert await orders(harness) == []


# --- who sees what, and what is wrong now ------------------------------------------------------------
async def test_the_opponent_cannot_see_an_order_before_the_shootout_but_a_referee_can(
        harness: Harness, ready: SampleLeague) -> None:
    await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                        shooters="Alice Hart, Carl Diaz, Dan Roy")
    own = await harness.slash("/shootout check", as_=ready.captain("Hawks"), game="G1")
    assert own.ephemeral and "1. Alice Hart\n2. Carl Diaz\n3. Dan Roy" in own.content
    assert "✅ Legal as things stand now." in own.content
    assert "**Owls**: no order submitted yet." not in own.content  # the other team's state stays private
    assert "**Owls**: private until the shootout starts." in own.content
    rival = await harness.slash("/shootout check", as_=ready.captain("Owls"), game="G1")
    assert rival.ephemeral
    assert "Alice Hart" not in rival.content and "Carl Diaz" not in rival.content
    assert "**Hawks**: private until the shootout starts." in rival.content
    assert "**Owls**: no order submitted yet." in rival.content
    ref = await harness.slash("/shootout check", as_=ready.referee(), game="G1")
    assert ref.ephemeral and "1. Alice Hart\n2. Carl Diaz\n3. Dan Roy" in ref.content
    assert "**Owls**: no order submitted yet." in ref.content


async def test_a_referee_not_assigned_to_an_assigned_game_is_refused(harness: Harness, ready: SampleLeague) -> None:
    async with harness.bot.sessions.begin() as s:
        game = await s.scalar(select(Game).where(Game.code == "G1"))
        assert game is not None
        s.add(RefereeAssignment(league_id=game.league_id, game_id=game.id, referee_id=700_000_000_000_000_099,
                                referee_name="Ref Rob"))
    reply = await harness.slash("/shootout check", as_=ready.referee(), game="G1")
    assert "a referee of this game or a commissioner" in reply.content
    rob = harness.member("Ref Rob", member_id=700_000_000_000_000_099)
    reply = await harness.slash("/shootout check", as_=rob, game="G1")
    assert "**Hawks**: no order submitted yet." in reply.content


async def test_check_judges_the_stored_order_against_todays_check_ins(harness: Harness, ready: SampleLeague) -> None:
    await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                        shooters="Carl Diaz, Dan Roy, Alice Hart")
    await check_in(harness, ready, ("Alice Hart",), status="out")
    reply = await harness.slash("/shootout check", as_=ready.captain("Hawks"), game="G1")
    assert "⚠️ Not legal as things stand now:" in reply.content
    assert "Shooter 3: Alice Hart answered “out” for G1, not “in” (Co-ed rules: Shootouts)" in reply.content


async def test_suggest_keeps_the_preferred_shooters_first(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout suggest", as_=ready.captain("Hawks"), game="G1",
                                preferred="Carl Diaz, Dan Roy, Finn")
    assert reply.ephemeral
    text = reply.content
    assert "A legal order for Hawks in `G1`" in text
    assert "1. Carl Diaz\n2. Dan Roy\n3. " in text
    assert "3. Alice Hart" in text or "3. Bea Quinn" in text  # the third has to be a woman or non-binary player
    assert "Finn Cole hasn't checked in for G1, so they're left out." in text
    command = text.split("```\n")[1].split("\n```")[0]
    shooters = command.split("shooters:", 1)[1]
    stored = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1", shooters=shooters)
    assert stored.content.startswith("Saved Hawks's shootout order"), stored.content
    assert await orders(harness) != []


async def test_floor_is_not_needed_outside_indoor_soccer(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout floor", as_=ready.referee(), game="G1", players="Alice Hart")
    assert reply.ephemeral and reply.content.startswith("No need in Coed League")


# --- recording a shootout --------------------------------------------------------------------------
async def record(h: Harness, league: SampleLeague, shooter: str, scored: bool, **extra: Any) -> str:
    reply = await h.slash("/shootout record", as_=league.referee(), game="G1", shooter=shooter, scored=scored,
                          **extra)
    assert reply.ephemeral
    return reply.content


async def test_a_referee_records_attempts_to_a_decided_result(harness: Harness, ready: SampleLeague) -> None:
    await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                        shooters="Alice Hart, Carl Diaz, Dan Roy")
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    text = await record(harness, ready, "Alice Hart", True)
    assert "add tied_at" in text
    text = await record(harness, ready, "Alice Hart", True, tied_at=3)
    assert text == "Attempt 1 in `G1`: Alice Hart (Hawks) scored ✅. Shootout: Hawks 1-0 Owls; Owls shoot next."
    assert "It's Owls's turn to shoot, not Hawks's" in await record(harness, ready, "Carl Diaz", True)
    rival = await harness.slash("/shootout check", as_=ready.captain("Owls"), game="G1")
    assert "1. Alice Hart\n2. Carl Diaz\n3. Dan Roy" in rival.content  # visible to both once started
    assert "Hawks 1-0 Owls after 1 attempt; Owls shoot next" in rival.content
    assert "Hawks shoot next" in await record(harness, ready, "<@500000000000000011>", False)  # Omar Fox
    assert "Hawks 2-0 Owls; Owls shoot next" in await record(harness, ready, "Carl", True)
    text = await record(harness, ready, "Pia Lund", False)
    assert text == ("Attempt 4 in `G1`: Pia Lund (Owls) missed ❌. Shootout: Hawks 2-0 Owls. "
                    "**Hawks win the shootout.**\n"
                    "Result entered: Hawks 3-3 Owls (shootout 2-0). Standings are updated.")
    async with harness.bot.sessions() as s:
        result = await s.scalar(select(Result))
        assert result is not None
        assert (result.home_score, result.away_score, result.decided) == (3, 3, "shootout")
        assert (result.shootout_home, result.shootout_away) == (2, 0)
        assert result.entered_by == ready.referee().id
        game = await s.scalar(select(Game).where(Game.code == "G1"))
        assert game is not None and game.status == "final"
        attempts = (await s.scalars(select(ShootoutAttempt).order_by(ShootoutAttempt.seq))).all()
        assert [(a.side, a.shooter_name, a.scored) for a in attempts] == [
            ("home", "Alice Hart", True), ("away", "Omar Fox", False), ("home", "Carl Diaz", True),
            ("away", "Pia Lund", False)]
        shootout = await s.scalar(select(Shootout))
        assert shootout is not None and shootout.tied_score == 3 and shootout.decided_at is not None
        news = (await s.scalars(select(OutboxMessage).where(OutboxMessage.send_key.startswith("shootout:"))
                                .order_by(OutboxMessage.channel_id))).all()
        assert [m.channel_id for m in news] == [600_000_000_000_000_001, 600_000_000_000_000_002]
        announced = news[0].args["content"]
        assert "Shootout decided in `G1`: **Hawks** win. Final: Hawks 3-3 Owls (shootout 2-0)." in announced
    text = await record(harness, ready, "Quin Ash", True)
    assert "The shootout in G1 is already decided: Hawks won 2-0." in text
    async with harness.bot.sessions() as s:
        assert len((await s.scalars(select(ShootoutAttempt))).all()) == 4
    resubmit = await harness.slash("/shootout submit", as_=ready.captain("Owls"), game="G1",
                                   shooters="Pia Lund, Omar Fox, Quin Ash")
    assert "has started: orders can't change now" in resubmit.content


async def undo(h: Harness, league: SampleLeague, as_: Member | None = None) -> str:
    return (await h.slash("/shootout undo", as_=as_ or league.referee(), game="G1")).content


async def attempts(h: Harness) -> list[tuple[str, str, bool]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(ShootoutAttempt).order_by(ShootoutAttempt.seq))).all()
        return [(a.side, a.shooter_name, a.scored) for a in rows]


async def test_a_referee_takes_back_a_wrong_attempt_and_plays_on(harness: Harness, ready: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    assert "nothing to take back" in await undo(harness, ready)
    await record(harness, ready, "Alice Hart", True, tied_at=3)
    await record(harness, ready, "Omar Fox", True)  # the referee meant: missed
    text = await undo(harness, ready)
    assert text == "Took back attempt 2 in `G1`: Omar Fox (Owls) scored. Shootout: Hawks 1-0 Owls; Owls shoot next."
    assert await attempts(harness) == [("home", "Alice Hart", True)]
    assert "Hawks shoot next" in await record(harness, ready, "Omar Fox", False)
    assert await attempts(harness) == [("home", "Alice Hart", True), ("away", "Omar Fox", False)]

    for who in (ready.player("Alice Hart"), ready.captain("Owls")):  # players and captains may not
        reply = await harness.slash("/shootout undo", as_=who, game="G1")
        assert reply.ephemeral and "Only a referee of G1 or a commissioner can take back" in reply.content
    assert len(await attempts(harness)) == 2


async def test_taking_back_the_first_attempt_starts_the_shootout_over(harness: Harness, ready: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    await record(harness, ready, "Alice Hart", True, tied_at=3)  # the tie was 2-2, and Owls shot first
    assert "the next one starts the shootout again (with tied_at)" in await undo(harness, ready)
    async with harness.bot.sessions() as s:
        shootout = await s.scalar(select(Shootout))
        assert shootout is not None and (shootout.tied_score, shootout.first_side, shootout.started_at) == (
            None, None, None)
    assert "add tied_at" in await record(harness, ready, "Omar Fox", True)
    text = await record(harness, ready, "Omar Fox", True, tied_at=2)
    assert "Shootout: Hawks 0-1 Owls; Hawks shoot next." in text


async def test_a_decided_shootout_is_corrected_as_a_result_not_undone(harness: Harness, ready: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    for shooter, scored in (("Alice Hart", True), ("Omar Fox", False), ("Carl Diaz", True), ("Pia Lund", False)):
        await record(harness, ready, shooter, scored, tied_at=3 if shooter == "Alice Hart" else None)
    text = await undo(harness, ready, as_=ready.commissioner())
    assert "is decided and its result entered (Hawks won): a commissioner can correct it with /result fix" in text
    assert len(await attempts(harness)) == 4


async def test_a_cancelled_game_has_no_shootout_to_record_or_take_back(harness: Harness, ready: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    await record(harness, ready, "Alice Hart", True, tied_at=3)
    cancelled = await harness.slash("/game cancel", as_=ready.commissioner(), game="G1")
    assert "Cancelled `G1`" in cancelled.content
    assert await undo(harness, ready) == "Game G1 was cancelled: there's no shootout to run."
    assert await record(harness, ready, "Omar Fox", True) == "Game G1 was cancelled: there's no shootout to run."
    assert await attempts(harness) == [("home", "Alice Hart", True)]


async def test_only_a_referee_or_commissioner_records(harness: Harness, ready: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    for who in (ready.player("Alice Hart"), ready.captain("Hawks")):
        reply = await harness.slash("/shootout record", as_=who, game="G1", shooter="Alice Hart", scored=True,
                                    tied_at=2)
        assert reply.ephemeral and "Only a referee of G1 or a commissioner" in reply.content
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(ShootoutAttempt))).all() == []
        assert (await s.scalars(select(Shootout))).all() == []


async def test_an_attempt_before_the_game_is_refused(harness: Harness, ready: SampleLeague) -> None:
    text = await record(harness, ready, "Alice Hart", True, tied_at=1)
    assert "hasn't been played yet" in text


async def test_a_shooter_who_breaks_a_rule_is_recorded_with_a_warning(harness: Harness, ready: SampleLeague) -> None:
    await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                        shooters="Alice Hart, Carl Diaz, Dan Roy")
    harness.bot.clock.set(AFTER_G1_OVERTIME)  # type: ignore[attr-defined]
    text = await record(harness, ready, "Carl Diaz", False, tied_at=0)
    assert "⚠️ Hawks's order had Alice Hart as shooter 1." in text
    await record(harness, ready, "Omar Fox", False)
    text = await record(harness, ready, "Carl Diaz", False)
    assert "⚠️ Shooter 2: Carl Diaz is already one of the first 3 shooters" in text


async def test_shooter_autocomplete_lists_eligible_shooters_for_referees(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.autocomplete("/shootout record", focused="shooter", as_=ready.referee(), game="G1",
                                       shooter="a")
    names = [c["name"] for c in reply.autocomplete_choices]
    assert "Alice Hart (Hawks)" in names and "Quin Ash (Owls)" in names
    assert "Finn Cole (Hawks)" not in names  # not checked in
    values = {c["name"]: c["value"] for c in reply.autocomplete_choices}
    assert values["Alice Hart (Hawks)"] == "<@500000000000000001>"
    reply = await harness.autocomplete("/shootout record", focused="shooter", as_=ready.captain("Hawks"), game="G1",
                                       shooter="")
    assert reply.autocomplete_choices == []


# --- indoor soccer: only players on the floor at the end of overtime ----------------------------------
@pytest.fixture
async def indoor(db_url: str, clock: FixedClock) -> AsyncIterator[tuple[Harness, SampleLeague]]:
    """The sample league under the indoor-soccer preset, with a playoff game P1 (Hawks vs Owls)."""
    settings = make_settings(league_config("indoor", preset="indoor-soccer"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        await h.bot.services.imports.importer.run("games", b"game_id,starts_at,home,away,venue,kind\n"
                                           b"P1,2030-01-12 19:00,Hawks,Owls,Rink A,playoff\n",
                                           settings.leagues[0], now=clock.now())
        yield h, sample
    finally:
        await h.close()


async def test_indoor_only_players_on_the_floor_may_shoot(indoor: tuple[Harness, SampleLeague]) -> None:
    h, sample = indoor
    await check_in(h, sample, HAWKS_IN, game="P1")
    await check_in(h, sample, OWLS_IN, game="P1")
    regular = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="G1",
                            shooters="Alice Hart, Carl Diaz, Dan Roy, Eli Park")
    assert "Regular-season games in Indoor League are never decided by a shootout" in regular.content
    early = await h.slash("/shootout floor", as_=sample.captain("Hawks"), game="P1", players="Alice, Carl")
    assert "hasn't been played yet" in early.content
    h.bot.clock.set(datetime(2030, 1, 13, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    rival = await h.slash("/shootout floor", as_=sample.captain("Hawks"), game="P1", players="Omar Fox")
    assert "“Omar Fox” doesn't match anyone on Hawks's roster." in rival.content
    marked = await h.slash("/shootout floor", as_=sample.captain("Hawks"), game="P1",
                           players="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy, Gus Lee")
    assert marked.ephemeral
    assert "**Hawks**: Alice Hart, Bea Quinn, Carl Diaz, Dan Roy, Gus Lee" in marked.content
    refused = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                            shooters="Alice Hart, Eli Park, Carl Diaz, Dan Roy")
    assert ("Shooter 2: Eli Park was not on the floor at the end of overtime; only those players may shoot "
            "(Indoor soccer rules: Overtime)") in refused.content
    stored = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                           shooters="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy")
    assert stored.content.startswith("Saved Hawks's shootout order for `P1`")
    assert "isn't marked yet" not in stored.content
    too_many = await h.slash("/shootout floor", as_=sample.referee(), game="P1",
                             players="Omar, Pia, Quin, Ray, Uma, Sam, Tia")
    assert "at most 6 are on the floor" in too_many.content


async def test_indoor_playoff_shootout_is_decided_and_the_floor_is_then_fixed(
        indoor: tuple[Harness, SampleLeague]) -> None:
    h, sample = indoor
    await check_in(h, sample, HAWKS_IN, game="P1")
    await check_in(h, sample, OWLS_IN, game="P1")
    h.bot.clock.set(datetime(2030, 1, 13, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    marked = await h.slash("/shootout floor", as_=sample.referee(), game="P1",
                           players="Alice, Bea, Carl, Dan, Gus, Omar, Pia, Quin, Ray, Uma")
    assert "**Hawks**: Alice Hart, Bea Quinn, Carl Diaz, Dan Roy, Gus Lee" in marked.content
    assert "**Owls**: Omar Fox, Pia Lund, Quin Ash, Ray Moss, Uma Reed" in marked.content
    referee = sample.referee()
    shots = [("Eli Park", True, {"tied_at": 1}), ("Omar Fox", False, {}), ("Bea Quinn", True, {}),
             ("Pia Lund", False, {}), ("Carl Diaz", True, {})]
    replies = []
    for shooter, scored, extra in shots:
        reply = await h.slash("/shootout record", as_=referee, game="P1", shooter=shooter, scored=scored, **extra)
        replies.append(reply.content)
    assert ("⚠️ Shooter 1: Eli Park was not on the floor at the end of overtime; only those players may shoot "
            "(Indoor soccer rules: Overtime)") in replies[0]
    assert "Result entered: Hawks 1-1 Owls (shootout 3-0)." in replies[-1]
    again = await h.slash("/shootout floor", as_=referee, game="P1", players="Eli Park")
    assert "has started: who was on the floor can't change now" in again.content
    async with h.bot.sessions() as s:
        result = await s.scalar(select(Result))
        assert result is not None and (result.decided, result.shootout_home, result.shootout_away) == ("shootout", 3, 0)


async def test_only_the_teams_captains_read_violations_that_hint_at_who_counts_as_a_woman(
        harness: Harness, ready: SampleLeague) -> None:
    order = "Alice Hart, Carl Diaz, Dan Roy, Bea Quinn, Eli Park, Alice Hart"
    stored = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1", shooters=order)
    assert stored.content.startswith("Saved"), stored.content
    await check_in(harness, ready, ("Sam Tate", "Vic Hale"))  # Owls now match 4 other Hawks per round
    own = await harness.slash("/shootout check", as_=ready.captain("Hawks"), game="G1")
    assert "Shooter 6: Alice Hart already shot" in own.content
    assert "Bea Quinn (shooter 4) already fills it" in own.content  # the captain's own view explains it
    ref = await harness.slash("/shootout check", as_=ready.referee(), game="G1")
    assert ("Shooter 6: Alice Hart shoots again before every teammate the round needs has had a turn "
            "(Co-ed rules: Shoot-Out Format past first 3 shooters)") in ref.content
    assert "fills it" not in ref.content and "woman" not in ref.content


async def test_indoor_order_whose_goalie_changes_is_refused_with_the_rule_quoted(
        indoor: tuple[Harness, SampleLeague]) -> None:
    """Indoor soccer rules, Substitutions: "Goalies may not be substituted during shootout"."""
    h, sample = indoor
    await check_in(h, sample, HAWKS_IN, game="P1")
    h.bot.clock.set(datetime(2030, 1, 13, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    await h.slash("/shootout floor", as_=sample.referee(), game="P1",
                  players="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy, Gus Lee")
    changed = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                            shooters="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy", goalie="Eli Park")
    assert changed.ephemeral and "nothing was saved for Hawks" in changed.content
    assert ("Eli Park may not replace Gus Lee in goal: the goalie may not be changed during the shootout "
            "(Indoor soccer rules: Substitutions, “Goalies may not be substituted during shootout”)") in changed.content
    kept = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                         shooters="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy", goalie="Gus Lee")
    assert kept.content.startswith("Saved Hawks's shootout order for `P1`")


async def test_elsewhere_the_goalie_may_change(harness: Harness, ready: SampleLeague) -> None:
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Alice Hart, Carl Diaz, Dan Roy", goalie="Eli Park")
    assert "nothing was saved" not in reply.content, reply.content


async def test_a_youth_playoff_order_of_three_is_told_which_rule_applies(db_url: str, clock: FixedClock) -> None:
    """Youth 1.19 ("a 5-round shootout") vs 2.13B (three shooters): the preset applies 1.19, cites both, and a
    captain whose order follows 2.13B is told how a commissioner can change it."""
    settings = make_settings(league_config("youth", preset="youth-ball-hockey"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        await h.bot.services.imports.importer.run("games", b"game_id,starts_at,home,away,venue,kind\n"
                                                  b"P1,2030-01-12 19:00,Hawks,Owls,Rink A,playoff\n",
                                                  settings.leagues[0], now=clock.now())
        await check_in(h, sample, HAWKS_IN, game="P1")
        three = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                              shooters="Alice Hart, Bea Quinn, Carl Diaz")
        assert "nothing was saved for Hawks" in three.content
        assert "Youth rules 1.19; Youth rules 2.13B says 3: this league applies 5" in three.content
        assert ("Your order follows Youth rules 2.13B (3 shooters); this league applies Youth rules 1.19 (5). "
                "A commissioner can change it: /setup rule key:shootout_initial_shooters_playoff value:3"
                ) in three.content
        five = await h.slash("/shootout submit", as_=sample.captain("Hawks"), game="P1",
                             shooters="Alice Hart, Bea Quinn, Carl Diaz, Dan Roy, Eli Park")
        assert five.content.startswith("Saved Hawks's shootout order for `P1`"), five.content
    finally:
        await h.close()


async def test_a_player_who_went_away_after_checking_in_cannot_shoot(harness: Harness, ready: SampleLeague,
                                                                     clock: FixedClock) -> None:
    """/away after an "in" makes the player out for the game (as /whoisin and /lineup read it): they can't shoot."""
    away = await harness.slash("/away set", as_=ready.player("Bea Quinn"), **{"from": "2030-01-11", "to": "2030-01-11"})
    assert "away" in away.text, away.text
    reply = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Alice Hart, Bea Quinn, Carl Diaz")
    assert "Shooter 2: Bea Quinn is away for G1 (/away) (Co-ed rules: Shootouts)" in reply.content, reply.content
    assert await orders(harness) == []
    clock.set(clock.now() + timedelta(minutes=5))
    await check_in(harness, ready, ("Bea Quinn",))  # answering "in" again, after the away range, counts
    again = await harness.slash("/shootout submit", as_=ready.captain("Hawks"), game="G1",
                                shooters="Alice Hart, Bea Quinn, Carl Diaz")
    assert "Bea Quinn is away" not in again.content, again.content
