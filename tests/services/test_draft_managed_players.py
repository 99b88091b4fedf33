"""A junior registered by a guardian and drafted joins the team as the player that guardian already manages
by that name (bot/services/shared/guardians.py), never a second one: one child, one schedule, one set of
check-ins. Another guardian's player of the same name, or one in another league, is another child.

Sample: a youth league's senior division with Bears and Hawks, a running two-round draft, and Sam Lee
registered (and paid for) by the guardian Pat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import func, select

from bot.access import Caller
from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.errors import Conflict
from bot.services.shared.guardians import managed_player_for
from storage.models import (
    Division,
    DraftPick,
    League,
    Player,
    PlayerGuardian,
    Registration,
    RegistrationWindow,
    RosterEntry,
    Season,
    Team,
    TeamCaptain,
)
from tests.conftest import league_config, make_settings
from tests.harness import Harness

NOW = datetime(2030, 1, 5, 17, 0, tzinfo=UTC)
PAT, ROBIN = 820_000_000_000_000_001, 820_000_000_000_000_002  # two guardians


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey"))


@dataclass
class Senior:
    kay: Caller  # a commissioner
    league_id: int
    teams: dict[str, int]
    sam: int  # Sam Lee's registration, sent by Pat


async def running_draft(h: Harness) -> Senior:
    member = h.member("Commish Kay", roles=("commissioner",))
    started = await h.slash("/season start", as_=member, name="Spring 2030", first_day="2030-02-01", weeks=15)
    assert "Spring 2030" in started.content
    league = h.bot.settings.leagues[0]
    league_id = h.bot.league_ids[league.guild_id]
    async with h.bot.sessions.begin() as s:
        season = await s.scalar(select(Season))
        assert season is not None
        senior = Division(league_id=league_id, name="senior")
        s.add(senior)
        await s.flush()
        teams: dict[str, int] = {}
        for i, name in enumerate(("Bears", "Hawks"), 1):
            team = Team(league_id=league_id, division_id=senior.id, name=name)
            s.add(team)
            await s.flush()
            teams[name] = team.id
            s.add(TeamCaptain(league_id=league_id, team_id=team.id, discord_id=800_000_000_000_000_000 + i))
        window = RegistrationWindow(league_id=league_id, season_id=season.id, division="senior", fee_cents=10_000,
                                    opened_by=member.id)
        s.add(window)
        await s.flush()
        paid = dict(league_id=league_id, window_id=window.id, date_of_birth=date(2016, 1, 1), status="registered",
                    fee_cents=10_000, payment_state="online", paid_cents=10_000)
        sam = Registration(name="Sam Lee", guardian="Pat Lee", discord_id=PAT, **paid)
        s.add_all([sam, Registration(name="Alex Roy", discord_id=830_000_000_000_000_001, **paid)])
        await s.flush()
        sam_id = sam.id
    kay = Caller(member.id, member.name, league, league_id, frozenset({league.roles.commissioner or 0}))
    draft = h.bot.services.draft
    await draft.setup(kay, "senior", 2, None)
    await draft.lottery(kay, None)
    await draft.start(kay, None, None)
    return Senior(kay, league_id, teams, sam_id)


async def managed(h: Harness, league_id: int, guardian: int, name: str, team_id: int | None = None) -> int:
    """A player without a Discord account whom ``guardian`` manages (a past season's, say); their id."""
    async with h.bot.sessions.begin() as s:
        player = Player(league_id=league_id, discord_id=None, name=name)
        s.add(player)
        await s.flush()
        s.add(PlayerGuardian(league_id=league_id, player_id=player.id, discord_id=guardian, added_by=guardian))
        if team_id is not None:
            s.add(RosterEntry(league_id=league_id, team_id=team_id, player_id=player.id, added_at=NOW))
        return player.id


async def guardians(h: Harness, player_id: int) -> list[int]:
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(PlayerGuardian.discord_id).where(
            PlayerGuardian.player_id == player_id).order_by(PlayerGuardian.id))).all())


async def drafted(h: Harness) -> list[int]:
    """The player ids on rosters, in the order they joined."""
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(RosterEntry.player_id).order_by(RosterEntry.id))).all())


