"""The rulebook each rules preset plays by, shipped inside the package: a league set up in Discord
answers `/rule` from its preset's rulebook from the first minute, with no file to copy anywhere."""

from __future__ import annotations

from importlib import resources

from bot.league.rules import PRESET_NAMES

#: The folder of package data (declared in pyproject.toml) holding one ``<preset>.txt`` per preset.
FOLDER = "rulebooks"


def preset_rulebook(preset: str) -> bytes | None:
    """The preset's rulebook as shipped (UTF-8 text); None for a name that is no preset."""
    if preset not in PRESET_NAMES:
        return None
    return resources.files("bot.league").joinpath(FOLDER, f"{preset}.txt").read_bytes()
