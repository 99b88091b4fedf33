"""How `sideline run` logs: ``text`` lines for a terminal or journald, or ``json`` for a log collector.

A JSON line is one object: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and where
known ``guild_id``, ``league`` and ``interaction_id`` (ids as strings, as Discord writes them, so a
JavaScript reader keeps every digit), plus ``exc_info`` with the traceback. The ids come from
``bind``: the command tree binds them when an interaction starts (bot/client/tree.py). discord.py runs each
interaction in its own asyncio task, and a task has its own copy of the context variables, so every
line that interaction's work logs, in any module, carries its ids and no other interaction's. A call
may pass the same names with ``extra=`` where it knows better (e.g. a queued message's server).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import IO, Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: What a line may carry besides time, level, logger and message; bound or passed with ``extra=``.
IDS = ("guild_id", "league", "interaction_id")

_ids: ContextVar[Mapping[str, str]] = ContextVar("sideline_log_ids", default=MappingProxyType({}))


def bind(**ids: object) -> None:
    """Attach ids to every line logged from here on in this task (and the tasks it starts)."""
    known = {name: str(value) for name, value in ids.items() if value is not None}
    _ids.set({**_ids.get(), **known})


@contextmanager
def bound(**ids: object) -> Iterator[None]:
    """``bind`` for the length of a block, for work that shares its task with other work."""
    token = _ids.set(_ids.get())
    try:
        bind(**ids)
        yield
    finally:
        _ids.reset(token)


class BoundIds(logging.Filter):
    """Copies the bound ids onto each record (unless the call passed them with ``extra=``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in _ids.get().items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line; newlines in messages and tracebacks are escaped by JSON itself."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in IDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = str(value)
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def handler(log_format: str, stream: IO[str] | None = None) -> logging.Handler:
    """A stream handler (stderr by default) writing ``text`` or ``json`` lines, with the bound ids."""
    out = logging.StreamHandler(stream)
    out.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    out.addFilter(BoundIds())
    return out


def configure(level: str, log_format: str) -> None:
    """The root logger for `sideline run`, unless something configured logging already (as tests do)."""
    logging.basicConfig(level=level, handlers=[handler(log_format)])
