"""/bracket show and /standings show with picture:True: a PNG beside the text, through the real command tree."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select

import bot.services.pictures.bracket
from bot.services.pictures import MAX_BYTES
from bot.services.pictures.canvas import Canvas
from storage.models import PlayoffBracket
from tests.conftest import CHANNELS, SampleLeague
from tests.harness import Harness, Reply

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Four more teams make the sample league eight (a full 8-team bracket), six more make it ten.
MORE_TEAMS = ("Lions", "Tigers", "Foxes", "Thunderbirds of the North Shore", "Eagles", "Sharks")


async def add_teams(h: Harness, count: int) -> None:
    rows = "".join(f"{name},{'North' if i % 2 else 'South'},,\n" for i, name in enumerate(MORE_TEAMS[:count]))
    data = ("team,division,captain_discord_ids,channel_id\n" + rows).encode()
    await h.bot.services.imports.importer.run("teams", data, h.bot.settings.leagues[0], now=h.bot.clock.now(),
                                              allow_past=True)


def pictures(reply: Reply) -> dict[str, Image.Image]:
    """The PNG attachments of the answer, each checked to be a PNG within Discord's limit."""
    found = {}
    for name, data in reply.last.files.items():
        assert data.startswith(PNG_SIGNATURE), name
        assert len(data) <= MAX_BYTES
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG"
        found[name] = image
    return found


def attachment_meta(reply: Reply) -> list[dict]:
    return reply.last.payload.get("attachments") or []


async def test_an_eight_team_bracket_as_a_picture_beside_the_text(harness: Harness, league: SampleLeague) -> None:
    await add_teams(harness, 4)
    created = await harness.slash("/bracket create", as_=league.commissioner())  # co-ed: every team qualifies
    assert "Playoff bracket: 8 teams seeded" in created.text
    assert created.last.files == {}  # only /bracket show draws

    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    assert shown.ephemeral
    assert "== Quarterfinals ==" in shown.text and "== Final ==" in shown.text  # the text is still there
    drawn = pictures(shown)
    assert list(drawn) == ["bracket.png"]
    width, height = drawn["bracket.png"].size
    assert 600 <= width <= 1600 and 400 <= height <= 1600  # three rounds side by side, four games high
    alt = attachment_meta(shown)
    assert len(alt) == 1 and alt[0]["filename"] == "bracket.png"
    assert "the same bracket is in the text" in alt[0]["description"]

    plain = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert plain.last.files == {} and not attachment_meta(plain)
    assert "== Quarterfinals ==" in plain.text


async def test_a_ten_team_table_as_a_picture_with_the_texts_columns(harness: Harness, league: SampleLeague) -> None:
    await add_teams(harness, 6)
    shown = await harness.slash("/standings show", as_=league.player("Alice Hart"), picture=True, public=True)
    assert not shown.ephemeral
    text = shown.text
    assert "Sharks" in text and "GP  W  L  T" in text  # the text table is kept
    assert sum(1 for line in text.splitlines() if line[:2].strip().isdigit()) == 10
    drawn = pictures(shown)
    assert list(drawn) == ["standings.png"]
    width, height = drawn["standings.png"].size
    assert 500 <= width <= 1100  # a phone's width, not a spreadsheet's
    assert height >= 10 * 44  # ten rows at least
    plain = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    assert plain.last.files == {}


async def test_asking_again_after_a_result_draws_the_new_standings(harness: Harness, league: SampleLeague) -> None:
    before = await harness.slash("/standings show", as_=league.player("Alice Hart"), picture=True,
                                 division="North")
    assert list(pictures(before)) == ["standings-north.png"]
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    entered = await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=1,
                                  decided="regulation")
    assert "Recorded" in entered.content
    after = await harness.slash("/standings show", as_=league.player("Alice Hart"), picture=True,
                                division="North")
    assert after.last.files["standings-north.png"] != before.last.files["standings-north.png"]
    assert " 1 Hawks" in after.text


