"""The league's own numbers behind a rulebook answer: "only 3 players?" cites the rule and says what
this league's settings make of it (its preset, or what the commissioner set with /setup rule).

Which facts answer what is data: a preset's vocabulary names them per section of its rulebook, and a
situation ("only # players") names them too (bot/league/rulebooks/vocabulary/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.league.game_format import Overtime
from bot.league.rules import Rules
from bot.league.standings.presets import TIEBREAKERS


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _count(n: int) -> str:
    """A small count in words, as the rulebooks write "two 20-minute halves"."""
    return ("no", "one", "two", "three", "four", "five")[n] if 0 <= n <= 5 else str(n)


def _parts(rules: Rules) -> tuple[str, str]:
    """What the league calls its periods: "half"/"halves" for two, else "period"/"periods"."""
    return ("half", "halves") if rules.game_format.periods == 2 else ("period", "periods")


def court(rules: Rules) -> str:
    lineup = rules.lineup
    sizes = dict(lineup.court_sizes_by_division)
    if sizes:
        on = "; ".join(f"{name} {n}" for name, n in sizes.items())
        text = f"Players on the court at once, the goalie included: {on}."
    else:
        text = f"{_plural(lineup.players_on_court, 'player')} on the court at once, the goalie included."
    if lineup.women_nonbinary_on_court:
        goalie = "counted" if lineup.goalie_counts_toward_women_nonbinary else "not counted"
        short = " A team without enough plays short." if lineup.plays_short_when_short_of_women else ""
        text += (f" At least {lineup.women_nonbinary_on_court} women/non-binary players on the court at all "
                 f"times, the goalie {goalie}.{short}")
    return text


def start(rules: Rules) -> str:
    lineup = rules.lineup
    if lineup.min_skaters_to_start is not None:
        goalie = " and a goalie" if lineup.goalie_required_to_start else ""
        text = f"To start a game a team needs {_plural(lineup.min_skaters_to_start, 'player')}{goalie}."
    elif lineup.min_players_to_start is not None:
        goalie = ", a goalie among them" if lineup.goalie_required_to_start else ""
        text = f"To start a game a team needs at least {_plural(lineup.min_players_to_start, 'player')}{goalie}."
    else:
        return "This league sets no minimum number of players to start a game."
    if lineup.start_grace_minutes:
        text += f" A short team gets {_plural(lineup.start_grace_minutes, 'minute')} of grace"
        if lineup.late_start_bench_minor_minutes:
            text += f", then starts with a {lineup.late_start_bench_minor_minutes}-minute bench minor"
        text += "."
    if lineup.forfeit_after_minutes is not None:
        text += f" Still short {_plural(lineup.forfeit_after_minutes, 'minute')} after the start, it forfeits."
    return text


def length(rules: Rules) -> str:
    game = rules.game_format
    one, many = _parts(rules)
    text = f"Games are {_count(game.periods)} {game.period_minutes}-minute {many if game.periods != 1 else one}"
    if game.running_clock:
        text += ", running clock"
    text += "."
    if game.stopped_clock_final_minutes:
        text += f" The clock stops in the last {_plural(game.stopped_clock_final_minutes, 'minute')}."
    return text


def _overtime(ot: Overtime) -> str:
    if ot.tie_stands:
        return "a tie stands"
    parts = []
    if ot.periods:
        kind = "sudden death" if ot.sudden_death else "played in full"
        parts.append(f"{_count(ot.periods)} {ot.period_minutes}-minute overtime period{'s' if ot.periods > 1 else ''}"
                     f" ({kind})")
    if ot.shootout:
        parts.append("a shootout")
    return ", then ".join(parts)


def overtime(rules: Rules) -> str:
    game = rules.game_format
    regular, playoff = _overtime(game.overtime_for("regular")), _overtime(game.overtime_for("playoff"))
    if regular == playoff:
        return f"A tied game: {regular}."
    return f"A tied game in the regular season: {regular}; in the playoffs: {playoff}."


def shootout(rules: Rules) -> str:
    s = rules.shootout
    text = f"Shootouts start with {_plural(s.shootout_initial_shooters, 'shooter')} a team"
    if s.shootout_initial_shooters_playoff != s.shootout_initial_shooters:
        text += f" ({s.shootout_initial_shooters_playoff} in the playoffs)"
    if s.shootout_min_women_initial:
        text += f", at least {s.shootout_min_women_initial} of them women/non-binary"
    text += "."
    if s.shootout_no_repeat_until_all_shot:
        text += " Nobody shoots twice until everyone eligible has shot."
    return text


def timeouts(rules: Rules) -> str:
    game = rules.game_format
    if not game.timeouts_per_game:
        return "This league's games have no timeouts."
    seconds = f" of {game.timeout_seconds} seconds" if game.timeout_seconds else ""
    text = f"{_plural(game.timeouts_per_game, 'timeout')}{seconds} a team per game"
    if game.timeouts_per_period:
        text += f", at most {game.timeouts_per_period} a {_parts(rules)[0]}"
    return text + "."


def intermission(rules: Rules) -> str:
    minutes = rules.game_format.intermission_minutes
    if minutes is None:
        return ""
    return f"The break between {_parts(rules)[1]} is at most {_plural(minutes, 'minute')}."


def roster(rules: Rules) -> str:
    limit = rules.lineup.roster_limit
    return f"A roster holds at most {_plural(limit, 'player')}." if limit is not None else ""


def points(rules: Rules) -> str:
    s = rules.standings
    return (f"{_plural(s.points_win, 'point')} for a win, {s.points_tie} for a tie, {s.points_loss} for a loss"
            + (f", {s.points_otl} for an overtime loss" if s.points_otl is not None else "") + ".")


def tiebreakers(rules: Rules) -> str:
    first, *rest = rules.standings.standings_tiebreakers
    order = f"The table is ordered by {TIEBREAKERS[first]}"
    if not rest:
        return order + "."
    level = "points" if first == "points" else "that"
    return f"{order}; teams level on {level} go by " + ", then ".join(TIEBREAKERS[c] for c in rest) + "."


def appeals(rules: Rules) -> str:
    d = rules.discipline
    return (f"An appeal is filed within {_plural(d.appeal_window_days, 'day')} and decided within "
            f"{_plural(d.appeal_decision_days, 'day')}.")


def trades(rules: Rules) -> str:
    week = rules.deadlines.trade_deadline_week
    return f"The trade deadline is the end of week {week}." if week is not None else ""


FACTS: dict[str, Callable[[Rules], str]] = {
    "court": court, "start": start, "length": length, "overtime": overtime, "shootout": shootout,
    "timeouts": timeouts, "intermission": intermission, "roster": roster, "points": points,
    "tiebreakers": tiebreakers, "appeals": appeals,
    "trades": trades,
}


def fact_lines(rules: Rules, names: Iterable[str]) -> tuple[str, ...]:
    """The league's numbers for these facts, once each, in the order asked; unknown names and facts the
    league has no number for are left out."""
    seen: list[str] = []
    for name in names:
        make = FACTS.get(name)
        line = make(rules) if make is not None else ""
        if line and line not in seen:
            seen.append(line)
    return tuple(seen)
