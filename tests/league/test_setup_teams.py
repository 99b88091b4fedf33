"""What a /setup team may change without replace:True, and what replace:True says it replaced."""

from __future__ import annotations

from bot.league.setup.teams import GO_AHEAD, TeamAsked, TeamLine, TeamNow, file_clashes, plan_team

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


# --- a teams file: the same mistakes, refused by line -----------------------------------------------
def test_a_file_that_makes_one_member_captain_of_two_teams_names_both_lines() -> None:
    lines = [TeamLine(2, "Hawks", (11,), 31), TeamLine(3, "Owls", (11, 12), 32)]
    assert file_clashes(lines, []) == [
        (3, "Owls: captain 11 is already captain of Hawks (line 2) (a member captains one team in a league)")]


def test_a_file_that_gives_two_teams_one_channel_names_both_lines() -> None:
    lines = [TeamLine(2, "Hawks", (11,), 31), TeamLine(3, "Owls", (12,), 31)]
    assert file_clashes(lines, []) == [(3, "Owls: channel 31 is already the channel of Hawks (line 2) "
                                           "(each team has its own)")]


def test_a_team_the_file_leaves_alone_keeps_its_captain_and_channel() -> None:
    league = [TeamNow("Bears", channel_id=33, captain_ids=(13,))]
    lines = [TeamLine(2, "Hawks", (13,), 33)]
    assert file_clashes(lines, league) == [
        (2, "Hawks: captain 13 is already captain of Bears (a member captains one team in a league)"),
        (2, "Hawks: channel 33 is already the channel of Bears (each team has its own)")]


def test_a_team_the_file_rewrites_gives_up_what_it_had() -> None:
    """Hawks moves its captain and channel to Owls in the same file: after the import nobody holds two."""
    league = [TeamNow("Hawks", channel_id=31, captain_ids=(11,))]
    lines = [TeamLine(2, "hawks", (12,), 32), TeamLine(3, "Owls", (11,), 31)]
    assert file_clashes(lines, league) == []


def test_co_captains_and_a_reimport_are_no_clash() -> None:
    league = [TeamNow("Hawks", channel_id=31, captain_ids=(11, 12))]
    assert file_clashes([TeamLine(2, "Hawks", (11, 12, 11), 31)], league) == []
