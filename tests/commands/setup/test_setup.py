"""/setup through the real command tree: a league made in Discord, with no id typed anywhere."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import League, LeagueSetup, SetupChange, Team, TeamCaptain
from tests.commands.empty_server import CHANNEL_IDS, ROLE_IDS, Server, no_leagues, open_server
from tests.harness import Harness


@pytest.fixture
def settings() -> Settings:
    return no_leagues()


@pytest.fixture
async def server(harness: Harness) -> AsyncIterator[Server]:
    yield open_server(harness)


async def stored(h: Harness) -> tuple[int, ...]:
    """How many setup rows of each kind the database holds (bad input changes none)."""
    async with h.bot.sessions() as s:
        return tuple([await s.scalar(select(func.count()).select_from(m))
                      for m in (League, LeagueSetup, SetupChange, Team, TeamCaptain)])


async def set_up(server: Server) -> None:
    admin = server.admin()
    made = await server.slash("/setup league", as_=admin, preset="coed-ball-hockey", name="Thursday Co-ed",
                              timezone="America/Toronto")
    assert made.ephemeral and "Thursday Co-ed is set up" in made.content, made.content
    roles = await server.slash("/setup roles", as_=admin, **{k: discord.Object(ROLE_IDS[k])
                                                            for k in ("captain", "referee", "commissioner")})
    assert roles.ephemeral and roles.content == (
        f"Roles for Thursday Co-ed:\n• Captain role: not set → <@&{ROLE_IDS['captain']}>\n• Referee role: not set → "
        f"<@&{ROLE_IDS['referee']}>\n• Commissioner role: not set → <@&{ROLE_IDS['commissioner']}>"), roles.content
    channels = await server.slash("/setup channels", as_=admin, **{k: discord.Object(CHANNEL_IDS[k])
                                                                  for k in ("announcements", "standings")})
    assert channels.ephemeral and (f"• Announcements channel: not set → <#{CHANNEL_IDS['announcements']}>"
                                   in channels.content), channels.content


async def test_a_league_is_set_up_from_an_empty_server_with_pickers_only(harness: Harness, server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    captain = server.person("Cara Captain", "captain")
    team = await server.slash("/setup team", as_=admin, name="Hawks", channel=discord.Object(CHANNEL_IDS["hawks"]),
                              captain=captain)
    assert team.ephemeral and team.content.startswith("Hawks: created, channel"), team.content
    league = harness.bot.settings.league_for_guild(server.guild_id)
    assert league is not None and league.roles.captain == ROLE_IDS["captain"]
    assert league.channels.standings == CHANNEL_IDS["standings"] and league.timezone.key == "America/Toronto"
    # the new league works at once: a captain command finds the team and its captain
    shown = await harness.slash("/roster show", as_=captain, guild_id=server.guild_id)
    assert "Hawks roster" in shown.text
    async with harness.bot.sessions() as s:
        keys = set((await s.scalars(select(SetupChange.key))).all())
    assert {"league", "roles.captain", "channels.announcements", "teams.Hawks", "teams.Hawks.captain"} <= keys


async def test_setup_show_says_where_each_value_comes_from(harness: Harness, server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    changed = await server.slash("/setup rule", as_=admin, key="roster_limit", value="15")
    assert changed.content == "Rules for Thursday Co-ed:\n• Roster limit (roster_limit): not set → 15"
    shown = await server.slash("/setup show", as_=admin)
    assert shown.ephemeral
    assert f"**Captain role** = <@&{ROLE_IDS['captain']}> · set in Discord by <@{admin.id}>" in shown.text
    assert "**Roster limit (roster_limit)** = 15 · set in Discord" in shown.text
    assert f"**League key** = thursday-co-ed · set in Discord by <@{admin.id}>" in shown.text
    assert "**Games as Discord events** = off · default" in shown.text
    assert "roles." not in shown.text and "channels." not in shown.text and "sideline " not in shown.text
    assert "5001" not in shown.text.replace(f"<@&{ROLE_IDS['captain']}>", "")
    lineup = await server.slash("/setup show", as_=admin, section="lineup")
    assert "**Women nonbinary on court (women_nonbinary_on_court)** = 2 · preset · Co-ed rules: Teams" in lineup.text
    reset = await server.slash("/setup rule", as_=admin, key="roster_limit", reset=True)
    assert "15 → not set" in reset.content
    assert harness.bot.settings.league_for_guild(server.guild_id).rules.lineup.roster_limit == 20


async def test_setup_show_warns_until_an_admin_channel_is_set(harness: Harness, server: Server) -> None:
    """Without one, suspensions waiting for review are announced without the reason."""
    await set_up(server)
    admin = server.admin()
    shown = await server.slash("/setup show", as_=admin)
    assert ("**Admin channel** = not set · not set\n  ⚠️ no admin channel: suspensions waiting for commissioner "
            "review go to the announcements channel without the reason (pick one with /setup channels)") in shown.text
    await server.slash("/setup channels", as_=admin, admin=discord.Object(CHANNEL_IDS["admin"]))
    shown = await server.slash("/setup show", as_=admin)
    assert f"**Admin channel** = <#{CHANNEL_IDS['admin']}>" in shown.text and "no admin channel" not in shown.text


async def test_reminders_are_set_and_checked(harness: Harness, server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    ok = await server.slash("/setup reminders", as_=admin, games="3d 2h", captain_alerts="1d")
    assert ok.content == ("Reminders for Thursday Co-ed:\n• Game reminders before each game: not set → 3d, 2h\n"
                          "• Lineup alerts to captains before each game: not set → 1d")
    league = harness.bot.settings.league_for_guild(server.guild_id)
    assert [str(o) for o in league.game_reminder_offsets] == ["3d", "2h"]
    before = await stored(harness)
    bad = await server.slash("/setup reminders", as_=admin, games="soon")
    assert bad.ephemeral and "Nothing changed" in bad.content
    assert await stored(harness) == before
    assert [str(o) for o in league.game_card_offsets] == ["2h"], "the officials' game card: two hours before"
    cards = await server.slash("/setup reminders", as_=admin, game_cards="3h")
    assert "• The game card to the referees before each game: not set → 3h" in cards.content
    off = await server.slash("/setup reminders", as_=admin, game_cards="off")
    assert "• The game card to the referees before each game: 3h → off" in off.content
    assert harness.bot.settings.league_for_guild(server.guild_id).game_card_offsets == ()
    shown = await server.slash("/setup show", as_=admin)
    assert "**The game card to the referees before each game** = off" in shown.text


@pytest.mark.parametrize(("options", "expected"), [
    ({"preset": "curling", "name": "X", "timezone": "America/Toronto"}, "Unknown preset 'curling'"),
    ({"preset": "coed-ball-hockey", "name": "X", "timezone": "EST"}, "ignores daylight saving"),
    ({"preset": "coed-ball-hockey", "name": "X", "timezone": "UTC-5"}, "ignores daylight saving"),
])
async def test_bad_setup_league_writes_nothing(harness: Harness, server: Server, options: dict[str, str],
                                               expected: str) -> None:
    reply = await server.slash("/setup league", as_=server.admin(), **options)
    assert reply.ephemeral and expected in reply.content and "\n" not in reply.content
    assert await stored(harness) == (0, 0, 0, 0, 0)
    assert harness.bot.settings.league_for_guild(server.guild_id) is None


async def test_a_second_league_on_the_server_is_refused(harness: Harness, server: Server) -> None:
    await set_up(server)
    before = await stored(harness)
    again = await server.slash("/setup league", as_=server.admin(), preset="indoor-soccer", name="Other",
                               timezone="Europe/London")
    assert again.ephemeral and "already has a league (Thursday Co-ed)" in again.content
    assert await stored(harness) == before


async def test_a_channel_the_bot_cannot_post_in_is_refused_naming_the_permission(
        harness: Harness, server: Server) -> None:
    await set_up(server)
    before = await stored(harness)
    reply = await server.slash("/setup channels", as_=server.admin(), referees=discord.Object(CHANNEL_IDS["locked"]))
    assert reply.ephemeral and "I need the Send Messages permission there" in reply.content
    assert await stored(harness) == before
    assert harness.bot.settings.league_for_guild(server.guild_id).channels.referees is None


async def test_a_team_name_differing_only_in_case_clashes(harness: Harness, server: Server) -> None:
    await set_up(server)
    await server.slash("/setup team", as_=server.admin(), name="Hawks")
    before = await stored(harness)
    reply = await server.slash("/setup team", as_=server.admin(), name="HAWKS")
    assert reply.ephemeral and "already a team called Hawks" in reply.content
    assert await stored(harness) == before


async def test_a_rule_value_out_of_range_is_refused(harness: Harness, server: Server) -> None:
    await set_up(server)
    before = await stored(harness)
    reply = await server.slash("/setup rule", as_=server.admin(), key="shootout_block_size", value="1000")
    assert reply.ephemeral and "must be between 0 and 20" in reply.content and "\n" not in reply.content
    unknown = await server.slash("/setup rule", as_=server.admin(), key="offside", value="1")
    assert "is not a rule setting" in unknown.content
    assert await stored(harness) == before


async def test_setup_by_a_player_or_a_captain_is_refused(harness: Harness, server: Server) -> None:
    refused = await server.slash("/setup league", as_=server.person("Pat Player"), preset="coed-ball-hockey",
                                 name="Mine", timezone="America/Toronto")
    assert refused.ephemeral and "Only members with Manage Server" in refused.content
    await set_up(server)
    before = await stored(harness)
    for who in (server.person("Pat Player"), server.person("Cara Captain", "captain")):
        reply = await server.slash("/setup rule", as_=who, key="roster_limit", value="12")
        assert reply.ephemeral and "Only members with Manage Server" in reply.content
        shown = await server.slash("/setup show", as_=who)
        assert "Only members with Manage Server" in shown.content
    assert await stored(harness) == before


async def test_the_commissioner_role_may_use_setup(harness: Harness, server: Server) -> None:
    await set_up(server)
    reply = await server.slash("/setup team", as_=server.person("Cy Commish", "commissioner"), name="Owls")
    assert reply.content == "Owls: created."


async def test_team_remove_retires_an_unplayed_team_only(harness: Harness, server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    for name in ("Hawks", "Owls", "Ducks"):
        await server.slash("/setup team", as_=admin, name=name)
    game = await server.slash("/game add", as_=admin, home="Hawks", away="Owls", starts_at="2030-01-10 19:00")
    assert "G1" in game.content, game.content
    kept = await server.slash("/setup team-remove", as_=admin, name="Hawks")
    assert kept.ephemeral and "1 game(s) on the schedule" in kept.content
    gone = await server.slash("/setup team-remove", as_=admin, name="ducks")
    assert gone.content == "Ducks is removed."
    async with harness.bot.sessions() as s:
        assert set((await s.scalars(select(Team.name))).all()) == {"Hawks", "Owls"}


async def test_autocomplete_offers_zones_and_rule_settings_with_meanings(harness: Harness, server: Server) -> None:
    zones = await harness.autocomplete("/setup league", focused="timezone", as_=server.admin(),
                                       guild_id=server.guild_id, timezone="toron")
    assert [c["value"] for c in zones.autocomplete_choices] == ["America/Toronto"]
    await set_up(server)
    keys = await harness.autocomplete("/setup rule", focused="key", as_=server.admin(), guild_id=server.guild_id,
                                      key="women")
    first = keys.autocomplete_choices[0]
    assert first["value"] == "women_nonbinary_on_court"
    assert first["name"].startswith("women_nonbinary_on_court (Co-ed rules: Teams): Women/non-binary skaters")


async def test_a_restart_keeps_every_setting(harness: Harness, server: Server, db_url: str,
                                             clock: FixedClock) -> None:
    await set_up(server)
    await server.slash("/setup rule", as_=server.admin(), key="roster_limit", value="15")
    before = harness.bot.settings.league_for_guild(server.guild_id)
    engine = create_engine(db_url)
    again = create_bot(no_leagues(), engine=engine, clock=clock, run_scheduler=False)
    h2 = await Harness(again).start()
    try:
        after = again.settings.league_for_guild(server.guild_id)
        assert after == before
        assert again.league_ids[server.guild_id] == harness.bot.league_ids[server.guild_id]
    finally:
        await h2.close()


async def test_setup_show_names_both_sides_where_the_rulebook_contradicts_itself(
        harness: Harness, server: Server) -> None:
    admin = server.admin()
    await server.slash("/setup league", as_=admin, preset="youth-ball-hockey", name="Youth", timezone="America/Toronto")
    shown = await server.slash("/setup show", as_=admin)
    assert ("The rulebook disagrees: Youth rules 1.19 (playoff ties go to “a 5-round shootout”) vs Youth rules "
            "2.13B (“three players from each team”); in force: 5 shooters, this setting.") in shown.text


async def test_a_config_league_may_not_take_a_discord_leagues_key(harness: Harness, server: Server, db_url: str,
                                                                  clock: FixedClock) -> None:
    """Else the start-up plan would read it as that league moving servers, carrying its data along."""
    from bot.config.settings import SettingsError
    from tests.conftest import league_config, make_settings

    await set_up(server)
    key = harness.bot.settings.league_for_guild(server.guild_id).key
    again = create_bot(make_settings(league_config(key)), engine=create_engine(db_url), clock=clock,
                       run_scheduler=False)
    with pytest.raises(SettingsError, match="is the key of a league set up in Discord"):
        await Harness(again).start()
    await again.close()
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(League.guild_id).where(League.key == key)) == server.guild_id


async def test_a_youth_team_is_put_in_junior_or_senior_and_nothing_else(harness: Harness, server: Server) -> None:
    """Youth 1.1: junior and senior divisions, each with its court size; a team without one would be checked
    against the wrong court and left out of its division's bracket."""
    admin = server.admin()
    await server.slash("/setup league", as_=admin, preset="youth-ball-hockey", name="Youth", timezone="America/Toronto")
    before = await stored(harness)
    missing = await server.slash("/setup team", as_=admin, name="Hawks")
    assert missing.ephemeral and "Youth plays in divisions: give the team one with division: (junior, senior)" \
        in missing.content, missing.content
    typo = await server.slash("/setup team", as_=admin, name="Hawks", division="Senoir")
    assert typo.ephemeral and "“Senoir” isn't one of this league's divisions. Did you mean senior?" in typo.content
    assert await stored(harness) == before
    made = await server.slash("/setup team", as_=admin, name="Hawks", division="SENIOR")
    assert made.content == "Hawks: created, division senior.", made.content
    kept = await server.slash("/setup team", as_=admin, name="Hawks", division="junior")
    assert kept.content == ("Hawks already has the division senior. Nothing changed. To go ahead, run /setup team "
                            "again with replace:True."), kept.content
    moved = await server.slash("/setup team", as_=admin, name="Hawks", division="junior", replace=True)
    assert moved.content == "Hawks: division junior (was senior).", moved.content
    offered = await harness.autocomplete("/setup team", focused="division", as_=admin, guild_id=server.guild_id,
                                         name="Hawks", division="")
    assert [c["value"] for c in offered.autocomplete_choices] == ["junior", "senior"]
    async with harness.bot.sessions() as s:
        team = await s.scalar(select(Team).where(Team.name == "Hawks"))
        assert team is not None and team.division is not None and team.division.name == "junior"
        audit = (await s.scalars(select(SetupChange.key).where(SetupChange.key.like("teams.Hawks.division")))).all()
        assert len(audit) == 2