async def test_a_playoff_score_shows_in_the_picture_and_the_text(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/bracket create", as_=league.commissioner())
    async with harness.bot.sessions() as s:
        seeds = (await s.scalar(select(PlayoffBracket))).seeds  # type: ignore[union-attr]
    games = f"game_id,starts_at,home,away,venue,kind\nP1,2030-02-01 19:00,{seeds[0]},{seeds[3]},Rink A,playoff\n"
    await harness.bot.services.imports.importer.run("games", games.encode(), harness.bot.settings.leagues[0],
                                                    now=harness.bot.clock.now(), allow_past=True)
    before = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    harness.bot.clock.advance(days=28)  # type: ignore[attr-defined]
    entered = await harness.slash("/result enter", as_=league.referee(), game="P1", home=2, away=3,
                                  decided="overtime")
    assert "Recorded" in entered.content
    after = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    assert f"`R1-M1` {seeds[0]} 2-3 OT {seeds[3]}" in after.text  # the score, for those who read the text
    assert after.last.files["bracket.png"] != before.last.files["bracket.png"]


async def test_without_pillow_the_text_comes_with_a_polite_word(harness: Harness, league: SampleLeague,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    await harness.slash("/bracket create", as_=league.commissioner())
    monkeypatch.setitem(sys.modules, "PIL", None)  # what an install without the images extra finds
    bracket = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    assert bracket.content == "Pictures aren't available on this bot, so here is the text only."
    assert "== Final ==" in bracket.text and bracket.last.files == {}
    table = await harness.slash("/standings show", as_=league.player("Alice Hart"), picture=True)
    assert table.content == "Pictures aren't available on this bot, so here is the text only."
    assert "Hawks" in table.text and table.last.files == {}


def test_a_started_bot_has_not_imported_pillow(db_url: str) -> None:
    """Most answers are text: a bot started with every cog loaded, commands included, has not loaded Pillow."""
    script = f"""
import asyncio, sys
from bot.run.app import create_bot
from storage.db import create_engine
from tests.conftest import league_config, make_settings
from tests.harness import Harness

async def main():
    bot = create_bot(make_settings(league_config()), engine=create_engine({db_url!r}), run_scheduler=False)
    h = await Harness(bot).start()
    try:
        print(sorted(m for m in sys.modules if m == "PIL" or m.startswith("PIL.")))
    finally:
        await h.close()

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


async def test_the_posted_standings_carry_a_picture_that_follows_each_result(harness: Harness,
                                                                             league: SampleLeague) -> None:
    channel = CHANNELS["standings"]
    posted = await harness.slash("/standings post", as_=league.commissioner())
    assert posted.content == f"Posted the standings in <#{channel}>."
    sent = [c for c in harness.discord.calls if c.channel_id == channel]
    assert [c.method for c in sent] == ["POST", "PATCH"]  # the text, then its picture at once
    assert sent[0].files == {} and list(sent[1].files) == ["standings.png"]
    assert sent[1].embeds == sent[0].embeds  # the text stays beside the picture
    first = sent[1].files["standings.png"]

    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=1, decided="regulation")
    forfeit = await harness.slash("/result forfeit", as_=league.commissioner(), game="G2", team="Bears")
    assert "Bears" in forfeit.content, forfeit.content
    edits = [c for c in harness.discord.calls if c.channel_id == channel and c.method == "PATCH"][1:]
    assert len(edits) == 2 and all(list(c.files) == ["standings.png"] for c in edits)
    assert len({first, *(c.files["standings.png"] for c in edits)}) == 3  # a new table each time
    assert opened_png(edits[-1].files["standings.png"]).width > 500


async def test_without_pillow_the_posted_standings_stay_text(harness: Harness, league: SampleLeague,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    await harness.slash("/standings post", as_=league.commissioner())
    again = await harness.slash("/standings post", as_=league.commissioner())
    assert again.content.startswith("Refreshed the standings message")
    sent = [c for c in harness.discord.calls if c.channel_id == CHANNELS["standings"]]
    assert [c.method for c in sent] == ["POST", "PATCH"] and all(c.files == {} for c in sent)
    assert sent[1].payload.get("attachments") == []  # an earlier picture would be taken off, not left stale


def opened_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


async def test_a_slow_picture_arrives_in_the_deferred_answer(harness: Harness, league: SampleLeague,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the deadline guard's wait, the answer is a deferral, then its edit carrying text and picture."""
    await harness.slash("/bracket create", as_=league.commissioner())
    harness.keep_deadline(defer_after=0.05)
    real = bot.services.pictures.bracket.png

    def slow(picture: Canvas) -> bytes:
        time.sleep(0.5)  # in the worker thread: the event loop goes on and the guard defers
        return real(picture)

    # (the drawing module, not the cog: discord.py loads a cog's module afresh for each bot)
    monkeypatch.setattr(bot.services.pictures.bracket, "png", slow)
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    deferral, *rest = shown.responses
    assert deferral.body["type"] == 5  # "thinking…", privately
    assert [(c.method, c.path.rsplit("/", 1)[-1]) for c in rest] == [("PATCH", "@original")]
    assert list(rest[0].files) == ["bracket.png"] and "== Final ==" in rest[0].text
    assert pictures(shown)["bracket.png"].width > 500


async def test_a_picture_that_fails_to_draw_leaves_the_text(harness: Harness, league: SampleLeague,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    await harness.slash("/bracket create", as_=league.commissioner())

    def broken(picture: Canvas) -> bytes:
        raise OSError("disk full")

    monkeypatch.setattr(bot.services.pictures.bracket, "png", broken)
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    assert shown.content == "The picture couldn't be drawn this time, so here is the text only."
    assert "== Final ==" in shown.text and shown.last.files == {}
