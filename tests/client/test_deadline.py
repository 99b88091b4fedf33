"""The deadline guard through the real command tree: an interaction whose answer is slow is still
acknowledged within Discord's 3 seconds, then gets the very answer a fast one gets; a fast one is
answered exactly as without a guard (one callback)."""

from __future__ import annotations

import ast
import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client.deadline import DEFER_AFTER, DeadlineGuard
from bot.clock import FixedClock
from bot.errors import NotAllowed
from cogs.checkins._buttons import custom_id_for
from tests.commands.checkins.test_checkin import press
from tests.commands.messages.test_relays import G1_SOON, delivered_relay, press_on
from tests.conftest import SampleLeague
from tests.harness import Call, Harness, Reply
from tests.harness.fake_discord import next_id, settle

DEFERRED_MESSAGE, DEFERRED_UPDATE, MESSAGE, UPDATE, FORM = 5, 6, 4, 7, 9
ALICE_IN = "You're **in** ✅ for Hawks vs Owls, <t:1894406400:F> (`G1`)."


@pytest.fixture
def guard(harness: Harness) -> DeadlineGuard:
    """The guard as in production; a test shrinks its delay not to wait for it."""
    return harness.keep_deadline()


def slowed(monkeypatch: pytest.MonkeyPatch, service: object, method: str, seconds: float,
           gate: asyncio.Event | None = None) -> None:
    """Make a service's method take ``seconds`` (or wait for ``gate``) before doing its real work."""
    real: Callable[..., Awaitable[Any]] = getattr(service, method)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        if gate is not None:
            await gate.wait()
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(service, method, slow)


def shown(call: Call) -> dict[str, Any]:
    """What a user reads of an answer, however it was sent (a response, or the edit of a deferred one)."""
    p = call.payload
    return {"content": p.get("content") or "", "embeds": p.get("embeds") or [],
            "components": p.get("components") or [], "allowed_mentions": p.get("allowed_mentions")}


def callbacks(reply: Reply) -> list[Call]:
    return [c for c in reply.responses if c.path.endswith("/callback")]


def created(call: Call) -> float:
    """When Discord created the interaction a callback answers (from the id in its path)."""
    return discord.utils.snowflake_time(int(call.path.split("/")[2])).timestamp()


def answered_fast(reply: Reply) -> Call:
    """A fast answer: one callback with the message, nothing after it."""
    assert [c.body["type"] for c in reply.responses] == [MESSAGE], reply.responses
    return reply.first


def answered_after_deferral(reply: Reply, kind: int = DEFERRED_MESSAGE) -> tuple[Call, Call]:
    """A slow answer: a deferral, then the edit of the original response; nothing else."""
    deferral, *rest = reply.responses
    assert deferral.body["type"] == kind, reply.responses
    assert [(c.method, c.path.rsplit("/", 1)[-1]) for c in rest] == [("PATCH", "@original")], rest
    return deferral, rest[0]


