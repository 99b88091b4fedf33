"""The officials' game card: what the referee (and the timekeeper) need at the rink, read from the league's
rules for one game, each line with the rulebook section it comes from.

Pure: the game's kind, the league's ``Rules``, the duty rota and team names in; lines of plain text out.
The service (bot/services/officials.py) adds the game itself (teams, time, venue, officials) and sends it.

Choices the rulebooks leave open, decided here:
- Two periods are "halves" (co-ed, indoor: "two 20-minute halves"), more are "periods" (youth 2.5, 2.6).
- A clock rule the rulebook doesn't give (indoor soccer says nothing about the clock) is left off the card
  rather than guessed.
- Timeouts are per team. Youth 2.10's overtime timeout ("one 30-second timeout per team during the overtime
  period during the playoffs") shows only on playoff games that have overtime.
- "If tied" is the game's kind's overtime (bot/league/game_format.py ``overtime_for``): regular-season and
  seeding games follow the regular-season rules, playoff games the playoff ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.league.discipline.cleanup import DUTIES, TITLES, Duty, DutyRota
from bot.league.game_format import GameFormat, GameKind
from bot.league.rules import Rules
from bot.league.shootouts.presets import ShootoutRules


@dataclass(frozen=True)
class CardLine:
    """One line of the card: what it is about, what it says, and where the rule comes from ("": nowhere)."""

    label: str
    text: str
    rule: str = ""

    def render(self) -> str:
        return f"**{self.label}:** {self.text}" + (f" ({self.rule})" if self.rule else "")


def period_word(periods: int, *, plural: bool = True) -> str:
    """"halves" for two periods, else "periods" (singular with ``plural=False``)."""
    if periods == 2:
        return "halves" if plural else "half"
    return "periods" if plural else "period"


def periods_text(fmt: GameFormat) -> str:
    """"2 halves of 20 min · breaks of up to 5 min"."""
    text = f"{fmt.periods} {period_word(fmt.periods, plural=fmt.periods != 1)} of {fmt.period_minutes} min"
    if fmt.intermission_minutes is not None:
        text += (f" · breaks of up to {fmt.intermission_minutes} min" if fmt.intermission_minutes
                 else " · no break between them")
    return text


def clock_text(fmt: GameFormat) -> str | None:
    """The clock rules (``running_clock``, ``stopped_clock_final_minutes``), or None when the rulebook gives none."""
    final = (f"the last {fmt.stopped_clock_final_minutes} min of the final {period_word(fmt.periods, plural=False)}"
             if fmt.stopped_clock_final_minutes else None)
    if fmt.running_clock is None:
        return f"stopped in {final}" if final else None
    if not fmt.running_clock:
        return "stopped clock: stopped at every stoppage"
    return f"running; stopped in {final}" if final else "running throughout"


def timeouts_text(fmt: GameFormat, kind: GameKind) -> str:
    """Each team's timeouts in a game of this kind."""
    if fmt.timeouts_per_game == 0:
        text = "none"
    else:
        length = f" × {fmt.timeout_seconds} s" if fmt.timeout_seconds else ""
        text = f"{fmt.timeouts_per_game}{length} per team per game"
        if fmt.timeouts_per_period is not None:
            text += f", at most {fmt.timeouts_per_period} per {period_word(fmt.periods, plural=False)}"
    overtime = fmt.overtime_for(kind)
    if kind == "playoff" and overtime.periods and fmt.playoff_overtime_timeouts:
        length = f" × {fmt.timeout_seconds} s" if fmt.timeout_seconds else ""
        extra = f"{fmt.playoff_overtime_timeouts}{length} per team in overtime"
        text = extra if text == "none" else f"{text}; {extra}"
    return text


def tied_text(fmt: GameFormat, kind: GameKind) -> str:
    """What a tie at the end of regulation leads to, in a game of this kind."""
    overtime = fmt.overtime_for(kind)
    if overtime.tie_stands:
        return "the tie stands (no overtime, no shootout)"
    parts = []
    if overtime.periods:
        count = f"{overtime.periods} × " if overtime.periods > 1 else ""
        how = "sudden death: the first goal wins, so an overtime win is by one goal" if overtime.sudden_death \
            else "played in full"
        parts.append(f"{count}{overtime.period_minutes} min overtime, {how}")
    parts.append("a shootout" if overtime.shootout else "the tie stands")
    return ", then ".join(parts)


def shootout_text(rules: ShootoutRules, playoff: bool) -> str:
    """The shootout's shape: shooters, sudden-death rounds, and who may take part."""
    text = f"{rules.initial_shooters(playoff)} shooters a team"
    if rules.shootout_min_women_initial:
        text += f" (at least {rules.shootout_min_women_initial} woman/non-binary)"
    text += ", then sudden-death rounds"
    if rules.shootout_no_repeat_until_all_shot:
        text += "; nobody shoots twice until every eligible teammate has"
    if rules.shootout_only_players_on_floor:
        text += "; only players on the floor at the end of overtime"
    if not rules.shootout_goalie_may_change:
        text += "; the goalie may not change"
    return text


def format_lines(rules: Rules, kind: GameKind) -> tuple[CardLine, ...]:
    """How the game is played: periods, clock, timeouts, what a tie leads to, the shootout."""
    fmt, cites = rules.game_format, rules.game_format.game_format_citations
    lines = [CardLine("Periods", periods_text(fmt), cites.period)]
    clock = clock_text(fmt)
    if clock is not None:
        lines.append(CardLine("Clock", clock, cites.clock))
    lines.append(CardLine("Timeouts", timeouts_text(fmt, kind), cites.timeout))
    lines.append(CardLine("If tied", tied_text(fmt, kind), fmt.overtime_citation(kind)))
    if fmt.overtime_for(kind).shootout:
        playoff = kind == "playoff"
        lines.append(CardLine("Shootout", shootout_text(rules.shootout, playoff),
                              rules.shootout.initial_citation(playoff)))
    return tuple(lines)


def duty_lines(rota: DutyRota, team_names: Mapping[int, str], citations: Mapping[Duty, str]) -> tuple[CardLine, ...]:
    """Who sets the arena up and who clears it, for this game (nothing when nobody is on duty)."""
    lines = []
    for duty in DUTIES:
        teams = rota.teams(duty)
        if not teams:
            continue
        by_rule = [t for t in teams if (duty, t) not in rota.by_commissioner]
        rule = citations.get(duty, "") if by_rule else ""
        names = ", ".join(team_names.get(t, "?") + (" (set by a commissioner)" if (duty, t) in rota.by_commissioner
                                                   else "") for t in teams)
        lines.append(CardLine(TITLES[duty], names, rule))
    return tuple(lines)


def equipment_text(equipment: tuple[str, ...]) -> str | None:
    """"eye protection, shin pads, ...", or None for a league whose rulebook mandates none."""
    return ", ".join(equipment) if equipment else None
