"""What the registration services share: views of a registration, and reading windows and registrants."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Caller
from bot.errors import NotFound
from storage.models import Registration, RegistrationWindow, Season
from storage.text import printable

#: A registrant holding a spot in their division (an offer out holds it too, until answered).
HOLDING = ("registered", "offered")
#: Statuses that end a registration (a new form may then be sent).
ENDED = ("rejected", "replaced", "declined")
BUTTON_PREFIX = "sideline:registration:"


@dataclass(frozen=True)
class Line:
    """One registration as commissioners see it (date of birth included: commissioners only)."""

    id: int
    season: str
    division: str
    name: str
    date_of_birth: date
    positions: str
    guardian: str
    notes: str
    discord_id: int
    status: str
    queue_position: int | None
    fee_cents: int
    payment_state: str
    paid_cents: int
    registered_at: datetime
    payment_due_at: datetime | None
    exception_reason: str
    decision_reason: str


def line_of(row: Registration, window: RegistrationWindow, season: Season) -> Line:
    return Line(row.id, season.name, window.division, row.name, row.date_of_birth, row.positions, row.guardian,
                row.notes, row.discord_id, row.status, row.queue_position, row.fee_cents, row.payment_state,
                row.paid_cents, row.registered_at, row.payment_due_at, row.exception_reason, row.decision_reason)


async def registration_of(session: AsyncSession, caller: Caller, text: str) -> tuple[Registration,
                                                                                      RegistrationWindow, Season]:
    """A registration of the caller's league by its number (``12`` or ``#12``, as autocomplete gives it)."""
    raw = (text or "").strip().lstrip("#").split(" ")[0]
    found = None
    if raw.isdecimal() and len(raw) <= 12:
        found = (await session.execute(
            select(Registration, RegistrationWindow, Season)
            .join(RegistrationWindow, RegistrationWindow.id == Registration.window_id)
            .join(Season, Season.id == RegistrationWindow.season_id)
            .where(Registration.id == int(raw), Registration.league_id == caller.league_id))).first()
    if found is None:
        raise NotFound(f"There's no registration “{printable(text or '').strip()[:40]}” in {caller.league.name}: "
                       "pick one from the list.")
    return found[0], found[1], found[2]


async def holding_count(session: AsyncSession, window_id: int) -> int:
    return int(await session.scalar(select(func.count(Registration.id)).where(
        Registration.window_id == window_id, Registration.status.in_(HOLDING))) or 0)
