"""/rule and /rulebook section through the real command tree, the related-section buttons, and
the start-up import of a league's configured rulebook."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from bot.services.rulebooks.lookup import RulesLookupService, UnreadableRulebook
from cogs.rulebooks import custom_id_for, rules_service
from storage.db import create_engine, session_factory
from storage.models import League, Rulebook, RuleSection
from tests.conftest import (
    GUILD,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    league_config,
    make_settings,
)
from tests.harness import Harness, Member, Reply, next_id

COED_RULEBOOK = Path(__file__).resolve().parents[2] / "bot" / "league" / "rulebooks" / "coed-ball-hockey.txt"
needs_shared = pytest.mark.skipif(
    not COED_RULEBOOK.is_file(),
    reason=f"the shipped co-ed rulebook is not at {COED_RULEBOOK}",
)

SYNTHETIC = """\
Section 1 - Game Format
1.1 - Periods Games are played in two 20 minute halves with a running clock.
1.2 - Overtime If the game is tied after regulation, a 5 minute sudden death overtime is played, then a shootout.
1.3 - Shootout Each team picks 3 shooters for the shootout. At least one shooter must be a woman or non-binary player.
Section 2 - Conduct
2.1 - Offsides There is no offside in this league.
2.2 - Slap shots Slap shots are not allowed; the ball may not be raised above the knee.
2.3 - Talking to the referee Only captains may speak with the referee about a call.
"""
SYNTHETIC_SECTIONS = 8


@pytest.fixture
def settings() -> Settings:
    youth = league_config("youth", OTHER_GUILD, "youth-ball-hockey", OTHER_ROLES, OTHER_CHANNELS)
    return make_settings(league_config(), youth)


async def import_text(h: Harness, text: str, *, guild: int = GUILD, source: str = "rules.txt") -> None:
    await rules_service(h.bot).import_rulebook(h.bot.league_ids[guild], text.encode(), source)


async def press(h: Harness, custom_id: str, *, as_: Member, guild_id: int | None = None) -> Reply:
    """Press a button as Discord sends it: the pressed message carries the button (discord.py
    rebuilds a DynamicItem from the message's components; ``Harness.press`` sends none)."""
    guild_id = guild_id or h.default_guild
    channel = (h.channels.get(guild_id or 0) or [next_id()])[0]
    message: dict[str, Any] = {
        "id": str(next_id()), "channel_id": str(channel), "type": 20, "content": "",
        "author": h.discord.bot_user, "embeds": [], "attachments": [], "mentions": [],
        "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
        "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "flags": 64,
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Button", "custom_id": custom_id}]}],
    }
    data = {"custom_id": custom_id, "component_type": 2}
    return await h._feed(h._base(3, as_, guild_id, channel, data, message))


def embed_of(reply: Reply) -> dict[str, Any]:
    embeds = reply.last.embeds
    assert len(embeds) == 1, reply.calls
    return embeds[0]


def cited_first(reply: Reply) -> str:
    """The section an answer leads with: its title when sure, the first choice when not."""
    embed = embed_of(reply)
    if embed["title"].startswith("I'm not sure"):
        return embed["fields"][0]["name"]
    return embed["title"]


def section_buttons(reply: Reply) -> list[str]:
    return [c for c in reply.last.custom_ids() if c.startswith("sideline:rule:")]


def assert_within_discord_limits(reply: Reply) -> None:
    embed = embed_of(reply)
    assert len(embed.get("title") or "") <= 256
    assert len(embed.get("description") or "") <= 4096
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed.get("fields") or [])
    for custom_id in reply.last.custom_ids():
        assert len(custom_id) <= 100
    assert reply.first.allowed_mentions == {"parse": []}


# --- /rule ----------------------------------------------------------------------------------------

@needs_shared
@pytest.mark.parametrize(("question", "citation"), [
    ("how long is ot", "Overtime 1"),
    ("wat happens if we dont have enuf girls", "TEAMS 1"),
    ("can i talk to the ref", "REF INTERACTION 1"),
])
async def test_a_casual_question_finds_the_section_in_the_real_coed_rulebook(
        harness: Harness, question: str, citation: str) -> None:
    await import_text(harness, COED_RULEBOOK.read_text(encoding="utf-8"), source=str(COED_RULEBOOK))
    reply = await harness.slash("/rule", as_=harness.member("Pat Player"), question=question)
    assert reply.ephemeral
    assert cited_first(reply).startswith(citation)
    assert_within_discord_limits(reply)


