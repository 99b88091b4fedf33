"""A junior without a Discord account counts like anyone else in play, through the real command tree: an
official puts them on a game sheet and credits goals, assists and penalties by name (members are still
picked as members), and /stats player finds them by name, or as a guardian's own player by default."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from storage.models import GameSheetEntry, Goal, Penalty, PlayerGuardian, Spare
from tests.conftest import SampleLeague
from tests.harness import Harness, Member

BEFORE_G1 = datetime(2030, 1, 11, 22, 0, tzinfo=UTC)  # G1, Hawks v Owls, starts at 00:00 UTC on the 12th
DURING_G1 = datetime(2030, 1, 12, 0, 40, tzinfo=UTC)
AFTER_G1 = datetime(2030, 1, 12, 3, 0, tzinfo=UTC)


async def counts(h: Harness) -> tuple[int, int, int]:
    """(sheet lines, goals, penalties): what a refusal must leave as it was."""
    async with h.bot.sessions() as s:
        return (await s.scalar(select(func.count()).select_from(GameSheetEntry)) or 0,
                await s.scalar(select(func.count()).select_from(Goal)) or 0,
                await s.scalar(select(func.count()).select_from(Penalty)) or 0)


async def junior(h: Harness, league: SampleLeague) -> Member:
    """Jo Dale on the Hawks, managed by a parent who plays nowhere; Alice checked in for G1."""
    parent = h.member("Parent Pat")
    added = await h.slash("/roster add", as_=league.captain("Hawks"), name="Jo Dale", guardian=parent)
    assert "Jo Dale is now on Hawks" in added.text, added.text
    h.bot.clock.set(BEFORE_G1)  # type: ignore[attr-defined]
    await h.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G1")
    h.bot.clock.set(DURING_G1)  # type: ignore[attr-defined]
    return parent


async def test_an_official_puts_a_junior_on_the_sheet_and_credits_them_by_name(harness: Harness,
                                                                              league: SampleLeague) -> None:
    await junior(harness, league)
    ref = league.referee()
    choices = (await harness.autocomplete("/gamesheet add", focused="name", as_=ref, game="G1",
                                          name="jo")).autocomplete_choices
    assert [c["name"] for c in choices] == ["Jo Dale"]
    before = await counts(harness)
    for options, words in (({"player": league.player("Alice Hart"), "name": "Jo Dale"}, "not both"),
                           ({}, "Pick the player"), ({"name": "Nobody Here"}, "No player called")):
        refused = await harness.slash("/gamesheet add", as_=ref, game="G1", **options)
        assert refused.ephemeral and words in refused.text, refused.text
    assert await counts(harness) == before

    added = await harness.slash("/gamesheet add", as_=ref, game="G1", name=choices[0]["value"], number=9)
    assert added.ephemeral and "Jo Dale is on Hawks's sheet for `G1`." in added.text, added.text
    shown = await harness.slash("/gamesheet show", as_=league.captain("Hawks"), game="G1", team="Hawks")
    assert "Jo Dale" in shown.text and "<@None>" not in shown.text

    goal = await harness.slash("/goal add", as_=league.timekeeper(), game="G1", team="Hawks", scorer_name="jo dale",
                               assist1=league.player("Alice Hart"))
    assert "Goal #1 in `G1`: Jo Dale (Hawks), assisted by Alice Hart. Recorded." in goal.text, goal.text
    other = await harness.slash("/goal add", as_=ref, game="G1", team="Hawks", scorer=league.player("Alice Hart"),
                                assist1_name="Jo Dale")
    assert "Alice Hart (Hawks), assisted by Jo Dale. Recorded." in other.text, other.text
    before = await counts(harness)
    for options, words in (({"scorer_name": "Jo Dale", "assist1_name": "Jo Dale"}, "name each once"),
                           ({"scorer": league.player("Alice Hart"), "scorer_name": "Jo Dale"}, "not both"),
                           ({}, "Pick the scorer"), ({"scorer_name": "Omar Fox"}, "not on the team's game sheet")):
        refused = await harness.slash("/goal add", as_=ref, game="G1", team="Hawks", **options)
        assert refused.ephemeral and words in refused.text, (options, refused.text)
    assert await counts(harness) == before

    called = await harness.slash("/penalty", as_=ref, game="G1", infraction="tripping", name="Jo Dale")
    assert called.ephemeral and "recorded" in called.text and "Jo Dale" in called.text, called.text
    both = await harness.slash("/penalty", as_=ref, game="G1", infraction="tripping", name="Jo Dale",
                               player=league.player("Alice Hart"))
    assert both.ephemeral and "not both" in both.text
    assert (await counts(harness))[2] == 1


async def test_stats_for_a_junior_by_name_and_for_their_guardian_by_default(harness: Harness,
                                                                          league: SampleLeague) -> None:
    parent = await junior(harness, league)
    ref = league.referee()
    await harness.slash("/gamesheet add", as_=ref, game="G1", name="Jo Dale")
    for _ in range(2):
        await harness.slash("/goal add", as_=ref, game="G1", team="Hawks", scorer_name="Jo Dale",
                            assist1=league.player("Alice Hart"))
    harness.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    result = await harness.slash("/result enter", as_=ref, game="G1", home=2, away=0, decided="regulation")
    assert "Recorded" in result.text, result.text

    anyone = await harness.slash("/stats player", as_=league.player("Omar Fox"), name="Jo Dale")
    embed = anyone.first.embeds[0]
    assert anyone.ephemeral and embed["title"].startswith("Jo Dale · Hawks"), embed
    assert "**GP** 1 · **G** 2 · **A** 0 · **PTS** 2" in embed["description"], embed
    own = await harness.slash("/stats player", as_=parent)
    mine = own.first.embeds[0]
    assert mine["title"].startswith("Jo Dale · Hawks") and "**G** 2" in mine["description"], mine
    alice = await harness.slash("/stats player", as_=league.player("Omar Fox"), member=league.player("Alice Hart"))
    assert "**A** 2" in alice.first.embeds[0]["description"], "members are still picked as members"

    stranger = await harness.slash("/stats player", as_=harness.member("Nobody Else"))
    assert stranger.ephemeral and "You aren't a player" in stranger.text, stranger.text
    unknown = await harness.slash("/stats player", as_=parent, name="Jo Nobody")
    assert unknown.ephemeral and "No player called" in unknown.text, unknown.text


async def guardians(h: Harness) -> list[int]:
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(PlayerGuardian.discord_id).order_by(PlayerGuardian.id))).all())


async def test_guardians_are_removed_by_the_captain_or_step_down_but_never_the_last(harness: Harness,
                                                                                 league: SampleLeague) -> None:
    parent = await junior(harness, league)
    other = harness.member("Other Parent")
    cap = league.captain("Hawks")
    alone = await harness.slash("/roster guardian remove", as_=cap, player="Jo Dale", guardian=parent)
    assert alone.ephemeral and "only guardian" in alone.text and "Nothing changed" in alone.text, alone.text
    stay = await harness.slash("/roster guardian remove", as_=parent, player="Jo Dale")
    assert stay.ephemeral and "only guardian" in stay.text, stay.text
    assert await guardians(harness) == [parent.id]

    await harness.slash("/roster guardian add", as_=cap, player="Jo Dale", guardian=other)
    # Nobody else removes a guardian: another team's captain, a player, a stranger.
    for who in (league.captain("Owls"), league.player("Omar Fox"), harness.member("Nobody Else")):
        refused = await harness.slash("/roster guardian remove", as_=who, player="Jo Dale", guardian=other)
        assert refused.ephemeral and "can't remove a guardian" in refused.text, refused.text
    # Another guardian can't remove their co-guardian, only themself.
    refused = await harness.slash("/roster guardian remove", as_=other, player="Jo Dale", guardian=parent)
    assert refused.ephemeral and "can't remove a guardian" in refused.text, refused.text
    not_one = await harness.slash("/roster guardian remove", as_=cap, player="Jo Dale", guardian=cap)
    assert not_one.ephemeral and "doesn't manage Jo Dale" in not_one.text, not_one.text
    assert await guardians(harness) == [parent.id, other.id]

    choices = (await harness.autocomplete("/roster guardian remove", focused="player", as_=other,
                                          player="")).autocomplete_choices
    assert [c["name"] for c in choices] == ["Jo Dale"], "a guardian is offered their own player to step down from"
    down = await harness.slash("/roster guardian remove", as_=other, player=choices[0]["value"])
    assert down.ephemeral and down.text == "You no longer manage Jo Dale (1 guardian left).", down.text
    assert await guardians(harness) == [parent.id]

    await harness.slash("/roster guardian add", as_=league.commissioner(), player="Jo Dale", guardian=other)
    removed = await harness.slash("/roster guardian remove", as_=cap, player="Jo Dale", guardian=parent)
    assert removed.text == f"<@{parent.id}> no longer manages Jo Dale (1 guardian left).", removed.text
    assert removed.first.allowed_mentions == {"parse": []}
    assert await guardians(harness) == [other.id]
    gone = await harness.slash("/checkin", as_=parent, status="in", game="G2", player="Jo Dale")
    assert gone.ephemeral and "don't manage" in gone.text, "a removed guardian answers for the player no more"


async def test_a_guardian_cannot_sign_a_junior_up_as_a_spare_and_is_told_why(harness: Harness,
                                                                          league: SampleLeague) -> None:
    parent = await junior(harness, league)
    choices = (await harness.autocomplete("/spare join", focused="player", as_=parent, positions="skater",
                                          player="")).autocomplete_choices
    assert [c["name"] for c in choices] == ["Jo Dale"]
    refused = await harness.slash("/spare join", as_=parent, positions="skater", player=choices[0]["value"])
    assert refused.ephemeral and "Jo Dale can't join the spare list yet" in refused.text, refused.text
    assert "Nothing changed" in refused.text and "game sheet by name" in refused.text
    stranger = await harness.slash("/spare join", as_=league.player("Omar Fox"), positions="skater", player="Jo Dale")
    assert stranger.ephemeral and "You don't manage a player called" in stranger.text, stranger.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Spare)) == 0
    own = await harness.slash("/spare join", as_=parent, positions="skater")
    assert "You're now on" in own.text, "the guardian may still join as themself"
