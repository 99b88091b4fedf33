"""A Discord role per team: roster changes give and take exactly the team's role;
the bot touches no other role, grants no permission, and says which permission it lacks, once."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from storage.models import TeamRole
from tests.commands.setup.test_joins import HAWKS_CHANNEL, NORA, ask
from tests.commands.test_scheduled_events import ProcessKilled, restart
from tests.conftest import CHANNELS, GUILD, SampleLeague, league_config, make_settings
from tests.harness import Call, Harness, Member
from tests.harness.fake_guild import Guild

ADMIN = 3004
CARL, BEA, OMAR = 500_000_000_000_000_003, 500_000_000_000_000_002, 500_000_000_000_000_011
NELL = Member(id=800_000_000_000_000_003, name="New Nell")
OTHER_ROLE = 555


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(team_roles=True, channels={**CHANNELS, "admin": ADMIN}))


def guild(h: Harness) -> Guild:
    return h.discord.guilds.guild(GUILD)


def role_named(h: Harness, name: str) -> dict[str, Any]:
    (role,) = [r for r in guild(h).roles.values() if r["name"] == name]
    return role


def roles_of(h: Harness, user_id: int) -> set[str]:
    """The names of the roles a member holds on the fake server."""
    return {guild(h).roles[r]["name"] for r in h.discord.guilds.member_roles(GUILD, user_id) if r in guild(h).roles}


def role_calls(h: Harness, method: str, status: int | None = None) -> list[Call]:
    return [c for c in h.discord.calls if c.method == method and "/roles/" in c.path and "/members/" in c.path
            and (c.status < 300 if status is None else c.status == status)]


async def load(h: Harness, prepare: Any = None) -> SampleLeague:
    """The sample league, every player a member of the server (one with another role too)."""
    league = SampleLeague(h)
    for row in league.players.values():
        h.join(Member(id=int(row["discord_id"]), name=row["name"]), GUILD)
    guild(h).role(OTHER_ROLE, "Goalies club", position=2)
    h.discord.members[GUILD][CARL]["roles"] = [str(OTHER_ROLE)]
    if prepare:
        prepare(guild(h))
    return await league.load()


async def test_roster_changes_give_and_take_exactly_the_teams_role(harness: Harness) -> None:
    league = await load(harness)
    await harness.bot.courier.deliver_due()
    for team in ("Hawks", "Owls", "Bears", "Wolves"):
        role = role_named(harness, team)
        assert (role["permissions"], role["mentionable"]) == ("0", True), "no permission, and @-able"
    for row in league.players.values():
        assert roles_of(harness, int(row["discord_id"])) - {"Goalies club"} == {row["team"]}
    assert roles_of(harness, CARL) == {"Hawks", "Goalies club"}, "another role is never touched"

    captain, kay = league.captain("Hawks"), league.commissioner()
    harness.join(NELL, GUILD)
    await harness.slash("/roster add", as_=captain, player=NELL)
    await harness.slash("/roster remove", as_=captain, player=Member(BEA, "Bea Quinn"))
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, NELL.id) == {"Hawks"} and roles_of(harness, BEA) == set()
    # a trade: off the Owls, onto the Hawks
    await harness.slash("/roster remove", as_=kay, player=Member(OMAR, "Omar Fox"))
    await harness.slash("/roster add", as_=kay, player=Member(OMAR, "Omar Fox"), team="Hawks")
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, OMAR) == {"Hawks"}
    managed = {int(r["id"]) for r in guild(harness).roles.values() if r["name"] in ("Hawks", "Owls", "Bears", "Wolves")}
    touched = {int(c.path.rsplit("/", 1)[1]) for c in role_calls(harness, "PUT") + role_calls(harness, "DELETE")}
    assert touched == managed
    assert [c.path.split("/")[4] for c in role_calls(harness, "DELETE")] == [str(BEA), str(OMAR)]
    async with harness.bot.sessions() as s:
        stored = {r.role_id for r in (await s.scalars(select(TeamRole))).all()}
    assert stored == managed


async def test_a_season_started_with_its_rosters_cleared_takes_every_team_role_back(harness: Harness) -> None:
    league = await load(harness)
    await harness.bot.courier.deliver_due()
    kay = league.commissioner()
    started = await harness.slash("/season start", as_=kay, name="Spring 2030", first_day="2030-01-14", weeks=8,
                                  rosters="clear")
    assert "Rosters cleared: 28 players" in started.content, started.content
    await harness.bot.courier.deliver_due()
    assert all(roles_of(harness, int(row["discord_id"])) - {"Goalies club"} == set() for row in league.players.values())
    assert roles_of(harness, CARL) == {"Goalies club"}, "another role is never touched"
    await harness.slash("/roster add", as_=kay, player=Member(BEA, "Bea Quinn"), team="Owls")
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, BEA) == {"Owls"}


async def test_join_gives_the_role_when_a_captain_approves(harness: Harness) -> None:
    league = await load(harness)
    await harness.bot.courier.deliver_due()
    harness.join(NORA, GUILD)
    pressed = await ask(harness)
    await harness.press(pressed["Approve"], as_=league.captain("Hawks"), channel_id=HAWKS_CHANNEL)
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, NORA.id) == {"Hawks"}


async def test_a_role_of_the_teams_name_is_adopted_unless_it_grants_permissions(harness: Harness) -> None:
    def prepare(g: Guild) -> None:
        g.role(701, "Hawks", position=3)  # grants nothing: adopted
        g.role(702, "Owls", permissions=1 << 3, position=4)  # Administrator: left alone

    league = await load(harness, prepare)
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, CARL) == {"Hawks", "Goalies club"} and role_named(harness, "Hawks")["id"] == "701"
    assert roles_of(harness, OMAR) == set()
    assert not any(c.path.endswith("/702") for c in harness.discord.calls), "a role with permissions is never given"
    told = harness.discord.channel_messages(ADMIN)
    assert len(told) == 1 and "**Owls** already exists and grants permissions" in told[0].content
    async with harness.bot.sessions() as s:
        adopted = {r.role_id: r.adopted for r in (await s.scalars(select(TeamRole))).all()}
    assert adopted[701] is True and 702 not in adopted
    assert league.players  # the sample league is loaded


async def test_a_role_above_the_bots_is_reported_once_and_not_retried(harness: Harness) -> None:
    league = await load(harness, lambda g: g.role(703, "Hawks", position=20))  # above the bot's (10)
    await harness.bot.courier.deliver_due()
    refused = role_calls(harness, "PUT", 403)
    hawks = [r for r in league.players.values() if r["team"] == "Hawks"]
    assert len(refused) == len(hawks) and all(c.path.endswith("/703") for c in refused)
    assert roles_of(harness, OMAR) == {"Owls"}, "the other teams' roles are unaffected"
    told = harness.discord.channel_messages(ADMIN)
    assert len(told) == 1 and "role hierarchy" in told[0].content and "<@&703>" in told[0].content
    harness.bot.clock.advance(hours=6)  # type: ignore[attr-defined]  # past any backoff
    await harness.bot.courier.deliver_due()
    await harness.bot.services.discord_sync.at_start(harness.bot.league_ids)  # a restart
    await harness.bot.courier.deliver_due()
    assert len(role_calls(harness, "PUT", 403)) == len(hawks), "not retried"
    harness.join(NELL, GUILD)
    await harness.slash("/roster add", as_=league.captain("Hawks"), player=NELL)
    await harness.bot.courier.deliver_due()
    assert len(role_calls(harness, "PUT", 403)) == len(hawks) + 1  # the new change is tried once
    assert len(harness.discord.channel_messages(ADMIN)) == 1, "and not reported again"
    # fixed (the bot's role dragged above it), then /setup discord team-roles:True: everyone gets it
    guild(harness).roles[guild(harness).bot_role]["position"] = 30
    reply = await harness.slash("/setup discord", as_=league.commissioner(), team_roles=True)
    assert "team role change(s)" in reply.content, reply.content
    await harness.bot.courier.deliver_due()
    assert roles_of(harness, NELL.id) == {"Hawks"} and roles_of(harness, CARL) == {"Hawks", "Goalies club"}


async def test_without_manage_roles_the_commissioners_hear_it_once(harness: Harness) -> None:
    league = await load(harness, lambda g: g.roles[g.bot_role].update(permissions="0"))
    await harness.bot.courier.deliver_due()
    creates = [c for c in harness.discord.calls if c.method == "POST" and c.path.endswith("/roles")]
    assert creates and all(c.status == 403 for c in creates)
    assert len(creates) == len(league.players), "each change tried once"
    told = harness.discord.channel_messages(ADMIN)
    assert len(told) == 1 and "**Manage Roles**" in told[0].content
    harness.bot.clock.advance(hours=6)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert len([c for c in harness.discord.calls if c.method == "POST" and c.path.endswith("/roles")]) == len(creates)


async def test_a_kill_after_discord_made_the_role_adopts_it_after_the_restart(
        harness: Harness, db_url: str, clock: FixedClock) -> None:
    await load(harness)

    def kill(call: Call) -> None:
        if call.method == "POST" and call.path.endswith("/roles") and call.status < 300:
            harness.discord.hooks.clear()
            raise ProcessKilled

    harness.discord.hooks.append(kill)
    with pytest.raises(ProcessKilled):
        await harness.bot.courier.deliver_due()
    h = await restart(harness, db_url, clock, first=True)
    try:
        await h.bot.courier.deliver_due()
        names = [r["name"] for r in guild(h).roles.values()]
        assert sorted(n for n in names if n in ("Hawks", "Owls", "Bears", "Wolves")) == ["Bears", "Hawks", "Owls",
                                                                                          "Wolves"]
        assert len([c for c in h.discord.calls if c.method == "POST" and c.path.endswith("/roles")]) == 4
        assert roles_of(h, CARL) == {"Hawks", "Goalies club"}
    finally:
        await h.close()
