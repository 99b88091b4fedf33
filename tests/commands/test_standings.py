"""/standings show|post|adjust through the real command tree: the order each preset sets, a table that
reads on a phone, the standings message kept in place."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from bot.services.standings import StandingsService
from storage.db import create_engine, session_factory
from storage.models import StandingsAdjustment, StandingsPost, Team
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness

STANDINGS_CHANNEL = CHANNELS["standings"]
YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
NO_STANDINGS_CHANNEL = make_settings(league_config(channels={"announcements": 3001, "referees": 3003}))


def table_lines(text: str) -> list[list[str]]:
    """The rows of every code block: [rank, team, GP, W, L, T, (GF,) last column]."""
    rows = []
    for block in re.findall(r"```\n(.*?)\n```", text, re.S):
        rows += [line.split() for line in block.splitlines()[1:]]
    return rows


def order(text: str) -> list[str]:
    return [row[1] for row in table_lines(text)]


async def two_weeks_played(h: Harness, league: SampleLeague) -> None:
    """G1-G4 played. Hawks and Owls are 1-1, Owls with more goals; Bears and Wolves too, Wolves ahead."""
    h.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    ref = league.referee()
    for game, home, away, decided, extra in [
        ("G1", 1, 0, "regulation", {}),
        ("G3", 5, 1, "regulation", {}),  # Owls (home) beat Hawks
        ("G2", 2, 2, "shootout", {"shootout_home": 1, "shootout_away": 0}),  # Bears win the shootout
        ("G4", 3, 1, "regulation", {}),  # Wolves (home) beat Bears
    ]:
        reply = await h.slash("/result enter", as_=ref, game=game, home=home, away=away, decided=decided, **extra)
        assert "Recorded" in reply.content, reply.content


async def test_coed_standings_are_ordered_by_record_then_goals_scored(harness: Harness,
                                                                     league: SampleLeague) -> None:
    await two_weeks_played(harness, league)
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    assert reply.ephemeral
    assert order(reply.text) == ["Owls", "Hawks", "Wolves", "Bears"]
    assert "**North**" in reply.text and "**South**" in reply.text
    assert table_lines(reply.text)[0] == ["1", "Owls", "2", "1", "1", "0", "5", ".500"]  # GF: seeding's 2nd
    assert "Order: winning percentage" in reply.text and "then most goals scored" in reply.text


async def test_one_division_and_shootout_goals_kept_apart(harness: Harness, league: SampleLeague) -> None:
    await two_weeks_played(harness, league)
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="south")
    assert order(reply.text) == ["Wolves", "Bears"]
    assert "North" not in reply.text
    table = await StandingsService(harness.bot.sessions, harness.bot.clock).league_table(
        harness.bot.settings.leagues[0], division="South")
    bears = next(r for r in table.rows if r.team == "Bears")
    assert (bears.w, bears.l, bears.gf, bears.ga, bears.so_gf, bears.so_ga) == (1, 1, 3, 5, 1, 0)


async def test_an_unknown_division_is_named(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="East")
    assert reply.ephemeral
    assert "There's no division “East” in Coed League (divisions: North, South)." in reply.content


async def test_standings_can_be_shown_to_the_channel(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), public=True)
    assert not reply.ephemeral
    assert reply.first.allowed_mentions == {"parse": []}
    assert order(reply.text) == ["Hawks", "Owls", "Bears", "Wolves"]  # nobody has played: by name


async def test_division_autocomplete(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/standings show", focused="division", as_=league.player("Alice Hart"),
                                       division="so")
    assert [c["value"] for c in reply.autocomplete_choices] == ["South"]


async def test_long_team_names_are_trimmed_and_lines_stay_narrow(harness: Harness, league: SampleLeague) -> None:
    await harness.bot.services.imports.importer.run(
        "teams", b"team,division,captain_discord_ids\nThunderbirds of the North Shore,North,1\n",
        harness.bot.settings.leagues[0], now=harness.bot.clock.now())
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    blocks = re.findall(r"```\n(.*?)\n```", reply.text, re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    assert any("Thunderbi…" in line for line in lines)
    assert "Thunderbirds of" not in reply.text
    assert max(len(line) for line in lines) <= 34
    # Co-ed seeding is by record, then goals scored: the table shows both.
    assert lines[0].split() == ["#", "Team", "GP", "W", "L", "T", "GF", "PCT"]


@pytest.mark.parametrize("settings", [YOUTH])
async def test_youth_standings_use_points_and_commissioner_adjustments(harness: Harness,
                                                                      league: SampleLeague) -> None:
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    ref = league.referee()
    await harness.slash("/result enter", as_=ref, game="G1", home=2, away=2, decided="regulation")
    await harness.slash("/result enter", as_=ref, game="G3", home=3, away=1, decided="regulation")
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="senior")
    assert table_lines(reply.text) == [["1", "Owls", "2", "1", "0", "1", "3"], ["2", "Hawks", "2", "0", "1", "1", "1"]]

    refused = await harness.slash("/standings adjust", as_=league.referee(), team="Owls", points=-3,
                                  reason="bench brawl")
    assert "Only a commissioner" in refused.content
    beyond = await harness.slash("/standings adjust", as_=league.commissioner(), team="owls", points=-3,
                                 reason="rule 1.22: bench brawl")
    assert beyond.ephemeral and beyond.content == "This league's rules allow only -1 or -2 points (Youth 1.22)."
    adjusted = await harness.slash("/standings adjust", as_=league.commissioner(), team="owls", points=-2,
                                   reason="rule 1.22: bench brawl")
    assert adjusted.ephemeral
    assert adjusted.content == "Owls: -2 standings points (rule 1.22: bench brawl). Net adjustment now -2."
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="senior")
    assert table_lines(reply.text) == [["1", "Owls", "2", "1", "0", "1", "1"], ["2", "Hawks", "2", "0", "1", "1", "1"]]
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(StandingsAdjustment)) == 1


async def test_zero_point_adjustments_are_refused(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/standings adjust", as_=league.commissioner(), team="Owls", points=0, reason="x")
    assert "not 0" in reply.content
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(StandingsAdjustment)) == 0


async def test_commissioner_posts_then_refreshes_the_standings_message(harness: Harness,
                                                                      league: SampleLeague) -> None:
    first = await harness.slash("/standings post", as_=league.commissioner())
    assert first.ephemeral and first.content == f"Posted the standings in <#{STANDINGS_CHANNEL}>."
    again = await harness.slash("/standings post", as_=league.commissioner())
    assert again.content == f"Refreshed the standings message in <#{STANDINGS_CHANNEL}>."
    calls = [c for c in harness.discord.calls if c.path.startswith(f"/channels/{STANDINGS_CHANNEL}/")]
    async with harness.bot.sessions() as s:
        post = await s.scalar(select(StandingsPost))
    assert post is not None
    assert [(c.method, c.path) for c in calls] == [
        ("POST", f"/channels/{STANDINGS_CHANNEL}/messages"),
        ("PATCH", f"/channels/{STANDINGS_CHANNEL}/messages/{post.message_id}"),  # its picture (test_pictures.py)
        ("PATCH", f"/channels/{STANDINGS_CHANNEL}/messages/{post.message_id}"),
    ]
    embed = calls[0].embeds[0]
    assert embed["title"] == "Standings · Coed League" and "```" in embed["description"]
    assert all(c.allowed_mentions in ({"parse": []}, {"parse": [], "users": []}) for c in calls)  # pings nobody


async def test_a_player_cannot_post_the_standings(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/standings post", as_=league.player("Alice Hart"))
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert harness.discord.channel_messages(STANDINGS_CHANNEL) == []
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(StandingsPost)) == 0


@pytest.mark.parametrize("settings", [NO_STANDINGS_CHANNEL])
async def test_without_a_standings_channel_nothing_is_posted(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/standings post", as_=league.commissioner())
    assert reply.content == "This league has no standings channel yet: pick one with `/setup channels standings:`."
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    entered = await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0,
                                  decided="regulation")
    assert "Recorded" in entered.content
    assert harness.discord.channel_messages() == []



@pytest.mark.parametrize("settings", [YOUTH])
async def test_the_table_follows_every_write_that_changes_it(harness: Harness, league: SampleLeague,
                                                             db_url: str) -> None:
    """The table is cached between results; a result, a fix, a team moved to another division and a
    write by another process (the CLI has its own engine) must each show on the next /standings."""
    alice, ref = league.player("Alice Hart"), league.referee()

    async def north() -> list[str]:
        text = (await harness.slash("/standings show", as_=alice, division="senior")).text
        return [name.rstrip("*") for name in order(text)]  # "*": a tie the rules could not settle yet

    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=ref, game="G1", home=2, away=2, decided="regulation")
    assert await north() == ["Hawks", "Owls"]  # both 1 point: alphabetical
    await harness.slash("/result enter", as_=ref, game="G3", home=3, away=1, decided="regulation")
    assert await north() == ["Owls", "Hawks"]  # Owls (home in G3) win
    fixed = await harness.slash("/result fix", as_=league.commissioner(), game="G3", home=1, away=3,
                                reason="home and away swapped")
    assert fixed.content.startswith("Corrected game G3"), fixed.content
    assert await north() == ["Hawks", "Owls"]

    other = create_engine(db_url)
    try:
        async with session_factory(other).begin() as s:
            hawks = await s.scalar(select(Team).where(Team.name == "Hawks"))
            assert hawks is not None
            s.add(StandingsAdjustment(league_id=hawks.league_id, team_id=hawks.id, points=-10, reason="CLI"))
    finally:
        await other.dispose()
    assert await north() == ["Owls", "Hawks"]

    await harness.bot.services.imports.importer.run("teams", b"team,division,captain_discord_ids\nHawks,junior,\n",
                                             harness.bot.settings.leagues[0], now=harness.bot.clock.now())
    assert await north() == ["Owls"]


async def test_a_renamed_team_shows_at_once_though_the_table_is_cached(harness: Harness,
                                                                       league: SampleLeague) -> None:
    """Renamed by another process (the CLI, say): the freshness check reads the teams, not a flag."""
    before = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="North")
    assert "Owls" in before.text
    other = create_engine(harness.bot.engine.url.render_as_string(hide_password=False))
    try:
        async with session_factory(other).begin() as s:
            owls = await s.scalar(select(Team).where(Team.name == "Owls"))
            assert owls is not None
            owls.name = "Night Owls"
    finally:
        await other.dispose()
    after = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="North")
    assert "Night Owls" in after.text


async def forfeit_and_a_loss(h: Harness, league: SampleLeague) -> None:
    """Owls forfeit G1 to Hawks, then beat Hawks 5-1 in G3: both 1-1; on the ice Owls scored 5, Hawks 1."""
    h.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    forfeit = await h.slash("/result forfeit", as_=league.referee(), game="G1", team="Owls")
    assert "Owls forfeited" in forfeit.content, forfeit.content
    played = await h.slash("/result enter", as_=league.referee(), game="G3", home=5, away=1, decided="regulation")
    assert "Recorded" in played.content, played.content


async def goals_for(h: Harness, team: str) -> int:
    table = await StandingsService(h.bot.sessions, h.bot.clock).league_table(h.bot.settings.leagues[0])
    return next(r.gf for r in table.rows if r.team == team)


async def test_coed_seeding_leaves_a_forfeits_goals_out_and_says_so(harness: Harness, league: SampleLeague) -> None:
    # Co-ed "Seeding will be decided first by record, followed by total goals scored"; no forfeit score.
    await forfeit_and_a_loss(harness, league)
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="north")
    assert table_lines(reply.text) == [["1", "Owls", "2", "1", "1", "0", "5", ".500"],
                                       ["2", "Hawks", "2", "1", "1", "0", "1", ".500"]]
    assert (await goals_for(harness, "Hawks"), await goals_for(harness, "Owls")) == (1, 5)
    assert ("Forfeits count as a win and a loss; their goals aren't counted (Co-ed rules: Game Structure 9)."
            in reply.text)


@pytest.mark.parametrize("settings", [YOUTH])
async def test_youth_counts_the_forfeits_5_0_and_says_so(harness: Harness, league: SampleLeague) -> None:
    # Youth 2.4: "The score for a forfeited game is 5-0".
    await forfeit_and_a_loss(harness, league)
    assert (await goals_for(harness, "Hawks"), await goals_for(harness, "Owls")) == (6, 5)
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="senior")
    assert "Forfeits count as a 5-0 win and loss, goals included (Youth 2.4)." in reply.text


async def test_no_forfeit_no_footnote(harness: Harness, league: SampleLeague) -> None:
    await two_weeks_played(harness, league)
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    assert "Forfeits" not in reply.text
