"""Names a file refers to (teams, divisions, game ids) checked against those the league knows,
with a "did you mean" for a slip, so the message says what to fix rather than what to import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.discord_text import quote
from bot.league.typos import did_you_mean
from bot.services.imports.csv_rows import Problem, TeamRow

#: Known names listed in full in an "unknown" message up to this many.
MAX_LISTED = 12
NAME_SHOWN = 60  # a name from a file, quoted in a problem: enough to recognise it


def _listed(what: str, known: Sequence[str]) -> str:
    if not known:
        return ""
    names = sorted(known, key=str.casefold)
    shown = ", ".join(names[:MAX_LISTED]) + (", ..." if len(names) > MAX_LISTED else "")
    return f"; {what}: {shown}"


def unknown_team(name: str, known: Sequence[str], league_key: str) -> str:
    """Why ``name`` is refused: a likely slip is named; "import teams first" only when none is close."""
    meant = did_you_mean(name, known)
    name = quote(name, NAME_SHOWN)
    if meant is not None:
        return f"unknown team {name!r}: did you mean {meant!r}?"
    if not known:
        return f"unknown team {name!r} (league {league_key} has no teams yet: import teams first)"
    return f"unknown team {name!r} (no such team in league {league_key}{_listed('its teams', known)})"


def unknown_game(code: str, known: Sequence[str], league_key: str) -> str:
    meant = did_you_mean(code, known)
    code = quote(code, NAME_SHOWN)
    if meant is not None:
        return f"unknown game_id {code!r}: did you mean {meant!r}?"
    return f"unknown game_id {code!r} (no such game in league {league_key}; import games first)"


@dataclass
class Divisions:
    """Each row's division as it will be stored, the rows refused and what looks like a slip."""

    names: dict[int, str | None] = field(default_factory=dict)  # line -> division name to store
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def check_divisions(rows: Sequence[TeamRow], fixed: Sequence[str], stored: Sequence[str]) -> Divisions:
    """Where the rules size the court by division (youth: junior and senior), a team must be in one
    of those, any case (``U14`` broke ``/lineup`` later); elsewhere any name goes, but a new one a
    slip away from another (``Nroth`` beside ``North``) is warned about."""
    out = Divisions()
    seen: list[str] = list(stored)
    for r in rows:
        if r.division is None:
            out.names[r.line] = None
            continue
        if fixed:
            exact = next((d for d in fixed if d.casefold() == r.division.casefold()), None)
            if exact is not None:
                out.names[r.line] = exact
                continue
            meant = did_you_mean(r.division, fixed)
            hint = f"did you mean {meant!r}? " if meant is not None else ""
            out.problems.append(Problem(r.line, f"division {r.division!r} is not one of this league's divisions: "
                                                f"{hint}use one of {', '.join(fixed)}"))
            continue
        out.names[r.line] = r.division
        if any(d.casefold() == r.division.casefold() for d in seen):
            continue
        meant = did_you_mean(r.division, seen)
        if meant is not None:
            out.warnings.append(f"line {r.line}: new division {r.division!r}: did you mean {meant!r}?")
        seen.append(r.division)
    return out
