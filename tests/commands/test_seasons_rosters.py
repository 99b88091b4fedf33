"""Rosters belong to a season: `/season start rosters:keep|clear` and `/roster show season:`.

The sample league's 28 players were put on their teams (by import) on 5 January 2030, the clock's start.
Winter 2030 starts on 7 January; Spring 2030 on 14 January (midnight in Toronto: 05:00 UTC).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from storage.models import Player, RosterDeparture, RosterEntry, Team, TeamCaptain
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness, Reply

SAMPLE_ADDED = datetime(2030, 1, 5, 12, tzinfo=UTC)
SPRING_STARTS = datetime(2030, 1, 14, 5, tzinfo=UTC)
HAWKS = ["Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Hana Kim", "Gus Lee"]


def at(h: Harness, when: datetime) -> None:
    h.bot.clock.set(when)  # type: ignore[attr-defined]


def embed(reply: Reply) -> dict[str, Any]:
    assert reply.ephemeral and reply.last.embeds, reply.text
    return reply.last.embeds[0]


def names(text: str) -> list[str]:
    """The players of an embed's roster lines, in order ("🏒 <@id> Name · gender · left …")."""
    return [line.split("> ", 1)[1].split(" · ")[0] for line in text.splitlines() if "> " in line]


def roster(reply: Reply) -> list[str]:
    return names(embed(reply).get("description") or "")


def left(reply: Reply) -> list[str]:
    fields = embed(reply).get("fields") or []
    return [line for f in fields for line in f["value"].splitlines()]


async def departures(h: Harness) -> list[tuple[str, str, datetime | None, datetime, str | None]]:
    async with h.bot.sessions() as session:
        rows = (await session.execute(
            select(RosterDeparture.player_id, Team.name, RosterDeparture.joined_at, RosterDeparture.left_at,
                   RosterDeparture.reason).join(Team, Team.id == RosterDeparture.team_id)
            .order_by(RosterDeparture.left_at, RosterDeparture.player_id))).all()
        players = {p.id: p.name for p in (await session.scalars(select(Player))).all()}
    return [(players[p], team, joined, left_at, reason) for p, team, joined, left_at, reason in rows]


async def on_rosters(h: Harness) -> int:
    async with h.bot.sessions() as session:
        return await session.scalar(select(func.count()).select_from(RosterEntry)) or 0


async def captains(h: Harness) -> int:
    async with h.bot.sessions() as session:
        return await session.scalar(select(func.count()).select_from(TeamCaptain)) or 0


async def winter_with_moves(h: Harness, league: SampleLeague) -> None:
    """Winter 2030: Bea leaves Hawks on 9 January and joins Owls on the 10th; an import moves Carl to
    Wolves on the 10th; the season ends on the 12th."""
    boss = league.commissioner()
    started = await h.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=1)
    assert "Rosters kept: 28 players stay on their teams (4 teams)." in started.content, started.content
    at(h, datetime(2030, 1, 9, 12, tzinfo=UTC))
    assert "was removed from Hawks" in (await h.slash("/roster remove", as_=boss,
                                                      player=league.player("Bea Quinn"))).content
    at(h, datetime(2030, 1, 10, 12, tzinfo=UTC))
    assert "is now on Owls" in (await h.slash("/roster add", as_=boss, player=league.player("Bea Quinn"),
                                              team="Owls")).content
    league.player("Carl Diaz")  # a member of the server, as /import players checks
    moved = b"discord_id,name,team,position,gender\n500000000000000003,Carl Diaz,Wolves,skater,man\n"
    imported = await h.slash("/import players", as_=boss, file=Attachment("carl.csv", moved))
    assert "1 updated" in imported.text, imported.text
    at(h, datetime(2030, 1, 12, 12, tzinfo=UTC))
    assert "Ended" in (await h.slash("/season end", as_=boss)).content


