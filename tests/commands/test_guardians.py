"""Players without a Discord account, managed by guardians, through the real command tree: added by a
captain or commissioner, checked in by their guardian, counted in /whoisin and /lineup, reminded through
the guardian, and out of reach of every other member."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import CheckIn, Player, PlayerGuardian
from tests.conftest import SampleLeague
from tests.harness import Harness, Member

G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
HAWKS_CHANNEL = 600_000_000_000_000_001


async def state(h: Harness) -> tuple[list[tuple[str, int | None]], list[tuple[str, int]], list[tuple[str, str]]]:
    """(players, guardians by player name, check-ins by player name): what a refusal must leave as it was."""
    async with h.bot.sessions() as s:
        players = [tuple(r) for r in (await s.execute(
            select(Player.name, Player.discord_id).order_by(Player.id))).all()]
        guardians = [tuple(r) for r in (await s.execute(
            select(Player.name, PlayerGuardian.discord_id).join(Player, Player.id == PlayerGuardian.player_id)
            .order_by(PlayerGuardian.id))).all()]
        checkins = [tuple(r) for r in (await s.execute(
            select(Player.name, CheckIn.status).join(Player, Player.id == CheckIn.player_id)
            .order_by(CheckIn.id))).all()]
    return players, guardians, checkins


async def two_juniors(h: Harness, league: SampleLeague) -> Member:
    """A parent (no roster place of their own) who manages two juniors on the Hawks."""
    parent = h.member("Parent Pat")
    captain = league.captain("Hawks")
    for name, gender in (("Junior Jo", "woman"), ("Junior Max", "man")):
        reply = await h.slash("/roster add", as_=captain, name=name, guardian=parent, gender=gender)
        assert reply.ephemeral and f"{name} is now on Hawks" in reply.content, reply.content
    return parent


async def test_a_guardian_checks_one_junior_in_and_the_lineup_counts_them(harness: Harness,
                                                                         league: SampleLeague) -> None:
    parent = await two_juniors(harness, league)
    players, guardians, _ = await state(harness)
    assert ("Junior Jo", None) in players and ("Junior Max", None) in players
    assert guardians == [("Junior Jo", parent.id), ("Junior Max", parent.id)]
    # Two players managed and none of their own: the guardian must say whom they answer for.
    ask = await harness.slash("/checkin", as_=parent, status="in", game="G1")
    assert ask.ephemeral and "You manage 2 players: pick whom you answer for" in ask.content, ask.content
    assert (await state(harness))[2] == []
    # Autocomplete offers their own two players, nobody else.
    choices = (await harness.autocomplete("/checkin", focused="player", as_=parent, status="in",
                                          player="")).autocomplete_choices
    assert [c["name"] for c in choices] == ["Junior Jo", "Junior Max"]
    jo = next(c["value"] for c in choices if c["name"] == "Junior Jo")
    done = await harness.slash("/checkin", as_=parent, status="in", game="G1", player=jo)
    assert done.ephemeral and done.content.startswith("**Junior Jo** is **in** ✅ for Hawks vs Owls"), done.content
    assert (await state(harness))[2] == [("Junior Jo", "in")]
    # By name too, and the captain's views count them like anyone else.
    await harness.slash("/checkin", as_=parent, status="out", game="G1", player="junior max")
    whoisin = await harness.slash("/whoisin", as_=league.captain("Hawks"), game="G1")
    assert "Junior Jo" in whoisin.text.split("❌ Out")[0] and "Junior Max" in whoisin.text.split("❌ Out")[1]
    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert "In (1)" in lineup.text and "Junior Jo (W/NB)" in lineup.text, lineup.text
    assert "<@None>" not in lineup.text + whoisin.text
    # The guardian's own /whoisin shows their juniors' team.
    own = await harness.slash("/whoisin", as_=parent, game="G1")
    assert own.ephemeral and "Hawks: who's in" in own.text and "Junior Jo" in own.text
    roster = await harness.slash("/roster show", as_=league.captain("Hawks"))
    assert f"Junior Jo (no Discord account; guardian: <@{parent.id}>)" in roster.text
    assert "<@None>" not in roster.text


async def test_another_member_can_neither_see_nor_change_a_guardians_players(harness: Harness,
                                                                           league: SampleLeague) -> None:
    parent = await two_juniors(harness, league)
    await harness.slash("/checkin", as_=parent, status="in", game="G1", player="Junior Jo")
    before = await state(harness)
    for other in (league.player("Alice Hart"), league.stranger(), harness.member("Other Parent")):
        choices = (await harness.autocomplete("/checkin", focused="player", as_=other, status="in",
                                              player="Jun")).autocomplete_choices
        assert choices == []
        reply = await harness.slash("/checkin", as_=other, status="out", game="G1", player="Junior Jo")
        assert reply.ephemeral and "You don't manage a player called “Junior Jo”" in reply.content, reply.content
        ids = [str(p) for p in range(1, 50)]
        for value in ids[:3]:  # a guessed id of the autocomplete's kind reads the same
            guessed = await harness.slash("/checkin", as_=other, status="out", game="G1", player=value)
            assert guessed.ephemeral and "You don't manage a player called" in guessed.content
        added = await harness.slash("/roster guardian add", as_=other, player="Junior Jo", guardian=other)
        assert added.ephemeral and "You can't add a guardian to “Junior Jo”" in added.content
        assert "Hawks" not in added.content  # nothing said about whose player it is
    assert await state(harness) == before
    # A captain of another team can't add one either; the Hawks' captain can.
    refused = await harness.slash("/roster guardian add", as_=league.captain("Owls"), player="Junior Jo",
                                  guardian=league.captain("Owls"))
    assert "You can't add a guardian" in refused.content
    assert await state(harness) == before
    grandma = harness.member("Grandma Gail")
    ok = await harness.slash("/roster guardian add", as_=league.captain("Hawks"), player="Junior Jo", guardian=grandma)
    assert ok.ephemeral and f"<@{grandma.id}> now manages Junior Jo (2 guardians)" in ok.content, ok.content
    assert ok.first.allowed_mentions == {"parse": []}
    # The new guardian answers for Jo, and only Jo.
    answer = await harness.slash("/checkin", as_=grandma, status="maybe", game="G1")
    assert answer.content.startswith("Changed: **Junior Jo** is now a **maybe**"), answer.content


async def test_roster_add_needs_a_member_or_a_name_and_guardian(harness: Harness, league: SampleLeague) -> None:
    captain = league.captain("Hawks")
    before = await state(harness)
    for options in ({"name": "Junior Jo"}, {}, {"name": "Junior Jo", "guardian": harness.member("P"),
                                                 "player": harness.member("Q")}):
        reply = await harness.slash("/roster add", as_=captain, **options)
        assert reply.ephemeral and "Nothing changed." in reply.content, reply.content
    refused = await harness.slash("/roster add", as_=league.player("Alice Hart"), name="Junior Jo",
                                  guardian=harness.member("P2"))
    assert refused.ephemeral and "Only Hawks's captain or a commissioner" in refused.content
    assert await state(harness) == before


async def test_the_guardians_reminder_reaches_the_guardian_and_its_buttons_answer_for_the_junior(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    parent = await two_juniors(harness, league)
    league_id = harness.bot.league_ids[harness.default_guild]
    clock.set(G1_START - timedelta(hours=48))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()  # the DMs the channel reminder queued
    (post,) = harness.discord.channel_messages(HAWKS_CHANNEL)
    assert "<@None>" not in post.content and str(parent.id) not in post.content
    dms = harness.discord.dms(parent.id)
    assert sorted(d.content.split("\n")[1] for d in dms) == [
        "Is **Junior Jo** in? Tap a button below to answer for them.",
        "Is **Junior Max** in? Tap a button below to answer for them."]
    jo_dm = next(d for d in dms if "Junior Jo" in d.content)
    async with harness.bot.sessions() as s:
        jo_id = await s.scalar(select(Player.id).where(Player.name == "Junior Jo"))
    assert jo_dm.custom_ids() == [f"sideline:checkin@{league_id}:G1:{s}:p{jo_id}" for s in ("in", "out", "maybe")]
    # The guardian presses In in the DM: Jo is in. Someone else pressing the same button changes nothing.
    from tests.commands.checkins.test_checkin import press
    stranger = await press(harness, jo_dm.custom_ids()[1], as_=league.player("Alice Hart"), dm=True)
    assert stranger.ephemeral and "That button isn't for you" in stranger.content, stranger.content
    # In the server, the same press by a member who doesn't manage Jo is refused too.
    in_server = await press(harness, jo_dm.custom_ids()[1], as_=league.player("Alice Hart"))
    assert in_server.ephemeral and "player you don't manage" in in_server.content, in_server.content
    assert (await state(harness))[2] == []
    pressed = await press(harness, jo_dm.custom_ids()[0], as_=parent, dm=True)
    assert pressed.ephemeral and pressed.content.startswith("**Junior Jo** is **in** ✅"), pressed.content
    assert (await state(harness))[2] == [("Junior Jo", "in")]
    # The next reminder time DMs only for the junior who hasn't answered.
    clock.set(G1_START - timedelta(hours=2))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    later = harness.discord.dms(parent.id)[len(dms):]
    assert later and all("Junior Max" in d.content for d in later)


async def test_a_guardian_sets_away_for_one_junior_and_nobody_else_can(harness: Harness,
                                                                      league: SampleLeague) -> None:
    parent = await two_juniors(harness, league)
    ask = await harness.slash("/away set", as_=parent, **{"from": "2030-01-11", "to": "2030-01-11"})
    assert ask.ephemeral and "You manage 2 players: pick whom" in ask.content, ask.content
    other = await harness.slash("/away set", as_=league.player("Alice Hart"), player="Junior Max",
                                **{"from": "2030-01-11", "to": "2030-01-11"})
    assert other.ephemeral and "You don't manage a player called “Junior Max”" in other.content
    saved = await harness.slash("/away set", as_=parent, player="Junior Max",
                                **{"from": "2030-01-11", "to": "2030-01-11"})
    assert saved.ephemeral and saved.content.startswith("Saved: **Junior Max** is away **2030-01-11"), saved.content
    assert "`G1`" in saved.content
    listed = await harness.slash("/away list", as_=parent, player="Junior Max")
    assert listed.content.startswith("For **Junior Max**: • **2030-01-11 to 2030-01-11**"), listed.content
    whoisin = await harness.slash("/whoisin", as_=league.captain("Hawks"), game="G1")
    assert "🧳 Out (away) (1)\nJunior Max" in whoisin.text, whoisin.text
    cleared = await harness.slash("/away clear", as_=parent, player="Junior Max")
    assert cleared.content.startswith("For **Junior Max**: Cleared 1 away range."), cleared.content


async def test_a_junior_checked_in_is_on_the_game_sheet_and_in_the_statistics(harness: Harness,
                                                                             league: SampleLeague) -> None:
    parent = await two_juniors(harness, league)
    await harness.slash("/checkin", as_=parent, status="in", game="G1", player="Junior Jo")
    sheet = await harness.slash("/gamesheet show", as_=league.captain("Hawks"), game="G1", team="Hawks")
    assert "Junior Jo" in sheet.text and "Junior Max" not in sheet.text and "<@None>" not in sheet.text, sheet.text
    harness.bot.clock.set(G1_START + timedelta(hours=2))  # type: ignore[attr-defined]
    entered = await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0,
                                  decided="regulation")
    assert "Recorded game G1" in entered.text, entered.text
    stats = await harness.slash("/stats team", as_=league.captain("Hawks"), team="Hawks")
    rows = [r for r in stats.text.split("```")[1].strip().split("\n") if r.startswith("Junior Jo")]
    assert len(rows) == 1 and rows[0].split()[2] == "1", stats.text  # one game played
    assert "<@None>" not in stats.text


async def test_the_team_reminders_buttons_answer_for_a_guardians_only_junior(harness: Harness,
                                                                            league: SampleLeague) -> None:
    parent = harness.member("Parent Pam")
    await harness.slash("/roster add", as_=league.commissioner(), name="Junior Lu", guardian=parent, team="Hawks")
    league_id = harness.bot.league_ids[harness.default_guild]
    reply = await harness.press(f"sideline:checkin@{league_id}:G1:maybe", as_=parent)
    assert reply.ephemeral and reply.content.startswith("**Junior Lu** is a **maybe** ❔"), reply.content
    await harness.slash("/roster add", as_=league.commissioner(), name="Junior Lea", guardian=parent, team="Hawks")
    two = await harness.press(f"sideline:checkin@{league_id}:G1:in", as_=parent)
    assert two.ephemeral and "You manage 2 players: pick whom you answer for" in two.content, two.content
    assert (await state(harness))[2] == [("Junior Lu", "maybe")]


async def test_a_guardian_sees_their_own_players_profile_and_nobody_elses(harness: Harness,
                                                                         league: SampleLeague) -> None:
    parent = await two_juniors(harness, league)
    mine = await harness.slash("/profile show", as_=parent, player="Junior Jo")
    assert mine.ephemeral and "**Junior Jo's profile in Coed League** (only you, as their guardian" in mine.text
    assert "Team: Hawks (skater)" in mine.text and "Gender: woman" in mine.text, mine.text
    for other in (league.player("Alice Hart"), harness.member("Other Parent")):
        refused = await harness.slash("/profile show", as_=other, player="Junior Jo")
        assert refused.ephemeral and "You don't manage a player called “Junior Jo”" in refused.text
        assert "woman" not in refused.text


async def test_a_captain_removes_a_junior_by_name_and_nobody_else_can(harness: Harness,
                                                                     league: SampleLeague) -> None:
    await two_juniors(harness, league)
    before = await state(harness)
    for who in (league.player("Alice Hart"), league.captain("Owls")):
        refused = await harness.slash("/roster remove", as_=who, name="Junior Max")
        assert refused.ephemeral and "Only Hawks's captain or a commissioner can do that." in refused.text, refused.text
    neither = await harness.slash("/roster remove", as_=league.captain("Hawks"))
    assert neither.ephemeral and "Nothing changed." in neither.text
    assert await state(harness) == before
    suggested = await harness.autocomplete("/roster remove", focused="name", as_=league.captain("Hawks"), name="max")
    (choice,) = suggested.autocomplete_choices
    removed = await harness.slash("/roster remove", as_=league.captain("Hawks"), name=choice["value"])
    assert removed.ephemeral and removed.text.startswith("Junior Max was removed from Hawks"), removed.text
    roster = await harness.slash("/roster show", as_=league.captain("Hawks"))
    assert "Junior Jo" in roster.text and "Junior Max" not in roster.text, roster.text
