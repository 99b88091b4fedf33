"""Server isolation: two leagues on two servers, and nothing of one reachable from the other.

The first server holds the sample league with a row in every league table (check-ins, relays,
disputes, suspensions, appeals, results, a shootout, a bracket, a rulebook...); the second holds a
small league of its own, so its commands have something to succeed on. From the second server,
every command of the live tree is run with options that name the first server's objects (team
names, game ids, row ids, its members), every autocomplete is asked for the first server's names,
and every button template is pressed with ids of the first server's rows. After each of them:
the first league's rows are unchanged, no row links the two leagues, and nothing the bot sent
(replies, channel messages, DMs, queued messages) names something only the first server has.
Like the permission matrix, the cases come from the command tree and the registered button
templates, so a new command or button cannot skip them. The two servers, and the probes' options, are
in tests/reliability/isolation_world.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import delete, func, select

from bot.access import Caller
from bot.errors import NotFound, UserFacingError
from bot.services.deadlines.service import DeadlineService
from bot.services.discipline.appeals import AppealService
from bot.services.messages.disputes import DisputeService
from bot.services.messages.relays import RelayService, Responder
from cogs.rulebooks import rules_service
from storage import lookups
from storage.models import (
    Base,
    Game,
)
from tests.conftest import GUILD, OTHER_GUILD, OTHER_ROLES
from tests.harness import Attachment, Member
from tests.reliability.commands import leaf_commands
from tests.reliability.conftest import ErrorLog
from tests.reliability.isolation_world import (
    ALICE,
    BEA,
    FIRST_SERVER_FILES,
    ID_OPTIONS,
    JUNIOR,
    LEAGUE_TABLES,
    NAMED_OPTIONS,
    OLGA,
    RAVENS_CHANNEL,
    SECRET,
    TEXT,
    IsolationWorld,
    command,
    first_league_changes,
    last_outbox_id,
    leaks,
    press,
    probe_options,
    queued_texts,
    run_from_second_server,
    sent_during,
    submit_form,
    typed_text,
    variants,
)
from tests.reliability.test_fuzz_commands import COMMANDS


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[IsolationWorld]:
    w = IsolationWorld(tmp_path_factory.mktemp("isolation"))
    yield w
    w.close()


# --- 1. autocomplete -----------------------------------------------------------------------------------------
def autocompletes(world: IsolationWorld) -> list[tuple[str, str]]:
    return [(c.path, o["name"]) for c in leaf_commands(world.h.bot) for o in c.options if o.get("autocomplete")]


def prefixes(world: IsolationWorld) -> list[str]:
    """The empty string and first letters of the first server's names (and of what its ids look like)."""
    names = [*world.sample.teams, "Alice Hart", "Omar Fox", SECRET, "North"]
    return sorted({"", "G", "G2", "#", "1", "R1", "team:", *(n[:2] for n in names)})


async def autocomplete_problems(world: IsolationWorld, path: str, focused: str, actor: Member,
                                guild: int = OTHER_GUILD) -> tuple[list[str], int]:
    """Ask one autocomplete for every prefix; returns what leaked and how many choices were shown."""
    context = {k: v for k, v in probe_options(world, command(world, path), 1).items()  # G1: a game on both
               if k != focused and not isinstance(v, Member | Attachment)}
    problems: list[str] = []
    shown = 0
    for typed in prefixes(world):
        reply = await world.h.autocomplete(path, focused=focused, as_=actor, guild_id=guild,
                                           **{**context, focused: typed})
        assert reply.response_type == 8, f"{path} {focused}: no autocomplete answer"
        choices = reply.autocomplete_choices
        shown += len(choices)
        problems += [f"{typed!r}: {p}" for p in leaks(world, reply.calls, typed_text({**context, focused: typed}))]
        if focused in ID_OPTIONS:
            foreign = {str(i) for i in world.ids[ID_OPTIONS[focused]]}
            problems += [f"{typed!r}: offers the first server's {ID_OPTIONS[focused]} {c['value']}"
                         for c in choices if str(c["value"]) in foreign]
    return problems, shown


def test_every_table_but_leagues_belongs_to_one_league() -> None:
    """The fingerprints above read rows by league_id: a table without one would escape them."""
    assert {t.name for t in Base.metadata.sorted_tables} - {t.name for t in LEAGUE_TABLES} == {"leagues"}


