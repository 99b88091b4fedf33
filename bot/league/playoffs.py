"""Playoff brackets: seeding from the standings, single-elimination rounds, winners advancing.

A "straight bracket" (Co-ed rules: Game Structure 8 — "Playoffs will occur in a straight bracket style"
once teams are seeded) pairs 1 v N, 2 v N-1, ... and places the seeds so that the top two
can meet only in the final (1 and 2 in opposite halves, 1 v 4 and 2 v 3 in the semifinals of an
8-team bracket). When the number of teams is not a power of two, the bracket is the next power of
two and the missing low seeds are byes: the top seeds go straight to the second round.

Plain data in, plain data out: :func:`advance` returns a new :class:`Bracket`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.league.standings.presets import TEAM_NAME_FALLBACK, StandingsRules
from bot.league.standings.table import GameResult, PointAdjustment, StandingsRow, compute_standings, level_key

MIN_TEAMS = 2
MAX_TEAMS = 16
#: The single table used to seed a league across its divisions.
SEEDING_TABLE = "seeding"


class PlayoffError(ValueError):
    """A bracket request that cannot be honoured: bad team count, unknown game, wrong winner."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team in the bracket with its seed (1 = best record)."""

    seed: int
    team: str


@dataclass(frozen=True, slots=True)
class Matchup:
    """One game of the bracket. A side is None until the game feeding it has a winner."""

    matchup_id: str  # "R1-M2": round 1, second game from the top
    round_number: int  # 1-based
    top: Entrant | None
    bottom: Entrant | None
    top_from: str | None = None  # matchup whose winner fills ``top`` (None: seeded, or a bye)
    bottom_from: str | None = None
    winner: Entrant | None = None

    @property
    def ready(self) -> bool:
        """Both teams are known: the game can be played."""
        return self.top is not None and self.bottom is not None

    @property
    def teams(self) -> tuple[str, str]:
        """The top and the bottom team of a ready matchup."""
        if self.top is None or self.bottom is None:
            raise PlayoffError(f"{self.matchup_id} is not set yet")
        return self.top.team, self.bottom.team


@dataclass(frozen=True, slots=True)
class Bracket:
    """A single-elimination bracket: rounds of matchups, first round first."""

    seeds: tuple[str, ...]  # seeds[0] is seed 1
    rounds: tuple[tuple[Matchup, ...], ...]
    byes: tuple[Entrant, ...]  # top seeds that skip round 1

    @property
    def champion(self) -> str | None:
        final = self.rounds[-1][0]
        return final.winner.team if final.winner else None

    def matchup(self, matchup_id: str) -> Matchup:
        """The matchup with this id, or PlayoffError naming the ids that exist."""
        for round_matchups in self.rounds:
            for m in round_matchups:
                if m.matchup_id == matchup_id:
                    return m
        known = ", ".join(m.matchup_id for r in self.rounds for m in r)
        raise PlayoffError(f"no matchup {matchup_id!r} in this bracket (matchups: {known})")

    def round_name(self, round_number: int) -> str:
        """'Final', 'Semifinals', 'Quarterfinals', 'Round of 16' by the bracket's size."""
        remaining = 2 ** (len(self.rounds) - round_number + 1)
        return {2: "Final", 4: "Semifinals", 8: "Quarterfinals"}.get(remaining, f"Round of {remaining}")


def seeds_from_standings(rows: Sequence[StandingsRow], count: int | None = None) -> list[str]:
    """Team names in seed order from one standings table (its ranks are the seeds).

    Seeding across divisions needs one table: see :func:`seed_league`.
    """
    divisions = {row.division for row in rows}
    if len(divisions) > 1:
        raise PlayoffError(f"seeding needs one table, got divisions {sorted(divisions)}; use seed_league()")
    ordered = [row.team for row in sorted(rows, key=lambda row: row.rank)]
    if count is not None:
        if count > len(ordered):
            raise PlayoffError(f"cannot seed {count} teams from a table of {len(ordered)}")
        ordered = ordered[:count]
    return ordered


