"""The drawing functions alone: every bracket size, every preset's columns, the names that don't fit."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

from bench.pictures import sample_bracket, sample_table
from bot.league.playoffs import build_bracket, render_bracket
from bot.league.standings.presets import STANDINGS_PRESETS
from bot.services.pictures import MAX_BYTES, PicturesUnavailable, bracket_png, pictures_available, standings_png
from bot.services.pictures.canvas import fit, text_width
from bot.services.pictures.standings import column_labels
from bot.services.playoffs import RENDER_WIDTH, BracketView
from bot.services.standings import StandingsTable, render_rows


def opened(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("teams", range(2, 17))
def test_every_bracket_size_draws_one_column_per_round(teams: int) -> None:
    bracket = build_bracket([f"Team {n}" for n in range(1, teams + 1)])
    image = opened(bracket_png(BracketView(bracket, render_bracket(bracket, RENDER_WIDTH), {})))
    rounds = len(bracket.rounds)
    assert image.width == 2 * 28 + rounds * 250 + (rounds - 1) * 44
    assert image.height < 2200  # 16 teams: eight first-round games high


@pytest.mark.parametrize("preset", sorted(STANDINGS_PRESETS))
def test_the_picture_has_the_columns_of_the_text(preset: str) -> None:
    rules = STANDINGS_PRESETS[preset]
    assert list(column_labels(rules)) == render_rows((), rules).split()


def test_an_empty_league_draws_a_table_saying_so() -> None:
    table = StandingsTable("k", "Empty", STANDINGS_PRESETS["indoor-soccer"], (), 0, datetime.now(UTC))
    assert opened(standings_png(table)).width > 300


def test_a_large_table_stays_a_phones_width() -> None:
    image = opened(standings_png(sample_table(30, 3, random.Random(1))))
    assert image.width <= 900 and image.height > 30 * 44


def test_names_too_long_are_cut_with_an_ellipsis() -> None:
    cut = fit("Thunderbirds of the North Shore", 22, 150)
    assert cut.endswith("…") and text_width(cut, 22) <= 150
    assert fit("Owls", 22, 150) == "Owls"


def test_without_pillow_drawing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "PIL", None)
    assert not pictures_available()
    with pytest.raises(PicturesUnavailable):
        bracket_png(sample_bracket(8, random.Random(1)))
