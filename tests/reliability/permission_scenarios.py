"""One working scenario per privileged command, for the "allowed succeed" side of the permission matrix.

A scenario prepares the sample league through real commands (a result before ``/result fix``, an
appeal before ``/appeal decide``...), then names who performs the command for each role in its
``requires``: the captain is Hawks's, a team in G1 and the target of every team option. ``expect``
is a fragment only a success prints; ``writes`` are tables a success must change.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

from bot.config.settings import Settings
from bot.errors import UserFacingError
from tests.commands.empty_server import hand_to_discord
from tests.conftest import CHANNELS, ROLES, SampleLeague, league_config, make_settings
from tests.harness import Attachment, Harness, Member, Reply

Actor = Callable[[SampleLeague], Member]
Options = dict[str, Any] | Callable[[SampleLeague], dict[str, Any]]

GAME_DAY = datetime(2030, 1, 11, 23, 0, tzinfo=UTC)  # an hour before G1 (Hawks v Owls): relays are open
AFTER_G1 = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # G1 has been played, G3-G6 not yet
AFTER_WEEK_2 = datetime(2030, 1, 19, 12, 0, tzinfo=UTC)  # G1-G4 have been played
AFTER_P1 = datetime(2030, 1, 13, 2, 0, tzinfo=UTC)  # the indoor playoff game P1 went to a shootout
INDOOR = make_settings(league_config("indoor", preset="indoor-soccer"))
YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))  # cleanup duty (2.15), disputes (2.2)
NEWCOMER = Member(id=800_000_000_000_000_003, name="New Nell")
PARENT = Member(id=800_000_000_000_000_004, name="Parent Pat")  # a junior's guardian
WINTER_2030 = {"name": "Winter 2030", "first_day": "2030-01-07", "weeks": 8}
HAWKS_IN = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Ray Moss", "Uma Reed")


def captain(league: SampleLeague) -> Member:
    return league.captain("Hawks")


def referee(league: SampleLeague) -> Member:
    return league.referee()


def commissioner(league: SampleLeague) -> Member:
    return league.commissioner()


def timekeeper(league: SampleLeague) -> Member:
    return league.timekeeper()


def player(name: str) -> Actor:
    return lambda league: league.player(name)


ACTORS: dict[str, Actor] = {"captain": captain, "referee": referee, "commissioner": commissioner,
                            "timekeeper": timekeeper}


def by(*roles: str) -> dict[str, Actor]:
    """The usual person for each role: Hawks's captain, Ref Rita, Timekeeper Tom, Commish Kay."""
    return {role: ACTORS[role] for role in roles}


class Refused(AssertionError):
    """The tree's error handler saw a refusal (a UserFacingError) or a bug: the cause is in the message."""


class Run:
    """A harness with the sample league, recording every error the command tree's handler sees."""

    def __init__(self, h: Harness, league: SampleLeague) -> None:
        self.h, self.league = h, league
        self.errors: dict[int, BaseException] = {}
        original = h.bot.tree.on_error

        async def record(interaction: Any, error: Any) -> None:
            self.errors[interaction.id] = error
            await original(interaction, error)

        h.bot.tree.on_error = record  # type: ignore[method-assign]

    async def slash(self, path: str, who: Actor, options: Options) -> Reply:
        values = options(self.league) if callable(options) else options
        reply = await self.h.slash(path, as_=who(self.league), **values)
        error = self.errors.pop(int(reply.first.path.split("/")[2]), None)
        if error is not None:
            cause = getattr(error, "original", None) or error.__cause__ or error
            kind = "refused" if isinstance(cause, UserFacingError) else "failed"
            raise Refused(f"{path} {kind}: {cause!r}")
        return reply


Step = Callable[[Run], Awaitable[None]]


def at(when: datetime) -> Step:
    async def step(run: Run) -> None:
        run.h.bot.clock.set(when)  # type: ignore[attr-defined]
    return step


def do(path: str, who: Actor, options: Options) -> Step:
    async def step(run: Run) -> None:
        await run.slash(path, who, options)
    return step


def check_in(game: str, *names: str) -> Step:
    async def step(run: Run) -> None:
        for name in names:
            await run.slash("/checkin", player(name), {"status": "in", "game": game})
    return step