async def players_named_sam(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(Player).where(
            func.lower(func.trim(Player.name)) == "sam lee")) or 0)


async def test_the_guardians_own_player_of_that_name_is_the_one_drafted(harness: Harness) -> None:
    senior = await running_draft(harness)
    pats = await managed(harness, senior.league_id, PAT, " sam LEE ")  # case and spaces aside, the same name
    picked = await harness.bot.services.draft.pick(senior.kay, str(senior.sam))
    assert picked.player == " sam LEE "
    assert await drafted(harness) == [pats]
    assert await players_named_sam(harness) == 1 and await guardians(harness, pats) == [PAT]


async def test_another_guardians_player_of_that_name_is_another_child(harness: Harness) -> None:
    senior = await running_draft(harness)
    robins = await managed(harness, senior.league_id, ROBIN, "Sam Lee")
    picked = await harness.bot.services.draft.pick(senior.kay, str(senior.sam))
    (on_team,) = await drafted(harness)
    assert picked.player == "Sam Lee" and on_team != robins
    assert await guardians(harness, on_team) == [PAT] and await guardians(harness, robins) == [ROBIN]
    assert await players_named_sam(harness) == 2


async def test_the_guardians_player_already_on_a_team_is_refused_and_nothing_changes(harness: Harness) -> None:
    senior = await running_draft(harness)
    pats = await managed(harness, senior.league_id, PAT, "Sam Lee", team_id=senior.teams["Bears"])
    # Not on the board (the pick would refuse them), so the pick says they can't be picked.
    with pytest.raises(Conflict, match=r"Sam Lee can't be picked: already picked, on a team"):
        await harness.bot.services.draft.pick(senior.kay, str(senior.sam))
    assert await drafted(harness) == [pats] and await players_named_sam(harness) == 1
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(DraftPick)) == 0


async def test_a_registration_finds_its_player_once_and_only_in_its_own_league(harness: Harness) -> None:
    """What the waiting list's accepted spot and the draft both ask: the second time finds the first's player."""
    league_id = harness.bot.league_ids[harness.bot.settings.leagues[0].guild_id]
    async with harness.bot.sessions.begin() as s:
        elsewhere = League(key="elsewhere", guild_id=333_333_333_333_333_333, name="Elsewhere",
                           preset="youth-ball-hockey")
        s.add(elsewhere)
        await s.flush()
        theirs, _ = await managed_player_for(s, elsewhere.id, guardian_id=PAT, name="Sam Lee", added_by=PAT)
        made, team = await managed_player_for(s, league_id, guardian_id=PAT, name="Sam Lee ", added_by=PAT)
        again, _ = await managed_player_for(s, league_id, guardian_id=PAT, name="SAM LEE", added_by=PAT)
        robins, _ = await managed_player_for(s, league_id, guardian_id=ROBIN, name="Sam Lee", added_by=ROBIN)
        ids = (theirs.id, made.id, again.id, robins.id)
    assert team is None and made.name == "Sam Lee"
    assert ids[1] == ids[2] and len(set(ids)) == 3
    assert await guardians(harness, made.id) == [PAT] and await guardians(harness, robins.id) == [ROBIN]


async def test_the_board_leaves_out_a_junior_whose_guardians_player_is_on_a_team(harness: Harness) -> None:
    """The pick would refuse them, so the board doesn't offer them, nor count them among the players left;
    another guardian's player of that name on a team changes nothing for Sam."""
    senior = await running_draft(harness)
    draft = harness.bot.services.draft
    await managed(harness, senior.league_id, ROBIN, "Sam Lee", team_id=senior.teams["Hawks"])
    assert [label for label, _ in await draft.suggestions(senior.kay, "sam")] == [f"#{senior.sam} Sam Lee · senior"]
    await managed(harness, senior.league_id, PAT, "sam lee", team_id=senior.teams["Bears"])
    assert await draft.suggestions(senior.kay, "sam") == []
    assert [label for label, _ in await draft.suggestions(senior.kay, "")] == [
        label for label, _ in await draft.suggestions(senior.kay, "alex")]