async def test_rule_answers_with_the_best_section_and_related_buttons_that_work(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    player = harness.member("Pat Player")
    reply = await harness.slash("/rule", as_=player, question="how many shooters in the shootout after overtime")
    embed = embed_of(reply)
    assert embed["title"] == "1.3 Shootout"
    assert "Each team picks 3 shooters" in embed["description"]
    assert reply.ephemeral
    assert_within_discord_limits(reply)
    buttons = section_buttons(reply)
    assert 1 <= len(buttons) <= 2
    league_id = harness.bot.league_ids[GUILD]
    assert all(b.startswith(f"sideline:rule:{league_id}:") for b in buttons)
    related = next(f["value"] for f in embed["fields"] if f["name"] == "Related")

    pressed = await press(harness, buttons[0], as_=player)
    assert pressed.ephemeral
    shown = embed_of(pressed)["title"]
    assert shown in related
    assert pressed.first.allowed_mentions == {"parse": []}


async def test_an_answer_with_buttons_leaves_no_view_or_timer_behind(harness: Harness) -> None:
    """discord.py keeps an ephemeral reply's view for 15 minutes, with a timer task, unless it is
    finished: one per /rule answer piled up. The buttons are DynamicItems, so nothing needs keeping."""
    await import_text(harness, SYNTHETIC)
    for _ in range(3):
        reply = await harness.slash("/rule", as_=harness.member("Pat"), question="how many shooters in the shootout")
        assert reply.last.custom_ids()
    timers = [t for t in asyncio.all_tasks() if "timeout_task" in getattr(t.get_coro(), "__qualname__", "")]
    assert timers == []
    store = harness.bot._connection._view_store
    assert store.persistent_views == [] and not store._synced_message_views


async def test_buttons_keep_working_after_a_restart(harness: Harness, db_url: str, clock: FixedClock) -> None:
    await import_text(harness, SYNTHETIC)
    league_id = harness.bot.league_ids[GUILD]
    bot = create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    restarted = await Harness(bot).start()
    try:
        assert bot.league_ids[GUILD] == league_id
        reply = await press(restarted, f"sideline:rule:{league_id}:2.2", as_=restarted.member("Pat"))
        assert embed_of(reply)["title"] == "2.2 Slap shots"
    finally:
        await restarted.close()


async def test_a_citation_typed_as_the_question_shows_that_section(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="2.1")
    assert embed_of(reply)["title"] == "2.1 Offsides"


async def test_an_empty_question_gets_help_not_an_error(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="   ")
    assert reply.ephemeral
    embed = embed_of(reply)
    assert embed["title"] == "Ask me about the rules"
    assert "in your own words" in embed["description"]
    assert "• Section 1 Game Format\n• Section 2 Conduct" in reply.text  # the parts, to start with
    assert "went wrong" not in reply.text


async def test_a_500_character_question_is_answered(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    question = ("so last week i took a slap shot and got called for it, are slap shots allowed " * 10)[:500]
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question=question, forged=True)
    embed = embed_of(reply)
    assert embed["title"] == "2.2 Slap shots"
    assert "first 300 characters" in embed["footer"]["text"]
    assert_within_discord_limits(reply)


async def test_a_question_nothing_matches_gets_suggestions(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="@everyone zzzqx")
    embed = embed_of(reply)
    assert embed["title"] == "No section matched"
    assert "@everyone" not in embed["description"]  # defused, though nothing pings anyway
    assert "Section 2 Conduct" in reply.text
    assert reply.first.allowed_mentions == {"parse": []}


async def test_no_rulebook_yet_is_a_polite_message(harness: Harness) -> None:
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="offsides")
    assert reply.ephemeral
    assert "No rulebook has been imported for this league yet" in reply.content
    assert "commissioner" in reply.content
    suggestions = await harness.autocomplete("/rule", focused="question", as_=harness.member("Pat"), question="")
    assert suggestions.autocomplete_choices == []


