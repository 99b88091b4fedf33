"""The table: results in, each division's rows out, every row saying why it sits where it does."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.league.standings.presets import (
    DECIDED,
    GAME_KINDS,
    TEAM_NAME_FALLBACK,
    Decided,
    GameKind,
    StandingsError,
    StandingsRules,
    is_count,
    is_int,
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, as the scorekeeper reported it.

    A tie is a game with equal goals decided in regulation or overtime (regular-season ties stand
    in the youth league, rule 2.13A). A shootout winner wins the game, but shootout goals are a
    separate statistic and never count as goals for or against (youth rule 2.14, rule 1.11 (3)).
    For a forfeit, ``forfeit_team`` names the side that forfeited; the recorded goals are ignored
    and the rules' forfeit score counts instead (youth 2.4: 5-0), or no goals at all where the rules
    don't count a forfeit's goals (``standings_forfeit_goals_count``: co-ed).
    """

    game_id: str
    home: str
    away: str
    home_goals: int
    away_goals: int
    decided: Decided = "regulation"
    shootout_home: int | None = None
    shootout_away: int | None = None
    forfeit_team: str | None = None
    penalty_waived: bool = False
    kind: GameKind = "regular"

    def __post_init__(self) -> None:
        def bad(why: str) -> StandingsError:
            return StandingsError(f"game {self.game_id}: {why}")

        if not self.home or not self.away:
            raise bad("both teams must be named")
        if self.home == self.away:
            raise bad(f"{self.home} cannot play itself")
        if self.decided not in DECIDED:
            raise bad(f"decided must be one of {sorted(DECIDED)}, not {self.decided!r}")
        if self.kind not in GAME_KINDS:
            raise bad(f"kind must be one of {sorted(GAME_KINDS)}, not {self.kind!r}")
        for name in ("home_goals", "away_goals"):
            if not is_count(getattr(self, name)):
                raise bad(f"{name} must be a whole number >= 0")
        if self.decided == "shootout":
            if not (is_count(self.shootout_home) and is_count(self.shootout_away)):
                raise bad("a shootout needs both shootout scores (whole numbers >= 0)")
            if self.shootout_home == self.shootout_away:
                raise bad("a shootout has a winner: the shootout scores cannot be equal")
            if self.home_goals != self.away_goals:
                raise bad("a game goes to a shootout only when the score is tied")
        elif self.shootout_home is not None or self.shootout_away is not None:
            raise bad("shootout scores are only for games decided by a shootout")
        if self.decided == "forfeit":
            if self.forfeit_team not in (self.home, self.away):
                raise bad("a forfeit names the forfeiting side: the home or the away team")
        elif self.forfeit_team is not None or self.penalty_waived:
            raise bad("forfeit_team and penalty_waived are only for forfeits")

    @property
    def shootout(self) -> tuple[int, int]:
        """The shootout's scores, home first; only for a game decided by one (checked above)."""
        assert self.shootout_home is not None and self.shootout_away is not None
        return self.shootout_home, self.shootout_away


@dataclass(frozen=True, slots=True)
class PointAdjustment:
    """Points a commissioner adds or removes outside any game (youth rule 1.22: minus 1 or 2)."""

    team: str
    points: int
    reason: str



