"""/trade through the real command tree (youth 1.9): a trade takes effect no sooner than 24 hours after it is
submitted, never after the end of week 10, and a commissioner may veto it until then; once the draft is done,
/roster add doesn't move players between teams.

The youth season starts Monday 7 January 2030 (Toronto); week 10 ends at local midnight starting Monday 18
March. The senior division (Hawks, Owls) drafted on Sunday 6 January. Hawks play Owls in G3, Friday 18
January 19:00 Toronto (midnight UTC). Alice Hart captains Hawks, Omar Fox Owls.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Draft, Game, OutboxMessage, Player, RosterDeparture, RosterEntry, Season, Team, Trade
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness

ADMIN = 3011
HAWKS_CHANNEL, OWLS_CHANNEL = 600_000_000_000_000_001, 600_000_000_000_000_002
G3 = datetime(2030, 1, 19, 0, 0, tzinfo=UTC)
WEEK_10_ENDS = datetime(2030, 3, 18, 4, tzinfo=UTC)


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels={**CHANNELS, "admin": ADMIN}))


async def drafted(h: Harness, league: SampleLeague) -> None:
    boss = league.commissioner()
    started = await h.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=12)
    assert "Started" in started.content, started.content
    opened = await h.slash("/registration open", as_=boss, division="senior", draft_date="2030-01-06")
    assert opened.ephemeral, opened.content


async def team_of(h: Harness, name: str) -> str | None:
    async with h.bot.sessions() as s:
        return await s.scalar(select(Team.name).join(RosterEntry, RosterEntry.team_id == Team.id)
                              .join(Player, Player.id == RosterEntry.player_id).where(Player.name == name))


async def trades(h: Harness) -> list[tuple[int, str, datetime, datetime | None]]:
    async with h.bot.sessions() as s:
        return [(t.id, t.state, t.effective_at, t.applied_at)
                for t in (await s.scalars(select(Trade).order_by(Trade.id))).all()]


def at(h: Harness, when: datetime) -> None:
    h.bot.clock.set(when)  # type: ignore[attr-defined]


async def test_proposed_23_hours_before_a_game_it_takes_effect_after_that_game(
        harness: Harness, league: SampleLeague) -> None:
    await drafted(harness, league)
    async with harness.bot.sessions() as s:
        g3 = await s.scalar(select(Game.starts_at).where(Game.code == "G3"))
    assert g3 == G3
    submitted = G3 - timedelta(hours=23)
    at(harness, submitted)
    hawks, owls = league.captain("Hawks"), league.captain("Owls")

    proposed = await harness.slash("/trade propose", as_=hawks, team="Owls", players_out="Bea Quinn",
                                   players_in="Pia Lund")
    effect = submitted + timedelta(hours=24)
    assert proposed.ephemeral and proposed.first.allowed_mentions == {"parse": []}
    assert proposed.content == (
        "Trade #1 proposed: Bea Quinn (Hawks → Owls) for Pia Lund (Owls → Hawks). If Owls accepts, it takes "
        f"effect <t:{int(effect.timestamp())}:F> (Youth 1.9); a commissioner may veto it until then. Owls and the "
        "commissioners are told.")
    assert effect > G3, "24 hours' notice from 23 hours before the game: after its start"

    accepted = await harness.slash("/trade accept", as_=owls, trade=1)
    assert accepted.ephemeral and f"It takes effect <t:{int(effect.timestamp())}:F>" in accepted.content
    await harness.bot.courier.deliver_due()
    assert any("Hawks proposes trade #1" in c.content for c in harness.discord.channel_messages(OWLS_CHANNEL))
    assert any("Owls accepted trade #1" in c.content for c in harness.discord.channel_messages(HAWKS_CHANNEL))
    admin = [c.content for c in harness.discord.channel_messages(ADMIN)]
    assert any("trade #1 proposed" in c and "(Youth 1.9)" in c for c in admin), admin

    at(harness, G3)  # the game starts: both still play for their old teams
    await harness.bot.courier.deliver_due()
    assert (await team_of(harness, "Bea Quinn"), await team_of(harness, "Pia Lund")) == ("Hawks", "Owls")
    at(harness, effect)
    await harness.bot.courier.deliver_due()
    assert (await team_of(harness, "Bea Quinn"), await team_of(harness, "Pia Lund")) == ("Owls", "Hawks")
    assert await trades(harness) == [(1, "effective", effect, effect)]
    assert any("Trade #1 took effect" in c.content for c in harness.discord.channel_messages(HAWKS_CHANNEL))
    # The move is in the roster's history, so a suspension follows Bea to Owls as any move's does.
    async with harness.bot.sessions() as s:
        left = (await s.execute(select(RosterDeparture.reason, Team.name).join(Team, Team.id == RosterDeparture.team_id)
                                .join(Player, Player.id == RosterDeparture.player_id)
                                .where(Player.name == "Bea Quinn"))).all()
    assert [tuple(r) for r in left] == [("moved", "Hawks")]

    listed = await harness.slash("/trade list", as_=hawks)
    assert listed.ephemeral and listed.content.startswith("#1 · effective · Bea Quinn (Hawks → Owls)")


async def test_a_trade_that_would_take_effect_past_week_10_is_refused(harness: Harness,
                                                                       league: SampleLeague) -> None:
    await drafted(harness, league)
    at(harness, WEEK_10_ENDS - timedelta(hours=23))  # 24 hours' notice ends after the deadline
    refused = await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Owls",
                                  players_out="Bea Quinn", players_in="Pia Lund")
    assert refused.ephemeral
    assert refused.content == (
        "The trade would take effect after the trade deadline: trades must take effect by the end of week 10 of "
        f"Winter 2030 (<t:{int(WEEK_10_ENDS.timestamp())}:F>), and this one would take effect "
        f"<t:{int((WEEK_10_ENDS + timedelta(hours=1)).timestamp())}:F> (Youth 1.9). Nothing changed.")
    assert await trades(harness) == []

    at(harness, WEEK_10_ENDS - timedelta(hours=25))  # in time, but asked for a moment after the deadline
    late = await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Owls",
                               players_out="Bea Quinn", takes_effect="2030-03-18 00:00")
    assert late.ephemeral and "after the trade deadline" in late.content and await trades(harness) == []
    fine = await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Owls", players_out="Bea Quinn")
    assert "Trade #1 proposed" in fine.content, fine.content
    # Accepted only once the effect time would be past the deadline: refused, nothing changes.
    at(harness, WEEK_10_ENDS)
    too_late = await harness.slash("/trade accept", as_=league.captain("Owls"), trade=1)
    assert too_late.ephemeral and "after the trade deadline" in too_late.content
    assert [t[1] for t in await trades(harness)] == ["proposed"]


async def test_a_vetoed_trade_changes_nothing(harness: Harness, league: SampleLeague) -> None:
    await drafted(harness, league)
    at(harness, G3 - timedelta(days=3))
    await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Owls", players_out="Bea Quinn, Carl Diaz",
                        players_in="<@500000000000000012>")
    await harness.slash("/trade accept", as_=league.captain("Owls"), trade=1)
    vetoed = await harness.slash("/trade veto", as_=league.commissioner(), trade=1, reason="Unbalanced")
    assert vetoed.ephemeral and vetoed.content.startswith("Trade #1 vetoed (Youth 1.9): Bea Quinn, Carl Diaz (Hawks")
    at(harness, G3 + timedelta(days=7))
    await harness.bot.courier.deliver_due()
    assert [await team_of(harness, n) for n in ("Bea Quinn", "Carl Diaz", "Pia Lund")] == ["Hawks", "Hawks", "Owls"]
    assert [t[1] for t in await trades(harness)] == ["vetoed"]
    told = [c.content for c in harness.discord.channel_messages(OWLS_CHANNEL)]
    assert any("A commissioner vetoed trade #1" in c and "Reason: Unbalanced" in c for c in told), told
    again = await harness.slash("/trade veto", as_=league.commissioner(), trade=1)
    assert again.ephemeral and again.content == "Trade #1 is vetoed already. Nothing changed."


async def test_after_the_draft_roster_add_does_not_move_players_between_teams(
        harness: Harness, league: SampleLeague) -> None:
    hawks = league.captain("Hawks")
    bea = league.player("Bea Quinn")
    await harness.slash("/season start", as_=league.commissioner(), name="Winter 2030", first_day="2030-01-07",
                        weeks=12)
    # No draft day known: the lock doesn't apply (a commissioner moves Bea and back).
    await harness.slash("/roster remove", as_=league.commissioner(), player=bea)
    moved = await harness.slash("/roster add", as_=league.commissioner(), player=bea, team="Owls")
    assert "is now on Owls" in moved.content, moved.content
    await harness.slash("/roster remove", as_=league.commissioner(), player=bea)
    back = await harness.slash("/roster add", as_=league.commissioner(), player=bea, team="Hawks")
    assert "is now on Hawks" in back.content, back.content

    await harness.slash("/registration open", as_=league.commissioner(), division="senior", draft_date="2030-01-06")
    at(harness, datetime(2030, 1, 6, 4, 59, tzinfo=UTC))  # a minute before the draft day in Toronto
    pia = league.player("Pia Lund")
    early = await harness.slash("/roster add", as_=hawks, player=pia)
    assert "Remove them there first" in early.content, early.content
    at(harness, datetime(2030, 1, 6, 5, 0, tzinfo=UTC))
    taken = await harness.slash("/roster add", as_=hawks, player=pia)
    assert taken.ephemeral and taken.content == (
        "Since the draft, players move between teams only by trade (Youth 1.9). A captain proposes one with "
        "/trade propose, the other team's captain accepts it, and it takes effect after the league's notice. "
        "Nothing changed.")
    await harness.slash("/roster remove", as_=league.commissioner(), player=pia)
    after_remove = await harness.slash("/roster add", as_=hawks, player=pia)
    assert after_remove.content == taken.content, "removed and added is a move all the same"
    boss = await harness.slash("/roster add", as_=league.commissioner(), player=pia, team="Hawks")
    assert boss.content == taken.content
    assert await team_of(harness, "Pia Lund") is None
    home = await harness.slash("/roster add", as_=league.captain("Owls"), player=pia)
    assert "Pia Lund is now on Owls" in home.content, "back to the team she left is no move"
    newcomer = harness.member("New Nia")
    added = await harness.slash("/roster add", as_=hawks, player=newcomer)
    assert "New Nia is now on Hawks" in added.content, "someone new to the league isn't traded"


async def test_a_draft_run_with_draft_ends_the_free_moves_without_a_draft_day(
        harness: Harness, league: SampleLeague) -> None:
    """A division drafted with /draft (its draft over, no draft day given to /registration open) is locked
    from the moment its draft ended, as one with a draft day is."""
    boss, hawks = league.commissioner(), league.captain("Hawks")
    await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=12)
    at(harness, datetime(2030, 1, 6, 18, tzinfo=UTC))
    pia = league.player("Pia Lund")
    await harness.slash("/roster remove", as_=boss, player=pia)
    free = await harness.slash("/roster add", as_=hawks, player=pia)
    assert "is now on Hawks" in free.content, free.content
    async with harness.bot.sessions.begin() as s:
        season = await s.scalar(select(Season).where(Season.name == "Winter 2030"))
        assert season is not None
        s.add(Draft(league_id=season.league_id, season_id=season.id, division="Senior", rounds=8,
                    pick_seconds=180, status="done", created_by=boss.id,
                    ended_at=datetime(2030, 1, 6, 19, tzinfo=UTC)))
    at(harness, datetime(2030, 1, 6, 20, tzinfo=UTC))
    await harness.slash("/roster remove", as_=boss, player=pia)
    locked = await harness.slash("/roster add", as_=league.captain("Owls"), player=pia)
    assert locked.ephemeral and "only by trade (Youth 1.9)" in locked.content, locked.content
    assert await team_of(harness, "Pia Lund") is None


async def test_a_restart_before_the_effect_time_moves_the_players_once(
        harness: Harness, league: SampleLeague, db_url: str, clock: FixedClock) -> None:
    await drafted(harness, league)
    clock.set(G3 - timedelta(days=3))
    await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Owls", players_out="Bea Quinn")
    await harness.slash("/trade accept", as_=league.captain("Owls"), trade=1)
    effect = G3 - timedelta(days=2)
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock,
                                         run_scheduler=False)).start()
    try:
        clock.set(effect + timedelta(minutes=5))
        await restarted.bot.courier.deliver_due()
        await harness.bot.courier.deliver_due()
        await restarted.bot.courier.deliver_due()
        sent = [c for h in (harness, restarted) for c in h.discord.channel_messages(OWLS_CHANNEL)]
    finally:
        await restarted.close()
    assert await team_of(harness, "Bea Quinn") == "Owls"
    assert [(t[1], t[2]) for t in await trades(harness)] == [("effective", effect)]
    async with harness.bot.sessions() as s:
        moves = (await s.scalars(select(RosterDeparture.id).join(Player, Player.id == RosterDeparture.player_id)
                                 .where(Player.name == "Bea Quinn"))).all()
        effects = (await s.scalars(select(OutboxMessage.status)
                                   .where(OutboxMessage.send_key == "trade:1:effect"))).all()
    assert len(moves) == 1 and effects == ["sent"]
    assert len([c for c in sent if "Trade #1 took effect" in c.content]) == 1


async def test_who_may_do_what(harness: Harness, league: SampleLeague) -> None:
    await drafted(harness, league)
    at(harness, G3 - timedelta(days=3))
    hawks, owls, bears = league.captain("Hawks"), league.captain("Owls"), league.captain("Bears")
    player = league.player("Bea Quinn")
    stranger = await harness.slash("/trade propose", as_=player, team="Owls", players_out="Carl Diaz")
    assert stranger.ephemeral and "captain" in stranger.content and await trades(harness) == []
    not_ours = await harness.slash("/trade propose", as_=hawks, team="Owls", players_out="Pia Lund")
    assert not_ours.ephemeral and "“Pia Lund” isn't on Hawks's roster" in not_ours.content
    await harness.slash("/trade propose", as_=hawks, team="Owls", players_out="Bea Quinn")
    for who in (hawks, bears):
        refused = await harness.slash("/trade accept", as_=who, trade=1)
        assert refused.ephemeral and refused.content == ("Only Owls's captain or a commissioner can accept trade #1. "
                                                         "Nothing changed.")
    captain_veto = await harness.slash("/trade veto", as_=owls, trade=1)
    assert captain_veto.ephemeral and "commissioner" in captain_veto.content.lower()
    other_withdraw = await harness.slash("/trade withdraw", as_=owls, trade=1)
    assert other_withdraw.ephemeral and "Only Hawks's captain" in other_withdraw.content
    assert [t[1] for t in await trades(harness)] == ["proposed"]
    busy = await harness.slash("/trade propose", as_=hawks, team="Owls", players_out="Bea Quinn")
    assert busy.ephemeral and "already in trade #1" in busy.content
    withdrawn = await harness.slash("/trade withdraw", as_=hawks, trade=1)
    assert withdrawn.content == "Trade #1 withdrawn. Nothing changes."
    declined_late = await harness.slash("/trade decline", as_=owls, trade=1)
    assert declined_late.content == "Trade #1 is withdrawn already. Nothing changed."
    missing = await harness.slash("/trade accept", as_=owls, trade=99)
    assert missing.ephemeral and "no trade #99" in missing.content
    hidden = await harness.slash("/trade list", as_=bears)
    assert hidden.content == "No trades yet."


async def test_autocomplete_suggests_the_roster_and_open_trades(harness: Harness, league: SampleLeague) -> None:
    await drafted(harness, league)
    hawks = league.captain("Hawks")
    names = await harness.autocomplete("/trade propose", focused="players_out", as_=hawks, team="Owls",
                                       players_out="Bea Quinn, Ca")
    assert [c["value"] for c in names.autocomplete_choices] == ["Bea Quinn, Carl Diaz"]
    theirs = await harness.autocomplete("/trade propose", focused="players_in", as_=hawks, team="Owls",
                                        players_out="Bea Quinn", players_in="Pi")
    assert [c["value"] for c in theirs.autocomplete_choices] == ["Pia Lund"]
    await harness.slash("/trade propose", as_=hawks, team="Owls", players_out="Bea Quinn")
    open_ = await harness.autocomplete("/trade accept", focused="trade", as_=league.captain("Owls"), trade="")
    assert [c["value"] for c in open_.autocomplete_choices] == [1]
    none = await harness.autocomplete("/trade accept", focused="trade", as_=league.captain("Bears"), trade="")
    assert none.autocomplete_choices == []


async def test_a_suspension_follows_the_traded_player(harness: Harness, league: SampleLeague) -> None:
    """Nothing of the trade's own: the move is in the roster's history, which suspensions read."""
    await drafted(harness, league)
    at(harness, datetime(2030, 1, 8, 12, tzinfo=UTC))
    suspended = await harness.slash("/suspend", as_=league.commissioner(), player=league.player("Bea Quinn"),
                                    games=2, reason="Boarding")
    assert "Suspension #" in suspended.content, suspended.content
    await harness.slash("/trade propose", as_=league.captain("Hawks"), team="Bears", players_out="Bea Quinn")
    await harness.slash("/trade accept", as_=league.captain("Bears"), trade=1)
    at(harness, datetime(2030, 1, 9, 13, tzinfo=UTC))
    await harness.bot.courier.deliver_due()
    assert await team_of(harness, "Bea Quinn") == "Bears"
    listing = (await harness.slash("/suspensions", as_=league.commissioner())).text
    assert "Bea Quinn (Bears)" in listing and "G2" in listing and "G1" not in listing, listing
