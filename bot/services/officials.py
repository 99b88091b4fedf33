"""The officials' game card: /game-card, and the card the game's referees get before it.

The card is the game (teams, time, venue, kind), its officials, how it is played under the league's rules
(periods, clock, timeouts, what a tie leads to, the shootout: bot/league/officials.py), who is on arena duty
(bot/services/shared/duties.py), the mandatory equipment, and the bench minors a team starts it with.

Choices the spec leaves open, decided here:
- Who may read it: the league's referees, timekeepers and commissioners, an official assigned to the game, and the two
  teams' captains (their stand-ins for the game too); captains see no buttons.
- It is sent at each of the league's game-card times before the game (``game_card_offsets``, default 2 h),
  planned with the reminders (bot/services/reminders/plan.py), so a restart neither loses nor repeats it.
  It is written when it is sent, so it shows the game as it is then: by DM to each referee assigned then,
  else (nobody assigned: the game is every referee's, as for relays) in the league's referees channel.
  Nothing goes out for a game that is off or under way.
- Under the card, for each team on duty where the league gives a bench minor for missing it, a button
  records that the team didn't do it (bot/services/discipline/cleanup.py ``missed_from_card``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.errors import NotAllowed
from bot.league.discipline.cleanup import DUTIES, cited
from bot.league.gamesheets.officials import officials_line
from bot.league.officials import CardLine, duty_lines, equipment_text, format_lines
from bot.services import outbox
from bot.services.discipline.cleanup import bench_minors_at_start, duty_minutes
from bot.services.outbox import FanOut, Outgoing, Rendered
from bot.services.people import is_captain_of, membership
from bot.services.shared.duties import duty_citations, rota_for
from bot.services.shared.games import find_game
from storage.db import retried_on_disconnect
from storage.models import Game, OutboxMessage, RefereeAssignment

log = logging.getLogger("sideline.officials")

CONTENT_LIMIT = 2000
BUTTON_PREFIX = "sideline:duty:"
KIND_WORDS = {"regular": "regular season", "seeding": "seeding game", "playoff": "playoff"}
MISSED_LABEL = {"setup": "didn't set up", "cleanup": "didn't clean up"}


def duty_button_id(duty: str, game_id: int, team_id: int) -> str:
    """The custom_id of a card's "didn't do its duty" button (cogs/officials.py handles the press)."""
    return f"{BUTTON_PREFIX}{duty}:{game_id}:{team_id}"


@dataclass(frozen=True)
class GameCard:
    """The card as one reader may see it."""

    code: str
    home: str
    away: str
    starts_at: datetime
    venue: str
    kind: str
    officials: CardLine
    lines: tuple[CardLine, ...]
    buttons: tuple[tuple[str, str], ...] = ()  # (label, custom_id): only on the officials' copy

    def text(self) -> str:
        head = (f"📋 **Game card · {self.home} vs {self.away}** · `{self.code}`\n"
                f"{timestamp(self.starts_at)} ({timestamp(self.starts_at, 'R')}) · {self.venue or 'venue TBA'} · "
                f"{KIND_WORDS.get(self.kind, self.kind)}\n{self.officials.render()}")
        body = "\n".join(line.render() for line in self.lines)
        tail = ("\nIf a team on duty doesn't do it, press its button below: a bench minor, as the rules say."
                if self.buttons else "")
        return clip(f"{head}\n{body}{tail}", CONTENT_LIMIT)

    def message(self) -> Outgoing:
        return Outgoing(content=self.text(), buttons=self.buttons)


async def _referees(session: AsyncSession, league_id: int, game_id: int) -> list[RefereeAssignment]:
    return list((await session.scalars(select(RefereeAssignment).where(
        RefereeAssignment.league_id == league_id, RefereeAssignment.game_id == game_id)
        .order_by(RefereeAssignment.id))).all())


async def build_card(session: AsyncSession, league: LeagueSettings, league_id: int, game: Game, *,
                     referees: Sequence[RefereeAssignment], buttons: bool) -> GameCard:
    """The game's card as the schedule, the rota and the records stand now."""
    rules = league.rules
    names = {game.home_team_id: game.home.name, game.away_team_id: game.away.name}
    rota = await rota_for(session, league, league_id, game)
    lines = list(format_lines(rules, game.kind))
    lines += duty_lines(rota, names, duty_citations(league))
    equipment = equipment_text(rules.deadlines.mandatory_equipment)
    if equipment:
        lines.append(CardLine("Equipment", equipment,
                              cited(rules.deadlines.deadline_citations.equipment, "mandatory_equipment")))
    at_start = await bench_minors_at_start(session, league, league_id, game_id=game.id, starts_at=game.starts_at,
                                           team_ids=game.team_ids())
    lines += [CardLine("Starts with", f"{b.team}, {b.text().removeprefix('starts with ')}") for b in at_start]
    pressable: list[tuple[str, str]] = []
    if buttons:
        for duty in DUTIES:
            if duty_minutes(league, duty) is None:
                continue
            pressable += [(clip(f"{names[t]} {MISSED_LABEL[duty]}", 80), duty_button_id(duty, game.id, t))
                          for t in rota.teams(duty)]
    assigned = [(r.role, r.referee_name or str(r.referee_id)) for r in referees]
    officials = CardLine("Officials", *officials_line(rules.gamesheets, assigned))
    return GameCard(game.code, game.home.name, game.away.name, game.starts_at, game.venue, game.kind, officials,
                    tuple(lines), tuple(pressable))


@retried_on_disconnect
class GameCardService:
    """/game-card for whoever may read it, and the card rows' renderer (the composition root names it)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def show(self, caller: Caller, game_code: str) -> GameCard:
        """The game's card: with the duty buttons for its officials, without them for the teams' captains."""
        async with self.sessions() as session:
            game = await find_game(session, caller, game_code)
            referees = await _referees(session, caller.league_id, game.id)
            official = (caller.is_commissioner or caller.is_referee or caller.is_timekeeper
                        or any(r.referee_id == caller.discord_id for r in referees))
            if not official:
                member = await membership(session, caller, game)
                if not any(is_captain_of(caller, member, t) for t in game.team_ids()):
                    raise NotAllowed(f"Only the game's referees, a commissioner or a captain of {game.home.name} "
                                     f"or {game.away.name} can see the card for `{game.code}`.")
            return await build_card(session, caller.league, caller.league_id, game, referees=referees,
                                    buttons=official)

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        """A card time: a DM to each referee assigned now, else a post in the referees channel."""
        game = await session.get(Game, int(row.args["game_id"]))
        if game is None or game.league_id != row.league_id or game.status != "scheduled" or now >= game.starts_at:
            return None
        league = self.settings.league_for_guild(row.guild_id)
        if league is None:
            log.warning("skipped %s: server %s has no league in the configuration", row.send_key, row.guild_id)
            return None
        referees = await _referees(session, row.league_id, game.id)
        message = (await build_card(session, league, row.league_id, game, referees=referees, buttons=True)).message()
        if referees:
            return FanOut(tuple((str(r.referee_id), r.referee_id, message) for r in referees))
        if league.channels.referees is None:
            log.info("game card for %s: no referee assigned and no referees channel, so nobody to send it to",
                     game.code)
            return None
        await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id, key=f"{row.send_key}:channel",
                             due_at=now, message=message, channel_id=league.channels.referees,
                             expires_at=row.expires_at)
        return FanOut(())