# --- the acceptance: 5 s of work, acknowledged within 3 s ---------------------------------------------
async def test_a_command_whose_service_takes_5_s_is_acknowledged_within_3_s_then_answered(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    assert guard.defer_after == DEFER_AFTER  # the bot's own delay: nothing shrunk
    fast = answered_fast(await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G1"))
    assert fast.content == ALICE_IN and fast.ephemeral
    slowed(monkeypatch, harness.bot.services.checkins, "check_in", 5.0)
    reply = await harness.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    deferral, answer = answered_after_deferral(reply)
    assert 1.5 <= deferral.at - created(deferral) < 3.0  # ~2 s after Discord created it: before the deadline
    assert deferral.ephemeral  # "thinking…" only Bea sees
    assert answer.at - created(deferral) >= 5.0
    assert shown(answer) == shown(fast)  # the same words, mentions and (no) buttons as the fast answer


# --- commands, buttons, selects, forms (the guard's delay shrunk) -------------------------------------
async def test_a_slow_button_press_is_deferred_privately_and_answered_as_a_fast_one(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    button = custom_id_for("G1", "in", harness.bot.league_ids[harness.default_guild or 0])
    fast = answered_fast(await press(harness, button, as_=league.player("Alice Hart")))
    guard.defer_after = 0.2  # shrunk after the fast answer, which a loaded machine can keep 0.2 s
    slowed(monkeypatch, harness.bot.services.checkins, "check_in", 0.6)
    deferral, answer = answered_after_deferral(await press(harness, button, as_=league.player("Bea Quinn")))
    assert deferral.ephemeral and fast.ephemeral
    assert 0.2 <= deferral.at - created(deferral) < 0.6
    assert shown(answer) == shown(fast) and fast.content == ALICE_IN


async def test_a_select_whose_answer_edits_its_message_is_deferred_as_an_update(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    menu = f"sideline:gender@{harness.bot.league_ids[harness.default_guild or 0]}"
    fast = await harness.choose(menu, ["woman"], as_=league.player("Alice Hart"))
    assert [c.body["type"] for c in fast.responses] == [UPDATE]
    guard.defer_after = 0.2
    slowed(monkeypatch, harness.bot.services.profile, "set_gender", 0.5)
    slow = await harness.choose(menu, ["woman"], as_=league.player("Bea Quinn"))
    _, answer = answered_after_deferral(slow, DEFERRED_UPDATE)  # no "thinking…": the menu's message is edited
    assert shown(answer) == shown(fast.first)
    assert answer.content == "Thanks: saved as woman, privately." and shown(answer)["components"] == []


@pytest.fixture
def game_day(clock: FixedClock) -> FixedClock:
    clock.set(G1_SOON)
    return clock


async def test_a_slow_form_submission_is_deferred_and_answered(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, game_day: FixedClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    guard.defer_after = 0.0  # even at once, a button that opens a form is not deferred: Discord takes no form then
    posted = await delivered_relay(harness, league)
    opened = await press_on(harness, posted, "sideline:relay:reply:1", as_=league.referee())
    assert [c.body["type"] for c in opened.responses] == [FORM]
    guard.defer_after = 0.2
    slowed(monkeypatch, harness.bot.services.relays, "answer", 0.5)
    done = await harness.submit_modal("sideline:relay:answer:1", {"answer": "Thanks, we'll check."},
                                      as_=league.referee())
    deferral, answer = answered_after_deferral(done)
    assert deferral.ephemeral
    assert answer.content == "Reply sent to Hawks Captain (relay #1)."  # as tests/commands/messages says it, fast


async def test_a_public_answer_is_deferred_publicly_and_a_refusal_after_it_stays_private(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    player = league.player("Alice Hart")
    fast = answered_fast(await harness.slash("/standings show", as_=player, public=True))
    assert not fast.ephemeral and fast.embeds
    guard.defer_after = 0.2  # shrunk only now: on a loaded machine the fast answer itself can take 0.2 s
    slowed(monkeypatch, harness.bot.services.standings, "table", 0.5)
    deferral, answer = answered_after_deferral(await harness.slash("/standings show", as_=player, public=True))
    assert not deferral.ephemeral  # the channel sees "thinking…", then the table
    assert shown(answer) == shown(fast)

    async def refused(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.5)
        raise NotAllowed("No table for you.")

    monkeypatch.setattr(harness.bot.services.standings, "table", refused)
    reply = await harness.slash("/standings show", as_=player, public=True)
    assert [(c.method, c.body["type"] if c.method == "POST" and c.path.endswith("/callback") else None)
            for c in reply.calls] == [("POST", DEFERRED_MESSAGE), ("DELETE", None), ("POST", None)]
    assert reply.last.ephemeral and reply.last.content == "No table for you."  # the public "thinking…" is gone


async def test_time_spent_waiting_before_the_command_ran_counts(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interaction Discord created 1.9 s ago is deferred 0.1 s after it starts, not 2 s."""
    slowed(monkeypatch, harness.bot.services.checkins, "check_in", 0.6)
    guild = harness.default_guild
    payload = harness._base(2, league.player("Bea Quinn"), guild, None,
                            harness._command_data("/checkin", {"status": "in", "game": "G1"}, guild))
    then = datetime.now(UTC) - timedelta(seconds=1.9)
    payload["id"] = str(discord.utils.time_snowflake(then) + next_id() % (1 << 22))
    deferral, answer = answered_after_deferral(await harness._feed(payload))
    assert 1.9 <= deferral.at - created(deferral) < 2.5
    assert answer.content == ALICE_IN


# --- many in flight -----------------------------------------------------------------------------------
async def feed_together(h: Harness, payloads: Iterable[dict[str, Any]]) -> dict[str, list[Call]]:
    """Interactions arriving together, then every call the bot made for each (by its token)."""
    payloads = list(payloads)
    start, baseline = len(h.discord.calls), set(asyncio.all_tasks())
    for payload in payloads:
        h.bot._connection.parsers["INTERACTION_CREATE"](payload)
    await settle(baseline)
    calls: dict[str, list[Call]] = {p["token"]: [] for p in payloads}
    for call in h.discord.calls[start:]:
        calls[call.path.split("/")[3]].append(call)
    return calls


async def test_while_many_are_in_flight_writers_are_deferred_at_once_and_readers_are_not(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard, monkeypatch: pytest.MonkeyPatch) -> None:
    guard.busy_at, guard.defer_after = 5, 30.0  # no deadline comes within this test: only the load defers
    gate = asyncio.Event()
    slowed(monkeypatch, harness.bot.services.checkins, "check_in", 0.0, gate)
    guild = harness.default_guild
    players = [league.player(n) for n, row in league.players.items() if row["team"] in ("Hawks", "Owls")
               and row["gender"]]  # each asked nothing more than the check-in itself
    checkins = [harness._base(2, p, guild, None, harness._command_data("/checkin", {"status": "in", "game": "G1"},
                                                                           guild)) for p in players]
    readers = [harness._base(2, p, guild, None, harness._command_data("/whoisin", {"game": "G1"}, guild))
               for p in players[:3]]

    async def open_gate() -> float:
        await asyncio.sleep(0.3)
        gate.set()
        return time.time()

    opener = asyncio.create_task(open_gate())
    calls = await feed_together(harness, [*checkins, *readers])
    opened_at = await opener
    assert len(players) == 15 and guard.in_flight == 0
    deferred_at_once = []
    for payload in checkins:
        answers = calls[payload["token"]]
        kinds = [c.body["type"] for c in answers if c.path.endswith("/callback")]
        assert answers[-1].content.startswith("You're **in** ✅ for Hawks vs Owls") and answers[0].ephemeral, answers
        if kinds == [DEFERRED_MESSAGE]:
            assert answers[0].at < opened_at  # before its work could even start (the gate held it)
            deferred_at_once.append(payload)
        else:
            assert kinds == [MESSAGE], answers
    assert len(deferred_at_once) == len(checkins) - guard.busy_at  # all but those that came while it wasn't busy
    for payload in readers:  # read-only: never deferred for load, answered as usual
        (only,) = calls[payload["token"]]
        assert only.body["type"] == MESSAGE and only.embeds


async def test_a_fast_command_is_answered_with_one_callback_and_nothing_later(
        harness: Harness, league: SampleLeague, guard: DeadlineGuard) -> None:
    guard.defer_after = 1.0  # room for a loaded machine to answer first
    reply = await harness.slash("/whoisin", as_=league.player("Alice Hart"), game="G1")
    assert answered_fast(reply).ephemeral and reply.first.embeds
    sent = len(harness.discord.calls)
    await asyncio.sleep(1.1)  # past its deadline: no timer was left behind to defer it after its answer
    assert len(harness.discord.calls) == sent and guard.in_flight == 0


# --- one path for every answer ------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
#: What only the tree's reply helpers call: an answer sent around them would race the guard's deferral.
AROUND_THE_GUARD = {("response", "send_message"), ("response", "edit_message"), ("response", "defer"),
                    ("followup", "send")}


def test_every_answer_in_the_cogs_goes_through_the_trees_reply_helpers() -> None:
    found = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and \
                    (node.value.attr, node.attr) in AROUND_THE_GUARD:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.value.attr}.{node.attr}")
    assert found == [], "answer with reply / update / defer from bot/client/tree.py:\n" + "\n".join(found)
