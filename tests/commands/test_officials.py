"""The officials' game card (/game-card, and the card the game's referees get before it), arena duties on it
(/game duty and the "didn't set up" buttons) and the rules it states, through the real command tree.

Sample schedule (tests/data/games.csv), Toronto time: G1 Hawks v Owls and G2 Bears v Wolves on Friday
11 January at 19:00 and 20:00 (G1 is the day's first game: its teams set up; G2 is the week's last: its
teams clean up), G3/G4 the next Friday. Youth league unless said otherwise.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import GameDuty, MissedCleanup, OutboxMessage
from tests.commands.messages.test_relays import press_on
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Call, Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # Friday 11 January, 19:00 in Toronto
CARD_TIME = G1_START - timedelta(hours=2)  # the default game-card time
REF = 700_000_000_000_000_001
HAWKS_CAPTAIN = 500_000_000_000_000_001
REFS = CHANNELS["referees"]


@pytest.fixture
def settings() -> Settings:
    return YOUTH


def cards(calls: list[Call], game: str = "G1") -> list[Call]:
    return [c for c in calls if c.content.startswith("📋 **Game card") and f"`{game}`" in c.content]


def buttons(call: Call) -> list[tuple[str, str]]:
    return [(b["label"], b["custom_id"]) for row in call.components for b in row["components"]]


async def missed(h: Harness) -> list[tuple[str, str, str, int]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(MissedCleanup).order_by(MissedCleanup.id))).unique().all()
        return [(r.game.code, r.team.name, r.duty, r.minutes) for r in rows]


async def assign_referee(h: Harness, league: SampleLeague, game: str = "G1") -> None:
    reply = await h.slash("/game referee", as_=league.commissioner(), game=game, member=league.referee())
    assert "is now a referee of" in reply.content


# --- /game card -------------------------------------------------------------------------------------
async def test_a_referee_reads_the_card_with_every_rule_and_the_duty_buttons(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/game-card", as_=league.referee(), game="G1")
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    text = reply.content
    assert text.startswith(f"📋 **Game card · Hawks vs Owls** · `G1`\n<t:{int(G1_START.timestamp())}:F>")
    for line in ("Rink A · regular season",
                 "**Officials:** Referee: not assigned · Timekeeper: not assigned — a game can't begin without "
                 "both officials; without a referee the commissioners take the duties (Youth 2.2, 1.14)",
                 "**Periods:** 3 periods of 15 min · breaks of up to 1 min (Youth 2.5, 2.6)",
                 "**Clock:** running; stopped in the last 2 min of the final period (Youth 2.5, 2.6)",
                 "**Timeouts:** 2 × 30 s per team per game, at most 1 per period (Youth 2.10)",
                 "**If tied:** the tie stands (no overtime, no shootout) (Youth 2.13A)",
                 "**Set up:** Hawks, Owls (Youth 2.1, 3.7 (6))",
                 "**Equipment:** eye protection, gloves that cover the entire hand, running shoes, hockey stick, "
                 "shin pads (Youth 1.17)"):
        assert line in text, line
    assert "Clean up" not in text, "G1 isn't the week's last game"
    assert buttons(reply.first) == [("Hawks didn't set up", f"sideline:duty:setup:{await game_id(harness)}:1"),
                                    ("Owls didn't set up", f"sideline:duty:setup:{await game_id(harness)}:2")]
    last = await harness.slash("/game-card", as_=league.referee(), game="G2")
    assert "**Clean up:** Bears, Wolves (Youth 2.15)" in last.content and "Set up" not in last.content


async def game_id(h: Harness, code: str = "G1") -> int:
    from storage.models import Game

    async with h.bot.sessions() as s:
        found = await s.scalar(select(Game.id).where(Game.code == code))
        assert found is not None
        return found


async def test_the_teams_captains_read_it_without_buttons_and_nobody_else_does(
        harness: Harness, league: SampleLeague) -> None:
    captain = await harness.slash("/game-card", as_=league.captain("Hawks"), game="G1")
    assert captain.ephemeral and "**Set up:** Hawks, Owls" in captain.content and buttons(captain.first) == []
    for who in (league.captain("Bears"), league.player("Bea Quinn"), league.stranger()):
        refused = await harness.slash("/game-card", as_=who, game="G1")
        assert refused.ephemeral
        assert "Only the game's referees, a commissioner or a captain of Hawks or Owls" in refused.content
    standin = await harness.slash("/team standin", as_=league.captain("Hawks"), game="G1",
                                  member=league.player("Bea Quinn"))
    assert "stand-in captain" in standin.content
    assert "Game card" in (await harness.slash("/game-card", as_=league.player("Bea Quinn"), game="G1")).content


@pytest.mark.parametrize("settings", [make_settings(league_config())], ids=["coed"])
async def test_a_coed_card_has_its_clock_overtime_and_shootout_and_no_duties(
        harness: Harness, league: SampleLeague) -> None:
    text = (await harness.slash("/game-card", as_=league.commissioner(), game="G1")).content
    assert "**Periods:** 2 halves of 20 min · breaks of up to 5 min (Co-ed rules: Game Structure)" in text
    assert "**Timeouts:** 1 × 30 s per team per game (Co-ed rules: Game Structure)" in text
    assert ("**If tied:** 5 min overtime, sudden death: the first goal wins, so an overtime win is by one goal, "
            "then a shootout (Co-ed rules: Overtime)") in text
    assert "**Shootout:** 3 shooters a team (at least 1 woman/non-binary)" in text
    assert "Set up" not in text and "Equipment" not in text


# --- the card before the game -----------------------------------------------------------------------
async def test_the_assigned_referee_gets_the_card_once_at_its_time_even_across_a_restart(
        harness: Harness, league: SampleLeague, db_url: str) -> None:
    await assign_referee(harness, league)
    harness.bot.clock.set(CARD_TIME - timedelta(minutes=1))  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert cards(harness.discord.dms(REF)) == []
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    (card,) = cards(harness.discord.dms(REF))
    assert "**Officials:** Referee: Ref Rita · Timekeeper: not assigned — a game can't begin" in card.content
    assert "**Set up:** Hawks, Owls" in card.content
    assert [label for label, _ in buttons(card)] == ["Hawks didn't set up", "Owls didn't set up"]
    assert card.allowed_mentions == {"parse": [], "users": []}
    assert cards(harness.discord.channel_messages(REFS)) == [], "an assigned referee hears it by DM"
    await harness.bot.courier.deliver_due()
    assert len(cards(harness.discord.dms(REF))) == 1

    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url),
                                         clock=harness.bot.clock, run_scheduler=False)).start()
    try:
        await restarted.bot.courier.deliver_due()
        assert cards(restarted.discord.dms(REF)) == [], "a restart doesn't send it again"
    finally:
        await restarted.close()


async def test_a_card_due_while_the_bot_was_down_goes_out_once_when_it_is_back(
        harness: Harness, league: SampleLeague, db_url: str) -> None:
    await assign_referee(harness, league)  # the card was planned with the games; nothing was sent
    harness.bot.clock.set(CARD_TIME + timedelta(minutes=30))  # type: ignore[attr-defined]
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url),
                                         clock=harness.bot.clock, run_scheduler=False)).start()
    try:
        await restarted.bot.courier.deliver_due()
        await restarted.bot.courier.deliver_due()
        (card,) = cards(restarted.discord.dms(REF))
        assert "**Officials:** Referee: Ref Rita · Timekeeper: not assigned" in card.content
    finally:
        await restarted.close()


async def test_a_game_nobody_referees_gets_its_card_in_the_referees_channel(
        harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    (card,) = cards(harness.discord.channel_messages(REFS))
    assert "Referee: not assigned · Timekeeper: not assigned" in card.content and len(buttons(card)) == 2


async def test_with_both_officials_the_card_names_each_by_role_and_a_timekeeper_may_read_it(
        harness: Harness, league: SampleLeague) -> None:
    await assign_referee(harness, league)
    reply = await harness.slash("/game-card", as_=league.timekeeper(), game="G1")
    assert "Referee: Ref Rita · Timekeeper: not assigned — a game can't begin without both officials" in reply.content
    await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=league.timekeeper(),
                        role="timekeeper")
    reply = await harness.slash("/game-card", as_=league.timekeeper(), game="G1")
    line = next(x for x in reply.content.splitlines() if x.startswith("**Officials:**"))
    assert line == "**Officials:** Referee: Ref Rita · Timekeeper: Timekeeper Tom"


@pytest.mark.parametrize("settings", [make_settings(league_config())], ids=["coed"])
async def test_a_league_without_timekeepers_names_its_referees_only(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/game-card", as_=league.referee(), game="G1")
    assert "**Officials:** no referee assigned yet\n" in reply.content
    await assign_referee(harness, league)
    reply = await harness.slash("/game-card", as_=league.referee(), game="G1")
    assert "**Officials:** Ref Rita\n" in reply.content and "Timekeeper" not in reply.content


async def test_a_moved_game_moves_its_card_and_a_cancelled_one_drops_it(
        harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    await harness.slash("/game move", as_=kay, game="G1", starts_at="2030-01-11 21:00")
    key = f"game-reminders:{await game_id(harness)}:card:120m"
    async with harness.bot.sessions() as s:
        (row,) = (await s.scalars(select(OutboxMessage).where(OutboxMessage.send_key == key))).all()
        assert row.kind == "game_card" and row.due_at == G1_START and row.status == "pending", \
            "two hours before the new 21:00 start"
    await harness.slash("/game cancel", as_=kay, game="G1")
    harness.bot.clock.set(G1_START)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert cards(harness.discord.dms(REF) + harness.discord.channel_messages(REFS)) == []


@pytest.mark.parametrize("settings", [make_settings(league_config(
    preset="youth-ball-hockey", reminders={"game_card_offsets": []}))], ids=["no-card"])
async def test_a_league_can_turn_the_card_off(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert cards(harness.discord.channel_messages(REFS)) == []
    assert "Game card" in (await harness.slash("/game-card", as_=league.referee(), game="G1")).content


# --- the card's buttons: a missed duty, a bench minor ------------------------------------------------
async def test_the_assigned_referee_records_a_missed_setup_from_the_card_in_a_dm(
        harness: Harness, league: SampleLeague) -> None:
    await assign_referee(harness, league)
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    (card,) = cards(harness.discord.dms(REF))
    hawks = buttons(card)[0][1]
    pressed = await press_on(harness, card, hawks, as_=league.referee(), in_dm=True)
    assert pressed.ephemeral
    assert "Recorded (#1): Hawks didn't help set up before G1 (Hawks vs Owls" in pressed.content
    assert "a 2-minute bench minor at the start of that game, G1" in pressed.content
    assert "(Youth 2.1, 3.7 (6))" in pressed.content and "Their captains are told." in pressed.content
    assert await missed(harness) == [("G1", "Hawks", "setup", 2)]
    again = await press_on(harness, card, hawks, as_=league.referee(), in_dm=True)
    assert "Already on record (#1)" in again.content and "Nothing changed." in again.content
    await harness.bot.courier.deliver_due()
    (told,) = [c for c in harness.discord.dms(HAWKS_CAPTAIN) if "set the arena up" in c.content]
    assert "Hawks didn't help set the arena up before G1" in told.content
    assert "starts that game with a 2-minute bench minor (Youth 2.1, 3.7 (6))" in told.content

    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert "Hawks starts with a 2-minute bench minor: did not help set up before G1 (Youth 2.1, 3.7 (6))" in lineup.text
    log = await harness.slash("/penalties", as_=league.referee(), game="G1")
    assert "Served at the start of the game" in log.text and "Penalty minutes\nHawks 2 · Owls 0" in log.text
    assert "Didn't clean up after this game" not in log.text
    card_now = await harness.slash("/game-card", as_=league.referee(), game="G1")
    assert ("**Starts with:** Hawks, a 2-minute bench minor: did not help set up before G1 (Youth 2.1, 3.7 (6))"
            in card_now.content)

    withdrawn = await harness.slash("/cleanup withdraw", as_=league.commissioner(), game="G1", team="Hawks",
                                    duty="setup", note="They were there")
    assert "Withdrawn (#1): the record that Hawks didn't help set up before G1" in withdrawn.content


async def test_only_the_games_officials_may_press_and_a_forged_button_records_nothing(
        harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    (card,) = cards(harness.discord.channel_messages(REFS))
    hawks = buttons(card)[0][1]
    player = await press_on(harness, card, hawks, as_=league.player("Omar Fox"))
    assert player.ephemeral and "Only the game's referees or a commissioner" in player.content
    in_a_dm = await press_on(harness, card, hawks, as_=league.referee(), in_dm=True)
    assert "Only the game's referees or a commissioner" in in_a_dm.content, "nobody assigned: no DM rights"
    for forged in ("sideline:duty:setup:999:1", "sideline:duty:setup:99999999999999999999:1"):
        reply = await press_on(harness, None, forged, as_=league.referee())
        assert reply.ephemeral and "That game isn't on this league's schedule" in reply.content
    other_team = await press_on(harness, None, f"sideline:duty:setup:{await game_id(harness)}:3",
                                as_=league.referee())
    assert "That team isn't playing G1" in other_team.content
    off_duty = await press_on(harness, None, f"sideline:duty:cleanup:{await game_id(harness)}:1",
                              as_=league.referee())
    assert "Game G1 hasn't been played yet" in off_duty.content
    assert await missed(harness) == []
    in_channel = await press_on(harness, card, hawks, as_=league.referee())
    assert "Recorded (#1): Hawks didn't help set up before G1" in in_channel.content


async def test_a_setup_is_recorded_from_the_games_day_on(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(datetime(2030, 1, 11, 4, 0, tzinfo=UTC))  # 23:00 on Thursday in Toronto
    early = await harness.slash("/cleanup missed", as_=league.referee(), game="G1", team="Hawks", duty="setup")
    assert early.ephemeral and "A missed setup is recorded on the game's day." in early.content
    harness.bot.clock.set(datetime(2030, 1, 11, 15, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    not_first = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears", duty="setup")
    assert "G2 isn't the first game of its day, so Bears weren't scheduled to help set the arena up" in \
        not_first.content
    done = await harness.slash("/cleanup missed", as_=league.referee(), game="G1", team="Owls", duty="setup")
    assert "Recorded (#1): Owls didn't help set up before G1" in done.content
    assert await missed(harness) == [("G1", "Owls", "setup", 2)]


# --- /game duty -------------------------------------------------------------------------------------
async def test_a_commissioner_puts_a_team_on_duty_and_the_card_and_the_bench_minor_follow(
        harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    refused = await harness.slash("/game duty", as_=league.referee(), game="G1", team="Bears", duty="cleanup",
                                  setting="on")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    not_playing = await harness.slash("/game duty", as_=kay, game="G1", team="Bears", duty="cleanup", setting="on")
    assert "Bears didn't play game G1" in not_playing.content
    on = await harness.slash("/game duty", as_=kay, game="G1", team="Owls", duty="cleanup", setting="on")
    assert on.ephemeral and "Owls is now on duty to clear the arena after `G1`" in on.content
    assert "Duties for this game now: set up: Hawks, Owls · clean up: Owls." in on.content
    off = await harness.slash("/game duty", as_=kay, game="G1", team="Hawks", duty="setup", setting="off")
    assert "set up: Owls · clean up: Owls" in off.content
    card = (await harness.slash("/game-card", as_=league.referee(), game="G1")).content
    assert "**Set up:** Owls (Youth 2.1, 3.7 (6))" in card and "**Clean up:** Owls (set by a commissioner)" in card
    async with harness.bot.sessions() as s:
        assert sorted((w.duty, w.on_duty) for w in (await s.scalars(select(GameDuty))).all()) == [
            ("cleanup", True), ("setup", False)]

    harness.bot.clock.set(G1_START + timedelta(hours=1))  # type: ignore[attr-defined]
    hawks = await harness.slash("/cleanup missed", as_=league.referee(), game="G1", team="Hawks", duty="setup")
    assert "A commissioner took Hawks off duty to help set up the arena before G1" in hawks.content
    owls = await harness.slash("/cleanup missed", as_=league.referee(), game="G1", team="Owls")
    assert "Recorded (#1): Owls didn't clean up after G1" in owls.content and "their next game, G3" in owls.content

    back = await harness.slash("/game duty", as_=kay, game="G1", team="Hawks", duty="setup", setting="rule")
    assert "Game G1 is final" not in back.content and "set up: Hawks, Owls" in back.content


# --- a result that sudden death can't give -----------------------------------------------------------
@pytest.mark.parametrize("settings", [make_settings(league_config())], ids=["coed"])
async def test_an_overtime_win_by_two_under_sudden_death_is_refused_with_the_rule(
        harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(G1_START + timedelta(hours=2))  # type: ignore[attr-defined]
    two = await harness.slash("/result enter", as_=league.referee(), game="G1", home=5, away=3, decided="overtime")
    assert two.ephemeral
    assert ("Overtime here is sudden death: the first goal wins and ends the game, so an overtime win is by "
            "exactly one goal, not 2 (Co-ed rules: Overtime)") in two.content
    one = await harness.slash("/result enter", as_=league.referee(), game="G1", home=4, away=3, decided="overtime")
    assert "Recorded game G1: Hawks 4-3 Owls (overtime)" in one.content


@pytest.mark.parametrize("settings", [make_settings(league_config(preset="indoor-soccer"))], ids=["indoor"])
async def test_overtime_played_in_full_may_end_by_any_margin(harness: Harness, league: SampleLeague) -> None:
    """Indoor soccer's playoff overtimes are "played through their entirety": no margin rule."""
    kay = league.commissioner()
    await harness.slash("/game add", as_=kay, home="Hawks", away="Owls", starts_at="2030-01-12 19:00",
                        kind="playoff", code="P1")
    harness.bot.clock.set(datetime(2030, 1, 13, 3, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    reply = await harness.slash("/result enter", as_=league.referee(), game="P1", home=5, away=3, decided="overtime")
    assert "Recorded game P1: Hawks 5-3 Owls (overtime)" in reply.content


@pytest.mark.parametrize("settings", [make_settings(league_config(
    preset="youth-ball-hockey", channels={"announcements": 3001}))], ids=["no-referees-channel"])
async def test_with_nobody_to_send_it_to_the_card_is_skipped(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(CARD_TIME)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert cards(harness.discord.channel_messages() + harness.discord.dms()) == []
    async with harness.bot.sessions() as s:
        statuses = {r.send_key: r.status for r in (await s.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "game_card"))).all()}
    assert statuses[f"game-reminders:{await game_id(harness)}:card:120m"] == "skipped"
