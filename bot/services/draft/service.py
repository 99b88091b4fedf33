"""/draft setup, lottery, start, pick, undo and board (youth 1.7), and the pick clock.

Choices the rulebook leaves open, decided here:
- The lottery is drawn once per draft and recorded with its seed, so anyone can recompute it
  (bot/league/draft/order.py); it can't be redrawn.
- A pick whose clock runs out (with the preset's auto-skip) is skipped: the team loses it and the next team
  is on the clock. Undo takes back the latest pick, made or skipped, and gives that team a fresh clock.
- When fewer players are left than picks, the draft ends once the last one is picked.
- A picked registrant joins the team's roster: the player themself, or, registered by a guardian, a player
  without a Discord account whom the guardian manages: the one they already manage by that name, if any
  (bot/services/shared/guardians.py), so a junior who played before is not made twice.

Restart safety: the clock is an outbox action due when the pick runs out; it carries the draft's version,
so a clock for a pick already made does nothing. Pick numbers and picked registrations are unique per draft.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clean_text
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.checkins.lineup import check_roster_limit
from bot.league.draft.order import deadline, lottery, progress
from bot.league.draft.presets import DraftRules
from bot.services import outbox
from bot.services.discord_sync import team_roles
from bot.services.draft.board import (
    BOARD_KIND,
    CLOCK_KIND,
    Board,
    announce,
    available,
    draft_prefix,
    load_board,
    slots_of,
)
from bot.services.outbox import ActionOutcome, ActionRow
from bot.services.people import is_captain_of, membership
from bot.services.shared.guardians import managed_player_for
from bot.services.shared.seasons import running_season
from bot.services.staff.nominations import reference_day, team_blockers
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import (
    Division,
    Draft,
    DraftPick,
    Player,
    Registration,
    RegistrationWindow,
    RosterEntry,
    Team,
)
from storage.text import printable


@dataclass(frozen=True)
class Picked:
    board: Board
    team: str
    player: str


def _cite(rules: DraftRules) -> str:
    return f" ({rules.draft_citations.order})" if rules.draft_citations.order else ""


@retried_on_disconnect
class DraftService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    # --- commissioners ---------------------------------------------------------------------------
    async def setup(self, caller: Caller, division: str, rounds: int | None, pick_seconds: int | None) -> Board:
        """Set a division's draft up for the running season (or change its rounds and clock before it starts)."""
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.draft
        if rounds is not None and not 1 <= rounds <= 50:
            raise InvalidInput("A draft has 1 to 50 rounds.")
        if pick_seconds is not None and not 10 <= pick_seconds <= 86_400:
            raise InvalidInput("A pick's clock is 10 seconds to 1 day (86400 seconds).")
        async with self.sessions.begin() as session:
            season = await running_season(session, caller.league_id)
            if season is None:
                raise NotFound("There's no season under way: start one with /season start first.")
            found = await lookups.division_by_name(session, caller.league_id, division)
            if found is None:
                raise NotFound(f"There's no division called “{printable(division)[:100]}” in {caller.league.name}.")
            teams = await _division_teams(session, caller.league_id, found)
            if len(teams) < 2:
                raise Conflict(f"{found.name} has {len(teams)} team(s): a draft needs two at least.")
            draft = await session.scalar(select(Draft).where(
                Draft.league_id == caller.league_id, Draft.season_id == season.id, Draft.division == found.name))
            if draft is not None and draft.status in ("running", "done"):
                raise Conflict(f"The {found.name} draft has {'started' if draft.status == 'running' else 'ended'}: "
                               "it can't be set up again.")
            if draft is None:
                draft = Draft(league_id=caller.league_id, season_id=season.id, division=found.name,
                              rounds=rounds or rules.draft_rounds,
                              pick_seconds=pick_seconds or rules.draft_pick_seconds,
                              status="setup", created_by=caller.discord_id, created_at=self.clock.now())
                session.add(draft)
            else:
                draft.rounds = rounds or draft.rounds
                draft.pick_seconds = pick_seconds or draft.pick_seconds
            await session.flush()
            return await load_board(session, draft, rules)

    async def lottery(self, caller: Caller, division: str | None) -> Board:
        """Draw the draft order, once, with a recorded seed (youth 1.7 "a lottery ... to determine draft order")."""
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.draft
        async with self.sessions.begin() as session:
            draft = await self._draft(session, caller, division)
            if draft.status != "setup":
                raise Conflict(f"The {draft.division} lottery was drawn already (seed `{draft.seed}`): it stands.")
            found = await lookups.division_by_name(session, caller.league_id, draft.division)
            teams = await _division_teams(session, caller.league_id, found) if found else []
            if len(teams) < 2:
                raise Conflict(f"{draft.division} has {len(teams)} team(s): a draft needs two at least.")
            seed = secrets.token_hex(8)
            by_name = {t.name: t.id for t in teams}
            draft.seed, draft.status, draft.drawn_at = seed, "drawn", self.clock.now()
            draft.lottery = ",".join(str(by_name[name]) for name in lottery(seed, list(by_name)))
            draft.version += 1
            return await load_board(session, draft, rules)

    async def start(self, caller: Caller, division: str | None, channel_id: int | None) -> Board:
        """Start the draft: every team needs its confirmed coach or captain first (youth 1.3)."""
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.draft
        now = self.clock.now()
        async with self.sessions.begin() as session:
            draft = await self._draft(session, caller, division)
            if draft.status == "setup":
                raise Conflict(f"Draw the {draft.division} lottery first, with /draft lottery.")
            if draft.status != "drawn":
                raise Conflict(f"The {draft.division} draft has {'started' if draft.status == 'running' else 'ended'}.")
            names = await _team_names(session, caller.league_id, draft)
            reference = await reference_day(session, caller, now)
            blockers = [b for b in await team_blockers(session, caller.league_id, caller.league.rules, reference)
                        if b.team in names]
            if blockers:
                raise Conflict("The draft waits for every coach and captain to be confirmed (youth 1.3): "
                               + " ".join(b.reason for b in blockers) + " See /team nominations.")
            draft.channel_id = caller.league.channels.draft or channel_id
            draft.status = "running"
            draft.board_key = f"{draft_prefix(draft.id)}board"
            if draft.channel_id is not None:  # first the board, then the ping of the first team on the clock
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                     key=draft.board_key, due_at=now, kind=BOARD_KIND, channel_id=draft.channel_id,
                                     args={"draft_id": draft.id})
            await self._advance(session, caller.league.guild_id, draft, rules, now)
            return await load_board(session, draft, rules)

    async def undo(self, caller: Caller, division: str | None) -> Board:
        """Take back the latest pick (made or skipped): the player leaves the roster, the team is on the clock."""
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.draft
        now = self.clock.now()
        async with self.sessions.begin() as session:
            draft = await self._draft(session, caller, division)
            last = await session.scalar(select(DraftPick).where(
                DraftPick.draft_id == draft.id, DraftPick.league_id == caller.league_id)
                .order_by(DraftPick.number.desc()).limit(1))
            if draft.status not in ("running", "done") or last is None:
                raise Conflict(f"The {draft.division} draft has no pick to undo.")
            if last.player_id is not None:
                await session.execute(delete(RosterEntry).where(
                    RosterEntry.league_id == caller.league_id, RosterEntry.player_id == last.player_id,
                    RosterEntry.team_id == last.team_id))
            await session.delete(last)
            await session.flush()
            draft.status, draft.ended_at = "running", None
            await self._advance(session, caller.league.guild_id, draft, rules, now)
            return await load_board(session, draft, rules)

    # --- the team on the clock -------------------------------------------------------------------
    async def pick(self, caller: Caller, registration: str) -> Picked:
        """The team on the clock picks a registrant: by its captain (coach) or a commissioner."""
        try:
            return await self._pick(caller, registration)
        except IntegrityError:
            raise Conflict("Another pick was made at the same moment: see /draft board and try again.") from None

    async def _pick(self, caller: Caller, registration: str) -> Picked:
        now = self.clock.now()
        rules = caller.league.rules.draft
        async with self.sessions.begin() as session:
            row, window = await _registration(session, caller, registration)
            draft = await session.scalar(select(Draft).where(
                Draft.league_id == caller.league_id, Draft.season_id == window.season_id,
                func.lower(Draft.division) == window.division.lower()))
            if draft is None or draft.status != "running":
                raise Conflict(f"The {window.division} draft isn't running.")
            left = await available(session, draft, rules)
            made = int(await session.scalar(select(func.count(DraftPick.id)).where(
                DraftPick.draft_id == draft.id, DraftPick.league_id == caller.league_id)) or 0)
            slot = progress(slots_of(draft, rules), made, len(left)).on_the_clock
            if slot is None:
                raise Conflict(f"The {draft.division} draft is over.")
            team = await lookups.team_by_id(session, caller.league_id, slot.team)
            assert team is not None
            member = await membership(session, caller)
            if not (caller.is_commissioner or is_captain_of(caller, member, team.id)):
                raise NotAllowed(f"{team.name} is on the clock: only its captain (coach) or a commissioner can "
                                 f"pick now{_cite(rules)}.")
            if row.id not in {r.id for r in left}:
                raise Conflict(_why_not(row, rules))
            player = await self._roster(session, caller, row, team, now)
            session.add(DraftPick(league_id=caller.league_id, draft_id=draft.id, number=slot.number, round=slot.round,
                                  team_id=team.id, registration_id=row.id, player_id=player.id,
                                  made_by=caller.discord_id, made_at=now))
            await session.flush()
            await self._advance(session, caller.league.guild_id, draft, rules, now)
            return Picked(await load_board(session, draft, rules), team.name, player.name)

    async def board(self, caller: Caller, division: str | None) -> Board:
        async with self.sessions() as session:
            draft = await self._draft(session, caller, division)
            return await load_board(session, draft, caller.league.rules.draft)

    async def suggestions(self, caller: Caller, typed: str) -> list[tuple[str, str]]:
        """The players still to pick in the running drafts, matching what was typed: (label, registration id)."""
        text = clean_text(typed).casefold()
        rules = caller.league.rules.draft
        async with self.sessions() as session:
            season = await running_season(session, caller.league_id)
            if season is None:
                return []
            drafts = (await session.scalars(select(Draft).where(
                Draft.league_id == caller.league_id, Draft.season_id == season.id, Draft.status == "running"))).all()
            found: list[tuple[str, str]] = []
            for draft in drafts:
                for r in await available(session, draft, rules):
                    if text in r.name.casefold() or text == str(r.id):
                        extra = f" · {r.positions}" if r.positions else ""
                        found.append((f"#{r.id} {r.name} · {draft.division}{extra}"[:100], str(r.id)))
            return found[:25]

    # --- the clock ------------------------------------------------------------------------------
    async def clock_ran_out(self, api: object, row: ActionRow) -> ActionOutcome:
        """The outbox action due when a pick's time is up: with auto-skip, the pick is skipped."""
        league = self.settings.league_for_guild(row.guild_id)
        if league is None:
            return ActionOutcome("skipped", "the server has no league in the configuration")
        rules = league.rules.draft
        now = self.clock.now()
        try:
            async with self.sessions.begin() as session:
                draft = await session.scalar(select(Draft).where(Draft.id == int(row.args.get("draft_id", 0)),
                                                                 Draft.league_id == row.league_id))
                if draft is None or draft.status != "running" or draft.version != int(row.args.get("version", -1)):
                    return ActionOutcome("skipped", "that pick was made (or undone) since")
                if not rules.draft_auto_skip:
                    return ActionOutcome("skipped", "the league's clock only shows")
                made = int(await session.scalar(select(func.count(DraftPick.id)).where(
                    DraftPick.draft_id == draft.id)) or 0)
                slot = progress(slots_of(draft, rules), made, len(await available(session, draft, rules))).on_the_clock
                if slot is None:
                    return ActionOutcome("skipped", "the draft is over")
                session.add(DraftPick(league_id=draft.league_id, draft_id=draft.id, number=slot.number,
                                      round=slot.round, team_id=slot.team, made_by=None, made_at=now))
                await session.flush()
                await self._advance(session, row.guild_id, draft, rules, now)
        except IntegrityError:
            return ActionOutcome("skipped", "a pick was made at the same moment")
        return ActionOutcome("sent", f"pick {slot.number} skipped")

    # --- inside ----------------------------------------------------------------------------------
    async def _advance(self, session: AsyncSession, guild_id: int, draft: Draft, rules: DraftRules,
                       now: datetime) -> None:
        """After any change: a new version, the next team's clock (or the end), the board's edit and the ping."""
        draft.version += 1
        made = int(await session.scalar(select(func.count(DraftPick.id)).where(DraftPick.draft_id == draft.id)) or 0)
        step = progress(slots_of(draft, rules), made, len(await available(session, draft, rules)))
        await outbox.cancel_pending(session, draft.league_id, f"{draft_prefix(draft.id)}clock:")
        if step.over:
            draft.status, draft.clock_due_at, draft.ended_at = "done", None, now
        else:
            draft.clock_due_at = deadline(now, draft.pick_seconds)
            if rules.draft_auto_skip:
                await outbox.enqueue(session, league_id=draft.league_id, guild_id=guild_id,
                                     key=f"{draft_prefix(draft.id)}clock:{draft.version}", due_at=draft.clock_due_at,
                                     kind=CLOCK_KIND, action=True,
                                     args={"draft_id": draft.id, "version": draft.version})
        await session.flush()
        await announce(session, draft, guild_id, await load_board(session, draft, rules), now)

    async def _draft(self, session: AsyncSession, caller: Caller, division: str | None) -> Draft:
        season = await running_season(session, caller.league_id)
        if season is None:
            raise NotFound("There's no season under way, so no draft.")
        query = select(Draft).where(Draft.league_id == caller.league_id, Draft.season_id == season.id)
        if division and division.strip():
            draft = await session.scalar(query.where(func.lower(Draft.division) == division.strip().lower()))
            if draft is None:
                raise NotFound(f"There's no {printable(division)[:100]} draft this season: a commissioner sets it up "
                               "with /draft setup.")
            return draft
        drafts = list((await session.scalars(query.order_by(Draft.id))).all())
        live = [d for d in drafts if d.status != "done"] or drafts
        if not live:
            raise NotFound("There's no draft this season: a commissioner sets one up with /draft setup.")
        if len(live) > 1:
            raise InvalidInput("Name the division: " + ", ".join(d.division for d in live) + " each have a draft.")
        return live[0]

    async def _roster(self, session: AsyncSession, caller: Caller, row: Registration, team: Team,
                      now: datetime) -> Player:
        """The registrant as a player on the team's roster (a guardian's: a player they manage, no account)."""
        size = await lookups.roster_size(session, caller.league_id, team.id)
        breach = check_roster_limit(caller.league.rules.lineup, size + 1)
        if breach is not None:
            raise Conflict(f"{team.name} already has {size} players: {breach.message}")
        if row.guardian:
            player, on = await managed_player_for(session, caller.league_id, guardian_id=row.discord_id,
                                                  name=row.name, added_by=caller.discord_id)
            if on is not None:
                other = await lookups.team_by_id(session, caller.league_id, on)
                raise Conflict(f"#{row.id} {player.name} already plays for {other.name if other else 'another team'} "
                               "(their guardian's player by that name), so they can't be picked. Nothing changed. "
                               "That team's captain or a commissioner can take them off its roster with "
                               "/roster remove first.")
        else:
            found = await lookups.player_by_discord(session, caller.league_id, row.discord_id)
            if found is None:
                found = Player(league_id=caller.league_id, discord_id=row.discord_id, name=clean_text(row.name)[:100])
                session.add(found)
                await session.flush()
            player = found
            await team_roles.follow(session, caller.league, caller.league_id, team.id, row.discord_id, now)
        session.add(RosterEntry(league_id=caller.league_id, team_id=team.id, player_id=player.id, position="skater",
                                added_at=now))
        return player