def seed_league(
    rules: StandingsRules,
    teams: Iterable[str],
    results: Iterable[GameResult],
    adjustments: Iterable[PointAdjustment] = (),
    count: int | None = None,
) -> list[str]:
    """Seeds over the whole league, divisions ignored, by the rules' standings order.

    Co-ed preset: "Seeding will be decided first by record, followed by total goals scored."
    """
    table = compute_standings(rules, dict.fromkeys(teams, SEEDING_TABLE), results, adjustments)
    return seeds_from_standings(table, count)


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket position order for a power-of-two size: 8 -> 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def build_bracket(seeds: Sequence[str]) -> Bracket:
    """A straight bracket for 2-16 teams given in seed order; top seeds get the byes."""
    names = list(seeds)
    if not MIN_TEAMS <= len(names) <= MAX_TEAMS:
        raise PlayoffError(f"a bracket takes {MIN_TEAMS} to {MAX_TEAMS} teams, got {len(names)}")
    if any(not isinstance(name, str) or not name for name in names):
        raise PlayoffError("every seed needs a team name")
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise PlayoffError(f"a team can hold only one seed: {', '.join(duplicates)}")

    size = 1
    while size < len(names):
        size *= 2
    entrants = {i: Entrant(i, name) for i, name in enumerate(names, start=1)}

    # Each slot is what reaches the next round from one position pair: an entrant (bye or
    # seeded straight in) or the id of the matchup whose winner will.
    slots: list[Entrant | str] = []
    first_round: list[Matchup] = []
    byes: list[Entrant] = []
    order = bracket_order(size)
    for high, low in zip(order[::2], order[1::2], strict=True):
        if low > len(names):
            byes.append(entrants[high])
            slots.append(entrants[high])
            continue
        matchup_id = f"R1-M{len(first_round) + 1}"
        first_round.append(Matchup(matchup_id, 1, entrants[high], entrants[low]))
        slots.append(matchup_id)

    rounds: list[tuple[Matchup, ...]] = [tuple(first_round)]
    round_number = 1
    while len(slots) > 1:
        round_number += 1
        matchups: list[Matchup] = []
        next_slots: list[Entrant | str] = []
        for top, bottom in zip(slots[::2], slots[1::2], strict=True):
            matchup_id = f"R{round_number}-M{len(matchups) + 1}"
            matchups.append(
                Matchup(
                    matchup_id,
                    round_number,
                    top=top if isinstance(top, Entrant) else None,
                    bottom=bottom if isinstance(bottom, Entrant) else None,
                    top_from=top if isinstance(top, str) else None,
                    bottom_from=bottom if isinstance(bottom, str) else None,
                )
            )
            next_slots.append(matchup_id)
        rounds.append(tuple(matchups))
        slots = next_slots
    return Bracket(seeds=tuple(names), rounds=tuple(rounds), byes=tuple(byes))


def advance(bracket: Bracket, matchup_id: str, winner: str) -> Bracket:
    """The bracket with ``winner`` recorded for a matchup and moved into the next round.

    A result may be corrected while the next round's game is still unplayed; afterwards the
    later result must be corrected first.
    """
    matchup = bracket.matchup(matchup_id)
    if not matchup.ready:
        waiting = [m for m in (matchup.top_from, matchup.bottom_from) if m]
        raise PlayoffError(f"{matchup_id} is not set yet: waiting for the winner of {' and '.join(waiting)}")
    assert matchup.top is not None and matchup.bottom is not None  # for the type checker
    sides = {matchup.top.team: matchup.top, matchup.bottom.team: matchup.bottom}
    if winner not in sides:
        raise PlayoffError(
            f"{winner!r} is not playing in {matchup_id}: it is {matchup.top.team} v {matchup.bottom.team}"
        )
    entrant = sides[winner]
    if matchup.winner == entrant:
        return bracket

    feeds = _fed_by(bracket, matchup_id)
    if feeds is not None and feeds[0].winner is not None:
        raise PlayoffError(
            f"{feeds[0].matchup_id} already has a winner ({feeds[0].winner.team}); "
            f"correct it before changing {matchup_id}"
        )

    updated = {matchup_id: replace(matchup, winner=entrant)}
    if feeds is not None:
        next_matchup, side = feeds
        updated[next_matchup.matchup_id] = (replace(next_matchup, top=entrant) if side == "top"
                                            else replace(next_matchup, bottom=entrant))
    rounds = tuple(tuple(updated.get(m.matchup_id, m) for m in round_matchups) for round_matchups in bracket.rounds)
    return replace(bracket, rounds=rounds)


