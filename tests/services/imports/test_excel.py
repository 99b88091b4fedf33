"""Imports meet Excel: every problem of a file in one round, any common delimiter
and encoding, the usual spellings, a "did you mean" for a slip, and clashes in the schedule refused.
Every refusal leaves the database as it was."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.config.settings import LeagueSettings
from bot.services.imports.csv_rows import CsvImportError
from bot.services.imports.importer import Importer
from storage.models import Division, Game, Player, RosterEntry, Team, TeamCaptain
from tests.conftest import league_config, make_settings

DATA = Path(__file__).resolve().parents[2] / "data"
NOW = datetime(2029, 12, 1, tzinfo=UTC)
PLAYERS = "discord_id,name,team,position,gender\n"
GAMES = "game_id,starts_at,home,away,venue,kind\n"


@pytest.fixture
def youth() -> LeagueSettings:
    return make_settings(league_config("youth", preset="youth-ball-hockey")).leagues[0]


async def counts(importer: Importer) -> dict[str, int]:
    async with importer.sessions() as s:
        return {m.__name__: await s.scalar(select(func.count()).select_from(m)) or 0
                for m in (Division, Team, TeamCaptain, Player, RosterEntry, Game)}


async def with_teams(importer: Importer, league: LeagueSettings) -> dict[str, int]:
    await importer.run("teams", (DATA / "teams.csv").read_bytes(), league, now=NOW)
    return await counts(importer)


async def refused(importer: Importer, league: LeagueSettings, kind: str, data: str | bytes) -> list[str]:
    """The problems of a refused file, as shown ("line N: ..."), checking that nothing changed."""
    before = await counts(importer)
    with pytest.raises(CsvImportError) as err:
        await importer.run(kind, data.encode() if isinstance(data, str) else data, league, now=NOW)
    assert await counts(importer) == before
    return [str(p) for p in err.value.problems]


# --- delimiters and encodings ------------------------------------------------------------------


@pytest.mark.parametrize(("delimiter", "named"), [(";", "semicolon"), ("\t", "tab"), (",", None)])
async def test_semicolon_and_tab_files_import_and_the_report_names_the_delimiter(
        importer: Importer, coed: LeagueSettings, delimiter: str, named: str | None) -> None:
    text = (DATA / "teams.csv").read_text().replace(",", delimiter)
    report = await importer.run("teams", text.encode(), coed, now=NOW)
    assert (report.created, report.delimiter) == (4, delimiter)
    first = report.summary().splitlines()[0]
    assert first.endswith(f"(read as {named}-separated)") if named else first.endswith("0 unchanged")
    async with importer.sessions() as s:
        bears = await s.scalar(select(Team).where(Team.name == "Bears"))
        assert bears is not None and bears.channel_id == 600000000000000003


async def test_excels_sep_line_and_a_byte_order_mark_are_understood(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    data = "\ufeffsep=;\ndiscord_id;name;team;position;gender\n1;Al Roy;Hawks;skater;\n2;Bo Lee;Hawks;;f\n"
    report = await importer.run("players", data.encode(), coed, now=NOW)
    assert (report.created, report.delimiter) == (2, ";")
    # a later mistake is still reported at its own line, counting the sep= line
    problems = await refused(importer, coed, "players", "sep=;\ndiscord_id;name;team;position\n3;Cy;Hawks;coach\n")
    assert problems[0].startswith("line 3: position 'coach'")


async def test_a_utf16_file_from_excels_unicode_text_imports(importer: Importer, coed: LeagueSettings) -> None:
    text = (DATA / "teams.csv").read_text().replace(",", "\t").replace("Owls", "Hiboux Ö")
    report = await importer.run("teams", text.encode("utf-16"), coed, now=NOW)
    assert report.created == 4
    async with importer.sessions() as s:
        assert await s.scalar(select(Team.id).where(Team.name == "Hiboux Ö")) is not None


async def test_a_latin1_file_names_the_line_and_says_to_save_as_utf8(importer: Importer, coed: LeagueSettings) -> None:
    data = "team,division,captain_discord_ids\nHawks,North,1\nMontréal,North,2\n".encode("latin-1")
    problems = await refused(importer, coed, "teams", data)
    assert len(problems) == 1
    assert problems[0].startswith("line 3: the file is not UTF-8 text")
    assert 'save it as "CSV UTF-8"' in problems[0]


async def test_a_header_read_with_the_wrong_delimiter_says_how_it_was_read(
        importer: Importer, coed: LeagueSettings) -> None:
    problems = await refused(importer, coed, "teams", "team|division|captain_discord_ids\nHawks|North|1\n")
    assert problems == ["line 1: missing column(s): team, division, captain_discord_ids (the header must include "
                        "team,division,captain_discord_ids; read as comma-separated)"]


# --- one round -----------------------------------------------------------------------------------


async def test_format_problems_and_unknown_teams_come_in_one_round(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    problems = await refused(importer, coed, "players", PLAYERS
                             + "x1,Al,Hawks,skater,\n2,Bo,Hawsk,skater,\n3,Cy,Owls,skater,woman\n4,Di,Ducks,g,\n")
    assert [p.split(":")[0] for p in problems] == ["line 2", "line 3", "line 5"]
    assert "discord_id 'x1' is not a Discord id" in problems[0]
    assert "unknown team 'Hawsk': did you mean 'Hawks'?" in problems[1]
    assert "import teams first" not in problems[1]  # the team exists: a slip, not a missing import
    assert "unknown team 'Ducks' (no such team in league coed; its teams: Bears, Hawks, Owls, Wolves)" in problems[2]


async def test_games_report_format_unknown_teams_and_clashes_together(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    problems = await refused(importer, coed, "games", GAMES
                             + "X1,2030-03-01 19:00,Hawks,Owls,A,regular\n"
                             + "X2,2030-03-01 19:00,Hawks,Bears,B,regular\n"  # Hawks twice at 19:00
                             + "X3,soon,Owls,Wolves,A,regular\n"
                             + "X4,2030-03-02 19:00,Owlz,Wolves,A,regular\n")
    assert [p.split(":")[0] for p in problems] == ["line 3", "line 4", "line 5"]
    assert "Hawks would play two games at once: X2 at 2030-03-01 19:00 and X1 at 19:00 (line 2)" in problems[0]
    assert "starts_at 'soon' is not a date and time" in problems[1]
    assert "unknown team 'Owlz': did you mean 'Owls'?" in problems[2]


async def test_a_league_with_no_teams_is_told_to_import_teams_first(importer: Importer, coed: LeagueSettings) -> None:
    problems = await refused(importer, coed, "players", PLAYERS + "1,Al,Hawks,skater,\n")
    assert problems == ["line 2: unknown team 'Hawks' (league coed has no teams yet: import teams first)"]


# --- spellings -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "gender", "stored"), [
    ("G", "F", ("goalie", "woman")),
    ("goaltender", "female", ("goalie", "woman")),
    ("Goalkeeper", "W", ("goalie", "woman")),
    ("player", "women", ("skater", "woman")),
    ("Skater", "nb", ("skater", "non-binary")),
    ("defence", "Non-Binary", ("skater", "non-binary")),
    ("", "nonbinary", ("skater", "non-binary")),
    ("forward", "M", ("skater", "man")),
    ("s", "male", ("skater", "man")),
    ("skater", "Prefer not to say", ("skater", "prefer-not-to-say")),
])
async def test_common_spellings_of_position_and_gender_are_understood(
        importer: Importer, coed: LeagueSettings, position: str, gender: str, stored: tuple[str, str]) -> None:
    await with_teams(importer, coed)
    await importer.run("players", f"{PLAYERS}9,Al Roy,Hawks,{position},{gender}\n".encode(), coed, now=NOW)
    async with importer.sessions() as s:
        row = (await s.execute(select(RosterEntry.position, Player.gender).join(
            Player, Player.id == RosterEntry.player_id))).one()
    assert tuple(row) == stored


async def test_an_unknown_spelling_lists_the_accepted_ones(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    problems = await refused(importer, coed, "players", PLAYERS + "1,Al,Hawks,coach,female\n2,Bo,Hawks,g,alien\n")
    assert problems[0].startswith("line 2: position 'coach' is not one we know; write one of: skater (")
    assert "goalie (goalies, g, goaltender" in problems[0]
    assert problems[1].startswith("line 3: gender 'alien' is not one we know; write one of: woman (")
    assert "non-binary (nonbinary, non binary, nb" in problems[1]


@pytest.mark.parametrize("cell", ["7.01E+17", "7,01E+17", "5.00000000000000E+17", "7.01e17"])
async def test_an_id_excel_shortened_gets_one_line_saying_what_happened_and_how_to_fix_it(
        importer: Importer, coed: LeagueSettings, cell: str) -> None:
    await with_teams(importer, coed)
    rows = "".join(f'"{cell}",Player {n},Hawks,skater,\n' for n in range(30))
    problems = await refused(importer, coed, "players", f"{PLAYERS}{rows}4,Al,Hawsk,skater,\n")
    assert problems == [
        f"the discord_id column has ids a spreadsheet turned into numbers like {cell} (30 rows, lines 2 to 31): it "
        "kept only their first 15 digits, so the ids are lost. Format that column as Text and paste the full ids in "
        "again",
        "line 32: unknown team 'Hawsk': did you mean 'Hawks'?"]
    teams = f'team,division,captain_discord_ids,channel_id\nHawks,North,"{cell}",\nOwls,North,1,"{cell}"\n'
    assert await refused(importer, coed, "teams", teams) == [
        f"the captain_discord_ids and channel_id columns have ids a spreadsheet turned into numbers like {cell} "
        "(2 rows, lines 2 to 3): it kept only their first 15 digits, so the ids are lost. Format those columns as "
        "Text and paste the full ids in again"]


# --- the schedule: a team in one place at a time ---------------------------------------------------------


async def test_the_same_game_twice_under_two_ids_is_refused(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    problems = await refused(importer, coed, "games", GAMES + "X1,2030-03-01 19:00,Hawks,Owls,A,regular\n"
                             "X2,2030-03-01 19:00,Owls,Hawks,A,regular\n")
    assert problems == ["line 3: X2 is the same game as X1 (line 2): Owls vs Hawks at 2030-03-01 19:00"]


async def test_a_venue_holding_two_games_at_once_is_refused_by_line(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    await importer.run("games", (DATA / "games.csv").read_bytes(), coed, now=NOW)  # G2: Rink B 01-11 20:00
    problems = await refused(importer, coed, "games", GAMES
                             + "X1,2030-03-01 19:00,Hawks,Owls,Rink B,regular\n"
                             + "X2,2030-03-01 19:20,Bears,Wolves,rink b,regular\n"  # the same rink, any case
                             + "X3,2030-03-01 19:00,Bears,Wolves,,regular\n"  # no venue: never a clash
                             + "X4,2030-01-11 20:30,Hawks,Owls,Rink B,regular\n")  # G2's rink
    assert problems == [
        "line 3: rink b would hold two games at once: X2 at 2030-03-01 19:20 and X1 at 19:00 (line 2); "
        "a game lasts at least 40 minutes",
        "line 4: Bears would play two games at once: X3 at 2030-03-01 19:00 and X2 at 19:20 (line 3); "
        "a game lasts at least 40 minutes",
        "line 5: Rink B would hold two games at once: X4 at 2030-01-11 20:30 and G2 at 20:00 (already scheduled); "
        "a game lasts at least 40 minutes"]
    report = await importer.run("games", (GAMES + "X1,2030-03-01 19:00,Hawks,Owls,Rink B,regular\n"
                                          "X2,2030-03-01 19:40,Bears,Wolves,Rink B,regular\n").encode(), coed, now=NOW)
    assert report.created == 2  # 40 minutes later the rink is free


async def test_a_clash_with_a_stored_game_is_refused_and_a_cancelled_one_frees_the_slot(
        importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    await importer.run("games", (DATA / "games.csv").read_bytes(), coed, now=NOW)  # G1: Hawks-Owls 01-11 19:00
    clash = GAMES + "X9,2030-01-11 19:10,Bears,Hawks,C,regular\n"  # Bears: G2 at 20:00 is far enough
    assert await refused(importer, coed, "games", clash) == [
        "line 2: Hawks would play two games at once: X9 at 2030-01-11 19:10 and G1 at 19:00 (already scheduled); "
        "a game lasts at least 40 minutes"]
    # the file may move G1 out of the way in the same breath, and a game 40 minutes later is no clash
    report = await importer.run("games", (GAMES + "G1,2030-01-11 18:20,Hawks,Owls,Rink A,regular\n"
                                          "X9,2030-01-11 19:00,Bears,Hawks,C,regular\n").encode(), coed, now=NOW)
    assert (report.created, report.updated) == (1, 1)
    early = GAMES + "X10,2030-01-11 18:00,Hawks,Wolves,C,regular\n"
    assert "Hawks would play two games at once: X10" in (await refused(importer, coed, "games", early))[0]
    async with importer.sessions.begin() as s:
        g1 = await s.scalar(select(Game).where(Game.code == "G1"))
        assert g1 is not None
        g1.status = "cancelled"
    report = await importer.run("games", early.encode(), coed, now=NOW)
    assert report.created == 1


# --- names -------------------------------------------------------------------------------------------------


async def test_two_players_of_one_name_on_a_team_are_imported_with_a_warning(
        importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    await importer.run("players", (PLAYERS + "1,Al Roy,Hawks,skater,\n").encode(), coed, now=NOW)
    report = await importer.run("players", (PLAYERS + "2,Bo Lee,Owls,skater,\n3,al roy,Hawks,skater,\n"
                                            "4,Bo Lee,Owls,goalie,\n5,Bo Lee,Hawks,skater,\n").encode(), coed, now=NOW)
    assert report.created == 4
    assert report.warnings == [
        "line 3: Hawks has 2 players named 'Al Roy' (line 3, 1 already on the roster); imported, each with their "
        "own Discord id",
        "line 4: Owls has 2 players named 'Bo Lee' (lines 2, 4); imported, each with their own Discord id"]
    assert report.summary().splitlines()[1:] == [f"warning: {w}" for w in report.warnings]


async def test_youth_divisions_are_junior_or_senior_in_any_case(importer: Importer, youth: LeagueSettings) -> None:
    problems = await refused(importer, youth, "teams", "team,division,captain_discord_ids\nHawks,U14,1\n"
                             "Owls,Junor,2\nBears,SENIOR,3\n")
    assert problems == [
        "line 2: division 'U14' is not one of this league's divisions: use one of junior, senior",
        "line 3: division 'Junor' is not one of this league's divisions: did you mean 'junior'? use one of "
        "junior, senior"]
    await importer.run("teams", b"team,division,captain_discord_ids\nHawks,Junior,1\nBears,SENIOR,3\nOwls,,2\n",
                       youth, now=NOW)
    async with importer.sessions() as s:
        stored = dict((await s.execute(select(Team.name, Division.name).outerjoin(
            Division, Division.id == Team.division_id))).all())
    assert stored == {"Hawks": "junior", "Bears": "senior", "Owls": None}


async def test_a_new_division_a_slip_away_from_another_is_warned_about(
        importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    report = await importer.run("teams", b"team,division,captain_discord_ids\nRavens,Nroth,1\nCrows,East,2\n",
                                coed, now=NOW)
    assert report.warnings == ["line 2: new division 'Nroth': did you mean 'North'?"]


async def test_an_unknown_game_id_in_results_suggests_the_one_meant(importer: Importer, coed: LeagueSettings) -> None:
    await with_teams(importer, coed)
    await importer.run("games", (DATA / "games.csv").read_bytes(), coed, now=NOW)
    header = "game_id,home_score,away_score,decided\n"
    problems = await refused(importer, coed, "results", header + "g1,1,0,regulation\nG9,x,0,regulation\n"
                             "G42,1,0,regulation\n")
    assert problems[0] == "line 2: unknown game_id 'g1': did you mean 'G1'?"
    assert problems[1].startswith("line 3: home_score 'x' must be a whole number")
    assert problems[2] == "line 4: unknown game_id 'G42' (no such game in league coed; import games first)"


async def test_a_teams_file_with_one_captain_on_two_teams_or_a_shared_channel_imports_nothing(
        importer: Importer, coed: LeagueSettings) -> None:
    await importer.run("teams", b"team,division,captain_discord_ids,channel_id\nBears,,13,33\n", coed, now=NOW)
    problems = await refused(importer, coed, "teams", "team,division,captain_discord_ids,channel_id\n"
                             "Hawks,,11,31\nOwls,,11,32\nWolves,,14,31\nLions,,13,34\n")
    assert problems == [
        "line 3: Owls: captain 11 is already captain of Hawks (line 2) (a member captains one team in a league)",
        "line 4: Wolves: channel 31 is already the channel of Hawks (line 2) (each team has its own)",
        "line 5: Lions: captain 13 is already captain of Bears (a member captains one team in a league)"]