def test_every_autocomplete_is_known_to_the_probes(world: IsolationWorld) -> None:
    """Each autocomplete option is aimed at the first server's objects: by its name (NAMED_OPTIONS), or,
    for one added since, by what the first server suggests for it (IsolationWorld.suggested)."""
    found = autocompletes(world)
    assert len(found) >= 20, found  # the tree was read
    unknown = sorted(f"{path} {name}" for path, name in found
                     if name not in NAMED_OPTIONS and not world.suggested.get((path, name)))
    assert not unknown, (f"autocomplete options {unknown}: the first server suggests nothing for them; teach "
                         "probe_options which first-server object they name")


@pytest.mark.parametrize("path", COMMANDS)
def test_autocomplete_from_the_other_server_offers_nothing_of_this_server(
        world: IsolationWorld, path: str, error_log: ErrorLog) -> None:
    focusable = [name for p, name in autocompletes(world) if p == path]
    if not focusable:
        pytest.skip(f"{path} has no autocomplete")
    for focused in focusable:
        for actor in world.actors:
            problems, _ = world.loop.run_until_complete(autocomplete_problems(world, path, focused, actor))
            assert problems == [], f"{path} {focused} as {actor.name}: {problems[:5]}"
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]


# --- 2. buttons and forms with forged custom_ids --------------------------------------------------------------
def forged_presses(world: IsolationWorld) -> dict[str, list[str]]:
    """Per registered button class: custom_ids aimed at the first server's rows."""
    return {
        # as sent today (naming the league, as a press in a DM needs) and before buttons named one
        "CheckInButton": [f"sideline:checkin{league}:{code}:{status}" for league in ("", f"@{world.l1}")
                          for code in ("G1", "G2", "G5") for status in ("in", "out")]
        # a guardian's buttons for the first league's junior, named by either league
        + [f"sideline:checkin@{league}:{code}:out:p{world.junior_id}" for league in (world.l1, world.l2)
           for code in ("G1", "G5", "L1")],
        "RelayButton": [f"sideline:relay:{action}:{relay}" for relay in world.ids["relay"]
                        for action in ("ack", "reply")],
        "RuleButton": [f"sideline:rule:{world.l1}:{citation}" for citation in ("1.1", "1.3", "2.2", "Section 1")],
        # the first league's questions, named by either league ("Helped" and "Not what I asked")
        "RuleFeedbackButton": [f"sideline:rulefb:{league}:{question}:{helped}" for league in (world.l1, world.l2)
                               for question in world.ids["rule_question"] for helped in ("yes", "no")],
        # the first league's teams and players (imported first: the lowest ids), named by either league;
        # Owls and Bears (2, 3): a DM press by Hawks's captain on a Hawks request is his to answer
        "JoinDecisionButton": [f"sideline:join@{league}:{team}:{player}:skater:{answer}"
                               for league in (world.l1, world.l2) for team in (2, 3) for player in (1, 2)
                               for answer in ("yes", "no")],
        "JoinAskButton": [f"sideline:joinask@{league}:{team}" for league in (world.l1, world.l2) for team in (1, 2)],
        "GenderSelect": [f"sideline:gender@{world.l1}"],
        # the first league's spare offers, named by either league (accepted already, or never answered)
        "SpareOfferButton": [f"sideline:spare@{league}:{offer}:{action}" for league in (world.l1, world.l2)
                             for offer in world.ids["spare_offer"] for action in ("accept", "decline")],
        # the first league's games (G1, G2) for Owls and Bears: Hawks's captain, who presses in a DM, captains neither
        "SpareRequestButton": [f"sideline:sparereq@{league}:{game}:{team}" for league in (world.l1, world.l2)
                               for game in (1, 2) for team in (2, 3)],
        # /help's pages name no league: a press shows the presser's own server's help, never the first's
        "HelpPageButton": [f"sideline:help:{page}" for page in (0, 1, 9)],
        # the game card's "didn't do its duty": the first league's games (G1, G2) and teams
        "DutyButton": [f"sideline:duty:{duty}:{game}:{team}" for duty in ("setup", "cleanup") for game in (1, 2)
                       for team in (1, 2, 3)],
        # the first league's games (G1, G2) and teams (Hawks, Owls), named by either league, every action
        # the first league's registrants (past their fee deadline: Replace) and offers, every answer
        "ReplaceButton": [f"sideline:registration:replace:{r}" for r in world.ids["registration"]],
        "OfferButton": [f"sideline:registration:offer:{action}:{offer}" for offer in world.ids["registration_offer"]
                        for action in ("accept", "decline")],
        # the first league's rule-change votes (passed, open), every answer and its Apply
        "VoteButton": [f"sideline:rulevote:{answer}:{vote}" for vote in world.ids["rule_vote"]
                       for answer in ("yes", "no")],
        "ApplyButton": [f"sideline:rulevote:apply:{vote}" for vote in world.ids["rule_vote"]],
        "LateStartButton": [f"sideline:late@{league}:{game}:{team}:{action}" for league in (world.l1, world.l2)
                            for game in (1, 2) for team in (1, 2)
                            for action in ("minor", "forfeit", "undo-minor", "undo-forfeit")],
    }


