"""The two servers of the isolation test (tests/reliability/test_isolation.py) and what it measures with them:
the first server holds a row in every league table, the second a small league of its own; the first
server's markers that no reply may show, fingerprints of the first league's rows, options that name the
first server's objects for running every command from the second, and a press or a form from either."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import func, select

from cogs.rulebooks import rules_service
from storage.models import (
    Appeal,
    Base,
    BenchPenalty,
    Deadline,
    Dispute,
    Draft,
    DraftPick,
    Game,
    Goal,
    LateStart,
    Player,
    PlayerGuardian,
    Registration,
    RegistrationOffer,
    RegistrationWindow,
    Relay,
    RuleQuestion,
    RuleVote,
    SpareOffer,
    Suspension,
    Team,
    Trade,
)
from tests.commands.empty_server import hand_to_discord
from tests.conftest import GUILD, OTHER_GUILD, ROLES
from tests.harness import Attachment, Call, Member, Reply
from tests.harness.fake_discord import next_id
from tests.reliability.commands import DESTRUCTIVE, LeafCommand, leaf_commands, within_length
from tests.reliability.test_fuzz_commands import POLITE, World

SECRET = "S1-SECRET"  # in every free text the first server stores: it must never reach the second
LEAGUE_WORD = "zorblax"  # the first league's own word for a slap shot (stored lower case, so not SECRET)
SETUP_START = datetime(2030, 1, 5, 12, 0, tzinfo=UTC)
GAME_DAY = datetime(2030, 1, 11, 23, 0, tzinfo=UTC)  # both G1s start 2030-01-11 19:00 Toronto
AFTER_GAMES = datetime(2030, 1, 12, 3, 0, tzinfo=UTC)  # the first games of both leagues are over
STATS_MONDAY = datetime(2030, 1, 14, 14, 0, tzinfo=UTC)  # 9:00 Toronto: the weekly statistics post

ALICE = 500_000_000_000_000_001  # Hawks' captain in the first league, plays for Lynx in the second
BEA = 500_000_000_000_000_002  # only in the first league
OLGA = 800_000_000_000_000_001  # the second server's commissioner, captain of Ravens there
KOFI = 800_000_000_000_000_002
JUNIOR = "Junior Jozef"  # a first-league player without a Discord account, managed by Alice
QUIET_QUINN = 500_000_000_000_000_099  # only in the first league, no gender category
SPARE_SIA = 500_000_000_000_000_098  # on the first league's spare list, on no roster
LYNX_CHANNEL, RAVENS_CHANNEL = 4101, 4102
REGISTRATION_FORM = "sideline:registration:form:0"  # the registration form whose division the age decides


def registration_form(name: str) -> dict[str, str]:
    return {"name": name, "date_of_birth": "1990-05-01", "positions": "skater", "guardian": "", "notes": f"{SECRET}"}

OTHER_TEAMS = f"""team,division,captain_discord_ids,channel_id
Lynx,East,{ALICE},{LYNX_CHANNEL}
Ravens,East,{OLGA},{RAVENS_CHANNEL}
"""
OTHER_PLAYERS = f"""discord_id,name,team,position,gender
{ALICE},A. Hart,Lynx,skater,woman
{KOFI},Kofi Mensah,Lynx,skater,man
800000000000000003,Lena Brandt,Lynx,skater,woman
800000000000000004,Ivo Petrov,Lynx,skater,man
800000000000000005,Noor Saleh,Lynx,goalie,man
800000000000000011,Mara Quist,Ravens,skater,woman
800000000000000012,Teo Varga,Ravens,skater,man
800000000000000013,Ines Duarte,Ravens,skater,woman
800000000000000014,Olle Berg,Ravens,skater,man
800000000000000015,Rui Costa,Ravens,goalie,man
"""
# "G1" exists on both servers on purpose: a lookup by code that forgets the league finds the wrong one.
OTHER_GAMES = """game_id,starts_at,home,away,venue,kind
G1,2030-01-11 19:00,Lynx,Ravens,Arena Nord,regular
L2,2030-01-11 21:00,Ravens,Lynx,Arena Nord,regular
L3,2030-01-20 19:00,Lynx,Ravens,Arena Nord,regular
"""
FIRST_RULEBOOK = f"""\
Section 1 - Game Format
1.1 - Periods Games are played in two 20 minute halves with a running clock. {SECRET} periods.
1.2 - Overtime If the game is tied after regulation, a 5 minute sudden death overtime is played, then a shootout.
1.3 - Shootout Each team picks 3 shooters for the shootout. {SECRET} shootout rule.
Section 2 - Conduct
2.1 - Offsides There is no offside in this league.
2.2 - Slap shots Slap shots are not allowed; the ball may not be raised above the knee. {SECRET} slap shots.
"""
SECOND_RULEBOOK = """\
Section 1 - Basics
1.1 - Kick-off The ball starts at the centre spot after every goal.
"""

HAWKS_IN = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Ray Moss", "Uma Reed")
LYNX_IN = ((ALICE, "A. Hart"), (KOFI, "Kofi Mensah"), (800_000_000_000_000_003, "Lena Brandt"))


# --- what only the first server has ------------------------------------------------------------------
@dataclass(frozen=True)
class Marker:
    label: str
    pattern: re.Pattern[str]


def word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(text)}(?![\w])", re.IGNORECASE)


def first_server_markers(world: IsolationWorld) -> list[Marker]:
    """Strings that only the first league's data can produce (the second league shares none of them)."""
    sample = world.sample
    found = [Marker(f"team {t}", word(t)) for t in sample.teams]
    found += [Marker(f"player {p}", word(p)) for p in sample.players]
    found += [Marker("division", word(d)) for d in ("North", "South")]
    found += [Marker("venue", word(v)) for v in ("Rink A", "Rink B")]
    found += [Marker(f"game {c}", word(c)) for c in ("G2", "G3", "G4", "G5", "G6")]
    found += [Marker("league name", word("Coed League")), Marker("stored text", re.compile(re.escape(SECRET)))]
    found += [Marker("league word", word(LEAGUE_WORD)), Marker("managed player", word(JUNIOR))]
    found += [Marker("referee name", word("Ref Rita")), Marker("commissioner name", word("Commish Kay"))]
    people = {int(r["discord_id"]) for r in sample.players.values()} | {700_000_000_000_000_001,
                                                                       700_000_000_000_000_002}
    found += [Marker(f"mention of {p}", re.compile(rf"<@!?{p}>|\b{p}\b")) for p in sorted(people - {ALICE})]
    found += [Marker(f"channel {c}", re.compile(rf"\b{c}\b")) for c in sorted(world.first_channels)]
    found += [Marker(f"role {r}", re.compile(rf"<@&{r}>")) for r in ROLES.values()]
    return found


