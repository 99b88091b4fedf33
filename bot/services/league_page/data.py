"""What the public league page shows, as plain values: the HTML and the JSON are both made from this.

Only what the league already shows every member, and less: team and division names, scores, the
schedule, the bracket, the statistics leaders by name (juniors without a Discord account by their
initials unless the league chose full names: bot/league/league_page.py). Never a Discord id, a gender
category, a date of birth, a penalty or a suspension, or a reason a commissioner typed (adjustments
show as points only).
Penalty minutes are left out of the leaders too: on a page anyone can read they are discipline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: Raise it when the page shows something differently: part of every validator, so browsers take the new page.
FORMAT = 1
#: Games listed in "Upcoming" and in "Recent results".
UPCOMING = 10
RECENT = 10


@dataclass(frozen=True)
class TeamLine:
    rank: int
    team: str
    gp: int
    w: int
    l: int  # noqa: E741  (the table's own column name)
    t: int
    otl: int | None  # None: the league counts no overtime losses
    gf: int
    ga: int
    pts: int
    pct: str | None  # the winning percentage where it orders the table (".750"), else None
    level: bool  # level with another team on every criterion (placed by name for now)


@dataclass(frozen=True)
class DivisionTable:
    name: str  # "" for a league without divisions
    rows: tuple[TeamLine, ...]


@dataclass(frozen=True)
class GameLine:
    code: str
    starts_at: datetime  # in the league's time zone
    home: str
    away: str
    venue: str
    kind: str  # regular | playoff | ...
    cancelled: bool = False


@dataclass(frozen=True)
class ResultLine:
    code: str
    starts_at: datetime  # in the league's time zone
    home: str
    away: str
    home_score: int
    away_score: int
    decided: str  # regulation | overtime | shootout | forfeit
    forfeited_by: str | None = None
    shootout: tuple[int, int] | None = None


@dataclass(frozen=True)
class Side:
    seed: int
    team: str


@dataclass(frozen=True)
class MatchupLine:
    matchup_id: str
    top: Side | None
    bottom: Side | None
    top_from: str | None
    bottom_from: str | None
    winner: str | None
    game: str | None


@dataclass(frozen=True)
class RoundLine:
    name: str
    matchups: tuple[MatchupLine, ...]


@dataclass(frozen=True)
class BracketLine:
    division: str  # "" for the whole league's
    rounds: tuple[RoundLine, ...]
    byes: tuple[Side, ...]
    champion: str | None


@dataclass(frozen=True)
class Leader:
    place: str  # "1", "T2"
    name: str
    team: str | None
    value: int


@dataclass(frozen=True)
class Board:
    category: str  # points | goals | assists | gp
    title: str
    leaders: tuple[Leader, ...]
    more_level: int = 0


@dataclass(frozen=True)
class PageData:
    league: str
    season: str | None
    timezone: str
    divisions: tuple[DivisionTable, ...]
    order_text: str
    forfeit_text: str
    upcoming: tuple[GameLine, ...]
    results: tuple[ResultLine, ...]
    brackets: tuple[BracketLine, ...]
    boards: tuple[Board, ...]
    #: The league's calendar, relative to the page ("calendar.ics"); None where the bot serves no feeds.
    calendar: str | None = "calendar.ics"

    @property
    def has_levels(self) -> bool:
        return any(row.level for d in self.divisions for row in d.rows)


def _side(side: Side | None) -> dict[str, Any] | None:
    return None if side is None else {"seed": side.seed, "team": side.team}


def as_json(data: PageData) -> dict[str, Any]:
    """The same data for scripts and a league's own website: ``/l/<slug>/data.json``."""
    return {
        "format": FORMAT,
        "league": data.league,
        "season": data.season,
        "timezone": data.timezone,
        "standings": {
            "divisions": [{"name": d.name or None, "rows": [
                {"rank": r.rank, "team": r.team, "gp": r.gp, "w": r.w, "l": r.l, "t": r.t, "otl": r.otl,
                 "gf": r.gf, "ga": r.ga, "pts": r.pts, "pct": r.pct, "level": r.level} for r in d.rows]}
                for d in data.divisions],
            "order": data.order_text,
            "forfeits": data.forfeit_text or None,
        },
        "upcoming": [{"game": g.code, "starts_at": g.starts_at.isoformat(), "home": g.home, "away": g.away,
                      "venue": g.venue or None, "kind": g.kind, "cancelled": g.cancelled} for g in data.upcoming],
        "results": [{"game": r.code, "starts_at": r.starts_at.isoformat(), "home": r.home, "away": r.away,
                     "home_score": r.home_score, "away_score": r.away_score, "decided": r.decided,
                     "forfeited_by": r.forfeited_by,
                     "shootout": list(r.shootout) if r.shootout else None} for r in data.results],
        "brackets": [{"division": b.division or None, "champion": b.champion,
                      "byes": [_side(s) for s in b.byes],
                      "rounds": [{"name": rd.name, "matchups": [
                          {"id": m.matchup_id, "top": _side(m.top), "bottom": _side(m.bottom),
                           "top_from": m.top_from, "bottom_from": m.bottom_from, "winner": m.winner,
                           "game": m.game} for m in rd.matchups]} for rd in b.rounds]}
                     for b in data.brackets],
        "leaders": [{"category": b.category, "title": b.title, "more_level": b.more_level,
                     "rows": [{"place": x.place, "name": x.name, "team": x.team, "value": x.value}
                              for x in b.leaders]} for b in data.boards],
        "calendar": data.calendar,
    }