def _fed_by(bracket: Bracket, matchup_id: str) -> tuple[Matchup, Literal["top", "bottom"]] | None:
    """The next-round matchup (and side) that this matchup's winner goes to; None for the final."""
    for round_matchups in bracket.rounds:
        for m in round_matchups:
            if m.top_from == matchup_id:
                return m, "top"
            if m.bottom_from == matchup_id:
                return m, "bottom"
    return None


def render_bracket(bracket: Bracket, width: int = 28) -> str:
    """The bracket as narrow monospace text for a phone (put it in a code block).

    One line per team, ``>`` marks a winner; no line is wider than ``width`` characters.
    """
    if width < 16:
        raise PlayoffError("render width must be at least 16 characters")
    lines: list[str] = []
    champion = bracket.champion
    lines.append(_fit(f"Champion: {champion}" if champion else "Champion: TBD", width))
    if bracket.byes:
        # the byes are always the top seeds: 1, or 1 to k
        count = len(bracket.byes)
        lines.append(_fit("Bye: seed 1" if count == 1 else f"Byes: seeds 1-{count}", width))
    for number, round_matchups in enumerate(bracket.rounds, start=1):
        lines.append("")
        lines.append(_fit(f"== {bracket.round_name(number)} ==", width))
        for m in round_matchups:
            lines.append(_fit(f"[{m.matchup_id}]", width))
            lines.append(_side_line(m.top, m.top_from, m.winner, width))
            lines.append(_side_line(m.bottom, m.bottom_from, m.winner, width))
    return "\n".join(lines)


def _side_line(entrant: Entrant | None, source: str | None, winner: Entrant | None, width: int) -> str:
    if entrant is None:
        return _fit(f"     winner {source}", width)
    mark = ">" if winner == entrant else " "
    return _fit(f"{mark}{entrant.seed:>3} {entrant.team}", width)


def _fit(text: str, width: int) -> str:
    """Cut a line to the width, marking the cut with a final '~' (ASCII: even on every phone)."""
    return text if len(text) <= width else text[: width - 1] + "~"


# --- settling seeds: teams level on every criterion -----------------------------------------------
def level_groups(rows: Sequence[StandingsRow], rules: StandingsRules) -> list[tuple[str, ...]]:
    """Groups of teams level on every criterion, which the table placed by name, best first."""
    groups: list[list[StandingsRow]] = []
    previous: StandingsRow | None = None
    for row in sorted(rows, key=lambda r: r.rank):
        if row.tiebreak == TEAM_NAME_FALLBACK:
            if groups and groups[-1][-1] is previous and level_key(row, rules) == level_key(groups[-1][-1], rules):
                groups[-1].append(row)
            else:
                groups.append([row])
        previous = row
    return [tuple(r.team for r in g) for g in groups if len(g) > 1]


