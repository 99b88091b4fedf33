"""The draft board: one message in the draft channel, posted through the outbox and edited after each pick,
and the draft's state as the board shows it (read from the database, so a restart shows the same board).

Outbox rows: the board's post (``BOARD_KIND``, rendered from the database when it is sent; the sent hook keeps
its message id), its edits (``EDIT_KIND`` actions, one per change of the draft), the ping of the team on the
clock (plain text mentioning its captains only), and the clock (``CLOCK_KIND`` actions, due when a pick runs
out; bot/services/draft/service.py)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clip, timestamp
from bot.league.draft.order import Slot, pick_order, progress
from bot.league.draft.presets import DraftRules
from bot.league.registration.forms import owes
from bot.services import outbox
from bot.services.discord_sync.api import Gone, Refused
from bot.services.outbox import ActionOutcome, ActionRow, Outgoing, Rendered
from bot.services.shared.guardians import managed_key, managed_on_teams
from storage.db import retried_on_disconnect
from storage.models import (
    Draft,
    DraftPick,
    OutboxMessage,
    Player,
    Registration,
    RegistrationWindow,
    RosterEntry,
    Season,
    Team,
    TeamCaptain,
)

log = logging.getLogger("sideline.draft")

BOARD_KIND = "draft_board"
EDIT_KIND = "draft_board_edit"
CLOCK_KIND = "draft_clock"
CONTENT_LIMIT = 2000


def draft_prefix(draft_id: int) -> str:
    return f"draft:{draft_id}:"


@dataclass(frozen=True)
class BoardPick:
    number: int
    round: int
    team: str
    player: str | None  # None: skipped when the clock ran out


@dataclass(frozen=True)
class Board:
    draft_id: int
    division: str
    season: str
    status: str  # setup | drawn | running | done
    rounds: int
    order: tuple[str, ...]  # the lottery's order (empty until drawn)
    seed: str
    picks: tuple[BoardPick, ...]
    on_the_clock: str | None  # the team to pick now
    on_the_clock_id: int | None
    pick_number: int | None
    pick_round: int | None
    due_at: datetime | None
    over: str  # why the draft ended ("" while it runs)
    available: int  # players still to pick
    auto_skip: bool
    snake: bool


def lottery_ids(draft: Draft) -> list[int]:
    return [int(x) for x in draft.lottery.split(",") if x]


def slots_of(draft: Draft, rules: DraftRules) -> list[Slot[int]]:
    return pick_order(lottery_ids(draft), draft.rounds, rules.draft_order)


async def available(session: AsyncSession, draft: Draft, rules: DraftRules) -> list[Registration]:
    """The registrants who can still be picked: registered (not waiting, offered, rejected or replaced) in the
    draft's division and season, paid when the preset asks it (youth 1.15), not picked yet nor on a team (a
    guardian's registration: their player by that name)."""
    picked = select(DraftPick.registration_id).where(DraftPick.draft_id == draft.id,
                                                     DraftPick.registration_id.is_not(None))
    rows = (await session.scalars(
        select(Registration).join(RegistrationWindow, RegistrationWindow.id == Registration.window_id)
        .where(Registration.league_id == draft.league_id, RegistrationWindow.league_id == draft.league_id,
               RegistrationWindow.season_id == draft.season_id, Registration.status == "registered",
               Registration.id.not_in(picked))
        .order_by(Registration.name, Registration.id))).all()
    on_teams = set((await session.scalars(
        select(Player.discord_id).join(RosterEntry, RosterEntry.player_id == Player.id)
        .where(Player.league_id == draft.league_id, Player.discord_id.is_not(None)))).all())
    managed_taken = await managed_on_teams(session, draft.league_id)
    division = draft.division.casefold()
    windows = {w.id: w.division.casefold() for w in (await session.scalars(select(RegistrationWindow).where(
        RegistrationWindow.league_id == draft.league_id, RegistrationWindow.season_id == draft.season_id))).all()}
    return [r for r in rows if windows.get(r.window_id) == division
            and not (rules.draft_paid_only and owes(r.fee_cents, r.payment_state, r.paid_cents))
            and (managed_key(r.discord_id, r.name) not in managed_taken if r.guardian
                 else r.discord_id not in on_teams)]


