"""/checkin, /whoisin and the In / Out / Maybe buttons through the real command tree."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.clock import FixedClock
from bot.run.app import create_bot
from bot.services.checkins.service import CheckInService
from cogs.checkins._buttons import checkin_view, custom_id_for
from storage.db import create_engine
from storage.models import CheckIn, Game, League, Player
from tests.conftest import (
    GUILD,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    SampleLeague,
    league_config,
    make_settings,
    suspend_by_check,
)
from tests.harness import Harness, Member, Reply
from tests.harness.fake_discord import next_id

GENDER_WORDS = re.compile(r"\b(woman|women|non-binary|man|men|gender|prefer-not-to-say)\b", re.IGNORECASE)


async def checkin_rows(h: Harness) -> list[tuple[str, str, str, str]]:
    """(league key, game code, player name, status) for every check-in in the database."""
    async with h.bot.sessions() as s:
        rows = await s.execute(
            select(League.key, Game.code, Player.name, CheckIn.status)
            .join(Game, CheckIn.game_id == Game.id).join(Player, CheckIn.player_id == Player.id)
            .join(League, CheckIn.league_id == League.id)
            .order_by(League.key, Game.code, Player.name))
        return [tuple(r) for r in rows.all()]


async def set_game_status(h: Harness, code: str, status: str, league_key: str = "coed") -> None:
    async with h.bot.sessions.begin() as s:
        league_id = await s.scalar(select(League.id).where(League.key == league_key))
        await s.execute(update(Game).where(Game.league_id == league_id, Game.code == code).values(status=status))


async def press(h: Harness, custom_id: str, *, as_: Member, guild_id: int | None = None, dm: bool = False) -> Reply:
    """Press a button on a message that carries it, as Discord sends it (``dm``: in a DM, no server).

    discord.py rebuilds a DynamicItem from the pressed message's components, so the message in
    the payload must contain the button (``Harness.press`` sends a message with none).
    """
    guild_id = None if dm else guild_id or h.default_guild
    channel = next_id() if guild_id is None else (h.channels.get(guild_id) or [next_id()])[0]
    message: dict[str, Any] = {
        "id": str(next_id()), "channel_id": str(channel), "type": 0, "content": "Game reminder",
        "author": h.discord.bot_user, "embeds": [], "attachments": [], "mentions": [],
        "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
        "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "flags": 0,
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Button", "custom_id": custom_id}]}],
    }
    data = {"custom_id": custom_id, "component_type": 2}
    payload = h._base(3, as_, guild_id, channel, data, message)
    if guild_id is None:
        payload["channel"], payload["channel_id"] = {"id": str(channel), "type": 1}, str(channel)
    return await h._feed(payload)


# --- by command -------------------------------------------------------------------------------
async def test_checkin_defaults_to_the_teams_next_game_and_is_stored(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in")
    assert reply.ephemeral
    assert reply.content.startswith("You're **in** ✅ for Hawks vs Owls, <t:1894406400:F> (`G1`)")
    assert reply.first.allowed_mentions == {"parse": []}
    assert await checkin_rows(harness) == [("coed", "G1", "Alice Hart", "in")]


async def test_without_a_game_the_next_scheduled_one_counts_until_none_is_left(harness: Harness, league: SampleLeague,
                                                                              clock: FixedClock) -> None:
    """The next game comes with the check-in's one read: a cancelled one is skipped, and with none
    ahead the player is told so and nothing is written."""
    await set_game_status(harness, "G1", "cancelled")
    reply = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in")
    assert reply.content.startswith("You're **in** ✅ for Owls vs Hawks") and "(`G3`)" in reply.content
    clock.set(datetime(2031, 1, 1, tzinfo=UTC))  # after every game
    late = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="out")
    assert late.ephemeral and "Hawks has no upcoming games" in late.content
    assert await checkin_rows(harness) == [("coed", "G3", "Alice Hart", "in")]


async def test_changing_the_answer_overwrites_it(harness: Harness, league: SampleLeague) -> None:
    carl = league.player("Carl Diaz")
    await harness.slash("/checkin", as_=carl, status="in", game="G3")
    await harness.slash("/checkin", as_=carl, status="maybe", game="G3")
    reply = await harness.slash("/checkin", as_=carl, status="out", game="G3")
    assert "Changed: you're now **out** ❌ for Owls vs Hawks" in reply.content and "(was maybe)" in reply.content
    assert await checkin_rows(harness) == [("coed", "G3", "Carl Diaz", "out")]
    again = await harness.slash("/checkin", as_=carl, status="out", game="G3")
    assert "already **out**" in again.content


async def test_checkin_autocomplete_suggests_games(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/checkin", focused="game", game="owls", status="in",
                                       as_=league.player("Alice Hart"))
    assert [c["value"] for c in reply.autocomplete_choices] == ["G1", "G3", "G6"]


# --- refusals: nothing written ------------------------------------------------------------------
@pytest.mark.parametrize(("game", "status", "expected"), [
    ("NOPE", None, "There's no game “NOPE” in Coed League"),
    ("G1", "cancelled", "G1 (Hawks vs Owls) was cancelled"),
    ("G1", "final", "G1 (Hawks vs Owls) has already been played; check-ins are closed"),
    ("G2", None, "Only players on Bears or Wolves can check in for G2"),
])
async def test_bad_games_are_refused_politely_and_nothing_is_written(
        harness: Harness, league: SampleLeague, game: str, status: str | None, expected: str) -> None:
    if status:
        await set_game_status(harness, game, status)
    reply = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game=game)
    assert reply.ephemeral
    assert expected in reply.content
    assert await checkin_rows(harness) == []


async def test_a_game_that_already_started_is_closed(harness: Harness, league: SampleLeague,
                                                     clock: FixedClock) -> None:
    clock.set(datetime(2030, 1, 12, 0, 30, tzinfo=UTC))  # G1 started 30 minutes ago
    reply = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G1")
    assert reply.ephemeral and "has already started; check-ins are closed" in reply.content
    assert await checkin_rows(harness) == []


async def test_someone_on_no_team_is_told_how_to_join(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/checkin", as_=league.stranger(), status="in")
    assert reply.ephemeral and "not on a team" in reply.content
    assert await checkin_rows(harness) == []


async def test_a_suspended_player_cannot_check_in(harness: Harness, league: SampleLeague,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    async def suspended(session: Any, *, league_id: int, player_id: int, game_id: int | None) -> str | None:
        name = await session.scalar(select(Player.name).where(Player.id == player_id))
        return "you're suspended for 2 more games (boarding)." if name == "Dan Roy" else None

    suspend_by_check(monkeypatch, harness.bot, suspended)
    reply = await harness.slash("/checkin", as_=league.player("Dan Roy"), status="in")
    assert reply.ephemeral
    assert reply.content == "You can't check in for G1: you're suspended for 2 more games (boarding)."
    assert await checkin_rows(harness) == []
    out = await harness.slash("/checkin", as_=league.player("Dan Roy"), status="out")
    assert "**out**" in out.content
    assert await checkin_rows(harness) == [("coed", "G1", "Dan Roy", "out")]


async def test_late_dropout_is_reported_and_hooks_are_called(harness: Harness, league: SampleLeague,
                                                             clock: FixedClock,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, int]] = []

    async def hook(league_id: int, game_id: int, player_id: int) -> None:
        calls.append((league_id, game_id, player_id))

    monkeypatch.setattr(harness.bot.services.checkins, "on_late_dropout", hook)
    clock.set(datetime(2030, 1, 11, 12, 0, tzinfo=UTC))  # 12 hours before G1
    alice = league.player("Alice Hart")
    await harness.slash("/checkin", as_=alice, status="in")
    reply = await harness.slash("/checkin", as_=alice, status="out")
    assert "your captains are told" in reply.content
    async with harness.bot.sessions() as s:
        game_id = await s.scalar(select(Game.id).where(Game.code == "G1"))
        player_id = await s.scalar(select(Player.id).where(Player.name == "Alice Hart"))
    assert calls == [(harness.bot.league_ids[harness.default_guild], game_id, player_id)]


# --- buttons --------------------------------------------------------------------------------------
def test_checkin_view_has_three_restart_safe_buttons() -> None:
    view = checkin_view("G1", 7)
    assert view.timeout is None and view.is_persistent()
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == ["sideline:checkin@7:G1:in", "sideline:checkin@7:G1:out", "sideline:checkin@7:G1:maybe"]
    longest = custom_id_for("X" * 64, "maybe", 10**9)
    assert len(longest) <= 100
    with pytest.raises(ValueError):
        custom_id_for("X" * 65, "in", 7)
    assert custom_id_for("G1", "in", None) == "sideline:checkin:G1:in"  # as sent before buttons named a league


async def test_checkin_by_button_is_stored_and_the_last_press_wins(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    reply = await press(harness, "sideline:checkin:G1:in", as_=bea)
    assert reply.ephemeral and "You're **in** ✅ for Hawks vs Owls" in reply.content
    assert await checkin_rows(harness) == [("coed", "G1", "Bea Quinn", "in")]
    reply = await press(harness, "sideline:checkin:G1:maybe", as_=bea)
    assert "now a **maybe**" in reply.content
    assert await checkin_rows(harness) == [("coed", "G1", "Bea Quinn", "maybe")]


async def test_buttons_keep_working_after_a_restart(harness: Harness, league: SampleLeague, db_url: str,
                                                    clock: FixedClock) -> None:
    settings = harness.bot.settings
    await harness.close()
    restarted = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock)).start()
    try:
        reply = await press(restarted, "sideline:checkin:G3:out", as_=league.player("Omar Fox"))
        assert "You're **out** ❌ for Owls vs Hawks" in reply.content
        assert await checkin_rows(restarted) == [("coed", "G3", "Omar Fox", "out")]
    finally:
        await restarted.close()


async def test_a_press_by_someone_on_neither_team_is_refused(harness: Harness, league: SampleLeague) -> None:
    for member in (league.stranger(), league.player("Walt Orr")):
        reply = await press(harness, "sideline:checkin:G1:in", as_=member)
        assert reply.ephemeral and "Only players on Hawks or Owls can check in for G1" in reply.content
    assert await checkin_rows(harness) == []


async def test_a_button_for_a_game_that_does_not_exist_is_refused(harness: Harness, league: SampleLeague) -> None:
    reply = await press(harness, "sideline:checkin:G99:in", as_=league.player("Alice Hart"))
    assert reply.ephemeral and "There's no game “G99”" in reply.content
    assert await checkin_rows(harness) == []


async def test_an_unexpected_error_in_a_button_shows_a_reference_not_a_traceback(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    async def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(CheckInService, "check_in", explode)
    reply = await press(harness, "sideline:checkin:G1:in", as_=league.player("Alice Hart"))
    assert reply.ephemeral and re.search(r"\(ref [0-9a-f]{6}\)", reply.content)
    assert "secret" not in reply.text


async def test_a_press_in_a_server_without_a_league_is_refused(harness: Harness, league: SampleLeague) -> None:
    harness.add_guild(999_999_999_999_999_999, "Elsewhere", [], [123])
    reply = await press(harness, "sideline:checkin:G1:in", as_=league.player("Alice Hart"),
                        guild_id=999_999_999_999_999_999)
    assert reply.ephemeral and "isn't set up for this server" in reply.content
    assert await checkin_rows(harness) == []


# --- buttons in DMs: the button names its league; only a player of the game may answer ------------
G2_REMINDER = datetime(2030, 1, 10, 1, 0, tzinfo=UTC)  # 48 h before G2, Bears vs Wolves (Wolves: no channel)
NOT_FOR_YOU = "That button isn't for you"


async def dmd_buttons(h: Harness, clock: FixedClock, member: Member) -> list[str]:
    """The In / Out / Maybe custom_ids of the G2 reminder DM'd to a Wolves player."""
    clock.set(G2_REMINDER)
    await h.bot.courier.deliver_due()
    (reminder,) = [m for m in h.discord.dms(member.id) if m.custom_ids()]
    assert "`G2`" in reminder.content
    return reminder.custom_ids()