@dataclass(frozen=True)
class Scenario:
    by: dict[str, Actor]  # role, as ``requires`` names it -> who performs the command
    options: Options
    expect: str  # in the reply text only when the command did its job
    writes: tuple[str, ...] = ()  # tables that must change (none for read-only commands)
    setup: tuple[Step, ...] = ()
    settings: Settings | None = None  # another preset, when the command only makes sense there


SUSPEND_ALICE = do("/suspend", commissioner,
                   lambda lg: {"player": lg.player("Alice Hart"), "games": 3, "reason": "Roughing"})
DEADLINE = do("/deadline add", commissioner, {"name": "Team fees", "due": "2030-01-08 12:00", "audience": "team:Hawks"})
DISPUTE = do("/dispute file", captain, {"game": "G1", "message": "The winning goal was kicked in."})
RELAY = do("/relay send", captain, {"game": "G1", "message": "Number 7 on Owls has no helmet"})
GUEST = do("/guest add", captain, {"game": "G1", "name_or_member": "Jo Walker"})
G1_RESULT = do("/result enter", referee, {"game": "G1", "home": 3, "away": 2, "decided": "regulation"})
READY = check_in("G1", *HAWKS_IN, *OWLS_IN)
SEASON_STARTED = do("/season start", commissioner, {"name": "Winter 2030", "first_day": "2030-01-01", "weeks": 8})
OPEN_NORTH = do("/registration open", commissioner, {"division": "North", "fee": "50"})


def register(name: str) -> Step:
    async def step(run: Run) -> None:
        sent = await run.h.submit_modal("sideline:registration:form:0", {
            "name": name, "date_of_birth": "1990-05-01", "positions": "skater", "guardian": "", "notes": ""},
            as_=run.league.player(name))
        assert "Sorry" not in sent.content, sent.content
    return step


REGISTERED = (SEASON_STARTED, OPEN_NORTH, register("Finn Cole"))


async def newcomer_registered(run: Run) -> None:
    """New Nell, on no team yet, registers for North: the one player the North draft can pick."""
    nell = run.h.member(NEWCOMER.name, member_id=NEWCOMER.id)
    sent = await run.h.submit_modal("sideline:registration:form:0", {
        "name": NEWCOMER.name, "date_of_birth": "1990-05-01", "positions": "skater", "guardian": "", "notes": ""},
        as_=nell)
    assert "Sorry" not in sent.content, sent.content


DRAFT_SET_UP = (SEASON_STARTED, OPEN_NORTH, newcomer_registered,
                do("/draft setup", commissioner, {"division": "North", "rounds": 2}))
DRAFT_DRAWN = (*DRAFT_SET_UP, do("/draft lottery", commissioner, {}))
DRAFT_PICKED = (*DRAFT_DRAWN, do("/draft start", commissioner, {}), do("/draft pick", commissioner, {"player": "1"}))
NOMINATE_CARL = do("/team nominate", player("Carl Diaz"), {"post": "captain", "team": "Hawks"})
REPLACE_BEA = do("/replace request", captain, lambda lg: {"player": lg.player("Bea Quinn"), "reason": "absence"})
TRADE_FROM_HAWKS = do("/trade propose", captain, {"team": "Owls", "players_out": "Bea Quinn"})
TRADE_TO_HAWKS = do("/trade propose", lambda lg: lg.captain("Owls"), {"team": "Hawks", "players_out": "Pia Lund"})
FIRST_ATTEMPTS = (
    do("/shootout record", referee, {"game": "G1", "shooter": "Alice Hart", "scored": True, "tied_at": 3}),
    do("/shootout record", referee, {"game": "G1", "shooter": "Omar Fox", "scored": False}))
ORDER = do("/shootout submit", captain, {"game": "G1", "shooters": "Alice Hart, Carl Diaz, Dan Roy"})
# Everyone 1-1, seeded by goals: Wolves, Owls, Bears, Hawks (R1-M1 Wolves v Hawks, R1-M2 Owls v Bears).
SEASON = (at(AFTER_WEEK_2), *(
    do("/result enter", referee, {"game": game, "home": home, "away": away, "decided": "regulation", **extra})
    for game, home, away, extra in [("G1", 1, 0, {}), ("G3", 5, 1, {}), ("G4", 4, 1, {}),
                                    ("G2", 2, 2, {"decided": "shootout", "shootout_home": 1, "shootout_away": 0})]))