async def load_board(session: AsyncSession, draft: Draft, rules: DraftRules) -> Board:
    teams = {t.id: t.name for t in (await session.scalars(
        select(Team).where(Team.league_id == draft.league_id))).all()}
    season = await session.scalar(select(Season.name).where(Season.id == draft.season_id,
                                                            Season.league_id == draft.league_id))
    made = (await session.execute(
        select(DraftPick, Player.name).outerjoin(Player, Player.id == DraftPick.player_id)
        .where(DraftPick.draft_id == draft.id, DraftPick.league_id == draft.league_id)
        .order_by(DraftPick.number))).all()
    picks = tuple(BoardPick(p.number, p.round, teams.get(p.team_id, "?"),
                            (name or "?") if p.registration_id is not None or p.player_id is not None else None)
                  for p, name in made)
    left = len(await available(session, draft, rules))
    slots = slots_of(draft, rules)
    now_on = progress(slots, len(picks), left) if draft.status == "running" else None
    slot = now_on.on_the_clock if now_on else None
    over = ""
    if draft.status == "done":
        over = "all picks made" if len(picks) >= len(slots) else "no players left"
    return Board(draft.id, draft.division, season or "", draft.status, draft.rounds,
                 tuple(teams.get(t, "?") for t in lottery_ids(draft)), draft.seed, picks,
                 teams.get(slot.team) if slot else None, slot.team if slot else None,
                 slot.number if slot else None, slot.round if slot else None,
                 draft.clock_due_at if slot else None, over, left, rules.draft_auto_skip,
                 rules.draft_order == "snake")


def board_text(board: Board) -> str:
    """The board as posted: the order, each round's picks, who is on the clock. It names no member (no ping)."""
    head = f"📋 **Draft · {board.division}**" + (f" · {board.season}" if board.season else "")
    lines = [head]
    if board.order:
        kind = "snake: even rounds reversed" if board.snake else "the same order every round"
        lines.append(f"Lottery order ({kind}): " + ", ".join(f"{i}. {t}" for i, t in enumerate(board.order, 1)))
    by_round: dict[int, list[str]] = {}
    for p in board.picks:
        by_round.setdefault(p.round, []).append(f"{p.number}. {p.team}: {p.player or '(skipped)'}")
    for rnd in sorted(by_round):
        lines.append(f"**Round {rnd}** · " + " · ".join(by_round[rnd]))
    if board.status == "running" and board.on_the_clock:
        until = f" until {timestamp(board.due_at)}" if board.due_at else ""
        then = " (then the pick is skipped)" if board.auto_skip and board.due_at else ""
        lines.append(f"⏰ On the clock: **{board.on_the_clock}**, pick {board.pick_number} (round "
                     f"{board.pick_round}){until}{then}. Players left: {board.available}.")
    elif board.status == "done":
        made = sum(1 for p in board.picks if p.player)
        why = "every pick is made" if board.over == "all picks made" else "no players are left to pick"
        lines.append(f"✅ The draft is over: {why} ({made} players drafted).")
    elif board.status == "drawn":
        lines.append("The lottery is drawn; the draft hasn't started.")
    text = "\n".join(lines)
    while len(text) > CONTENT_LIMIT and len(lines) > 3:  # the earliest rounds go first; the clock stays
        lines.pop(2)
        text = "\n".join([*lines[:2], "…", *lines[2:]])
    return clip(text, CONTENT_LIMIT)


async def captains(session: AsyncSession, league_id: int, team_id: int) -> list[int]:
    return list((await session.scalars(select(TeamCaptain.discord_id).where(
        TeamCaptain.league_id == league_id, TeamCaptain.team_id == team_id).order_by(TeamCaptain.discord_id))).all())


