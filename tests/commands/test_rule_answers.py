"""/rule in players' words, honest about how sure it is, and what the bot couldn't answer: the feedback
buttons, the commissioners' unanswered list, links, the league's own words and the weekly digest,
all through the real command tree."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.league.rulebooks.lexicon import words
from bot.run.app import create_bot
from bot.services.rulebooks.digest import DIGEST_KIND
from storage.db import create_engine
from storage.models import OutboxMessage, RuleFeedback, RuleQuestion
from tests.commands.test_rulebooks import COED_RULEBOOK, embed_of, import_text
from tests.conftest import CHANNELS, GUILD, OTHER_CHANNELS, OTHER_GUILD, OTHER_ROLES, league_config, make_settings
from tests.harness import Harness, Member, Reply

YOUTH_RULEBOOK = COED_RULEBOOK.with_name("youth-ball-hockey.txt")
ADMIN, OTHER_ADMIN = 3999, 4999
PLAYER_ID = 800_000_000_000_000_001


@pytest.fixture
def settings() -> Settings:
    coed = league_config(channels={**CHANNELS, "admin": ADMIN})
    # The youth league's commissioner made teams start with four skaters (and a goalie), not the rulebook's three.
    youth = league_config("youth", OTHER_GUILD, "youth-ball-hockey", OTHER_ROLES,
                          {**OTHER_CHANNELS, "admin": OTHER_ADMIN}, rules={"min_skaters_to_start": 4})
    return make_settings(coed, youth)


@pytest.fixture
async def books(harness: Harness) -> Harness:
    await import_text(harness, COED_RULEBOOK.read_text(encoding="utf-8"))
    await import_text(harness, YOUTH_RULEBOOK.read_text(encoding="utf-8"), guild=OTHER_GUILD)
    return harness


def player(h: Harness, league: int = 0) -> Member:
    return h.member("Pat Player", member_id=PLAYER_ID + league, league=league)


def commissioner(h: Harness, league: int = 0) -> Member:
    return h.member("Kay Commish", roles=("commissioner",), league=league)


def fields(reply: Reply) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed_of(reply).get("fields") or []}


def feedback_ids(reply: Reply) -> list[str]:
    return [c for c in reply.last.custom_ids() if c.startswith("sideline:rulefb:")]


async def ask(h: Harness, question: str, *, league: int = 0, who: Member | None = None) -> Reply:
    guild = (GUILD, OTHER_GUILD)[league]
    return await h.slash("/rule", as_=who or player(h, league), question=question, guild_id=guild)


# --- players' words and situations -------------------------------------------------------------------

@pytest.mark.parametrize(("league", "question", "citation"), [
    (1, "im 15 can i play senior", "1.2"),
    (0, "tendy smothered it at center is that legal", "GOALIES AND BALLS 1"),
])
async def test_a_question_in_players_words_cites_a_section_whose_title_shares_none_of_them(
        books: Harness, league: int, question: str, citation: str) -> None:
    reply = await ask(books, question, league=league)
    title = embed_of(reply)["title"]
    assert title.startswith(citation)
    assert not set(words(title)) & set(words(question))
    assert len(feedback_ids(reply)) == 2


async def test_a_situation_states_the_leagues_own_number_beside_the_citation(books: Harness) -> None:
    reply = await ask(books, "we only have 3 players and no goalie", league=1)
    assert embed_of(reply)["title"].startswith("2.4 Number of Players")
    here = fields(reply)["In this league"]
    assert "needs 4 players and a goalie" in here  # the league's setting, not the rulebook's three
    assert "Still short 10 minutes after the start, it forfeits." in here


async def test_a_league_without_a_minimum_says_so(books: Harness) -> None:
    reply = await ask(books, "only 2 guys showed up can we still play")
    assert "This league sets no minimum number of players to start a game." in fields(reply)["In this league"]


async def test_a_standings_question_states_how_this_league_breaks_ties(books: Harness) -> None:
    reply = await ask(books, "2 teams same points who finishes higher", league=1)
    here = fields(reply)["In this league"]
    assert "teams level on points go by most wins, then points in the games among the tied teams" in here
    assert "2 points for a win, 1 for a tie, 0 for a loss." in here


# --- honest confidence ------------------------------------------------------------------------------

async def test_an_unsure_answer_says_so_and_offers_three_sections_that_open(books: Harness) -> None:
    reply = await ask(books, "goalie")
    embed = embed_of(reply)
    assert embed["title"] == "I'm not sure which rule answers that"
    choices = [c for c in reply.last.custom_ids() if c.startswith("sideline:rule:")]
    assert len(choices) == 3 and len(feedback_ids(reply)) == 2
    league_id = books.bot.league_ids[GUILD]
    citation = choices[1].removeprefix(f"sideline:rule:{league_id}:")
    assert list(fields(reply))[1].startswith(citation)
    opened = await books.press(choices[1], as_=player(books), ephemeral=True)
    assert embed_of(opened)["title"].startswith(citation) and opened.ephemeral


async def test_nothing_matching_says_so_and_points_to_the_captain(books: Harness) -> None:
    reply = await ask(books, "zzzqx blorp")
    embed = embed_of(reply)
    assert embed["title"] == "No section matched"
    assert "ask your captain: they can take it to the referee" in embed["description"]
    assert feedback_ids(reply) == []


# --- feedback -------------------------------------------------------------------------------------

async def test_the_feedback_buttons_record_once_per_person_and_answer_politely_after(books: Harness) -> None:
    pat = player(books)
    helped, not_it = feedback_ids(await ask(books, "are clappers allowed", who=pat))
    first = await books.press(helped, as_=pat, ephemeral=True)
    assert first.ephemeral and first.content == "Thanks! Glad it helped."
    again = await books.press(not_it, as_=pat, ephemeral=True)
    assert again.ephemeral and again.content == "You've already told me about this answer. Thanks!"
    sam = books.member("Sam")
    other = await books.press(not_it, as_=sam, ephemeral=True)
    assert "the commissioners will see this question" in other.content
    async with books.bot.sessions() as session:
        votes = (await session.execute(select(RuleFeedback.member_id, RuleFeedback.helped))).all()
    assert sorted(votes) == sorted([(pat.id, True), (sam.id, False)])


async def test_the_feedback_buttons_work_after_a_restart(books: Harness, db_url: str, clock: FixedClock) -> None:
    pat = player(books)
    _, not_it = feedback_ids(await ask(books, "are clappers allowed", who=pat))
    bot = create_bot(books.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    restarted = await Harness(bot).start()
    try:
        pressed = await restarted.press(not_it, as_=pat, ephemeral=True)
        assert "the commissioners will see this question" in pressed.content
        assert (await restarted.press(not_it, as_=pat, ephemeral=True)).content.startswith("You've already told me")
    finally:
        await restarted.close()


async def test_a_feedback_press_from_another_leagues_server_changes_nothing(books: Harness) -> None:
    helped, _ = feedback_ids(await ask(books, "are clappers allowed"))
    pressed = await books.press(helped, as_=player(books, 1), guild_id=OTHER_GUILD, ephemeral=True)
    assert "another league's rulebook" in pressed.content
    async with books.bot.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(RuleFeedback)) == 0


# --- what commissioners see -----------------------------------------------------------------------

async def test_the_unanswered_list_never_shows_who_asked_unless_the_league_turned_it_on(books: Harness) -> None:
    pat = player(books)
    await ask(books, "goalie", who=pat)  # unsure
    await ask(books, "zzzqx blorp", who=pat)  # nothing
    _, not_it = feedback_ids(await ask(books, "are clappers allowed", who=pat))  # sure, then marked
    await books.press(not_it, as_=pat, ephemeral=True)
    await ask(books, "how many timeouts do we get", who=pat)  # sure and not marked: not listed
    kay = commissioner(books)
    listed = await books.slash("/rulebook unanswered", as_=kay)
    text = listed.text
    assert listed.ephemeral and "(3)" in embed_of(listed)["title"]
    assert "“goalie”" in text and "“zzzqx blorp”" in text and "“are clappers allowed”" in text
    assert "timeouts" not in text
    assert str(pat.id) not in str(listed.calls) and "Pat Player" not in str(listed.calls)
    assert "not sure between" in text and "no section matched" in text and "not what they asked ×1" in text

    turned = await books.slash("/rulebook askers", as_=kay, show=True)
    assert "now see who asked" in turned.content
    shown = await books.slash("/rulebook unanswered", as_=kay)
    assert f"<@{pat.id}>" in shown.text
    assert shown.first.allowed_mentions == {"parse": []}


async def test_only_commissioners_see_the_unanswered_questions(books: Harness) -> None:
    await ask(books, "goalie")
    refused = await books.slash("/rulebook unanswered", as_=player(books))
    assert refused.ephemeral and "Only a commissioner" in refused.content
    suggestions = await books.autocomplete("/rulebook link", focused="asked", as_=player(books), asked="")
    assert suggestions.autocomplete_choices == []


async def test_a_linked_question_finds_its_section_in_that_league_only(books: Harness) -> None:
    question = "can my little brother keep the score sheet"
    before = await ask(books, question, league=1)
    assert not embed_of(before)["title"].startswith("2.2")
    kay = commissioner(books, 1)
    choices = await books.autocomplete("/rulebook link", focused="asked", as_=kay, guild_id=OTHER_GUILD, asked="")
    picked = next(c["value"] for c in choices.autocomplete_choices if question in c["name"])
    linked = await books.slash("/rulebook link", as_=kay, guild_id=OTHER_GUILD, asked=picked, citation="2.2")
    assert "Linked “can my little brother keep the score sheet” to 2.2 Officiating" in linked.content
    after = await ask(books, "can my little brother keep the score sheet?", league=1)
    assert embed_of(after)["title"].startswith("2.2 Officiating")
    listed = await books.slash("/rulebook unanswered", as_=kay, guild_id=OTHER_GUILD)
    assert question not in listed.text
    elsewhere = await ask(books, question)  # the co-ed league didn't link it
    assert not embed_of(elsewhere)["title"].startswith("2.2")


async def test_a_link_to_a_section_the_rulebook_lacks_changes_nothing(books: Harness) -> None:
    await ask(books, "goalie")
    kay = commissioner(books)
    choices = await books.autocomplete("/rulebook link", focused="asked", as_=kay, asked="goal")
    picked = choices.autocomplete_choices[0]["value"]
    refused = await books.slash("/rulebook link", as_=kay, asked=picked, citation="9.99")
    assert "There's no section “9.99”" in refused.content
    bad = await books.slash("/rulebook link", as_=kay, asked="twelve", citation="TEAMS 1")
    assert "Pick the question from the suggestions" in bad.content
    async with books.bot.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(RuleQuestion)
                                    .where(RuleQuestion.resolved_at.is_not(None))) == 0


async def test_a_dismissed_question_leaves_the_list(books: Harness) -> None:
    await ask(books, "whats for dinner")
    kay = commissioner(books)
    choices = await books.autocomplete("/rulebook dismiss", focused="asked", as_=kay, asked="dinner")
    dismissed = await books.slash("/rulebook dismiss", as_=kay, asked=choices.autocomplete_choices[0]["value"])
    assert "off the unanswered list" in dismissed.content
    assert "No unanswered rules questions" in (await books.slash("/rulebook unanswered", as_=kay)).text


# --- the league's own words ---------------------------------------------------------------------------

async def test_a_leagues_own_word_is_read_as_what_it_means(books: Harness) -> None:
    question = "can i break my noodle"
    assert not embed_of(await ask(books, question))["title"].startswith("NO STICK THROWING")
    kay = commissioner(books)
    added = await books.slash("/rulebook words add", as_=kay, word="Noodle", means="stick")
    assert added.content == "/rule now reads “noodle” as “stick”."
    assert embed_of(await ask(books, question))["title"].startswith("NO STICK THROWING/SMASHING 1")
    listed = await books.slash("/rulebook words list", as_=kay)
    assert "“noodle” means “stick”" in listed.text
    offered = await books.autocomplete("/rulebook words remove", focused="word", as_=kay, word="no")
    assert [c["value"] for c in offered.autocomplete_choices] == ["noodle"]
    removed = await books.slash("/rulebook words remove", as_=kay, word="noodle")
    assert "no longer reads “noodle”" in removed.content
    assert not embed_of(await ask(books, question))["title"].startswith("NO STICK THROWING")


@pytest.mark.parametrize(("word", "means", "says"), [
    ("the", "ball", "too common a word"),
    ("ball", "ball", "can't mean itself"),
    ("<@123>", "ball", "can't be a word"),
])
async def test_a_word_that_cant_be_one_is_refused_politely(books: Harness, word: str, means: str, says: str) -> None:
    refused = await books.slash("/rulebook words add", as_=commissioner(books), word=word, means=means)
    assert refused.ephemeral and says in refused.content and "Nothing changed." in refused.content
    assert "No words of the league's own yet" in (await books.slash("/rulebook words list",
                                                                    as_=commissioner(books))).text


# --- the weekly digest --------------------------------------------------------------------------------

async def test_the_weekly_digest_lists_the_weeks_unanswered_questions_once_without_who_asked(
        books: Harness, clock: FixedClock) -> None:
    pat = player(books)
    await ask(books, "goalie", who=pat)
    await ask(books, "how many timeouts do we get", who=pat)  # answered: not in the digest
    async with books.bot.sessions() as session:
        (due,) = (await session.scalars(select(OutboxMessage.due_at).where(OutboxMessage.kind == DIGEST_KIND))).all()
    assert due.astimezone(books.bot.settings.leagues[0].timezone).strftime("%a %H:%M") == "Mon 09:00"
    clock.set(due + timedelta(minutes=1))
    await books.bot.courier.deliver_due()
    (posted,) = books.discord.channel_messages(ADMIN)
    digest = posted.embeds[0]
    assert "couldn't answer this week (1)" in digest["title"]
    assert "“goalie”" in digest["description"] and "timeouts" not in digest["description"]
    assert str(pat.id) not in str(posted.body)
    await books.bot.courier.deliver_due()
    assert len(books.discord.channel_messages(ADMIN)) == 1  # once a week
    async with books.bot.sessions() as session:
        later = (await session.scalars(select(OutboxMessage.due_at).where(
            OutboxMessage.kind == DIGEST_KIND, OutboxMessage.status == "pending"))).all()
    assert [d - due for d in later] == [timedelta(days=7)]


async def test_a_quiet_week_posts_no_digest(books: Harness, clock: FixedClock) -> None:
    await ask(books, "goalie")
    kay = commissioner(books)
    choices = await books.autocomplete("/rulebook dismiss", focused="asked", as_=kay, asked="")
    await books.slash("/rulebook dismiss", as_=kay, asked=choices.autocomplete_choices[0]["value"])
    clock.set(clock.now() + timedelta(days=8))
    await books.bot.courier.deliver_due()
    assert books.discord.channel_messages(ADMIN) == []
