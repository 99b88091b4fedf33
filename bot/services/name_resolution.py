"""Turn what a captain types ("Alice, bea q, <@123>") into roster players, asking back when unsure.

Reusable by any command that takes a list of players as text. Pure: the caller passes the candidates
(e.g. a team's roster, in roster order) and gets them back in the order typed, or one error that
lists every name it could not match.

How a typed name is matched (case-, accent- and spacing-insensitive), tier by tier; the first tier
with any match decides, and more than one match there is asked back, never guessed:
1. a mention ``<@id>`` (what Discord inserts when you pick a member): that Discord id;
2. the full name;
3. whole words of the name ("alice", "hart", "alice hart");
4. any part of the name: its start, a word's start, or anything inside ("ali", "har", "art").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.discord_text import defuse_mentions
from bot.errors import InvalidInput
from storage.text import printable

_MENTION = re.compile(r"<@!?(\d{1,20})>")
_SEPARATORS = re.compile(r"[,;\n]")
_QUOTES = "\"'“”‘’«»`"
MAX_NAMES_LISTED = 5
MAX_TOKENS = 60


@dataclass(frozen=True)
class Candidate:
    """Someone a typed name may mean: ``key`` is what the caller wants back (e.g. a player id)."""

    key: int
    name: str
    discord_id: int | None = None
    group: int | None = None  # e.g. the team id, when candidates come from several rosters


C = TypeVar("C", bound=Candidate)


class NamesNotResolved(InvalidInput):
    """Some typed names match nobody, or more than one player; ``problems`` says which."""

    def __init__(self, problems: Sequence[str], lead: str = "Some names need a second look:") -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join([lead, *(f"• {p}" for p in self.problems)]))


@dataclass(frozen=True)
class Token:
    """One entry of the typed list: a name, or a mention's Discord id."""

    text: str
    discord_id: int | None = None

    @property
    def shown(self) -> str:
        return f"<@{self.discord_id}>" if self.discord_id is not None else f"“{defuse_mentions(self.text)}”"


def fold(text: str) -> str:
    """Lower-case, accents removed, quotes dropped and spaces collapsed, for comparing names."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ch not in _QUOTES)
    return " ".join(plain.casefold().split())


def split_names(text: str) -> list[Token]:
    """The typed list as tokens, in order: commas, semicolons or new lines separate names, and each
    mention is a token of its own (so "<@1> <@2>" is two)."""
    tokens: list[Token] = []
    for piece in _SEPARATORS.split(printable(text, keep="\n")):  # "Bea\x00 Quinn" is Bea Quinn
        last = 0
        for m in _MENTION.finditer(piece):
            _add_name(tokens, piece[last:m.start()])
            tokens.append(Token(m.group(0), int(m.group(1))))
            last = m.end()
        _add_name(tokens, piece[last:])
    return tokens


def _add_name(tokens: list[Token], text: str) -> None:
    name = " ".join(text.strip().strip(_QUOTES).lstrip("@").split())
    if name:
        tokens.append(Token(name[:100]))


def _names(found: Sequence[Candidate]) -> str:
    names = [c.name for c in found[:MAX_NAMES_LISTED]]
    if len(found) > MAX_NAMES_LISTED:
        names.append(f"{len(found) - MAX_NAMES_LISTED} others")
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _word_runs(name: str) -> set[str]:
    words = name.split()
    return {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


def matches(token: Token, candidates: Sequence[C]) -> list[C]:
    """The candidates the token may mean, from the first tier that has any (module docstring)."""
    if token.discord_id is not None:
        return [c for c in candidates if c.discord_id == token.discord_id]
    wanted = fold(token.text)
    if not wanted:
        return []
    folded = [(c, fold(c.name)) for c in candidates]
    tiers = (
        lambda name: name == wanted,
        lambda name: wanted in _word_runs(name),
        lambda name: wanted in name,
    )
    for tier in tiers:
        found = [c for c, name in folded if tier(name)]
        if found:
            return found
    return []


def problem(token: Token, found: Sequence[Candidate], where: str) -> str | None:
    """Why the token can't be used as it stands (``where``: e.g. "Hawks's roster"), or None."""
    if not found:
        return f"{token.shown} doesn't match anyone on {where}."
    if len(found) > 1:
        return f"{token.shown} matches {_names(found)} — which one?"
    return None


def resolve_names(text: str, candidates: Sequence[C], *, where: str,
                  lead: str = "Some names need a second look:") -> list[C]:
    """Every typed name's candidate, in the order typed (repeats kept); NamesNotResolved lists every
    name that matches nobody or more than one candidate, InvalidInput when nothing is typed."""
    tokens = split_names(text)
    if not tokens:
        raise InvalidInput("List the players by name or mention, separated by commas.")
    if len(tokens) > MAX_TOKENS:
        raise InvalidInput(f"That's {len(tokens)} names; list at most {MAX_TOKENS}.")
    resolved: list[C] = []
    problems: list[str] = []
    for token in tokens:
        found = matches(token, candidates)
        why = problem(token, found, where)
        if why is None:
            resolved.append(found[0])
        elif why not in problems:
            problems.append(why)
    if problems:
        raise NamesNotResolved(problems, lead)
    return resolved
