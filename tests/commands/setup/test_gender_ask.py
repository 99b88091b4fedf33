"""A player who checks in without a gender category, where the rules count women/non-binary players,
is asked once, privately, with a select; elsewhere nobody is asked."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from cogs.checkins._buttons import custom_id_for
from storage.models import GenderAsk, Player
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness, Member, Reply

NEW = Member(id=830_000_000_000_000_001, name="Noa New")


def select_of(reply: Reply) -> list[dict[str, object]]:
    """The select in any answer (the ask follows the check-in's own answer)."""
    rows = [row for call in reply.responses for row in call.payload.get("components") or []]
    return [c for row in rows for c in row["components"] if c["type"] == 3]


async def add_without_gender(h: Harness, league: SampleLeague) -> None:
    added = await h.slash("/roster add", as_=league.captain("Hawks"), player=NEW)
    assert "is now on Hawks" in added.content


async def test_asked_once_and_the_answer_stays_private(harness: Harness, league: SampleLeague) -> None:
    await add_without_gender(harness, league)
    first = await harness.slash("/checkin", as_=NEW, status="in", game="G1")
    assert first.ephemeral and "**in**" in first.text and "Which category are you?" in first.text
    (menu,) = select_of(first)
    assert [o["value"] for o in menu["options"]] == ["woman", "non-binary", "man", "prefer-not-to-say"]
    chose = await harness.choose(str(menu["custom_id"]), ["non-binary"], as_=NEW)
    assert chose.responses[0].payload["content"] == "Thanks: saved as non-binary, privately."
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Player.gender).where(Player.discord_id == NEW.id)) == "non-binary"
    again = await harness.slash("/checkin", as_=NEW, status="out", game="G1")
    assert select_of(again) == [] and "Which category" not in again.content


async def test_not_asked_again_when_the_first_ask_went_unanswered(harness: Harness, league: SampleLeague) -> None:
    await add_without_gender(harness, league)
    assert select_of(await harness.slash("/checkin", as_=NEW, status="in", game="G1"))
    assert select_of(await harness.slash("/checkin", as_=NEW, status="maybe", game="G1")) == []
    async with harness.bot.sessions() as s:
        assert len((await s.scalars(select(GenderAsk))).all()) == 1


async def test_a_refused_check_in_or_a_button_press_asks_nothing_and_the_next_slash_check_in_does(
        harness: Harness, league: SampleLeague) -> None:
    """The ask is decided and recorded in the check-in's own unit of work: a refusal writes neither."""
    await add_without_gender(harness, league)
    refused = await harness.slash("/checkin", as_=NEW, status="in", game="G2")  # not a Hawks game
    assert "Only players on" in refused.content and select_of(refused) == []
    league_id = harness.bot.league_ids[harness.bot.settings.leagues[0].guild_id]
    pressed = await harness.press(custom_id_for("G1", "in", league_id), as_=NEW)
    assert "**in**" in pressed.text and select_of(pressed) == []
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(GenderAsk))).all() == []
    assert select_of(await harness.slash("/checkin", as_=NEW, status="maybe", game="G1"))


async def test_a_player_with_a_gender_is_never_asked(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G1")
    assert select_of(reply) == [] and "Which category" not in reply.content


class TestWhereTheRulesDoNotCount:
    @pytest.fixture
    def settings(self) -> Settings:
        return make_settings(league_config("youth", preset="youth-ball-hockey"))

    async def test_nobody_is_asked(self, harness: Harness, league: SampleLeague) -> None:
        await add_without_gender(harness, league)
        reply = await harness.slash("/checkin", as_=NEW, status="in", game="G1")
        assert "**in**" in reply.content and select_of(reply) == []