def test_every_button_template_is_forged(world: IsolationWorld) -> None:
    registered = {item.__name__ for item in world.h.bot._connection._view_store._dynamic_items.values()}
    assert registered == set(forged_presses(world)), (
        f"button templates {registered} vs forged {set(forged_presses(world))}: forge ids for the new one")



async def forged_problems(world: IsolationWorld, custom_id: str, actor: Member, guild: int | None,
                          *, form: bool = False) -> list[str]:
    queued_from = await last_outbox_id(world)
    reply = await (submit_form if form else press)(world, custom_id, actor, guild)
    start = len(world.h.discord.calls)
    await world.h.bot.courier.deliver_due()
    problems = await first_league_changes(world)
    if guild != GUILD:  # the first server's own members may read its data; they must not change it
        problems += leaks(world, sent_during(world, reply, start) + await queued_texts(world, queued_from),
                          [custom_id])
    if not reply.responses:
        problems.append("no answer")
    elif reply.responses[0].body.get("type") == 9:
        problems.append(f"opened the reply form: {reply.responses[0].body}")
    elif not reply.ephemeral:
        problems.append("the answer was not private")
    if "something went wrong" in reply.text or "forged answer" in reply.text:
        problems.append(f"answered: {reply.text}")
    return problems


def test_forged_buttons_and_forms_are_refused(world: IsolationWorld, error_log: ErrorLog) -> None:
    s = world.sample
    # From the second server (its commissioner; Alice, whose relay and check-ins these are on the first
    # server), from a DM, and from the first server by someone it isn't for: Walt plays for Bears (not
    # in G1 or G2), Bea is neither referee nor commissioner.
    elsewhere: list[tuple[Member, int | None]] = [(world.olga, OTHER_GUILD), (world.alice, OTHER_GUILD),
                                                  (world.olga, None), (s.captain("Hawks"), None)]
    not_entitled = {"CheckInButton": s.player("Walt Orr"), "RelayButton": s.player("Bea Quinn"),
                    "DutyButton": s.player("Bea Quinn"), "VoteButton": s.player("Bea Quinn"),
                    "ApplyButton": s.captain("Hawks"),
                    "SpareOfferButton": s.player("Walt Orr"), "SpareRequestButton": s.player("Walt Orr")}
    # Not forgeries: in a DM, Alice's own first-league games (G1, G5 for Hawks; an older button naming
    # G1 stays refused, as she plays a G1 in both leagues), see test_a_dm_press_answers_only_for_...
    hers = {f"sideline:checkin{league}:{code}:{status}" for status in ("in", "out")
            for league, code in ((f"@{world.l1}", "G1"), (f"@{world.l1}", "G5"), ("", "G5"))}
    hers |= {f"sideline:checkin@{world.l1}:{code}:out:p{world.junior_id}" for code in ("G1", "G5")}  # her junior
    cases = [(custom_id, actor, guild, False) for template, ids in forged_presses(world).items() for custom_id in ids
             for actor, guild in elsewhere + ([(not_entitled[template], GUILD)] if template in not_entitled else [])
             if not (custom_id.endswith((":G5:in", ":G5:out")) and guild == GUILD)  # G5 is open to Walt's Bears
             and not (custom_id in hers and actor.id == ALICE and guild is None)]
    cases += [(f"sideline:relay:answer:{relay}", actor, guild, True) for relay in world.ids["relay"]
              for actor, guild in [*elsewhere, (not_entitled["RelayButton"], GUILD)]]
    # the first league's registration form, sent from the second server or a DM
    cases += [(f"sideline:registration:form:{window}", actor, guild, True)
              for window in world.ids["registration_window"] for actor, guild in elsewhere]
    for custom_id, actor, guild, form in cases:
        problems = world.loop.run_until_complete(forged_problems(world, custom_id, actor, guild, form=form))
        where = "a DM" if guild is None else ("the first server" if guild == GUILD else "the second server")
        verb = "submitted" if form else "pressed"
        assert problems == [], f"{custom_id} {verb} by {actor.name} in {where}: {problems}"
    assert len(cases) >= 50
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]


