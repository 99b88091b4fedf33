"""NUL and other control characters in every text option, on SQLite and PostgreSQL.

PostgreSQL refuses NUL in a text parameter (asyncpg raises) where SQLite takes it, so user text
has to be cleaned before it reaches a query or a row: a NUL must never turn into "something
went wrong". The sweep is generated from the command tree, so a new command is covered too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from discord import app_commands
from sqlalchemy import event

from bot.errors import UserFacingError
from cogs.rulebooks import rules_service
from storage.text import printable
from tests.conftest import GUILD, SampleLeague
from tests.harness import Attachment, Harness, Member, Reply
from tests.reliability.commands import LeafCommand, leaf_commands

#: Option name -> a value that names something real once its control characters are dropped.
DIRTY = {
    "team": "Haw\x00ks", "home": "Haw\x00ks", "away": "Ow\x00ls", "winner": "Haw\x00ks",
    "forfeit_team": "Ow\x00ls", "game": "G\x001", "division": "Nor\x00th", "infraction": "tri\x00pping",
    "question": "how many shoot\x00ers", "citation": "1.\x003", "shooter": "Alice\x00 Hart",
    "shooters": "Alice Hart,\x00 Bea Quinn", "players": "Alice Hart\x00, Bea Quinn", "preferred": "Bea\x00 Quinn",
    "deadline": "1\x00", "id": "1\x00", "matchup": "R1\x00-M1", "audience": "capt\x00ains",
    "starts_at": "2030-02-01\x00 19:00", "due": "2030-02-01\x00 19:00", "code": "G\x0077",
    "nudges": "1d\x00", "venue": "Rink\x00 C", "name": "Jer\x00seys", "reason": "late\x00\x1b[31m",
    "message": "hello\x00\x07 captain", "text": "dec\x00ided", "note": "do\x00ne",
}
FALLBACK = "x\x00y\x01\x1b"
#: The control characters typed here, to find in a query's parameters (not the code's own separators).
TYPED = re.compile("[\x00\x01\x07\x1b]")
NEWCOMER = Member(id=700_000_000_000_000_099, name="Ned\x00 \x1bNul")  # /roster add stores the display name
RULES = """\
Section 1 - Game Format
1.1 - Periods Games are played in two 20 minute halves with a running clock.
1.3 - Shootout Each team picks 3 shooters for the shootout.
"""


class Watch(logging.Handler):
    """What must stay empty: ERROR log records, the tree's unhandled errors, and statements sent with a
    control character in a parameter (caught on SQLite too, where the database would take it)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.outcomes: dict[int, BaseException] = {}
        self.parameters: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def before_cursor_execute(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
                              many: bool) -> None:
        for row in parameters if many else [parameters]:
            values = row.values() if isinstance(row, dict) else row or ()
            if any(isinstance(v, str) and TYPED.search(v) for v in values):
                self.parameters.append(f"{statement[:100]} {row!r}"[:300])

    def check(self, reply: Reply, what: str) -> None:
        assert reply.responses, f"{what}: no answer"
        assert "went wrong" not in reply.text, f"{what}: {reply.text[:200]}"
        outcome = self.outcomes.pop(int(reply.first.path.split("/")[2]), None)
        if outcome is not None:
            cause = getattr(outcome, "original", None) or outcome.__cause__ or outcome
            assert isinstance(cause, UserFacingError | app_commands.CheckFailure), f"{what}: unhandled {cause!r}"
        assert not self.records, f"{what}: {[r.getMessage() for r in self.records][:2]}"
        assert not self.parameters, f"{what}: control characters reached the database: {self.parameters[:2]}"


@pytest.fixture
async def watch(harness: Harness, league: SampleLeague) -> AsyncIterator[Watch]:
    """The sample league a week in (G1, G2 played) with a rulebook, watched."""
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]
    await rules_service(harness.bot).import_rulebook(harness.bot.league_ids[GUILD], RULES.encode(), "rules.txt")
    w = Watch()
    original = harness.bot.tree.on_error

    async def record(interaction: Any, error: Any) -> None:
        w.outcomes[interaction.id] = error
        await original(interaction, error)

    harness.bot.tree.on_error = record  # type: ignore[method-assign]
    engine = harness.bot.engine.sync_engine
    event.listen(engine, "before_cursor_execute", w.before_cursor_execute)
    logging.getLogger().addHandler(w)
    try:
        yield w
    finally:
        logging.getLogger().removeHandler(w)
        event.remove(engine, "before_cursor_execute", w.before_cursor_execute)


def actor_for(league: SampleLeague, command: LeafCommand) -> Member:
    """Someone allowed to run the command, so the text really reaches the lookups."""
    if not command.requires:
        return league.captain("Hawks")  # Alice Hart: on the Hawks and their captain
    if "commissioner" in command.requires and command.requires != ("captain",):
        return league.commissioner()
    return league.captain("Hawks") if "captain" in command.requires else league.referee()