def _why_not(row: Registration, rules: DraftRules) -> str:
    if row.status != "registered":
        return f"#{row.id} {row.name} can't be picked: their registration is {row.status}."
    paid = f" ({rules.draft_citations.paid})" if rules.draft_citations.paid else ""
    return (f"#{row.id} {row.name} can't be picked: already picked, on a team, or their fee isn't settled{paid}. "
            "Pick from the list.")


async def _registration(session: AsyncSession, caller: Caller, text: str) -> tuple[Registration, RegistrationWindow]:
    raw = (text or "").strip().lstrip("#").split(" ")[0]
    found = None
    if raw.isdecimal() and len(raw) <= 12:
        found = (await session.execute(
            select(Registration, RegistrationWindow).join(RegistrationWindow,
                                                          RegistrationWindow.id == Registration.window_id)
            .where(Registration.id == int(raw), Registration.league_id == caller.league_id))).first()
    if found is None:
        raise NotFound("There's no such registrant in this league: pick a player from the list.")
    return found[0], found[1]


async def _division_teams(session: AsyncSession, league_id: int, division: Division | None) -> list[Team]:
    if division is None:
        return []
    return list((await session.scalars(select(Team).where(
        Team.league_id == league_id, Team.division_id == division.id).order_by(Team.name))).all())


async def _team_names(session: AsyncSession, league_id: int, draft: Draft) -> set[str]:
    division = await lookups.division_by_name(session, league_id, draft.division)
    return {t.name for t in await _division_teams(session, league_id, division)}