def typed_text(options: dict[str, Any]) -> list[str]:
    """What the person typed or picked: the bot may repeat it without leaking anything."""
    out: list[str] = []
    for value in options.values():
        if isinstance(value, Member):
            out += [str(value.id), value.name]
        elif isinstance(value, Attachment):
            out.append(value.data.decode("utf-8", "replace"))
        else:
            out.append(str(value))
    return out


def leaks(world: IsolationWorld, calls: Iterable[Call], typed: list[str]) -> list[str]:
    """Markers found in anything the bot sent, and sends into the first server's channels."""
    markers = [m for m in world.markers if not any(m.pattern.search(t) for t in typed)]
    found: list[str] = []
    for call in calls:
        target = re.match(r"^/channels/(\d+)", call.path)
        if target and int(target.group(1)) in world.first_channels:
            found.append(f"{call.method} {call.path}: sent into the first server")
        # the attachments sent along too (a /calendar file names teams, venues and games)
        # (a PNG is pixels, which bytes read as text would match by chance: it is drawn from the same data
        # as the text sent with it, which is scanned; bot/services/pictures/)
        attached = [data.decode("utf-8", "replace") for data in call.files.values()
                    if not data.startswith(b"\x89PNG\r\n\x1a\n")]
        if (call.body is None or isinstance(call.body, bytes)) and not attached:
            continue
        body = "\n".join([json.dumps(call.body, ensure_ascii=False, default=str), *attached])
        found += [f"{call.method} {call.path}: {m.label}" for m in markers if m.pattern.search(body)]
    return found


# --- database fingerprints -------------------------------------------------------------------------------
LEAGUE_TABLES = [t for t in Base.metadata.sorted_tables if "league_id" in t.c]


def league_queries(league_id: int) -> list[tuple[str, Any]]:
    leagues = Base.metadata.tables["leagues"]
    return [("leagues", select(leagues).where(leagues.c.id == league_id))] + [
        (t.name, select(t).where(t.c.league_id == league_id).order_by(*t.primary_key.columns)) for t in LEAGUE_TABLES]


