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

# How people write these words in a spreadsheet: each spelling (compared without case, spaces,
# hyphens, underscores or dots) -> the word it means. A file written for another tool or by hand
# says "F", "Female" or "G"; refusing those made commissioners rewrite whole columns.
_GENDER_SPELLINGS: dict[Gender, tuple[str, ...]] = {
    "woman": ("woman", "women", "w", "f", "female", "girl", "lady"),
    "non-binary": ("non-binary", "nonbinary", "non binary", "nb", "enby", "x"),
    "man": ("man", "men", "m", "male", "boy", "guy"),
    "prefer-not-to-say": ("prefer-not-to-say", "prefer not to say", "undisclosed", "private", "pnts"),
}
_POSITION_SPELLINGS: dict[Position, tuple[str, ...]] = {
    # Every position but goalie is a skater to the lineup rules, so field positions are accepted too.
    "skater": ("skater", "skaters", "s", "player", "field player", "forward", "fwd", "f", "centre", "center",
               "c", "wing", "winger", "defence", "defense", "defenceman", "defenseman", "defender", "d",
               "midfielder", "midfield", "mid", "striker"),
    "goalie": ("goalie", "goalies", "g", "goaltender", "goalkeeper", "keeper", "gk", "netminder", "goal", "tender"),
}


def _folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch not in " -_.")


GENDER_SPELLINGS: dict[str, Gender] = {_folded(s): g for g, spellings in _GENDER_SPELLINGS.items()
                                       for s in spellings}
POSITION_SPELLINGS: dict[str, Position] = {_folded(s): p for p, spellings in _POSITION_SPELLINGS.items()
                                           for s in spellings}


def read_gender(text: str) -> Gender | None:
    """The gender category a spreadsheet cell means ("F", "Female", "nb"), or None if it is none of them."""
    return GENDER_SPELLINGS.get(_folded(text))


def read_position(text: str) -> Position | None:
    """The position a spreadsheet cell means ("G", "Goaltender", "Player"), or None if it is none of them."""
    return POSITION_SPELLINGS.get(_folded(text))


def accepted_spellings(kind: str) -> str:
    """The accepted spellings, grouped by the word they mean, for an error message."""
    groups: list[tuple[str, tuple[str, ...]]] = (
        list(_GENDER_SPELLINGS.items()) if kind == "gender" else list(_POSITION_SPELLINGS.items()))
    return "; ".join(f"{word} ({', '.join(s for s in spellings if s != word)})" for word, spellings in groups)