async def test_checkin_buttons_on_dmd_reminders_work(harness: Harness, league: SampleLeague,
                                                     clock: FixedClock) -> None:
    """A press on a DM'd reminder answered "isn't set up for this server"."""
    eve = league.player("Eve Sato")
    in_, out, maybe = await dmd_buttons(harness, clock, eve)
    reply = await press(harness, in_, as_=eve, dm=True)
    assert reply.ephemeral and "You're **in** ✅ for Bears vs Wolves" in reply.content, reply.text
    reply = await press(harness, maybe, as_=eve, dm=True)
    assert reply.ephemeral and "now a **maybe**" in reply.content
    assert await checkin_rows(harness) == [("coed", "G2", "Eve Sato", "maybe")]
    # The same custom_id pressed by someone on neither team: refused, without naming the game or its teams.
    for someone in (league.stranger(), league.player("Alice Hart"), league.commissioner()):
        reply = await press(harness, out, as_=someone, dm=True)
        assert reply.ephemeral and NOT_FOR_YOU in reply.content, reply.text
        assert not re.search(r"Bears|Wolves|G2|Coed|went wrong", reply.text), reply.text
    assert await checkin_rows(harness) == [("coed", "G2", "Eve Sato", "maybe")]


async def test_a_dmd_button_pressed_after_the_game_started_says_so(harness: Harness, league: SampleLeague,
                                                                    clock: FixedClock) -> None:
    eve = league.player("Eve Sato")
    in_, *_ = await dmd_buttons(harness, clock, eve)
    clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))
    reply = await press(harness, in_, as_=eve, dm=True)
    assert reply.ephemeral and "has already started; check-ins are closed" in reply.content
    assert await checkin_rows(harness) == []


