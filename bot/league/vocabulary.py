"""The league's fixed words, shared by the rules, storage, imports and commands.

Each is typed as its words, so a check like ``if gender not in GENDERS: raise`` leaves a value the
type checker knows is one of them (the rules' own names for these types say the same words).
"""

from typing import Literal

Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]
Position = Literal["skater", "goalie"]
GameKind = Literal["regular", "seeding", "playoff"]
GameStatus = Literal["scheduled", "final", "cancelled"]
Decided = Literal["regulation", "overtime", "shootout", "forfeit"]
CheckInStatus = Literal["in", "out", "maybe"]

GENDERS: tuple[Gender, ...] = ("woman", "non-binary", "man", "prefer-not-to-say")
COUNTS_TOWARD_WOMEN_MINIMUM: tuple[Gender, ...] = ("woman", "non-binary")
POSITIONS: tuple[Position, ...] = ("skater", "goalie")
GAME_KINDS: tuple[GameKind, ...] = ("regular", "seeding", "playoff")
GAME_STATUSES: tuple[GameStatus, ...] = ("scheduled", "final", "cancelled")
DECISIONS: tuple[Decided, ...] = ("regulation", "overtime", "shootout", "forfeit")
CHECKIN_STATUSES: tuple[CheckInStatus, ...] = ("in", "out", "maybe")
