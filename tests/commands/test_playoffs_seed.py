"""Seeding you can settle: co-ed seeds by record then goals for; a tie that remains is settled
by `/bracket seed` (audited), not by points; a team disqualified under youth 1.22 is left out of the draw."""

from __future__ import annotations

from sqlalchemy import func, select

from storage.models import PlayoffBracket, PlayoffDisqualification, SeedingDecision
from tests.conftest import SampleLeague
from tests.harness import Harness


async def season_with_a_tie(h: Harness, league: SampleLeague) -> None:
    """Everyone 1-1 (.500). Goals for: Owls 6, Hawks 4, Bears 2, Wolves 2; Bears and Wolves level on all."""
    h.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    for game, home, away in (("G1", 3, 1), ("G3", 5, 1), ("G2", 2, 0), ("G4", 2, 0)):
        reply = await h.slash("/result enter", as_=league.referee(), game=game, home=home, away=away,
                              decided="regulation")
        assert "Recorded" in reply.content, reply.content


async def seeds(h: Harness) -> list[str] | None:
    async with h.bot.sessions() as s:
        row = await s.scalar(select(PlayoffBracket))
        return list(row.seeds) if row else None


async def test_a_record_tie_is_seeded_by_goals_for_then_by_the_commissioner(
        harness: Harness, league: SampleLeague) -> None:
    await season_with_a_tie(harness, league)
    table = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    assert " GF " in table.text.splitlines()[2] or " GF " in table.text  # goals for is in the co-ed table
    created = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert await seeds(harness) == ["Owls", "Hawks", "Bears", "Wolves"]  # Owls over Hawks on goals for
    assert "Level on every seeding criterion, placed by name for now: Bears, Wolves" in created.text
    assert "/bracket seed teams:Bears, Wolves" in created.text and "/standings adjust" not in created.text

    refused = await harness.slash("/bracket seed", as_=league.player("Alice Hart"), teams="Wolves, Bears")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    not_level = await harness.slash("/bracket seed", as_=league.commissioner(), teams="Hawks, Owls")
    assert not_level.ephemeral and "aren't the teams of one group level" in not_level.content
    unknown = await harness.slash("/bracket seed", as_=league.commissioner(), teams="Wolves, Lynx")
    assert unknown.ephemeral and "No team called Lynx" in unknown.content
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(SeedingDecision)) == 0
    assert await seeds(harness) == ["Owls", "Hawks", "Bears", "Wolves"]

    settled = await harness.slash("/bracket seed", as_=league.commissioner(), teams="wolves, Bears")
    assert settled.ephemeral and "Seeding order recorded: Wolves, Bears; the bracket is seeded again" in settled.text
    assert await seeds(harness) == ["Owls", "Hawks", "Wolves", "Bears"]
    async with harness.bot.sessions() as s:
        (decision,) = (await s.scalars(select(SeedingDecision))).all()
    assert decision.made_by == league.commissioner().id and len(decision.team_ids) == 2

    again = await harness.slash("/bracket create", as_=league.commissioner(), teams=4, replace=True)
    assert await seeds(harness) == ["Owls", "Hawks", "Wolves", "Bears"], "a new draw keeps the order"
    assert "placed by name" not in again.text


async def test_a_disqualified_team_is_left_out_of_the_draw(harness: Harness, league: SampleLeague) -> None:
    await season_with_a_tie(harness, league)
    refused = await harness.slash("/standings adjust", as_=league.captain("Hawks"), team="Owls", reason="brawl",
                                  disqualify=True)
    assert "Only a commissioner" in refused.content
    nothing = await harness.slash("/standings adjust", as_=league.commissioner(), team="Owls", reason="brawl")
    assert nothing.ephemeral and "Give the points" in nothing.content
    done = await harness.slash("/standings adjust", as_=league.commissioner(), team="Owls",
                               reason="rule 1.22: bench brawl", disqualify=True)
    assert done.ephemeral and "Owls is disqualified from the playoffs" in done.content
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(PlayoffDisqualification)) == 1
    four = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert four.ephemeral and "only 3 teams in the draw" in four.content
    assert await seeds(harness) is None
    await harness.slash("/bracket create", as_=league.commissioner(), teams=3)
    assert await seeds(harness) == ["Hawks", "Bears", "Wolves"]
    twice = await harness.slash("/standings adjust", as_=league.commissioner(), team="Owls", reason="again",
                                disqualify=True)
    assert "already disqualified" in twice.content