async def test_buttons_already_sent_without_a_league_still_work_in_a_dm(harness: Harness,
                                                                         league: SampleLeague) -> None:
    """Reminders DM'd before buttons named their league: the game code is looked up in the leagues
    where the presser plays that game, and only there."""
    reply = await press(harness, "sideline:checkin:G2:out", as_=league.player("Fay Lim"), dm=True)
    assert reply.ephemeral and "You're **out** ❌ for Bears vs Wolves" in reply.content, reply.text
    for someone, code in ((league.player("Alice Hart"), "G2"), (league.stranger(), "G1"),
                          (league.player("Fay Lim"), "G99")):
        reply = await press(harness, f"sideline:checkin:{code}:in", as_=someone, dm=True)
        assert reply.ephemeral and NOT_FOR_YOU in reply.content, reply.text
    assert await checkin_rows(harness) == [("coed", "G2", "Fay Lim", "out")]


# --- two leagues: a server's buttons and commands never reach another league ----------------------
OTHER_TEAMS = b"team,division,captain_discord_ids,channel_id\nSharks,East,500000000000000099,\nJets,East,,\n"
OTHER_PLAYERS = b"discord_id,name,team,position,gender\n500000000000000099,Sid Shark,Sharks,skater,man\n"
OTHER_GAMES = b"game_id,starts_at,home,away,venue,kind\nG1,2030-01-11 19:00,Sharks,Jets,Pond,regular\n" \
              b"OT9,2030-01-12 19:00,Jets,Sharks,Pond,regular\n"


