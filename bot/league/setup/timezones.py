"""League time zones: IANA names only, because abbreviations and fixed offsets ignore daylight saving."""

from __future__ import annotations

import re
import zoneinfo
from functools import cache

from bot.league.setup.timezone_aliases import alias, alias_places, fold

# "EST", "PST", "UTC-5", "GMT+1", "Etc/GMT+5", "-05:00": a clock that never changes for summer.
_FIXED = re.compile(r"^(?:etc/)?(?:utc|gmt|z)?\s*[+-]\s*\d{1,2}(?::?\d{2})?$", re.IGNORECASE)


class TimezoneError(ValueError):
    """A time zone a league can't use, with the one-line reason a commissioner sees."""


# Old aliases kept by the tz database for compatibility ("US/Eastern", "Australia/North"): each names a
# region, not a place, so a league picks the place instead (they still parse, see parse_timezone).
_LEGACY_REGIONS = ("Etc/", "SystemV/", "posix/", "right/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")
_LEGACY_NAMES = frozenset({"Australia/North", "Australia/South", "Australia/West", "Australia/ACT",
                           "Australia/NSW", "Australia/LHI", "Australia/Canberra", "Australia/Queensland",
                           "Australia/Tasmania", "Australia/Victoria", "Australia/Yancowinna"})


@cache
def all_zone_names() -> tuple[str, ...]:
    return tuple(sorted(n for n in zoneinfo.available_timezones() if "/" in n and not n.startswith("right/")))


@cache
def zone_names() -> tuple[str, ...]:
    """Region/City names only (America/Toronto), the ones a league should pick from."""
    return tuple(n for n in all_zone_names() if not n.startswith(_LEGACY_REGIONS) and n not in _LEGACY_NAMES)


def parse_timezone(text: str) -> str:
    """The IANA name for ``text`` (case-insensitive), or TimezoneError saying why not and what to pick."""
    name = text.strip()
    if not name:
        raise TimezoneError("Pick a time zone such as America/Toronto.")
    known = {n.casefold(): n for n in all_zone_names() if not n.startswith(("Etc/", "posix/", "SystemV/"))}
    if name.casefold() in known:
        return known[name.casefold()]
    meant = alias(name)
    if meant is not None:
        kind, places = meant
        pick = " or ".join(p for p in places[:3] if p in zone_names())
        if kind == "city" and fold(pick.rsplit("/", 1)[-1]) == fold(name):
            raise TimezoneError(f"Use the full name {pick} (Region/City), not {name!r}.")
        if kind == "city":
            raise TimezoneError(f"{name} keeps the time of {pick}: pick {pick}.")
        what = "an abbreviation, which ignores daylight saving" if kind == "abbreviation" else "a region"
        raise TimezoneError(f"{name!r} is {what}; pick the place instead: {pick}.")
    city = [n for n in zone_names() if n.casefold().endswith("/" + name.casefold().replace(" ", "_"))]
    if city:
        raise TimezoneError(f"Use the full name {city[0]} (Region/City), not {name!r}.")
    if _FIXED.match(name) or (name.isalpha() and len(name) <= 5) or "/" not in name:
        raise TimezoneError(f"{name!r} is an abbreviation or a fixed offset, which ignores daylight saving; "
                            "pick a place name such as America/Toronto.")
    raise TimezoneError(f"I don't know the time zone {name!r}; pick one from the list, e.g. America/Toronto.")


def suggest_timezones(typed: str, limit: int = 25) -> list[str]:
    """Zone names for autocomplete: the places an abbreviation or city means ("EST", "Montreal"), then
    names starting with what was typed, then those containing it."""
    needle = typed.strip().casefold().replace(" ", "_")
    names = zone_names()
    if not needle:
        common = ("America/Toronto", "America/New_York", "America/Chicago", "America/Denver",
                  "America/Los_Angeles", "America/Vancouver", "America/Halifax", "Europe/London")
        return [n for n in common if n in names][:limit]
    meant = [n for n in alias_places(typed) if n in names]
    starts = [n for n in names if n.casefold().startswith(needle) or n.casefold().split("/")[-1].startswith(needle)]
    # "EST" is inside Bucharest and Creston: once it is known as an abbreviation, those are noise.
    exact = alias(typed)
    within = [] if exact and exact[0] == "abbreviation" else [n for n in names if needle in n.casefold()]
    return list(dict.fromkeys(meant + starts + within))[:limit]