def test_a_dm_press_answers_only_for_the_pressers_own_game(world: IsolationWorld, error_log: ErrorLog) -> None:
    """A DM has no server, so a check-in button names its league: the press counts
    for a player of that game in that league, and tells anyone else nothing about it."""
    alice, l1, l2 = world.sample.captain("Hawks"), world.l1, world.l2  # Hawks here, Lynx on the second server

    async def presses() -> None:
        reply = await press(world, f"sideline:checkin@{l1}:G5:out", alice, None)
        assert reply.ephemeral and "You're **out** ❌ for Hawks vs Bears" in reply.text, reply.text
        assert await first_league_changes(world) == ["changed the first league's checkins"]
        reply = await press(world, f"sideline:checkin@{l2}:L3:in", alice, None)
        assert reply.ephemeral and "You're **in** ✅ for Lynx vs Ravens" in reply.text, reply.text
        reply = await press(world, "sideline:checkin:G1:in", alice, None)  # older button; a G1 in both leagues
        assert reply.ephemeral and "can't tell which game" in reply.text, reply.text
        assert await first_league_changes(world) == []
        for custom_id in (f"sideline:checkin@{l1}:G5:in", "sideline:checkin:G5:in"):
            reply = await press(world, custom_id, world.olga, None)
            assert reply.ephemeral and "isn't for you" in reply.text, reply.text
            assert leaks(world, reply.calls, [custom_id]) == []
        assert await first_league_changes(world) == []
        async with world.h.bot.sessions.begin() as session:  # the probes after this one expect the setup's rows
            checkins = Base.metadata.tables["checkins"]
            g5 = select(Game.id).where(Game.league_id == l1, Game.code == "G5").scalar_subquery()
            await session.execute(delete(checkins).where(checkins.c.league_id == l1, checkins.c.game_id == g5))
        assert await first_league_changes(world) == ["changed the first league's checkins"]

    world.loop.run_until_complete(presses())
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]


def test_a_guardian_reaches_their_junior_only_from_the_juniors_own_server(world: IsolationWorld,
                                                                           error_log: ErrorLog) -> None:
    """Alice manages a first-league junior: from the second server her /checkin and its suggestions know
    no such player, and her DM button for the junior answers only in the junior's league."""
    alice, l1, l2, junior = world.alice, world.l1, world.l2, world.junior_id

    async def probes() -> None:
        suggested = await world.h.autocomplete("/checkin", focused="player", as_=alice, guild_id=OTHER_GUILD,
                                               status="in", player="")
        assert suggested.autocomplete_choices == []
        for typed in (JUNIOR, str(junior)):
            reply = await world.h.slash("/checkin", as_=alice, guild_id=OTHER_GUILD, status="out", player=typed)
            assert reply.ephemeral and "You don't manage a player called" in reply.text, reply.text
            assert leaks(world, reply.calls, [typed]) == []
        for custom_id, guild in ((f"sideline:checkin@{l2}:L3:out:p{junior}", None),
                                 (f"sideline:checkin@{l2}:L3:out:p{junior}", OTHER_GUILD),
                                 (f"sideline:checkin@{l1}:G5:out:p{junior}", OTHER_GUILD)):
            reply = await press(world, custom_id, alice, guild)
            refused = ("isn't for you", "you don't manage", "another server")
            assert reply.ephemeral and any(r in reply.text for r in refused), reply.text
            assert leaks(world, reply.calls, [custom_id]) == []
        assert await first_league_changes(world) == []
        # In a DM, the button naming the junior's own league answers for the junior.
        reply = await press(world, f"sideline:checkin@{l1}:G5:out:p{junior}", alice, None)
        assert reply.ephemeral and f"**{JUNIOR}** is **out** ❌ for Hawks vs Bears" in reply.text, reply.text
        assert await first_league_changes(world) == ["changed the first league's checkins"]
        async with world.h.bot.sessions.begin() as session:  # the probes after this one expect the setup's rows
            checkins = Base.metadata.tables["checkins"]
            g5 = select(Game.id).where(Game.league_id == l1, Game.code == "G5").scalar_subquery()
            await session.execute(delete(checkins).where(checkins.c.league_id == l1, checkins.c.game_id == g5))
        assert await first_league_changes(world) == ["changed the first league's checkins"]

    world.loop.run_until_complete(probes())
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]