@pytest.fixture
async def two_leagues(db_url: str, clock: FixedClock) -> AsyncIterator[tuple[Harness, SampleLeague]]:
    settings = make_settings(league_config(), league_config("other", OTHER_GUILD, roles=OTHER_ROLES,
                                                            channels=OTHER_CHANNELS))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock)).start()
    try:
        sample = await SampleLeague(h).load()
        importer = h.bot.services.imports.importer
        for kind, data in (("teams", OTHER_TEAMS), ("players", OTHER_PLAYERS), ("games", OTHER_GAMES)):
            await importer.run(kind, data, settings.leagues[1], now=clock.now())
        yield h, sample
    finally:
        await h.close()


async def test_a_game_of_another_server_is_not_found(two_leagues: tuple[Harness, SampleLeague]) -> None:
    h, sample = two_leagues
    reply = await h.slash("/checkin", as_=sample.player("Alice Hart"), status="in", game="OT9")
    assert reply.ephemeral and "There's no game “OT9” in Coed League" in reply.content
    assert await checkin_rows(h) == []


async def test_a_press_in_another_server_never_touches_this_league(two_leagues: tuple[Harness, SampleLeague]) -> None:
    h, sample = two_leagues
    # Alice plays for Hawks here; in the other server G1 is Sharks vs Jets, where she is nobody.
    reply = await press(h, "sideline:checkin:G1:in", as_=sample.player("Alice Hart"), guild_id=OTHER_GUILD)
    assert reply.ephemeral and "Only players on Sharks or Jets" in reply.content
    assert await checkin_rows(h) == []
    sid = Member(id=500_000_000_000_000_099, name="Sid Shark")
    await press(h, "sideline:checkin:G1:in", as_=sid, guild_id=OTHER_GUILD)
    assert await checkin_rows(h) == [("other", "G1", "Sid Shark", "in")]


