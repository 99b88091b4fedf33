"""Which of the bot's gateway shards a process runs.

Discord splits a bot's servers into ``shard_count`` shards, a server's being
``(guild_id >> 22) % shard_count``, and sends each shard's gateway events (the interactions among
them) only to the connection that identified as that shard. ``sideline run --shard-ids 0,1
--shard-count 4`` runs shards 0 and 1 here; other processes, on this machine or others, run the
rest, all on one PostgreSQL database. Queued messages are REST sends that no shard owns: every
process sends them (bot/delivery/courier.py). On SQLite one process runs the bot, so it may run every shard
but not some of them.

The values come from ``[bot] shard_ids`` / ``shard_count``, ``SIDELINE_SHARD_IDS`` /
``SIDELINE_SHARD_COUNT`` or the command line (bot/config/settings.py says which wins); each is checked here
and the problem phrased for the operator (a ValueError's text, which the caller places).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Discord's largest shard count for the biggest bots is in the thousands; a typo is not.
MAX_SHARDS = 4096


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """``count`` None: not sharded, one gateway connection for every server (no shard settings).
    ``ids`` None with a count: every shard in this process."""

    ids: tuple[int, ...] | None = None
    count: int | None = None

    @property
    def sharded(self) -> bool:
        return self.count is not None

    @property
    def here(self) -> tuple[int, ...]:
        """The shards this process connects."""
        if self.count is None:
            return (0,)
        return self.ids if self.ids is not None else tuple(range(self.count))

    @property
    def all_here(self) -> bool:
        """Every shard runs in this process: no other process answers any server's interactions."""
        return self.count is None or set(self.here) == set(range(self.count))

    def owns(self, guild_id: int) -> bool:
        """This process receives the server's gateway events (its interactions among them)."""
        return self.count is None or shard_of(guild_id, self.count) in self.here

    def __str__(self) -> str:
        if self.count is None:
            return "not sharded"
        if self.all_here:
            return f"all {self.count} shard{'s' * (self.count != 1)}"
        return f"shard{'s' * (len(self.here) != 1)} {', '.join(map(str, self.here))} of {self.count}"


def parse_count(value: object) -> int:
    """A shard count: an integer (or its digits, from the environment or the command line), 1 or more."""
    count = _integer(value, "the number of shards")
    if count < 1:
        raise ValueError(f"must be 1 or more (the number of shards the bot runs in all), not {count}")
    if count > MAX_SHARDS:
        raise ValueError(f"must be at most {MAX_SHARDS}, not {count}")
    return count


def parse_ids(value: object) -> tuple[int, ...]:
    """Shard ids: a list of integers, or ``"0,1"`` (from the environment or the command line)."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not value.strip() or any(not p for p in parts):
            raise ValueError(f"must be shard numbers separated by commas, like 0,1, not {value!r}")
        items: list[object] = list(parts)
    elif isinstance(value, list):
        items = list(value)
        if not items:
            raise ValueError("must name at least one shard, like [0, 1]")
    else:
        raise ValueError(f"must be a list of shard numbers like [0, 1], not {value!r}")
    ids = tuple(_integer(item, "shard numbers") for item in items)
    negative = [i for i in ids if i < 0]
    if negative:
        raise ValueError(f"shard numbers start at 0, not {negative[0]}")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"shard {twice[0]} is named twice")
    return tuple(sorted(ids))


def combined_problem(shards: Shards, *, sqlite: bool) -> tuple[str, str] | None:
    """What is wrong with the ids and count together, and on this database: (which value, the
    problem), the value being ``shard_ids`` or ``shard_count``; None when they fit."""
    if shards.ids is not None and shards.count is None:
        return "shard_ids", "needs shard_count too (how many shards the bot runs in all, across every process)"
    if shards.ids is not None and shards.count is not None:
        outside = [i for i in shards.ids if i >= shards.count]
        if outside:
            count = shards.count
            which = "the only shard is 0" if count == 1 else f"they are 0 to {count - 1}"
            return "shard_ids", (f"shard {outside[0]} is not one of {count} shard{'s' * (count != 1)} "
                                 f"(with shard_count = {count} {which})")
    if sqlite and not shards.all_here:
        return "shard_ids", (f"runs {shards} in this process, so other processes would run the rest, and on "
                             "SQLite only one process may run the bot; use PostgreSQL for several "
                             "(or run every shard here)")
    return None


def _integer(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"must be {what}, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value.strip())
    raise ValueError(f"must be {what}, not {value!r}")
