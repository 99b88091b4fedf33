"""What a Discord user reads must be in Discord's words: never a command of the command line
(``sideline import ...``) or one of its ``--flags``. The fake reads every message, embed, button,
menu and form the bot sends, in every test, and remembers what breaks that rule (``FakeDiscord.check``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

CLI_COMMAND = re.compile(r"(?<![\w:/.-])sideline [a-z][a-z-]+")
CLI_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
#: A link is read whole, never as words: a calendar link's random token may hold ``--x``.
LINK = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
#: Texts a user may read although they look like the command line (none today).
IN_FLIGHT: tuple[str, ...] = ()
VISIBLE = ("content", "title", "description", "name", "value", "text", "label", "placeholder")


def visible_text(node: Any) -> Iterator[str]:
    """Every string a user can read in a request body: content, embeds, components, modals."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in VISIBLE and isinstance(value, str):
                yield value
            elif isinstance(value, dict | list):
                yield from visible_text(value)
    elif isinstance(node, list):
        for item in node:
            yield from visible_text(item)


def command_line_words(body: Any) -> list[str]:
    """The command-line commands and flags a body shows its reader."""
    found = []
    for text in visible_text(body):
        for allowed in IN_FLIGHT:
            text = text.replace(allowed, "")
        text = LINK.sub("", text)
        found += [m.group(0) for m in CLI_COMMAND.finditer(text)] + [m.group(0) for m in CLI_FLAG.finditer(text)]
    return found