# --- 3. a team's channel comes from the importing server ----------------------------------------------------------
def test_a_team_channel_must_be_a_channel_of_the_importing_server(world: IsolationWorld) -> None:
    own = f"team,division,captain_discord_ids,channel_id\nRavens,East,{OLGA},{RAVENS_CHANNEL}\n"
    reply = world.loop.run_until_complete(world.h.slash(
        "/import teams", as_=world.olga, guild_id=OTHER_GUILD, file=Attachment("teams.csv", own.encode())))
    assert "teams: 0 created, 0 updated, 1 unchanged" in reply.text, reply.text
    foreign = Attachment("t.csv", FIRST_SERVER_FILES["/import teams"].encode())
    run = run_from_second_server(world, "/import teams", world.olga, {"file": foreign})
    result = world.loop.run_until_complete(run)
    assert isinstance(result.error, UserFacingError) and result.problems == [], result.problems
    assert "channel 600000000000000001 is not a channel of this server" in result.reply.text


# --- the checks can fail: aimed at the first server from the first server, they see its data -----------------
def test_the_leak_checks_see_this_servers_data_when_it_is_shown(world: IsolationWorld) -> None:
    s = world.sample
    calendar = world.loop.run_until_complete(world.h.slash("/calendar show", as_=s.player("Bea Quinn"), team="Owls"))
    assert any("venue" in p for p in leaks(world, calendar.calls, ["Owls"])), calendar.text  # in the .ics only
    assert world.loop.run_until_complete(first_league_changes(world)) == ["changed the first league's calendar_feeds"]
    schedule = world.loop.run_until_complete(world.h.slash("/schedule", as_=s.player("Bea Quinn"), team="Hawks"))
    assert leaks(world, schedule.calls, ["Hawks"]), schedule.text  # Hawks' opponents and venues are in it
    rule = world.loop.run_until_complete(press(world, f"sideline:rule:{world.l1}:1.3", s.player("Bea Quinn"), GUILD))
    assert any("stored text" in p for p in leaks(world, rule.calls, [])), rule.text
    problems, shown = world.loop.run_until_complete(
        autocomplete_problems(world, "/dispute decide", "id", s.commissioner(), guild=GUILD))
    assert shown and any("offers the first server's dispute" in p for p in problems), problems


def test_the_other_server_has_data_of_its_own_to_answer_with(world: IsolationWorld) -> None:
    """So a command or autocomplete that answered from the wrong league would show it."""
    olga = world.olga
    schedule = world.loop.run_until_complete(world.h.slash("/schedule", as_=olga, guild_id=OTHER_GUILD, team="Lynx"))
    assert "Ravens" in schedule.text and leaks(world, schedule.calls, []) == []
    for path, focused in (("/dispute decide", "id"), ("/appeal decide", "appeal"), ("/appeal file", "suspension"),
                          ("/deadline done", "deadline"), ("/schedule", "team"), ("/checkin", "game"),
                          ("/rule", "question"), ("/shootout record", "shooter")):
        problems, shown = world.loop.run_until_complete(autocomplete_problems(world, path, focused, world.alice))
        assert shown and problems == [], f"{path} {focused}: {shown} choices, {problems[:3]}"


# --- 4. every command (late: some of them legitimately cancel or move the second server's games) -------------
CHANGES_THE_SECOND_LEAGUE = ("/game move", "/game cancel", "/roster remove", "/profile forget", "/season start")


@pytest.mark.parametrize("path", sorted(COMMANDS, key=lambda p: (p in CHANGES_THE_SECOND_LEAGUE, p)))
def test_commands_from_the_other_server_cannot_reach_this_servers_data(
        world: IsolationWorld, path: str, error_log: ErrorLog) -> None:
    cmd = command(world, path)
    for k in range(variants(cmd)):
        options = probe_options(world, cmd, k)
        for actor in world.actors:
            result = world.loop.run_until_complete(run_from_second_server(world, path, actor, options))
            assert result.problems == [], (f"{path} {options!r} as {actor.name} from the second server: "
                                           f"{result.problems}\nanswer: {result.reply.text[:500]}")
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]


