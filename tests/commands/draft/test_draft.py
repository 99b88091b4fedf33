"""The season draft through the real command tree (youth 1.7): 4 senior teams, 8 rounds, the lottery's order
in odd rounds and reversed in even ones; the board edited in the draft channel after each pick; the team on
the clock pinged (its captain only); the clock kept across a restart; undo; who may pick whom.

The division has 31 registrants who can be picked (30 who paid, one registered by a guardian, also paid),
one who hasn't paid (youth 1.15) and one on the waiting list: fewer players than the 32 picks, so the draft
ends when the last one is taken."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.league.draft.order import lottery, pick_order
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import (
    Division,
    Draft,
    DraftPick,
    OutboxMessage,
    Player,
    PlayerGuardian,
    Registration,
    RegistrationWindow,
    RosterEntry,
    Season,
    Team,
    TeamCaptain,
)
from tests.conftest import CHANNELS, league_config, make_settings
from tests.harness import Harness, Member

NOW = datetime(2030, 1, 5, 17, 0, tzinfo=UTC)
DRAFT_CHANNEL = 3005
TEAMS = ("Bears", "Hawks", "Owls", "Wolves")
PARENT = 810_000_000_000_000_999


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey",
                                       channels={**CHANNELS, "draft": DRAFT_CHANNEL},
                                       rules={"draft_pick_seconds": 120}))


@dataclass
class World:
    kay: Member
    captains: dict[str, Member]  # team name -> its captain
    team_ids: dict[str, int]
    unpaid: int  # registration ids
    waiting: int
    managed: int


@pytest.fixture
async def world(harness: Harness) -> AsyncIterator[World]:
    kay = harness.member("Commish Kay", roles=("commissioner",))
    started = await harness.slash("/season start", as_=kay, name="Spring 2030", first_day="2030-02-01", weeks=15)
    assert "Spring 2030" in started.content
    captains = {t: harness.member(f"{t} Captain", member_id=800_000_000_000_000_000 + i, roles=("captain",))
                for i, t in enumerate(TEAMS, 1)}
    async with harness.bot.sessions.begin() as s:
        season = await s.scalar(select(Season))
        assert season is not None
        league_id = season.league_id
        senior = Division(league_id=league_id, name="senior")
        s.add(senior)
        await s.flush()
        ids: dict[str, int] = {}
        for team in TEAMS:
            row = Team(league_id=league_id, division_id=senior.id, name=team)
            s.add(row)
            await s.flush()
            ids[team] = row.id
            s.add(TeamCaptain(league_id=league_id, team_id=row.id, discord_id=captains[team].id))
        window = RegistrationWindow(league_id=league_id, season_id=season.id, division="senior", fee_cents=10_000,
                                    opened_by=kay.id)
        s.add(window)
        await s.flush()

        def reg(name: str, n: int, **extra: object) -> Registration:
            values: dict[str, object] = dict(league_id=league_id, window_id=window.id, name=name,
                                             date_of_birth=date(2010, 1, 1), discord_id=810_000_000_000_000_000 + n,
                                             status="registered", fee_cents=10_000, payment_state="online",
                                             paid_cents=10_000)
            values.update(extra)
            row = Registration(**values)
            s.add(row)
            return row

        for n in range(1, 31):
            reg(f"Player {n:02d}", n)
        managed = reg("Kid Kim", 31, guardian="Parent Pat", discord_id=PARENT)
        unpaid = reg("Unpaid Uma", 32, payment_state="unpaid", paid_cents=0)
        waiting = reg("Waiting Walt", 33, status="waiting", queue_position=1)
        await s.flush()
        world = World(kay, captains, ids, unpaid.id, waiting.id, managed.id)
    yield world


async def state(h: Harness) -> tuple[Draft, list[DraftPick]]:
    async with h.bot.sessions() as s:
        draft = await s.scalar(select(Draft))
        assert draft is not None
        picks = list((await s.scalars(select(DraftPick).order_by(DraftPick.number))).all())
        return draft, picks


async def first_available(h: Harness, as_: Member) -> str:
    found = await h.autocomplete("/draft pick", focused="player", as_=as_, player="")
    choices = found.autocomplete_choices
    assert choices, "nobody left to pick"
    return str(choices[0]["value"])


async def pick_next(h: Harness, w: World, order: list[str]) -> str:
    """The captain of the team on the clock picks the first player offered; returns the team."""
    _, picks = await state(h)
    team = order[len(picks)]
    value = await first_available(h, w.captains[team])
    done = await h.slash("/draft pick", as_=w.captains[team], player=value)
    assert done.ephemeral and done.content.startswith(f"{team} picks "), done.content
    return team


async def test_four_teams_eight_rounds_snake_with_a_restart_between_picks_and_undo(
        harness: Harness, world: World, db_url: str) -> None:
    kay, clock = world.kay, harness.bot.clock
    assert isinstance(clock, FixedClock)
    set_up = await harness.slash("/draft setup", as_=kay, division="senior", rounds=8)
    assert set_up.ephemeral and "The senior draft is set up: 8 rounds." in set_up.content

    drawn = await harness.slash("/draft lottery", as_=kay)
    assert not drawn.ephemeral and "senior draft lottery" in drawn.content  # everyone sees the draw
    draft, _ = await state(harness)
    lottery_order = lottery(draft.seed, list(TEAMS))  # anyone can recompute it from the recorded seed
    assert f"Seed `{draft.seed}`" in drawn.content
    assert [line.split(". ", 1)[1] for line in drawn.content.splitlines()[1:5]] == lottery_order
    again = await harness.slash("/draft lottery", as_=kay)
    assert again.ephemeral and "was drawn already" in again.content
    order = [slot.team for slot in pick_order(lottery_order, 8, "snake")]

    started = await harness.slash("/draft start", as_=kay)
    assert started.ephemeral and "has started" in started.content
    await harness.bot.courier.deliver_due()
    board, ping = harness.discord.channel_messages(DRAFT_CHANNEL)
    assert "Lottery order (snake: even rounds reversed): 1. " + lottery_order[0] in board.content
    assert f"On the clock: **{order[0]}**, pick 1 (round 1)" in board.content
    first_captain = world.captains[order[0]]
    assert ping.content.startswith(f"⏰ <@{first_captain.id}>: **{order[0]}** is on the clock")
    assert ping.allowed_mentions is not None
    assert [int(u) for u in ping.allowed_mentions.get("users", [])] == [first_captain.id]
    assert not ping.allowed_mentions.get("roles") and "everyone" not in ping.allowed_mentions.get("parse", [])

    # Only the team on the clock's captain (or a commissioner) picks.
    other = world.captains[order[1]]
    value = await first_available(harness, other)
    refused = await harness.slash("/draft pick", as_=other, player=value)
    assert refused.ephemeral and f"{order[0]} is on the clock: only its captain" in refused.content
    assert "(Youth 1.7)" in refused.content
    assert (await state(harness))[1] == []
    # The unpaid and the waiting-listed are never offered, nor can be picked (youth 1.15).
    names = [c["name"] for c in (await harness.autocomplete("/draft pick", focused="player", as_=kay,
                                                            player="")).autocomplete_choices]
    assert not any("Unpaid" in n or "Waiting" in n for n in names)
    unpaid = await harness.slash("/draft pick", as_=kay, player=str(world.unpaid))
    assert unpaid.ephemeral and "fee isn't settled (Youth 1.15)" in unpaid.content
    waiting = await harness.slash("/draft pick", as_=kay, player=str(world.waiting))
    assert waiting.ephemeral and "their registration is waiting" in waiting.content

    made = [await pick_next(harness, world, order) for _ in range(5)]
    assert made == order[:5]  # round 1 in lottery order, then round 2 reversed
    _, picks = await state(harness)
    twice = await harness.slash("/draft pick", as_=kay, player=str(picks[0].registration_id))
    assert twice.ephemeral and "already picked" in twice.content
    await harness.bot.courier.deliver_due()
    edits = harness.discord.edits(DRAFT_CHANNEL)
    assert edits and f"5. {order[4]}: " in edits[-1].content
    assert f"On the clock: **{order[5]}**, pick 6 (round 2)" in edits[-1].content
    draft, _ = await state(harness)
    assert {e.path for e in edits} == {f"/channels/{DRAFT_CHANNEL}/messages/{draft.board_message_id}"}  # one board
    due = draft.clock_due_at
    assert due == NOW + timedelta(seconds=120)

    # A restart between picks: the clock and the board are the database's; the clock still runs out.
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock,
                                         run_scheduler=False)).start()
    try:
        shown = await restarted.slash("/draft board", as_=kay)
        assert shown.ephemeral and f"On the clock: **{order[5]}**, pick 6 (round 2)" in shown.content
        assert f"5. {order[4]}: " in shown.content
        await restarted.bot.courier.deliver_due()
        assert restarted.discord.edits() == []  # nothing new to show, nothing sent twice
        clock.set(due + timedelta(seconds=1))
        await restarted.bot.courier.deliver_due()
        _, picks = await state(restarted)
        assert [(p.number, p.registration_id) for p in picks][-1] == (6, None)  # skipped: the clock ran out
        (edit,) = [e for e in restarted.discord.edits(DRAFT_CHANNEL) if "6. " in e.content]
        assert f"6. {order[5]}: (skipped)" in edit.content and edit.path == edits[-1].path  # the same board
        assert f"On the clock: **{order[6]}**, pick 7" in edit.content
        await restarted.bot.courier.deliver_due()
        assert len([e for e in restarted.discord.edits(DRAFT_CHANNEL) if "6. " in e.content]) == 1

        # Undo takes the skip back: the same team is on the clock again, with a fresh clock.
        refused = await restarted.slash("/draft undo", as_=world.captains[order[5]])
        assert refused.ephemeral and "Only a commissioner" in refused.content
        undone = await restarted.slash("/draft undo", as_=kay)
        assert undone.ephemeral and f"{order[5]} is on the clock again (pick 6)" in undone.content
        draft, picks = await state(restarted)
        assert len(picks) == 5 and draft.clock_due_at == due + timedelta(seconds=121)
        # Undo of a real pick: the player leaves the roster and can be picked again.
        made.append(await pick_next(restarted, world, order))
        _, picks = await state(restarted)
        taken = picks[-1].player_id
        await restarted.slash("/draft undo", as_=kay)
        async with restarted.bot.sessions() as s:
            assert await s.scalar(select(RosterEntry).where(RosterEntry.player_id == taken)) is None
        assert len((await state(restarted))[1]) == 5
        clock.set(due + timedelta(seconds=130))
        await restarted.bot.courier.deliver_due()  # three clocks were queued: only the current one skips
        await restarted.bot.courier.deliver_due()
        _, picks = await state(restarted)
        assert [(p.number, p.registration_id) for p in picks][4:] == [(5, picks[4].registration_id), (6, None)]
        await restarted.slash("/draft undo", as_=kay)
        assert len((await state(restarted))[1]) == 5

        while (await state(restarted))[0].status == "running":
            await pick_next(restarted, world, order)
        await restarted.bot.courier.deliver_due()
        last = restarted.discord.edits(DRAFT_CHANNEL)[-1]
        assert "The draft is over: no players are left to pick (31 players drafted)." in last.content
    finally:
        await restarted.close()

    draft, picks = await state(harness)
    assert draft.status == "done" and len(picks) == 31  # the 32nd pick is never made
    assert [p.number for p in picks] == list(range(1, 32))
    assert [p.team_id for p in picks] == [world.team_ids[t] for t in order[:31]]
    async with harness.bot.sessions() as s:
        sizes = dict((await s.execute(select(RosterEntry.team_id, func.count()).group_by(RosterEntry.team_id))).all())
        kid = await s.scalar(select(Player).where(Player.name == "Kid Kim"))
        assert kid is not None and kid.discord_id is None  # a guardian-managed player
        guardian = await s.scalar(select(PlayerGuardian.discord_id).where(PlayerGuardian.player_id == kid.id))
        assert guardian == PARENT
        queued = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.status == "pending", OutboxMessage.send_key.like("draft:%clock%")))
    assert sorted(sizes.values()) == [7, 8, 8, 8] and queued == 0


async def test_the_draft_waits_for_every_captain_and_only_commissioners_run_it(harness: Harness,
                                                                              world: World) -> None:
    kay, hawks = world.kay, world.captains["Hawks"]
    refused = await harness.slash("/draft setup", as_=hawks, division="senior", rounds=8)
    assert refused.ephemeral and "Only a commissioner" in refused.content
    missing = await harness.slash("/draft setup", as_=kay, division="midget", rounds=8)
    assert missing.ephemeral and "no division called" in missing.content
    await harness.slash("/draft setup", as_=kay, division="senior", rounds=8, pick_seconds=30)
    too_soon = await harness.slash("/draft start", as_=kay)
    assert too_soon.ephemeral and "Draw the senior lottery first" in too_soon.content
    for command in ("/draft lottery", "/draft start", "/draft undo"):
        nope = await harness.slash(command, as_=hawks)
        assert nope.ephemeral and "Only a commissioner" in nope.content
    await harness.slash("/draft lottery", as_=kay)
    async with harness.bot.sessions.begin() as s:
        owls = await s.scalar(select(TeamCaptain).where(TeamCaptain.team_id == world.team_ids["Owls"]))
        await s.delete(owls)
    waits = await harness.slash("/draft start", as_=kay)
    assert waits.ephemeral and "(youth 1.3)" in waits.content and "Owls has no confirmed captain." in waits.content
    draft, _ = await state(harness)
    assert draft.status == "drawn" and draft.pick_seconds == 30
    await harness.bot.courier.deliver_due()
    assert harness.discord.channel_messages(DRAFT_CHANNEL) == []


async def test_a_guardians_junior_is_drafted_as_the_player_the_guardian_already_manages(harness: Harness,
                                                                                          world: World) -> None:
    """Kid Kim played before: Parent Pat already manages a player of that name, and another family has its own
    Kid Kim. Picking the registration Pat sent puts Pat's Kid Kim on the team: no second one for Pat (whose
    /schedule and check-ins would split across the two), and the other family's child left alone."""
    other_parent = PARENT + 1
    async with harness.bot.sessions.begin() as s:
        season = await s.scalar(select(Season))
        assert season is not None
        pats, others = (Player(league_id=season.league_id, discord_id=None, name="Kid Kim") for _ in range(2))
        s.add_all([pats, others])
        await s.flush()
        s.add_all([PlayerGuardian(league_id=season.league_id, player_id=pats.id, discord_id=PARENT, added_by=PARENT),
                   PlayerGuardian(league_id=season.league_id, player_id=others.id, discord_id=other_parent,
                                  added_by=other_parent)])
        known = (pats.id, others.id)
    kay = world.kay
    await harness.slash("/draft setup", as_=kay, division="senior", rounds=8)
    await harness.slash("/draft lottery", as_=kay)
    await harness.slash("/draft start", as_=kay)
    draft, _ = await state(harness)
    first = lottery(draft.seed, list(TEAMS))[0]

    done = await harness.slash("/draft pick", as_=world.captains[first], player=str(world.managed))
    assert done.ephemeral and done.content.startswith(f"{first} picks Kid Kim"), done.content
    async with harness.bot.sessions() as s:
        on_rosters = (await s.execute(select(RosterEntry.team_id, RosterEntry.player_id))).all()
        kids = (await s.scalars(select(Player.id).where(Player.name == "Kid Kim").order_by(Player.id))).all()
        managers = dict((await s.execute(select(PlayerGuardian.player_id, PlayerGuardian.discord_id))).all())
    _, picks = await state(harness)
    assert [tuple(r) for r in on_rosters] == [(world.team_ids[first], known[0])]
    assert [p.player_id for p in picks] == [known[0]]
    assert list(kids) == list(known) and managers == {known[0]: PARENT, known[1]: other_parent}