async def test_a_button_names_its_league_and_forged_ids_reach_nothing(
        two_leagues: tuple[Harness, SampleLeague]) -> None:
    h, sample = two_leagues
    coed, other = h.bot.league_ids[GUILD], h.bot.league_ids[OTHER_GUILD]
    alice, sid = sample.player("Alice Hart"), Member(id=500_000_000_000_000_099, name="Sid Shark")
    # Sid plays only in the other league; the coed league's G1 is Hawks vs Owls.
    for guild_id, dm in ((None, True), (OTHER_GUILD, False)):
        reply = await press(h, f"sideline:checkin@{coed}:G1:in", as_=sid, guild_id=guild_id, dm=dm)
        assert reply.ephemeral and not re.search(r"Hawks|Owls|Coed|went wrong", reply.text), reply.text
    reply = await press(h, f"sideline:checkin@{coed}:G1:in", as_=sid, guild_id=GUILD)  # its own server's game
    assert reply.ephemeral and "Only players on Hawks or Owls can check in for G1" in reply.content
    # Alice plays only in the coed league: the other league's button, or a league that doesn't exist.
    for custom_id in (f"sideline:checkin@{other}:G1:in", "sideline:checkin@987654:G1:in"):
        reply = await press(h, custom_id, as_=alice, dm=True)
        assert reply.ephemeral and NOT_FOR_YOU in reply.content, reply.text
        assert not re.search(r"Sharks|Jets|Other|went wrong", reply.text), reply.text
    # A server's own button naming the other server's league is refused there too.
    reply = await press(h, f"sideline:checkin@{other}:G1:in", as_=alice, guild_id=GUILD)
    assert reply.ephemeral and "another server" in reply.content and "Sharks" not in reply.text
    assert await checkin_rows(h) == []
    # Each their own league's G1, from a DM; and an old button without a league, where only one fits.
    reply = await press(h, f"sideline:checkin@{other}:G1:in", as_=sid, dm=True)
    assert "You're **in** ✅ for Sharks vs Jets" in reply.content, reply.text
    reply = await press(h, f"sideline:checkin@{coed}:G1:out", as_=alice, dm=True)
    assert "You're **out** ❌ for Hawks vs Owls" in reply.content, reply.text
    reply = await press(h, "sideline:checkin:G1:maybe", as_=sid, dm=True)
    assert "now a **maybe** ❔ for Sharks vs Jets" in reply.content, reply.text
    assert await checkin_rows(h) == [("coed", "G1", "Alice Hart", "out"), ("other", "G1", "Sid Shark", "maybe")]


# --- /whoisin -------------------------------------------------------------------------------------
async def test_whoisin_lists_answers_and_never_gender(harness: Harness, league: SampleLeague) -> None:
    for name, status in (("Alice Hart", "in"), ("Gus Lee", "in"), ("Carl Diaz", "out"), ("Hana Kim", "maybe")):
        await harness.slash("/checkin", as_=league.player(name), status=status)
    await harness.slash("/checkin", as_=league.player("Omar Fox"), status="in")  # the other team
    reply = await harness.slash("/whoisin", as_=league.player("Dan Roy"))
    assert reply.ephemeral
    text = reply.text
    assert "Hawks: who's in for Hawks vs Owls" in text
    assert "✅ In (2)\nAlice Hart, Gus Lee (G)" in text
    assert "❌ Out (1)\nCarl Diaz" in text
    assert "❔ Maybe (1)\nHana Kim" in text
    assert "… No reply (4)\nBea Quinn, Dan Roy, Eli Park, Finn Cole" in text
    assert "Omar Fox" not in text
    assert not GENDER_WORDS.search(text), text


async def test_whoisin_for_someone_on_no_team(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/whoisin", as_=league.stranger())
    assert reply.ephemeral and "You're not on a team in this league" in reply.content


async def test_whoisin_for_another_teams_game_is_refused(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/whoisin", as_=league.player("Alice Hart"), game="G2")
    assert reply.ephemeral and "G2 is Bears vs Wolves, not a Hawks game" in reply.content