async def test_a_long_section_is_trimmed_to_discords_limits(harness: Harness) -> None:
    long_title = "Very " * 80 + "Long Title"
    body = "Players must wear helmets at all times. " * 200  # 8,000 characters
    await import_text(harness, f"GEAR\n• {long_title}: {body}\n• Shin pads are required.\n")
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="helmets")
    embed = embed_of(reply)
    assert len(embed["description"]) == 4096 and embed["description"].endswith("…")
    assert len(embed["title"]) <= 256
    assert_within_discord_limits(reply)


# --- autocomplete ---------------------------------------------------------------------------------

async def test_autocomplete_with_nothing_typed_suggests_the_first_sections(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.autocomplete("/rule", focused="question", as_=harness.member("Pat"), question="")
    choices = reply.autocomplete_choices
    assert [c["value"] for c in choices][:3] == ["1.1", "1.2", "1.3"]
    assert choices[0]["name"] == "1.1 Periods"


async def test_autocomplete_follows_what_is_typed(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.autocomplete("/rule", focused="question", as_=harness.member("Pat"), question="slap")
    assert reply.autocomplete_choices[0] == {"name": "2.2 Slap shots", "value": "2.2"}
    by_citation = await harness.autocomplete("/rulebook section", focused="citation", as_=harness.member("Pat"),
                                             citation="2.")
    assert [c["value"] for c in by_citation.autocomplete_choices][:3] == ["2.1", "2.2", "2.3"]


@needs_shared
async def test_autocomplete_on_the_real_rulebook_stays_within_discords_limits(harness: Harness) -> None:
    await import_text(harness, COED_RULEBOOK.read_text(encoding="utf-8"))
    member = harness.member("Pat")
    for typed in ("", "g", "goalie", "how long is overtime", "STICK AND BALL PLAY", "x" * 300):
        reply = await harness.autocomplete("/rule", focused="question", as_=member, question=typed)
        choices = reply.autocomplete_choices
        assert len(choices) <= 25
        assert all(1 <= len(c["name"]) <= 100 and 1 <= len(c["value"]) <= 100 for c in choices)
    choices = (await harness.autocomplete("/rule", focused="question", as_=member, question="")).autocomplete_choices
    assert len(choices) == 25
    # every suggestion leads to exactly that section
    for choice in choices[:5]:
        shown = await harness.slash("/rulebook section", as_=member, citation=choice["value"])
        assert embed_of(shown)["title"] == choice["value"]  # bullets: the citation says it all
        assert choice["name"].startswith(f"{choice['value']} · ")  # and the name adds the first words


# --- /rulebook section ----------------------------------------------------------------------------

async def test_rulebook_section_shows_exactly_that_section(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rulebook section", as_=harness.member("Pat"), citation="1.2")
    embed = embed_of(reply)
    assert embed["title"] == "1.2 Overtime"
    assert embed["description"].startswith("1.2 - Overtime If the game is tied")
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    assert reply.last.custom_ids() == []


async def test_rulebook_section_of_a_heading_lists_its_sections(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rulebook section", as_=harness.member("Pat"), citation="section 2")
    embed = embed_of(reply)
    assert embed["title"] == "Section 2 Conduct"
    assert "2.1 Offsides" in embed["fields"][0]["value"]
    assert len(reply.last.custom_ids()) == 2


async def test_rulebook_section_refuses_an_unknown_citation_politely(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    reply = await harness.slash("/rulebook section", as_=harness.member("Pat"), citation="9.9")
    assert reply.ephemeral
    assert reply.content.startswith("There's no section “9.9” in this league's rulebook.")


# --- forged and foreign buttons -------------------------------------------------------------------

async def test_a_forged_button_for_a_missing_citation_is_refused_politely(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    league_id = harness.bot.league_ids[GUILD]
    reply = await press(harness, f"sideline:rule:{league_id}:7.7", as_=harness.member("Pat"))
    assert reply.ephemeral
    assert "There's no section “7.7”" in reply.content


async def test_a_button_naming_another_league_is_refused(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    await import_text(harness, SYNTHETIC, guild=OTHER_GUILD)
    coed = harness.bot.league_ids[GUILD]
    # pressed in the youth league's server, naming the coed league's section
    reply = await press(harness, f"sideline:rule:{coed}:1.1", as_=harness.member("Pat", league=1),
                                guild_id=OTHER_GUILD)
    assert reply.ephemeral
    assert "another league's rulebook" in reply.content


async def test_a_press_in_a_league_without_that_section_is_refused(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    await import_text(harness, "GEAR\n• Helmets are required.\n", guild=OTHER_GUILD)
    youth = harness.bot.league_ids[OTHER_GUILD]
    reply = await press(harness, f"sideline:rule:{youth}:2.2", as_=harness.member("Pat", league=1),
                                guild_id=OTHER_GUILD)
    assert reply.ephemeral and "There's no section “2.2”" in reply.content


async def test_each_league_answers_from_its_own_rulebook(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    await import_text(harness, "GEAR\n• Helmets are required for every player.\n", guild=OTHER_GUILD)
    coed = await harness.slash("/rule", as_=harness.member("Pat"), question="helmet")
    youth = await harness.slash("/rule", as_=harness.member("Yan", league=1), question="helmet",
                                guild_id=OTHER_GUILD)
    assert embed_of(coed)["title"] == "No section matched"
    assert embed_of(youth)["title"] == "GEAR 1"


def test_a_citation_too_long_for_a_custom_id_gets_no_button() -> None:
    assert custom_id_for(1, "2.7") == "sideline:rule:1:2.7"
    assert custom_id_for(1, "X" * 100) is None


# --- the index cache ------------------------------------------------------------------------------

async def test_an_import_from_another_process_is_picked_up(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    member = harness.member("Pat")
    before = await harness.slash("/rule", as_=member, question="helmets")
    assert embed_of(before)["title"] == "No section matched"
    # the CLI is another process: another service instance on the same database
    other = RulesLookupService(session_factory(harness.bot.engine), harness.bot.clock)
    await other.import_rulebook(harness.bot.league_ids[GUILD], b"GEAR\n- Helmets are required.\n", "new.txt")
    cached = await harness.slash("/rule", as_=member, question="helmets")
    assert embed_of(cached)["title"] == "No section matched"  # trusted for a few seconds: no query per keystroke
    rules_service(harness.bot).recheck_seconds = 0  # as if RECHECK_SECONDS had passed
    after = await harness.slash("/rule", as_=member, question="helmets")
    assert embed_of(after)["title"] == "GEAR 1"


async def test_leagues_that_imported_the_same_rulebook_read_one_index(harness: Harness) -> None:
    """Per preset: one index in memory for every league that imported the same file, kept while one reads it;
    a league that imports another file gets its own and leaves the others' alone."""
    async with harness.bot.sessions.begin() as s:
        twin = League(key="twin", guild_id=444_444_444_444_444_444, name="Twin", preset="coed-ball-hockey")
        s.add(twin)
        await s.flush()
        twin_id = twin.id
    coed, youth = harness.bot.league_ids[GUILD], harness.bot.league_ids[OTHER_GUILD]
    service = rules_service(harness.bot)
    for league_id in (coed, youth, twin_id):
        await service.import_rulebook(league_id, SYNTHETIC.encode(), "rules.txt")
    first, other_preset, twin_index = (await service.index(coed), await service.index(youth),
                                       await service.index(twin_id))
    assert first is twin_index and first is not other_preset  # a preset's words make the index its own
    # Another process reading them from storage builds the index once for both.
    fresh = RulesLookupService(session_factory(harness.bot.engine), harness.bot.clock)
    assert await fresh.index(coed) is await fresh.index(twin_id) is not None
    await service.import_rulebook(twin_id, b"GEAR\n- Helmets are required.\n", "new.txt")
    assert await service.index(coed) is first and await service.index(twin_id) is not first
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="slap shots")
    assert embed_of(reply)["title"].startswith("2.2")


async def test_a_bad_file_changes_nothing(harness: Harness) -> None:
    await import_text(harness, SYNTHETIC)
    service = rules_service(harness.bot)
    league_id = harness.bot.league_ids[GUILD]
    for data, problem in ((b"", "is empty"), (b"  \n\n ", "is empty"), (b"\xff\xfe\x00r\x00u", "not UTF-8"),
                          (b"Rules\x00\x00", "NUL")):
        with pytest.raises(UnreadableRulebook, match=problem):
            await service.import_rulebook(league_id, data, "bad.txt")
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(RuleSection)) == SYNTHETIC_SECTIONS
    reply = await harness.slash("/rule", as_=harness.member("Pat"), question="offside")
    assert embed_of(reply)["title"] == "2.1 Offsides"


# --- start-up import ------------------------------------------------------------------------------

async def start(settings: Settings, db_url: str, clock: FixedClock) -> Harness:
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    return await Harness(bot).start()


async def stored(h: Harness) -> tuple[str, object, int]:
    async with h.bot.sessions() as s:
        book = await s.scalar(select(Rulebook))
        count = await s.scalar(select(func.count()).select_from(RuleSection))
        assert book is not None
        return book.fingerprint, book.imported_at, count or 0


async def test_the_configured_rulebook_is_imported_at_start_only_when_it_changed(
        tmp_path: Path, db_url: str, clock: FixedClock) -> None:
    path = tmp_path / "rulebooks" / "coed.txt"
    path.parent.mkdir()
    path.write_text(SYNTHETIC, encoding="utf-8")
    settings = make_settings(league_config(rulebook=str(path)), url=db_url)

    h = await start(settings, db_url, clock)
    try:
        first = await stored(h)
        assert first[2] == SYNTHETIC_SECTIONS
        reply = await h.slash("/rule", as_=h.member("Pat"), question="slapshots")
        assert embed_of(reply)["title"] == "2.2 Slap shots"
    finally:
        await h.close()

    clock.advance(hours=1)
    h = await start(settings, db_url, clock)  # same file: not imported again
    try:
        assert await stored(h) == first
    finally:
        await h.close()

    path.write_text(SYNTHETIC + "2.4 - Fighting Fighting is an automatic ejection.\n", encoding="utf-8")
    clock.advance(hours=1)
    h = await start(settings, db_url, clock)  # changed: imported again
    try:
        fingerprint, imported_at, count = await stored(h)
        assert fingerprint != first[0] and count == SYNTHETIC_SECTIONS + 1
        assert imported_at == first[1] + timedelta(hours=2)
        reply = await h.slash("/rule", as_=h.member("Pat"), question="fight")
        assert embed_of(reply)["title"] == "2.4 Fighting"
    finally:
        await h.close()


async def test_a_missing_or_bad_configured_rulebook_is_logged_and_the_bot_starts(
        tmp_path: Path, db_url: str, clock: FixedClock, caplog: pytest.LogCaptureFixture) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe not utf-8")
    settings = make_settings(league_config(rulebook=str(tmp_path / "nowhere.txt")),
                             league_config("youth", OTHER_GUILD, "youth-ball-hockey", OTHER_ROLES,
                                           OTHER_CHANNELS, rulebook=str(bad)), url=db_url)
    with caplog.at_level(logging.WARNING, logger="sideline.rules"):
        h = await start(settings, db_url, clock)
    try:
        assert "nowhere.txt not found" in caplog.text
        assert "is not UTF-8 text" in caplog.text
        reply = await h.slash("/rule", as_=h.member("Pat"), question="offside")
        assert "No rulebook has been imported" in reply.content
    finally:
        await h.close()


async def test_the_commands_as_discord_sees_them(harness: Harness) -> None:
    rule = harness.bot.tree.get_command("rule").to_dict(harness.bot.tree)
    (question,) = rule["options"]
    assert question["name"] == "question" and question["required"] and question["autocomplete"]
    assert question["max_length"] == 300 and question["min_length"] == 1
    rulebook = harness.bot.tree.get_command("rulebook").to_dict(harness.bot.tree)
    section = next(o for o in rulebook["options"] if o["name"] == "section")
    assert section["options"][0]["name"] == "citation"
    assert section["options"][0]["autocomplete"] and section["options"][0]["max_length"] == 100
