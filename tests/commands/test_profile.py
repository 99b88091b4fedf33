"""/profile through the real command tree: a player's own data, shown only to them, forgettable."""

from __future__ import annotations

from sqlalchemy import func, select

from storage.models import CheckIn, Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness


async def player_row(h: Harness, name: str) -> tuple[str | None, int, int]:
    """(gender, check-ins, roster entries) stored for a player."""
    async with h.bot.sessions() as s:
        player = await s.scalar(select(Player).where(Player.name == name))
        assert player is not None
        checkins = await s.scalar(select(func.count()).select_from(CheckIn).where(CheckIn.player_id == player.id))
        entries = await s.scalar(select(func.count()).select_from(RosterEntry)
                                 .where(RosterEntry.player_id == player.id))
        return player.gender, checkins or 0, entries or 0


async def test_profile_show_is_private_and_shows_the_callers_own_data(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/profile show", as_=league.player("Alice Hart"))
    assert reply.ephemeral
    assert "Your profile in Coed League" in reply.content
    assert "Name: Alice Hart" in reply.content and "Team: Hawks (skater)" in reply.content
    assert "Gender: woman (counts toward the women/non-binary minimum)" in reply.content
    assert "Bea Quinn" not in reply.text
    assert reply.sent_messages() == []  # nothing posted in a channel


async def test_profile_gender_sets_it(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/profile gender", as_=league.player("Vic Hale"), value="non-binary")
    assert reply.ephemeral and "Saved: your gender is **non-binary**" in reply.content
    assert (await player_row(harness, "Vic Hale"))[0] == "non-binary"
    shown = await harness.slash("/profile show", as_=league.player("Vic Hale"))
    assert "Gender: non-binary" in shown.content
    roster = await harness.slash("/roster show", as_=league.captain("Owls"))  # the captain sees it too
    assert "Vic Hale · non-binary" in roster.text


async def test_profile_forget_removes_gender_and_checkins_and_keeps_the_roster_place(
        harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    await harness.slash("/checkin", as_=alice, status="in", game="G1")
    await harness.slash("/checkin", as_=alice, status="maybe", game="G3")
    await harness.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    reply = await harness.slash("/profile forget", as_=alice)
    assert reply.ephemeral
    assert "Removed from Coed League: your gender and 2 check-in answers." in reply.content
    assert "Kept: your place on Hawks" in reply.content
    assert await player_row(harness, "Alice Hart") == (None, 0, 1)
    assert await player_row(harness, "Bea Quinn") == ("woman", 1, 1)  # nobody else's data
    shown = await harness.slash("/profile show", as_=alice)
    assert "Gender: not set" in shown.content and "Check-in answers kept: 0" in shown.content
    again = await harness.slash("/profile forget", as_=alice)
    assert "keeps no personal data about you: nothing to remove" in again.content


async def test_someone_on_no_roster_has_no_profile(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/profile show", as_=league.stranger())
    assert reply.ephemeral and "keeps no profile for you" in reply.content
    reply = await harness.slash("/profile gender", as_=league.stranger(), value="woman")
    assert reply.ephemeral and "keeps no profile for you" in reply.content
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Player)
                              .where(Player.discord_id == league.stranger().id)) == 0
    reply = await harness.slash("/profile forget", as_=league.stranger())
    assert "nothing to remove" in reply.content
