"""Pictures (PNG) of the playoff bracket and the standings that read well on a phone.

Drawn with Pillow, the optional ``images`` extra, imported only inside the drawing functions: a bot
nobody asks for a picture never loads it. Each function takes the data the text answer is made
from, so the picture and the text always agree.
"""

from bot.services.pictures.bracket import bracket_png
from bot.services.pictures.canvas import MAX_BYTES, PicturesUnavailable, pictures_available
from bot.services.pictures.standings import standings_png

__all__ = ["MAX_BYTES", "PicturesUnavailable", "bracket_png", "pictures_available", "standings_png"]