def free_text(command: LeafCommand) -> list[str]:
    return [o["name"] for o in command.options if o["type"] == 3 and not o.get("choices")]


def options_for(league: SampleLeague, command: LeafCommand, dirty: set[str]) -> dict[str, Any]:
    """Required options filled with ordinary values; the ``dirty`` ones with control characters."""
    values: dict[str, Any] = {}
    for o in command.options:
        name, kind = o["name"], o["type"]
        if name not in dirty and not o.get("required"):
            continue
        if o.get("choices"):
            values[name] = o["choices"][0]["value"]
        elif kind == 3:
            text = DIRTY.get(name, FALLBACK)
            values[name] = text if name in dirty else printable(text)
        elif kind == 4:
            values[name] = max(o.get("min_value", 1), 1)
        elif kind == 5:
            values[name] = False
        elif kind in (6, 9):
            values[name] = NEWCOMER if command.path == "/roster add" else league.player("Bea Quinn")
        elif kind == 11:
            values[name] = Attachment("nul.csv", b"team,division\nHaw\x00ks,North\n")
    return values


async def test_every_text_option_takes_control_characters(harness: Harness, league: SampleLeague,
                                                          watch: Watch) -> None:
    swept = 0
    for command in leaf_commands(harness.bot):
        names = free_text(command)
        for dirty in [{n} for n in names] + ([set(names)] if len(names) > 1 else []):
            options = options_for(league, command, dirty)
            reply = await harness.slash(command.path, as_=actor_for(league, command), **options)
            watch.check(reply, f"{command.path} {options!r}")
            swept += 1
    assert swept > 40


async def test_every_autocomplete_takes_control_characters(harness: Harness, league: SampleLeague,
                                                           watch: Watch) -> None:
    for command in leaf_commands(harness.bot):
        for o in command.options:
            if not o.get("autocomplete"):
                continue
            text = DIRTY.get(o["name"], FALLBACK)
            reply = await harness.autocomplete(command.path, focused=o["name"], as_=actor_for(league, command),
                                               **{o["name"]: text})
            assert reply.response_type == 8, f"{command.path} {o['name']}: no suggestions answer"
            assert not watch.records, f"{command.path} {o['name']}: {watch.records[0].getMessage()}"
            assert not watch.parameters, f"{command.path} {o['name']}: {watch.parameters[:2]}"


@pytest.mark.parametrize(("path", "options", "expected"), [
    ("/schedule", {"team": "Haw\x00ks"}, "Hawks"),
    ("/standings show", {"division": "Nor\x00th"}, "North"),
    ("/roster show", {"team": "Ow\x00ls"}, "Owls"),
    ("/rule", {"question": "shoot\x00out shoot\x00ers"}, "1.3"),
    ("/whoisin", {"game": "G\x003"}, "Owls"),
])
async def test_a_name_with_control_characters_finds_the_real_thing(
        harness: Harness, league: SampleLeague, watch: Watch,
        path: str, options: dict[str, Any], expected: str) -> None:
    """Dropping the characters (not refusing the text) is what makes "Haw\\x00ks" find the Hawks."""
    who = league.captain("Hawks") if path == "/whoisin" else league.commissioner()
    reply = await harness.slash(path, as_=who, **options)
    watch.check(reply, path)
    assert expected in reply.text, reply.text[:300]


async def test_results_entered_with_control_characters_count(harness: Harness, league: SampleLeague,
                                                             watch: Watch) -> None:
    referee = league.referee()
    entered = await harness.slash("/result enter", as_=referee, game="G\x001", home=3, away=1, decided="regulation")
    assert entered.content.startswith("Recorded game G1: Hawks 3-1 Owls."), entered.content
    forfeit = await harness.slash("/result forfeit", as_=referee, game="\x00G2\x07", team="Wol\x00ves")
    assert "Wolves forfeited" in forfeit.content, forfeit.content
    fixed = await harness.slash("/result fix", as_=league.commissioner(), game="G\x001", home=4,
                                reason="typo\x00 on the sheet")
    assert fixed.content.startswith("Corrected game G1: Hawks 4-1 Owls"), fixed.content
    penalty = await harness.slash("/penalty", as_=referee, game="G\x001", player=league.player("Bea Quinn"),
                                  infraction="trip\x00ping")
    watch.check(penalty, "/penalty")
    adjusted = await harness.slash("/standings adjust", as_=league.commissioner(), team="Bea\x00rs", points=1,
                                   reason="fair\x00 play")
    watch.check(adjusted, "/standings adjust")
    assert "Bears" in adjusted.text, adjusted.text
    table = await harness.slash("/standings show", as_=league.player("Alice Hart"))
    watch.check(table, "/standings show")