# --- 5. services and repositories, directly (after the commands: they must not pre-empt them) ---------------------
def test_services_given_the_second_league_refuse_the_first_leagues_ids(world: IsolationWorld) -> None:
    bot = world.h.bot
    other = bot.settings.league_for_guild(OTHER_GUILD)
    assert other is not None
    olga = Caller(OLGA, "Other Olga", other, world.l2, frozenset(OTHER_ROLES.values()), manages_server=True)
    alice = Caller(ALICE, "A. Hart", other, world.l2, frozenset(OTHER_ROLES.values()))

    async def check() -> None:
        for dispute in world.ids["dispute"]:
            with pytest.raises(NotFound):
                await DisputeService(bot.sessions, bot.clock).decide(olga, str(dispute), "upheld", TEXT)
        for deadline in world.ids["deadline"]:
            with pytest.raises(NotFound):
                await DeadlineService(bot.sessions, bot.clock).done(olga, str(deadline))
        for appeal in world.ids["appeal"]:
            with pytest.raises(NotFound):
                await AppealService(bot.sessions, bot.clock).decide(olga, appeal, "overturned")
        for suspension in world.ids["suspension"]:
            with pytest.raises(NotFound):
                await AppealService(bot.sessions, bot.clock).file(alice, suspension, TEXT)
        relays = RelayService(bot.sessions, bot.clock)
        for relay in world.ids["relay"]:
            for attempt in (relays.acknowledge, relays.check_can_answer):
                with pytest.raises(NotFound):
                    await attempt(Responder(OLGA, "Other Olga", olga), relay)
            with pytest.raises(NotFound):
                await relays.answer(Responder(OLGA, "Other Olga", olga), relay, TEXT)
        with pytest.raises(NotFound):
            await bot.services.checkins.check_in(alice, "in", "G5")
        with pytest.raises(NotFound):  # Bears' missed cleanup after G2 is the first league's
            await bot.services.cleanup.withdraw(olga, game_code="G2", team_name="Bears")
        with pytest.raises(NotFound):
            await bot.services.penalty_log.game_log(olga, "G2")
        for trade in world.ids["trade"]:
            for attempt in (bot.services.trades.accept, bot.services.trades.veto):
                with pytest.raises(NotFound):
                    await attempt(olga, trade)
        with pytest.raises(NotFound):
            await rules_service(bot).section(world.l2, "1.3")
        async with bot.sessions() as session:
            assert await lookups.team_by_name(session, world.l2, "Hawks") is None
            assert await lookups.game_by_code(session, world.l2, "G2") is None
            assert await lookups.player_by_discord(session, world.l2, BEA) is None
            both = await lookups.game_by_code(session, world.l2, "G1")
            assert both is not None and both.league_id == world.l2
            assert {t.name for t in await lookups.search_teams(session, world.l2, "")} == {"Lynx", "Ravens"}

    world.loop.run_until_complete(check())
    assert world.loop.run_until_complete(first_league_changes(world)) == []


# --- 6. a season started with its rosters cleared (last: it empties the second league's rosters) -------------
def test_clearing_the_other_leagues_rosters_leaves_this_ones_alone(world: IsolationWorld, error_log: ErrorLog) -> None:
    """/season start rosters:clear takes every player of *its* league off their team: the first league's
    rosters, their history and its running season are untouched."""
    from storage.models import RosterEntry

    async def entries(league_id: int) -> int:
        async with world.h.bot.sessions() as session:
            return await session.scalar(select(func.count()).select_from(RosterEntry)
                                        .where(RosterEntry.league_id == league_id)) or 0

    async def clear() -> None:
        await world.h.slash("/season end", as_=world.olga, guild_id=OTHER_GUILD)  # if a probe started one
        theirs = await entries(world.l2)
        assert theirs > 0 and await entries(world.l1) > 0
        result = await run_from_second_server(world, "/season start", world.olga,
                                              {"name": "Isolation Spring", "first_day": "2030-06-01", "weeks": 4,
                                               "rosters": "clear"})
        assert result.error is None and result.problems == [], (result.problems, result.reply.text)
        assert f"Rosters cleared: {theirs} player" in result.reply.text, result.reply.text
        assert await entries(world.l2) == 0

    world.loop.run_until_complete(clear())
    assert not error_log.records, [r.getMessage() for r in error_log.records][:3]
