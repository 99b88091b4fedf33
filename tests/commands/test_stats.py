"""/stats player|leaders|team through the real command tree (youth preset): goals, assists, points and
penalty minutes from the game sheets and goals; a forfeit adds nothing (youth 2.4); a shoot-out goal is a
statistic apart (youth 2.14); ties show as ties; attendance only for the team's captains and commissioners.

G1 is Hawks v Owls (00:00 UTC on 12 January 2030), G3 Owls v Hawks a week later.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import StatLine, StatsPost, StatTotal
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Call, Harness

YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))
AFTER_G1 = datetime(2030, 1, 12, 2, 0, tzinfo=UTC)
AFTER_G3 = datetime(2030, 1, 19, 2, 0, tzinfo=UTC)
AFTER_P1 = datetime(2030, 1, 20, 2, 0, tzinfo=UTC)
HAWKS_IN = ("Alice Hart", "Carl Diaz", "Dan Roy", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Uma Reed")


@pytest.fixture
def settings() -> Settings:
    return YOUTH


async def check_in(h: Harness, league: SampleLeague, game: str) -> None:
    for name in (*HAWKS_IN, *OWLS_IN):
        reply = await h.slash("/checkin", as_=league.player(name), status="in", game=game)
        assert "**in**" in reply.text, reply.text


async def goal(h: Harness, league: SampleLeague, game: str, team: str, scorer: str, *assists: str) -> None:
    options = {f"assist{i}": league.player(a) for i, a in enumerate(assists, start=1)}
    reply = await h.slash("/goal add", as_=league.timekeeper(), game=game, team=team,
                          scorer=league.player(scorer), **options)
    assert "Recorded." in reply.text, reply.text


async def play_g1(h: Harness, league: SampleLeague) -> None:
    """Hawks 3-1 Owls: Alice 2 goals 1 assist, Carl 1 goal 2 assists and a tripping minor, Dan 1 assist."""
    await check_in(h, league, "G1")
    h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    await goal(h, league, "G1", "Hawks", "Alice Hart", "Carl Diaz")
    await goal(h, league, "G1", "Hawks", "Alice Hart", "Carl Diaz", "Dan Roy")
    await goal(h, league, "G1", "Hawks", "Carl Diaz", "Alice Hart")
    await goal(h, league, "G1", "Owls", "Omar Fox", "Pia Lund")
    called = await h.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Carl Diaz"),
                           infraction="tripping")
    assert "Penalty #1 recorded" in called.text, called.text
    entered = await h.slash("/result enter", as_=league.referee(), game="G1", home=3, away=1, decided="regulation")
    assert "It agrees with the goals recorded (Hawks 3, Owls 1)." in entered.text, entered.text


async def totals_are_the_lines(h: Harness) -> None:
    """The running totals (moved by differences with every change) are exactly the lines summed again."""
    async with h.bot.sessions() as s:
        totals = {(r.season_id, r.player_id): (r.gp, r.goals, r.assists, r.points, r.pim)
                  for r in (await s.scalars(select(StatTotal))).all() if (r.gp, r.goals, r.assists, r.pim) != (0,) * 4}
        summed = {(r[0], r[1]): tuple(int(v) for v in r[2:]) for r in (await s.execute(
            select(StatLine.season_id, StatLine.player_id, func.sum(StatLine.gp), func.sum(StatLine.goals),
                   func.sum(StatLine.assists), func.sum(StatLine.goals + StatLine.assists), func.sum(StatLine.pim))
            .group_by(StatLine.season_id, StatLine.player_id))).all()}
    assert totals == {k: v for k, v in summed.items() if v != (0,) * 5}
    assert totals, "something was counted"


def line(text: str) -> str:
    """The numbers line of a /stats player answer."""
    return next(part for part in text.split("\n") if part.startswith("**GP**"))


async def test_leaders_and_players_show_goals_assists_points_and_penalty_minutes(
        harness: Harness, league: SampleLeague) -> None:
    await play_g1(harness, league)
    anyone = league.player("Zed Lowe")  # statistics are the league's public record
    alice = await harness.slash("/stats player", as_=anyone, member=league.player("Alice Hart"))
    assert alice.ephemeral and "Alice Hart · Hawks" in alice.text
    assert line(alice.text) == "**GP** 1 · **G** 2 · **A** 1 · **PTS** 3 · **PIM** 0"
    carl = await harness.slash("/stats player", as_=anyone, member=league.player("Carl Diaz"))
    assert line(carl.text) == "**GP** 1 · **G** 1 · **A** 2 · **PTS** 3 · **PIM** 2"
    gus = await harness.slash("/stats player", as_=anyone, member=league.player("Gus Lee"))
    assert "**GP** 1 · **G** 0" in gus.text and "In goal\n**GP** 1 · **GA** 1 · **Shutouts** 0" in gus.text
    uma = await harness.slash("/stats player", as_=anyone, member=league.player("Uma Reed"))
    assert "**GA** 3 · **Shutouts** 0" in uma.text

    points = await harness.slash("/stats leaders", as_=anyone)
    assert "Points leaders · Youth League" in points.text
    table = points.text.split("```")[1]
    assert [row.split()[0] for row in table.strip().split("\n")[1:]] == ["T1", "T1", "T3", "T3", "T3"]
    assert "Alice Hart" in table.split("\n")[2] and "Carl Diaz" in table.split("\n")[3]
    assert table.split("\n")[2].rstrip().endswith(" 3") and table.split("\n")[4].rstrip().endswith(" 1")
    goals = (await harness.slash("/stats leaders", as_=anyone, category="goals")).text.split("```")[1]
    assert [r.split()[:3] for r in goals.strip().split("\n")[1:]] == [
        ["1", "Alice", "Hart"], ["T2", "Carl", "Diaz"], ["T2", "Omar", "Fox"]]
    pim = (await harness.slash("/stats leaders", as_=anyone, category="pim")).text.split("```")[1]
    assert [r.split() for r in pim.strip().split("\n")[1:]] == [["1", "Carl", "Diaz", "Hawks", "2"]]
    seniors = await harness.slash("/stats leaders", as_=anyone, division="senior")  # Hawks and Owls
    assert "Points leaders · Youth League · senior" in seniors.text and "Alice Hart" in seniors.text
    juniors = await harness.slash("/stats leaders", as_=anyone, division="junior")
    assert "Nobody has any yet" in juniors.text
    gp = await harness.slash("/stats leaders", as_=anyone, category="gp")
    assert "Games played leaders" in gp.text and gp.text.count(" T1 ") + gp.text.count("\n T1") >= 1


async def test_a_forfeit_adds_no_individual_statistics(harness: Harness, league: SampleLeague) -> None:
    await play_g1(harness, league)
    await check_in(harness, league, "G3")
    harness.bot.clock.set(AFTER_G3)  # type: ignore[attr-defined]
    await goal(harness, league, "G3", "Hawks", "Alice Hart", "Dan Roy")  # recorded before the forfeit was known
    await harness.slash("/penalty", as_=league.referee(), game="G3", player=league.player("Alice Hart"),
                        infraction="hooking")
    forfeit = await harness.slash("/result forfeit", as_=league.referee(), game="G3", team="Owls")
    assert "Owls forfeited" in forfeit.text and "goals recorded" not in forfeit.text
    alice = await harness.slash("/stats player", as_=league.player("Alice Hart"), member=league.player("Alice Hart"))
    assert line(alice.text) == "**GP** 1 · **G** 2 · **A** 1 · **PTS** 3 · **PIM** 0", alice.text
    dan = await harness.slash("/stats player", as_=league.player("Alice Hart"), member=league.player("Dan Roy"))
    assert line(dan.text) == "**GP** 1 · **G** 0 · **A** 1 · **PTS** 1 · **PIM** 0"
    fixed = await harness.slash("/result fix", as_=league.commissioner(), game="G3", decided="regulation", home=1,
                                away=0)  # not a forfeit after all: G3's goal and minor count now
    assert "Corrected game G3" in fixed.text, fixed.text
    alice = await harness.slash("/stats player", as_=league.player("Alice Hart"), member=league.player("Alice Hart"))
    assert line(alice.text) == "**GP** 2 · **G** 3 · **A** 1 · **PTS** 4 · **PIM** 2", alice.text
    await totals_are_the_lines(harness)


async def test_a_shootout_goal_is_only_a_shootout_statistic(harness: Harness, league: SampleLeague) -> None:
    await play_g1(harness, league)
    kay, rita = league.commissioner(), league.referee()
    added = await harness.slash("/game add", as_=kay, home="Hawks", away="Owls", starts_at="2030-01-19 19:00",
                                kind="playoff", code="P1")
    assert "Added `P1`" in added.text, added.text
    await check_in(harness, league, "P1")
    harness.bot.clock.set(AFTER_P1)  # type: ignore[attr-defined]
    scored = await harness.slash("/shootout record", as_=rita, game="P1", shooter="Alice Hart", scored=True, tied_at=2)
    assert "Alice Hart (Hawks) scored" in scored.text, scored.text
    await harness.slash("/shootout record", as_=rita, game="P1", shooter="Omar Fox", scored=False)
    entered = await harness.slash("/result enter", as_=rita, game="P1", home=2, away=2, decided="shootout",
                                  shootout_home=1, shootout_away=0)
    assert "Recorded game P1" in entered.text, entered.text
    alice = await harness.slash("/stats player", as_=kay, member=league.player("Alice Hart"))
    assert line(alice.text) == "**GP** 2 · **G** 2 · **A** 1 · **PTS** 3 · **PIM** 0", alice.text
    assert "Shoot-outs (a separate statistic)\n1 goal in 1 attempt" in alice.text
    omar = await harness.slash("/stats player", as_=kay, member=league.player("Omar Fox"))
    assert "0 goals in 1 attempt" in omar.text
    goals = (await harness.slash("/stats leaders", as_=kay, category="goals")).text
    assert "Alice Hart" in goals and goals.split("```")[1].split("\n")[2].rstrip().endswith(" 2")


async def test_team_statistics_and_attendance_only_for_its_captains_and_commissioners(
        harness: Harness, league: SampleLeague) -> None:
    await play_g1(harness, league)
    public = await harness.slash("/stats team", as_=league.player("Omar Fox"), team="Hawks")
    table = public.text.split("```")[1]
    assert "Alice Hart" in table and "Att" not in table and "Missed games" not in public.text
    assert [r.split()[-5:] for r in table.strip().split("\n") if r.startswith("Alice Hart")] == [
        ["1", "2", "1", "3", "0"]]
    assert table.strip().split("\n")[-1].split()[1:] == ["3", "4", "7", "2"]  # the team: G A PTS PIM
    captain = await harness.slash("/stats team", as_=league.captain("Hawks"), team="Hawks")
    assert "Att" in captain.text and "1/1" in captain.text
    assert "Missed games (private: the team's captains and the commissioners)" in captain.text
    assert "Bea Quinn 1 (1 with no spare)" in captain.text, captain.text
    other = await harness.slash("/stats team", as_=league.captain("Owls"), team="Hawks")
    assert "Att" not in other.text


async def test_bad_names_are_refused_politely(harness: Harness, league: SampleLeague) -> None:
    for path, options, said in (("/stats team", {"team": "Ravens"}, "There's no team called “Ravens”"),
                                ("/stats leaders", {"division": "Nowhere"}, "There's no division “Nowhere”"),
                                ("/stats leaders", {"season": "Summer 1999"}, "There's no season “Summer 1999”"),
                                ("/stats player", {"member": league.stranger()}, "isn't a player in Youth League")):
        reply = await harness.slash(path, as_=league.player("Alice Hart"), **options)
        assert reply.ephemeral and said in reply.text, (path, reply.text)


# --- the weekly post (youth 2.16: Mondays at 9:00 Toronto, 14:00 UTC in winter) ----------------------------
STANDINGS = 3002  # where the standings message is too


def stats_posts(h: Harness) -> list[Call]:
    return [c for c in h.discord.channel_messages(STANDINGS) if c.content.startswith("📊")]
MONDAYS = [datetime(2030, 1, day, 14, 0, tzinfo=UTC) for day in (7, 14, 21, 28)]


async def restarted(h: Harness, db_url: str, clock: FixedClock) -> Harness:
    await h.bot.close()
    bot = create_bot(YOUTH, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    again = Harness(bot)
    again.discord = h.discord
    await again.start()
    await bot.courier.recover()
    return again


async def test_the_statistics_are_posted_each_week_in_one_message_edited_in_place(
        db_url: str, clock: FixedClock) -> None:
    h = await Harness(create_bot(YOUTH, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    league = await SampleLeague(h).load()
    clock.set(MONDAYS[0])
    await h.bot.courier.deliver_due()
    assert stats_posts(h) == [], "nothing to post before a game is played"

    await play_g1(h, league)
    h = await restarted(h, db_url, clock)
    clock.set(MONDAYS[1])
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()  # the new message, queued by the week's run
    (posted,) = stats_posts(h)
    assert posted.content.startswith("📊 **Statistics · Youth League** · updated"), posted.content
    assert "**Points**\n```" in posted.content and "Alice Hart" in posted.content
    assert "**Penalty minutes**" in posted.content
    assert len(posted.content) <= 2000
    h = await restarted(h, db_url, clock)
    await h.bot.courier.deliver_due()
    assert len(stats_posts(h)) == 1, "the week's post goes once, across a restart"

    await check_in(h, league, "G3")
    clock.set(AFTER_G3)
    await goal(h, league, "G3", "Owls", "Omar Fox", "Pia Lund")
    await h.slash("/result enter", as_=league.referee(), game="G3", home=1, away=0, decided="regulation")
    clock.set(MONDAYS[2])
    await h.bot.courier.deliver_due()
    assert len(stats_posts(h)) == 1
    async with h.bot.sessions() as s:
        message_id = await s.scalar(select(StatsPost.message_id))
    assert message_id is not None
    (edit,) = [c for c in h.discord.edits(STANDINGS) if c.payload.get("content", "").startswith("📊")]
    assert edit.path.endswith(f"/messages/{message_id}") and "Omar Fox" in edit.payload["content"]

    h.discord.deleted_messages.add(message_id)
    clock.set(MONDAYS[3])
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    assert len(stats_posts(h)) == 2, "a deleted message is posted anew"
    await h.close()


async def test_statistics_count_by_season_and_follow_a_new_season(harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    await play_g1(harness, league)
    started = await harness.slash("/season start", as_=kay, name="Winter", first_day="2030-01-07", weeks=1)
    assert "Winter" in started.text, started.text
    alice = league.player("Alice Hart")
    winter = await harness.slash("/stats player", as_=kay, member=alice)
    assert "· Winter" in winter.text and line(winter.text).startswith("**GP** 1 · **G** 2"), winter.text
    ended = await harness.slash("/season end", as_=kay)
    assert "Ended **Winter**" in ended.text, ended.text
    spring = await harness.slash("/season start", as_=kay, name="Spring", first_day="2030-01-15", weeks=4)
    assert "Spring" in spring.text, spring.text
    empty = await harness.slash("/stats player", as_=kay, member=alice)
    assert "· Spring" in empty.text and line(empty.text).startswith("**GP** 0 · **G** 0"), empty.text
    await check_in(harness, league, "G3")
    harness.bot.clock.set(AFTER_G3)  # type: ignore[attr-defined]
    await goal(harness, league, "G3", "Hawks", "Alice Hart")
    await harness.slash("/result enter", as_=league.referee(), game="G3", home=0, away=1, decided="regulation")
    now = await harness.slash("/stats player", as_=kay, member=alice)  # G3 is Spring's
    assert "· Spring" in now.text and line(now.text) == "**GP** 1 · **G** 1 · **A** 0 · **PTS** 1 · **PIM** 0", now.text
    before = await harness.slash("/stats player", as_=kay, member=alice, season="Winter")
    assert line(before.text) == "**GP** 1 · **G** 2 · **A** 1 · **PTS** 3 · **PIM** 0", before.text
    leaders = (await harness.slash("/stats leaders", as_=kay, category="goals")).text.split("```")[1]
    assert [r.split()[:3] for r in leaders.strip().split("\n")[1:]] == [["1", "Alice", "Hart"]]
    await totals_are_the_lines(harness)


async def test_profile_shows_a_players_own_games_played_and_missed(harness: Harness, league: SampleLeague) -> None:
    await play_g1(harness, league)
    alice = await harness.slash("/profile show", as_=league.player("Alice Hart"))
    assert alice.ephemeral and "Games this season (from the game sheets): played 1 of 1." in alice.text, alice.text
    bea = await harness.slash("/profile show", as_=league.player("Bea Quinn"))
    assert "played 0 of 1, missed 1 (1 with no spare in your place)." in bea.text, bea.text
    assert "games missed are shown only to you, your team's captains and commissioners" in bea.text
