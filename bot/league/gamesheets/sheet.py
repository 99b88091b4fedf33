"""Who is on a team's game sheet, and who may change it.

Youth 2.3: "Before each game, the timekeeper is responsible for making sure both teams have filled out
the game sheet with their line-ups." The sheet is what "played" means everywhere (games played,
attendance, goals by players not on it, youth 3.4 (1)).

Choices the rulebooks leave open, decided here:
- Pre-filled: a team's sheet starts as what its answers say: the rostered players whose answer reads
  "in" (check-ins as /whoisin reads them, away ranges included), the spares who took a spot, and the
  guests who count (cleared, or the league needs no clearing). A suspended player is never pre-filled.
- It follows those answers until it is frozen: when the team's sheet is confirmed or the game has its
  result. A pre-filled line whose reason is gone (the player answered "out", the spare left) goes; a
  line someone added by hand stays, and a line someone removed by hand stays removed (a later answer
  doesn't bring it back).
- Changes: a captain changes their own team's sheet until the game starts; the referee, the
  timekeeper and the commissioners change either sheet at any time (a correction after the game).
  Each change is logged with who made it. Confirming is the captain's (until the result) or an
  official's or a commissioner's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from bot.league.vocabulary import Position

Source = Literal["checkin", "spare", "guest", "added"]
SOURCES: tuple[Source, ...] = get_args(Source)
#: Lines that follow the team's answers until the sheet is frozen (an added line is a person's decision).
PREFILLED: frozenset[str] = frozenset({"checkin", "spare", "guest"})
SOURCE_WORDS = {"checkin": "", "spare": "spare", "guest": "guest", "added": ""}


def line_key(player_id: int | None, guest_id: int | None) -> str:
    """Who a line is about: a league player, else a guest (one line each per game)."""
    if player_id is not None:
        return f"player:{player_id}"
    if guest_id is not None:
        return f"guest:{guest_id}"
    raise ValueError("a sheet line is about a player or a guest")


@dataclass(frozen=True)
class Candidate:
    """Someone the team's answers put on its sheet."""

    player_id: int | None
    guest_id: int | None
    name: str
    position: Position
    source: Source

    @property
    def key(self) -> str:
        return line_key(self.player_id, self.guest_id)


@dataclass(frozen=True)
class Entry:
    """A stored line of a team's sheet (``removed``: taken off by hand, kept so it isn't pre-filled again)."""

    id: int
    player_id: int | None
    guest_id: int | None
    name: str
    position: Position
    source: Source
    number: int | None = None
    removed: bool = False

    @property
    def key(self) -> str:
        return line_key(self.player_id, self.guest_id)


@dataclass(frozen=True)
class Line:
    """A line as the sheet shows it: stored (``entry_id``) or about to be pre-filled (None)."""

    entry_id: int | None
    player_id: int | None
    guest_id: int | None
    name: str
    position: Position
    source: Source
    number: int | None = None

    @property
    def key(self) -> str:
        return line_key(self.player_id, self.guest_id)

    @property
    def label(self) -> str:
        """"#7 Alice Hart", "Gus Lee (goalie)", "Jo Walker (guest)"."""
        words = [w for w in (SOURCE_WORDS[self.source], "goalie" if self.position == "goalie" else "") if w]
        text = f"#{self.number} {self.name}" if self.number is not None else self.name
        return f"{text} ({', '.join(words)})" if words else text


@dataclass(frozen=True)
class Sync:
    """What brings a stored sheet up to the team's answers: lines to add, pre-filled lines to drop."""

    add: tuple[Candidate, ...]
    drop: tuple[int, ...]

    @property
    def changes(self) -> bool:
        return bool(self.add or self.drop)


def sync(candidates: Iterable[Candidate], entries: Iterable[Entry]) -> Sync:
    """Pre-fill who the answers put on the sheet and isn't on it (nor taken off by hand); drop pre-filled
    lines whose reason is gone. Lines added by hand are left alone."""
    stored = {e.key: e for e in entries}
    wanted: dict[str, Candidate] = {}
    for c in candidates:
        wanted.setdefault(c.key, c)
    add = tuple(c for key, c in wanted.items() if key not in stored)
    drop = tuple(e.id for key, e in stored.items() if not e.removed and e.source in PREFILLED and key not in wanted)
    return Sync(add, drop)


def _order(line: Line) -> tuple[int, str]:
    return (line.position == "goalie", line.name.casefold())


def lines(candidates: Iterable[Candidate], entries: Iterable[Entry], *, frozen: bool) -> list[Line]:
    """The sheet as it reads now: skaters, then goalies, by name. A frozen sheet is its stored lines; an
    open one also follows the answers (what ``sync`` would store), so reading it writes nothing."""
    stored = list(entries)
    plan = Sync((), ()) if frozen else sync(candidates, stored)
    dropped = set(plan.drop)
    out = [Line(e.id, e.player_id, e.guest_id, e.name, e.position, e.source, e.number)
           for e in stored if not e.removed and e.id not in dropped]
    out += [Line(None, c.player_id, c.guest_id, c.name, c.position, c.source) for c in plan.add]
    return sorted(out, key=_order)


# --- who may change a sheet -------------------------------------------------------------------------------
Refusal = Literal["not_allowed", "other_team", "started"]


@dataclass(frozen=True)
class Changer:
    """Who asks, in the sheet's terms: a commissioner, an official (referee or timekeeper role), and the
    teams they captain (captain role and marked captain)."""

    commissioner: bool = False
    official: bool = False
    captain_of: frozenset[int] = frozenset()


def may_change(who: Changer, team_id: int, *, started: bool) -> Refusal | None:
    """None when ``who`` may add to or remove from ``team_id``'s sheet now, else why not."""
    if who.commissioner or who.official:
        return None
    if not who.captain_of:
        return "not_allowed"
    if team_id not in who.captain_of:
        return "other_team"
    return "started" if started else None


def may_confirm(who: Changer, team_id: int, *, final: bool) -> Refusal | None:
    """None when ``who`` may confirm ``team_id``'s sheet: its captain until the result, an official or a
    commissioner any time."""
    if who.commissioner or who.official:
        return None
    if not who.captain_of:
        return "not_allowed"
    if team_id not in who.captain_of:
        return "other_team"
    return "started" if final else None


def played_ids(sheet: Sequence[Line]) -> frozenset[int]:
    """The league players a sheet says played (guests who aren't league players are not counted)."""
    return frozenset(line.player_id for line in sheet if line.player_id is not None)
