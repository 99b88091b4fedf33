"""/registration open|close|exception|list|export and /register: a season's registration by division.

Choices the spec leaves open, decided here:
- A window is one division of the running season (the season's first day is what ages count from, youth
  1.2); a commissioner opens it with its fee, the league's payment page and the draft day, and closes it.
- Whoever sends the form is who hears about it: the player, or the guardian registering a minor. A
  registrant under ``guardian_under_age`` on the day must have a guardian named on the form.
- A registrant outside the division's age band is refused unless a commissioner recorded an exception for
  the member sending the form in that division (youth 1.2: skill assessment, parental approval); the
  registration keeps the exception's reason and who recorded it.
- The date of birth is shown only in commissioners' private replies (the list and the CSV export).
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.registration.forms import (
    EXCEPTION_REASONS,
    FormProblem,
    check_age,
    has_room,
    needs_guardian,
    parse_amount,
    parse_birth_date,
    payment_due,
)
from bot.league.seasons import season_start
from bot.services.registration.shared import ENDED, Line, holding_count, line_of
from bot.services.registration.waiting import WaitingListService
from bot.services.shared.seasons import running_season
from storage.csv_export import write_csv
from storage.db import retried_on_disconnect
from storage.models import Division, Registration, RegistrationException, RegistrationWindow, Season
from storage.text import printable

log = logging.getLogger("sideline.registration")


@dataclass(frozen=True)
class Window:
    id: int
    season: str
    division: str
    fee_cents: int
    payment_link: str
    draft_date: date | None
    open: bool
    registered: int = 0
    waiting: int = 0


@dataclass(frozen=True)
class Form:
    name: str
    date_of_birth: str
    positions: str = ""
    guardian: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Registered:
    """What the registrant is told: no date of birth, ever."""

    id: int
    name: str
    division: str
    season: str
    status: str  # registered | waiting
    queue_position: int | None
    fee_cents: int
    payment_link: str
    payment_due_at: datetime | None
    exception_reason: str


def _window(row: RegistrationWindow, season: Season, registered: int = 0, waiting: int = 0) -> Window:
    return Window(row.id, season.name, row.division, row.fee_cents, row.payment_link, row.draft_date,
                  row.closed_at is None, registered, waiting)


def _link(text: str | None) -> str:
    link = (text or "").strip()
    if link and (not link.startswith("https://") or len(link) > 300 or any(c.isspace() for c in link)):
        raise InvalidInput("The payment page must be a web address starting with https:// (300 characters at most).")
    return link


#: The export's columns, in order (the date of birth among them: the file is for commissioners only).
EXPORT_COLUMNS = ("number", "season", "division", "name", "date_of_birth", "positions", "guardian", "notes",
                  "discord_id", "status", "waiting_position", "fee", "payment", "paid", "registered_at",
                  "payment_due_at", "age_exception", "decision_reason")


@retried_on_disconnect
class RegistrationFormService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, dues: WaitingListService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.dues = dues

    async def open(self, caller: Caller, division: str, fee: str = "0", payment_link: str | None = None,
                   draft_date: str | None = None) -> Window:
        """A commissioner opens (or reopens, with new terms) a division's registration for the running season."""
        caller.require(Role.COMMISSIONER)
        try:
            fee_cents = parse_amount(fee or "0")
        except FormProblem as problem:
            raise InvalidInput(f"Fee: {problem}") from None
        link = _link(payment_link)
        draft = None
        if draft_date and draft_date.strip():
            try:
                draft = date.fromisoformat(draft_date.strip())
            except ValueError:
                raise InvalidInput("Give the draft day as YYYY-MM-DD, e.g. 2026-12-20.") from None
        now = self.clock.now()
        async with self.sessions.begin() as session:
            season = await self._season(session, caller)
            name = await self._division(session, caller, division)
            row = await session.scalar(select(RegistrationWindow).where(
                RegistrationWindow.season_id == season.id, RegistrationWindow.division == name))
            if row is None:
                row = RegistrationWindow(league_id=caller.league_id, season_id=season.id, division=name,
                                         opened_by=caller.discord_id, opened_at=now)
                session.add(row)
            row.fee_cents, row.payment_link, row.draft_date, row.closed_at = fee_cents, link, draft, None
            await session.flush()
            log.info("registration for %s opened by %s", name, caller.discord_id)
            return _window(row, season)

    async def close(self, caller: Caller, division: str) -> Window:
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            season = await self._season(session, caller)
            name = await self._division(session, caller, division)
            row = await session.scalar(select(RegistrationWindow).where(
                RegistrationWindow.season_id == season.id, RegistrationWindow.division == name))
            if row is None or row.closed_at is not None:
                raise Conflict(f"Registration for {name} isn't open.")
            row.closed_at = self.clock.now()
            return _window(row, season)

    async def windows(self, caller: Caller, *, open_only: bool = True) -> list[Window]:
        """The running season's registration windows (open ones only, unless asked)."""
        async with self.sessions() as session:
            season = await running_season(session, caller.league_id)
            if season is None:
                return []
            query = select(RegistrationWindow).where(RegistrationWindow.season_id == season.id)
            if open_only:
                query = query.where(RegistrationWindow.closed_at.is_(None))
            rows = (await session.scalars(query.order_by(RegistrationWindow.division))).all()
            counts = dict(((w, s), n) for w, s, n in (await session.execute(
                select(Registration.window_id, Registration.status, func.count(Registration.id))
                .where(Registration.window_id.in_([r.id for r in rows]))
                .group_by(Registration.window_id, Registration.status))).all())
            return [_window(r, season, counts.get((r.id, "registered"), 0), counts.get((r.id, "waiting"), 0))
                    for r in rows]

    async def exception(self, caller: Caller, member_id: int, division: str, reason: str) -> Window:
        """A commissioner lets a member's registrant into a division outside its age band (youth 1.2)."""
        caller.require(Role.COMMISSIONER)
        if reason not in EXCEPTION_REASONS:
            raise InvalidInput(f"The reason must be one of: {', '.join(EXCEPTION_REASONS)}.")
        async with self.sessions.begin() as session:
            season = await self._season(session, caller)
            name = await self._division(session, caller, division)
            window = await session.scalar(select(RegistrationWindow).where(
                RegistrationWindow.season_id == season.id, RegistrationWindow.division == name))
            if window is None:
                raise Conflict(f"Registration for {name} hasn't been opened this season.")
            row = await session.scalar(select(RegistrationException).where(
                RegistrationException.window_id == window.id, RegistrationException.discord_id == member_id))
            if row is None:
                row = RegistrationException(league_id=caller.league_id, window_id=window.id, discord_id=member_id,
                                            reason=reason, recorded_by=caller.discord_id,
                                            recorded_at=self.clock.now())
                session.add(row)
            row.reason, row.recorded_by, row.used_by = reason, caller.discord_id, None
            return _window(window, season)

    async def register(self, caller: Caller, window_id: int | None, form: Form) -> Registered:
        """A member sends the registration form, for themself or (as guardian) for a minor."""
        now = self.clock.now()
        today = now.astimezone(caller.league.timezone).date()
        name = clean_user_text(form.name or "", 100)
        if not name:
            raise InvalidInput("Give the player's name.")
        try:
            born = parse_birth_date(form.date_of_birth, today)
        except FormProblem as problem:
            raise InvalidInput(str(problem)) from None
        guardian = clean_user_text(form.guardian or "", 100)
        if needs_guardian(born, today, caller.league.rules.registration) and not guardian:
            raise InvalidInput(f"A player under {caller.league.rules.registration.guardian_under_age} needs a "
                               "guardian: name the guardian on the form (a guardian may send it for them).")
        rules = caller.league.rules.registration
        async with self.sessions.begin() as session:
            season = await self._season(session, caller)
            window = await self._pick_window(session, caller, season, window_id, born)
            check = check_age(born, window.division, season.first_day, rules)
            exception = None
            if not check.fits:
                exception = await session.scalar(select(RegistrationException).where(
                    RegistrationException.window_id == window.id, RegistrationException.discord_id == caller.discord_id,
                    RegistrationException.used_by.is_(None)))
                if exception is None:
                    assert check.band is not None
                    raise InvalidInput(
                        f"{name} will be {check.age} on {check.counted_on:%B} {check.counted_on.day}, "
                        f"{check.counted_on.year}: {window.division} takes ages {check.band[0]} to {check.band[1]}. "
                        "A commissioner can record an exception (skill assessment, parental approval); then send "
                        "the form again.")
            duplicate = await session.scalar(select(Registration.id).where(
                Registration.window_id == window.id, Registration.discord_id == caller.discord_id,
                func.lower(Registration.name) == name.casefold(), Registration.status.not_in(ENDED)))
            if duplicate is not None:
                raise Conflict(f"{name} is already registered for {window.division} (registration #{duplicate}).")
            room = has_room(window.division, await holding_count(session, window.id), rules)
            position = None
            if not room:
                position = int(await session.scalar(select(func.max(Registration.queue_position)).where(
                    Registration.window_id == window.id)) or 0) + 1
            draft = season_start(window.draft_date, caller.league.timezone) if window.draft_date else None
            due = payment_due(now, rules, draft) if room and window.fee_cents > 0 else None
            row = Registration(
                league_id=caller.league_id, window_id=window.id, name=name, date_of_birth=born,
                positions=clean_user_text(form.positions or "", 100), guardian=guardian,
                notes=clean_user_text(form.notes or "", 1000), discord_id=caller.discord_id,
                status="registered" if room else "waiting", queue_position=position, fee_cents=window.fee_cents,
                registered_at=now, payment_due_at=due,
                exception_reason=exception.reason if exception else "",
                exception_by=exception.recorded_by if exception else None)
            session.add(row)
            await session.flush()
            if exception is not None:
                exception.used_by = row.id
            await self.dues.plan(session, caller.league_id, caller.league.guild_id, row, window)
            log.info("registration #%s for %s (%s)", row.id, window.division, row.status)
            return Registered(row.id, name, window.division, season.name, row.status, position, window.fee_cents,
                              window.payment_link, due, row.exception_reason)

    async def lines(self, caller: Caller, division: str | None = None) -> list[Line]:
        """Every registration of the running season, for commissioners (with dates of birth)."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            season = await self._season(session, caller)
            query = (select(Registration, RegistrationWindow)
                     .join(RegistrationWindow, RegistrationWindow.id == Registration.window_id)
                     .where(RegistrationWindow.season_id == season.id))
            if division and division.strip():
                query = query.where(func.lower(RegistrationWindow.division) == division.strip().casefold())
            rows = (await session.execute(query.order_by(RegistrationWindow.division, Registration.id))).all()
            return [line_of(r, w, season) for r, w in rows]

    async def export(self, caller: Caller) -> bytes:
        """The running season's registrations as CSV (commissioners only: it holds dates of birth)."""
        out = io.StringIO()
        rows = [{"number": ln.id, "season": ln.season, "division": ln.division, "name": ln.name,
                 "date_of_birth": ln.date_of_birth.isoformat(), "positions": ln.positions, "guardian": ln.guardian,
                 "notes": ln.notes, "discord_id": str(ln.discord_id), "status": ln.status,
                 "waiting_position": ln.queue_position or "", "fee": f"{ln.fee_cents / 100:.2f}",
                 "payment": ln.payment_state, "paid": f"{ln.paid_cents / 100:.2f}",
                 "registered_at": ln.registered_at.isoformat(),
                 "payment_due_at": ln.payment_due_at.isoformat() if ln.payment_due_at else "",
                 "age_exception": ln.exception_reason, "decision_reason": ln.decision_reason}
                for ln in await self.lines(caller)]
        write_csv(out, EXPORT_COLUMNS, rows)
        return out.getvalue().encode("utf-8")

    async def search(self, caller: Caller, text: str) -> list[tuple[str, str]]:
        """(label, value) of registrations for a commissioner's autocomplete; nothing for anyone else."""
        if not caller.is_commissioner:
            return []
        needle = (text or "").strip().lstrip("#").casefold()
        try:
            lines = await self.lines(caller)
        except Conflict:  # no season running: nothing to suggest
            return []
        found = [ln for ln in lines if needle in ln.name.casefold() or needle == str(ln.id)]
        return [(f"#{ln.id} {ln.name} ({ln.division}, {ln.status})"[:100], str(ln.id)) for ln in found[:25]]

    async def division_names(self, caller: Caller, text: str, *, open_only: bool) -> list[str]:
        """Divisions for autocomplete: those open for registration, or every one a window may be opened for."""
        needle = (text or "").strip().casefold()
        if open_only:
            names = [w.division for w in await self.windows(caller)]
        else:
            async with self.sessions() as session:
                names = sorted(set(await self._division_names(session, caller)))
        return [n for n in names if needle in n.casefold()][:25]

    async def _division_names(self, session: AsyncSession, caller: Caller) -> list[str]:
        names = list((await session.scalars(select(Division.name).where(
            Division.league_id == caller.league_id))).all())
        known = {x.casefold() for x in names}
        return names + [n for n in caller.league.rules.registration.division_ages if n not in known]

    async def _season(self, session: AsyncSession, caller: Caller) -> Season:
        season = await running_season(session, caller.league_id)
        if season is None:
            raise Conflict(f"{caller.league.name} has no season running: registration opens for a season, so a "
                           "commissioner starts one first (/season start).")
        return season

    async def _division(self, session: AsyncSession, caller: Caller, text: str) -> str:
        """A division by name: the league's own divisions, or one its age bands name."""
        wanted = (text or "").strip().casefold()
        names = await self._division_names(session, caller)
        found = next((n for n in names if n.casefold() == wanted), None)
        if found is None:
            known = ", ".join(sorted(names)) or "none yet"
            raise NotFound(f"There's no division “{printable(text or '').strip()[:40]}” (divisions: {known}).")
        return found

    async def _pick_window(self, session: AsyncSession, caller: Caller, season: Season, window_id: int | None,
                           born: date) -> RegistrationWindow:
        """The open window the form is for: the one named, else the one the registrant's age (or an
        exception) fits among those open."""
        rows = list((await session.scalars(select(RegistrationWindow).where(
            RegistrationWindow.season_id == season.id, RegistrationWindow.closed_at.is_(None))
            .order_by(RegistrationWindow.division))).all())
        if not rows:
            raise Conflict(f"Registration for {season.name} isn't open.")
        if window_id:
            chosen = next((r for r in rows if r.id == window_id), None)
            if chosen is None:
                raise Conflict("Registration for that division has closed.")
            return chosen
        rules = caller.league.rules.registration
        fitting = [r for r in rows if check_age(born, r.division, season.first_day, rules).fits]
        if not fitting:
            excepted = set((await session.scalars(select(RegistrationException.window_id).where(
                RegistrationException.discord_id == caller.discord_id, RegistrationException.used_by.is_(None),
                RegistrationException.window_id.in_([r.id for r in rows])))).all())
            fitting = [r for r in rows if r.id in excepted] or rows[:1]
        if len(fitting) > 1:
            raise InvalidInput(f"Pick the division ({', '.join(r.division for r in fitting)}) and send the form again.")
        return fitting[0]