@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One team's line in its division's table, with its place and why it got it."""

    team: str
    division: str
    rank: int  # 1-based place within the division; unique (see TEAM_NAME_FALLBACK)
    gp: int
    w: int  # every win: regulation, overtime, shootout, by forfeit
    l: int  # noqa: E741  (the table's own column name)
    t: int
    otl: int  # overtime/shootout losses, only when rules.points_otl is set (else in ``l``)
    pts: int  # game points - forfeit penalties + commissioner adjustments
    gf: int  # goals for, shootout goals excluded (forfeits at the forfeit score, where their goals count)
    ga: int
    so_w: int  # shootout wins (also counted in w)
    so_l: int  # shootout losses (also counted in l or otl)
    so_gf: int  # shootout goals: a separate statistic (youth rule 2.14)
    so_ga: int
    forfeits: int  # games this team forfeited (counted as losses)
    adjustment: int  # net commissioner adjustments (rule 1.22), included in pts
    tiebreak: str | None  # criterion that separated it from tied_with; None when not level
    tied_with: tuple[str, ...]  # teams level with it on the primary criterion

    @property
    def goal_diff(self) -> int:
        return self.gf - self.ga

    @property
    def win_pct(self) -> float:
        """Wins plus half the ties, per game played (0.0 before any game)."""
        return (self.w + self.t / 2) / self.gp if self.gp else 0.0


# A team's counters while the table is built. *_FF: won/lost by forfeit; PEN: forfeit deductions.
(_W_REG, _W_OT, _W_SO, _W_FF, _L_REG, _L_OT, _L_SO, _L_FF,
 _T, _GF, _GA, _SO_GF, _SO_GA, _PEN) = range(14)  # fmt: skip
_COUNTERS = 14


def compute_standings(
    rules: StandingsRules,
    teams: Mapping[str, str],
    results: Iterable[GameResult],
    adjustments: Iterable[PointAdjustment] = (),
) -> list[StandingsRow]:
    """Every team's row, division by division (in order of first appearance in ``teams``), each
    division ordered by the rules. Teams without games appear with zeros.

    ``teams`` maps team name to division. A result or adjustment naming a team that is not in
    ``teams`` raises :class:`StandingsError`. Only games whose kind is in
    ``rules.standings_counted_kinds`` count.
    """
    games = results if isinstance(results, Sequence) else list(results)
    counters = _aggregate(rules, teams, games)
    net_adjustment = dict.fromkeys(teams, 0)
    for adj in adjustments:
        if adj.team not in net_adjustment:
            raise StandingsError(f"point adjustment for unknown team {adj.team!r} ({adj.reason})")
        if not is_int(adj.points):
            raise StandingsError(f"point adjustment for {adj.team} must be a whole number")
        net_adjustment[adj.team] += adj.points

    rows = {
        team: _row_values(rules, team, division, counters[team], net_adjustment[team])
        for team, division in teams.items()
    }
    divisions: dict[str, list[str]] = {}
    for team, division in teams.items():
        divisions.setdefault(division, []).append(team)
    head_to_head = (
        _head_to_head_points(rules, divisions, rows, games) if "head_to_head" in rules.standings_tiebreakers else {}
    )

    table: list[StandingsRow] = []
    for division_teams in divisions.values():
        placed = _order_division(rules, division_teams, rows, head_to_head)
        for rank, (team, tiebreak, tied_with) in enumerate(placed, start=1):
            table.append(StandingsRow(rank=rank, tiebreak=tiebreak, tied_with=tied_with, **rows[team]))
    return table


def forfeit_note(rules: StandingsRules) -> str:
    """The table's footnote on forfeits: whether their goals count, and the rule that says so."""
    cited = rules.standings_citations.forfeit_goals or "rulebook silent: a league setting"
    if rules.standings_forfeit_goals_count:
        won, lost = rules.standings_forfeit_score
        return f"Forfeits count as a {won}-{lost} win and loss, goals included ({cited})."
    return f"Forfeits count as a win and a loss; their goals aren't counted ({cited})."


