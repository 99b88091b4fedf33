"""What both pictures share: loading Pillow on demand, the fonts, the colours, fitting text, PNG bytes."""

from __future__ import annotations

import importlib.util
import io
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

#: Discord's attachment limit for a bot's message in a server without boosts (10 MiB).
MAX_BYTES = 10 * 1024 * 1024

BACKGROUND = (255, 255, 255)
INK = (24, 26, 32)  # contrast about 17:1 on white
MUTED = (92, 98, 110)  # seeds, labels and losers: still over 6:1 on white
LINE = (150, 156, 168)
BOX = (244, 246, 250)
BOX_EDGE = (200, 205, 214)
ACCENT = (32, 96, 200)  # the winner's bar and the table's sorting column
STRIPE = (240, 243, 248)
HEADING = (230, 236, 246)


class PicturesUnavailable(RuntimeError):
    """Pillow (the ``images`` extra) isn't installed: there is text, but no picture."""


def pictures_available() -> bool:
    """Whether a picture can be drawn here, without importing Pillow."""
    try:
        return importlib.util.find_spec("PIL") is not None
    except (ImportError, ValueError):  # ValueError: PIL set to None in sys.modules
        return False


def pillow() -> Any:
    """The PIL package, imported now (the first picture pays for it, an idle bot never does)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise PicturesUnavailable("Pillow is not installed") from None
    return Image, ImageDraw, ImageFont


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels: no system font is needed anywhere."""
    _, _, image_font = pillow()
    return image_font.load_default(size=size)


@dataclass
class Canvas:
    image: Image.Image
    draw: ImageDraw.ImageDraw

    def text(self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int] = INK, *,
             bold: bool = False, anchor: str = "lm") -> None:
        """Text anchored by its left middle (``lm``) by default; ``bold`` thickens the strokes."""
        self.draw.text(xy, text, font=font(size), fill=fill, anchor=anchor,
                       stroke_width=1 if bold else 0, stroke_fill=fill)


def canvas(width: int, height: int) -> Canvas:
    image_module, draw_module, _ = pillow()
    image = image_module.new("RGB", (max(1, int(width)), max(1, int(height))), BACKGROUND)
    return Canvas(image, draw_module.Draw(image))


def text_width(text: str, size: int) -> float:
    return float(font(size).getlength(text))


def fit(text: str, size: int, width: float) -> str:
    """The text cut to ``width`` pixels at ``size``, the cut marked with an ellipsis."""
    if text_width(text, size) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + "…", size) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, size: int, width: float) -> list[str]:
    """Words to lines no wider than ``width`` pixels (a word too long for a line is cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and text_width(candidate, size) > width:
            lines.append(fit(current, size, width))
            current = word
        else:
            current = candidate
    if current:
        lines.append(fit(current, size, width))
    return lines


def png(picture: Canvas) -> bytes:
    """The picture as PNG bytes: flat colours and text compress to tens of kilobytes."""
    out = io.BytesIO()
    picture.image.save(out, format="PNG", compress_level=1)  # fast: a bigger file, still far under the limit
    return out.getvalue()