async def league_rows(world: IsolationWorld, league_id: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that belongs to one league, table by table, in primary-key order."""
    queries = world.first_league_queries if league_id == world.l1 else league_queries(league_id)
    async with world.h.bot.sessions() as session:
        return {name: [tuple(r) for r in (await session.execute(query)).all()] for name, query in queries}


def cross_league_checks(world: IsolationWorld) -> tuple[list[str], Any]:
    """Counts of rows that link the two leagues: a foreign key into another league's row, or a send
    aimed at the other server. One statement, built once: it runs after every probe."""
    checks: list[tuple[str, Any]] = []
    for table in LEAGUE_TABLES:
        for fk in table.foreign_keys:
            parent = fk.column.table
            if parent.name != "leagues" and "league_id" in parent.c:
                checks.append((f"{table.name}.{fk.parent.name} -> {parent.name} of another league",
                               select(func.count()).select_from(table.join(parent, fk.parent == fk.column))
                               .where(table.c.league_id != parent.c.league_id)))
    outbox, teams = Base.metadata.tables["outbox"], Base.metadata.tables["teams"]
    for league_id, guild_id, channels in ((world.l2, OTHER_GUILD, world.first_channels),
                                          (world.l1, GUILD, world.second_channels)):
        checks.append((f"outbox rows of league {league_id} aimed at the other server", select(func.count()).where(
            outbox.c.league_id == league_id, (outbox.c.guild_id != guild_id) | outbox.c.channel_id.in_(channels))))
        checks.append((f"teams of league {league_id} post in the other server's channels", select(func.count()).where(
            teams.c.league_id == league_id, teams.c.channel_id.in_(channels))))
    return [label for label, _ in checks], select(*(q.scalar_subquery() for _, q in checks))


async def cross_league_rows(world: IsolationWorld) -> list[str]:
    """The checks that found more such rows than last time (each is reported once, where it appeared)."""
    labels, statement = world.cross_checks
    async with world.h.bot.sessions() as session:
        counts = tuple((await session.execute(statement)).one())
    seen, world.cross_counts = world.cross_counts, counts
    return [f"{label} ({n})" for label, n, before in zip(labels, counts, seen, strict=True) if n > before]


async def queued_texts(world: IsolationWorld, after_id: int) -> list[Call]:
    """Messages queued for later (reminders, DMs), as calls, so the leak check reads them too."""
    outbox = Base.metadata.tables["outbox"]
    async with world.h.bot.sessions() as session:
        rows = (await session.execute(select(outbox.c.id, outbox.c.args).where(outbox.c.id > after_id))).all()
    return [Call("QUEUE", f"/outbox/{row_id}", args, None) for row_id, args in rows]


async def last_outbox_id(world: IsolationWorld) -> int:
    outbox = Base.metadata.tables["outbox"]
    async with world.h.bot.sessions() as session:
        return int(await session.scalar(select(func.max(outbox.c.id))) or 0)


def changed(before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    return [name for name in after if before.get(name) != after[name]]


async def first_league_changes(world: IsolationWorld) -> list[str]:
    """What changed in the first league since the last probe, and new rows linking the leagues.

    The baseline moves on after a failure, so one leak fails the probe that caused it, not every later one.
    """
    now = await league_rows(world, world.l1)
    problems = [f"changed the first league's {t}" for t in changed(world.baseline, now)]
    world.baseline = now
    return problems + await cross_league_rows(world)


# --- the two servers ----------------------------------------------------------------------------------------
class IsolationWorld(World):
    """The fuzz world's two leagues, each with data of its own, and people who act from the second server."""

    def __init__(self, tmp_path: Path) -> None:
        super().__init__(tmp_path)
        bot = self.h.bot
        self.clock = bot.clock
        self.l1, self.l2 = bot.league_ids[GUILD], bot.league_ids[OTHER_GUILD]
        self.first_channels = {*self.h.channels[GUILD]} | {
            int(t["channel_id"]) for t in self.sample.teams.values() if t["channel_id"]}
        self.second_channels = {*self.h.channels[OTHER_GUILD], LYNX_CHANNEL, RAVENS_CHANNEL}
        for channel in (LYNX_CHANNEL, RAVENS_CHANNEL):
            self.h.add_channel(OTHER_GUILD, channel)
        # From the second server: its commissioner, and Alice, who plays in both leagues (every role there).
        self.olga = self.h.member("Other Olga", league=1, member_id=OLGA, roles=("captain", "referee", "commissioner"))
        self.alice = self.h.member("A. Hart", league=1, member_id=ALICE, roles=("captain", "referee", "commissioner"))
        self.actors = [self.olga, self.alice]
        self.cross_checks = cross_league_checks(self)
        self.cross_counts: tuple[int, ...] = (0,) * len(self.cross_checks[0])
        self.first_league_queries = league_queries(self.l1)
        self.loop.run_until_complete(self._populate())
        self.markers = first_server_markers(self)
        self.suggested: dict[tuple[str, str], list[Any]] = {}
        self.suggested = self.loop.run_until_complete(self._first_server_suggestions())

    async def _first_server_suggestions(self) -> dict[tuple[str, str], list[Any]]:
        """For autocomplete options the probes don't know by name: the values the first server itself
        suggests to its commissioner, so a new command's options still name the first server's objects."""
        found: dict[tuple[str, str], list[Any]] = {}
        for cmd in leaf_commands(self.h.bot):
            for option in cmd.options:
                if not option.get("autocomplete") or option["name"] in NAMED_OPTIONS:
                    continue
                context = {k: v for k, v in probe_options(self, cmd, 1).items()
                           if k != option["name"] and not isinstance(v, Member | Attachment | discord.Object)}
                reply = await self.h.autocomplete(cmd.path, focused=option["name"], as_=self.sample.commissioner(),
                                                  guild_id=GUILD, **{**context, option["name"]: ""})
                found[(cmd.path, option["name"])] = [c["value"] for c in reply.autocomplete_choices]
        return found

    def close(self) -> None:
        """Also end the timers discord.py starts for pressed messages' views (none may outlive the loop)."""
        self.loop.run_until_complete(self.h.close())
        pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
        if pending:
            for task in pending:
                task.cancel()
            self.loop.run_until_complete(asyncio.wait(pending))
        self.loop.close()

    async def ok(self, path: str, actor: Member, guild: int = GUILD, **options: Any) -> Reply:
        reply = await self.h.slash(path, as_=actor, guild_id=guild, **options)
        outcome = self.outcomes.pop(interaction_id(reply), None)
        assert outcome is None, f"setup {path} failed: {reply.text}"
        return reply

    async def _populate(self) -> None:
        s, bot = self.sample, self.h.bot
        kay, rita, hawks = s.commissioner(), s.referee(), s.captain("Hawks")
        other = bot.settings.leagues[1]
        importer = bot.services.imports.importer
        for kind, text in (("teams", OTHER_TEAMS), ("players", OTHER_PLAYERS), ("games", OTHER_GAMES)):
            report = await importer.run(kind, text.encode(), other, now=self.clock.now(), allow_past=True)
            assert report.summary(), kind
        await rules_service(bot).import_rulebook(self.l1, FIRST_RULEBOOK.encode(), "first.txt")
        await rules_service(bot).import_rulebook(self.l2, SECOND_RULEBOOK.encode(), "second.txt")
        # The first league is one set up in Discord (its settings and their audit trail are league rows too).
        await hand_to_discord(bot)
        await self.ok("/setup rule", kay, key="roster_limit", value="20")
        # A player's question, marked not what they asked, linked by the commissioner; the league's own word;
        # who asked shown (rule_questions, rule_feedback, rule_links, rule_words, rule_feedback_settings).
        asked = await self.ok("/rule", s.player("Bea Quinn"), question=f"{SECRET} slap shots")
        not_it = next(c for c in asked.last.custom_ids() if c.startswith("sideline:rulefb:") and c.endswith(":no"))
        await press(self, not_it, s.player("Bea Quinn"), GUILD)
        async with bot.sessions() as session:
            question = await session.scalar(select(RuleQuestion.id).where(RuleQuestion.league_id == self.l1))
        await self.ok("/rulebook link", kay, asked=str(question), citation="2.2")
        await self.ok("/rulebook words add", kay, word=LEAGUE_WORD, means="slap shot")
        await self.ok("/rulebook askers", kay, show=True)
        # Games as Discord events, a role per team; a "Wolves" role that grants permissions is
        # refused as the team's role (a discord_problems row).
        self.h.discord.guilds.guild(GUILD).role(next_id(), "Wolves", permissions=1 << 3, position=3)
        await self.ok("/setup discord", kay, scheduled_events=True, team_roles=True)
        await self.ok("/setup web", kay, public=True)  # a public page (its slug: the league row's)
        await self.ok("/setup rule", kay, key="guests_allowed", value="true")  # so it has guests to lose
        # Cleanup duty (youth 2.15) turned on, so it has a missed cleanup to lose.
        await self.ok("/setup rule", kay, key="cleanup_duty_last_game_each_week", value="true")
        await self.ok("/setup rule", kay, key="cleanup_missed_bench_minor_minutes", value="2")
        # Disputes turned on (the co-ed preset has none), so it has disputes to lose.
        await self.ok("/setup rule", kay, key="dispute_calls_allowed", value="true")
        # A weekly statistics post (youth 2.16), so it has a statistics message to lose.
        await self.ok("/setup rule", kay, key="stats_post_weekday", value="0")

        self.clock.set(SETUP_START)
        for name in HAWKS_IN + OWLS_IN:
            await self.ok("/checkin", s.player(name), status="in", game="G1")
        await self.ok("/checkin", s.player("Walt Orr"), status="in", game="G2")  # G2's goal: a statistic
        # A Hawks player with no gender category checks in: asked once (a gender_asks row).
        quiet = Member(QUIET_QUINN, "Quiet Quinn")
        await self.ok("/roster add", hawks, player=quiet)
        await self.ok("/checkin", quiet, status="maybe", game="G1")
        # A junior without a Discord account, managed by Alice (who plays in both leagues): a guardian's row.
        await self.ok("/roster add", hawks, name=JUNIOR, guardian=hawks)  # Hawks's captain is Alice
        await self.ok("/checkin", hawks, status="in", game="G1", player=JUNIOR)
        for member_id, name in LYNX_IN:
            await self.ok("/checkin", Member(member_id, name), guild=OTHER_GUILD, status="in", game="G1")
        await self.ok("/deadline add", kay, name=f"{SECRET} team fees", due="2030-02-01 12:00", audience="team:Hawks")
        # Its name is no secret: the probes ask the second server for it (/standings show season:).
        await self.ok("/season start", kay, name="Winter 2030", first_day="2030-01-01", weeks=8)
        # Registration for North with one place: Finn in, Hana on the waiting list, an exception for Omar; Finn
        # rejected, so Hana is offered the place (a waiting offer).
        await self.ok("/setup rule", kay, key="division_capacity", value='{"North": 1}')
        await self.ok("/registration open", kay, division="North", fee="50")
        await self.ok("/registration exception", kay, member=s.player("Omar Fox"), division="North",
                      reason="skill assessment")
        for name in ("Finn Cole", "Hana Kim"):
            sent = await self.h.submit_modal(REGISTRATION_FORM, registration_form(f"{SECRET} {name}"),
                                             as_=s.player(name), guild_id=GUILD)
            assert sent.ephemeral and "Sorry" not in sent.content, sent.content
        async with bot.sessions() as session:
            finn = await session.scalar(select(Registration.id).where(Registration.league_id == self.l1)
                                        .order_by(Registration.id).limit(1))
        await self.ok("/registration reject", kay, registration=str(finn), reason=f"{SECRET} not eligible")
        # North's draft: drawn and started; nobody registered is free to pick, so it ends at once. Its one pick
        # is written as a clock running out leaves it (the co-ed rules only show the clock).
        await self.ok("/draft setup", kay, division="North", rounds=2)
        await self.ok("/draft lottery", kay)
        await self.ok("/draft start", kay)
        async with bot.sessions.begin() as session:
            draft = await session.scalar(select(Draft).where(Draft.league_id == self.l1))
            owls = await session.scalar(select(Team.id).where(Team.league_id == self.l1, Team.name == "Owls"))
            assert draft is not None and owls is not None
            session.add(DraftPick(league_id=self.l1, draft_id=draft.id, number=1, round=1, team_id=owls))
        await self.ok("/deadline add", self.olga, OTHER_GUILD, name="Second kit order", due="2030-02-01 12:00",
                      audience="team:Lynx")
        await self.ok("/tellcaptain", s.player("Bea Quinn"), message=f"{SECRET} note for the captain")
        await self.ok("/game referee", kay, game="G1", member=rita)
        await self.ok("/calendar show", s.player("Bea Quinn"))  # a feed link (calendar_feeds)
        await self.ok("/calendar show", self.alice, OTHER_GUILD)
        # A spare joins; Owls (short of a woman/non-binary skater) ask; she takes the spot.
        sia = Member(SPARE_SIA, "Spare Sia")
        await self.ok("/spare join", sia, positions="skater", days="fri", gender="woman")
        await self.ok("/spare request", s.captain("Owls"), game="G1")
        await bot.courier.deliver_due()
        accept = next(cid for call in self.h.discord.dms(SPARE_SIA) for cid in call.custom_ids()
                      if cid.endswith(":accept"))
        assert "The spot is yours" in (await press(self, accept, sia, None)).text
        await self.ok("/guest add", hawks, game="G1", name_or_member=f"{SECRET} guest")
        await self.ok("/guest clear", rita, game="G1", name_or_member=f"{SECRET} guest")
        await self.ok("/away set", s.player("Hana Kim"), **{"from": "2030-01-24", "to": "2030-01-26"},
                      note=f"{SECRET} away note")
        await self.ok("/profile reminders", s.player("Finn Cole"), delivery="dm", deadline_nudges="off")
        await self.ok("/shootout submit", hawks, game="G1", shooters="Alice Hart, Carl Diaz, Dan Roy")
        # Who stands in for Hawks's captain (youth 1.4, 1.6), and Hawks on G1's cleanup duty by a commissioner.
        await self.ok("/team standin", hawks, game="G1", member=s.player("Bea Quinn"))
        await self.ok("/team assistant", kay, member=s.player("Eli Park"))
        await self.ok("/team nominate", s.player("Hana Kim"), post="captain", team="Owls")  # waits for a decision
        # A captain's request to replace a player (youth 1.16), waiting for the commissioners.
        await self.ok("/replace request", hawks, player=s.player("Dan Roy"), reason="absence")
        # A trade Hawks propose to Owls (youth 1.9 in spirit; any preset keeps trades), still open.
        await self.ok("/trade propose", hawks, team="Owls", players_out="Eli Park", players_in="Ray Moss")
        await self.ok("/game duty", kay, game="G1", team="Hawks", duty="cleanup", setting="on")
        await self.ok("/shootout submit", self.alice, OTHER_GUILD, game="G1",
                      shooters="A. Hart, Kofi Mensah, Lena Brandt")

        self.clock.set(GAME_DAY)
        await bot.courier.deliver_due()  # game-day reminders and lineup checks (captain alerts)
        await self.ok("/relay send", hawks, game="G1", message=f"{SECRET} relay message")
        await self.ok("/relay send", self.alice, OTHER_GUILD, game="G1", message="Second server relay")

        self.clock.set(AFTER_GAMES)
        await self.ok("/goal add", rita, game="G2", team="Bears", scorer=s.player("Walt Orr"))
        await self.ok("/result enter", kay, game="G2", home=2, away=1, decided="regulation")
        await self.ok("/result fix", kay, game="G2", home=3, reason=f"{SECRET} correction")
        await self.ok("/result enter", self.olga, OTHER_GUILD, game="L2", home=1, away=0, decided="regulation")
        await self.ok("/shootout record", rita, game="G1", shooter="Alice Hart", scored=True, tied_at=3)
        await self.ok("/penalty", rita, game="G1", player=s.player("Carl Diaz"), infraction="slashing")
        await self.ok("/gamesheet add", rita, game="G1", player=s.player("Bea Quinn"), number=9)
        await self.ok("/gamesheet confirm", kay, game="G1", team="Hawks")
        await self.ok("/goal add", rita, game="G1", team="Hawks", scorer=s.player("Bea Quinn"))
        # Bears didn't clean up after G2, the week's last game: recorded, withdrawn (an audit row), recorded again.
        await self.ok("/cleanup missed", rita, game="G2", team="Bears")
        await self.ok("/cleanup withdraw", kay, game="G2", team="Bears", note=f"{SECRET} withdrawal note")
        await self.ok("/cleanup missed", rita, game="G2", team="Bears")
        await self.ok("/suspend", kay, player=s.player("Alice Hart"), games=2, reason=f"{SECRET} suspension reason")
        await self.ok("/suspend", self.olga, OTHER_GUILD, player=Member(KOFI, "Kofi Mensah"), games=1,
                      reason="Second server suspension")
        async with bot.sessions() as session:  # the first suspension came with Carl's penalty
            carls = await session.scalar(select(Suspension.id).where(Suspension.league_id == self.l1)
                                         .order_by(Suspension.id))
            kofis = await session.scalar(select(Suspension.id).where(Suspension.league_id == self.l2))
            alices = await session.scalar(select(func.max(Suspension.id)).where(Suspension.league_id == self.l1))
        assert carls and kofis and alices != carls, "Carl's penalty should have suspended him"
        # Hawks' captain appeals Carl's; Alice's own suspension stays appealable, by her only, and only here.
        await self.ok("/appeal file", hawks, suspension=carls, reason=f"{SECRET} appeal reason")
        await self.ok("/appeal file", self.alice, OTHER_GUILD, suspension=kofis,
                      reason="Second server appeal")
        # Carl's suspension (a severe offence) waits for review: a commissioner confirms it (an audit row).
        await self.ok("/suspension review", kay, player=s.player("Carl Diaz"), action="confirm",
                      note=f"{SECRET} review note")
        # Finn leaves Hawks and comes back: the roster's history is a league row too.
        await self.ok("/roster remove", kay, player=s.player("Finn Cole"))
        await self.ok("/roster add", kay, player=s.player("Finn Cole"), team="Hawks")
        await self.ok("/dispute file", hawks, game="G1", message=f"{SECRET} dispute message")
        await self.ok("/dispute file", self.alice, OTHER_GUILD, game="G1", message="Second server dispute")
        await self.ok("/standings adjust", kay, team="Owls", points=-1, reason=f"{SECRET} adjustment")
        await self.ok("/standings post", kay)
        await self.ok("/bracket create", kay, teams=4)
        await self.ok("/bracket seed", kay, teams="Owls, Hawks")  # level on record and goals: an audited order
        await self.ok("/standings adjust", kay, team="Wolves", reason=f"{SECRET} disqualified", disqualify=True)
        await self.ok("/bracket create", self.olga, OTHER_GUILD, teams=2)
        await bot.courier.deliver_due()
        # A late start's bench minor and its record (youth 2.4), as a press on the prompt leaves them: the co-ed
        # rules have no grace period to prompt for, and no bench minors to call.
        async with bot.sessions.begin() as session:
            g2 = await session.scalar(select(Game).where(Game.league_id == self.l1, Game.code == "G2"))
            assert g2 is not None
            bench = BenchPenalty(league_id=self.l1, game_id=g2.id, team_id=g2.home_team_id, infraction_key="late",
                                 minutes=2, minute=0, summary="Bench minor: team not ready at start", called_by=1)
            session.add(bench)
            await session.flush()
            session.add(LateStart(league_id=self.l1, game_id=g2.id, team_id=g2.home_team_id, action="minor",
                                  bench_penalty_id=bench.id, made_by=1))
        self.clock.set(STATS_MONDAY)  # the first league's weekly statistics post, then back to the evening of G1
        await bot.courier.deliver_due()
        await bot.courier.deliver_due()
        self.clock.set(AFTER_GAMES)
        # Rule-change votes (youth 1.23): one North vote passed by all three voters, one South vote still open.
        await self.ok("/rulevote start", kay, rule="roster_limit", proposal="15", division="North")
        for voter in (kay, hawks, s.captain("Owls")):
            assert "Your vote on #1" in (await press(self, "sideline:rulevote:yes:1", voter, GUILD)).text
        await self.ok("/rulevote start", kay, rule="points_tie", proposal="0", division="South")
        assert "Your vote on #2" in (await press(self, "sideline:rulevote:no:2", s.captain("Bears"), GUILD)).text
        await bot.courier.deliver_due()

        self.ids: dict[str, list[int]] = {}
        async with bot.sessions() as session:
            for kind, model in (("suspension", Suspension), ("appeal", Appeal), ("dispute", Dispute),
                                ("deadline", Deadline), ("relay", Relay), ("spare_offer", SpareOffer),
                                ("rule_question", RuleQuestion), ("goal", Goal), ("guardian", PlayerGuardian),
                                ("registration", Registration), ("registration_offer", RegistrationOffer),
                                ("registration_window", RegistrationWindow), ("rule_vote", RuleVote),
                                ("trade", Trade)):
                self.ids[kind] = list((await session.scalars(
                    select(model.id).where(model.league_id == self.l1).order_by(model.id))).all())
                assert self.ids[kind], f"the first league has no {kind} to aim at"
            self.junior_id = await session.scalar(select(Player.id).where(Player.league_id == self.l1,
                                                                          Player.name == JUNIOR))
        rows = await league_rows(self, self.l1)
        empty = sorted(name for name, found in rows.items() if not found)
        # Every table the first league could lose data from has data to lose.
        assert empty == [], f"the first league has no rows in {empty}"
        assert await cross_league_rows(self) == []
        # Nothing below may change the first league: the probes compare against this.
        self.baseline = await league_rows(self, self.l1)


def interaction_id(reply: Reply) -> int:
    return int(reply.first.path.split("/")[2])



# --- options that name the first server's objects --------------------------------------------------------
GAMES = ("G2", "G1", "G5")  # only on the first server (played) · on both · only on the first (upcoming)
TEAMS = ("Hawks", "Owls", "Bears")
TEXT = "isolation probe"  # free text never names the first server: the second league may store it
ID_OPTIONS = {"suspension": "suspension", "appeal": "appeal", "id": "dispute", "deadline": "deadline",
              "asked": "rule_question", "goal": "goal"}
# /setup's options that autocomplete from what every league shares (presets, zones, rule settings).
PUBLIC_OPTIONS = {"preset": "coed-ball-hockey", "timezone": "America/Toronto", "key": "roster_limit",
                  "section": "lineup"}
NAMED_OPTIONS = ("game", "team", "home", "away", "forfeit_team", "winner", "division", "matchup", "audience",
                 "citation", "question", "shooter", "shooters", "players", "preferred", "infraction", "code",
                 "starts_at", "due", "nudges", "name", "season", "word", "player", *PUBLIC_OPTIONS, *ID_OPTIONS)
FIRST_SERVER_FILES = {
    # a team of the second league pointed at a channel of the first server
    "/import teams": f"team,division,captain_discord_ids,channel_id\nRavens,East,{OLGA},600000000000000001\n",
    "/import players": f"discord_id,name,team,position,gender\n{BEA},Probe Player,Hawks,skater,woman\n",
    "/import games": "game_id,starts_at,home,away,venue,kind\nG9,2030-02-20 19:00,Hawks,Owls,Probe Rink,regular\n",
}
#: For a file option the probes don't know: the first server's teams, players, games and channel.
FIRST_SERVER_CSV = ("team,player,discord_id,game_id,channel_id\n"
                    f"Hawks,Bea Quinn,{BEA},G2,600000000000000001\nOwls,Omar Fox,{BEA},G5,600000000000000001\n")


def variants(command: LeafCommand) -> int:
    names = {o["name"] for o in command.options}
    if "game" in names or names & {"team", "home", "forfeit_team", "winner"}:
        return 3
    if any(o["type"] in (6, 9) for o in command.options) or names & set(ID_OPTIONS):
        return 2
    return 1


def probe_options(world: IsolationWorld, command: LeafCommand, k: int) -> dict[str, Any]:
    """Variant k of the options: every object named is the first server's (or, for G1, on both)."""
    members = (Member(BEA, "Probe Member"), Member(ALICE, "A. Hart"))
    out: dict[str, Any] = {}
    for option in command.options:
        name, kind = option["name"], option["type"]
        if name in ID_OPTIONS:
            ids = world.ids[ID_OPTIONS[name]]
            out[name] = ids[k % len(ids)] if kind == 4 else str(ids[k % len(ids)])
        elif name in DESTRUCTIVE:
            out[name] = DESTRUCTIVE[name]
        elif option.get("choices"):
            if option.get("required"):
                out[name] = option["choices"][k % len(option["choices"])]["value"]
        elif name == "player" and kind == 3:  # a line of a first-server game sheet, by name
            out[name] = ("Bea Quinn", "Carl Diaz")[k % 2]
        elif name in NAMED_OPTIONS and name != "player":
            out[name] = {
                "game": GAMES[k % 3], "team": TEAMS[k % 3], "home": TEAMS[k % 3], "forfeit_team": TEAMS[k % 3],
                "winner": TEAMS[k % 3], "away": TEAMS[(k + 1) % 3], "division": ("North", "South")[k % 2],
                "matchup": ("R1-M1", "R1-M2")[k % 2], "audience": f"team:{TEAMS[k % 3]}",
                "citation": ("1.3", "2.2")[k % 2],
                "question": ("how many shooters in the shootout", "slap shots")[k % 2],
                "shooter": ("Alice Hart", "Omar Fox")[k % 2], "shooters": "Alice Hart, Carl Diaz, Dan Roy",
                "players": "Alice Hart, Carl Diaz, Dan Roy", "preferred": "Alice Hart, Carl Diaz, Dan Roy",
                "infraction": "slashing", "code": "G2", "starts_at": "2030-02-15 19:00", "due": "2030-02-15 19:00",
                "nudges": "24h", "name": TEAMS[k % 3], "season": "Winter 2030",
                # the first league's word where it names one (remove); a word of the second's own where it adds one
                "word": LEAGUE_WORD if command.path == "/rulebook words remove" else "probeword",
                **PUBLIC_OPTIONS,
            }[name]
        elif option.get("autocomplete") and world.suggested.get((command.path, name)):
            # an option the probes don't know by name: what the first server itself suggests for it
            suggested = world.suggested[(command.path, name)]
            out[name] = suggested[k % len(suggested)]
        elif not option.get("required"):
            continue
        elif kind == 3:
            out[name] = within_length(option, TEXT)
        elif kind == 4:
            out[name] = max(option.get("min_value", 1), min(1, option.get("max_value", 1)))
        elif kind == 10:
            out[name] = float(option.get("min_value", 1))
        elif kind == 5:
            out[name] = False
        elif kind in (6, 9):
            out[name] = members[k % len(members)]
        elif kind == 7:  # a channel of the first server
            out[name] = discord.Object(sorted(world.first_channels)[k % len(world.first_channels)])
        elif kind == 8:  # a role of the first server
            out[name] = discord.Object(list(ROLES.values())[k % len(ROLES)])
        elif kind == 11:
            out[name] = Attachment("probe.csv", FIRST_SERVER_FILES.get(command.path, FIRST_SERVER_CSV).encode())
        else:
            raise AssertionError(f"{command.path}: no probe value for option {name!r} of type {kind}")
    return {name: within_length(option, value) if option["type"] == 3 and isinstance(value, str) else value
            for option in command.options for name, value in out.items() if name == option["name"]}


def command(world: IsolationWorld, path: str) -> LeafCommand:
    return next(c for c in leaf_commands(world.h.bot) if c.path == path)


def sent_during(world: IsolationWorld, reply: Reply, start: int) -> list[Call]:
    return reply.calls + world.h.discord.calls[start:]


@dataclass
class Outcome:
    reply: Reply
    error: BaseException | None
    problems: list[str]


async def run_from_second_server(world: IsolationWorld, path: str, actor: Member,
                                 options: dict[str, Any]) -> Outcome:
    """Run one command and collect every way it could have crossed into the first server."""
    queued_from = await last_outbox_id(world)
    reply = await world.h.slash(path, as_=actor, guild_id=OTHER_GUILD, **options)
    start = len(world.h.discord.calls)
    await world.h.bot.courier.deliver_due()  # what it queued for now goes out (DMs, announcements)
    sent = sent_during(world, reply, start) + await queued_texts(world, queued_from)
    outcome = world.outcomes.pop(interaction_id(reply), None)
    error = None if outcome is None else (getattr(outcome, "original", None) or outcome.__cause__ or outcome)
    problems = await first_league_changes(world)
    problems += leaks(world, sent, typed_text(options))
    if error is not None and not isinstance(error, POLITE):
        problems.append(f"crashed: {error!r}")
    if error is not None and not reply.ephemeral:
        problems.append("a refusal was not private")
    if "something went wrong" in reply.text or "Traceback" in reply.text:
        problems.append(f"answered with an error: {reply.text[:200]}")
    return Outcome(reply, error, problems)



async def press(world: IsolationWorld, custom_id: str, actor: Member, guild: int | None) -> Reply:
    """A press on a message carrying the button, in a server channel or (guild None) in a DM."""
    h = world.h
    channel = h.channels[guild][0] if guild else next_id()
    message = {"id": str(next_id()), "channel_id": str(channel), "type": 0, "content": "",
               "author": h.discord.bot_user, "embeds": [], "attachments": [], "mentions": [], "mention_roles": [],
               "mention_everyone": False, "pinned": False, "tts": False, "timestamp": datetime.now(UTC).isoformat(),
               "edited_timestamp": None, "flags": 0,
               "components": [{"type": 1, "components": [
                   {"type": 2, "style": 2, "label": "Button", "custom_id": custom_id}]}]}
    payload = h._base(3, actor, guild, channel if guild else None, {"custom_id": custom_id, "component_type": 2},
                      message)
    if guild is None:
        payload["channel"] = {"id": str(channel), "type": 1}
        payload["channel_id"] = str(channel)
    return await h._feed(payload)


async def submit_form(world: IsolationWorld, custom_id: str, actor: Member, guild: int | None) -> Reply:
    """A reply form (or a registration form, filled in) coming back, from a server or (guild None) from a DM."""
    registration = custom_id.startswith(REGISTRATION_FORM[:-1])
    values = registration_form("Forged Fay") if registration else {"answer": "forged answer"}
    data = {"custom_id": custom_id, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]}
    payload = world.h._base(5, actor, guild, None, data)
    return await world.h._feed(payload)