async def test_clearing_the_rosters_keeps_the_earlier_season_visible(harness: Harness, league: SampleLeague) -> None:
    boss, alice = league.commissioner(), league.captain("Hawks")  # Alice captains Hawks
    await winter_with_moves(harness, league)
    before_captains = await captains(harness)
    started = await harness.slash("/season start", as_=boss, name="Spring 2030", first_day="2030-01-14", weeks=8,
                                  rosters="clear")
    assert started.ephemeral
    assert started.content.splitlines()[1].startswith(
        "Rosters cleared: 28 players left their teams (4 teams) as the season starts; the earlier rosters stay "
        "under /roster show season:. Captains stay captains")
    assert await on_rosters(harness) == 0 and await captains(harness) == before_captains
    history = await departures(harness)
    cleared_at = datetime(2030, 1, 12, 12, tzinfo=UTC)  # Spring's first day is ahead: they leave now
    assert [r[1:] for r in history if r[0] == "Bea Quinn"] == [
        ("Hawks", SAMPLE_ADDED, datetime(2030, 1, 9, 12, tzinfo=UTC), "removed"),
        ("Owls", datetime(2030, 1, 10, 12, tzinfo=UTC), cleared_at, "season")]
    assert [r[1:] for r in history if r[0] == "Carl Diaz"] == [
        ("Hawks", SAMPLE_ADDED, datetime(2030, 1, 10, 12, tzinfo=UTC), "moved"),
        ("Wolves", datetime(2030, 1, 10, 12, tzinfo=UTC), cleared_at, "season")]
    assert sum(1 for r in history if r[4] == "season") == 28

    today = await harness.slash("/roster show", as_=alice)  # a captain off the roster still has her team
    assert embed(today)["title"] == "Hawks roster · Spring 2030 (0 / 20)"
    assert embed(today)["description"] == "Nobody on the roster yet." and left(today) == []

    winter = await harness.slash("/roster show", as_=alice, season="Winter 2030")
    assert embed(winter)["title"] == "Hawks roster · Winter 2030, as it finished (6)"
    assert roster(winter) == ["Alice Hart", "Dan Roy", "Eli Park", "Finn Cole", "Hana Kim", "Gus Lee"]
    bea_left, carl_left = (int(datetime(2030, 1, d, 12, tzinfo=UTC).timestamp()) for d in (9, 10))
    assert left(winter) == [f"🏒 <@500000000000000002> Bea Quinn · woman · left <t:{bea_left}:D>",
                            f"🏒 <@500000000000000003> Carl Diaz · man · left <t:{carl_left}:D>"]
    assert embed(winter)["fields"][0]["name"] == "Left during Winter 2030 (2)"
    owls = await harness.slash("/roster show", as_=boss, team="Owls", season="winter 2030")
    assert "Bea Quinn" in roster(owls) and len(roster(owls)) == 9 and left(owls) == []

    # Players come back for Spring: the captain adds them; Winter's roster stays as it finished.
    at(harness, datetime(2030, 1, 13, 12, tzinfo=UTC))
    added = await harness.slash("/roster add", as_=alice, player=league.player("Alice Hart"))
    assert added.content == "Alice Hart is now on Hawks (1 of 20 players).", added.content
    added = await harness.slash("/roster add", as_=alice, player=league.player("Omar Fox"))
    assert "Omar Fox is now on Hawks" in added.content, added.content
    assert roster(await harness.slash("/roster show", as_=alice)) == ["Alice Hart", "Omar Fox"]
    again = await harness.slash("/roster show", as_=alice, season="Winter 2030")
    assert roster(again) == roster(winter) and left(again) == left(winter)
    spring = await harness.slash("/roster show", as_=alice, season="Spring 2030")
    assert roster(spring) == ["Alice Hart", "Omar Fox"] and "as it finished" not in embed(spring)["title"]
    # A player off every roster can't check in for Spring; one back on a team can.
    refused = await harness.slash("/checkin", as_=league.player("Dan Roy"), status="in", game="G3")
    assert refused.ephemeral and refused.content.startswith("Only players on Owls or Hawks can check in"), \
        refused.content
    assert "You're **in**" in (await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in",
                                                   game="G3")).text


