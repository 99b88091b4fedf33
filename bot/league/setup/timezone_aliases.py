"""What people type for a time zone ("EST", "Pacific", "Montreal") and the IANA places they mean.

A league's zone must be a place, because abbreviations ignore daylight saving, but commissioners
type abbreviations and cities; these tables let the picker and the refusal offer the right places.
Canadian places come first: the leagues this bot was built for play in Canada.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

AliasKind = Literal["abbreviation", "region", "city"]

_EASTERN = ("America/Toronto", "America/New_York")
_CENTRAL = ("America/Winnipeg", "America/Chicago", "America/Regina")
_MOUNTAIN = ("America/Edmonton", "America/Denver", "America/Phoenix")
_PACIFIC = ("America/Vancouver", "America/Los_Angeles")
_ATLANTIC = ("America/Halifax", "America/Moncton")
_NEWFOUNDLAND = ("America/St_Johns",)
_ALASKA = ("America/Anchorage",)
_HAWAII = ("Pacific/Honolulu",)
_UK = ("Europe/London",)
_CENTRAL_EUROPE = ("Europe/Paris", "Europe/Berlin")

# Time-zone abbreviations, standard and summer time alike, with the places that keep them.
_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "est": _EASTERN, "edt": _EASTERN, "et": _EASTERN,
    "cst": _CENTRAL, "cdt": _CENTRAL, "ct": _CENTRAL,
    "mst": _MOUNTAIN, "mdt": _MOUNTAIN, "mt": _MOUNTAIN,
    "pst": _PACIFIC, "pdt": _PACIFIC, "pt": _PACIFIC,
    "ast": _ATLANTIC, "adt": _ATLANTIC, "at": _ATLANTIC,
    "nst": _NEWFOUNDLAND, "ndt": _NEWFOUNDLAND, "nt": _NEWFOUNDLAND,
    "akst": _ALASKA, "akdt": _ALASKA, "hst": _HAWAII,
    "gmt": _UK, "bst": _UK, "cet": _CENTRAL_EUROPE, "cest": _CENTRAL_EUROPE,
}

# Names of regions rather than places ("Eastern time").
_REGIONS: dict[str, tuple[str, ...]] = {
    "eastern": _EASTERN, "central": _CENTRAL, "mountain": _MOUNTAIN, "pacific": _PACIFIC,
    "atlantic": _ATLANTIC, "newfoundland": _NEWFOUNDLAND, "alaska": _ALASKA, "hawaii": _HAWAII,
    "ontario": ("America/Toronto",), "manitoba": ("America/Winnipeg",),
    "saskatchewan": ("America/Regina",), "alberta": ("America/Edmonton",),
    "british columbia": ("America/Vancouver",), "nova scotia": ("America/Halifax",),
    "new brunswick": ("America/Moncton",), "prince edward island": ("America/Halifax",),
}

# Cities whose zone is named after another city (Montreal keeps Toronto's clock).
_CITIES: dict[str, str] = {
    "toronto": "America/Toronto", "montreal": "America/Toronto", "ottawa": "America/Toronto",
    "quebec": "America/Toronto", "quebec city": "America/Toronto", "gatineau": "America/Toronto",
    "laval": "America/Toronto",
    "mississauga": "America/Toronto", "brampton": "America/Toronto", "hamilton": "America/Toronto",
    "kitchener": "America/Toronto", "waterloo": "America/Toronto",
    "markham": "America/Toronto", "oshawa": "America/Toronto", "kingston": "America/Toronto",
    "sudbury": "America/Toronto", "sherbrooke": "America/Toronto",
    "winnipeg": "America/Winnipeg", "regina": "America/Regina", "saskatoon": "America/Regina",
    "calgary": "America/Edmonton", "edmonton": "America/Edmonton", "red deer": "America/Edmonton",
    "vancouver": "America/Vancouver", "victoria": "America/Vancouver",
    "burnaby": "America/Vancouver", "kelowna": "America/Vancouver",
    "halifax": "America/Halifax", "charlottetown": "America/Halifax", "moncton": "America/Moncton",
    "fredericton": "America/Moncton", "saint john": "America/Moncton", "st johns": "America/St_Johns",
    "new york": "America/New_York", "nyc": "America/New_York", "boston": "America/New_York",
    "philadelphia": "America/New_York", "washington": "America/New_York", "atlanta": "America/New_York",
    "miami": "America/New_York", "buffalo": "America/New_York", "detroit": "America/Detroit",
    "chicago": "America/Chicago", "dallas": "America/Chicago", "houston": "America/Chicago",
    "minneapolis": "America/Chicago", "denver": "America/Denver", "salt lake city": "America/Denver",
    "phoenix": "America/Phoenix", "los angeles": "America/Los_Angeles", "san francisco": "America/Los_Angeles",
    "san diego": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "las vegas": "America/Los_Angeles",
}


def fold(text: str) -> str:
    """Letters and digits only, lower case, accents dropped: "St. John's" and "Québec" read as typed."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if c.isalnum())


def _folded(table: Mapping[str, tuple[str, ...]], kind: AliasKind) -> dict[str, tuple[AliasKind, tuple[str, ...]]]:
    return {fold(k): (kind, v) for k, v in table.items()}


#: Folded alias -> (what kind of name it is, the places it means, best first).
ALIASES: Mapping[str, tuple[AliasKind, tuple[str, ...]]] = MappingProxyType({
    **_folded({k: (v,) for k, v in _CITIES.items()}, "city"),
    **_folded(_REGIONS, "region"),
    **_folded(_ABBREVIATIONS, "abbreviation"),
})


def alias(typed: str) -> tuple[AliasKind, tuple[str, ...]] | None:
    """The kind and places of exactly what was typed, if it is a known abbreviation, region or city."""
    return ALIASES.get(fold(typed))


def alias_places(typed: str) -> list[str]:
    """Places meant by what was typed so far: an exact alias first, then aliases it starts (from 3 letters)."""
    needle = fold(typed)
    if not needle:
        return []
    places: list[str] = list(ALIASES[needle][1]) if needle in ALIASES else []
    if len(needle) >= 3:
        for key, (_, zones) in ALIASES.items():
            if key != needle and key.startswith(needle):
                places += zones
    return list(dict.fromkeys(places))
