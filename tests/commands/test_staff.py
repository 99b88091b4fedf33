"""/team standin and /team assistant through the real command tree (youth 1.4, 1.6): a stand-in holds a
captain's powers for the one game they were named for, an assistant coach for each game every captain is
out or away for, and neither for any other game.

Sample schedule (tests/data/games.csv): G1 Hawks v Owls on Friday 11 January at 19:00 Toronto, G3 Owls v
Hawks a week later. Hawks' captain is Alice Hart (also on its roster); Bea Quinn and Carl Diaz play for
Hawks and hold no captain role.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from storage.models import AssistantCoach, StandInCaptain
from tests.commands.test_shootouts import HAWKS_IN, OWLS_IN, check_in, orders
from tests.conftest import SampleLeague
from tests.harness import Harness

BEA = 500_000_000_000_000_002


async def stand_ins(h: Harness) -> list[tuple[int, int, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(StandInCaptain).order_by(StandInCaptain.id))).all()
        return [(r.game_id, r.discord_id, r.name) for r in rows]


async def test_a_stand_in_submits_a_shootout_order_for_their_game_and_not_for_the_next_one(
        harness: Harness, league: SampleLeague) -> None:
    """The acceptance: named for G1, Bea (no captain role) submits Hawks' order for G1 and is refused for G3."""
    bea = league.player("Bea Quinn")
    for game in ("G1", "G3"):
        await check_in(harness, league, HAWKS_IN, game=game)
        await check_in(harness, league, OWLS_IN, game=game)
    before = await harness.slash("/shootout submit", as_=bea, game="G1", shooters="Alice Hart, Carl Diaz, Dan Roy")
    assert before.ephemeral and "Only a captain of Hawks or Owls, or a commissioner" in before.content

    named = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1", member=bea)
    assert named.ephemeral and named.first.allowed_mentions == {"parse": []}
    assert "Bea Quinn is now Hawks's stand-in captain for `G1` (Hawks vs Owls" in named.content
    assert "For that game only they can check the lineup, submit the shootout order" in named.content
    await harness.bot.courier.deliver_due()
    (dm,) = [c for c in harness.discord.dms(BEA) if "stand-in captain" in c.content]
    assert "you're Hawks's stand-in captain for `G1`" in dm.content and "/shootout submit" in dm.content

    submitted = await harness.slash("/shootout submit", as_=bea, game="G1", shooters="Alice Hart, Carl Diaz, Dan Roy")
    assert submitted.ephemeral, submitted.content
    assert submitted.content.startswith("Saved Hawks's shootout order for `G1` (Hawks vs Owls):\n1. Alice Hart")
    next_game = await harness.slash("/shootout submit", as_=bea, game="G3", shooters="Alice Hart, Carl Diaz, Dan Roy")
    assert next_game.ephemeral and "Only a captain of Owls or Hawks, or a commissioner" in next_game.content
    assert await orders(harness) == [("Hawks", ["Alice Hart", "Carl Diaz", "Dan Roy"])]

    # The other captain powers of that game: the lineup and a relay to its referees; not the next game's.
    lineup = await harness.slash("/lineup", as_=bea, game="G1")
    assert lineup.ephemeral and "Hawks lineup" in lineup.text and "Owls lineup" not in lineup.text
    other = await harness.slash("/lineup", as_=bea, game="G3")
    assert "Only a team's captain or a commissioner can check a lineup" in other.content
    harness.bot.clock.set(datetime(2030, 1, 11, 23, tzinfo=UTC))  # type: ignore[attr-defined]  # G1 day
    relay = await harness.slash("/relay send", as_=bea, game="G1", message="Owls' bench is too close")
    assert relay.ephemeral and "Relay #1 about `G1`" in relay.content


