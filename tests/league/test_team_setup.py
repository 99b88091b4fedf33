"""What a /setup team may change without replace:True, and what replace:True says it replaced."""

from __future__ import annotations

from bot.league.setup.teams import GO_AHEAD, TeamAsked, TeamNow, plan_team

HAWKS = TeamNow("Hawks", channel_id=11, division="North", captain_ids=(1,))
OWLS = TeamNow("Owls", channel_id=12, captain_ids=(2, 3))


def test_a_new_team_with_its_own_captain_and_channel_goes_ahead() -> None:
    plan = plan_team(None, TeamAsked(channel_id=13, captain_id=4), [HAWKS, OWLS], replace=False)
    assert (plan.refusal, plan.changes) == ("", ["channel <#13>", "captain <@4>"])


def test_giving_what_the_team_has_changes_nothing() -> None:
    plan = plan_team(HAWKS, TeamAsked(channel_id=11, division="North", captain_id=1), [OWLS], replace=False)
    assert (plan.refusal, plan.changes, plan.captain_added) == ("", [], False)


def test_overwriting_names_everything_it_would_replace() -> None:
    plan = plan_team(OWLS, TeamAsked(channel_id=14, division="South", captain_id=5), [HAWKS], replace=False)
    assert plan.refusal == f"Owls already has the channel <#12> and the captain <@2> and <@3>. {GO_AHEAD}"
    plan = plan_team(HAWKS, TeamAsked(division="South"), [OWLS], replace=False)
    assert plan.refusal == f"Hawks already has the division North. {GO_AHEAD}"


def test_replace_takes_from_the_other_team_and_says_so() -> None:
    plan = plan_team(HAWKS, TeamAsked(channel_id=12, captain_id=2), [OWLS], replace=True)
    assert plan.refusal == ""
    assert plan.changes == ["channel <#12> (was <#11>; taken from Owls, which now has no channel)",
                            "captain <@2> (replaces <@1>; no longer captain of Owls)"]
    assert (plan.channel_from, plan.captain_from, plan.captains_replaced) == ("Owls", "Owls", (1,))
