"""/rulevote through the real command tree (youth 1.23): a commissioner proposes a new value for a rule
setting, checked as /setup rule checks it; the commissioners and the division's coaches or captains vote
once each by button; 60% of the ELIGIBLE voters passes it; the outcome is posted once, when the last
voter answers or at the deadline (across a restart); a commissioner applies a passed change.

The youth sample league's divisions: senior (Hawks, Owls: one captain each) and junior (Bears: two
captains, Wolves: one). So a senior vote has 3 eligible voters (Commish Kay, who starts it, and the two
captains) and a junior one 4; a second commissioner who presses joins them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import OutboxMessage, RuleVote, RuleVoteVoter
from tests.commands.empty_server import hand_to_discord
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness, Member

NOW = datetime(2030, 1, 20, 17, 0, tzinfo=UTC)
BEARS_SECOND = 500_000_000_000_000_022


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey"))


def other_commissioner(h: Harness) -> Member:
    return h.member("Commish Cal", member_id=700_000_000_000_000_009, roles=("commissioner",))


def bears_second(h: Harness) -> Member:
    return h.member("Bears Co-captain", member_id=BEARS_SECOND, roles=("captain",))


async def votes(h: Harness) -> list[tuple[str, str, str, str, str | None, int, int, int]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(RuleVote).order_by(RuleVote.id))).all()
        return [(v.setting_key, v.proposed_value, v.division, v.state, v.outcome, v.yes_votes, v.no_votes,
                 v.eligible_voters) for v in rows]


async def ballots(h: Harness, vote_id: int = 1) -> dict[int, str | None]:
    async with h.bot.sessions() as s:
        rows = (await s.execute(select(RuleVoteVoter.discord_id, RuleVoteVoter.answer)
                                .where(RuleVoteVoter.vote_id == vote_id))).all()
        return {int(d): a for d, a in rows}


def outcomes(h: Harness) -> list[str]:
    return [c.content for c in h.discord.channel_messages() if "Rule-change vote #" in c.content]


async def start(h: Harness, league: SampleLeague, rule: str = "roster_limit", proposal: str = "18",
                division: str | None = "senior") -> int:
    options = {"rule": rule, "proposal": proposal} | ({"division": division} if division else {})
    started = await h.slash("/rulevote start", as_=league.commissioner(), **options)
    assert not started.ephemeral and "Rule-change vote #" in started.content, started.content
    vote_id = int(started.content.split("#", 1)[1].split("*", 1)[0])
    assert started.first.custom_ids() == [f"sideline:rulevote:yes:{vote_id}", f"sideline:rulevote:no:{vote_id}"]
    return vote_id


async def press(h: Harness, vote_id: int, answer: str, who: Member) -> str:
    pressed = await h.press(f"sideline:rulevote:{answer}:{vote_id}", as_=who)
    assert pressed.ephemeral, pressed.text
    return pressed.content


async def test_a_proposal_is_checked_as_setup_rule_checks_it_before_the_vote_starts(
        harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    for rule, proposal, said in (
            ("roster_limit", "lots", "roster_limit must be a whole number, not 'lots'. Nothing changed."),
            ("roster_limit", "500", "roster_limit must be between 1 and 100, not 500. Nothing changed."),
            ("no_such_rule", "3", "'no_such_rule' is not a rule setting; pick one from the list."),
            ("rulevote_period", "soon", "'soon' is not a duration"),
            ("points_win", "2", "Points win (points_win) is already 2: there is nothing to vote on.")):
        refused = await harness.slash("/rulevote start", as_=kay, rule=rule, proposal=proposal)
        assert refused.ephemeral and said in refused.content, refused.content
    unknown = await harness.slash("/rulevote start", as_=kay, rule="roster_limit", proposal="18", division="Middle")
    assert unknown.ephemeral and "has no division “Middle”; its divisions: junior, senior" in unknown.content
    assert await votes(harness) == []

    started = await harness.slash("/rulevote start", as_=kay, rule="roster_limit", proposal="18", division="senior")
    assert not started.ephemeral and started.first.allowed_mentions == {"parse": []}
    assert "**Rule-change vote #1**" in started.content and "Roster limit (roster_limit)" in started.content
    assert "to **18**" in started.content
    assert "It passes with 60% of the eligible voters, not of the votes cast (2 Yes of 3; Youth 1.23)" \
        in started.content
    assert f"Voting closes <t:{int((NOW + timedelta(days=7)).timestamp())}:F>" in started.content
    assert started.first.custom_ids() == ["sideline:rulevote:yes:1", "sideline:rulevote:no:1"]
    assert await votes(harness) == [("roster_limit", "18", "senior", "open", None, 0, 0, 0)]
    assert await ballots(harness) == {kay.id: None, league.captain("Hawks").id: None, league.captain("Owls").id: None}
    again = await harness.slash("/rulevote start", as_=kay, rule="roster_limit", proposal="20", division="senior")
    assert again.ephemeral and "Vote #1 on Roster limit (roster_limit) is already open until" in again.content


async def test_the_rule_option_suggests_the_leagues_rule_settings(harness: Harness, league: SampleLeague) -> None:
    found = await harness.autocomplete("/rulevote start", focused="rule", as_=league.commissioner(), rule="rulevote")
    values = [c["value"] for c in found.autocomplete_choices]
    assert values == ["rulevote_period", "rulevote_threshold_percent"]
    assert "(Youth 1.23)" in found.autocomplete_choices[1]["name"]


async def test_only_commissioners_start_a_vote(harness: Harness, league: SampleLeague) -> None:
    for who in (league.captain("Hawks"), league.player("Bea Quinn")):
        refused = await harness.slash("/rulevote start", as_=who, rule="roster_limit", proposal="18")
        assert refused.ephemeral and "Only a commissioner" in refused.content, refused.content
    assert await votes(harness) == []


async def test_eligible_voters_vote_once_and_others_are_refused_politely(
        harness: Harness, league: SampleLeague) -> None:
    vote = await start(harness, league)
    hawks, owls, bears = league.captain("Hawks"), league.captain("Owls"), league.captain("Bears")
    assert "Your vote on #1: **Yes**. 1 of 3 eligible voters have voted." in await press(harness, vote, "yes", hawks)
    assert "You've voted Yes on vote #1 already" in await press(harness, vote, "yes", hawks)
    assert "You've voted Yes on vote #1 already; each vote counts once and can't be changed." \
        in await press(harness, vote, "no", hawks)
    for stranger in (bears, league.player("Bea Quinn"), league.referee()):
        said = await press(harness, vote, "yes", stranger)
        assert ("Only Coed League's commissioners and the coaches and captains of senior when the vote started vote "
                "on this rule change (Youth 1.23). Thanks for your interest!") in said, said
    # Another commissioner, whom the bot couldn't list when the vote started, joins when they press.
    cal = other_commissioner(harness)
    assert "Your vote on #1: **No**. 2 of 4 eligible voters have voted." in await press(harness, vote, "no", cal)
    assert await ballots(harness) == {league.commissioner().id: None, hawks.id: "yes", owls.id: None, cal.id: "no"}
    assert await votes(harness) == [("roster_limit", "18", "senior", "open", None, 0, 0, 0)]
    listed = await harness.slash("/rulevote list", as_=league.player("Bea Quinn"))
    assert listed.ephemeral and "#1 · Roster limit (roster_limit) → 18 · senior · open until" in listed.content
    assert "2 of 4 voted" in listed.content


async def test_exactly_the_threshold_of_eligible_voters_passes_and_one_less_fails(
        harness: Harness, league: SampleLeague) -> None:
    cal, kay = other_commissioner(harness), league.commissioner()
    bears, bears2, wolves = league.captain("Bears"), bears_second(harness), league.captain("Wolves")
    passing = await start(harness, league, division="junior")
    failing = await start(harness, league, rule="points_tie", proposal="0", division="junior")
    # 5 eligible (Kay, Cal who joins first, three junior captains): 3 Yes is exactly 60%.
    for who, answer in ((cal, "yes"), (kay, "yes"), (bears, "yes"), (bears2, "no")):
        await press(harness, passing, answer, who)
    assert outcomes(harness) == []
    last = await press(harness, passing, "no", wolves)
    assert "That was the last vote: it passed" in last
    # 2 Yes of 5 is 40%: it fails, though no one else is left to answer.
    for who, answer in ((cal, "yes"), (kay, "yes"), (bears, "no"), (bears2, "no"), (wolves, "no")):
        await press(harness, failing, answer, who)
    assert await votes(harness) == [("roster_limit", "18", "junior", "closed", "passed", 3, 2, 5),
                                    ("points_tie", "0", "junior", "closed", "failed", 2, 3, 5)]
    await harness.bot.courier.deliver_due()
    posted = [c for c in harness.discord.channel_messages() if "Rule-change vote #" in c.content]
    assert len(posted) == 2
    assert posted[0].content.startswith(
        "🗳️ Rule-change vote #1 PASSED. Roster limit (roster_limit): not set → 18 (junior).")
    assert ("Yes 3, No 2 of 5 eligible voters; 3 Yes (60% of the eligible voters, not of the votes cast: Youth 1.23) "
            "were needed") in posted[0].content
    assert posted[0].custom_ids() == ["sideline:rulevote:apply:1"]
    assert posted[1].content.startswith("🗳️ Rule-change vote #2 did not pass. Points tie (points_tie): 1 → 0")
    assert "The rule stays as it is." in posted[1].content and posted[1].custom_ids() == []
    refused = await harness.press(f"sideline:rulevote:apply:{failing}", as_=kay)
    assert refused.ephemeral and "Vote #2 didn't pass (Youth 1.23), so Points tie (points_tie) stays as it is." \
        in refused.content
    closed = await press(harness, passing, "yes", wolves)
    assert "Vote #1 has closed: it passed (3 Yes, 2 No of 5)." in closed
    listed = await harness.slash("/rulevote list", as_=kay)
    assert "#2 · Points tie (points_tie) → 0 · junior · did not pass · Yes 2, No 3 of 5" in listed.content


async def test_a_vote_closes_at_its_deadline_across_a_restart_and_is_announced_once(
        harness: Harness, league: SampleLeague, db_url: str, clock: FixedClock) -> None:
    vote = await start(harness, league, division="junior")
    await press(harness, vote, "yes", league.commissioner())
    await press(harness, vote, "yes", league.captain("Bears"))
    await harness.bot.courier.deliver_due()
    assert outcomes(harness) == []

    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock,
                                         run_scheduler=False)).start()
    try:
        clock.set(NOW + timedelta(days=7, minutes=1))
        await restarted.bot.courier.deliver_due()
        await restarted.bot.courier.deliver_due()
        posted = outcomes(restarted)
        # Both who answered said Yes, but 2 of the 4 eligible is 50%, under 60%: the silent count against it.
        assert len(posted) == 1 and posted[0].startswith("🗳️ Rule-change vote #1 did not pass."), posted
        assert "Yes 2, No 0, no answer 2 of 4 eligible voters; 3 Yes" in posted[0]
        late = await restarted.press("sideline:rulevote:no:1", as_=league.captain("Wolves"))
        assert late.ephemeral and "Vote #1 has closed: it did not pass (2 Yes, 0 No of 4)." in late.content
    finally:
        await restarted.close()
    assert await votes(harness) == [("roster_limit", "18", "junior", "closed", "failed", 2, 0, 4)]
    async with harness.bot.sessions() as s:
        sent = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.send_key.like("rulevote:1:%"), OutboxMessage.status == "sent"))
    assert sent == 1  # the outcome; the closing action is recorded as done without a message


async def test_apply_changes_the_setting_through_setup_rule_by_a_commissioner_only(
        harness: Harness, league: SampleLeague) -> None:
    await hand_to_discord(harness.bot)  # /setup rule changes leagues set up in Discord
    vote = await start(harness, league)
    too_soon = await harness.press(f"sideline:rulevote:apply:{vote}", as_=league.commissioner())
    assert too_soon.ephemeral and "Vote #1 is still open until" in too_soon.content
    for who in (league.commissioner(), league.captain("Hawks"), league.captain("Owls")):
        await press(harness, vote, "yes", who)
    await harness.bot.courier.deliver_due()
    (posted,) = [c for c in harness.discord.channel_messages() if "Rule-change vote #1 PASSED" in c.content]
    apply_id = posted.custom_ids()[0]

    refused = await harness.press(apply_id, as_=league.captain("Hawks"))
    assert refused.ephemeral and "Only a commissioner" in refused.content
    before = harness.bot.settings.league_for_guild(harness.league_guilds[0])
    assert before is not None and before.rules.lineup.roster_limit is None
    applied = await harness.press(apply_id, as_=league.commissioner())
    assert applied.ephemeral and applied.content == "Applied vote #1: Roster limit (roster_limit): not set → 18.", \
        applied.content
    after = harness.bot.settings.league_for_guild(harness.league_guilds[0])
    assert after is not None and after.rules.lineup.roster_limit == 18
    shown = await harness.slash("/setup show", as_=league.commissioner())
    assert "**Roster limit (roster_limit)** = 18 · set in Discord by" in shown.text
    again = await harness.press(apply_id, as_=league.commissioner())
    assert again.ephemeral and "Vote #1's change is applied already: Roster limit (roster_limit) is 18." \
        in again.content
    listed = await harness.slash("/rulevote list", as_=league.commissioner())
    assert "passed · Yes 3, No 0 of 3 · applied" in listed.content