async def announce(session: AsyncSession, draft: Draft, guild_id: int, board: Board, now: datetime) -> None:
    """After a change of the draft: the board's edit, and the ping of the team now on the clock."""
    if draft.channel_id is None:
        return
    await outbox.enqueue(session, league_id=draft.league_id, guild_id=guild_id,
                         key=f"{draft_prefix(draft.id)}edit:{draft.version}", due_at=now, kind=EDIT_KIND,
                         action=True, args={"draft_id": draft.id})
    if board.on_the_clock_id is None:
        return
    ids = await captains(session, draft.league_id, board.on_the_clock_id)
    who = " ".join(f"<@{i}>" for i in ids) or "(no captain on file: a commissioner can pick for them)"
    until = f" Pick by {timestamp(board.due_at)}." if board.due_at else ""
    await outbox.enqueue(session, league_id=draft.league_id, guild_id=guild_id,
                         key=f"{draft_prefix(draft.id)}ping:{draft.version}", due_at=now, channel_id=draft.channel_id,
                         message=Outgoing(content=clip(
                             f"⏰ {who}: **{board.on_the_clock}** is on the clock in the {board.division} draft "
                             f"(pick {board.pick_number}, round {board.pick_round}).{until} Pick with /draft pick.",
                             CONTENT_LIMIT), ping_user_ids=tuple(ids)))


async def message_sent(session: AsyncSession, *, send_key: str, message_id: int) -> None:
    """The outbox's hook once the board is posted: kept, to be edited after each pick."""
    await session.execute(update(Draft).where(Draft.board_key == send_key[:200]).values(board_message_id=message_id))


@retried_on_disconnect
class DraftBoards:
    """The board's rendering when it is posted, and its edits."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    def _rules(self, guild_id: int) -> DraftRules | None:
        league = self.settings.league_for_guild(guild_id)
        return league.rules.draft if league is not None else None

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        rules = self._rules(row.guild_id)
        draft = await session.scalar(select(Draft).where(Draft.id == int(row.args.get("draft_id", 0)),
                                                         Draft.league_id == row.league_id))
        if draft is None or rules is None:
            return None
        return Outgoing(content=board_text(await load_board(session, draft, rules)))

    async def __call__(self, api: Any, row: ActionRow) -> ActionOutcome:
        rules = self._rules(row.guild_id)
        async with self.sessions() as session:
            draft = await session.scalar(select(Draft).where(Draft.id == int(row.args.get("draft_id", 0)),
                                                             Draft.league_id == row.league_id))
            if draft is None or rules is None or draft.channel_id is None:
                return ActionOutcome("skipped", "no draft board here any more")
            if draft.board_message_id is None:
                post = await outbox.by_key(session, draft.board_key)
                if post is not None and post.status in ("pending", "sending"):
                    return ActionOutcome("later", "the board isn't posted yet")
                return ActionOutcome("skipped", "the board was never posted")
            if await _newer_edit_waits(session, row, draft):
                return ActionOutcome("skipped", "a newer edit follows")
            content = board_text(await load_board(session, draft, rules))
            target = (draft.channel_id, draft.board_message_id)
        try:
            await api.edit_message(target[0], target[1], content)
        except (Gone, Refused) as exc:
            return ActionOutcome("failed", str(exc))
        return ActionOutcome("sent", "edited")


async def _newer_edit_waits(session: AsyncSession, row: ActionRow, draft: Draft) -> bool:
    """Edits read the board when they run: an older one whose newer one is queued has nothing to add."""
    keys: Sequence[str] = (await session.scalars(select(OutboxMessage.send_key).where(
        OutboxMessage.league_id == draft.league_id, OutboxMessage.status == "pending",
        OutboxMessage.send_key.startswith(f"{draft_prefix(draft.id)}edit:", autoescape=True)))).all()
    mine = int(row.send_key.rsplit(":", 1)[-1])
    return any(int(k.rsplit(":", 1)[-1]) > mine for k in keys)