def _aggregate(rules: StandingsRules, teams: Mapping[str, str], games: Iterable[GameResult]) -> dict[str, list[int]]:
    """The single pass over the results: each team's counters."""
    counted = frozenset(rules.standings_counted_kinds)
    forfeit_win, forfeit_lose = rules.standings_forfeit_score if rules.standings_forfeit_goals_count else (0, 0)
    counters = {team: [0] * _COUNTERS for team in teams}
    get = counters.get
    for g in games:
        if g.kind not in counted:
            continue
        h = get(g.home)
        a = get(g.away)
        if h is None or a is None:
            unknown = g.home if h is None else g.away
            raise StandingsError(f"game {g.game_id}: team {unknown!r} is not in the league's teams")
        decided = g.decided
        if decided == "forfeit":
            winner, loser = (h, a) if g.forfeit_team == g.away else (a, h)
            winner[_W_FF] += 1
            winner[_GF] += forfeit_win
            winner[_GA] += forfeit_lose
            loser[_L_FF] += 1
            loser[_GF] += forfeit_lose
            loser[_GA] += forfeit_win
            if not g.penalty_waived:
                loser[_PEN] += 1
            continue
        hg = g.home_goals
        ag = g.away_goals
        h[_GF] += hg
        h[_GA] += ag
        a[_GF] += ag
        a[_GA] += hg
        if decided == "shootout":
            sh, sa = g.shootout
            h[_SO_GF] += sh
            h[_SO_GA] += sa
            a[_SO_GF] += sa
            a[_SO_GA] += sh
            if sh > sa:
                h[_W_SO] += 1
                a[_L_SO] += 1
            else:
                a[_W_SO] += 1
                h[_L_SO] += 1
        elif hg == ag:
            h[_T] += 1
            a[_T] += 1
        elif decided == "regulation":
            if hg > ag:
                h[_W_REG] += 1
                a[_L_REG] += 1
            else:
                a[_W_REG] += 1
                h[_L_REG] += 1
        elif hg > ag:
            h[_W_OT] += 1
            a[_L_OT] += 1
        else:
            a[_W_OT] += 1
            h[_L_OT] += 1
    return counters


def _row_values(rules: StandingsRules, team: str, division: str, c: list[int], adjustment: int) -> dict:
    """The row's columns (all but rank and tiebreak) from a team's counters."""
    wins = c[_W_REG] + c[_W_OT] + c[_W_SO] + c[_W_FF]
    extra_time_losses = c[_L_OT] + c[_L_SO]
    if rules.points_otl is None:
        losses, otl, otl_points = c[_L_REG] + c[_L_FF] + extra_time_losses, 0, 0
    else:
        losses, otl, otl_points = c[_L_REG] + c[_L_FF], extra_time_losses, rules.points_otl
    pts = (
        wins * rules.points_win
        + c[_T] * rules.points_tie
        + losses * rules.points_loss
        + otl * otl_points
        - c[_PEN] * rules.points_forfeit_penalty
        + adjustment
    )
    return {
        "team": team,
        "division": division,
        "gp": wins + losses + otl + c[_T],
        "w": wins,
        "l": losses,
        "t": c[_T],
        "otl": otl,
        "pts": pts,
        "gf": c[_GF],
        "ga": c[_GA],
        "so_w": c[_W_SO],
        "so_l": c[_L_SO],
        "so_gf": c[_SO_GF],
        "so_ga": c[_SO_GA],
        "forfeits": c[_L_FF],
        "adjustment": adjustment,
    }


def level_key(row: StandingsRow, rules: StandingsRules) -> tuple[int | Fraction, ...]:
    """A row's value on each of the rules' criteria that read only its own row (head-to-head aside):
    two rows the table placed by name with the same key are level on every criterion."""
    counters = {"gp": row.gp, "w": row.w, "l": row.l, "t": row.t, "otl": row.otl, "pts": row.pts, "gf": row.gf,
                "ga": row.ga}
    return tuple(_criterion_value(c, counters, rules) for c in rules.standings_tiebreakers if c != "head_to_head")


def _criterion_value(criterion: str, row: dict, rules: StandingsRules) -> int | Fraction:
    """A team's value for a criterion that needs only its own row (larger ranks first)."""
    gp = row["gp"]
    if criterion == "points":
        return row["pts"]
    if criterion == "points_pct":
        available = gp * rules.points_win
        return Fraction(row["pts"], available) if available else Fraction(0)
    if criterion == "win_pct":
        return Fraction(2 * row["w"] + row["t"], 2 * gp) if gp else Fraction(0)
    if criterion == "wins":
        return row["w"]
    if criterion == "fewest_losses":
        return -(row["l"] + row["otl"])
    if criterion == "goal_diff":
        return row["gf"] - row["ga"]
    if criterion == "goals_for":
        return row["gf"]
    if criterion == "fewest_goals_against":
        return -row["ga"]
    raise AssertionError(f"unhandled criterion {criterion}")  # guarded by StandingsRules