SHORT_OF_A_WOMAN = check_in("G1", "Alice Hart", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Gus Lee")
SPARE_WENDY = do("/spare join", lambda lg: Member(id=800_000_000_000_000_004, name="Wendy Spare"),
                 {"positions": "skater", "days": "fri", "gender": "woman"})
P1_SHOOTOUT = (do("/game add", commissioner, {"home": "Hawks", "away": "Owls", "starts_at": "2030-01-12 19:00",
                                              "kind": "playoff", "code": "P1"}),
               check_in("P1", *HAWKS_IN, *OWLS_IN), at(AFTER_P1))


ONE_SLOT = Attachment("slots.csv", b"starts_at,venue\n2030-03-02 18:00,Rink C\n")  # /schedule-generate
NEW_GAME = Attachment("games.csv", b"game_id,starts_at,home,away,venue,kind\n"
                                   b"G7,2030-02-01 19:00,Hawks,Wolves,,regular\n")
NEW_PLAYER = Attachment("players.csv", b"discord_id,name,team,position,gender\n"
                                       b"800000000000000001,New Nora,Hawks,skater,\n")
# A player's question the bot isn't sure of (question #1), in a league reading its preset's rulebook.
ASKED = do("/rule", player("Bea Quinn"), {"question": "goalie"})
LEAGUE_WORD = do("/rulebook words add", commissioner, {"word": "biscuit", "means": "ball"})
HOUSE_RULES = Attachment("house-rules.md", b"# House Rules\n## Overtime\nTen minutes.\n", "text/markdown")
NEW_TEAM = Attachment("teams.csv", b"team,division,captain_discord_ids,channel_id\nRavens,South,800000000000000002,\n")


async def newcomers_joined(run: Run) -> None:
    """The new player and captain the files name are members of the server (/import checks)."""
    for member_id, name in ((800_000_000_000_000_001, "New Nora"), (800_000_000_000_000_002, "Ravens Captain")):
        run.h.member(name, member_id=member_id)


async def in_discord(run: Run) -> None:
    await hand_to_discord(run.h.bot)


async def other_server(run: Run) -> None:
    run.h.add_guild(OTHER_SERVER, "New server", [], [9001])


def owner(league: SampleLeague) -> Member:
    """Manage Server makes a commissioner (bot/access.py): on a server with no league, the only one."""
    return Member(id=700_000_000_000_000_009, name="Owner Olga", manage_guild=True)


OTHER_SERVER = 999_999_999_999_999_999
RAVENS = do("/setup team", commissioner, {"name": "Ravens"})
SETUP_SCENARIOS: dict[str, Scenario] = {
    "/setup league": Scenario({"commissioner": owner}, {"guild_id": OTHER_SERVER, "preset": "indoor-soccer",
                                                         "name": "Sunday Soccer", "timezone": "Europe/London"},
                              "Sunday Soccer is set up", ("leagues", "league_setups", "setup_changes"),
                              setup=(other_server,)),
    "/setup roles": Scenario(by("commissioner"), {"referee": discord.Object(ROLES["captain"])}, "Referee role: ",
                             ("league_setups", "setup_changes"), setup=(in_discord,)),
    "/setup channels": Scenario(by("commissioner"), {"admin": discord.Object(CHANNELS["referees"])},
                                "Admin channel: ", ("league_setups", "setup_changes"), setup=(in_discord,)),
    "/setup team": Scenario(by("commissioner"), {"name": "Ravens"}, "Ravens: created", ("teams", "setup_changes"),
                            setup=(in_discord,)),
    "/setup team-remove": Scenario(by("commissioner"), {"name": "Ravens"}, "Ravens is removed", ("teams",),
                                   setup=(in_discord, RAVENS)),
    "/setup rule": Scenario(by("commissioner"), {"key": "roster_limit", "value": "15"},
                            "Roster limit (roster_limit): not set → 15",
                            ("league_setups", "setup_changes"), setup=(in_discord,)),
    "/setup reminders": Scenario(by("commissioner"), {"games": "3d 2h"},
                                 "Game reminders before each game: not set → 3d, 2h",
                                 ("league_setups", "setup_changes"), setup=(in_discord,)),
    "/setup show": Scenario(by("commissioner"), {}, "**Captain role**"),
    "/rulebook unanswered": Scenario(by("commissioner"), {}, "“goalie”", setup=(in_discord, ASKED)),
    "/rulebook link": Scenario(by("commissioner"), {"asked": "1", "citation": "GOALIE SAFETY 5"}, "Linked “goalie”",
                               ("rule_links", "rule_questions"), setup=(in_discord, ASKED)),
    "/rulebook dismiss": Scenario(by("commissioner"), {"asked": "1"}, "off the unanswered list", ("rule_questions",),
                                  setup=(in_discord, ASKED)),
    "/rulebook askers": Scenario(by("commissioner"), {"show": True}, "now see who asked", ("rule_feedback_settings",)),
    "/rulebook words add": Scenario(by("commissioner"), {"word": "biscuit", "means": "ball"},
                                    "/rule now reads “biscuit” as “ball”", ("rule_words",)),
    "/rulebook words list": Scenario(by("commissioner"), {}, "“biscuit” means “ball”", setup=(LEAGUE_WORD,)),
    "/rulebook words remove": Scenario(by("commissioner"), {"word": "biscuit"}, "no longer reads “biscuit”",
                                       ("rule_words",), setup=(LEAGUE_WORD,)),
    "/setup rulebook": Scenario(by("commissioner"), {"file": HOUSE_RULES}, "Read 2 sections from house-rules.md",
                                ("rule_sections", "rulebooks", "setup_changes"), setup=(in_discord,)),
    "/setup discord": Scenario(by("commissioner"), {"scheduled_events": True, "team_roles": True},
                               "Games as Discord events: off → on", ("league_setups", "setup_changes", "outbox"),
                               setup=(in_discord,)),
    "/setup web": Scenario(by("commissioner"), {"public": True}, "public page is published", ("leagues",)),
    "/team invite": Scenario(by("captain", "commissioner"), {"team": "Hawks"}, "Posted a Join button", ("outbox",)),
    "/team assistant": Scenario(by("commissioner"), lambda lg: {"member": lg.player("Carl Diaz")},
                                "Carl Diaz is now Hawks's assistant coach", ("assistant_coaches", "outbox")),
    "/team standin": Scenario(by("captain", "commissioner"),
                              lambda lg: {"game": "G1", "member": lg.player("Bea Quinn")},
                              "Bea Quinn is now Hawks's stand-in captain for `G1`", ("stand_in_captains", "outbox")),
    "/registration open": Scenario(by("commissioner"), {"division": "North", "fee": "50"},
                                   "Registration for **North** (Winter 2030) is open", ("registration_windows",),
                                   setup=(SEASON_STARTED,)),
    "/registration close": Scenario(by("commissioner"), {"division": "North"},
                                    "Registration for **North** (Winter 2030) is closed", ("registration_windows",),
                                    setup=(SEASON_STARTED, OPEN_NORTH)),
    "/registration exception": Scenario(by("commissioner"), lambda lg: {
        "member": lg.player("Omar Fox"), "division": "North", "reason": "skill assessment"},
        "Recorded: the next player", ("registration_exceptions",), setup=(SEASON_STARTED, OPEN_NORTH)),
    "/registration list": Scenario(by("commissioner"), {}, "Finn Cole", setup=REGISTERED),
    "/registration export": Scenario(by("commissioner"), {}, "keep the file private", setup=REGISTERED),
    "/registration reject": Scenario(by("commissioner"), {"registration": "1", "reason": "Not eligible"},
                                     "Rejected #1 Finn Cole", ("registrations",), setup=REGISTERED),
    "/registration payment": Scenario(by("commissioner"), {"registration": "1", "state": "in_person"},
                                      "#1 Finn Cole:", ("registrations",), setup=REGISTERED),
    "/draft setup": Scenario(by("commissioner"), {"division": "North", "rounds": 2}, "The North draft is set up",
                             ("drafts",), setup=(SEASON_STARTED,)),
    "/draft lottery": Scenario(by("commissioner"), {}, "North draft lottery", ("drafts",), setup=DRAFT_SET_UP),
    "/draft start": Scenario(by("commissioner"), {}, "The North draft has started", ("drafts", "outbox"),
                             setup=DRAFT_DRAWN),
    "/draft undo": Scenario(by("commissioner"), {}, "The latest pick is taken back", ("draft_picks",),
                            setup=DRAFT_PICKED),
    "/team nominations": Scenario(by("commissioner"), {}, "#1 · Carl Diaz for Hawks's captain", setup=(NOMINATE_CARL,)),
    "/team confirm": Scenario(by("commissioner"), {"nomination": 1}, "Confirmed: Carl Diaz is now Hawks's captain",
                              ("staff_nominations", "outbox"), setup=(NOMINATE_CARL,)),
    "/team decline": Scenario(by("commissioner"), {"nomination": 1}, "Declined: Carl Diaz as Hawks's captain",
                              ("staff_nominations", "outbox"), setup=(NOMINATE_CARL,)),
}

SCENARIOS: dict[str, Scenario] = {
    "/announce": Scenario(by("commissioner"), {"message": "Rink 2 is closed Saturday"}, "Posting it in",
                          ("outbox",)),
    "/appeal decide": Scenario(
        by("commissioner"), {"appeal": 1, "outcome": "upheld"}, "Appeal upheld", ("appeals",),
        setup=(SUSPEND_ALICE, do("/appeal file", player("Alice Hart"), {"suspension": 1, "reason": "An accident"}))),
    "/bracket advance": Scenario(
        by("commissioner"), {"matchup": "R1-M2", "winner": "Bears"}, "Bears win R1-M2", ("playoff_brackets",),
        setup=(*SEASON, do("/bracket create", commissioner, {"teams": 4}))),
    "/bracket create": Scenario(by("commissioner"), {"teams": 4}, "== Semifinals ==", ("playoff_brackets",)),
    "/bracket seed": Scenario(by("commissioner"), {"teams": "Wolves, Owls, Hawks, Bears"}, "Seeding order recorded",
                              ("seeding_decisions",)),
    # Only the youth rulebook has cleanup duty; G2 (Bears v Wolves) is the week's last game.
    "/cleanup missed": Scenario(by("referee", "commissioner"), {"game": "G2", "team": "Bears"},
                                "Recorded (#1): Bears didn't clean up after G2", ("missed_cleanups", "outbox"),
                                setup=(at(AFTER_G1),), settings=YOUTH),
    "/cleanup withdraw": Scenario(
        by("commissioner"), {"game": "G2", "team": "Bears", "note": "Bears did help"},
        "Withdrawn (#1): the record that Bears didn't clean up after G2", ("missed_cleanups", "outbox"),
        setup=(at(AFTER_G1), do("/cleanup missed", referee, {"game": "G2", "team": "Bears"})), settings=YOUTH),
    "/deadline add": Scenario(
        by("commissioner"), {"name": "Team fees", "due": "2030-01-08 12:00", "audience": "team:Hawks"},
        "Added `#1` **Team fees**", ("deadlines",)),
    "/deadline done": Scenario(by("commissioner"), {"deadline": "1"}, "Done: `#1`", ("deadlines",),
                               setup=(DEADLINE,)),
    "/deadline list": Scenario(by("commissioner"), {}, "Team fees", setup=(DEADLINE,)),
    "/dispute decide": Scenario(
        by("commissioner"), {"id": "1", "outcome": "rejected", "text": "The call stands."}, "is rejected",
        ("disputes",), setup=(at(AFTER_G1), DISPUTE), settings=YOUTH),
    "/dispute file": Scenario(
        by("captain"), {"game": "G1", "message": "The winning goal was kicked in."},
        "is filed with the commissioners", ("disputes",), setup=(at(AFTER_G1),), settings=YOUTH),
    "/dispute list": Scenario(by("commissioner"), {}, "winning goal", setup=(at(AFTER_G1), DISPUTE), settings=YOUTH),
    "/game add": Scenario(by("commissioner"), {"home": "Hawks", "away": "Owls", "starts_at": "2030-02-01 19:00"},
                          "Added `G7`", ("games",)),
    "/game cancel": Scenario(by("commissioner"), {"game": "G1"}, "Cancelled `G1`", ("games",)),
    "/game move": Scenario(by("commissioner"), {"game": "G1", "starts_at": "2030-01-12 19:00"}, "Moved `G1`",
                           ("games",)),
    "/game referee": Scenario(by("commissioner"), lambda lg: {"game": "G1", "member": lg.referee()},
                              "is now a referee of `G1`", ("referee_assignments",)),
    "/game-card": Scenario(by("captain", "referee", "timekeeper", "commissioner"), {"game": "G1"},
                           "**Set up:** Hawks, Owls (Youth 2.1, 3.7 (6))", settings=YOUTH),
    "/game duty": Scenario(by("commissioner"), {"game": "G1", "team": "Hawks", "duty": "cleanup", "setting": "on"},
                           "Hawks is now on duty to clear the arena after `G1`", ("game_duties",)),
    "/gamesheet add": Scenario(by("captain", "referee", "timekeeper", "commissioner"),
                               lambda lg: {"game": "G1", "player": lg.player("Dan Roy")},
                               "Dan Roy is on Hawks's sheet for `G1`", ("game_sheet_entries", "game_sheet_changes")),
    "/gamesheet confirm": Scenario(by("captain", "referee", "timekeeper", "commissioner"),
                                   {"game": "G1", "team": "Hawks"},
                                   "Hawks's sheet for `G1` is confirmed", ("game_sheets", "game_sheet_changes"),
                                   setup=(READY,)),
    "/gamesheet remove": Scenario(by("captain", "referee", "timekeeper", "commissioner"),
                                  {"game": "G1", "player": "Alice Hart"},
                                  "Alice Hart is off Hawks's sheet for `G1`",
                                  ("game_sheet_entries", "game_sheet_changes"), setup=(READY,)),
    "/goal add": Scenario(by("referee", "timekeeper", "commissioner"),
                          lambda lg: {"game": "G1", "team": "Hawks", "scorer": lg.player("Alice Hart"),
                                      "assist1": lg.player("Carl Diaz")},
                          "Goal #1 in `G1`: Alice Hart (Hawks), assisted by Carl Diaz. Recorded.", ("goals",),
                          setup=(READY, at(AFTER_G1))),
    "/goal remove": Scenario(by("referee", "timekeeper", "commissioner"), {"game": "G1", "goal": 1},
                             "Goal #1 in `G1` (Alice Hart, Hawks) is taken back", ("goals",),
                             setup=(READY, at(AFTER_G1), do("/goal add", referee, lambda lg: {
                                 "game": "G1", "team": "Hawks", "scorer": lg.player("Alice Hart")}))),
    # Only the indoor rulebook has guests ("Guest players may play if ... cleared"); a commissioner names the team.
    "/guest add": Scenario(by("captain", "commissioner"),
                           {"game": "G1", "name_or_member": "Jo Walker", "team": "Hawks"},
                           "Jo Walker is added as a guest of Hawks", ("guests",), settings=INDOOR),
    "/guest clear": Scenario(by("referee", "commissioner"), {"game": "G1", "name_or_member": "Jo Walker"},
                             "Jo Walker is cleared as a guest of Hawks", ("guests",), settings=INDOOR,
                             setup=(GUEST,)),
    "/schedule-generate": Scenario(by("commissioner"), {"slots": ONE_SLOT, "meetings": 1, "division": "North"},
                                   "Schedule for the North division"),
    "/import games": Scenario(by("commissioner"), {"file": NEW_GAME}, "games: 1 created", ("games",)),
    "/import players": Scenario(by("commissioner"), {"file": NEW_PLAYER}, "players: 1 created", ("players",),
                                 setup=(newcomers_joined,)),
    "/import teams": Scenario(by("commissioner"), {"file": NEW_TEAM}, "teams: 1 created", ("teams",),
                               setup=(newcomers_joined,)),
    "/lineup": Scenario(by("captain", "commissioner"), {"game": "G1"}, "Hawks lineup", setup=(READY,)),
    "/penalty": Scenario(
        by("referee", "commissioner"), lambda lg: {"game": "G1", "player": lg.player("Omar Fox"),
                                                   "infraction": "tripping"},
        "Penalty #", ("penalties",), setup=(at(AFTER_G1),)),
    "/penalties": Scenario(
        by("referee", "commissioner"), {"game": "G1"}, "Calls (1)\n#1 · Omar Fox (Owls): Tripping",
        setup=(at(AFTER_G1), do("/penalty", referee, lambda lg: {"game": "G1", "player": lg.player("Omar Fox"),
                                                                  "infraction": "tripping"}))),
    "/replace request": Scenario(by("captain", "commissioner"),
                                 lambda lg: {"player": lg.player("Bea Quinn"), "reason": "absence"},
                                 "Request #1 to replace Bea Quinn on Hawks (absence)", ("replacement_requests",)),
    "/replace decide": Scenario(by("commissioner"), {"request": 1, "decision": "decline"},
                                "Declined request #1 to replace Bea Quinn", ("replacement_requests",),
                                setup=(REPLACE_BEA,)),
    "/replace pending": Scenario(by("commissioner"), {}, "#1 · Hawks: replace Bea Quinn (absence)",
                                 setup=(REPLACE_BEA,)),
    "/rulevote start": Scenario(by("commissioner"), {"rule": "roster_limit", "proposal": "15"},
                                "**Rule-change vote #1**", ("rule_votes", "rule_vote_voters", "outbox")),
    "/trade propose": Scenario(by("captain", "commissioner"),
                               {"team": "Owls", "players_out": "Bea Quinn", "from_team": "Hawks"},
                               "Trade #1 proposed: Bea Quinn (Hawks → Owls)", ("trades", "trade_players")),
    "/trade accept": Scenario(by("captain", "commissioner"), {"trade": 1}, "Trade #1 accepted", ("trades",),
                              setup=(TRADE_TO_HAWKS,)),
    "/trade decline": Scenario(by("captain", "commissioner"), {"trade": 1}, "Trade #1 declined", ("trades",),
                               setup=(TRADE_TO_HAWKS,)),
    "/trade withdraw": Scenario(by("captain", "commissioner"), {"trade": 1}, "Trade #1 withdrawn", ("trades",),
                                setup=(TRADE_FROM_HAWKS,)),
    "/trade veto": Scenario(by("commissioner"), {"trade": 1, "reason": "Unbalanced"}, "Trade #1 vetoed",
                            ("trades",), setup=(TRADE_FROM_HAWKS,)),
    "/trade list": Scenario(by("captain", "commissioner"), {}, "#1 · proposed · Bea Quinn (Hawks → Owls)",
                            setup=(TRADE_FROM_HAWKS,)),
    "/relay inbox": Scenario(by("referee", "commissioner"), {}, "Unanswered relays (1)",
                             setup=(at(GAME_DAY), RELAY)),
    "/relay send": Scenario(by("captain"), {"game": "G1", "message": "Number 7 on Owls has no helmet"},
                            "Relay #1 about `G1`", ("relays",), setup=(at(GAME_DAY),)),
    "/result enter": Scenario(
        by("referee", "commissioner"), {"game": "G1", "home": 3, "away": 2, "decided": "regulation"},
        "Recorded game G1: Hawks 3-2 Owls", ("results", "result_changes"), setup=(at(AFTER_G1),)),
    "/result fix": Scenario(
        by("commissioner"), {"game": "G1", "away": 4, "decided": "overtime", "reason": "scoresheet said 3-4 OT"},
        "Corrected game G1: Hawks 3-4 Owls", ("results", "result_changes"), setup=(at(AFTER_G1), G1_RESULT)),
    "/result forfeit": Scenario(by("referee", "commissioner"), {"game": "G1", "team": "Owls"}, "Owls forfeited",
                                ("results",), setup=(at(AFTER_G1),)),
    "/roster add": Scenario(by("captain", "commissioner"), {"player": NEWCOMER, "team": "Hawks"},
                            "New Nell is now on Hawks", ("roster_entries",)),
    "/roster guardian add": Scenario(by("captain", "commissioner"), {"player": "Junior Jo", "guardian": NEWCOMER},
                                     "> now manages Junior Jo (2 guardians)", ("player_guardians",),
                                     setup=(do("/roster add", captain, {"name": "Junior Jo", "guardian": PARENT}),)),
    "/roster guardian remove": Scenario(
        by("captain", "commissioner"), {"player": "Junior Jo", "guardian": NEWCOMER},
        "> no longer manages Junior Jo (1 guardian left)", ("player_guardians",),
        setup=(do("/roster add", captain, {"name": "Junior Jo", "guardian": PARENT}),
               do("/roster guardian add", captain, {"player": "Junior Jo", "guardian": NEWCOMER}))),
    "/roster remove": Scenario(by("captain", "commissioner"), lambda lg: {"player": lg.player("Bea Quinn")},
                               "Bea Quinn was removed from Hawks", ("roster_entries",)),
    "/roster show": Scenario(by("captain", "commissioner"), {"team": "Hawks"}, "Gus Lee"),
    **SETUP_SCENARIOS,
    "/shootout check": Scenario(by("captain", "referee", "commissioner"), {"game": "G1"},
                                "1. Alice Hart\n2. Carl Diaz\n3. Dan Roy", setup=(READY, ORDER)),
    # Co-ed lets anyone shoot: only an indoor-soccer playoff game has a floor to mark.
    "/shootout floor": Scenario(
        by("captain", "referee", "commissioner"), {"game": "P1", "players": "Alice Hart, Bea Quinn, Carl Diaz"},
        "**Hawks**: Alice Hart, Bea Quinn, Carl Diaz", ("shootouts",), setup=P1_SHOOTOUT, settings=INDOOR),
    "/shootout record": Scenario(
        by("referee", "commissioner"), {"game": "G1", "shooter": "Alice Hart", "scored": True, "tied_at": 3},
        "Attempt 1 in `G1`: Alice Hart (Hawks) scored", ("shootouts", "shootout_attempts"),
        setup=(READY, at(AFTER_G1))),
    "/shootout undo": Scenario(
        by("referee", "commissioner"), {"game": "G1"}, "Took back attempt 2 in `G1`: Omar Fox (Owls) missed",
        ("shootout_attempts",), setup=(READY, at(AFTER_G1), *FIRST_ATTEMPTS)),
    "/shootout submit": Scenario(
        by("captain", "commissioner"), {"game": "G1", "shooters": "Alice Hart, Carl Diaz, Dan Roy", "team": "Hawks"},
        "Saved Hawks's shootout order", ("shootout_orders",), setup=(READY,)),
    "/shootout suggest": Scenario(by("captain", "commissioner"), {"game": "G1", "team": "Hawks"},
                                  "A legal order for Hawks", setup=(READY,)),
    "/spare list": Scenario(by("captain", "commissioner"), {"game": "G1"}, "would fill what's missing",
                            setup=(SHORT_OF_A_WOMAN, SPARE_WENDY)),
    "/spare request": Scenario(by("captain"), {"game": "G1"}, "Asking spares for Hawks",
                               ("spare_requests", "outbox"), setup=(SHORT_OF_A_WOMAN, SPARE_WENDY)),
    "/season end": Scenario(by("commissioner"), {}, "Ended **Winter 2030**", ("seasons",),
                            setup=(do("/season start", commissioner, WINTER_2030),)),
    # rosters:clear, the option that changes what a start does: every player leaves their team, recorded.
    "/season start": Scenario(by("commissioner"), {**WINTER_2030, "rosters": "clear"},
                              "Rosters cleared: 28 players left their teams",
                              ("seasons", "roster_entries", "roster_departures")),
    "/standings adjust": Scenario(by("commissioner"), {"team": "Owls", "points": -3, "reason": "bench brawl"},
                                  "Owls: -3 standings points", ("standings_adjustments",)),
    "/standings post": Scenario(by("commissioner"), {}, "Posted the standings in", ("standings_posts",)),
    "/suspension review": Scenario(
        by("commissioner"), lambda lg: {"player": lg.player("Omar Fox"), "action": "set-games", "games": 3},
        "set to 3 games on review", ("suspension_reviews", "suspensions"),
        setup=(at(AFTER_G1), do("/penalty", referee, lambda lg: {"game": "G1", "player": lg.player("Omar Fox"),
                                                                 "infraction": "tripping"}))),
    "/suspend": Scenario(by("commissioner"),
                         lambda lg: {"player": lg.player("Alice Hart"), "games": 2, "reason": "Slashing"},
                         "Suspension #", ("suspensions",)),
}

#: Privileged commands a commissioner may not use (docs/product.md §1 says they do "everything"), and why.
NOT_FOR_COMMISSIONERS: dict[str, str] = {
    "/dispute file": "docs/product.md §3 lists it for captains: a formal appeal to the commissioners themselves",
    "/relay send": "docs/product.md §3 lists it for captains: it speaks for a team and counts against its relay limit",
    "/spare request": "the game's captain asks for their own team's missing spots, and hears who took them",
}
