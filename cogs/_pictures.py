"""Pictures beside a text answer (/bracket show, /standings show): drawn off the event loop, attached as PNGs.

The text stays in the message (screen readers read it); each picture says so in its alt text.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.services.pictures import MAX_BYTES, PicturesUnavailable

log = logging.getLogger("sideline.pictures")

NO_PICTURES = "Pictures aren't available on this bot, so here is the text only."
TOO_BIG = "The picture came out larger than Discord takes, so here is the text only."
NOT_DRAWN = "The picture couldn't be drawn this time, so here is the text only."
#: Discord's limit on attachments in one message.
MAX_FILES = 10


@dataclass(frozen=True)
class Drawing:
    """One picture to draw: its file name, its alt text and the function that draws it."""

    filename: str
    alt: str
    draw: Callable[[], bytes]


@dataclass(frozen=True)
class Attached:
    files: list[discord.File]
    note: str | None = None  # why there is no picture, politely; None when every picture is attached


def _draw_all(drawings: Sequence[Drawing]) -> list[tuple[Drawing, bytes]]:
    return [(d, d.draw()) for d in drawings]


async def attach(interaction: discord.Interaction, drawings: Sequence[Drawing]) -> Attached:
    """The pictures for an answer, within the upload limit Discord gave the interaction."""
    return await draw(drawings, min(MAX_BYTES, interaction.filesize_limit or MAX_BYTES))


async def draw(drawings: Sequence[Drawing], limit: int = MAX_BYTES) -> Attached:
    """The pictures as Discord files, drawn in a worker thread (an image takes tens of milliseconds,
    which the event loop must not wait through)."""
    if not drawings:
        return Attached([])
    try:
        drawn = await asyncio.to_thread(_draw_all, drawings[:MAX_FILES])
    except PicturesUnavailable:
        return Attached([], NO_PICTURES)
    except Exception:  # a picture is an extra: the text still goes out
        log.exception("could not draw %s", drawings[0].filename)
        return Attached([], NOT_DRAWN)
    if any(len(data) > limit for _, data in drawn):
        log.warning("a picture (%s) was over %s bytes: sent the text only", drawings[0].filename, limit)
        return Attached([], TOO_BIG)
    return Attached([discord.File(io.BytesIO(data), filename=d.filename, description=d.alt[:1024])
                     for d, data in drawn])


def file_name(text: str, fallback: str) -> str:
    """A file name Discord shows as is: letters, digits and dashes from ``text``."""
    cleaned = "".join(c if c.isascii() and c.isalnum() else "-" for c in text.casefold()).strip("-")
    while "--" in cleaned:
        cleaned = cleaned.replace("--", "-")
    return (cleaned[:60] or fallback) + ".png"