def _head_to_head_points(
    rules: StandingsRules,
    divisions: Mapping[str, list[str]],
    rows: Mapping[str, dict],
    games: Iterable[GameResult],
) -> dict[str, int]:
    """Mini-tables: for each group of teams that reaches the head-to-head step (level on every
    earlier criterion), the points each took in the games among that group.

    The groups are known before any game is read again: the criteria before head_to_head depend
    only on the rows. One extra pass then reads just the games between two teams of one group.
    Game points only: a forfeit counts as a win/loss, but the forfeit deduction and commissioner
    adjustments are standings sanctions, not results between the teams.
    """
    order = rules.standings_tiebreakers
    before = order[: order.index("head_to_head")]
    group_of: dict[str, int] = {}
    for division_teams in divisions.values():
        level: dict[tuple, list[str]] = {}
        for team in division_teams:
            key = tuple(_criterion_value(c, rows[team], rules) for c in before)
            level.setdefault(key, []).append(team)
        for members in level.values():
            if len(members) > 1:
                group = len(group_of)
                group_of.update(dict.fromkeys(members, group))
    points = dict.fromkeys(group_of, 0)
    if not group_of:
        return points
    counted = frozenset(rules.standings_counted_kinds)
    get = group_of.get
    for g in games:
        home_group = get(g.home)
        if home_group is None or home_group != get(g.away) or g.kind not in counted:
            continue
        home_points, away_points = _game_points(rules, g)
        points[g.home] += home_points
        points[g.away] += away_points
    return points


def _game_points(rules: StandingsRules, g: GameResult) -> tuple[int, int]:
    """Points the home and the away team took from one game, before any deduction."""
    if g.decided == "forfeit":
        home_won, extra_time = g.forfeit_team == g.away, False
    elif g.decided == "shootout":
        sh, sa = g.shootout
        home_won, extra_time = sh > sa, True
    elif g.home_goals == g.away_goals:
        return rules.points_tie, rules.points_tie
    else:
        home_won, extra_time = g.home_goals > g.away_goals, g.decided == "overtime"
    losing = rules.points_loss
    if extra_time and rules.points_otl is not None:
        losing = rules.points_otl
    return (rules.points_win, losing) if home_won else (losing, rules.points_win)


def _order_division(
    rules: StandingsRules,
    division_teams: list[str],
    rows: Mapping[str, dict],
    head_to_head: Mapping[str, int],
) -> list[tuple[str, str | None, tuple[str, ...]]]:
    """(team, deciding criterion, teams level on the primary criterion) in table order."""
    criteria = (*rules.standings_tiebreakers, TEAM_NAME_FALLBACK)
    placed: list[tuple[str, str | None, tuple[str, ...]]] = []

    def resolve(group: list[str], level: int, tied_with: dict[str, tuple[str, ...]]) -> None:
        criterion = criteria[level]
        if criterion == TEAM_NAME_FALLBACK:
            for team in sorted(group, key=lambda name: (name.casefold(), name)):
                placed.append((team, criterion, tied_with[team]))
            return
        if criterion == "head_to_head":
            values: Mapping[str, int | Fraction] = {t: head_to_head.get(t, 0) for t in group}
        else:
            values = {team: _criterion_value(criterion, rows[team], rules) for team in group}
        ranked = sorted(group, key=values.__getitem__, reverse=True)
        for _, same in itertools.groupby(ranked, key=values.__getitem__):
            level_group = list(same)
            if level == 0:
                tied_with = {t: tuple(o for o in level_group if o != t) for t in level_group}
            if len(level_group) == 1:
                team = level_group[0]
                placed.append((team, criterion if level else None, tied_with.get(team, ())))
            else:
                resolve(level_group, level + 1, tied_with)

    resolve(list(division_teams), 0, {})
    return placed
