"""Clipping text to Discord's limits (bot/discord_text.py): never longer than asked, never a broken
mention, timestamp or link, and embeds that Discord's own checks accept."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_text import (
    CONTENT_LIMIT,
    ELLIPSIS,
    EMBED_TOTAL,
    FENCE,
    WHOLE_MARKUP,
    clip,
    embeds_length,
    fit_content,
    fit_embeds,
    quote,
)
from tests.harness import discord_spec

# Pieces people type and the bot writes: mentions (and defused ones), timestamps, links, emoji
# with joiners, accents, flags, code fences, and plain words.
PIECES = ["<@500000000000000001>", "<@!500000000000000001>", "<@&1001>", "<#3001>", "<@\u200b500000000000000002>",
          "<t:1894483200:F>", "<t:1894483200>", "<:hawks:123456789012345678>", "</checkin:123456789012345678>",
          "[the rulebook](https://example.org/rules#2.7)", "https://example.org/a/very/long/path?x=1",
          "👩‍👩‍👧‍👦", "🏳️‍🌈", "🇨🇦", "🇨", "e\u0301", "```", "**bold**", "word", " ", "\n", "2.7", "é"]
REGIONAL = "".join(map(chr, range(0x1F1E6, 0x1F200)))
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=60).map("".join)


def kept_of(clipped: str) -> str:
    """What a clipped text kept of its source: without the ellipsis (and the fence that closes a block)."""
    closing = ELLIPSIS + FENCE
    return clipped[:-len(closing)] if clipped.endswith(closing) else clipped[:-len(ELLIPSIS)]


def whole_markup(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in WHOLE_MARKUP.finditer(text)]


@given(text=texts, limit=st.integers(min_value=0, max_value=400))
def test_a_clipped_text_is_never_longer_than_the_limit(text: str, limit: int) -> None:
    assert len(clip(text, limit)) <= limit


@given(text=texts, limit=st.integers(min_value=2, max_value=400))
def test_text_that_fits_is_only_trimmed_and_text_that_does_not_ends_in_an_ellipsis(text: str, limit: int) -> None:
    out = clip(text, limit)
    if len(text.strip()) <= limit:
        assert out == text.strip()
    else:
        assert out.endswith(ELLIPSIS) or out.endswith(f"{ELLIPSIS}{FENCE}")
        head = kept_of(out)
        assert text.strip().startswith(head)


@given(text=texts, limit=st.integers(min_value=2, max_value=400))
def test_a_cut_never_splits_a_mention_timestamp_or_link(text: str, limit: int) -> None:
    source = text.strip()
    out = clip(source, limit)
    if out == source:
        return
    kept = len(kept_of(out))
    for start, end in whole_markup(source):
        # a piece of markup is kept whole or left out; only one that begins the text may be cut
        # (else nothing at all would be left of it)
        assert not start < kept < end or start == 0, (source[start:end], out)


@given(text=texts, limit=st.integers(min_value=2, max_value=400))
def test_a_cut_never_splits_a_character_as_readers_see_it(text: str, limit: int) -> None:
    source = text.strip()
    out = clip(source, limit)
    if out == source or out.endswith(FENCE):
        return
    kept = len(out) - len(ELLIPSIS)
    rest = source[kept:].lstrip()
    if kept and rest:
        assert not unicodedata.combining(rest[0]) and rest[0] not in "\u200d\ufe0f", (source, out)
        assert source[kept - 1] != "\u200d"
        flags_before = len(source[:kept]) - len(source[:kept].rstrip(REGIONAL))
        assert not (flags_before % 2 and rest[0] in REGIONAL), (source, out)  # half a flag


@given(text=texts, limit=st.integers(min_value=10, max_value=400))
def test_a_clip_leaves_no_code_block_open_that_the_text_closed(text: str, limit: int) -> None:
    source = text.strip()
    if source.count(FENCE) % 2 == 0:
        assert clip(source, limit).count(FENCE) % 2 == 0


@given(text=texts, limit=st.integers(min_value=1, max_value=200))
def test_a_quote_is_one_clean_line_within_the_limit(text: str, limit: int) -> None:
    out = quote(text, limit)
    assert len(out) <= limit and "\n" not in out and "\t" not in out and "  " not in out
    assert "<@5" not in out and "<@&" not in out  # mentions show as text, whatever allowed_mentions says


def test_examples() -> None:
    assert clip("Section 2.7 <t:1894483200:F> kick-off", 20) == "Section 2.7…"
    assert clip("ask <@500000000000000001> now", 12) == "ask…"
    assert clip("🇨🇦🇨🇦🇨🇦", 4) == "🇨🇦…"
    assert clip("```\nline one\nline two\n```", 14) == "```\nline o…```"
    assert clip("  padded  ", 20) == "padded"
    assert clip("x" * 3000, 2000) == "x" * 1999 + ELLIPSIS
    assert quote("a\n  b\tc" + "d" * 200, 10) == "a b cdddd…"
    assert fit_content("x" * 2000) == "x" * 2000 and fit_content(" y ") == " y "


# --- embeds -----------------------------------------------------------------------------------------------
short = st.text(max_size=30)
long = st.one_of(short, texts, st.text(min_size=1000, max_size=5000))
fields = st.lists(st.fixed_dictionaries({"name": long.filter(str.strip), "value": long.filter(str.strip),
                                         "inline": st.booleans()}), max_size=30)
embeds = st.lists(st.fixed_dictionaries(
    {"type": st.just("rich")},
    optional={"title": long, "description": long, "fields": fields, "footer": st.fixed_dictionaries({"text": long}),
              "author": st.fixed_dictionaries({"name": long}), "color": st.integers(0, 0xFFFFFF)}), max_size=12)


def as_a_reply(embeds: list[dict[str, Any]], content: str = "") -> dict[str, Any]:
    return {"type": 4, "data": {"content": content, "embeds": embeds, "flags": 64}}


@given(embeds=embeds)
def test_fitted_embeds_are_ones_discord_accepts(embeds: list[dict[str, Any]]) -> None:
    fitted = fit_embeds(embeds)
    assert embeds_length(fitted) <= EMBED_TOTAL
    assert discord_spec.refusal("POST", "/interactions/1/token/callback", as_a_reply(fitted)) is None
    assert len(fitted) <= 10 and all(len(e.get("fields") or []) <= 25 for e in fitted)


@given(embeds=embeds)
def test_embeds_that_fit_are_left_alone(embeds: list[dict[str, Any]]) -> None:
    if discord_spec.refusal("POST", "/interactions/1/token/callback", as_a_reply(embeds)) is None:
        assert fit_embeds(embeds) == embeds


def test_the_longest_texts_give_way_when_all_embeds_together_are_too_long() -> None:
    embeds = [{"title": "Standings", "description": "d" * 4000, "fields": [{"name": "Note", "value": "short"}]},
              {"description": "e" * 3000, "footer": {"text": "generated now"}}]
    fitted = fit_embeds(embeds)
    assert embeds_length(fitted) == EMBED_TOTAL
    assert fitted[0]["title"] == "Standings" and fitted[0]["fields"][0]["value"] == "short"
    assert fitted[1]["footer"]["text"] == "generated now"
    assert embeds[0]["description"] == "d" * 4000  # the caller's embeds are not changed


def test_too_many_fields_say_how_many_are_not_shown() -> None:
    fitted = fit_embeds([{"fields": [{"name": str(i), "value": "v"} for i in range(30)]}])
    assert len(fitted[0]["fields"]) == 25 and fitted[0]["fields"][-1]["value"] == "6 more not shown"


@pytest.mark.parametrize("length", [CONTENT_LIMIT, CONTENT_LIMIT + 1, 6000])
def test_content_fits_discord(length: int) -> None:
    content = ("a <@500000000000000001> " * length)[:length]
    fitted = fit_content(content)
    assert len(fitted) <= CONTENT_LIMIT and (fitted == content) == (length <= CONTENT_LIMIT)
    assert discord_spec.refusal("POST", "/interactions/1/token/callback", as_a_reply([], fitted)) is None
    assert discord_spec.refusal("POST", "/interactions/1/token/callback", as_a_reply([], content)) is None or (
        length > CONTENT_LIMIT)
