"""Text that is safe and readable in Discord: timestamps, trimming, neutralised mentions."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from storage.text import printable

ZERO_WIDTH_SPACE = "\u200b"
_MENTION = re.compile(r"@(everyone|here)|<@[!&]?\d+>|<#\d+>")


def timestamp(when: datetime, style: str = "F") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(when.timestamp())}:{style}>"


def local_label(when: datetime, tz: ZoneInfo) -> str:
    """Short local time for places Discord won't render timestamps (autocomplete labels)."""
    local = when.astimezone(tz)
    return f"{local:%a} {local.day} {local:%b %H:%M}"


def defuse_mentions(text: str) -> str:
    """Make @everyone, @here and <@...> inert even if allowed_mentions were ever misconfigured."""
    return _MENTION.sub(lambda m: m.group(0).replace("@", "@" + ZERO_WIDTH_SPACE, 1)
                        .replace("<#", "<#" + ZERO_WIDTH_SPACE, 1), text)


def clip(text: str, limit: int) -> str:
    """Trim to ``limit`` characters with an ellipsis, for Discord's field limits."""
    text = text.strip()
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def clean_text(text: str, keep: str = "") -> str:
    """The one cleaner for text people give the bot, typed or in a CSV file, before it is stored:
    control and bidirectional-override characters dropped (but those in ``keep``), mentions
    defused (a ``<@&role>`` in a team name shows as text in public posts), ends trimmed."""
    return defuse_mentions(printable(text, keep)).strip()


def clean_user_text(text: str, limit: int) -> str:
    """User-written text, lines kept (:func:`clean_text`), length capped."""
    return clip(clean_text(text, keep="\n\t"), limit)


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def blank(text: str) -> bool:
    """Nothing a reader could see: empty, spaces, or zero-width characters only."""
    return not text.translate(_INVISIBLE).strip()
