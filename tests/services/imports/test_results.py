"""Backfilling results from a CSV file: all or nothing, every problem reported with its line."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.services.imports.csv_rows import CsvImportError
from bot.services.standings import StandingsService
from storage.models import Game, Result, ResultChange
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

HEADER = "game_id,home_score,away_score,decided,shootout_home,shootout_away\n"
YOUTH = make_settings(league_config(preset="youth-ball-hockey"))


def csv(*rows: str) -> bytes:
    return (HEADER + "".join(f"{r}\n" for r in rows)).encode()


async def run(h: Harness, data: bytes):  # type: ignore[no-untyped-def]
    return await h.bot.services.imports.importer.run("results", data, h.bot.settings.leagues[0], now=h.bot.clock.now())


async def state(h: Harness) -> tuple[int, int, dict[str, str]]:
    async with h.bot.sessions() as s:
        results = await s.scalar(select(func.count()).select_from(Result)) or 0
        changes = await s.scalar(select(func.count()).select_from(ResultChange)) or 0
        games = dict((await s.execute(select(Game.code, Game.status))).all())
    return results, changes, games  # type: ignore[return-value]


async def test_results_import_and_reimport_changes_nothing(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    data = csv("G1,3,2,regulation,,", "G2,2,2,shootout,1,3", "G3,3,4,overtime,,", "G4,0,5,forfeit,,")
    report = await run(harness, data)
    assert (report.kind, report.created, report.updated, report.unchanged) == ("results", 4, 0, 0)
    results, changes, games = await state(harness)
    assert (results, changes) == (4, 4)
    assert [games[g] for g in ("G1", "G2", "G3", "G4", "G5")] == ["final"] * 4 + ["scheduled"]
    async with harness.bot.sessions() as s:
        forfeit = await s.scalar(select(Result).join(Game, Game.id == Result.game_id).where(Game.code == "G4"))
        assert forfeit is not None and forfeit.decided == "forfeit"
        assert forfeit.forfeit_team.name == "Wolves"  # the side with 0 (Wolves are home in G4)
        assert (forfeit.home_score, forfeit.away_score, forfeit.entered_by) == (0, 5, None)
        assert (await s.scalar(select(ResultChange.action).limit(1))) == "imported"

    again = await run(harness, data)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 4)
    assert (await state(harness))[:2] == (4, 4)


async def test_a_bad_file_imports_nothing_and_names_each_line(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    before = await state(harness)
    data = csv("G1,3,2,regulation,,",  # line 2: fine
               "G9,1,0,regulation,,",  # line 3: no such game
               "G3,1,0,regulation,,",  # line 4: not played yet
               "G2,2,2,regulation,,")  # line 5: a co-ed game can't end tied in regulation
    with pytest.raises(CsvImportError) as caught:
        await run(harness, data)
    problems = [(p.line, p.message) for p in caught.value.problems]
    assert [line for line, _ in problems] == [3, 4, 5]
    assert "unknown game_id 'G9'" in problems[0][1]
    assert "game G3 has not been played yet (it starts 2030-01-18 19:00)" in problems[1][1]
    assert "game G2:" in problems[2][1] and "can't end tied" in problems[2][1]
    assert await state(harness) == before


async def test_csv_format_problems_come_from_the_parser_with_lines(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    before = await state(harness)
    with pytest.raises(CsvImportError) as caught:
        await run(harness, csv("G1,3,2,regulation,,", "G2,2,2,shootout,,"))
    assert [p.line for p in caught.value.problems] == [3]
    assert "needs shootout_home and shootout_away" in str(caught.value)
    assert await state(harness) == before


async def test_an_import_corrects_an_entered_result_and_logs_the_old_values(harness: Harness,
                                                                           league: SampleLeague) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2, decided="regulation")
    report = await run(harness, csv("G1,3,4,overtime,,"))
    assert (report.created, report.updated) == (0, 1)
    async with harness.bot.sessions() as s:
        change = await s.scalar(select(ResultChange).order_by(ResultChange.id.desc()).limit(1))
        assert change is not None and change.action == "imported"
        assert (change.old["home_score"], change.old["away_score"]) == (3, 2)  # type: ignore[index]
        assert (change.new["away_score"], change.new["decided"]) == (4, "overtime")


async def test_a_failing_hook_rolls_the_whole_import_back(harness: Harness, league: SampleLeague,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    before = await state(harness)
    calls: list[int] = []

    async def fail_on_second(session, league_id: int, game_id: int) -> None:  # type: ignore[no-untyped-def]
        calls.append(game_id)
        if len(calls) == 2:
            raise RuntimeError("discipline bug")

    monkeypatch.setattr(harness.bot.services.imports.importer, "on_result", fail_on_second)
    with pytest.raises(RuntimeError):
        await run(harness, csv("G1,3,2,regulation,,", "G2,1,0,regulation,,"))
    assert await state(harness) == before


@pytest.mark.parametrize("settings", [YOUTH])
async def test_an_imported_youth_forfeit_costs_a_point(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    await run(harness, csv("G1,5,0,forfeit,,"))  # Owls (away) forfeit
    table = await StandingsService(harness.bot.sessions, harness.bot.clock).league_table(
        harness.bot.settings.leagues[0], division="senior")  # the sample's North, in a youth league
    assert [(r.team, r.pts, r.gf, r.ga, r.forfeits) for r in table.rows] == [
        ("Hawks", 2, 5, 0, 0), ("Owls", -1, 0, 5, 1)]


async def test_a_schedule_reimport_cannot_rewrite_a_played_game(harness: Harness, league: SampleLeague) -> None:
    """Standings, the bracket and penalties hang on a played game's teams and kind: a games file may
    repeat that row, not change it; the unplayed games in the same file still update."""
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    cfg = harness.bot.settings.leagues[0]
    await run(harness, csv("G1,3,2,regulation,,"))
    async with harness.bot.sessions() as s:
        g1, g5 = [await s.scalar(select(Game).where(Game.code == code)) for code in ("G1", "G5")]
    assert g1 is not None and g5 is not None

    def row(game: Game, **change: str) -> str:
        fields = {"when": game.starts_at.astimezone(cfg.timezone).strftime("%Y-%m-%d %H:%M"),
                  "home": game.home.name, "away": game.away.name, "venue": game.venue, "kind": game.kind} | change
        return f"{game.code},{fields['when']},{fields['home']},{fields['away']},{fields['venue']},{fields['kind']}\n"

    async def import_games(*rows: str):  # type: ignore[no-untyped-def]
        data = ("game_id,starts_at,home,away,venue,kind\n" + "".join(rows)).encode()
        return await harness.bot.services.imports.importer.run("games", data, cfg, now=harness.bot.clock.now(),
                                                        allow_past=True)

    standings_before = (await StandingsService(harness.bot.sessions, harness.bot.clock).league_table(cfg)).rows
    for changed in (row(g1, kind="playoff"), row(g1, home=g1.away.name, away=g1.home.name),
                    row(g1, venue="Elsewhere")):
        with pytest.raises(CsvImportError) as err:
            await import_games(row(g5, venue="New Rink"), changed)
        assert [p.line for p in err.value.problems] == [3]
        assert "G1 already has a result, so its row can't change; as played it reads " + row(g1).strip() in str(
            err.value)
    async with harness.bot.sessions() as s:
        assert (await s.execute(select(Game.kind, Game.venue).where(Game.code == "G1"))).one() == ("regular", g1.venue)
        assert await s.scalar(select(Game.venue).where(Game.code == "G5")) == g5.venue  # nothing imported
    assert (await StandingsService(harness.bot.sessions, harness.bot.clock).league_table(cfg)).rows == standings_before

    report = await import_games(row(g5, venue="New Rink"), row(g1))  # the played row as it was: fine
    assert (report.updated, report.unchanged) == (1, 1)


THREE_NIL = make_settings(league_config(rules={"standings_forfeit_score": [3, 0]}))


@pytest.mark.parametrize("settings", [THREE_NIL])
async def test_an_imported_forfeit_takes_the_leagues_forfeit_score_not_5_0(
        harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    with pytest.raises(CsvImportError) as refused:
        await run(harness, csv("G1,5,0,forfeit,,"))
    assert "a forfeit is recorded 3-0 or 0-3 in this league" in str(refused.value)
    assert (await state(harness))[0] == 0
    await run(harness, csv("G1,3,0,forfeit,,"))  # Owls (away) forfeit at the league's 3-0
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Result))
    assert (row.home_score, row.away_score, row.decided, row.forfeit_team.name) == (3, 0, "forfeit", "Owls")


def test_the_summary_shows_what_the_import_did_to_the_bracket_then_its_warnings() -> None:
    from bot.services.imports.report import ImportReport

    report = ImportReport("results", created=1, delimiter=";", notes=["Hawks go on to the final."],
                          warnings=["line 3: score 12-0 is unusually high"])
    assert report.summary().splitlines() == [
        "results: 1 created, 0 updated, 0 unchanged (read as semicolon-separated)",
        "Hawks go on to the final.",
        "warning: line 3: score 12-0 is unusually high",
    ]