async def test_elsewhere_a_division_is_optional_and_any_name_goes(harness: Harness, server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    plain = await server.slash("/setup team", as_=admin, name="Hawks")
    assert plain.content == "Hawks: created.", plain.content
    named = await server.slash("/setup team", as_=admin, name="Owls", division="North")
    assert named.content == "Owls: created, division North.", named.content
    same = await server.slash("/setup team", as_=admin, name="Hawks", division="north")
    assert same.content == "Hawks: division North.", same.content


#: The settings the rulebook audit added, a value other than the co-ed preset's, and how /setup show cites the
#: preset's value.
AUDITED = {
    "standings_forfeit_goals_count": ("standings", "true", "Co-ed rules: Game Structure 9"),
    "standings_all_teams_qualify": ("standings", "false", "Co-ed rules: Game Structure 8"),
    "standings_seeding_games_guaranteed": ("standings", "3", "Co-ed rules: Game Structure 8"),
    "discipline_commissioner_may_exceed_range": ("discipline", "true", "league setting"),
    "dispute_calls_allowed": ("deadlines", "true", "Co-ed rules: Ref interaction 2"),
}


async def test_the_audited_settings_are_shown_with_their_sections_and_overridden(harness: Harness,
                                                                                 server: Server) -> None:
    await set_up(server)
    admin = server.admin()
    for key, (section, _, cited) in AUDITED.items():
        page = await server.slash("/setup show", as_=admin, section=section)
        line = next((ln for ln in page.text.split("\n") if f"({key})**" in ln), "")
        assert "· preset" in line and cited in line, (key, line)
    for key, (_, value, _) in AUDITED.items():
        changed = await server.slash("/setup rule", as_=admin, key=key, value=value)
        assert changed.ephemeral and f"({key}):" in changed.content and f"→ {value}" in changed.content, changed.content
    rules = harness.bot.settings.league_for_guild(server.guild_id).rules
    assert (rules.standings.standings_forfeit_goals_count, rules.standings.standings_all_teams_qualify,
            rules.standings.standings_seeding_games_guaranteed) == (True, False, 3)
    assert rules.discipline.discipline_commissioner_may_exceed_range and rules.deadlines.dispute_calls_allowed
    after = await server.slash("/setup show", as_=admin)
    for key, (_, value, _) in AUDITED.items():
        assert any(f"({key})** = {value} · set in Discord" in ln for ln in after.text.split("\n")), key
    beyond = await server.slash("/setup rule", as_=admin, key="standings_seeding_games_guaranteed", value="51")
    assert "between 0 and 50" in beyond.content
    standings = harness.bot.settings.league_for_guild(server.guild_id).rules.standings
    assert standings.standings_seeding_games_guaranteed == 3


async def test_the_draft_channel_is_picked_in_discord(harness: Harness, server: Server) -> None:
    """A league set up in Discord names where the draft board goes, as a config file's league can."""
    await set_up(server)
    picked = await server.slash("/setup channels", as_=server.admin(), draft=discord.Object(CHANNEL_IDS["draft"]))
    assert picked.ephemeral, picked.content
    assert f"• Draft channel: not set → <#{CHANNEL_IDS['draft']}>" in picked.content, picked.content
    league = harness.bot.settings.league_for_guild(server.guild_id)
    assert league is not None and league.channels.draft == CHANNEL_IDS["draft"]
    shown = await server.slash("/setup show", as_=server.admin())
    assert f"<#{CHANNEL_IDS['draft']}>" in shown.text