async def test_rosters_can_be_kept_and_an_earlier_season_shows_its_moves(harness: Harness,
                                                                         league: SampleLeague) -> None:
    boss = league.commissioner()
    await winter_with_moves(harness, league)
    before = await on_rosters(harness)
    started = await harness.slash("/season start", as_=boss, name="Spring 2030", first_day="2030-01-14", weeks=8,
                                  rosters="keep")
    assert started.content.splitlines()[1] == "Rosters kept: 28 players stay on their teams (4 teams)."
    assert await on_rosters(harness) == before == 28
    assert [r for r in await departures(harness) if r[4] == "season"] == []
    hawks_now = ["Alice Hart", "Dan Roy", "Eli Park", "Finn Cole", "Hana Kim", "Gus Lee"]
    today = await harness.slash("/roster show", as_=boss, team="Hawks")
    assert roster(today) == hawks_now and left(today) == []  # Bea and Carl left in Winter, not in Spring
    winter = await harness.slash("/roster show", as_=boss, team="Hawks", season="Winter 2030")
    assert roster(winter) == hawks_now and [names(line)[0] for line in left(winter)] == ["Bea Quinn", "Carl Diaz"]
    wolves = await harness.slash("/roster show", as_=boss, team="Wolves", season="Winter 2030")
    assert "Carl Diaz" in roster(wolves)
    # A move in Spring shows under today's roster as having left this season.
    at(harness, datetime(2030, 1, 20, 12, tzinfo=UTC))
    await harness.slash("/roster remove", as_=boss, player=league.player("Dan Roy"))
    today = await harness.slash("/roster show", as_=boss, team="Hawks")
    assert "Dan Roy" not in roster(today) and embed(today)["fields"][0]["name"] == "Left during Spring 2030 (1)"
    assert "Dan Roy" in roster(await harness.slash("/roster show", as_=boss, team="Hawks", season="Winter 2030"))


async def test_a_clear_after_the_first_day_is_recorded_at_the_seasons_first_moment(
        harness: Harness, league: SampleLeague) -> None:
    boss = league.commissioner()
    await winter_with_moves(harness, league)
    at(harness, datetime(2030, 1, 15, 12, tzinfo=UTC))  # Spring began yesterday: the clear goes back to it
    started = await harness.slash("/season start", as_=boss, name="Spring 2030", first_day="2030-01-14", weeks=8,
                                  rosters="clear")
    assert "Rosters cleared: 28 players" in started.content, started.content
    assert {r[3] for r in await departures(harness) if r[4] == "season"} == {SPRING_STARTS}
    winter = await harness.slash("/roster show", as_=boss, team="Hawks", season="Winter 2030")
    assert len(roster(winter)) == 6 and len(left(winter)) == 2
    today = await harness.slash("/roster show", as_=boss, team="Hawks")
    assert roster(today) == [] and left(today) == []  # they left as Spring began, not during it


async def test_a_first_season_cannot_clear_players_out_of_games_they_played(harness: Harness,
                                                                            league: SampleLeague) -> None:
    boss = league.commissioner()
    at(harness, datetime(2030, 1, 12, 2, tzinfo=UTC))
    assert "Recorded" in (await harness.slash("/result enter", as_=league.referee(), game="G1", home=2, away=1,
                                              decided="regulation")).content
    refused = await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=8,
                                  rosters="clear")
    assert refused.ephemeral and "clearing the rosters then would take players out of games they played" in \
        refused.content, refused.content
    assert await on_rosters(harness) == 28 and await departures(harness) == []
    kept = await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=8)
    assert "Rosters kept: 28 players" in kept.content, kept.content


async def test_an_unknown_season_and_another_teams_captain_are_refused(harness: Harness,
                                                                       league: SampleLeague) -> None:
    boss = league.commissioner()
    none_yet = await harness.slash("/roster show", as_=boss, team="Hawks", season="Winter 2030")
    assert none_yet.ephemeral and none_yet.content == "There's no season “Winter 2030” (seasons: none yet)."
    await winter_with_moves(harness, league)
    unknown = await harness.slash("/roster show", as_=boss, team="Hawks", season="Fall 1999")
    assert unknown.ephemeral and unknown.content == "There's no season “Fall 1999” (seasons: Winter 2030)."
    other = await harness.slash("/roster show", as_=league.captain("Owls"), team="Hawks", season="Winter 2030")
    assert other.ephemeral and not other.last.embeds and "Hawks" in other.content
    offered = await harness.autocomplete("/roster show", focused="season", as_=boss, season="Win")
    assert [c["value"] for c in offered.autocomplete_choices] == ["Winter 2030"]
    refused = await harness.slash("/season start", as_=league.player("Bea Quinn"), name="Spring 2030",
                                  first_day="2030-01-14", weeks=8, rosters="clear")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    assert await on_rosters(harness) == 28
