"""How the public league page names a player.

The page is readable by anyone with its link. Players without a Discord account are juniors whose
guardians manage them (storage/models/core.py ``PlayerGuardian``): minors, so the page shows their
initials ("J. D.") unless the league chooses their full names. Everyone else is shown by full name,
as in Discord.
"""

from __future__ import annotations

from typing import Literal, get_args

PageNames = Literal["initials", "full"]
NAME_CHOICES: tuple[PageNames, ...] = get_args(PageNames)
#: Minors are shown by their initials until the league says otherwise.
DEFAULT_NAMES: PageNames = "initials"


def initials(name: str) -> str:
    """ "Jo Dale" -> "J. D."; each word (and each part of a hyphenated one) by its first letter."""
    parts = [p for word in name.split() for p in word.split("-") if p]
    return " ".join(f"{p[0].upper()}." for p in parts) or "?"


def page_name(name: str, *, managed: bool, choice: str | None) -> str:
    """The name the page shows: a managed player's initials unless the league chose full names."""
    if managed and (choice or DEFAULT_NAMES) == "initials":
        return initials(name)
    return name
