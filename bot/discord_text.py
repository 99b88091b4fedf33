"""Text that is safe and readable in Discord: timestamps, trimming, neutralised mentions, and what
keeps a message within the lengths Discord accepts."""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
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


ELLIPSIS = "…"
FENCE = "```"
#: Markup a cut must not split: a user, role or channel mention (defused ones too), a timestamp, a
#: custom emoji, a command mention, a masked link, a link, a code fence. Cut in half, each shows as
#: broken text (``<t:17000`` instead of a date, ``<@5000`` instead of a name).
WHOLE_MARKUP = re.compile(
    r"<(?:@\u200b?[!&]?\d+|#\u200b?\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+|/[-\w ]{1,100}:\d+)>"
    r"|\[[^\]\n]*\]\(<?https?://[^)\s]*>?\)|<?https?://[^\s>]+>?|`{3}")
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}  # zero-width joiner, variation selectors: part of the emoji before


def clip(text: str, limit: int) -> str:
    """Trim to ``limit`` characters with an ellipsis, for Discord's length limits; the cut falls
    before a mention, timestamp or link it would split, never inside an emoji or between a letter
    and its accent, and a code block it would leave open is closed."""
    text = text.strip()
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:max(0, limit)]
    head = text[:_cut(text, limit - len(ELLIPSIS))].rstrip()
    if head.count(FENCE) % 2:  # an open code block would swallow whatever follows the clipped text
        head = text[:_cut(text, max(0, limit - len(ELLIPSIS) - len(FENCE)))].rstrip()
        if head.count(FENCE) % 2:
            return f"{head}{ELLIPSIS}{FENCE}"
    return head + ELLIPSIS


def _cut(text: str, at: int) -> int:
    """Where to cut ``text`` at or before ``at``: not inside markup (unless it begins the text, when
    nothing of it would be left) nor inside one character as a reader sees it."""
    for whole in WHOLE_MARKUP.finditer(text, 0, at + 2000):  # markup is short: one ending past the cut began near it
        if whole.start() >= at:
            break
        if whole.end() > at and whole.start() > 0:
            at = whole.start()
            break
    while 0 < at < len(text) and (unicodedata.combining(text[at]) or text[at] in _JOINERS
                                  or text[at - 1] == "\u200d" or _splits_a_flag(text, at)):
        at -= 1
    return at


def _splits_a_flag(text: str, at: int) -> bool:
    """A flag is two regional-indicator letters: cutting after an odd count of them splits one."""
    count = 0
    while at - count > 0 and "\U0001f1e6" <= text[at - count - 1] <= "\U0001f1ff":
        count += 1
    return count % 2 == 1 and "\U0001f1e6" <= text[at] <= "\U0001f1ff"


def quote(text: str, limit: int = 100) -> str:
    """The one way an answer repeats what someone typed ("There's no team “…”"): cleaned as stored text
    is (:func:`clean_text`), on one line, and clipped to ``limit`` (:func:`clip`), so a long value
    can't push the answer past Discord's 2,000 characters nor end it in half a mention."""
    return clip(" ".join(clean_text(text, keep="\n\t\r").split()), limit)


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


#: Discord's limits on a message (https://discord.com/developers/docs/resources/message#create-message,
#: https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL = 6000  # title, description, field names and values, footer text and author name, all embeds
EMBED_FIELDS = 25
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
FOOTER_TEXT, AUTHOR_NAME = 2048, 256


def fit_content(content: str, limit: int = CONTENT_LIMIT) -> str:
    """A message's text within Discord's limit: untouched when it fits, else clipped (:func:`clip`)."""
    return content if len(content) <= limit else clip(content, limit)


def fit_embeds(embeds: Sequence[Mapping[str, object]]) -> list[dict[str, Any]]:
    """Embeds (as ``discord.Embed.to_dict`` gives them) within every limit Discord sets: each text
    clipped to its own limit, at most 25 fields and 10 embeds, and the longest texts shortened until
    all of them together fit in 6,000 characters. What fits already is returned unchanged."""
    if _fits(embeds):  # nearly always: no copy
        return [dict(e) for e in embeds]
    out: list[dict[str, Any]] = [copy.deepcopy(dict(e)) for e in embeds[:EMBEDS_PER_MESSAGE]]
    for embed in out:
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            hidden = len(fields) - EMBED_FIELDS + 1
            embed["fields"] = [*fields[:EMBED_FIELDS - 1],
                               {"name": ELLIPSIS, "value": f"{hidden} more not shown", "inline": False}]
    texts = _texts(out)
    for holder, key, limit in texts:
        if len(holder[key]) > limit:
            holder[key] = clip(holder[key], limit) or ELLIPSIS
    excess = sum(len(holder[key]) for holder, key, _ in texts) - EMBED_TOTAL
    while excess > 0:
        holder, key, _ = max(texts, key=lambda t: len(t[0][t[1]]))
        before = len(holder[key])
        if before <= 1:
            break
        holder[key] = clip(holder[key], max(1, before - excess)) or ELLIPSIS
        excess -= before - len(holder[key])
    return out


def _fits(embeds: Sequence[Mapping[str, Any]]) -> bool:
    texts = _texts(embeds)
    return (len(embeds) <= EMBEDS_PER_MESSAGE and all(len(e.get("fields") or ()) <= EMBED_FIELDS for e in embeds)
            and all(len(holder[key]) <= limit for holder, key, limit in texts)
            and sum(len(holder[key]) for holder, key, _ in texts) <= EMBED_TOTAL)


def embeds_length(embeds: Sequence[Mapping[str, Any]]) -> int:
    """The characters Discord counts against a message's 6,000 for its embeds."""
    return sum(len(holder[key]) for holder, key, _ in _texts(embeds))


def _texts(embeds: Sequence[Mapping[str, Any]]) -> list[tuple[Any, str, int]]:
    """Every text of the embeds that Discord counts, as (the dict holding it, its key, its limit)."""
    found: list[tuple[Any, str, int]] = []
    for embed in embeds:
        found += [(embed, key, limit) for key, limit in EMBED_LIMITS.items() if isinstance(embed.get(key), str)]
        for field in embed.get("fields") or []:
            found += [(field, key, limit) for key, limit in FIELD_LIMITS.items() if isinstance(field.get(key), str)]
        for part, key, limit in (("footer", "text", FOOTER_TEXT), ("author", "name", AUTHOR_NAME)):
            holder = embed.get(part)
            if isinstance(holder, dict) and isinstance(holder.get(key), str):
                found.append((holder, key, limit))
    return found