def settled_order(rows: Sequence[StandingsRow], rules: StandingsRules,
                  orders: Sequence[Sequence[str]]) -> tuple[list[str], list[tuple[str, ...]]]:
    """Team names in seed order, each level group in the order a commissioner set for it (the latest
    order naming all its teams wins); and the level groups no order settles (still by name)."""
    names = [r.team for r in sorted(rows, key=lambda r: r.rank)]
    unsettled: list[tuple[str, ...]] = []
    for group in level_groups(rows, rules):
        order = next((o for o in reversed(orders) if set(group) <= set(o)), None)
        if order is None:
            unsettled.append(group)
            continue
        ranked = sorted(group, key=list(order).index)
        slots = sorted(names.index(t) for t in group)
        for slot, team in zip(slots, ranked, strict=True):
            names[slot] = team
    return names, unsettled


def check_seed_order(rows: Sequence[StandingsRow], rules: StandingsRules, teams: Sequence[str]) -> None:
    """A commissioner's order must name exactly the teams of one level group, each once."""
    if len(teams) < 2 or len(set(teams)) != len(teams):
        raise PlayoffError("name at least two different teams, best seed first")
    for group in level_groups(rows, rules):
        if set(group) == set(teams):
            return
    groups = "; ".join(", ".join(g) for g in level_groups(rows, rules)) or "none"
    raise PlayoffError(f"{', '.join(teams)} aren't the teams of one group level on every seeding criterion "
                       f"(level now: {groups})")


# --- who the rulebook puts in the bracket -------------------------------------------------------
def bracket_size(rules: StandingsRules, draw: Sequence[str], asked: int | None) -> int:
    """How many teams a bracket of this draw (its teams, best seed first) holds: every team where all teams
    qualify (youth 1.18, co-ed "guaranteed ... one playoff game"), else the number asked. PlayoffError says
    why a number won't do, naming the teams a too-small bracket would leave out and the rule."""
    in_draw = len(draw)
    if rules.standings_all_teams_qualify:
        cite = rules.standings_citations.all_teams_qualify or "a league setting"
        if asked is not None and asked < in_draw:
            out = list(draw[asked:])
            named = ", ".join(out[:5]) + (f" and {len(out) - 5} more" if len(out) > 5 else "")
            raise PlayoffError(f"every team qualifies for the playoffs ({cite}): a bracket of {asked} would leave "
                               f"out {named}; take all {in_draw}")
        if in_draw > MAX_TEAMS:
            raise PlayoffError(f"every team qualifies for the playoffs ({cite}), and a bracket holds at most "
                               f"{MAX_TEAMS} teams, not {in_draw}")
        asked = in_draw if asked is None else asked
    if asked is None:
        raise PlayoffError(f"say how many teams make the playoffs ({MIN_TEAMS} to {MAX_TEAMS})")
    if asked > in_draw:
        raise PlayoffError(f"only {in_draw} teams are in the draw; a bracket of {asked} needs that many")
    if asked < MIN_TEAMS:
        raise PlayoffError(f"a bracket takes {MIN_TEAMS} to {MAX_TEAMS} teams")
    return asked


def short_of_seeding_games(rules: StandingsRules, rows: Sequence[StandingsRow]) -> list[tuple[str, int]]:
    """Teams that have played fewer than the seeding games each is guaranteed (co-ed: 2), with how many
    they have played, in table order; empty where the rules guarantee none."""
    guaranteed = rules.standings_seeding_games_guaranteed
    return [(row.team, row.gp) for row in sorted(rows, key=lambda r: r.rank) if row.gp < guaranteed]


def seeding_games_note(rules: StandingsRules, short: Sequence[tuple[str, int]]) -> str:
    """The warning a bracket seeded too early carries: who is short of their guaranteed games, and the rule."""
    if not short:
        return ""
    guaranteed = rules.standings_seeding_games_guaranteed
    cite = rules.standings_citations.seeding_games or "a league setting"
    teams = ", ".join(f"{team} {played}" for team, played in short)
    return (f"Seeded before every team has played its {guaranteed} seeding games ({cite}: each team is "
            f"guaranteed {guaranteed}). Games played so far: {teams}. Seed again with /bracket create "
            "replace:True once they are played.")
