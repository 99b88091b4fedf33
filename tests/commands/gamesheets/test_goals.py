"""/goal add|remove through the real command tree, and /result enter comparing its score with the goals.

Youth 3.4 (1): a goal by a player not on the game sheet is disallowed and a minor assessed; co-ed has no such
rule, so there such a goal is refused. G1 is Hawks v Owls at 00:00 UTC on 12 January 2030.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Goal, Penalty, Player
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))
DURING_G1 = datetime(2030, 1, 12, 0, 40, tzinfo=UTC)
HAWKS_IN = ("Alice Hart", "Carl Diaz", "Dan Roy", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Uma Reed")


@pytest.fixture
def settings() -> Settings:
    return YOUTH


async def ready(h: Harness, league: SampleLeague) -> None:
    for name in (*HAWKS_IN, *OWLS_IN):
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    h.bot.clock.set(DURING_G1)  # type: ignore[attr-defined]


async def goals(h: Harness) -> list[tuple[str, bool, str | None]]:
    async with h.bot.sessions() as s:
        rows = (await s.execute(select(Player.name, Goal.disallowed, Goal.removed_at).join(
            Player, Player.id == Goal.scorer_id).order_by(Goal.id))).all()
    return [(r.name, r.disallowed, "removed" if r.removed_at else None) for r in rows]


async def test_a_goal_with_an_assist_is_recorded_against_the_other_teams_goalie(harness: Harness,
                                                                                 league: SampleLeague) -> None:
    await ready(harness, league)
    done = await harness.slash("/goal add", as_=league.timekeeper(), game="G1", team="Hawks",
                               scorer=league.player("Alice Hart"), assist1=league.player("Carl Diaz"), period=2,
                               time="5:07")
    assert done.ephemeral and done.text == (
        "Goal #1 in `G1`: Alice Hart (Hawks), assisted by Carl Diaz (period 2, 05:07). Recorded.\n"
        "Goals recorded so far: Hawks 1, Owls 0."), done.text
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Goal))
        uma = await s.scalar(select(Player.id).where(Player.name == "Uma Reed"))
    assert row is not None and row.goalie_id == uma and row.assist2_id is None and row.clock == "05:07"
    both = await harness.slash("/goal add", as_=league.referee(), game="G1", team="Owls",
                               scorer=league.player("Omar Fox"), assist1=league.player("Pia Lund"),
                               assist2=league.player("Quin Ash"))
    assert "Omar Fox (Owls), assisted by Pia Lund and Quin Ash. Recorded." in both.text
    assert "Goals recorded so far: Hawks 1, Owls 1." in both.text


async def test_a_goal_by_a_player_not_on_the_sheet_is_disallowed_with_a_minor_in_youth(
        harness: Harness, league: SampleLeague) -> None:
    await ready(harness, league)
    done = await harness.slash("/goal add", as_=league.referee(), game="G1", team="Hawks",
                               scorer=league.player("Alice Hart"), assist1=league.player("Bea Quinn"), period=1,
                               time="14:00")
    assert "Goal #1 in `G1`: Alice Hart (Hawks), assisted by Bea Quinn (period 1, 14:00) is recorded as " \
           "**disallowed**: Bea Quinn not on Hawks's game sheet (Youth 3.4 (1))." in done.text, done.text
    assert "A 2-minute minor is assessed to Bea Quinn: penalty #1." in done.text
    assert "Goals recorded so far: Hawks 0, Owls 0." in done.text
    assert await goals(harness) == [("Alice Hart", True, None)]
    async with harness.bot.sessions() as s:
        minor = (await s.execute(select(Player.name, Penalty.infraction_key, Penalty.minutes, Penalty.minute)
                                 .join(Player, Player.id == Penalty.player_id))).all()
    assert [tuple(m) for m in minor] == [("Bea Quinn", "not_on_game_sheet", 2, 14)]
    log = await harness.slash("/penalties", as_=league.referee(), game="G1")
    assert "#1 · min 14 · Bea Quinn (Hawks): Player not on the game sheet: minor, 2 minutes" in log.text, log.text


async def test_in_co_ed_such_a_goal_is_refused_and_nothing_is_written(db_url: str, clock: FixedClock) -> None:
    bot = create_bot(make_settings(league_config()), engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    league = await SampleLeague(h).load()
    await ready(h, league)
    refused = await h.slash("/goal add", as_=league.referee(), game="G1", team="Hawks",
                            scorer=league.player("Bea Quinn"))
    assert refused.ephemeral and refused.text == (
        "Bea Quinn is not on the team's game sheet: a goal is credited only to players on it. If they played, "
        "an official adds them with /gamesheet add first."), refused.text
    async with bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Goal)) == 0
        assert await s.scalar(select(func.count()).select_from(Penalty)) == 0
    await h.close()


@pytest.mark.parametrize(("options", "refusal"), [
    ({"team": "Owls", "scorer": "Alice Hart"}, "Alice Hart is on Hawks's sheet for G1: a goal is credited to "
                                               "players of the scoring team (Owls)."),
    ({"team": "Hawks", "scorer": "Alice Hart", "assist1": "Alice Hart"}, "name each once"),
    ({"team": "Hawks", "scorer": "Alice Hart", "period": 4}, "This game has 3 periods counting overtime: give 1 to 3."),
    ({"team": "Hawks", "scorer": "Alice Hart", "time": "15:01"}, "A period here lasts 15 minutes"),
    ({"team": "Hawks", "scorer": "Alice Hart", "time": "ab"}, "e.g. 12:05"),
    ({"team": "Bears", "scorer": "Alice Hart"}, "G1 is Hawks vs Owls: pick the scoring team"),
])
async def test_goals_the_rules_refuse_change_nothing(harness: Harness, league: SampleLeague,
                                                     options: dict[str, object], refusal: str) -> None:
    await ready(harness, league)
    people = {k: league.player(str(v)) for k, v in options.items() if k in ("scorer", "assist1")}
    refused = await harness.slash("/goal add", as_=league.referee(), game="G1", **{**options, **people})
    assert refused.ephemeral and refusal in refused.text, refused.text
    assert await goals(harness) == []


async def test_no_goals_before_the_start_nor_in_a_forfeit_nor_from_a_player(harness: Harness,
                                                                             league: SampleLeague) -> None:
    early = await harness.slash("/goal add", as_=league.referee(), game="G1", team="Hawks",
                                scorer=league.player("Alice Hart"))
    assert "G1 hasn't started yet" in early.text
    await ready(harness, league)
    player = await harness.slash("/goal add", as_=league.player("Carl Diaz"), game="G1", team="Hawks",
                                 scorer=league.player("Alice Hart"))
    assert "Only a referee or timekeeper or commissioner" in player.text
    await harness.slash("/result forfeit", as_=league.referee(), game="G1", team="Owls")
    forfeit = await harness.slash("/goal add", as_=league.referee(), game="G1", team="Hawks",
                                  scorer=league.player("Alice Hart"))
    assert "G1 was a forfeit: a forfeit carries no individual statistics (Youth 2.4)." in forfeit.text
    assert await goals(harness) == []


async def test_a_goal_taken_back_and_the_score_compared_with_the_goals(harness: Harness,
                                                                        league: SampleLeague) -> None:
    await ready(harness, league)
    tk = league.timekeeper()
    for scorer, team in (("Alice Hart", "Hawks"), ("Dan Roy", "Hawks"), ("Carl Diaz", "Hawks"), ("Omar Fox", "Owls")):
        await harness.slash("/goal add", as_=tk, game="G1", team=team, scorer=league.player(scorer))
    suggested = await harness.autocomplete("/goal remove", focused="goal", as_=tk, game="G1", goal="carl")
    assert [c["name"] for c in suggested.autocomplete_choices] == ["#3 · Carl Diaz (Hawks)"]
    taken = await harness.slash("/goal remove", as_=tk, game="G1", goal=3)
    assert taken.text == ("Goal #3 in `G1` (Carl Diaz, Hawks) is taken back (kept on record, marked).\n"
                          "Goals recorded now: Hawks 2, Owls 1."), taken.text
    again = await harness.slash("/goal remove", as_=tk, game="G1", goal=3)
    assert "G1 has no goal #3 to take back" in again.text
    harness.bot.clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    differs = await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=1,
                                  decided="regulation")
    assert "Recorded game G1: Hawks 3-1 Owls." in differs.text
    assert ("⚠️ The score differs from the goals recorded (Hawks 2, Owls 1): Hawks: 3 in the score, 2 in the "
            "recorded goals.") in differs.text, differs.text
    agrees = await harness.slash("/result fix", as_=league.commissioner(), game="G1", home=2)
    assert "It agrees with the goals recorded (Hawks 2, Owls 1)." in agrees.text, agrees.text
    assert await goals(harness) == [("Alice Hart", False, None), ("Dan Roy", False, None),
                                    ("Carl Diaz", False, "removed"), ("Omar Fox", False, None)]