async def test_naming_a_stand_in_is_for_a_teams_captain_and_a_member_of_its_roster(
        harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    player = await harness.slash("/team standin", as_=league.player("Carl Diaz"), game="G1", member=bea)
    assert player.ephemeral and "Only a captain of Hawks or Owls, or a commissioner" in player.content
    other_team = await harness.slash("/team standin", as_=league.captain("Owls"), game="G1", member=bea)
    assert other_team.ephemeral and "Bea Quinn plays for Hawks: only Hawks's captain or a commissioner" \
        in other_team.content
    not_playing = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1",
                                      member=league.player("Walt Orr"))
    assert "Walt Orr isn't on the roster of Hawks or Owls" in not_playing.content
    captain = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1",
                                  member=league.player("Alice Hart"))
    assert "Alice Hart is already a captain of Hawks" in captain.content
    assert await stand_ins(harness) == []

    kay = league.commissioner()
    by_commissioner = await harness.slash("/team standin", as_=kay, game="G1", member=bea)
    assert "Bea Quinn is now Hawks's stand-in captain for `G1`" in by_commissioner.content
    again = await harness.slash("/team standin", as_=kay, game="G1", member=bea)
    assert "was already Hawks's stand-in captain" in again.content
    replaced = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1",
                                   member=league.player("Carl Diaz"))
    assert "Carl Diaz is now Hawks's stand-in captain" in replaced.content and "(They replace Bea Quinn.)" in \
        replaced.content
    removed = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1",
                                  member=league.player("Carl Diaz"), remove=True)
    assert "Carl Diaz is no longer Hawks's stand-in captain" in removed.content
    assert await stand_ins(harness) == []


async def test_an_assistant_coach_acts_only_for_the_games_every_captain_is_out_of(
        harness: Harness, league: SampleLeague) -> None:
    carl = league.player("Carl Diaz")
    refused = await harness.slash("/team assistant", as_=league.captain("Hawks"), member=carl)
    assert refused.ephemeral and "Only a commissioner of Coed League" in refused.content
    named = await harness.slash("/team assistant", as_=league.commissioner(), member=carl)
    assert named.ephemeral and "Carl Diaz is now Hawks's assistant coach." in named.content
    async with harness.bot.sessions() as s:
        assert [(r.discord_id, r.name) for r in (await s.scalars(select(AssistantCoach))).all()] == [
            (int(league.players["Carl Diaz"]["discord_id"]), "Carl Diaz")]

    while_coach_is_in = await harness.slash("/lineup", as_=carl, game="G1")
    assert "Only a team's captain or a commissioner can check a lineup" in while_coach_is_in.content
    await check_in(harness, league, ("Alice Hart",), game="G1", status="out")  # the coach can't make G1
    coach_out = await harness.slash("/lineup", as_=carl, game="G1")
    assert coach_out.ephemeral and "Hawks lineup" in coach_out.text
    coach_back = await harness.slash("/lineup", as_=carl, game="G3")
    assert "Only a team's captain or a commissioner can check a lineup" in coach_back.content

    # The coach marked away for the week of G3 (a /away range): the assistant acts for G3 too.
    away = await harness.slash("/away set", as_=league.player("Alice Hart"),
                               **{"from": "2030-01-18", "to": "2030-01-18"})
    assert away.ephemeral, away.content
    coach_away = await harness.slash("/lineup", as_=carl, game="G3")
    assert "Hawks lineup" in coach_away.text

    removed = await harness.slash("/team assistant", as_=league.commissioner(), member=carl, remove=True)
    assert "Carl Diaz is no longer Hawks's assistant coach." in removed.content
    gone = await harness.slash("/lineup", as_=carl, game="G1")
    assert "Only a team's captain or a commissioner can check a lineup" in gone.content


async def test_an_assistant_off_every_roster_needs_the_team_named(harness: Harness, league: SampleLeague) -> None:
    stranger = league.stranger()
    reply = await harness.slash("/team assistant", as_=league.commissioner(), member=stranger)
    assert reply.ephemeral and "name the team they coach" in reply.content
    named = await harness.slash("/team assistant", as_=league.commissioner(), member=stranger, team="Owls")
    assert "Stranger Sue is now Owls's assistant coach." in named.content
